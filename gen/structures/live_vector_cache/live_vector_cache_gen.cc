#include "gen/structures/live_vector_cache/live_vector_cache_gen.h"

#include <fmt/format.h>

#include "gen/structures/emit_util.h"
#include "gen/structures/live_vector_cache/live_vector_cache_ports.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL
using emit::Assign;
using emit::Comb;
using emit::Decl;
using emit::Ff;
using emit::FfNoReset;

std::vector<std::string> ModuleDoc(const LiveVectorCacheSpec& s) {
  return {
      fmt::format("{}: FineReg live-register vector cache and register index", s.module_name),
      "decoder (Oh et al., MICRO 2018, section V-C, Fig. 10): NumLines direct-mapped lines of",
      "{valid, PC tag, VecBits-bit live vector}, indexed by PC[AlignBits +: IndexBits]. A lookup",
      "(lk_*) that hits decodes the line's vector; a miss requests it from memory (mem_req_*),",
      "waits for the response (mem_resp_*), fills the line and decodes it. The decoder streams",
      "the vector's set bits as register indices, DecodeWidth per cycle, lowest first (dec_*).",
      "State: 0 idle, 1 request, 2 wait for the response, 3 decode.",
      "Invariants (checked with GPURF_ASSERTIONS defined): I1 the decoder shows the lowest live",
      "registers left; I2 it consumes exactly what it shows; I3 hits + misses = lookups; I4 a",
      "fill writes the missing PC's line; I5 a lookup is accepted only when idle.",
  };
}

void AddBody(Module& m) {
  m.Comment("Lines: valid, tag and live vector.");
  m.Add(Decl("line_valid", Msb("NumLines"), "line holds a vector"));
  m.Add(Decl("line_tag", Msb("TagBits"), "PC tag", "NumLines"));
  m.Add(Decl("line_vec", Msb("VecBits"), "live-register vector", "NumLines"));
  m.Comment("Control: the state, the PC of the lookup in service, the vector left to decode.");
  m.Add(Decl("st_q", "1", "0 idle, 1 request, 2 wait, 3 decode"));
  m.Add(Decl("pc_q", Msb("PcBits"), "PC of the lookup in service"));
  m.Add(Decl("vec_q", Msb("VecBits"), "live registers left to decode"));
  m.Add(Decl("live_q", Msb("LiveBits"), "live count of the vector being decoded"));
  m.Add(Decl("hit_cnt_q", "31", "hits"));
  m.Add(Decl("miss_cnt_q", "31", "misses"));
  m.Add(Decl("lk_index", Msb("IndexBits"), "line of the looked-up PC"));
  m.Add(Decl("lk_tag", Msb("TagBits"), "tag of the looked-up PC"));
  m.Add(Decl("req_index", Msb("IndexBits"), "line of the PC in service"));
  m.Add(Decl("hit", "", "the looked-up PC's line is valid with its tag"));
  m.Add(Decl("lk_fire", "", "a lookup is accepted"));
  m.Add(Decl("fill", "", "the memory's response fills a line"));
  m.Add(Decl("dec_fire", "", "the decoder's group is taken"));
  m.Add(Decl("load_vec", Msb("VecBits"), "vector that starts decoding (hit or fill)"));
  m.Add(Decl("load_live", Msb("LiveBits"), "its live count"));
  m.Add(Decl("left", Msb("LiveBits"), "live registers left to decode"));
  m.Add(Decl("grp_mask", Msb("VecBits"), "the group's bits: the DecodeWidth lowest set"));
  m.Add(Decl("grp_seen", Msb("LiveBits"), "set bits below the scan position"));
  m.Add(Decl("grp_idx", Msb("DecodeWidth*RegBits"), "the group's indices"));
  m.Blank();
  m.Add(Assign("lk_index", "lk_pc_i[AlignBits +: IndexBits]"));
  m.Add(Assign("lk_tag", "lk_pc_i[PcBits-1 -: TagBits]"));
  m.Add(Assign("req_index", "pc_q[AlignBits +: IndexBits]"));
  m.Add(Assign("hit", "line_valid[lk_index] && (line_tag[lk_index] == lk_tag)"));
  m.Add(Assign("lk_ready_o", "rst_ni && (st_q == 2'd0)"));
  m.Add(Assign("lk_fire", "lk_valid_i && lk_ready_o"));
  m.Add(Assign("fill", "rst_ni && (st_q == 2'd2) && mem_resp_valid_i"));
  m.Add(Assign("dec_fire", "dec_valid_o && dec_ready_i"));
  m.Add(Assign("load_vec", "fill ? mem_resp_vector_i : line_vec[lk_index]"));
  m.Blank();
  m.Comment("Live counts: of the vector that starts decoding and of what is left.");
  m.Add(Comb("p_popcount", {Blocking("load_live", "'0"), Blocking("left", "'0"),
                            ForLoop("i", "VecBits",
                                    {Blocking("load_live", "load_live + LiveBits'(load_vec[i])"),
                                     Blocking("left", "left + LiveBits'(vec_q[i])")})}));
  m.Blank();
  m.Comment(
      "Register index decoder: slot k of the group is the k-th lowest set bit of the vector\n"
      "left; the group mask is the DecodeWidth lowest set bits.");
  m.Add(
      Comb("p_group_mask", {Blocking("grp_mask", "'0"), Blocking("grp_seen", "'0"),
                            ForLoop("i", "VecBits",
                                    {IfThen("vec_q[i] && (grp_seen < LiveBits'(DecodeWidth))",
                                            {Blocking("grp_mask[i]", "1'b1"),
                                             Blocking("grp_seen", "grp_seen + LiveBits'(1)")})})}));
  GenerateFor g{"gen_slots", "k", "DecodeWidth", {}};
  g.items.push_back(Decl("found", "", "the slot has an index"));
  g.items.push_back(Decl("idx", Msb("RegBits"), "its index"));
  g.items.push_back(Decl("rank", Msb("LiveBits"), "set bits below the scan position"));
  g.items.push_back(Comb(
      "", {Blocking("found", "1'b0"), Blocking("idx", "'0"), Blocking("rank", "'0"),
           ForLoop("i", "VecBits",
                   {IfThen("vec_q[i]",
                           {IfThen("!found && (rank == LiveBits'(k))",
                                   {Blocking("found", "1'b1"), Blocking("idx", "RegBits'(i)")}),
                            Blocking("rank", "rank + LiveBits'(1)")})})}));
  g.items.push_back(Assign("grp_idx[k*RegBits +: RegBits]", "found ? idx : '0"));
  m.Add(MakeItem(std::move(g)));
  m.Blank();
  m.Comment("State and counters.");
  m.Add(Ff(
      "p_state",
      {NonBlocking("st_q", "2'd0"), NonBlocking("hit_cnt_q", "'0"),
       NonBlocking("miss_cnt_q", "'0")},
      {IfThen(
           "lk_fire",
           {IfThen(
               "hit", {NonBlocking("st_q", "2'd3"), NonBlocking("hit_cnt_q", "hit_cnt_q + 32'd1")},
               {NonBlocking("st_q", "2'd1"), NonBlocking("miss_cnt_q", "miss_cnt_q + 32'd1")})}),
       IfThen("(st_q == 2'd1) && mem_req_ready_i", {NonBlocking("st_q", "2'd2")}),
       IfThen("fill", {NonBlocking("st_q", "2'd3")}),
       IfThen("dec_fire && dec_last_o", {NonBlocking("st_q", "2'd0")})}));
  m.Blank();
  m.Add(Ff("p_valid", {NonBlocking("line_valid", "'0")},
           {IfThen("fill", {NonBlocking("line_valid[req_index]", "1'b1")})}));
  m.Blank();
  m.Comment("Payload registers (read only under their valid or state).");
  m.Add(FfNoReset("p_payload",
                  {IfThen("lk_fire", {NonBlocking("pc_q", "lk_pc_i")}),
                   IfThen("fill", {NonBlocking("line_tag[req_index]", "pc_q[PcBits-1 -: TagBits]"),
                                   NonBlocking("line_vec[req_index]", "mem_resp_vector_i")}),
                   IfThen("(lk_fire && hit) || fill",
                          {NonBlocking("vec_q", "load_vec"), NonBlocking("live_q", "load_live")},
                          {IfThen("dec_fire", {NonBlocking("vec_q", "vec_q & ~grp_mask")})})}));
  m.Blank();
  m.Comment("Outputs: zero while rst_ni is low; fields without their valid are zero.");
  m.Add(Assign("lk_hit_o", "lk_fire && hit"));
  m.Add(Assign("mem_req_valid_o", "rst_ni && (st_q == 2'd1)"));
  m.Add(Assign("mem_req_pc_o", "mem_req_valid_o ? pc_q : '0"));
  m.Add(Assign("dec_valid_o", "rst_ni && (st_q == 2'd3)"));
  m.Add(Assign("dec_count_o",
               "!dec_valid_o ? '0 : (left >= LiveBits'(DecodeWidth)) ? CntBits'(DecodeWidth) : "
               "CntBits'(left)"));
  m.Add(Assign("dec_idx_o", "dec_valid_o ? grp_idx : '0"));
  m.Add(Assign("dec_last_o", "dec_valid_o && (left <= LiveBits'(DecodeWidth))"));
  m.Add(Assign("dec_live_o", "dec_valid_o ? live_q : '0"));
  m.Add(Assign("hit_count_o", "rst_ni ? hit_cnt_q : '0"));
  m.Add(Assign("miss_count_o", "rst_ni ? miss_cnt_q : '0"));
}

Ifdef Assertions() {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(CommentItem{"Invariants I1-I5 at every edge, and the contract."}));
  d.items.push_back(Decl("chk_lookups_q", "31", "lookups accepted"));
  d.items.push_back(Decl("chk_expect_q", Msb("VecBits"), "I2: the vector left after a group"));
  d.items.push_back(Decl("chk_expect_valid_q", "", "I2: chk_expect_q is to be checked"));
  d.items.push_back(Decl("chk_fill_q", "", "I4: a fill happened at the last edge"));
  d.items.push_back(Decl("chk_fill_pc_q", Msb("PcBits"), "I4: its PC"));
  d.items.push_back(Decl("chk_shown", Msb("VecBits"), "the group's bits, from dec_idx_o"));
  d.items.push_back(Decl("chk_left", "31", "set bits of the vector left"));
  d.items.push_back(Decl("chk_below", "31", "set bits up to the group's last index"));
  d.items.push_back(Decl("chk_bad_idx", "", "I1: a shown index is not set, or not ascending"));
  d.items.push_back(Decl("chk_last_idx", Msb("RegBits"), "the group's last index"));
  d.items.push_back(MakeItem(BlankLine{}));
  d.items.push_back(
      Comb("p_invariant_terms",
           {Blocking("chk_shown", "'0"), Blocking("chk_bad_idx", "1'b0"),
            Blocking("chk_left", "'0"), Blocking("chk_below", "'0"), Blocking("chk_last_idx", "'0"),
            ForLoop("k", "DecodeWidth",
                    {IfThen("32'(k) < 32'(dec_count_o)",
                            {IfThen("!vec_q[dec_idx_o[k*RegBits +: RegBits]]",
                                    {Blocking("chk_bad_idx", "1'b1")}),
                             IfThen("(k > 0) && (dec_idx_o[k*RegBits +: RegBits] <= chk_last_idx)",
                                    {Blocking("chk_bad_idx", "1'b1")}),
                             Blocking("chk_shown[dec_idx_o[k*RegBits +: RegBits]]", "1'b1"),
                             Blocking("chk_last_idx", "dec_idx_o[k*RegBits +: RegBits]")})}),
            ForLoop("i", "VecBits",
                    {Blocking("chk_left", "chk_left + 32'(vec_q[i])"),
                     IfThen("vec_q[i] && (32'(i) <= 32'(chk_last_idx))",
                            {Blocking("chk_below", "chk_below + 32'd1")})})}));
  d.items.push_back(MakeItem(BlankLine{}));
  d.items.push_back(
      Ff("p_invariant_state",
         {NonBlocking("chk_lookups_q", "'0"), NonBlocking("chk_expect_valid_q", "1'b0"),
          NonBlocking("chk_fill_q", "1'b0")},
         {IfThen("lk_fire", {NonBlocking("chk_lookups_q", "chk_lookups_q + 32'd1")}),
          NonBlocking("chk_expect_valid_q", "dec_fire && !dec_last_o"),
          NonBlocking("chk_expect_q", "vec_q & ~chk_shown"), NonBlocking("chk_fill_q", "fill"),
          NonBlocking("chk_fill_pc_q", "pc_q")}));
  d.items.push_back(MakeItem(BlankLine{}));
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_invariants", {}};
  a.body.push_back(IfThen(
      "rst_ni",
      {Assert("!dec_valid_o || !chk_bad_idx",
              {Quote("%m: I1 violated: the group shows an index not live or not ascending")}),
       Assert("!dec_valid_o || (32'(dec_count_o) == ((chk_left < DecodeWidth) ? chk_left : "
              "DecodeWidth))",
              {Quote("%m: I1 violated: group of %0d with %0d live registers left"), "dec_count_o",
               "chk_left"}),
       Assert("!dec_valid_o || (dec_count_o == '0) || (chk_below == 32'(dec_count_o))",
              {Quote("%m: I1 violated: the group skips a lower live register")}),
       Assert("!chk_expect_valid_q || !dec_valid_o || (vec_q == chk_expect_q)",
              {Quote("%m: I2 violated: the vector left is not the last one without the group")}),
       Assert("!dec_valid_o || (dec_last_o == ((vec_q & ~chk_shown) == '0))",
              {Quote("%m: I2 violated: last %0d but live registers left after the group"),
               "dec_last_o"}),
       Assert("hit_cnt_q + miss_cnt_q == chk_lookups_q",
              {Quote("%m: I3 violated: %0d hits + %0d misses != %0d lookups"), "hit_cnt_q",
               "miss_cnt_q", "chk_lookups_q"}),
       Assert(
           "!chk_fill_q || (line_valid[chk_fill_pc_q[AlignBits +: IndexBits]] && "
           "(line_tag[chk_fill_pc_q[AlignBits +: IndexBits]] == chk_fill_pc_q[PcBits-1 -: "
           "TagBits]))",
           {Quote("%m: I4 violated: the fill of PC %h did not write its line"), "chk_fill_pc_q"}),
       Assert("!(lk_valid_i && lk_ready_o) || (st_q == 2'd0)",
              {Quote("%m: I5 violated: lookup accepted in state %0d"), "st_q"}),
       Assert("!mem_resp_valid_i || (st_q == 2'd2)",
              {Quote("%m: contract violated: memory response with no request outstanding")})}));
  d.items.push_back(MakeItem(std::move(a)));
  return d;
}

}  // namespace

GeneratedStructure EmitLiveVectorCache(const LiveVectorCacheSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  g.derived = {
      {"index_bits", s.index_bits},
      {"tag_bits", s.tag_bits},
      {"pc_index_bits", fmt::format("[{}:{}]", s.align_bits + s.index_bits - 1, s.align_bits)},
      {"line_bits", 1 + s.tag_bits + s.vector_bits},
      {"storage_bits", static_cast<long long>(s.entries) * (1 + s.tag_bits + s.vector_bits)},
      {"decode_width", s.decode_width},
      {"fetch_latency", s.fetch_latency},
  };

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumLines", Int(s.entries), "L: direct-mapped lines (a power of two)", false},
      {"PcBits", Int(s.pc_bits), "PC width", false},
      {"AlignBits", Int(s.align_bits), "PC bits below an instruction", false},
      {"VecBits", Int(s.vector_bits), "live-register vector width", false},
      {"DecodeWidth", Int(s.decode_width), "register indices per cycle", false},
      {"IndexBits", "$clog2(NumLines)", "line index bits", true},
      {"TagBits", "PcBits - AlignBits - IndexBits", "PC tag bits", true},
      {"RegBits", "(VecBits > 2) ? $clog2(VecBits) : 1", "bits per register index", true},
      {"CntBits", "$clog2(DecodeWidth + 1)", "bits per group count", true},
      {"LiveBits", "$clog2(VecBits + 1)", "bits per live count", true},
  };
  m.ports = LiveVectorCachePortTable(s).Verilog();
  AddBody(m);
  m.Blank();
  m.Add(MakeItem(Assertions()));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(AssertHeaderFile());
  g.files.push_back(top);
  g.ports = LiveVectorCachePortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
