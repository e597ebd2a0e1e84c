#include "gen/structures/tag_array/tag_array_gen.h"

#include <fmt/format.h>

#include "gen/structures/emit_util.h"
#include "gen/structures/tag_array/tag_array_ports.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

// Way `way` (an expression) of the set of lookup p, from the per-lookup copies of that set.
// (`set` names the set for the reader; it is always lk_set[p].)
std::string StateAt(const std::string& /*set*/, const std::string& way) {
  return PartSelect("lk_states", "(p*NumWays + 32'(" + way + "))*2", "2");
}
std::string TagAt(const std::string& /*set*/, const std::string& way) {
  return PartSelect("lk_tags", "(p*NumWays + 32'(" + way + "))*TagWidth", "TagWidth");
}
std::string AgeAt(const std::string& /*set*/, const std::string& way) {
  return PartSelect("lk_ages", "(p*NumWays + 32'(" + way + "))*WayBits", "WayBits");
}

std::vector<std::string> ModuleDoc(const TagArraySpec& s) {
  return {
      fmt::format("{}: banked set-associative tag array of a cache-emulated register file,",
                  s.module_name),
      "NumBanks banks, NumSets sets in all, NumWays ways, 2-bit line states (inactive, reg, cache,",
      fmt::format("dirty), true LRU per set, {} replacement. (Jing et al., sections III-B, III-C.)",
                  s.prioritized() ? "lru-prioritized" : "lru-fair"),
      "",
      "RGen: register r of warp w is the line address {all-ones prefix, w, r, zero offset}.",
      "Line address: [OffsetBits-1:0] offset, then BankBits bank, then the rest of the set index,",
      "then the tag.",
      "Each cycle: a request (up to NumLookups lookups) is accepted when req_ready_o is high; in",
      "each bank the lowest-numbered pending lookup is served, the others wait (bank conflicts,",
      "counted in conflict_cycles_o). A hit updates the line's state (read-reg with the last-use",
      "bit: reg -> inactive; store: -> dirty); a miss fills a line (not for stores, nor for a",
      "dead read-reg): the lowest inactive way, else the LRU way, under lru-prioritized never a",
      "reg line for cache data. The filled or hit way becomes the most recently used.",
      "Invariants (checked with GPURF_ASSERTIONS defined): I1 one line per (set, tag); I2",
      "lru-prioritized never evicts a reg line for a load; I3 a dirty line is reported as a dirty",
      "victim (written back) exactly once, when its way is reused; I4 only Fig. 6 transitions.",
  };
}

// RGen and the current lookups: the offered request when ready, else the latched one.
Always Front() {
  Always a;
  a.kind = AlwaysKind::kComb;
  const std::string reg_addr =
      "{{PrefixBits{1'b1}}, lk_warp_i[p*WarpBits +: WarpBits], lk_reg_i[p*RegBits +: RegBits], "
      "{OffsetBits{1'b0}}}";
  const std::string mem_addr =
      "{lk_addr_i[p*AddrWidth + OffsetBits +: AddrWidth - OffsetBits], {OffsetBits{1'b0}}}";
  a.body = {
      ForLoop("p", "NumLookups",
              {Note("RGen: registers to reg-mem line addresses; memory addresses to their line."),
               Blocking(Index("in_addr", "p"), "lk_op_i[p*2 + 1] ? " + mem_addr + " : " + reg_addr),
               Blocking(Index("cur_valid", "p"),
                        "rst_ni && (ready ? (req_valid_i && lk_valid_i[p]) : pend_q[p])"),
               Blocking(Index("cur_op", "p"), "ready ? lk_op_i[p*2 +: 2] : pend_op_q[p]"),
               Blocking(Index("cur_last", "p"), "ready ? lk_last_i[p] : pend_last_q[p]"),
               Blocking(Index("cur_addr", "p"), "ready ? in_addr[p] : pend_addr_q[p]")})};
  return a;
}

// Bank-conflict serialization: per bank the lowest-numbered current lookup is served.
Always Serialize() {
  Always a;
  a.kind = AlwaysKind::kComb;
  a.body = {ForLoop("p", "NumLookups",
                    {Blocking(Index("served", "p"), "cur_valid[p]"),
                     ForLoop("q", "NumLookups",
                             {IfThen(And({"q < p", "cur_valid[q]", Eq("lk_bank[q]", "lk_bank[p]")}),
                                     {Blocking(Index("served", "p"), "1'b0")})})})};
  return a;
}

// Tag compare of each lookup's set.
Always Lookup() {
  Always a{AlwaysKind::kComb, "", "lookup", {}};
  a.body = {
      ForLoop("p", "NumLookups",
              {Blocking(Index("hit", "p"), "1'b0"), Blocking(Index("hit_way", "p"), "'0"),
               Blocking(Index("hit_state", "p"), "2'd0"),
               ForLoop("w", "NumWays",
                       {IfThen(And({BinOp(StateAt("lk_set[p]", "w"), "!=", "2'd0"),
                                    Eq(TagAt("lk_set[p]", "w"), "lk_tag[p]")}),
                               {Blocking(Index("hit", "p"), "1'b1"),
                                Blocking(Index("hit_way", "p"), "WayBits'(w)"),
                                Blocking(Index("hit_state", "p"), StateAt("lk_set[p]", "w"))})})})};
  return a;
}

// Victim selection of each lookup that misses and allocates.
Always VictimSelect() {
  Always a{AlwaysKind::kComb, "", "victim_select", {}};
  Body per = {
      Blocking(Index("free_found", "p"), "1'b0"),
      Blocking(Index("free_way", "p"), "'0"),
      Blocking(Index("lru_way", "p"), "'0"),
      Blocking(Index("nonreg_found", "p"), "1'b0"),
      Blocking(Index("nonreg_way", "p"), "'0"),
      Blocking("nonreg_age", "'0"),
      ForLoop("w", "NumWays",
              {IfThen(And({"!free_found[p]", Eq(StateAt("lk_set[p]", "w"), "2'd0")}),
                      {Blocking(Index("free_found", "p"), "1'b1"),
                       Blocking(Index("free_way", "p"), "WayBits'(w)")}),
               IfThen(Eq(AgeAt("lk_set[p]", "w"), "WayBits'(NumWays - 1)"),
                      {Blocking(Index("lru_way", "p"), "WayBits'(w)")}),
               IfThen(And({BinOp(StateAt("lk_set[p]", "w"), "!=", "2'd1"),
                           "(!nonreg_found[p] || " + AgeAt("lk_set[p]", "w") + " > nonreg_age)"}),
                      {Blocking(Index("nonreg_found", "p"), "1'b1"),
                       Blocking(Index("nonreg_way", "p"), "WayBits'(w)"),
                       Blocking("nonreg_age", AgeAt("lk_set[p]", "w"))})}),
      Note("Misses allocate except stores (write-no-allocate) and dead register reads."),
      Blocking(Index("alloc", "p"),
               "!hit[p] && (cur_op[p] == 2'd1 || cur_op[p] == 2'd2 || "
               "(cur_op[p] == 2'd0 && !cur_last[p]))"),
      Blocking(Index("fill", "p"), "alloc[p]"),
  };
  per.push_back(Note(
      "A vacant way; else lru-fair: the LRU way whatever it holds; lru-prioritized: the LRU way\n"
      "not holding a register, or for a register the LRU way when every way holds one (cache\n"
      "data then stays out)."));
  per.push_back(
      IfThen("free_found[p]", {Blocking(Index("fill_way", "p"), "free_way[p]")},
             {IfThen("Prioritized == 0", {Blocking(Index("fill_way", "p"), "lru_way[p]")},
                     {IfThen("nonreg_found[p]", {Blocking(Index("fill_way", "p"), "nonreg_way[p]")},
                             {Blocking(Index("fill_way", "p"), "lru_way[p]"),
                              IfThen("lk_mem[p]", {Blocking(Index("fill", "p"), "1'b0")})})})}));
  per.push_back(Blocking(Index("victim", "p"), "fill[p] && !free_found[p]"));
  per.push_back(Blocking(Index("victim_state", "p"),
                         "victim[p] ? " + StateAt("lk_set[p]", "fill_way[p]") + " : 2'd0"));
  per.push_back(Blocking(Index("victim_addr", "p"), "victim[p] ? {" +
                                                        TagAt("lk_set[p]", "fill_way[p]") +
                                                        ", lk_set[p], {OffsetBits{1'b0}}} : '0"));
  a.body = {ForLoop("p", "NumLookups", per)};
  return a;
}

// The line state after each lookup (Fig. 6).
Always StateNext() {
  Always a{AlwaysKind::kComb, "", "state_next", {}};
  a.body = {ForLoop(
      "p", "NumLookups",
      {Blocking(Index("way", "p"), "hit[p] ? hit_way[p] : (fill[p] ? fill_way[p] : '0)"),
       IfThen("hit[p]",
              {IfThen(And({Eq("cur_op[p]", "2'd0"), "cur_last[p]", Eq("hit_state[p]", "2'd1")}),
                      {Blocking(Index("new_state", "p"), "2'd0")},
                      {Blocking(Index("new_state", "p"),
                                "(cur_op[p] == 2'd3) ? 2'd3 : hit_state[p]")})},
              {Blocking(Index("new_state", "p"), "fill[p] ? (lk_mem[p] ? 2'd2 : 2'd1) : 2'd0")})})};
  return a;
}

// Request latch and conflict counter.
Always RequestUpdate() {
  Body reset = {
      NonBlocking("pend_q", "'0"),
      ForLoop("p", "NumLookups",
              {NonBlocking(Index("pend_op_q", "p"), "'0"),
               NonBlocking(Index("pend_last_q", "p"), "1'b0"),
               NonBlocking(Index("pend_addr_q", "p"), "'0")}),
      NonBlocking("conflict_q", "'0"),
  };
  Body run = {
      IfThen("!ready", {NonBlocking("conflict_q", "conflict_q + 32'd1")}),
      NonBlocking("pend_q", "cur_valid & ~served"),
      IfThen("ready", {ForLoop("p", "NumLookups",
                               {NonBlocking(Index("pend_op_q", "p"), "cur_op[p]"),
                                NonBlocking(Index("pend_last_q", "p"), "cur_last[p]"),
                                NonBlocking(Index("pend_addr_q", "p"), "cur_addr[p]")})}),
  };
  return Always{AlwaysKind::kFF,
                "posedge clk_i or negedge rst_ni",
                "request_update",
                {IfThen("!rst_ni", reset, run)}};
}

// One set's lines: its tags, states and LRU ages, written by the served lookup of this set (at
// most one per cycle: the lookups served together are in different banks).
GenerateFor SetStorage() {
  GenerateFor g{"gen_sets", "s", "NumSets", {}};
  g.items.push_back(
      MakeItem(Net{"tags_q", "NumWays*TagWidth-1", "", "way w at [w*TagWidth +: TagWidth]", ""}));
  g.items.push_back(MakeItem(Net{"states_q", "NumWays*2-1", "", "way w at [w*2 +: 2]", ""}));
  g.items.push_back(
      MakeItem(Net{"ages_q", "NumWays*WayBits-1", "", "way w at [w*WayBits +: WayBits]", ""}));
  g.items.push_back(MakeItem(BlankLine{}));
  auto age = [](const std::string& w) { return PartSelect("ages_q", w + "*WayBits", "WayBits"); };
  Body touch = {
      NonBlocking(PartSelect("states_q", "32'(way[p])*2", "2"), "new_state[p]"),
      IfThen("fill[p]",
             {NonBlocking(PartSelect("tags_q", "32'(way[p])*TagWidth", "TagWidth"), "lk_tag[p]")}),
      Note("LRU: ways younger than the touched one age by one; it becomes the youngest."),
      ForLoop("w", "NumWays",
              {IfThen(BinOp(age("w"), "<", age("32'(way[p])")),
                      {NonBlocking(age("w"), age("w") + " + WayBits'(1)")})}),
      NonBlocking(age("32'(way[p])"), "'0"),
  };
  Body reset = {
      NonBlocking("tags_q", "'0"),
      NonBlocking("states_q", "'0"),
      Note("Way w starts with age w: way 0 is the most recently used."),
      ForLoop("w", "NumWays", {NonBlocking(age("w"), "WayBits'(w)")}),
  };
  Body run = {ForLoop(
      "p", "NumLookups",
      {IfThen(And({"served[p]", "(hit[p] || fill[p])", Eq("32'(lk_set[p])", "s")}), touch)})};
  g.items.push_back(MakeItem(Always{
      AlwaysKind::kFF, "posedge clk_i or negedge rst_ni", "", {IfThen("!rst_ni", reset, run)}}));
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(MakeItem(ContinuousAssign{Index("tag_rows", "s"), "tags_q"}));
  g.items.push_back(MakeItem(ContinuousAssign{Index("state_rows", "s"), "states_q"}));
  g.items.push_back(MakeItem(ContinuousAssign{Index("age_rows", "s"), "ages_q"}));

  // I1 over the stored set, whether or not a lookup touches it this cycle: the per-lookup check
  // above sees only the sets that change, so on its own it is not inductive (a duplicate could
  // wait in an untouched set); this one makes I1 provable by induction.
  const std::string sa = PartSelect("states_q", "a*2", "2");
  const std::string sb = PartSelect("states_q", "b*2", "2");
  Ifdef chk{"GPURF_ASSERTIONS", {}};
  chk.items.push_back(MakeItem(Always{
      AlwaysKind::kPlain,
      "posedge clk_i or negedge rst_ni",
      "",
      {IfThen(
          "rst_ni",
          {ForLoop("a", "NumWays",
                   {ForLoop("b", "NumWays",
                            {IfThen("a < b",
                                    {Assert("!(" + sa + " != 2'd0 && " + sb + " != 2'd0 && " +
                                                Eq(PartSelect("tags_q", "a*TagWidth", "TagWidth"),
                                                   PartSelect("tags_q", "b*TagWidth", "TagWidth")) +
                                                ")",
                                            {Quote("%m: I1 violated: stored set %0d holds one "
                                                   "tag in ways %0d and %0d"),
                                             "s", "a", "b"})})})})})}}));
  // Auxiliary invariant of I4 (a store can make only a cache line dirty): a reg line holds a
  // reg-mem line address and a cache or dirty line a memory one. It follows from the contract
  // (memory lookups stay out of the reg-mem space) and makes I4 provable by induction.
  const std::string sw = PartSelect("states_q", "w*2", "2");
  const std::string in_reg_space =
      "PrefixBits'({" + PartSelect("tags_q", "w*TagWidth", "TagWidth") +
      ", SetBits'(s)} >> (TagWidth + SetBits - PrefixBits)) == {PrefixBits{1'b1}}";
  chk.items.push_back(MakeItem(Always{
      AlwaysKind::kPlain,
      "posedge clk_i or negedge rst_ni",
      "",
      {IfThen("rst_ni",
              {ForLoop("w", "NumWays",
                       {Assert(sw + " == 2'd0 || ((" + sw + " == 2'd1) == (" + in_reg_space + "))",
                               {Quote("%m: line space violated: set %0d way %0d holds a reg line "
                                      "outside the reg-mem space or cache data inside it"),
                                "s", "w"})})})}}));
  g.items.push_back(MakeItem(std::move(chk)));
  return g;
}

Ifdef Assertions() {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(CommentItem{
      "Invariants I1-I4 at every edge, on the lines this cycle changes, and the contract that\n"
      "memory lookups stay out of the reg-mem space."}));
  d.items.push_back(MakeItem(Net{"chk_dup", "", "", "I1: a changed set holds a tag twice", ""}));
  d.items.push_back(MakeItem(Net{"chk_reg_for_load", "", "", "I2: reg victim of a load", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_dirty_lost", "", "", "I3: a dirty line reused without write-back", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_false_wb", "", "", "I3: a write-back of a line that is not dirty", ""}));
  d.items.push_back(MakeItem(Net{"chk_bad_edge", "", "", "I4: a transition not in Fig. 6", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_mem_in_reg", "", "", "a memory lookup in the reg-mem space", ""}));
  d.items.push_back(MakeItem(Net{"chk_in_reg_space", Msb("NumLookups"), "",
                                 "lookup's address has the reg-mem prefix", ""}));
  GenerateFor prefix{"gen_chk_prefix", "g", "NumLookups", {}};
  prefix.items.push_back(MakeItem(ContinuousAssign{
      "chk_in_reg_space[g]", Eq("cur_addr[g][AddrWidth-1 -: PrefixBits]", "{PrefixBits{1'b1}}")}));
  d.items.push_back(MakeItem(std::move(prefix)));
  d.items.push_back(MakeItem(Net{"chk_old", "1", "", "state before (loop temporary)", ""}));
  d.items.push_back(MakeItem(Net{"chk_sa", "1", "", "state of way a after (loop temporary)", ""}));
  d.items.push_back(MakeItem(Net{"chk_sb", "1", "", "state of way b after (loop temporary)", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_ta", "TagWidth-1", "", "tag of way a after (loop temporary)", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_tb", "TagWidth-1", "", "tag of way b after (loop temporary)", ""}));
  d.items.push_back(MakeItem(BlankLine{}));
  // The state and tag of way `w` (an int loop variable) of the lookup's set after this cycle.
  auto after_state = [](const std::string& w) {
    return "(" + Eq("32'(way[p])", w) + ") ? new_state[p] : " + StateAt("lk_set[p]", w);
  };
  auto after_tag = [](const std::string& w) {
    return "(" + Eq("32'(way[p])", w) + " && fill[p]) ? lk_tag[p] : " + TagAt("lk_set[p]", w);
  };
  const std::string edge_ok =
      std::string("chk_old == new_state[p] || ") +
      "(chk_old == 2'd0 && (new_state[p] == 2'd1 || new_state[p] == 2'd2)) || " +
      "(chk_old == 2'd1 && (new_state[p] == 2'd0 || (Prioritized == 0 && new_state[p] == 2'd2))) "
      "|| " +
      "(chk_old == 2'd2 && (new_state[p] == 2'd3 || new_state[p] == 2'd1)) || " +
      "(chk_old == 2'd3 && (new_state[p] == 2'd1 || new_state[p] == 2'd2))";
  Always terms{AlwaysKind::kComb, "", "", {}};
  terms.body = {
      Blocking("chk_dup", "1'b0"),
      Blocking("chk_reg_for_load", "1'b0"),
      Blocking("chk_dirty_lost", "1'b0"),
      Blocking("chk_false_wb", "1'b0"),
      Blocking("chk_bad_edge", "1'b0"),
      Blocking("chk_mem_in_reg", "1'b0"),
      Blocking("chk_old", "2'd0"),
      Blocking("chk_sa", "2'd0"),
      Blocking("chk_sb", "2'd0"),
      Blocking("chk_ta", "'0"),
      Blocking("chk_tb", "'0"),
      ForLoop(
          "p", "NumLookups",
          {IfThen(
              "served[p]",
              {IfThen(And({"lk_mem[p]", "chk_in_reg_space[p]"}),
                      {Blocking("chk_mem_in_reg", "1'b1")}),
               IfThen("hit[p] || fill[p]",
                      {Blocking("chk_old", StateAt("lk_set[p]", "way[p]")),
                       IfThen("!(" + edge_ok + ")", {Blocking("chk_bad_edge", "1'b1")}),
                       IfThen(And({"fill[p]", Eq("chk_old", "2'd3"),
                                   "!(rsp_victim_valid_o[p] && rsp_victim_state_o[p*2 +: 2] == "
                                   "2'd3)"}),
                              {Blocking("chk_dirty_lost", "1'b1")})}),
               IfThen(And({"rsp_victim_valid_o[p]", Eq("rsp_victim_state_o[p*2 +: 2]", "2'd3"),
                           BinOp(StateAt("lk_set[p]", "fill_way[p]"), "!=", "2'd3")}),
                      {Blocking("chk_false_wb", "1'b1")}),
               IfThen(And({"Prioritized != 0", Eq("cur_op[p]", "2'd2"), "rsp_victim_valid_o[p]",
                           Eq("rsp_victim_state_o[p*2 +: 2]", "2'd1")}),
                      {Blocking("chk_reg_for_load", "1'b1")}),
               Note("I1 on the set after this lookup."),
               ForLoop(
                   "a", "NumWays",
                   {ForLoop("b", "NumWays",
                            {Blocking("chk_sa", after_state("a")),
                             Blocking("chk_sb", after_state("b")),
                             Blocking("chk_ta", after_tag("a")), Blocking("chk_tb", after_tag("b")),
                             IfThen(And({"a < b", BinOp("chk_sa", "!=", "2'd0"),
                                         BinOp("chk_sb", "!=", "2'd0"), Eq("chk_ta", "chk_tb")}),
                                    {Blocking("chk_dup", "1'b1")})})})})}),
  };
  d.items.push_back(MakeItem(std::move(terms)));
  d.items.push_back(MakeItem(BlankLine{}));
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_invariants", {}};
  a.body.push_back(IfThen(
      "rst_ni",
      {Assert("!chk_dup", {Quote("%m: I1 violated: a set holds one tag in two lines")}),
       Assert("!chk_reg_for_load",
              {Quote("%m: I2 violated: a register line evicted for cache data")}),
       Assert("!chk_dirty_lost",
              {Quote("%m: I3 violated: a dirty line reused without its write-back")}),
       Assert("!chk_false_wb",
              {Quote("%m: I3 violated: a write-back reported for a line that is not dirty")}),
       Assert("!chk_bad_edge", {Quote("%m: I4 violated: a line state change not in Fig. 6")}),
       Assert("!chk_mem_in_reg",
              {Quote("%m: contract violated: a memory lookup addresses the reg-mem space")})}));
  d.items.push_back(MakeItem(std::move(a)));
  return d;
}

}  // namespace

GeneratedStructure EmitTagArray(const TagArraySpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  g.derived = {{"tag_width", s.tag_width},
               {"sets_per_bank", s.sets_per_bank},
               {"reg_mem_prefix_bits", s.prefix_bits},
               {"lines", s.sets * s.ways}};

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumBanks", Int(s.banks), "B: tag banks", false},
      {"NumSets", Int(s.sets), "S: sets in all banks", false},
      {"NumWays", Int(s.ways), "W: ways per set", false},
      {"AddrWidth", Int(s.addr_width), "address bits", false},
      {"OffsetBits", Int(s.offset_bits), "log2 of the line size in bytes", false},
      {"WarpBits", Int(s.warp_bits), "bits of a warp id", false},
      {"RegBits", Int(s.reg_bits), "bits of a register id", false},
      {"NumLookups", Int(s.lookups), "P: lookups per request", false},
      {"Prioritized", s.prioritized() ? "1" : "0", "1: lru-prioritized, 0: lru-fair", false},
      {"BankBits", "$clog2(NumBanks)", "bank field of the address", true},
      {"SetBits", "$clog2(NumSets)", "global set index (bank field included)", true},
      {"WayBits", "$clog2(NumWays)", "bits of a way index and of an LRU age", true},
      {"TagWidth", "AddrWidth - OffsetBits - SetBits", "stored tag bits", true},
      {"PrefixBits", "AddrWidth - OffsetBits - WarpBits - RegBits", "reg-mem prefix bits", true},
  };
  m.ports = TagArrayPortTable(s).Verilog();

  m.Blank();
  m.Comment(
      "Encodings. Line state: 2'd0 inactive, 2'd1 reg, 2'd2 cache (clean), 2'd3 dirty.\n"
      "Lookup op: 2'd0 read-reg, 2'd1 write-reg, 2'd2 load, 2'd3 store (bit 1: memory).");
  m.Blank();
  m.Comment(
      "Tag array: per set and way a tag, a state and an LRU age (0 = most recently used; the ages\n"
      "of a set are a permutation of 0..NumWays-1), stored per set (gen_sets) and read by set.");
  m.Add(MakeItem(Net{"tag_rows", "NumWays*TagWidth-1", "NumSets", "tags of each set", "mem2reg"}));
  m.Add(MakeItem(Net{"state_rows", "NumWays*2-1", "NumSets", "states of each set", "mem2reg"}));
  m.Add(
      MakeItem(Net{"age_rows", "NumWays*WayBits-1", "NumSets", "LRU ages of each set", "mem2reg"}));
  m.Comment("Lookups of the accepted request still waiting for their bank.");
  m.Add(MakeItem(Net{"pend_q", Msb("NumLookups"), "", "lookup pending", ""}));
  m.Add(MakeItem(Net{"pend_op_q", "1", "NumLookups", "its op", "mem2reg"}));
  m.Add(MakeItem(Net{"pend_last_q", Msb("NumLookups"), "", "its last-use bit", ""}));
  m.Add(MakeItem(Net{"pend_addr_q", "AddrWidth-1", "NumLookups", "its line address", "mem2reg"}));
  m.Add(MakeItem(Net{"conflict_q", "31", "", "serialization cycles", ""}));
  m.Blank();
  m.Comment("This cycle's lookups.");
  m.Add(MakeItem(Net{"ready", "", "", "no lookup pending", ""}));
  m.Add(MakeItem(
      Net{"in_addr", "AddrWidth-1", "NumLookups", "offered lookup's line address", "mem2reg"}));
  m.Add(MakeItem(Net{"cur_valid", Msb("NumLookups"), "", "current lookup", ""}));
  m.Add(MakeItem(Net{"cur_op", "1", "NumLookups", "its op", "mem2reg"}));
  m.Add(MakeItem(Net{"cur_last", Msb("NumLookups"), "", "its last-use bit", ""}));
  m.Add(MakeItem(Net{"cur_addr", "AddrWidth-1", "NumLookups", "its line address", "mem2reg"}));
  m.Add(MakeItem(Net{"lk_set", "SetBits-1", "NumLookups", "its global set", "mem2reg"}));
  m.Add(MakeItem(Net{"lk_tag", "TagWidth-1", "NumLookups", "its tag", "mem2reg"}));
  m.Add(MakeItem(Net{"lk_tags", "NumLookups*NumWays*TagWidth-1", "",
                     "its set's tags, lookup p at [p*NumWays*TagWidth +: NumWays*TagWidth]", ""}));
  m.Add(MakeItem(Net{"lk_states", "NumLookups*NumWays*2-1", "", "its set's states", ""}));
  m.Add(MakeItem(Net{"lk_ages", "NumLookups*NumWays*WayBits-1", "", "its set's LRU ages", ""}));
  m.Add(MakeItem(Net{"lk_bank", "BankBits-1", "NumLookups", "its bank", "mem2reg"}));
  m.Add(MakeItem(Net{"lk_mem", Msb("NumLookups"), "", "it is a memory op (load, store)", ""}));
  m.Add(MakeItem(Net{"served", Msb("NumLookups"), "", "served this cycle", ""}));
  m.Add(MakeItem(Net{"hit", Msb("NumLookups"), "", "hits", ""}));
  m.Add(MakeItem(Net{"hit_way", "WayBits-1", "NumLookups", "way hit", "mem2reg"}));
  m.Add(MakeItem(Net{"hit_state", "1", "NumLookups", "state of the hit line", "mem2reg"}));
  m.Add(MakeItem(Net{"free_found", Msb("NumLookups"), "", "the set has an inactive way", ""}));
  m.Add(MakeItem(Net{"free_way", "WayBits-1", "NumLookups", "the lowest inactive way", "mem2reg"}));
  m.Add(MakeItem(Net{"lru_way", "WayBits-1", "NumLookups", "the LRU way", "mem2reg"}));
  m.Add(MakeItem(Net{"nonreg_found", Msb("NumLookups"), "", "a way not holding a register", ""}));
  m.Add(MakeItem(Net{"nonreg_way", "WayBits-1", "NumLookups", "the LRU way not holding a register",
                     "mem2reg"}));
  m.Add(MakeItem(Net{"nonreg_age", "WayBits-1", "", "its age (loop temporary)", ""}));
  m.Add(MakeItem(Net{"alloc", Msb("NumLookups"), "", "a miss that wants a line", ""}));
  m.Add(MakeItem(Net{"fill", Msb("NumLookups"), "", "a line is filled", ""}));
  m.Add(MakeItem(Net{"fill_way", "WayBits-1", "NumLookups", "the way filled", "mem2reg"}));
  m.Add(MakeItem(Net{"victim", Msb("NumLookups"), "", "the fill replaces a line", ""}));
  m.Add(MakeItem(Net{"victim_state", "1", "NumLookups", "its state", "mem2reg"}));
  m.Add(MakeItem(Net{"victim_addr", "AddrWidth-1", "NumLookups", "its line address", "mem2reg"}));
  m.Add(MakeItem(Net{"way", "WayBits-1", "NumLookups", "way hit or filled", "mem2reg"}));
  m.Add(MakeItem(Net{"new_state", "1", "NumLookups", "its state after", "mem2reg"}));
  m.Blank();
  m.Add(MakeItem(ContinuousAssign{"ready", "pend_q == '0"}));
  m.Comment("RGen front end and the lookups of this cycle.");
  m.Add(MakeItem(Front()));
  m.Blank();
  m.Comment("Address fields of the current lookups.");
  GenerateFor fields{"gen_lookup_fields", "g", "NumLookups", {}};
  fields.items.push_back(
      MakeItem(ContinuousAssign{"lk_set[g]", "cur_addr[g][OffsetBits +: SetBits]"}));
  fields.items.push_back(
      MakeItem(ContinuousAssign{"lk_tag[g]", "cur_addr[g][AddrWidth-1 -: TagWidth]"}));
  fields.items.push_back(
      MakeItem(ContinuousAssign{"lk_bank[g]", "cur_addr[g][OffsetBits +: BankBits]"}));
  fields.items.push_back(MakeItem(ContinuousAssign{"lk_mem[g]", "cur_op[g][1]"}));
  fields.items.push_back(MakeItem(ContinuousAssign{
      PartSelect("lk_tags", "g*NumWays*TagWidth", "NumWays*TagWidth"), "tag_rows[lk_set[g]]"}));
  fields.items.push_back(MakeItem(ContinuousAssign{
      PartSelect("lk_states", "g*NumWays*2", "NumWays*2"), "state_rows[lk_set[g]]"}));
  fields.items.push_back(MakeItem(ContinuousAssign{
      PartSelect("lk_ages", "g*NumWays*WayBits", "NumWays*WayBits"), "age_rows[lk_set[g]]"}));
  m.Add(MakeItem(std::move(fields)));
  m.Blank();
  m.Comment("Bank conflicts: one lookup per bank and cycle, lowest-numbered first.");
  m.Add(MakeItem(Serialize()));
  m.Blank();
  m.Comment("Lookup: tag compare in each served lookup's set.");
  m.Add(MakeItem(Lookup()));
  m.Blank();
  m.Comment("Victim selection.");
  m.Add(MakeItem(VictimSelect()));
  m.Blank();
  m.Comment("State update: the Fig. 6 transition of the hit or filled line.");
  m.Add(MakeItem(StateNext()));
  m.Blank();
  m.Add(MakeItem(RequestUpdate()));
  m.Blank();
  m.Add(MakeItem(SetStorage()));
  m.Blank();
  m.Comment("Outputs; the fields of a lookup not served this cycle are zero.");
  m.Add(MakeItem(ContinuousAssign{"req_ready_o", "rst_ni && ready"}));
  m.Add(MakeItem(ContinuousAssign{"rsp_valid_o", "served"}));
  m.Add(MakeItem(ContinuousAssign{"rsp_hit_o", "served & hit"}));
  m.Add(MakeItem(ContinuousAssign{"rsp_victim_valid_o", "served & victim"}));
  m.Add(MakeItem(ContinuousAssign{"conflict_cycles_o", "conflict_q"}));
  GenerateFor pack{"gen_lookup_outputs", "g", "NumLookups", {}};
  auto gated = [](const std::string& v) { return "served[g] ? " + v + " : '0"; };
  pack.items.push_back(MakeItem(ContinuousAssign{
      PartSelect("rsp_addr_o", "g*AddrWidth", "AddrWidth"), gated("cur_addr[g]")}));
  pack.items.push_back(
      MakeItem(ContinuousAssign{PartSelect("rsp_way_o", "g*WayBits", "WayBits"), gated("way[g]")}));
  pack.items.push_back(MakeItem(ContinuousAssign{PartSelect("rsp_state_o", "g*2", "2"),
                                                 gated("(hit[g] ? hit_state[g] : 2'd0)")}));
  pack.items.push_back(
      MakeItem(ContinuousAssign{PartSelect("rsp_next_o", "g*2", "2"), gated("new_state[g]")}));
  pack.items.push_back(MakeItem(
      ContinuousAssign{PartSelect("rsp_victim_state_o", "g*2", "2"), gated("victim_state[g]")}));
  pack.items.push_back(MakeItem(ContinuousAssign{
      PartSelect("rsp_victim_addr_o", "g*AddrWidth", "AddrWidth"), gated("victim_addr[g]")}));
  m.Add(MakeItem(std::move(pack)));
  m.Blank();
  m.Add(MakeItem(Assertions()));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(AssertHeaderFile());
  g.files.push_back(top);

  g.ports = TagArrayPortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
