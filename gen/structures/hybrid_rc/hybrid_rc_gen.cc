#include "gen/structures/hybrid_rc/hybrid_rc_gen.h"

#include <fmt/format.h>

#include "gen/structures/emit_util.h"
#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/hybrid_rc/hybrid_rc_ports.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

// Line `line` of the RC is way `way` of set `set`: line = set * NumWays + way. Fields of the
// next-state variables (nv, nt, na) of a line given as (set, way) expressions.
std::string LineOf(const std::string& set, const std::string& way) {
  return "(32'(" + set + ")*NumWays + 32'(" + way + "))";
}
std::string NV(const std::string& set, const std::string& way) {
  return "nv[" + LineOf(set, way) + "]";
}
std::string NT(const std::string& set, const std::string& way) {
  return PartSelect("nt", LineOf(set, way) + "*TagWidth", "TagWidth");
}

std::vector<std::string> ModuleDoc(const HybridRcSpec& s) {
  if (!s.has_rc()) {
    return {
        fmt::format("{}: one scheduler's register scratchpad without a register cache",
                    s.module_name),
        "(Bailey, Kloosterman, Mahlke: the RSP-only design).",
        "",
        "RSP: compiler-named slots, no tags, in one generated flop array. Every RC read misses",
        "(the MRF serves it); a fill takes xf_data_i; an RC write goes to the MRF on write-back",
        "channel q and a live-out, with the slot's value, on channel 2.",
        "Invariant (checked with GPURF_ASSERTIONS defined): I4 no RSP miss (the compiler's",
        "guarantee).",
    };
  }
  if (!s.has_rsp()) {
    return {
        fmt::format("{}: one scheduler's register cache without a register scratchpad",
                    s.module_name),
        "(Bailey, Kloosterman, Mahlke: the RC-only design).",
        "",
        "RC: NumSets sets of NumWays lines, true LRU, write-allocate, liveness-hint invalidation;",
        std::string("register r of warp w is in set (r ^ w) mod NumSets with tag ") +
            (s.sets_pow2 ? "{w, r >> SetBits}." : "{w, r}."),
        "Every valid line is dirty (writes allocate, reads do not). Data in a generated flop",
        "array, u_rc_data. No transfers (no slot to transfer).",
        "",
        "Each cycle, in order: 1. six reads (RC lookup: hit, LRU touch, last-use invalidation);",
        "2. two writes (RC write-allocate evicting the LRU line to the MRF on wb channel q).",
        "Invariants (checked with GPURF_ASSERTIONS defined): I1 one line per (set, tag); I2 a",
        "valid line leaves only by write-back or last use; I4 no RSP access (there is no RSP).",
    };
  }
  return {
      fmt::format("{}: one scheduler's hybrid register cache / register scratchpad", s.module_name),
      fmt::format("(Bailey, Kloosterman, Mahlke), {} organization.",
                  HybridRcSpec::OrganizationName(s.organization)),
      "",
      "RSP: RspSlots compiler-named slots, no tags. RC: NumSets sets of NumWays lines, true LRU,",
      "write-allocate, liveness-hint invalidation; register r of warp w is in set (r ^ w) mod",
      s.sets_pow2 ? "NumSets with tag {w, r >> SetBits}. Every valid RC line is dirty (writes "
                    "allocate, reads"
                  : "NumSets with tag {w, r}. Every valid RC line is dirty (writes allocate, reads",
      "do not). Data in two generated flop arrays: u_rc_data (lines) and u_rsp_data (slots).",
      "",
      "Each cycle, in order: 1. six reads (RSP slot, or RC lookup: hit, LRU touch, last-use",
      "invalidation); 2. one background RSP transfer (fill: slot <- register, from the RC on a",
      "hit, else xf_data_i from the MRF; live-out: slot -> register), through the RC",
      "(Organization 0), beside it (1: the RC gives the register up), or none (2); 3. two writes",
      "(RSP slot, or RC write-allocate evicting the LRU line to the MRF on wb channel q).",
      "Invariants (checked with GPURF_ASSERTIONS defined): I1 one line per (set, tag); I2 a",
      "valid line leaves only by write-back, last use or supersession; I3 no stale read; I4 no",
      "RSP miss (the compiler's guarantee).",
  };
}

// Within one set's block of gen_rc_sets: the set's lines through the cycle's steps (sv valid,
// st tags, sa ages; way `way` is an expression). Static in the set, so no update builds a
// shifter over the whole array.
std::string SV(const std::string& way) {
  return "sv[" + way + "]";
}
std::string ST(const std::string& way) {
  return PartSelect("st", "32'(" + way + ")*TagWidth", "TagWidth");
}
std::string SA(const std::string& way) {
  return PartSelect("sa", "32'(" + way + ")*WayBits", "WayBits");
}

std::string CA(const std::string& way) {
  return PartSelect("cur_a", "32'(" + way + ")*WayBits", "WayBits");
}

// Tag compare of `tag` against the set's lines as they are now: hit, way.
Body Lookup(const std::string& hit, const std::string& way, const std::string& tag) {
  return {Blocking(hit, "1'b0"), Blocking(way, "'0"),
          ForLoop("w", "NumWays",
                  {IfThen(And({SV("w"), Eq(ST("w"), tag)}),
                          {Blocking(hit, "1'b1"), Blocking(way, "WayBits'(w)")})})};
}

// LRU: ways of the set younger than `way` age by one; `way` becomes the youngest.
Body Touch(const std::string& way) {
  return {Blocking("touch_age", SA(way)),
          ForLoop("w", "NumWays",
                  {IfThen(BinOp(SA("w"), "<", "touch_age"),
                          {Blocking(SA("w"), SA("w") + " + WayBits'(1)")})}),
          Blocking(SA(way), "'0")};
}

// The set-local variables of one RC insertion: a write's (*_w[q]) or the transfer's (*_x).
struct Insertion {
  std::string hit, way, free, victim, vtag;
  static Insertion Write(const std::string& q) {
    return {"hit_w[" + q + "]", "way_w[" + q + "]", "free_w[" + q + "]", "victim_w[" + q + "]",
            "vtag_w[" + q + "]"};
  }
  static Insertion Transfer() { return {"hit_x", "way_x", "free_x", "victim_x", "vtag_x"}; }
};

// Write-allocate of `tag` into the set, after its Lookup into i.hit / i.way: a miss takes the
// lowest invalid way, else the LRU way (its register is the victim); the line is written valid
// with the tag and becomes the most recently used.
Body Allocate(const Insertion& i, const std::string& tag) {
  const std::string &hit = i.hit, &way = i.way, &free = i.free;
  Body b = {
      IfThen("!" + hit, {Blocking(free, "1'b0"),
                         ForLoop("w", "NumWays",
                                 {IfThen(And({"!" + free, "!" + SV("w")}),
                                         {Blocking(free, "1'b1"), Blocking(way, "WayBits'(w)")})}),
                         IfThen("!" + free, {ForLoop("w", "NumWays",
                                                     {IfThen(Eq(SA("w"), "WayBits'(NumWays - 1)"),
                                                             {Blocking(way, "WayBits'(w)")})})}),
                         Blocking(i.victim, "!" + free), Blocking(i.vtag, ST(way))}),
      Blocking(SV(way), "1'b1"),
      Blocking(ST(way), tag),
  };
  for (Stmt& st : Touch(way))
    b.push_back(std::move(st));
  return b;
}

// The RC's register fields (spec: set (r ^ w) mod NumSets, tag {w, r >> SetBits} for a
// power-of-two number of sets, else {w, r}). `reg`/`warp` are whole-field expressions, `low` the
// register's SetBits low bits.
std::string SetExpr(const HybridRcSpec& s, const std::string& reg, const std::string& low,
                    const std::string& warp) {
  if (s.sets_pow2)
    return low + " ^ SetBits'(" + warp + ")";
  return "SetBits'((32'(" + reg + ") ^ 32'(" + warp + ")) % NumSets)";
}
std::string TagExpr(const HybridRcSpec& s, const std::string& warp, const std::string& reg,
                    const std::string& high) {
  return "{" + warp + ", " + (s.sets_pow2 ? high : reg) + "}";
}
// The register a line's tag names, in set `set` (tag bits [TagWidth-1 -: WarpBits] the warp).
std::string RegOfTag(const HybridRcSpec& s, const std::string& tag_low, const std::string& set,
                     const std::string& warp) {
  if (!s.sets_pow2)
    return tag_low + "[RegBits-1:0]";
  return "{" + tag_low + "[RegBits-SetBits-1:0], " + set + " ^ SetBits'(" + warp + ")}";
}

template <typename T>
void Append(Body& b, T&& more) {
  for (Stmt& st : more)
    b.push_back(std::move(st));
}

// One set's next state (spec: reads, transfer, writes), from the requests that address it
// only: the cycle's steps on different sets are independent, so each set runs the steps on its
// own NumWays lines, and the step results of the addressed set are selected afterwards.
GenerateFor RcSets() {
  GenerateFor g{"gen_rc_sets", "s", "NumSets", {}};
  auto net = [&](const std::string& n, const std::string& w, const std::string& u,
                 const std::string& c, const std::string& attr = "") {
    g.items.push_back(MakeItem(Net{n, w, u, c, attr}));
  };
  net("cur_v", Msb("NumWays"), "", "the set's valid bits at the start of the cycle");
  net("cur_t", "NumWays*TagWidth-1", "", "its tags");
  net("cur_a", "NumWays*WayBits-1", "", "its LRU ages");
  net("sv", Msb("NumWays"), "", "the set's valid bits through the steps");
  net("st", "NumWays*TagWidth-1", "", "its tags, way w at [w*TagWidth +: TagWidth]");
  net("sa", "NumWays*WayBits-1", "", "its LRU ages, way w at [w*WayBits +: WayBits]");
  net("touch_age", "WayBits-1", "", "age of the way touched (loop temporary)");
  net("rm", "NumReads*NumWays-1", "", "RC read p hits way w of this set, at [p*NumWays + w]");
  net("rd_in", Msb("NumReads"), "", "RC read p hits a line of this set");
  net("rd_win", "NumReads*WayBits-1", "", "its way, read p at [p*WayBits +: WayBits]");
  net("tch", Msb("NumWays"), "", "way w is touched by a read");
  net("later", "", "", "a way's last touch is after way w's (loop temporary)");
  net("suffix", "", "", "way w is touched at or after port p (loop temporary)");
  net("cnt", "WayBits-1", "", "ways that move ahead of way w (loop temporary)");
  net("hit_x", "", "", "the transfer's register is in the set (after the reads)");
  net("way_x", "WayBits-1", "", "way hit or filled");
  net("free_x", "", "", "a live-out miss found an invalid way");
  net("victim_x", "", "", "a live-out miss replaced a line");
  net("vtag_x", "TagWidth-1", "", "the victim's tag");
  net("hit_w", Msb("NumWrites"), "", "write q's register was in the set");
  net("free_w", Msb("NumWrites"), "", "a miss found an invalid way");
  net("victim_w", Msb("NumWrites"), "", "a miss replaced a line");
  net("way_w", "WayBits-1", "NumWrites", "way hit or filled", "mem2reg");
  net("vtag_w", "TagWidth-1", "NumWrites", "the victim's tag", "mem2reg");
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(
      MakeItem(ContinuousAssign{"cur_v", PartSelect("valid_q", "s*NumWays", "NumWays")}));
  g.items.push_back(MakeItem(
      ContinuousAssign{"cur_t", PartSelect("tag_q", "s*NumWays*TagWidth", "NumWays*TagWidth")}));
  g.items.push_back(MakeItem(
      ContinuousAssign{"cur_a", PartSelect("age_q", "s*NumWays*WayBits", "NumWays*WayBits")}));
  g.items.push_back(MakeItem(CommentItem{
      "Step 1 lookups of the reads in this set, on its lines at the start of the cycle."}));
  GenerateFor in{"gen_rd_match", "p", "NumReads", {}};
  GenerateFor inw{"gen_way", "w", "NumWays", {}};
  inw.items.push_back(MakeItem(
      ContinuousAssign{"rm[p*NumWays + w]",
                       "rd_valid_i[p] && !rd_rsp_i[p] && rd_set[p] == SetBits'(s) && cur_v[w] && " +
                           Eq(PartSelect("cur_t", "w*TagWidth", "TagWidth"), "rd_tag[p]")}));
  in.items.push_back(MakeItem(std::move(inw)));
  in.items.push_back(MakeItem(ContinuousAssign{"rd_in[p]", "|rm[p*NumWays +: NumWays]"}));
  g.items.push_back(MakeItem(std::move(in)));
  Always enc{AlwaysKind::kComb, "", "", {}};
  enc.body = {Blocking("rd_win", "'0"),
              ForLoop("p", "NumReads",
                      {ForLoop("w", "NumWays",
                               {IfThen("rm[p*NumWays + w]",
                                       {Blocking(PartSelect("rd_win", "p*WayBits", "WayBits"),
                                                 "WayBits'(w)")})})})};
  g.items.push_back(MakeItem(std::move(enc)));
  g.items.push_back(MakeItem(ContinuousAssign{"set_rd_hit[s]", "rd_in"}));
  g.items.push_back(MakeItem(ContinuousAssign{"set_rd_way[s]", "rd_win"}));
  Always a{AlwaysKind::kComb, "", "", {}};
  Body& b = a.body;
  b = {Blocking("sv", "cur_v"),
       Blocking("st", "cur_t"),
       Blocking("sa", "cur_a"),
       Blocking("touch_age", "'0"),
       Blocking("hit_x", "1'b0"),
       Blocking("way_x", "'0"),
       Blocking("free_x", "1'b0"),
       Blocking("victim_x", "1'b0"),
       Blocking("vtag_x", "'0"),
       Blocking("hit_w", "'0"),
       Blocking("free_w", "'0"),
       Blocking("victim_w", "'0"),
       ForLoop("q", "NumWrites", {Blocking("way_w[q]", "'0"), Blocking("vtag_w[q]", "'0")}),
       Note("1. Reads: the LRU touches in port order, as one function of the set's hits: the\n"
            "touched ways become the youngest, ordered by their last touch; the others keep\n"
            "their order behind them. Then the last-use invalidations."),
       Blocking("tch", "'0"),
       ForLoop(
           "w", "NumWays",
           {ForLoop("p", "NumReads", {IfThen("rm[p*NumWays + w]", {Blocking("tch[w]", "1'b1")})})}),
       ForLoop(
           "w", "NumWays",
           {Blocking("cnt", "'0"),
            ForLoop("v", "NumWays",
                    {Blocking("later", "1'b0"),
                     ForLoop("p", "NumReads",
                             {Blocking("suffix", "1'b0"),
                              ForLoop("q", "NumReads",
                                      {IfThen("q >= p && rm[q*NumWays + w]",
                                              {Blocking("suffix", "1'b1")})}),
                              IfThen("rm[p*NumWays + v] && !suffix", {Blocking("later", "1'b1")})}),
                     IfThen("v != w && (tch[w] ? later : (tch[v] && " +
                                BinOp(CA("v"), ">", CA("w")) + "))",
                            {Blocking("cnt", "cnt + WayBits'(1)")})}),
            Blocking(SA("w"), "tch[w] ? cnt : " + CA("w") + " + cnt")}),
       ForLoop(
           "p", "NumReads",
           {ForLoop("w", "NumWays",
                    {IfThen("rm[p*NumWays + w] && rd_last_i[p]", {Blocking(SV("w"), "1'b0")})})})};
  Body xfer = Lookup("hit_x", "way_x", "xf_tag");
  Body liveout_hier;
  Append(liveout_hier, Allocate(Insertion::Transfer(), "xf_tag"));
  xfer.push_back(
      IfThen("Organization == 0",
             {IfThen(Eq("xf_op_i", "1'b0"), {IfThen("hit_x", Touch("way_x"))}, liveout_hier)},
             {IfThen("hit_x", {Blocking(SV("way_x"), "1'b0")})}));
  b.push_back(
      Note("2. The transfer. Hierarchical: a fill hit is touched, a live-out is an RC write.\n"
           "Parallel-evict: the RC gives up its line of the register (a fill's is written back)."));
  b.push_back(IfThen("xf_valid_i && Organization != 2 && xf_set == SetBits'(s)", std::move(xfer)));
  b.push_back(Note("3. Writes, port 0 (the older instruction) then port 1."));
  Body write = Lookup("hit_w[q]", "way_w[q]", "wr_tag[q]");
  Append(write, Allocate(Insertion::Write("q"), "wr_tag[q]"));
  b.push_back(ForLoop("q", "NumWrites",
                      {IfThen("wr_rc[q] && wr_set[q] == SetBits'(s)", std::move(write))}));
  g.items.push_back(MakeItem(std::move(a)));
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(MakeItem(ContinuousAssign{PartSelect("nv", "s*NumWays", "NumWays"), "sv"}));
  g.items.push_back(
      MakeItem(ContinuousAssign{PartSelect("nt", "s*NumWays*TagWidth", "NumWays*TagWidth"), "st"}));
  g.items.push_back(
      MakeItem(ContinuousAssign{PartSelect("na", "s*NumWays*WayBits", "NumWays*WayBits"), "sa"}));
  g.items.push_back(MakeItem(ContinuousAssign{"set_xf_hit[s]", "hit_x"}));
  g.items.push_back(MakeItem(ContinuousAssign{"set_xf_way[s]", "way_x"}));
  g.items.push_back(MakeItem(ContinuousAssign{"set_xf_victim[s]", "victim_x"}));
  g.items.push_back(MakeItem(ContinuousAssign{"set_xf_vtag[s]", "vtag_x"}));
  g.items.push_back(MakeItem(ContinuousAssign{"set_ins_victim[s]", "victim_w"}));
  g.items.push_back(MakeItem(ContinuousAssign{"set_ins_way[s]", "{way_w[1], way_w[0]}"}));
  g.items.push_back(MakeItem(ContinuousAssign{"set_ins_vtag[s]", "{vtag_w[1], vtag_w[0]}"}));
  return g;
}

constexpr const char* kRspMiss =
    "%m: I4 violated: an RSP access to a slot never written (RSP miss)";
constexpr const char* kNoRsp =
    "%m: I4 violated: an RSP access or transfer without an RSP (RSP miss)";

Always RspLive();
Always RcTerms(const HybridRcSpec& s);
Body RspMissTerms(const HybridRcSpec& s);

Ifdef Assertions(const HybridRcSpec& s) {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(CommentItem{
      s.has_rsp() ? "Invariants I1-I4 at every edge. rsp_live_q (checker state): the slot was "
                    "written or\nfilled since reset."
                  : "Invariants I1-I4 at every edge (no RSP: any RSP access breaks I4)."}));
  auto net = [&](const std::string& n, const std::string& w, const std::string& u,
                 const std::string& c) {
    d.items.push_back(MakeItem(Net{n, w, u, c, ""}));
  };
  if (s.has_rsp())
    net("rsp_live_q", Msb("RspSlots"), "", "slot holds a value");
  net("chk_dup", "", "", "I1: a set holds a tag twice");
  net("chk_lost", "", "", "I2: a valid line dropped without write-back");
  net("chk_stale_fill", "", "", "I3: a fill did not take the RC's value");
  net("chk_stale_copy", "", "", "I3: parallel-evict: the RC keeps a transferred register");
  net("chk_rsp_miss", "", "", "I4: an RSP access to a slot never written");
  net("chk_lifetime", "", "", "I4: parallel-lifetime: a transfer");
  net("chk_held", "", "", "the RC holds the transferred register after the reads");
  net("chk_held_way", "WayBits-1", "", "its way");
  net("chk_rewritten", "", "", "a write of this cycle names the transferred register");
  net("chk_gone", "", "", "a line left or was retagged (loop temporary)");
  net("chk_ok", "", "", "and it was accounted for (loop temporary)");
  net("chk_warp", "WarpBits-1", "", "its register's warp (loop temporary)");
  net("chk_reg", "RegBits-1", "", "its register (loop temporary)");
  d.items.push_back(MakeItem(BlankLine{}));
  if (s.has_rsp())
    d.items.push_back(MakeItem(RspLive()));
  d.items.push_back(MakeItem(BlankLine{}));
  Always terms = RcTerms(s);
  d.items.push_back(MakeItem(std::move(terms)));
  d.items.push_back(MakeItem(BlankLine{}));
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_invariants", {}};
  a.body.push_back(IfThen(
      "rst_ni",
      {Assert("!chk_dup", {Quote("%m: I1 violated: a set holds one tag in two lines")}),
       Assert("!chk_lost",
              {Quote("%m: I2 violated: a dirty line left the RC without its write-back")}),
       Assert(
           "!chk_stale_fill",
           {Quote("%m: I3 violated: a fill took the MRF's value while the RC held a newer one")}),
       Assert("!chk_stale_copy",
              {Quote("%m: I3 violated: the RC kept a register the RSP transferred")}),
       Assert("!chk_rsp_miss", {Quote(s.has_rsp() ? kRspMiss : kNoRsp)}),
       Assert("!chk_lifetime",
              {Quote("%m: I4 violated: a transfer in the parallel-lifetime organization")})}));
  d.items.push_back(MakeItem(std::move(a)));
  return d;
}

// rsp_live_q (checker state): the slot was written or filled since reset.
Always RspLive() {
  Always live{AlwaysKind::kFF, "posedge clk_i or negedge rst_ni", "", {}};
  live.body = {IfThen(
      "!rst_ni", {NonBlocking("rsp_live_q", "'0")},
      {IfThen("rsp_we[0]", {NonBlocking("rsp_live_q[rsp_waddr[0 +: SlotBits]]", "1'b1")}),
       ForLoop("q", "NumWrites",
               {IfThen("wr_valid_i[q] && wr_rsp_i[q]",
                       {NonBlocking("rsp_live_q[wr_slot_i[q*SlotBits +: SlotBits]]", "1'b1")})})})};
  return live;
}

// I4 of the RSP reads and transfers: a slot never written; without an RSP, any RSP access.
Body RspMissTerms(const HybridRcSpec& s) {
  if (!s.has_rsp())
    return {ForLoop("p", "NumReads",
                    {IfThen("rd_valid_i[p] && rd_rsp_i[p]", {Blocking("chk_rsp_miss", "1'b1")})}),
            IfThen("xf_valid_i", {Blocking("chk_rsp_miss", "1'b1")})};
  return {ForLoop("p", "NumReads",
                  {IfThen(And({"rd_valid_i[p]", "rd_rsp_i[p]",
                               "(32'(rd_slot_i[p*SlotBits +: SlotBits]) >= RspSlots || "
                               "!rsp_live_q[rd_slot_i[p*SlotBits +: SlotBits]])"}),
                          {Blocking("chk_rsp_miss", "1'b1")})}),
          IfThen(And({"xf_valid_i", "Organization != 2",
                      "(32'(xf_slot_i) >= RspSlots || (xf_op_i && !rsp_live_q[xf_slot_i]))"}),
                 {Blocking("chk_rsp_miss", "1'b1")})};
}

// The assertions' combinational terms (I1-I4).
Always RcTerms(const HybridRcSpec& s) {
  const std::string line_set = "SetBits'(l / NumWays)";
  Always terms{AlwaysKind::kComb, "", "", {}};
  terms.body = {
      Blocking("chk_dup", "1'b0"),
      Blocking("chk_lost", "1'b0"),
      Blocking("chk_stale_fill", "1'b0"),
      Blocking("chk_stale_copy", "1'b0"),
      Blocking("chk_rsp_miss", "1'b0"),
      Blocking("chk_lifetime", "1'b0"),
      Blocking("chk_held", "1'b0"),
      Blocking("chk_held_way", "'0"),
      Blocking("chk_rewritten", "1'b0"),
      Blocking("chk_gone", "1'b0"),
      Blocking("chk_ok", "1'b0"),
      Blocking("chk_warp", "'0"),
      Blocking("chk_reg", "'0"),
      Note("I1 on every set after the cycle."),
      ForLoop("s", "NumSets",
              {ForLoop("a", "NumWays",
                       {ForLoop("b", "NumWays",
                                {IfThen(And({"a < b", NV("s", "a"), NV("s", "b"),
                                             Eq(NT("s", "a"), NT("s", "b"))}),
                                        {Blocking("chk_dup", "1'b1")})})})}),
      Note("I2: every line valid before the edge and gone (or retagged) after it."),
      ForLoop(
          "l", "RcLines",
          {Blocking("chk_gone", "valid_q[l] && (!nv[l] || " +
                                    BinOp(PartSelect("nt", "l*TagWidth", "TagWidth"),
                                          "!=", PartSelect("tag_q", "l*TagWidth", "TagWidth")) +
                                    ")"),
           Blocking("chk_warp", s.sets_pow2 ? "tag_q[l*TagWidth + RegBits - SetBits +: WarpBits]"
                                            : "tag_q[l*TagWidth + RegBits +: WarpBits]"),
           Blocking("chk_reg", s.sets_pow2 ? "{tag_q[l*TagWidth +: RegBits - SetBits], " +
                                                 line_set + " ^ SetBits'(chk_warp)}"
                                           : "tag_q[l*TagWidth +: RegBits]"),
           Blocking("chk_ok", "1'b0"),
           ForLoop("p", "NumReads",
                   {IfThen(And({"rd_hit[p]", "rd_last_i[p]",
                                Eq("rd_warp_i[p*WarpBits +: WarpBits]", "chk_warp"),
                                Eq("rd_reg_i[p*RegBits +: RegBits]", "chk_reg")}),
                           {Blocking("chk_ok", "1'b1")})}),
           ForLoop(
               "c", "NumWbChannels",
               {IfThen(And({"wb_valid_o[c]", Eq("wb_warp_o[c*WarpBits +: WarpBits]", "chk_warp"),
                            Eq("wb_reg_o[c*RegBits +: RegBits]", "chk_reg")}),
                       {Blocking("chk_ok", "1'b1")})}),
           IfThen(And({"Organization == 1", "xf_valid_i", "xf_op_i", Eq("xf_warp_i", "chk_warp"),
                       Eq("xf_reg_i", "chk_reg")}),
                  {Blocking("chk_ok", "1'b1")}),
           IfThen("chk_gone && !chk_ok", {Blocking("chk_lost", "1'b1")})}),
      Note("I3: the register a transfer names: in the RC at the start of the cycle and not\n"
           "killed by a last-use read of this cycle."),
      ForLoop("w", "NumWays",
              {IfThen(And({"valid_q[32'(xf_set)*NumWays + w]",
                           Eq(PartSelect("tag_q", "(32'(xf_set)*NumWays + w)*TagWidth", "TagWidth"),
                              "xf_tag")}),
                      {Blocking("chk_held", "1'b1"), Blocking("chk_held_way", "WayBits'(w)")})}),
      ForLoop("p", "NumReads",
              {IfThen(And({"rd_valid_i[p]", "!rd_rsp_i[p]", "rd_last_i[p]",
                           Eq("rd_warp_i[p*WarpBits +: WarpBits]", "xf_warp_i"),
                           Eq("rd_reg_i[p*RegBits +: RegBits]", "xf_reg_i")}),
                      {Blocking("chk_held", "1'b0")})}),
      IfThen(And({"xf_valid_i", "Organization != 2", "!xf_op_i", "chk_held"}),
             {IfThen(std::string("!(xf_hit && xf_line == {xf_set, chk_held_way}") +
                         (s.has_rsp() ? " && fill_data == xf_line_data)" : ")"),
                     {Blocking("chk_stale_fill", "1'b1")})}),
      Note("parallel-evict: after the cycle no line holds the transferred register, unless a\n"
           "write of this cycle (a newer value) put it back."),
      Blocking("chk_rewritten", "1'b0"),
      ForLoop("q", "NumWrites",
              {IfThen(And({"wr_rc[q]", Eq("wr_warp_i[q*WarpBits +: WarpBits]", "xf_warp_i"),
                           Eq("wr_reg_i[q*RegBits +: RegBits]", "xf_reg_i")}),
                      {Blocking("chk_rewritten", "1'b1")})}),
      IfThen(And({"xf_valid_i", "Organization == 1", "!chk_rewritten"}),
             {ForLoop("w", "NumWays",
                      {IfThen(And({NV("xf_set", "w"), Eq(NT("xf_set", "w"), "xf_tag")}),
                              {Blocking("chk_stale_copy", "1'b1")})})}),
      Note("I4: RSP reads and live-outs name live slots; parallel-lifetime has no transfers."),
  };
  Append(terms.body, RspMissTerms(s));
  if (s.has_rsp())
    terms.body.push_back(
        IfThen(And({"xf_valid_i", "Organization == 2"}), {Blocking("chk_lifetime", "1'b1")}));
  return terms;
}

Instance Storage(const FlopArraySpec& f, const std::string& name, const std::string& prefix,
                 const std::string& entries) {
  return Instance{f.module_name,
                  name,
                  {{"Entries", entries}, {"Width", "Width"}},
                  {{"clk_i", "clk_i"},
                   {"rst_ni", "rst_ni"},
                   {"we_i", prefix + "_we"},
                   {"waddr_i", prefix + "_waddr"},
                   {"wdata_i", prefix + "_wdata"},
                   {"raddr_i", prefix + "_raddr"},
                   {"rdata_o", prefix + "_rdata"}}};
}

void RspNets(Module& m) {
  m.Add(MakeItem(Net{"rsp_we", "2", "", "0 fill, 1-2 writes 0-1", ""}));
  m.Add(MakeItem(Net{"rsp_waddr", "3*SlotBits-1", "", "", ""}));
  m.Add(MakeItem(Net{"rsp_wdata", "3*Width-1", "", "", ""}));
  m.Add(MakeItem(Net{"rsp_raddr", "7*SlotBits-1", "", "0-5 reads, 6 live-out source", ""}));
  m.Add(MakeItem(Net{"rsp_rdata", "7*Width-1", "", "", ""}));
}

// The RSP's data array and its ports; `fill` is the fill's value (fill_data).
void RspData(const HybridRcSpec& s, Module& m, const std::string& fill) {
  m.Comment(
      "RSP data. Writes: port 0 the fill (from the RC on a hit, else the MRF's value), ports\n"
      "1-2 writes 0-1. Reads: 0-5 the operands, 6 the live-out source.");
  m.Add(MakeItem(ContinuousAssign{"rsp_we[0]", "xf_valid_i && Organization != 2 && !xf_op_i"}));
  GenerateFor rw{"gen_rsp_write", "g", "NumWrites", {}};
  rw.items.push_back(MakeItem(ContinuousAssign{"rsp_we[g+1]", "wr_valid_i[g] && wr_rsp_i[g]"}));
  m.Add(MakeItem(std::move(rw)));
  m.Add(MakeItem(ContinuousAssign{"rsp_waddr", "{wr_slot_i, xf_slot_i}"}));
  m.Add(MakeItem(ContinuousAssign{"rsp_wdata", "{wr_data_i, fill_data}"}));
  m.Comment("Slot fields of absent accesses do not reach the array (its address check).");
  GenerateFor rra{"gen_rsp_read_addr", "g", "NumReads", {}};
  rra.items.push_back(MakeItem(
      ContinuousAssign{PartSelect("rsp_raddr", "g*SlotBits", "SlotBits"),
                       "(rd_valid_i[g] && rd_rsp_i[g]) ? rd_slot_i[g*SlotBits +: SlotBits] : '0"}));
  m.Add(MakeItem(std::move(rra)));
  m.Add(MakeItem(ContinuousAssign{PartSelect("rsp_raddr", "6*SlotBits", "SlotBits"),
                                  "(xf_valid_i && Organization != 2) ? xf_slot_i : '0"}));
  m.Add(MakeItem(ContinuousAssign{"liveout_data", "rsp_rdata[6*Width +: Width]"}));
  m.Add(MakeItem(ContinuousAssign{"fill_data", fill}));
  m.Add(MakeItem(Storage(s.rsp_storage, "u_rsp_data", "rsp", "RspSlots")));
  m.Blank();
}

// No RC (the RSP-only design, rc_bytes 0): every RC read misses, a fill takes the MRF's value,
// and an RC write or a live-out passes straight to the MRF on its write-back channel.
void RspOnlyBody(const HybridRcSpec& s, Module& m) {
  m.Blank();
  m.Comment(
      "No RC: every RC read misses, a fill takes xf_data_i, an RC write (channel q) or a\n"
      "live-out (channel 2) goes straight to the MRF.");
  m.Comment("Data array (a generated flop array, reads see the start of the cycle).");
  RspNets(m);
  m.Add(MakeItem(Net{"liveout_data", "Width-1", "", "the live-out slot's value", ""}));
  m.Add(MakeItem(Net{"fill_data", "Width-1", "", "the fill's value: the MRF's", ""}));
  m.Blank();
  RspData(s, m, "xf_data_i");
  m.Comment("Outputs, zero while in reset and for ports not served.");
  GenerateFor ro{"gen_read_outputs", "g", "NumReads", {}};
  ro.items.push_back(
      MakeItem(ContinuousAssign{"rd_hit_o[g]", "rst_ni && rd_valid_i[g] && rd_rsp_i[g]"}));
  ro.items.push_back(MakeItem(ContinuousAssign{PartSelect("rd_data_o", "g*Width", "Width"),
                                               "rd_hit_o[g] ? rsp_rdata[g*Width +: Width] : '0"}));
  m.Add(MakeItem(std::move(ro)));
  m.Add(MakeItem(ContinuousAssign{"xf_hit_o", "1'b0"}));
  m.Comment("Write-back channels 0-1: the RC writes, passed through.");
  GenerateFor wo{"gen_write_backs", "g", "NumWrites", {}};
  wo.items.push_back(
      MakeItem(ContinuousAssign{"wb_valid_o[g]", "rst_ni && wr_valid_i[g] && !wr_rsp_i[g]"}));
  wo.items.push_back(
      MakeItem(ContinuousAssign{PartSelect("wb_warp_o", "g*WarpBits", "WarpBits"),
                                "wb_valid_o[g] ? wr_warp_i[g*WarpBits +: WarpBits] : '0"}));
  wo.items.push_back(
      MakeItem(ContinuousAssign{PartSelect("wb_reg_o", "g*RegBits", "RegBits"),
                                "wb_valid_o[g] ? wr_reg_i[g*RegBits +: RegBits] : '0"}));
  wo.items.push_back(
      MakeItem(ContinuousAssign{PartSelect("wb_data_o", "g*Width", "Width"),
                                "wb_valid_o[g] ? wr_data_i[g*Width +: Width] : '0"}));
  m.Add(MakeItem(std::move(wo)));
  m.Comment("Write-back channel 2: a live-out, the slot's value.");
  m.Add(MakeItem(ContinuousAssign{"wb_valid_o[2]", "rst_ni && xf_valid_i && xf_op_i"}));
  m.Add(MakeItem(
      ContinuousAssign{"wb_warp_o[2*WarpBits +: WarpBits]", "wb_valid_o[2] ? xf_warp_i : '0"}));
  m.Add(MakeItem(
      ContinuousAssign{"wb_reg_o[2*RegBits +: RegBits]", "wb_valid_o[2] ? xf_reg_i : '0"}));
  m.Add(MakeItem(
      ContinuousAssign{"wb_data_o[2*Width +: Width]", "wb_valid_o[2] ? liveout_data : '0"}));
  m.Blank();
  m.Comment("Inputs of the RC, which this shape does not have.");
  m.Add(MakeItem(Net{"unused_inputs", "", "", "", ""}));
  m.Add(MakeItem(ContinuousAssign{"unused_inputs", "^{rd_warp_i, rd_reg_i, rd_last_i}"}));
  m.Blank();
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(CommentItem{
      "Invariant I4 at every edge (no RC: I1-I3 hold vacuously). rsp_live_q (checker state):\n"
      "the slot was written or filled since reset."}));
  d.items.push_back(MakeItem(Net{"rsp_live_q", Msb("RspSlots"), "", "slot holds a value", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_rsp_miss", "", "", "I4: an RSP access to a slot never written", ""}));
  d.items.push_back(MakeItem(BlankLine{}));
  d.items.push_back(MakeItem(RspLive()));
  d.items.push_back(MakeItem(BlankLine{}));
  Always terms{AlwaysKind::kComb, "", "", {Blocking("chk_rsp_miss", "1'b0")}};
  Append(terms.body, RspMissTerms(s));
  d.items.push_back(MakeItem(std::move(terms)));
  d.items.push_back(MakeItem(BlankLine{}));
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_invariants", {}};
  a.body.push_back(IfThen("rst_ni", {Assert("!chk_rsp_miss", {Quote(kRspMiss)})}));
  d.items.push_back(MakeItem(std::move(a)));
  m.Add(MakeItem(std::move(d)));
}

void RcBody(const HybridRcSpec& s, Module& m);

}  // namespace

GeneratedStructure EmitHybridRc(const HybridRcSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  g.derived = {{"rc_lines", s.rc_lines},
               {"rc_sets", s.sets},
               {"rsp_slots", s.rsp_slots},
               {"tag_width", s.tag_width}};

  // Without an RSP there are no transfers: the RTL is the parallel-lifetime one's (transfers off).
  const int org = !s.has_rsp() ? 2 : (s.hierarchical() ? 0 : (s.parallel_evict() ? 1 : 2));
  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumSets", Int(s.sets), "RC sets", false},
      {"NumWays", Int(s.ways), "RC ways per set", false},
      {"RspSlots", Int(s.rsp_slots), "RSP slots", false},
      {"Width", Int(s.width), "data bits per line or slot", false},
      {"WarpBits", Int(s.warp_bits), "bits of a warp id", false},
      {"RegBits", Int(s.reg_bits), "bits of a register name", false},
      {"SlotBits", Int(s.slot_bits), "bits of an RSP slot index", false},
      {"Organization", Int(org), "0 hierarchical, 1 parallel-evict, 2 parallel-lifetime", false},
      {"NumReads", "6", "read ports: 2 instructions x 3 sources", true},
      {"NumWrites", "2", "write ports: 2 instructions x 1 destination", true},
      {"NumWbChannels", "3", "write-back channels: the writes' victims, the transfer", true},
      {"RcLines", "NumSets * NumWays", "RC lines", true},
      {"SetBits", "$clog2(NumSets)", "set index bits", true},
      {"WayBits", "$clog2(NumWays)", "way index and LRU age bits", true},
      {"LineBits", "SetBits + WayBits", "RC line index bits {set, way}", true},
      s.sets_pow2 ? Param{"TagWidth", "WarpBits + RegBits - SetBits",
                          "RC tag bits {warp, reg >> SetBits}", true}
                  : Param{"TagWidth", "WarpBits + RegBits",
                          "RC tag bits {warp, reg} (NumSets not a power of two)", true},
  };
  if (!s.has_rsp())
    std::erase_if(m.params, [](const Param& p) { return p.name == "RspSlots"; });
  if (!s.has_rc()) {
    std::erase_if(m.params, [](const Param& p) {
      return p.name == "NumSets" || p.name == "NumWays" || p.name == "RcLines" ||
             p.name == "SetBits" || p.name == "WayBits" || p.name == "LineBits" ||
             p.name == "TagWidth";
    });
  }
  m.ports = HybridRcPortTable(s).Verilog();
  if (!s.has_rc()) {
    RspOnlyBody(s, m);
  } else {
    RcBody(s, m);
  }

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(AssertHeaderFile());
  if (s.clock_gate)
    g.files.push_back(PrimitiveFile("gpurf_clock_gate.sv"));
  for (const FlopArraySpec* a : {&s.rsp_storage, &s.rc_storage}) {
    if (a->module_name.empty() ||
        (a == &s.rc_storage && s.rc_storage.module_name == s.rsp_storage.module_name))
      continue;
    for (const GeneratedFile& f : EmitFlopArray(*a).files) {
      if (!f.primitive)
        g.files.push_back(f);
    }
  }
  g.files.push_back(top);

  g.ports = HybridRcPortTable(s).Manifest();
  return g;
}

namespace {

void RcBody(const HybridRcSpec& s, Module& m) {
  const bool rsp = s.has_rsp();
  m.Blank();
  m.Comment(
      "RC tag state, line l = set * NumWays + way: valid (= dirty), tag, LRU age (0 = most\n"
      "recently used; the ages of a set are a permutation of 0..NumWays-1).");
  m.Add(
      MakeItem(Net{"valid_q", Msb("RcLines"), "", "line holds a value newer than the MRF's", ""}));
  m.Add(MakeItem(Net{"tag_q", "RcLines*TagWidth-1", "", "line l at [l*TagWidth +: TagWidth]", ""}));
  m.Add(MakeItem(Net{"age_q", "RcLines*WayBits-1", "", "line l at [l*WayBits +: WayBits]", ""}));
  m.Comment("Next state (gen_rc_sets, per set).");
  m.Add(MakeItem(Net{"nv", Msb("RcLines"), "", "valid after the cycle", ""}));
  m.Add(MakeItem(Net{"nt", "RcLines*TagWidth-1", "", "tags after the cycle", ""}));
  m.Add(MakeItem(Net{"na", "RcLines*WayBits-1", "", "ages after the cycle", ""}));
  m.Comment("Step results of each set (zero in a set the step does not address).");
  m.Add(MakeItem(
      Net{"set_rd_hit", Msb("NumReads"), "NumSets", "RC read p hits in set s", "mem2reg"}));
  m.Add(MakeItem(Net{"set_rd_way", "NumReads*WayBits-1", "NumSets",
                     "its way at [p*WayBits +: WayBits] (zero elsewhere)", "mem2reg"}));
  m.Add(MakeItem(Net{"set_xf_hit", Msb("NumSets"), "", "the transfer's register is in set s", ""}));
  m.Add(MakeItem(Net{"set_xf_way", "WayBits-1", "NumSets", "its way hit or filled", "mem2reg"}));
  m.Add(MakeItem(Net{"set_xf_victim", Msb("NumSets"), "", "a live-out replaced a line", ""}));
  m.Add(MakeItem(Net{"set_xf_vtag", "TagWidth-1", "NumSets", "the victim's tag", "mem2reg"}));
  m.Add(MakeItem(
      Net{"set_ins_victim", Msb("NumWrites"), "NumSets", "write q replaced a line", "mem2reg"}));
  m.Add(MakeItem(Net{"set_ins_way", "NumWrites*WayBits-1", "NumSets",
                     "write q's way at [q*WayBits +: WayBits]", "mem2reg"}));
  m.Add(MakeItem(Net{"set_ins_vtag", "NumWrites*TagWidth-1", "NumSets",
                     "write q's victim's tag at [q*TagWidth +: TagWidth]", "mem2reg"}));
  m.Comment("RC insertions of the writes (from the set each addresses).");
  m.Add(MakeItem(Net{"ins_victim", Msb("NumWrites"), "", "a miss replaced a line", ""}));
  m.Add(MakeItem(Net{"ins_way", "WayBits-1", "NumWrites", "way hit or filled", "mem2reg"}));
  m.Add(MakeItem(Net{"ins_line", "LineBits-1", "NumWrites", "its line", "mem2reg"}));
  m.Add(MakeItem(Net{"ins_vtag", "TagWidth-1", "NumWrites", "the victim's tag", "mem2reg"}));
  m.Comment(
      "The transfer's RC lookup (after the reads) and, for a hierarchical live-out, insertion.");
  m.Add(MakeItem(Net{"xf_hit", "", "", "the register is in the RC", ""}));
  m.Add(MakeItem(Net{"xf_way", "WayBits-1", "", "way hit or filled", ""}));
  m.Add(MakeItem(Net{"xf_victim", "", "", "a live-out miss replaced a line", ""}));
  m.Add(MakeItem(Net{"xf_vtag", "TagWidth-1", "", "the victim's tag", ""}));
  m.Add(MakeItem(Net{"xf_line", "LineBits-1", "", "the line hit, filled or given up", ""}));
  m.Add(MakeItem(Net{"xf_ins", "", "", "hierarchical live-out: the transfer writes the RC", ""}));
  m.Blank();
  m.Comment("Register fields: set (r ^ w) mod NumSets, tag {w, r >> SetBits}.");
  m.Add(MakeItem(Net{"rd_set", "SetBits-1", "NumReads", "read p's set", "mem2reg"}));
  m.Add(MakeItem(Net{"rd_tag", "TagWidth-1", "NumReads", "its tag", "mem2reg"}));
  m.Add(MakeItem(Net{"rd_hit", Msb("NumReads"), "", "RC read p hits", ""}));
  m.Add(MakeItem(Net{"rd_way", "WayBits-1", "NumReads", "way hit", "mem2reg"}));
  m.Add(MakeItem(Net{"wr_set", "SetBits-1", "NumWrites", "write q's set", "mem2reg"}));
  m.Add(MakeItem(Net{"wr_tag", "TagWidth-1", "NumWrites", "its tag", "mem2reg"}));
  m.Add(MakeItem(Net{"wr_rc", Msb("NumWrites"), "", "write q goes to the RC", ""}));
  m.Add(MakeItem(Net{"xf_set", "SetBits-1", "", "the transfer's set", ""}));
  m.Add(MakeItem(Net{"xf_tag", "TagWidth-1", "", "its tag", ""}));
  m.Blank();
  m.Comment("Data arrays (generated flop arrays, reads see the start of the cycle).");
  m.Add(MakeItem(Net{"rc_we", "2", "", "0 live-out, 1-2 writes 0-1", ""}));
  m.Add(MakeItem(Net{"rc_waddr", "3*LineBits-1", "", "", ""}));
  m.Add(MakeItem(Net{"rc_wdata", "3*Width-1", "", "", ""}));
  m.Add(MakeItem(Net{"rc_raddr", "9*LineBits-1", "", "0-5 reads, 6 transfer, 7-8 victims", ""}));
  m.Add(MakeItem(Net{"rc_rdata", "9*Width-1", "", "", ""}));
  if (rsp)
    RspNets(m);
  m.Add(
      MakeItem(Net{"victim_data", "Width-1", "NumWrites", "write q's victim's value", "mem2reg"}));
  m.Add(
      MakeItem(Net{"xf_line_data", "Width-1", "", "the transfer's RC line (start of cycle)", ""}));
  m.Add(MakeItem(Net{"liveout_data", "Width-1", "", "the live-out slot's value", ""}));
  if (rsp)
    m.Add(MakeItem(
        Net{"fill_data", "Width-1", "", "the fill's value: the RC's, else the MRF's", ""}));
  m.Blank();

  GenerateFor rd{"gen_read_fields", "g", "NumReads", {}};
  rd.items.push_back(MakeItem(ContinuousAssign{
      "rd_set[g]", SetExpr(s, "rd_reg_i[g*RegBits +: RegBits]", "rd_reg_i[g*RegBits +: SetBits]",
                           "rd_warp_i[g*WarpBits +: WarpBits]")}));
  rd.items.push_back(MakeItem(ContinuousAssign{
      "rd_tag[g]", TagExpr(s, "rd_warp_i[g*WarpBits +: WarpBits]", "rd_reg_i[g*RegBits +: RegBits]",
                           "rd_reg_i[g*RegBits + SetBits +: RegBits - SetBits]")}));
  m.Add(MakeItem(std::move(rd)));
  GenerateFor wr{"gen_write_fields", "g", "NumWrites", {}};
  wr.items.push_back(MakeItem(ContinuousAssign{
      "wr_set[g]", SetExpr(s, "wr_reg_i[g*RegBits +: RegBits]", "wr_reg_i[g*RegBits +: SetBits]",
                           "wr_warp_i[g*WarpBits +: WarpBits]")}));
  wr.items.push_back(MakeItem(ContinuousAssign{
      "wr_tag[g]", TagExpr(s, "wr_warp_i[g*WarpBits +: WarpBits]", "wr_reg_i[g*RegBits +: RegBits]",
                           "wr_reg_i[g*RegBits + SetBits +: RegBits - SetBits]")}));
  wr.items.push_back(MakeItem(ContinuousAssign{"wr_rc[g]", "wr_valid_i[g] && !wr_rsp_i[g]"}));
  m.Add(MakeItem(std::move(wr)));
  m.Add(MakeItem(
      ContinuousAssign{"xf_set", SetExpr(s, "xf_reg_i", "xf_reg_i[SetBits-1:0]", "xf_warp_i")}));
  m.Add(MakeItem(ContinuousAssign{
      "xf_tag", TagExpr(s, "xf_warp_i", "xf_reg_i", "xf_reg_i[RegBits-1:SetBits]")}));
  m.Blank();

  m.Comment("Step 1 lookups (in gen_rc_sets): a read hits in the set it addresses only.");
  Always lookup{AlwaysKind::kComb, "", "read_lookup", {}};
  lookup.body = {
      ForLoop("p", "NumReads", {Blocking("rd_hit[p]", "1'b0"), Blocking("rd_way[p]", "'0")}),
      ForLoop(
          "t", "NumSets",
          {Blocking("rd_hit", "rd_hit | set_rd_hit[t]"),
           ForLoop("p", "NumReads",
                   {Blocking("rd_way[p]", "rd_way[p] | set_rd_way[t][p*WayBits +: WayBits]")})})};
  m.Add(MakeItem(std::move(lookup)));
  m.Blank();
  m.Comment("The cycle's RC updates in the spec's order, per set.");
  m.Add(MakeItem(RcSets()));
  m.Blank();
  m.Comment("The step results of the set each step addresses.");
  m.Add(MakeItem(ContinuousAssign{"xf_hit", "set_xf_hit[xf_set]"}));
  m.Add(MakeItem(ContinuousAssign{"xf_way", "set_xf_way[xf_set]"}));
  m.Add(MakeItem(ContinuousAssign{"xf_victim", "set_xf_victim[xf_set]"}));
  m.Add(MakeItem(ContinuousAssign{"xf_vtag", "set_xf_vtag[xf_set]"}));
  m.Add(MakeItem(ContinuousAssign{"xf_ins", "xf_valid_i && Organization == 0 && xf_op_i"}));
  m.Add(MakeItem(ContinuousAssign{
      "xf_line",
      "(xf_valid_i && (Organization == 0 || (Organization == 1 && xf_hit))) ? {xf_set, xf_way} "
      ": '0"}));
  GenerateFor ins{"gen_write_results", "g", "NumWrites", {}};
  ins.items.push_back(MakeItem(ContinuousAssign{"ins_victim[g]", "set_ins_victim[wr_set[g]][g]"}));
  ins.items.push_back(
      MakeItem(ContinuousAssign{"ins_way[g]", "set_ins_way[wr_set[g]][g*WayBits +: WayBits]"}));
  ins.items.push_back(
      MakeItem(ContinuousAssign{"ins_vtag[g]", "set_ins_vtag[wr_set[g]][g*TagWidth +: TagWidth]"}));
  ins.items.push_back(
      MakeItem(ContinuousAssign{"ins_line[g]", "wr_rc[g] ? {wr_set[g], ins_way[g]} : '0"}));
  m.Add(MakeItem(std::move(ins)));
  m.Blank();

  Body reset = {
      NonBlocking("valid_q", "'0"), NonBlocking("tag_q", "'0"),
      Note("Way w of every set starts with age w: way 0 is the most recently used."),
      ForLoop("l", "RcLines",
              {NonBlocking(PartSelect("age_q", "l*WayBits", "WayBits"), "WayBits'(l % NumWays)")})};
  Body run = {NonBlocking("valid_q", "nv"), NonBlocking("tag_q", "nt"), NonBlocking("age_q", "na")};
  m.Add(MakeItem(Always{AlwaysKind::kFF,
                        "posedge clk_i or negedge rst_ni",
                        "rc_state",
                        {IfThen("!rst_ni", reset, run)}}));
  m.Blank();

  m.Comment(
      "RC data. Writes: port 0 the hierarchical live-out, ports 1-2 writes 0-1 (a later step\n"
      "wins a line). Reads: 0-5 the operands, 6 the transfer's line, 7-8 the writes' victims.");
  m.Add(MakeItem(ContinuousAssign{"rc_we", "{wr_rc, xf_ins}"}));
  m.Add(MakeItem(ContinuousAssign{"rc_waddr", "{ins_line[1], ins_line[0], xf_line}"}));
  m.Add(MakeItem(ContinuousAssign{"rc_wdata", "{wr_data_i, liveout_data}"}));
  GenerateFor rca{"gen_rc_read_addr", "g", "NumReads", {}};
  rca.items.push_back(MakeItem(ContinuousAssign{PartSelect("rc_raddr", "g*LineBits", "LineBits"),
                                                "{rd_set[g], rd_way[g]}"}));
  m.Add(MakeItem(std::move(rca)));
  m.Add(MakeItem(ContinuousAssign{PartSelect("rc_raddr", "6*LineBits", "3*LineBits"),
                                  "{ins_line[1], ins_line[0], xf_line}"}));
  m.Comment("A victim the live-out wrote this cycle goes back with the live-out's value.");
  GenerateFor vd{"gen_victim_data", "g", "NumWrites", {}};
  vd.items.push_back(MakeItem(ContinuousAssign{
      "victim_data[g]",
      "(xf_ins && ins_line[g] == xf_line) ? liveout_data : rc_rdata[(7+g)*Width +: Width]"}));
  m.Add(MakeItem(std::move(vd)));
  m.Add(MakeItem(ContinuousAssign{"xf_line_data", "rc_rdata[6*Width +: Width]"}));
  m.Add(MakeItem(Storage(s.rc_storage, "u_rc_data", "rc", "RcLines")));
  m.Blank();

  if (rsp) {
    RspData(s, m, "xf_hit ? xf_line_data : xf_data_i");
  } else {
    m.Comment("No RSP: no live-out value reaches the RC.");
    m.Add(MakeItem(ContinuousAssign{"liveout_data", "'0"}));
    m.Blank();
  }

  m.Comment("Outputs, zero while in reset and for ports not served.");
  GenerateFor ro{"gen_read_outputs", "g", "NumReads", {}};
  ro.items.push_back(MakeItem(
      ContinuousAssign{"rd_hit_o[g]", "rst_ni && rd_valid_i[g] && (rd_rsp_i[g] || rd_hit[g])"}));
  ro.items.push_back(MakeItem(ContinuousAssign{PartSelect("rd_data_o", "g*Width", "Width"),
                                               std::string("!rd_hit_o[g] ? '0 : (rd_rsp_i[g] ? ") +
                                                   (rsp ? "rsp_rdata[g*Width +: Width]" : "'0") +
                                                   " : rc_rdata[g*Width +: Width])"}));
  m.Add(MakeItem(std::move(ro)));
  m.Add(MakeItem(
      ContinuousAssign{"xf_hit_o", "rst_ni && xf_valid_i && Organization != 2 && xf_hit"}));
  m.Comment("Write-back channels 0-1: the writes' victims.");
  GenerateFor wo{"gen_write_backs", "g", "NumWrites", {}};
  wo.items.push_back(
      MakeItem(ContinuousAssign{"wb_valid_o[g]", "rst_ni && wr_rc[g] && ins_victim[g]"}));
  wo.items.push_back(
      MakeItem(ContinuousAssign{PartSelect("wb_warp_o", "g*WarpBits", "WarpBits"),
                                "wb_valid_o[g] ? ins_vtag[g][TagWidth-1 -: WarpBits] : '0"}));
  wo.items.push_back(MakeItem(ContinuousAssign{
      PartSelect("wb_reg_o", "g*RegBits", "RegBits"),
      "wb_valid_o[g] ? " +
          RegOfTag(s, "ins_vtag[g]", "wr_set[g]", "ins_vtag[g][TagWidth-1 -: WarpBits]") +
          " : '0"}));
  wo.items.push_back(MakeItem(ContinuousAssign{PartSelect("wb_data_o", "g*Width", "Width"),
                                               "wb_valid_o[g] ? victim_data[g] : '0"}));
  m.Add(MakeItem(std::move(wo)));
  m.Comment(
      "Write-back channel 2: the transfer's. Hierarchical: the live-out's victim; parallel-evict:\n"
      "a fill's RC line, or the live-out's value itself.");
  m.Add(MakeItem(Net{"xf_wb", "", "", "channel 2 carries a value", ""}));
  m.Add(MakeItem(Net{"xf_wb_direct", "", "", "parallel-evict live-out: the RSP's value", ""}));
  m.Add(MakeItem(ContinuousAssign{"xf_wb_direct", "Organization == 1 && xf_valid_i && xf_op_i"}));
  m.Add(MakeItem(ContinuousAssign{
      "xf_wb",
      "rst_ni && ((xf_ins && xf_victim) || (Organization == 1 && xf_valid_i && (xf_op_i || "
      "xf_hit)))"}));
  m.Add(MakeItem(ContinuousAssign{"wb_valid_o[2]", "xf_wb"}));
  m.Add(MakeItem(
      ContinuousAssign{"wb_warp_o[2*WarpBits +: WarpBits]",
                       "!xf_wb ? '0 : (xf_ins ? xf_vtag[TagWidth-1 -: WarpBits] : xf_warp_i)"}));
  m.Add(MakeItem(ContinuousAssign{
      "wb_reg_o[2*RegBits +: RegBits]",
      "!xf_wb ? '0 : (xf_ins ? " +
          RegOfTag(s, "xf_vtag", "xf_set", "xf_vtag[TagWidth-1 -: WarpBits]") + " : xf_reg_i)"}));
  m.Add(MakeItem(ContinuousAssign{"wb_data_o[2*Width +: Width]",
                                  "!xf_wb ? '0 : (xf_wb_direct ? liveout_data : xf_line_data)"}));
  m.Blank();
  if (!rsp) {
    m.Comment("Inputs of the RSP, which this shape does not have (an access is misuse, I4).");
    m.Add(MakeItem(Net{"unused_inputs", "", "", "", ""}));
    m.Add(MakeItem(
        ContinuousAssign{"unused_inputs", "^{rd_slot_i, wr_slot_i, xf_slot_i, xf_data_i}"}));
    m.Blank();
  }
  m.Add(MakeItem(Assertions(s)));
}

}  // namespace

}  // namespace gpurf
