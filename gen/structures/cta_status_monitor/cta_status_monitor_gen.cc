#include "gen/structures/cta_status_monitor/cta_status_monitor_gen.h"

#include <fmt/format.h>

#include "gen/structures/cta_status_monitor/cta_status_monitor_ports.h"
#include "gen/structures/emit_util.h"
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

Item Blank() {
  return MakeItem(BlankLine{});
}

std::vector<std::string> ModuleDoc(const CtaStatusMonitorSpec& s) {
  return {
      fmt::format("{}: FineReg CTA status monitor and switch decision (Oh et", s.module_name),
      "al., MICRO 2018, sections V-B and V-E, Table IV). Per CTA slot a 2-bit context field",
      "(0 not launched, 1 shared memory, 2 pipeline), a 2-bit register field (0 not launched,",
      "1 PCRF, 2 ACRF) and the live count saved in the PCRF. When an active CTA stalls",
      "(stall_*), the first ready pending CTA (context 1 and registers in the ACRF first, then",
      "context 1 and registers in the PCRF; lowest slot first) is resumed if the stalled CTA's",
      "live registers fit in the free PCRF entries plus those the resumed CTA frees; with no",
      "candidate a new CTA is launched into the lowest free slot if they fit; else the stalled",
      "CTA stays. The set port (set_*) writes a slot's fields (launch, finish, context swap).",
      "Invariants (checked with GPURF_ASSERTIONS defined): S1 fields are 0..2; S2 context 0",
      "exactly when registers 0; S3 context in the pipeline has registers in the ACRF; S4 a saved",
      "count only with registers in the PCRF; S5 a switch fits; S6 the first candidate is taken.",
  };
}

void AddBody(Module& m) {
  m.Comment("Status fields (Table IV) and saved live counts, per slot.");
  m.Add(Decl("ctx", "1", "context field", "NumCtas"));
  m.Add(Decl("rl", "1", "register field", "NumCtas"));
  m.Add(Decl("live", Msb("CountBits"), "live count saved in the PCRF", "NumCtas"));
  m.Comment("Switch decision.");
  m.Add(Decl("st_ok", "", "the stalled CTA is active: it gets a decision"));
  m.Add(Decl("a_found", "", "a ready CTA with context 1 and registers in the ACRF"));
  m.Add(Decl("a_sel", Msb("CtaBits"), "the lowest such"));
  m.Add(Decl("b_found", "", "a ready CTA with context 1 and registers in the PCRF"));
  m.Add(Decl("b_sel", Msb("CtaBits"), "the lowest such"));
  m.Add(Decl("slot_found", "", "a slot not launched"));
  m.Add(Decl("slot", Msb("CtaBits"), "the lowest such"));
  m.Add(Decl("sel", Msb("CtaBits"), "the selected candidate"));
  m.Add(Decl("freed", Msb("CountBits"), "PCRF entries its restore frees"));
  m.Add(Decl("avail", Msb("AvailBits"), "free + freed"));
  m.Add(Decl("fits", "", "the stalled CTA's live registers fit"));
  m.Add(Decl("do_switch", "", "switch with the candidate"));
  m.Add(Decl("do_launch", "", "launch a new CTA"));
  m.Add(Decl("n_active", Msb("SlotBits"), "active slots"));
  m.Add(Decl("n_pending", Msb("SlotBits"), "pending slots"));
  m.Blank();
  m.Add(Assign("st_ok",
               "rst_ni && stall_valid_i && (ctx[stall_cta_i] == 2'd2) && "
               "(rl[stall_cta_i] == 2'd2)"));
  m.Add(
      Comb("p_select",
           {Blocking("a_found", "1'b0"), Blocking("a_sel", "'0"), Blocking("b_found", "1'b0"),
            Blocking("b_sel", "'0"), Blocking("slot_found", "1'b0"), Blocking("slot", "'0"),
            ForLoop("c", "NumCtas",
                    {IfThen("!a_found && ready_i[c] && (ctx[c] == 2'd1) && (rl[c] == 2'd2)",
                            {Blocking("a_found", "1'b1"), Blocking("a_sel", "CtaBits'(c)")}),
                     IfThen("!b_found && ready_i[c] && (ctx[c] == 2'd1) && (rl[c] == 2'd1)",
                            {Blocking("b_found", "1'b1"), Blocking("b_sel", "CtaBits'(c)")}),
                     IfThen("!slot_found && (ctx[c] == 2'd0)",
                            {Blocking("slot_found", "1'b1"), Blocking("slot", "CtaBits'(c)")})})}));
  m.Add(Assign("sel", "a_found ? a_sel : b_sel"));
  m.Add(Assign("freed", "(!a_found && b_found) ? live[b_sel] : '0"));
  m.Add(Assign("avail", "AvailBits'(free_i) + AvailBits'(freed)"));
  m.Add(Assign("fits", "AvailBits'(stall_live_i) <= avail"));
  m.Add(Assign("do_switch", "st_ok && (a_found || b_found) && fits"));
  m.Add(
      Assign("do_launch", "st_ok && !(a_found || b_found) && fits && can_launch_i && slot_found"));
  m.Blank();
  m.Comment(
      "Slots: a switch or launch evicts the stalled CTA to shared memory and the PCRF and makes\n"
      "the selected one active; the set port writes last and wins.");
  GenerateFor g{"gen_ctas", "c", "NumCtas", {}};
  g.items.push_back(Decl("ctx_q", "1", "context field"));
  g.items.push_back(Decl("rl_q", "1", "register field"));
  g.items.push_back(Decl("live_q", Msb("CountBits"), "saved live count"));
  g.items.push_back(Decl("evict", "", "this CTA stalled and is switched out"));
  g.items.push_back(Decl("resume", "", "this CTA is made active"));
  g.items.push_back(Decl("set_here", "", "the set port writes this slot"));
  g.items.push_back(Blank());
  g.items.push_back(Assign("evict", "(do_switch || do_launch) && (stall_cta_i == CtaBits'(c))"));
  g.items.push_back(Assign("resume",
                           "(do_switch && (sel == CtaBits'(c))) || "
                           "(do_launch && (slot == CtaBits'(c)))"));
  g.items.push_back(Assign("set_here", "set_valid_i && (set_cta_i == CtaBits'(c))"));
  g.items.push_back(Blank());
  g.items.push_back(Ff(
      "", {NonBlocking("ctx_q", "2'd0"), NonBlocking("rl_q", "2'd0"), NonBlocking("live_q", "'0")},
      {IfThen("evict", {NonBlocking("ctx_q", "2'b01"), NonBlocking("rl_q", "2'b01"),
                        NonBlocking("live_q", "stall_live_i")}),
       IfThen("resume", {NonBlocking("ctx_q", "2'b10"), NonBlocking("rl_q", "2'b10"),
                         NonBlocking("live_q", "CountBits'(0)")}),
       IfThen("set_here", {NonBlocking("ctx_q", "set_ctx_i"), NonBlocking("rl_q", "set_reg_i"),
                           NonBlocking("live_q", "(set_reg_i == 2'd1) ? set_live_i : '0")})}));
  g.items.push_back(Blank());
  g.items.push_back(Assign("ctx[c]", "ctx_q"));
  g.items.push_back(Assign("rl[c]", "rl_q"));
  g.items.push_back(Assign("live[c]", "live_q"));
  m.Add(MakeItem(std::move(g)));
  m.Blank();
  m.Add(Comb("p_counts",
             {Blocking("n_active", "'0"), Blocking("n_pending", "'0"),
              ForLoop("c", "NumCtas",
                      {IfThen("(ctx[c] == 2'd2) && (rl[c] == 2'd2)",
                              {Blocking("n_active", "n_active + SlotBits'(1)")},
                              {IfThen("ctx[c] != 2'd0",
                                      {Blocking("n_pending", "n_pending + SlotBits'(1)")})})})}));
  m.Blank();
  m.Comment("Outputs: zero while rst_ni is low; fields without their valid are zero.");
  m.Add(Assign("dec_kind_o", "!st_ok ? 2'd0 : do_switch ? 2'd2 : do_launch ? 2'd3 : 2'd1"));
  m.Add(Assign("dec_sel_o", "do_switch ? sel : do_launch ? slot : '0"));
  m.Add(Assign("dec_restore_o", "do_switch && !a_found"));
  m.Add(Assign("dec_avail_o", "st_ok ? avail : '0"));
  m.Add(Assign("q_ctx_o", "rst_ni ? ctx[q_cta_i] : '0"));
  m.Add(Assign("q_reg_o", "rst_ni ? rl[q_cta_i] : '0"));
  m.Add(Assign("q_live_o", "rst_ni ? live[q_cta_i] : '0"));
  m.Add(Assign("active_count_o", "rst_ni ? n_active : '0"));
  m.Add(Assign("pending_count_o", "rst_ni ? n_pending : '0"));
}

Ifdef Assertions() {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(CommentItem{"Invariants S1-S6 at every edge, and the contract."}));
  d.items.push_back(Decl("chk_bad_code", "", "S1: a field holds 3"));
  d.items.push_back(Decl("chk_half", "", "S2: one field 0, the other not"));
  d.items.push_back(Decl("chk_run_pcrf", "", "S3: context 2 with registers not in the ACRF"));
  d.items.push_back(Decl("chk_stray_live", "", "S4: a saved count without PCRF registers"));
  d.items.push_back(Decl("chk_rank", "1", "rank of the best candidate: 2 A, 1 B, 0 none"));
  d.items.push_back(Decl("chk_best", Msb("CtaBits"), "the best candidate"));
  d.items.push_back(Blank());
  d.items.push_back(Comb(
      "p_invariant_terms",
      {Blocking("chk_bad_code", "1'b0"), Blocking("chk_half", "1'b0"),
       Blocking("chk_run_pcrf", "1'b0"), Blocking("chk_stray_live", "1'b0"),
       Blocking("chk_rank", "2'd0"), Blocking("chk_best", "'0"),
       ForLoop("c", "NumCtas",
               {IfThen("(ctx[c] == 2'd3) || (rl[c] == 2'd3)", {Blocking("chk_bad_code", "1'b1")}),
                IfThen("(ctx[c] == 2'd0) != (rl[c] == 2'd0)", {Blocking("chk_half", "1'b1")}),
                IfThen("(ctx[c] == 2'd2) && (rl[c] != 2'd2)", {Blocking("chk_run_pcrf", "1'b1")}),
                IfThen("(rl[c] != 2'd1) && (live[c] != '0)", {Blocking("chk_stray_live", "1'b1")}),
                IfThen("ready_i[c] && (ctx[c] == 2'd1) && (rl[c] == 2'd2) && (chk_rank != 2'd2)",
                       {Blocking("chk_rank", "2'd2"), Blocking("chk_best", "CtaBits'(c)")}),
                IfThen("ready_i[c] && (ctx[c] == 2'd1) && (rl[c] == 2'd1) && (chk_rank == 2'd0)",
                       {Blocking("chk_rank", "2'd1"), Blocking("chk_best", "CtaBits'(c)")})})}));
  d.items.push_back(Blank());
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_invariants", {}};
  a.body.push_back(IfThen(
      "rst_ni",
      {Assert("!chk_bad_code", {Quote("%m: S1 violated: a status field holds 3")}),
       Assert("!chk_half",
              {Quote("%m: S2 violated: one field says not launched, the other launched")}),
       Assert("!chk_run_pcrf",
              {Quote("%m: S3 violated: a context in the pipeline without its registers in the "
                     "ACRF")}),
       Assert("!chk_stray_live",
              {Quote("%m: S4 violated: a saved live count without registers in the PCRF")}),
       Assert("!dec_kind_o[1] || (32'(stall_live_i) <= 32'(free_i) + (dec_restore_o ? "
              "32'(live[dec_sel_o]) : 32'd0))",
              {Quote("%m: S5 violated: decision %0d with %0d live registers, %0d free"),
               "dec_kind_o", "stall_live_i", "free_i"}),
       Assert("(dec_kind_o != 2'd2) || ((chk_rank != 2'd0) && (dec_sel_o == chk_best) && "
              "(dec_restore_o == (chk_rank == 2'd1)))",
              {Quote("%m: S6 violated: switch to CTA %0d, first candidate %0d (rank %0d)"),
               "dec_sel_o", "chk_best", "chk_rank"}),
       Assert("(dec_kind_o != 2'd3) || ((chk_rank == 2'd0) && (ctx[dec_sel_o] == 2'd0))",
              {Quote("%m: S6 violated: launch into slot %0d with candidate rank %0d"), "dec_sel_o",
               "chk_rank"}),
       Assert("!set_valid_i || ((set_ctx_i == 2'd0) == (set_reg_i == 2'd0) && (set_ctx_i != "
              "2'd3) && (set_reg_i != 2'd3) && !((set_ctx_i == 2'd2) && (set_reg_i != 2'd2)))",
              {Quote("%m: contract violated: set port writes context %0d registers %0d"),
               "set_ctx_i", "set_reg_i"}),
       Assert("!set_valid_i || 32'(set_cta_i) < NumCtas",
              {Quote("%m: contract violated: set CTA %0d >= NumCtas"), "set_cta_i"}),
       Assert("!stall_valid_i || 32'(stall_cta_i) < NumCtas",
              {Quote("%m: contract violated: stall CTA %0d >= NumCtas"), "stall_cta_i"})}));
  d.items.push_back(MakeItem(std::move(a)));
  return d;
}

}  // namespace

GeneratedStructure EmitCtaStatusMonitor(const CtaStatusMonitorSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  g.derived = {
      {"field_bits_per_cta", 2},
      {"context_field_bits", 2 * s.ctas},
      {"register_field_bits", 2 * s.ctas},
      {"live_count_bits", static_cast<long long>(s.ctas) * s.count_bits},
      {"count_bits", s.count_bits},
      {"encoding",
       {{"context", {"not launched", "shared memory", "pipeline"}},
        {"register", {"not launched", "PCRF", "ACRF"}}}},
  };

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumCtas", Int(s.ctas), "C: resident CTA slots", false},
      {"PcrfEntries", Int(s.pcrf_entries), "E: PCRF entries", false},
      {"CtaBits", "(NumCtas > 2) ? $clog2(NumCtas) : 1", "bits per CTA slot", true},
      {"CountBits", "$clog2(PcrfEntries + 1)", "bits per free or live count", true},
      {"AvailBits", "CountBits + 1", "bits of free + freed", true},
      {"SlotBits", "$clog2(NumCtas + 1)", "bits per count of slots", true},
  };
  m.ports = CtaStatusMonitorPortTable(s).Verilog();
  AddBody(m);
  m.Blank();
  m.Add(MakeItem(Assertions()));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(AssertHeaderFile());
  g.files.push_back(top);
  g.ports = CtaStatusMonitorPortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
