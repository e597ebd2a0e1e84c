#include "gen/structures/warp_scheduler/warp_scheduler_gen.h"

#include <fmt/format.h>

#include "gen/structures/emit_util.h"
#include "gen/structures/warp_scheduler/warp_scheduler_ports.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

std::vector<std::string> ModuleDoc(const WarpSchedulerSpec& s) {
  std::vector<std::string> doc = {
      fmt::format("{}: two-level warp scheduler, NumWarps warps, NumActive active slots, {} inner",
                  s.module_name, s.greedy() ? "greedy" : "round-robin"),
      "policy.",
      "(Gebhart et al., TOCS 2012, section 3.)",
      "",
      "Each cycle, in this order:",
      "1. Issue: a slot can issue when it holds warp w with valid_i[w] && ready_i[w].",
  };
  if (s.greedy()) {
    doc.push_back(
        "   Greedy: the last issuing slot again while it holds the warp that issued last");
    doc.push_back(
        "   and can issue; otherwise the first issuable slot after it, in rotating order.");
  } else {
    doc.push_back("   Round-robin: the first issuable slot after the last issuing slot, in");
    doc.push_back("   rotating order (last+1, ..., NumActive-1, 0, ..., last).");
  }
  const std::vector<std::string> rest = {
      "2. Deschedule: an issuing warp with suspend_i[w] (strand end, long-latency dependence)",
      "   leaves its slot at this edge (deact_*), and waits for wake_i[w] unless wake_i[w] is",
      "   set in the same cycle.",
      "3. Wake: wake_i[w] clears the waiting bit of w; it has no effect on a warp not waiting.",
      "4. Activation: every slot empty at the start of the cycle is filled at this edge, in",
      "   ascending slot order, with the next ready pending warp (valid_i[w], not active, not",
      "   waiting) in round-robin order from the outer pointer, which then moves past the last",
      "   warp activated. A slot emptied this cycle is refilled from the next cycle on.",
      "While rst_ni is low nothing issues and no event is signalled. Warp and slot fields of an",
      "event that is not valid are zero; so is the warp field of an empty slot.",
      "Invariants (checked with GPURF_ASSERTIONS defined): I1 at most NumActive active warps,",
      "each held by exactly one slot; I2 a suspended warp never issues (and holds no slot); I3",
      "no ready pending warp waits while an active slot is free.",
  };
  doc.insert(doc.end(), rest.begin(), rest.end());
  return doc;
}

// The body that records slot `s` as this cycle's issue.
Body PickSlot() {
  return {Blocking("issue_valid", "1'b1"), Blocking("issue_slot", Cast("SlotWidth", "s")),
          Blocking("issue_warp", Index("slot_warp_q", "s")),
          Blocking("issue_suspend", Index("slot_suspend", "s"))};
}

Always SlotLookup() {
  Always a;
  a.kind = AlwaysKind::kComb;
  a.body = {ForLoop(
      "s", "NumActive",
      {Blocking(Index("slot_issuable", "s"), "1'b0"), Blocking(Index("slot_suspend", "s"), "1'b0"),
       ForLoop("w", "NumWarps",
               {IfThen(Eq(Index("slot_warp_q", "s"), Cast("WarpIdWidth", "w")),
                       {Blocking(Index("slot_issuable", "s"),
                                 And({Index("slot_valid_q", "s"), "valid_i[w]", "ready_i[w]"})),
                        Blocking(Index("slot_suspend", "s"), "suspend_i[w]")})})})};
  return a;
}

Always IssueSelect(const WarpSchedulerSpec& spec) {
  Always a;
  a.kind = AlwaysKind::kComb;
  a.body = {Blocking("issue_valid", "1'b0"), Blocking("issue_slot", "'0"),
            Blocking("issue_warp", "'0"), Blocking("issue_suspend", "1'b0")};
  if (spec.greedy()) {
    a.body.push_back(Note("Greedy: stay with the warp that issued last while it can issue."));
    a.body.push_back(ForLoop(
        "s", "NumActive",
        {IfThen(And({"hold_q", Eq("last_q", Cast("SlotWidth", "s")), Index("slot_issuable", "s")}),
                PickSlot())}));
  }
  a.body.push_back(
      Note(spec.greedy()
               ? "Otherwise rotating priority: the slots after the last issuing one, then the rest."
               : "Rotating priority: the slots after the last issuing one, then the rest."));
  a.body.push_back(
      ForLoop("s", "NumActive",
              {IfThen(And({"!issue_valid", BinOp(Cast("SlotWidth", "s"), ">", "last_q"),
                           Index("slot_issuable", "s")}),
                      PickSlot())}));
  a.body.push_back(
      ForLoop("s", "NumActive",
              {IfThen(And({"!issue_valid", BinOp(Cast("SlotWidth", "s"), "<=", "last_q"),
                           Index("slot_issuable", "s")}),
                      PickSlot())}));
  return a;
}

// One pass of the outer round-robin search for slot s over warps on one side of the pointer.
Stmt ActivationPass(const std::string& side) {
  return ForLoop("w", "NumWarps",
                 {IfThen(And({"!act_valid[s]", "pending_left[w]",
                              BinOp(Cast("WarpIdWidth", "w"), side, "outer_q")}),
                         {Blocking(Index("act_valid", "s"), "1'b1"),
                          Blocking(Index("act_warp", "s"), Cast("WarpIdWidth", "w")),
                          Blocking(Index("pending_left", "w"), "1'b0"),
                          Blocking("outer_d", "(w == NumWarps - 1) ? '0 : WarpIdWidth'(w + 1)")})});
}

Always Activation() {
  Always a;
  a.kind = AlwaysKind::kComb;
  a.body = {
      Blocking("pending_left", "pending_ready"),
      Blocking("act_valid", "'0"),
      Blocking("outer_d", "outer_q"),
      ForLoop("s", "NumActive",
              {Blocking(Index("act_warp", "s"), "'0"),
               IfThen("!slot_valid_q[s]",
                      {Note("From the pointer to the last warp, then from warp 0 to the pointer."),
                       ActivationPass(">="), ActivationPass("<")})}),
  };
  return a;
}

Always StateUpdate(const WarpSchedulerSpec& spec) {
  Body reset = {
      NonBlocking("slot_valid_q", "'0"),
      ForLoop("s", "NumActive", {NonBlocking(Index("slot_warp_q", "s"), "'0")}),
      NonBlocking("active_q", "'0"),
      NonBlocking("waiting_q", "'0"),
      NonBlocking("last_q", Cast("SlotWidth", "NumActive - 1")),
      NonBlocking("outer_q", "'0"),
  };
  if (spec.greedy())
    reset.push_back(NonBlocking("hold_q", "1'b0"));
  Body issue = {NonBlocking("last_q", "issue_slot")};
  if (spec.greedy())
    issue.push_back(NonBlocking("hold_q", "!deact_valid"));
  Body run = {
      Note("Slots: the descheduled one empties, empty ones take their activated warp."),
      ForLoop("s", "NumActive",
              {IfThen(And({"deact_valid", Eq("issue_slot", Cast("SlotWidth", "s"))}),
                      {NonBlocking(Index("slot_valid_q", "s"), "1'b0"),
                       NonBlocking(Index("slot_warp_q", "s"), "'0")},
                      {IfThen(Index("act_valid", "s"),
                              {NonBlocking(Index("slot_valid_q", "s"), "1'b1"),
                               NonBlocking(Index("slot_warp_q", "s"), Index("act_warp", "s"))})})}),
      Note("Warps: a descheduled warp waits unless woken in the same cycle."),
      ForLoop("w", "NumWarps",
              {IfThen(And({"deact_valid", Eq("issue_warp", Cast("WarpIdWidth", "w"))}),
                      {NonBlocking(Index("active_q", "w"), "1'b0"),
                       NonBlocking(Index("waiting_q", "w"), "!wake_i[w]")},
                      {IfThen("act_mask[w]", {NonBlocking(Index("active_q", "w"), "1'b1")}),
                       IfThen("wake_i[w]", {NonBlocking(Index("waiting_q", "w"), "1'b0")})})}),
      IfThen("issue_valid", issue),
      NonBlocking("outer_q", "outer_d"),
  };
  return Always{
      AlwaysKind::kFF, "posedge clk_i or negedge rst_ni", "", {IfThen("!rst_ni", reset, run)}};
}

Ifdef Assertions() {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(
      MakeItem(CommentItem{"Parameter checks at elaboration; invariants I1-I3 at every edge."}));
  Initial init{"p_param_check", {}};
  init.body.push_back(
      Assert("NumWarps >= 1 && NumWarps <= 64", {Quote("%m: NumWarps must be in 1..64")}));
  init.body.push_back(Assert("NumActive >= 1 && NumActive <= NumWarps",
                             {Quote("%m: NumActive must be in 1..NumWarps")}));
  d.items.push_back(MakeItem(std::move(init)));
  d.items.push_back(MakeItem(BlankLine{}));
  d.items.push_back(MakeItem(Net{"chk_active_count", "7", "", "warps with the active bit", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_holders", "7", "", "slots holding warp w (loop temporary)", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_active_mismatch", "", "", "active bits differ from the slots' warps", ""}));
  d.items.push_back(MakeItem(Net{"chk_issue_waiting", "", "", "a waiting warp issues", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_slot_left_empty", "", "", "an empty slot stays empty at this edge", ""}));
  d.items.push_back(MakeItem(Net{"chk_ready_left_pending", "", "",
                                 "a ready pending warp stays pending at this edge", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_activated", "", "", "warp w is activated (loop temporary)", ""}));
  d.items.push_back(MakeItem(BlankLine{}));
  Always terms;
  terms.kind = AlwaysKind::kComb;
  const std::string warp_in_slot =
      And({Index("slot_valid_q", "s"), Eq(Index("slot_warp_q", "s"), Cast("WarpIdWidth", "w"))});
  const std::string act_of_warp =
      And({Index("act_valid_o", "s"),
           Eq(PartSelect("act_warp_o", "s*WarpIdWidth", "WarpIdWidth"), Cast("WarpIdWidth", "w"))});
  terms.body = {
      Blocking("chk_active_count", "'0"),
      Blocking("chk_holders", "'0"),
      Blocking("chk_active_mismatch", "1'b0"),
      Blocking("chk_issue_waiting", "1'b0"),
      Blocking("chk_ready_left_pending", "1'b0"),
      Blocking("chk_activated", "1'b0"),
      Blocking("chk_slot_left_empty", "|(~slot_valid_q & ~act_valid_o)"),
      ForLoop("s", "NumActive",
              {IfThen(And({Index("slot_valid_q", "s"),
                           BinOp(Cast("32", Index("slot_warp_q", "s")), ">=", "NumWarps")}),
                      {Blocking("chk_active_mismatch", "1'b1")})}),
      ForLoop("w", "NumWarps",
              {Blocking("chk_active_count", "chk_active_count + 8'(active_q[w])"),
               Blocking("chk_holders", "'0"), Blocking("chk_activated", "1'b0"),
               ForLoop("s", "NumActive",
                       {IfThen(warp_in_slot, {Blocking("chk_holders", "chk_holders + 8'd1")}),
                        IfThen(act_of_warp, {Blocking("chk_activated", "1'b1")})}),
               IfThen(BinOp("chk_holders", "!=", "8'(active_q[w])"),
                      {Blocking("chk_active_mismatch", "1'b1")}),
               IfThen(And({"issue_valid_o", Eq("issue_warp_o", Cast("WarpIdWidth", "w")),
                           "waiting_q[w]"}),
                      {Blocking("chk_issue_waiting", "1'b1")}),
               IfThen(And({"valid_i[w]", "!active_q[w]", "!waiting_q[w]", "!chk_activated"}),
                      {Blocking("chk_ready_left_pending", "1'b1")})}),
  };
  d.items.push_back(MakeItem(std::move(terms)));
  d.items.push_back(MakeItem(BlankLine{}));
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_invariants", {}};
  a.body.push_back(IfThen(
      "rst_ni",
      {Assert("chk_active_count <= 8'(NumActive)",
              {Quote("%m: I1 violated: %0d warps active, more than NumActive (%0d)"),
               "chk_active_count", "NumActive"}),
       Assert("!chk_active_mismatch",
              {Quote("%m: I1 violated: active bits differ from the slots' warps")}),
       Assert("!chk_issue_waiting",
              {Quote("%m: I2 violated: suspended warp %0d issued"), "issue_warp_o"}),
       Assert("(waiting_q & active_q) == '0",
              {Quote("%m: I2 violated: suspended warps %b hold active slots"),
               "waiting_q & active_q"}),
       Assert("!(chk_slot_left_empty && chk_ready_left_pending)",
              {Quote("%m: I3 violated: a ready pending warp waits while an active slot stays "
                     "free")})}));
  d.items.push_back(MakeItem(std::move(a)));
  return d;
}

}  // namespace

GeneratedStructure EmitWarpScheduler(const WarpSchedulerSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  g.derived = {{"warp_id_width", s.warp_id_width},
               {"slot_width", s.slot_width},
               {"pending_warps", s.warps - s.active}};

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumWarps", Int(s.warps), "W: resident warps", false},
      {"NumActive", Int(s.active), "A: active slots", false},
      {"WarpIdWidth", "(NumWarps > 1) ? $clog2(NumWarps) : 1", "bits of a warp id", true},
      {"SlotWidth", "(NumActive > 1) ? $clog2(NumActive) : 1", "bits of a slot index", true},
  };
  m.ports = WarpSchedulerPortTable(s).Verilog();

  m.Comment(
      "State: the active set as slots, per-warp bits, issue and activation pointers. The pointers\n"
      "are counters, not state machines: fsm_encoding keeps Yosys from re-encoding them (its FSM\n"
      "extraction would explode on the activation logic).");
  m.Add(MakeItem(Net{"slot_valid_q", Msb("NumActive"), "", "slot holds a warp", ""}));
  m.Add(MakeItem(
      Net{"slot_warp_q", Msb("WarpIdWidth"), "NumActive", "warp held by slot", "mem2reg"}));
  m.Add(MakeItem(Net{"active_q", Msb("NumWarps"), "", "warp holds a slot", ""}));
  m.Add(MakeItem(Net{"waiting_q", Msb("NumWarps"), "", "warp is suspended until its wake", ""}));
  m.Add(MakeItem(
      Net{"last_q", Msb("SlotWidth"), "", "slot that issued last", "fsm_encoding = \"none\""}));
  if (s.greedy()) {
    m.Add(MakeItem(Net{"hold_q", "", "", "last_q still holds the warp that issued last", ""}));
  }
  m.Add(MakeItem(Net{"outer_q", Msb("WarpIdWidth"), "", "first warp the activation search tries",
                     "fsm_encoding = \"none\""}));
  m.Blank();
  m.Comment("This cycle's decisions.");
  m.Add(MakeItem(Net{"slot_issuable", Msb("NumActive"), "", "slot's warp is valid and ready", ""}));
  m.Add(MakeItem(Net{"slot_suspend", Msb("NumActive"), "", "slot's warp has suspend_i set", ""}));
  m.Add(MakeItem(Net{"issue_valid", "", "", "some slot issues", ""}));
  m.Add(MakeItem(Net{"issue_slot", Msb("SlotWidth"), "", "the issuing slot", ""}));
  m.Add(MakeItem(Net{"issue_warp", Msb("WarpIdWidth"), "", "the issuing warp", ""}));
  m.Add(MakeItem(Net{"issue_suspend", "", "", "the issuing warp ends its strand", ""}));
  m.Add(MakeItem(Net{"deact_valid", "", "", "the issuing warp is descheduled", ""}));
  m.Add(MakeItem(Net{"pending_ready", Msb("NumWarps"), "", "pending warps ready for a slot", ""}));
  m.Add(MakeItem(Net{"pending_left", Msb("NumWarps"), "", "those not activated this cycle", ""}));
  m.Add(MakeItem(Net{"act_valid", Msb("NumActive"), "", "slot s is filled", ""}));
  m.Add(MakeItem(Net{"act_warp", Msb("WarpIdWidth"), "NumActive", "with this warp", "mem2reg"}));
  m.Add(MakeItem(Net{"act_mask", Msb("NumWarps"), "", "warps activated this cycle", ""}));
  m.Add(MakeItem(Net{"outer_d", Msb("WarpIdWidth"), "", "next outer pointer", ""}));
  m.Blank();
  m.Comment("What each slot's warp can do this cycle.");
  m.Add(MakeItem(SlotLookup()));
  m.Blank();
  m.Comment(s.greedy() ? "Inner level: greedy selection among the active slots."
                       : "Inner level: round-robin selection among the active slots.");
  m.Add(MakeItem(IssueSelect(s)));
  m.Blank();
  m.Add(MakeItem(ContinuousAssign{"deact_valid", And({"issue_valid", "issue_suspend"})}));
  m.Blank();
  m.Comment(
      "Outer level: fill every empty slot with the next ready pending warp, round-robin from\n"
      "outer_q. Nothing is activated during reset.");
  m.Add(MakeItem(
      ContinuousAssign{"pending_ready", "{NumWarps{rst_ni}} & valid_i & ~active_q & ~waiting_q"}));
  m.Add(MakeItem(Activation()));
  m.Add(MakeItem(ContinuousAssign{"act_mask", "pending_ready & ~pending_left"}));
  m.Blank();
  m.Add(MakeItem(StateUpdate(s)));
  m.Blank();
  m.Comment("Outputs.");
  m.Add(MakeItem(ContinuousAssign{"issue_valid_o", "issue_valid"}));
  m.Add(MakeItem(ContinuousAssign{"issue_warp_o", "issue_warp"}));
  m.Add(MakeItem(ContinuousAssign{"issue_slot_o", "issue_slot"}));
  m.Add(MakeItem(ContinuousAssign{"deact_valid_o", "deact_valid"}));
  m.Add(MakeItem(ContinuousAssign{"deact_warp_o", "deact_valid ? issue_warp : '0"}));
  m.Add(MakeItem(ContinuousAssign{"deact_slot_o", "deact_valid ? issue_slot : '0"}));
  m.Add(MakeItem(ContinuousAssign{"act_valid_o", "act_valid"}));
  m.Add(MakeItem(ContinuousAssign{"slot_valid_o", "slot_valid_q"}));
  m.Add(MakeItem(ContinuousAssign{"active_o", "active_q"}));
  m.Add(MakeItem(ContinuousAssign{"waiting_o", "waiting_q"}));
  GenerateFor pack{"gen_slot_outputs", "s", "NumActive", {}};
  pack.items.push_back(MakeItem(ContinuousAssign{
      PartSelect("act_warp_o", "s*WarpIdWidth", "WarpIdWidth"), Index("act_warp", "s")}));
  pack.items.push_back(MakeItem(ContinuousAssign{
      PartSelect("slot_warp_o", "s*WarpIdWidth", "WarpIdWidth"), Index("slot_warp_q", "s")}));
  m.Add(MakeItem(std::move(pack)));
  m.Blank();
  m.Add(MakeItem(Assertions()));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(AssertHeaderFile());
  g.files.push_back(top);

  g.ports = WarpSchedulerPortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
