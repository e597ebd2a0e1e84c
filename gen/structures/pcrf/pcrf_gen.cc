#include "gen/structures/pcrf/pcrf_gen.h"

#include <fmt/format.h>

#include "gen/structures/emit_util.h"
#include "gen/structures/pcrf/pcrf_ports.h"
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

// A register without reset (payload: only read where its valid bit says it was written).
Item Blank() {
  return MakeItem(BlankLine{});
}

std::vector<std::string> ModuleDoc(const PcrfSpec& s) {
  return {
      fmt::format("{}: FineReg pending-CTA register file (Oh et al., MICRO 2018,", s.module_name),
      "sections V-C to V-E): NumEntries entries of a tag {valid, end, next, warp, reg} and a",
      "RowBits-bit register row, one linked chain of entries per pending CTA, the pointer table",
      "(head, tail, live count per CTA slot) and the free-space monitor (a free bit per entry,",
      "the free count, a find-next-free giving the lowest free entry each cycle).",
      "",
      "Append (app_*): the register takes the lowest free entry and is linked after the tail of",
      "its CTA's chain (or starts it). Restore (rs_*): the CTA's chain goes to the walker, which",
      fmt::format("issues its entries in save order ({}), following next pointers;",
                  s.pipelined ? "one per cycle, pipelined" : "one per walk latency"),
      "each returns on out_* HopCycles cycles after its issue, its row read from the data array",
      fmt::format("({}) and its entry freed as it enters the last stage.",
                  s.macro() ? "gpurf_sram_1r1w, hard macro" : "gpurf_sram_1r1w, flip-flops"),
      "Invariants (checked with GPURF_ASSERTIONS defined): I1 free count + occupied = entries;",
      "I2 no free entry on a chain; I3 no entry on two chains; I4 every chain ends with the end",
      "bit; I5 an empty CTA's head pointer is not valid.",
  };
}

void AddDeclarations(Module& m) {
  m.Comment(
      "Tag array: per entry valid, end, next pointer, warp id and register index. The valid bit\n"
      "is the free-space monitor's bit inverted: one flip-flop per entry holds both.");
  m.Add(Decl("tag_end", Msb("NumEntries"), "entry is the last of its chain"));
  m.Add(Decl("tag_next", Msb("EntryBits"), "next entry of the chain", "NumEntries"));
  m.Add(Decl("tag_warp", Msb("WarpBits"), "warp id", "NumEntries"));
  m.Add(Decl("tag_reg", Msb("RegBits"), "register index", "NumEntries"));
  m.Comment("Free-space monitor.");
  m.Add(Decl("free", Msb("NumEntries"), "entry is free"));
  m.Add(Decl("free_count_q", Msb("CountBits"), "free entries"));
  m.Add(Decl("alloc_found", "", "some entry is free"));
  m.Add(Decl("alloc_entry", Msb("EntryBits"), "the lowest free entry"));
  m.Comment("Pointer table: per CTA slot.");
  m.Add(Decl("head_valid", Msb("NumCtas"), "the CTA has a chain"));
  m.Add(Decl("head", Msb("EntryBits"), "first entry of its chain", "NumCtas"));
  m.Add(Decl("tail", Msb("EntryBits"), "last entry of its chain", "NumCtas"));
  m.Add(Decl("count", Msb("CountBits"), "live registers saved", "NumCtas"));
  m.Comment("Walker: the chain being restored.");
  m.Add(Decl("wk_left_q", Msb("CountBits"), "entries still to issue"));
  m.Add(Decl("wk_ptr_q", Msb("EntryBits"), "next entry to issue"));
  m.Add(Decl("wk_cta_q", Msb("CtaBits"), "CTA slot being restored"));
  m.Comment(
      "Walk pipeline: stage k (0..Stages-1) holds the entry issued k+1 cycles ago; the last\n"
      "stage is the output.");
  m.Add(Decl("pv_q", Msb("Stages"), "stage holds an entry"));
  m.Add(Decl("pe_q", Msb("EntryBits"), "its entry", "Stages"));
  m.Add(Decl("pc_q", Msb("CtaBits"), "its CTA slot", "Stages"));
  m.Add(Decl("pw_q", Msb("WarpBits"), "its warp id", "Stages"));
  m.Add(Decl("pr_q", Msb("RegBits"), "its register index", "Stages"));
  m.Add(Decl("pl_q", Msb("Stages"), "its end bit"));
  m.Comment("Handshakes and this cycle's operations.");
  m.Add(Decl("app_fire", "", "an append is accepted"));
  m.Add(Decl("app_chain", "", "the append links after its CTA's tail"));
  m.Add(Decl("rs_fire", "", "a restore is accepted"));
  m.Add(Decl("advance", "", "the walk pipeline moves"));
  m.Add(Decl("issue", "", "the walker issues an entry"));
  m.Add(Decl("rd_fire", "", "a row is read and its entry freed"));
  m.Add(Decl("rd_entry", Msb("EntryBits"), "that entry"));
  m.Add(Decl("rdata", Msb("RowBits"), "data array read port"));
}

void AddControl(Module& m) {
  m.Comment(
      "Handshakes. The append takes the lowest free entry; a restore accepted in the same\n"
      "cycle for the same CTA takes the chain without it (the append starts a new one).");
  m.Add(Assign("app_ready_o", "rst_ni && alloc_found"));
  m.Add(Assign("app_fire", "app_valid_i && app_ready_o"));
  m.Add(Assign("rs_ready_o", "rst_ni && (wk_left_q == '0)"));
  m.Add(Assign("rs_fire", "rs_valid_i && rs_ready_o"));
  m.Add(Assign("app_chain", "head_valid[app_cta_i] && !(rs_fire && (rs_cta_i == app_cta_i))"));
  m.Blank();
  m.Comment(
      "Walk timing: the pipeline stalls while its output is not taken; a walk issues one entry\n"
      "per cycle (Pipelined) or one whenever the pipeline is empty. The entry of stage\n"
      "Stages-2 has its row read, and is freed, as it moves into the last stage.");
  m.Add(Assign("advance", "!pv_q[Stages-1] || out_ready_i"));
  m.Add(Assign("issue",
               "rst_ni && (wk_left_q != '0) && advance && ((Pipelined != 0) || (pv_q == '0))"));
  m.Add(Assign("rd_fire", "rst_ni && advance && pv_q[Stages-2]"));
  m.Add(Assign("rd_entry", "pe_q[Stages-2]"));
}

void AddFreeSpace(Module& m) {
  m.Comment(
      "Find-next-free: a priority encoder over the free bits, the lowest free entry (one\n"
      "allocation per cycle).");
  m.Add(Comb(
      "p_find_free",
      {Blocking("alloc_found", "1'b0"), Blocking("alloc_entry", "'0"),
       ForLoop("e", "NumEntries",
               {IfThen("!alloc_found && free[e]", {Blocking("alloc_found", "1'b1"),
                                                   Blocking("alloc_entry", "EntryBits'(e)")})})}));
  m.Blank();
  m.Add(Ff(
      "p_free_count", {NonBlocking("free_count_q", "CountBits'(NumEntries)")},
      {NonBlocking("free_count_q", "free_count_q - CountBits'(app_fire) + CountBits'(rd_fire)")}));
}

void AddEntries(Module& m) {
  m.Comment(
      "Entries: the append writes the new entry's tag (end set) and relinks the CTA's old tail;\n"
      "the row read frees the entry.");
  GenerateFor g{"gen_entries", "e", "NumEntries", {}};
  g.items.push_back(Decl("end_q", "", "tag end"));
  g.items.push_back(Decl("free_q", "", "free-space monitor bit, the tag's valid bit inverted"));
  g.items.push_back(Decl("next_q", Msb("EntryBits"), "tag next pointer"));
  g.items.push_back(Decl("warp_q", Msb("WarpBits"), "tag warp id"));
  g.items.push_back(Decl("reg_q", Msb("RegBits"), "tag register index"));
  g.items.push_back(Decl("take", "", "the append takes this entry"));
  g.items.push_back(Decl("link", "", "the append links after this entry"));
  g.items.push_back(Decl("freed", "", "the walk frees this entry"));
  g.items.push_back(Blank());
  g.items.push_back(Assign("take", "app_fire && (alloc_entry == EntryBits'(e))"));
  g.items.push_back(Assign("link", "app_fire && app_chain && (tail[app_cta_i] == EntryBits'(e))"));
  g.items.push_back(Assign("freed", "rd_fire && (rd_entry == EntryBits'(e))"));
  g.items.push_back(Blank());
  g.items.push_back(
      Ff("", {NonBlocking("end_q", "1'b0"), NonBlocking("free_q", "1'b1")},
         {IfThen("take", {NonBlocking("end_q", "1'b1"), NonBlocking("free_q", "1'b0")}),
          IfThen("link", {NonBlocking("end_q", "1'b0")}),
          IfThen("freed", {NonBlocking("free_q", "1'b1")})}));
  g.items.push_back(Blank());
  g.items.push_back(FfNoReset(
      "", {IfThen("take", {NonBlocking("warp_q", "app_warp_i"), NonBlocking("reg_q", "app_reg_i")}),
           IfThen("link", {NonBlocking("next_q", "alloc_entry")})}));
  g.items.push_back(Blank());
  g.items.push_back(Assign("tag_end[e]", "end_q"));
  g.items.push_back(Assign("free[e]", "free_q"));
  g.items.push_back(Assign("tag_next[e]", "next_q"));
  g.items.push_back(Assign("tag_warp[e]", "warp_q"));
  g.items.push_back(Assign("tag_reg[e]", "reg_q"));
  m.Add(MakeItem(std::move(g)));
}

void AddPointerTable(Module& m) {
  m.Comment(
      "Pointer table: an append grows its CTA's chain (or starts it); an accepted restore hands\n"
      "the chain to the walker and leaves the line empty.");
  GenerateFor g{"gen_ctas", "c", "NumCtas", {}};
  g.items.push_back(Decl("head_valid_q", "", "head pointer valid"));
  g.items.push_back(Decl("head_q", Msb("EntryBits"), "head pointer"));
  g.items.push_back(Decl("tail_q", Msb("EntryBits"), "tail pointer"));
  g.items.push_back(Decl("count_q", Msb("CountBits"), "live count"));
  g.items.push_back(Decl("app_here", "", "an append to this CTA"));
  g.items.push_back(Decl("rs_here", "", "a restore of this CTA"));
  g.items.push_back(Blank());
  g.items.push_back(Assign("app_here", "app_fire && (app_cta_i == CtaBits'(c))"));
  g.items.push_back(Assign("rs_here", "rs_fire && (rs_cta_i == CtaBits'(c))"));
  g.items.push_back(Blank());
  g.items.push_back(Ff(
      "", {NonBlocking("head_valid_q", "1'b0"), NonBlocking("count_q", "'0")},
      {IfThen("rs_here", {NonBlocking("head_valid_q", "1'b0"), NonBlocking("count_q", "'0")}),
       IfThen("app_here", {IfThen("app_chain", {NonBlocking("count_q", "count_q + CountBits'(1)")},
                                  {NonBlocking("head_valid_q", "1'b1"),
                                   NonBlocking("count_q", "CountBits'(1)")})})}));
  g.items.push_back(Blank());
  g.items.push_back(FfNoReset(
      "", {IfThen("app_here", {NonBlocking("tail_q", "alloc_entry"),
                               IfThen("!app_chain", {NonBlocking("head_q", "alloc_entry")})})}));
  g.items.push_back(Blank());
  g.items.push_back(Assign("head_valid[c]", "head_valid_q"));
  g.items.push_back(Assign("head[c]", "head_q"));
  g.items.push_back(Assign("tail[c]", "tail_q"));
  g.items.push_back(Assign("count[c]", "count_q"));
  m.Add(MakeItem(std::move(g)));
}

void AddWalker(Module& m) {
  m.Comment(
      "Walker: takes the restored CTA's chain; each issue reads the entry's tag and follows\n"
      "its next pointer.");
  m.Add(Ff("p_walker",
           {NonBlocking("wk_left_q", "'0"), NonBlocking("wk_ptr_q", "'0"),
            NonBlocking("wk_cta_q", "'0")},
           {IfThen("rs_fire",
                   {NonBlocking("wk_left_q", "head_valid[rs_cta_i] ? count[rs_cta_i] : '0"),
                    NonBlocking("wk_ptr_q", "head_valid[rs_cta_i] ? head[rs_cta_i] : '0"),
                    NonBlocking("wk_cta_q", "rs_cta_i")},
                   {IfThen("issue", {NonBlocking("wk_left_q", "wk_left_q - CountBits'(1)"),
                                     NonBlocking("wk_ptr_q", "tag_next[wk_ptr_q]")})})}));
  m.Blank();
  m.Add(Ff("p_walk_valid", {NonBlocking("pv_q", "'0")},
           {IfThen("advance", {NonBlocking("pv_q", "{pv_q[Stages-2:0], issue}")})}));
  m.Blank();
  Body shift = {
      NonBlocking("pe_q[0]", "wk_ptr_q"),
      NonBlocking("pc_q[0]", "wk_cta_q"),
      NonBlocking("pw_q[0]", "tag_warp[wk_ptr_q]"),
      NonBlocking("pr_q[0]", "tag_reg[wk_ptr_q]"),
      NonBlocking("pl_q", "{pl_q[Stages-2:0], tag_end[wk_ptr_q]}"),
      ForLoop("k", "Stages - 1",
              {NonBlocking("pe_q[k+1]", "pe_q[k]"), NonBlocking("pc_q[k+1]", "pc_q[k]"),
               NonBlocking("pw_q[k+1]", "pw_q[k]"), NonBlocking("pr_q[k+1]", "pr_q[k]")})};
  m.Add(FfNoReset("p_walk_payload", {IfThen("advance", std::move(shift))}));
}

void AddDataArray(Module& m) {
  m.Comment(
      "Data array: one row per entry behind the SRAM wrapper. An append writes its row; the\n"
      "walk reads the row of the entry entering the last stage (the output latch then holds it\n"
      "while the output stalls). The row read is of an occupied entry and the row written of a\n"
      "free one, so the two never collide.");
  m.Add(MakeItem(Instance{"gpurf_sram_1r1w",
                          "u_data",
                          {{"Depth", "NumEntries"}, {"Width", "RowBits"}, {"Impl", "DataImpl"}},
                          {{"clk_i", "clk_i"},
                           {"re_i", "rd_fire"},
                           {"raddr_i", "rd_entry"},
                           {"rdata_o", "rdata"},
                           {"we_i", "app_fire"},
                           {"waddr_i", "alloc_entry"},
                           {"wdata_i", "app_data_i"}}}));
}

void AddOutputs(Module& m) {
  m.Comment(
      "Outputs: zero while rst_ni is low; fields without their valid are zero (the row is "
      "the\nSRAM's output latch).");
  m.Add(Assign("app_entry_o", "app_ready_o ? alloc_entry : '0"));
  m.Add(Assign("out_valid_o", "rst_ni && pv_q[Stages-1]"));
  m.Add(Assign("out_cta_o", "out_valid_o ? pc_q[Stages-1] : '0"));
  m.Add(Assign("out_warp_o", "out_valid_o ? pw_q[Stages-1] : '0"));
  m.Add(Assign("out_reg_o", "out_valid_o ? pr_q[Stages-1] : '0"));
  m.Add(Assign("out_entry_o", "out_valid_o ? pe_q[Stages-1] : '0"));
  m.Add(Assign("out_last_o", "out_valid_o && pl_q[Stages-1]"));
  m.Add(Assign("out_data_o", "rdata"));
  m.Add(Assign("q_count_o", "rst_ni ? count[q_cta_i] : '0"));
  m.Add(Assign("q_head_valid_o", "rst_ni && head_valid[q_cta_i]"));
  m.Add(Assign("q_head_o", "q_head_valid_o ? head[q_cta_i] : '0"));
  m.Add(Assign("free_count_o", "rst_ni ? free_count_q : '0"));
}

// The chain shadow (GPURF_ASSERTIONS only): per entry its owner (free, the chain of CTA slot
// gh_cta, the walk, or in flight in the walk pipeline) and its rank (position from the chain's
// head, or from the walker's next entry), updated from the same handshakes as the RTL but
// without following pointers. Its checks relate each occupied entry to its successor (same
// owner, rank + 1, or the end bit at the last rank), the heads, tails and walker pointer to
// ranks 0 and count - 1, and the entries of each owner to its live count; together they say
// that every chain is a simple path from its head of exactly count entries ending with the end
// bit, which makes I1-I5 inductive (gpurf prove pcrf).
void AddChainShadow(Ifdef& d) {
  d.items.push_back(MakeItem(CommentItem{
      "Chain shadow: each entry's owner (0 free, 1 a CTA's chain, 2 the walk, 3 in flight) and\n"
      "rank; an auxiliary invariant for the formal proofs, checked in simulation too."}));
  d.items.push_back(Decl("gh_kind", "1", "owner kind", "NumEntries"));
  d.items.push_back(Decl("gh_cta", Msb("CtaBits"), "owning CTA slot (kind 1)", "NumEntries"));
  d.items.push_back(Decl("gh_rank", Msb("CountBits"), "position in its chain", "NumEntries"));
  d.items.push_back(Decl("chk_own", "31", "entries on each CTA's chain", "NumCtas"));
  d.items.push_back(Decl("chk_own_walk", "31", "entries of the walk"));
  d.items.push_back(Decl("chk_own_flight", "31", "entries in flight"));
  d.items.push_back(Decl("chk_flight", "31", "pipeline stages before the last holding one"));
  d.items.push_back(Decl("chk_shadow_bad", "", "some chain shadow relation fails"));
  d.items.push_back(Decl("chk_in_stage", "", "an in-flight entry is in a pipeline stage"));
  d.items.push_back(Blank());
  GenerateFor g{"gen_shadow", "e", "NumEntries", {}};
  g.items.push_back(Decl("kind_q", "1", "owner kind"));
  g.items.push_back(Decl("cta_q", Msb("CtaBits"), "owning CTA slot"));
  g.items.push_back(Decl("rank_q", Msb("CountBits"), "rank"));
  g.items.push_back(Ff(
      "", {NonBlocking("kind_q", "2'd0"), NonBlocking("cta_q", "'0"), NonBlocking("rank_q", "'0")},
      {IfThen("rs_fire && (kind_q == 2'd1) && (cta_q == rs_cta_i)",
              {NonBlocking("kind_q", "2'd2")}),
       IfThen("issue && (kind_q == 2'd2)", {NonBlocking("rank_q", "rank_q - CountBits'(1)")}),
       IfThen("issue && (wk_ptr_q == EntryBits'(e))", {NonBlocking("kind_q", "2'd3")}),
       IfThen("rd_fire && (rd_entry == EntryBits'(e))", {NonBlocking("kind_q", "2'd0")}),
       IfThen("app_fire && (alloc_entry == EntryBits'(e))",
              {NonBlocking("kind_q", "2'd1"), NonBlocking("cta_q", "app_cta_i"),
               NonBlocking("rank_q", "app_chain ? count[app_cta_i] : '0")})}));
  g.items.push_back(Assign("gh_kind[e]", "kind_q"));
  g.items.push_back(Assign("gh_cta[e]", "cta_q"));
  g.items.push_back(Assign("gh_rank[e]", "rank_q"));
  d.items.push_back(MakeItem(std::move(g)));
  d.items.push_back(Blank());
  const std::string rank = "32'(gh_rank[e])";
  const std::string nxt = "tag_next[e]";
  const std::string succ = "(32'(gh_rank[tag_next[e]]) == " + rank + " + 1)";
  d.items.push_back(Comb(
      "p_chain_shadow",
      {Blocking("chk_shadow_bad", "1'b0"), Blocking("chk_in_stage", "1'b0"),
       Blocking("chk_own_walk", "'0"), Blocking("chk_own_flight", "'0"),
       Blocking("chk_flight", "'0"), ForLoop("c", "NumCtas", {Blocking("chk_own[c]", "'0")}),
       ForLoop(
           "e", "NumEntries",
           {IfThen("(gh_kind[e] != 2'd0) != tag_valid[e]", {Blocking("chk_shadow_bad", "1'b1")}),
            IfThen(
                "gh_kind[e] == 2'd1",
                {Blocking("chk_own[gh_cta[e]]", "chk_own[gh_cta[e]] + 1"),
                 IfThen("!head_valid[gh_cta[e]] || (" + rank + " >= 32'(count[gh_cta[e]])) || ((" +
                            rank + " == 0) != (head[gh_cta[e]] == EntryBits'(e))) || ((" + rank +
                            " + 1 == 32'(count[gh_cta[e]])) != (tail[gh_cta[e]] == "
                            "EntryBits'(e))) || (tag_end[e] != (" +
                            rank + " + 1 == 32'(count[gh_cta[e]])))",
                        {Blocking("chk_shadow_bad", "1'b1")}),
                 IfThen("!tag_end[e] && ((gh_kind[" + nxt + "] != 2'd1) || (gh_cta[" + nxt +
                            "] != gh_cta[e]) || !" + succ + ")",
                        {Blocking("chk_shadow_bad", "1'b1")})}),
            IfThen("gh_kind[e] == 2'd2",
                   {Blocking("chk_own_walk", "chk_own_walk + 1"),
                    IfThen("(" + rank + " >= 32'(wk_left_q)) || ((" + rank +
                               " == 0) != (wk_ptr_q == EntryBits'(e))) || (tag_end[e] != (" + rank +
                               " + 1 == 32'(wk_left_q)))",
                           {Blocking("chk_shadow_bad", "1'b1")}),
                    IfThen("!tag_end[e] && ((gh_kind[" + nxt + "] != 2'd2) || !" + succ + ")",
                           {Blocking("chk_shadow_bad", "1'b1")})}),
            IfThen(
                "gh_kind[e] == 2'd3",
                {Blocking("chk_own_flight", "chk_own_flight + 1"), Blocking("chk_in_stage", "1'b0"),
                 ForLoop("k", "Stages - 1",
                         {IfThen("pv_q[k] && (pe_q[k] == EntryBits'(e))",
                                 {Blocking("chk_in_stage", "1'b1")})}),
                 IfThen("!chk_in_stage", {Blocking("chk_shadow_bad", "1'b1")})})}),
       ForLoop("c", "NumCtas",
               {IfThen("chk_own[c] != 32'(count[c])", {Blocking("chk_shadow_bad", "1'b1")}),
                IfThen("head_valid[c] && ((gh_kind[head[c]] != 2'd1) || (gh_cta[head[c]] != "
                       "CtaBits'(c)) || (gh_rank[head[c]] != '0) || (gh_kind[tail[c]] != 2'd1) "
                       "|| (gh_cta[tail[c]] != CtaBits'(c)) || (32'(gh_rank[tail[c]]) + 1 != "
                       "32'(count[c])))",
                       {Blocking("chk_shadow_bad", "1'b1")})}),
       IfThen("chk_own_walk != 32'(wk_left_q)", {Blocking("chk_shadow_bad", "1'b1")}),
       IfThen("(wk_left_q != '0) && ((gh_kind[wk_ptr_q] != 2'd2) || (gh_rank[wk_ptr_q] != '0))",
              {Blocking("chk_shadow_bad", "1'b1")}),
       ForLoop("k", "Stages - 1",
               {IfThen("pv_q[k]", {Blocking("chk_flight", "chk_flight + 1"),
                                   IfThen("gh_kind[pe_q[k]] != 2'd3",
                                          {Blocking("chk_shadow_bad", "1'b1")})})}),
       IfThen("chk_own_flight != chk_flight", {Blocking("chk_shadow_bad", "1'b1")})}));
  d.items.push_back(Blank());
}

Ifdef Assertions() {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(CommentItem{
      "Invariants I1-I5 at every edge, and the contract that CTA slots are in range."}));
  d.items.push_back(Decl("tag_valid", Msb("NumEntries"), "the tags' valid bits"));
  d.items.push_back(Decl("chk_occupied", "31", "valid tags"));
  d.items.push_back(Decl("chk_live", "31", "live counts + walk remaining + issued, not yet freed"));
  d.items.push_back(Decl("chk_free_on_chain", "", "I2: a non-empty CTA's head or tail is free"));
  d.items.push_back(Decl("chk_tail_open", "", "I4: a non-empty CTA's tail lacks the end bit"));
  d.items.push_back(Decl("chk_head_bad", "", "I5: head valid disagrees with the count"));
  d.items.push_back(Decl("chk_twice", "", "I3: the issued entry is already in flight"));
  d.items.push_back(Blank());
  d.items.push_back(Assign("tag_valid", "~free"));
  d.items.push_back(Comb(
      "p_invariant_terms",
      {Blocking("chk_occupied", "'0"), Blocking("chk_live", "32'(wk_left_q)"),
       Blocking("chk_free_on_chain", "1'b0"), Blocking("chk_tail_open", "1'b0"),
       Blocking("chk_head_bad", "1'b0"), Blocking("chk_twice", "1'b0"),
       ForLoop("e", "NumEntries", {Blocking("chk_occupied", "chk_occupied + 32'(tag_valid[e])")}),
       ForLoop("c", "NumCtas",
               {Blocking("chk_live", "chk_live + 32'(count[c])"),
                IfThen("head_valid[c] != (count[c] != '0)", {Blocking("chk_head_bad", "1'b1")}),
                IfThen("head_valid[c] && (free[head[c]] || free[tail[c]])",
                       {Blocking("chk_free_on_chain", "1'b1")}),
                IfThen("head_valid[c] && !tag_end[tail[c]]", {Blocking("chk_tail_open", "1'b1")})}),
       ForLoop("k", "Stages",
               {Note("The last stage's entry is already free (and may be in use again)."),
                IfThen("k < Stages - 1", {Blocking("chk_live", "chk_live + 32'(pv_q[k])"),
                                          IfThen("issue && pv_q[k] && (pe_q[k] == wk_ptr_q)",
                                                 {Blocking("chk_twice", "1'b1")})})})}));
  d.items.push_back(Blank());
  AddChainShadow(d);
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_invariants", {}};
  a.body.push_back(IfThen(
      "rst_ni",
      {Assert("32'(free_count_q) + chk_occupied == NumEntries",
              {Quote("%m: I1 violated: free count %0d + occupied %0d != %0d entries"),
               "free_count_q", "chk_occupied", "NumEntries"}),
       Assert("!chk_free_on_chain",
              {Quote("%m: I2 violated: the head or tail of a chain is a free entry")}),
       Assert("!issue || tag_valid[wk_ptr_q]",
              {Quote("%m: I2 violated: the walk reaches entry %0d, which is free"), "wk_ptr_q"}),
       Assert("!app_fire || !tag_valid[alloc_entry]",
              {Quote("%m: I3 violated: append into occupied entry %0d"), "alloc_entry"}),
       Assert("!chk_twice",
              {Quote("%m: I3 violated: the walk issues entry %0d twice"), "wk_ptr_q"}),
       Assert("chk_live == chk_occupied",
              {Quote("%m: I3 violated: live counts %0d != occupied entries %0d"), "chk_live",
               "chk_occupied"}),
       Assert("!chk_tail_open",
              {Quote("%m: I4 violated: a chain's tail does not have the end bit")}),
       Assert("!issue || (tag_end[wk_ptr_q] == (wk_left_q == CountBits'(1)))",
              {Quote("%m: I4 violated: entry %0d has end bit %0d with %0d entries left"),
               "wk_ptr_q", "tag_end[wk_ptr_q]", "wk_left_q"}),
       Assert("!chk_head_bad",
              {Quote("%m: I5 violated: a head pointer valid bit disagrees with the live count")}),
       Assert("!chk_shadow_bad",
              {Quote("%m: chain shadow violated: an entry's owner, rank, successor or end bit, "
                     "or an owner's entry count, disagrees with the pointers")}),
       Assert("!app_valid_i || 32'(app_cta_i) < NumCtas",
              {Quote("%m: contract violated: append CTA %0d >= NumCtas"), "app_cta_i"}),
       Assert("!rs_valid_i || 32'(rs_cta_i) < NumCtas",
              {Quote("%m: contract violated: restore CTA %0d >= NumCtas"), "rs_cta_i"})}));
  d.items.push_back(MakeItem(std::move(a)));
  return d;
}

}  // namespace

GeneratedStructure EmitPcrf(const PcrfSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  const long long data_bits = static_cast<long long>(s.entries) * s.row_bits;
  g.derived = {
      {"entry_bits", s.entry_bits},
      {"count_bits", s.count_bits},
      {"tag_bits", s.tag_bits},
      {"tag_storage_bits", static_cast<long long>(s.entries) * s.tag_bits},
      {"tag_valid_is_free_bit", true},
      {"pointer_table_bits",
       static_cast<long long>(s.ctas) * (1 + 2 * s.entry_bits + s.count_bits)},
      {"free_monitor_bits", s.entries + s.count_bits},
      {"data_bits", data_bits},
      {"find_free_per_cycle", 1},
      {"walk_stages", s.hop_cycles - 1},
      {"data_impl", s.macro() ? "macro" : "flops"},
  };
  if (s.macro()) {
    g.derived["sram_macros"] = nlohmann::ordered_json::array({{{"module", "gpurf_sram_1r1w_macro"},
                                                               {"depth", s.entries},
                                                               {"width", s.row_bits},
                                                               {"read_ports", 1},
                                                               {"write_ports", 1},
                                                               {"count", 1}}});
  }

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumEntries", Int(s.entries), "E: PCRF entries", false},
      {"RowBits", Int(s.row_bits), "bits per register row", false},
      {"NumCtas", Int(s.ctas), "pending CTA slots", false},
      {"NumWarps", Int(s.warps), "warps per CTA", false},
      {"NumRegs", Int(s.regs), "registers per thread", false},
      {"HopCycles", Int(s.hop_cycles), "cycles per chain entry, issue to result", false},
      {"Pipelined", s.pipelined ? "1" : "0", "1: a walk issues one entry per cycle", false},
      {"DataImpl", s.macro() ? "1" : "0", "gpurf_sram_1r1w Impl: 0 flip-flops, 1 hard macro", true},
      {"EntryBits", "(NumEntries > 2) ? $clog2(NumEntries) : 1", "bits per entry pointer", true},
      {"CountBits", "$clog2(NumEntries + 1)", "bits per live or free count", true},
      {"CtaBits", "(NumCtas > 2) ? $clog2(NumCtas) : 1", "bits per CTA slot", true},
      {"WarpBits", "(NumWarps > 2) ? $clog2(NumWarps) : 1", "bits per warp id", true},
      {"RegBits", "(NumRegs > 2) ? $clog2(NumRegs) : 1", "bits per register index", true},
      {"Stages", "HopCycles - 1", "walk pipeline stages after the issue cycle", true},
  };
  m.ports = PcrfPortTable(s).Verilog();

  AddDeclarations(m);
  m.Blank();
  AddControl(m);
  m.Blank();
  AddFreeSpace(m);
  m.Blank();
  AddEntries(m);
  m.Blank();
  AddPointerTable(m);
  m.Blank();
  AddWalker(m);
  m.Blank();
  AddDataArray(m);
  m.Blank();
  AddOutputs(m);
  m.Blank();
  m.Add(MakeItem(Assertions()));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(AssertHeaderFile());
  if (s.macro())
    g.files.push_back(PrimitiveFile("gpurf_sram_1r1w_macro.sv"));
  g.files.push_back(PrimitiveFile("gpurf_sram_1r1w.sv"));
  g.files.push_back(top);

  g.ports = PcrfPortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
