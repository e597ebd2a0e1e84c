#include "gen/structures/cta_throttle/cta_throttle_gen.h"

#include <fmt/format.h>

#include "gen/structures/cta_throttle/cta_throttle_ports.h"
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

std::vector<std::string> ModuleDoc(const CtaThrottleSpec& s) {
  return {
      fmt::format("{}: CTA register balance counters and issue throttle (Jeon et", s.module_name),
      fmt::format("al., MICRO 2015, section 8.1): {} CTA slots, {} banks x {} physical registers,",
                  s.slots, s.banks, s.regs_per_bank),
      fmt::format("{} allocation ports (one warp's group), {} release ports.", s.alloc_ports,
                  s.release_ports),
      "",
      "Per slot i and bank b: C (the CTA's worst case, set at launch) and k (registers it holds).",
      "Balance counter Cnt_i = sum_b (C - k). Throttle: more than one CTA alive and the free",
      "registers below every alive CTA's counter; then only the reserved CTA issues. A group of",
      "the reserved CTA is granted when every bank has room (always in spill mode); another CTA's",
      "group only if every bank keeps the reserved CTA's remaining worst case free. spill_o: the",
      "registers the harness spills in the grant's cycle. The reservation moves, on a launch or",
      "exit, to the alive CTA with the minimum counter if every bank can serve its worst case.",
      "Invariants (checked with GPURF_ASSERTIONS defined): T1 a throttled CTA never issues; T2",
      "0 <= k <= min(C, P), a free slot holds nothing; T3 free + sum of k = P per bank; T4 a CTA",
      "is reserved exactly when one is alive, and it is alive; T5 no grant eats the reserved",
      "CTA's worst case; C1 the port contract.",
  };
}

// The sum of the releases of `who` (a condition on port p) in this cycle.
Body CountReleases(const std::string& var, const std::string& width, const std::string& who) {
  return {
      Blocking(var, "'0"),
      ForLoop("p", "NumRelPorts",
              {IfThen("rel_valid_i[p] && " + who, {Blocking(var, var + " + " + width + "'(1)")})})};
}

void AddBody(Module& m) {
  m.Comment("Port fields.");
  m.Add(Decl("rel_slot", Msb("SlotBits"), "slot of release port p", "NumRelPorts"));
  m.Add(Decl("rel_bank", Msb("BankBits"), "bank of release port p", "NumRelPorts"));
  m.Add(Decl("alloc_bank", Msb("BankBits"), "bank of allocation port a", "NumAllocPorts"));
  m.Comment("State, per slot and per (slot, bank) cell c = slot*NumBanks + bank, and per bank.");
  m.Add(Decl("alive", Msb("NumSlots"), "slot holds a resident CTA"));
  m.Add(Decl("need", Msb("NeedBits"), "C: the CTA's worst case in the bank", "NumCells"));
  m.Add(Decl("held", Msb("CountBits"), "k: registers of the bank the CTA holds", "NumCells"));
  m.Add(Decl("free_n", Msb("CountBits"), "F: free registers of the bank", "NumBanks"));
  m.Add(Decl("res_valid_q", "", "a CTA is reserved"));
  m.Add(Decl("res_q", Msb("SlotBits"), "the reserved CTA"));
  m.Add(Decl("spill_mode_q", "", "some launched CTA needs more than a bank has (sticky)"));
  m.Comment("Throttle (from the state).");
  m.Add(Decl("counter", Msb("SumBits"), "balance counter Cnt_i = sum_b (C - k)", "NumSlots"));
  m.Add(Decl("free_total", Msb("SumBits"), "free registers of the SM"));
  m.Add(Decl("min_counter", Msb("SumBits"), "the minimum counter of the alive CTAs"));
  m.Add(Decl("any_alive", "", "some CTA alive"));
  m.Add(Decl("several", "", "more than one CTA alive"));
  m.Add(Decl("throttle", "", "free registers below every alive CTA's counter"));
  m.Comment("Allocation group.");
  m.Add(Decl("n_alloc", Msb("SpillBits"), "registers the group maps in the bank", "NumBanks"));
  m.Add(
      Decl("keep", Msb("CountBits"), "the reserved CTA's remaining worst case (<= P)", "NumBanks"));
  m.Add(Decl("bank_ok", Msb("NumBanks"), "the bank can take the group's registers"));
  m.Add(Decl("is_res", "", "the group is the reserved CTA's"));
  m.Add(Decl("grant", "", "the group is granted"));
  m.Comment("The state after the edge (the reservation is updated on it).");
  m.Add(Decl("alive_d", Msb("NumSlots"), "slots alive after the edge"));
  m.Add(Decl("need_d", Msb("NeedBits"), "C after the edge", "NumCells"));
  m.Add(Decl("held_d", Msb("CountBits"), "k after the edge", "NumCells"));
  m.Add(Decl("free_d", Msb("CountBits"), "F after the edge", "NumBanks"));
  m.Add(Decl("counter_d", Msb("SumBits"), "balance counter after the edge", "NumSlots"));
  m.Add(Decl("serves_d", Msb("NumSlots"), "every bank can serve the CTA's worst case"));
  m.Add(Decl("best_found", "", "some slot is alive after the edge"));
  m.Add(Decl("best", Msb("SlotBits"), "the alive slot with the minimum counter after the edge"));
  m.Add(Decl("res_valid_d", "", "reservation after the edge"));
  m.Add(Decl("res_d", Msb("SlotBits"), "reserved CTA after the edge"));
  m.Blank();

  GenerateFor rel{"gen_rel_ports", "g", "NumRelPorts", {}};
  rel.items.push_back(Assign("rel_slot[g]", "rel_slot_i[g*SlotBits +: SlotBits]"));
  rel.items.push_back(Assign("rel_bank[g]", "rel_bank_i[g*BankBits +: BankBits]"));
  m.Add(MakeItem(std::move(rel)));
  GenerateFor alloc{"gen_alloc_ports", "g", "NumAllocPorts", {}};
  alloc.items.push_back(Assign("alloc_bank[g]", "alloc_bank_i[g*BankBits +: BankBits]"));
  m.Add(MakeItem(std::move(alloc)));
  m.Blank();

  m.Comment("Balance counters and the throttle condition (the paper's, SM-wide).");
  m.Add(Comb(
      "p_throttle",
      {Blocking("free_total", "'0"),
       ForLoop("b", "NumBanks", {Blocking("free_total", "free_total + SumBits'(free_n[b])")}),
       Blocking("min_counter", "'1"), Blocking("any_alive", "1'b0"), Blocking("several", "1'b0"),
       ForLoop("i", "NumSlots",
               {Blocking("counter[i]", "'0"),
                ForLoop("b", "NumBanks",
                        {Blocking("counter[i]",
                                  "counter[i] + SumBits'(need[i*NumBanks + b]) - "
                                  "SumBits'(held[i*NumBanks + b])")}),
                IfThen("alive[i]", {IfThen("any_alive", {Blocking("several", "1'b1")}),
                                    IfThen("!any_alive || counter[i] < min_counter",
                                           {Blocking("min_counter", "counter[i]")}),
                                    Blocking("any_alive", "1'b1")})}),
       Blocking("throttle", "several && free_total < min_counter")}));
  m.Blank();

  m.Comment(
      "Allocation: the reserved CTA's group needs room in every bank (none in spill mode);\n"
      "another CTA's group must leave the reserved CTA's remaining worst case free.");
  m.Add(Assign("is_res", "res_valid_q && alloc_slot_i == res_q"));
  GenerateFor bank{"gen_banks", "b", "NumBanks", {}};
  bank.items.push_back(Decl("free_q", Msb("CountBits"), "free registers"));
  bank.items.push_back(Decl("rel_n", Msb("RelBits"), "releases into the bank this cycle"));
  bank.items.push_back(Decl("res_need", "NeedBits", "C - k of the reserved CTA"));
  bank.items.push_back(Decl("n_here", Msb("SpillBits"), "registers the group maps here"));
  bank.items.push_back(Blank());
  bank.items.push_back(
      Comb("p_group", {Blocking("n_here", "'0"),
                       ForLoop("a", "NumAllocPorts",
                               {IfThen("alloc_valid_i[a] && 32'(alloc_bank[a]) == b",
                                       {Blocking("n_here", "n_here + SpillBits'(1)")})})}));
  bank.items.push_back(Assign("n_alloc[b]", "n_here"));
  bank.items.push_back(Assign("res_need",
                              "(NeedBits+1)'(need[32'(res_q)*NumBanks + b]) - "
                              "(NeedBits+1)'(held[32'(res_q)*NumBanks + b])"));
  bank.items.push_back(
      Assign("keep[b]",
             "!res_valid_q ? '0 : 32'(res_need) > RegsPerBank ? CountBits'(RegsPerBank) : "
             "CountBits'(res_need)"));
  bank.items.push_back(Assign("bank_ok[b]",
                              "is_res ? (spill_mode_q || 32'(free_q) >= 32'(n_alloc[b]))\n"
                              "       : 32'(free_q) >= 32'(n_alloc[b]) + 32'(keep[b])"));
  bank.items.push_back(
      Comb("p_releases", CountReleases("rel_n", "RelBits", "32'(rel_bank[p]) == b")));
  bank.items.push_back(
      Assign("free_d[b]", "free_q + CountBits'(rel_n) - (grant ? CountBits'(n_alloc[b]) : '0)"));
  bank.items.push_back(Ff("", {NonBlocking("free_q", "CountBits'(RegsPerBank)")},
                          {NonBlocking("free_q", "free_d[b]")}));
  bank.items.push_back(Assign("free_n[b]", "free_q"));
  bank.items.push_back(Assign(PartSelect("spill_o", "b*SpillBits", "SpillBits"),
                              "(grant && 32'(n_alloc[b]) > 32'(free_q)) ? "
                              "n_alloc[b] - SpillBits'(free_q) : '0"));
  bank.items.push_back(Assign(PartSelect("free_count_o", "b*CountBits", "CountBits"),
                              "rst_ni ? free_q : CountBits'(RegsPerBank)"));
  m.Add(MakeItem(std::move(bank)));
  m.Add(Assign("grant", "rst_ni && (|alloc_valid_i) && (&bank_ok)"));
  m.Blank();

  m.Comment("Per cell: C is set at launch and cleared at exit; k moves with grants and releases.");
  GenerateFor cell{"gen_cells", "c", "NumCells", {}};
  cell.items.push_back(Decl("need_q", Msb("NeedBits"), "C"));
  cell.items.push_back(Decl("held_q", Msb("CountBits"), "k"));
  cell.items.push_back(Decl("rel_n", Msb("RelBits"), "releases of the cell this cycle"));
  cell.items.push_back(Blank());
  cell.items.push_back(Comb("p_releases", CountReleases("rel_n", "RelBits",
                                                        "32'(rel_slot[p]) == c / NumBanks && "
                                                        "32'(rel_bank[p]) == c % NumBanks")));
  cell.items.push_back(Assign("held_d[c]",
                              "held_q - CountBits'(rel_n) +\n"
                              "    ((grant && 32'(alloc_slot_i) == c / NumBanks) ? "
                              "CountBits'(n_alloc[c % NumBanks]) : '0)"));
  cell.items.push_back(
      Assign("need_d[c]",
             "(launch_valid_i && 32'(launch_slot_i) == c / NumBanks) ?\n"
             "    launch_need_i[(c % NumBanks)*NeedBits +: NeedBits] :\n"
             "    (exit_valid_i && 32'(exit_slot_i) == c / NumBanks) ? '0 : need_q"));
  cell.items.push_back(
      Ff("", {NonBlocking("need_q", "'0"), NonBlocking("held_q", "'0")},
         {NonBlocking("need_q", "need_d[c]"), NonBlocking("held_q", "held_d[c]")}));
  cell.items.push_back(Assign("need[c]", "need_q"));
  cell.items.push_back(Assign("held[c]", "held_q"));
  m.Add(MakeItem(std::move(cell)));
  m.Blank();

  m.Comment("Per slot: alive, its counter after the edge, and whether every bank serves it.");
  GenerateFor slot{"gen_slots", "i", "NumSlots", {}};
  slot.items.push_back(Decl("alive_q", "", "a resident CTA"));
  slot.items.push_back(Decl("cnt_next", Msb("SumBits"), "its counter after the edge"));
  slot.items.push_back(Decl("serves", "", "every bank can serve its worst case after the edge"));
  slot.items.push_back(Blank());
  slot.items.push_back(Assign("alive_d[i]",
                              "(launch_valid_i && 32'(launch_slot_i) == i) ||\n"
                              "    (alive_q && !(exit_valid_i && 32'(exit_slot_i) == i))"));
  slot.items.push_back(
      Ff("", {NonBlocking("alive_q", "1'b0")}, {NonBlocking("alive_q", "alive_d[i]")}));
  slot.items.push_back(Assign("alive[i]", "alive_q"));
  slot.items.push_back(Comb(
      "p_next_counter", {Blocking("cnt_next", "'0"), Blocking("serves", "1'b1"),
                         ForLoop("b", "NumBanks",
                                 {Blocking("cnt_next",
                                           "cnt_next + SumBits'(need_d[i*NumBanks + b]) - "
                                           "SumBits'(held_d[i*NumBanks + b])"),
                                  IfThen("SumBits'(free_d[b]) + SumBits'(held_d[i*NumBanks + b]) < "
                                         "SumBits'(need_d[i*NumBanks + b])",
                                         {Blocking("serves", "1'b0")})})}));
  slot.items.push_back(Assign("counter_d[i]", "cnt_next"));
  slot.items.push_back(Assign("serves_d[i]", "serves"));
  slot.items.push_back(
      Assign(Index("issue_ok_o", "i"),
             "rst_ni && alive_q && (!throttle || (res_valid_q && 32'(res_q) == i))"));
  m.Add(MakeItem(std::move(slot)));
  m.Blank();

  m.Comment(
      "Reservation, on a launch or exit: a launch with none reserved reserves the launched CTA;\n"
      "an exit of the reserved CTA reserves the minimum counter; then the minimum counter\n"
      "replaces the reserved CTA if every bank can serve its worst case.");
  m.Add(Comb(
      "p_best",
      {Blocking("best_found", "1'b0"), Blocking("best", "'0"),
       ForLoop("i", "NumSlots",
               {IfThen("alive_d[i] && (!best_found || counter_d[i] < "
                       "counter_d[best])",
                       {Blocking("best_found", "1'b1"), Blocking("best", "SlotBits'(i)")})})}));
  m.Add(Comb("p_reserve",
             {Blocking("res_valid_d", "res_valid_q"), Blocking("res_d", "res_q"),
              IfThen("launch_valid_i && !res_valid_q",
                     {Blocking("res_valid_d", "1'b1"), Blocking("res_d", "launch_slot_i")}),
              IfThen("exit_valid_i && res_valid_q && exit_slot_i == res_q",
                     {Blocking("res_valid_d", "best_found"), Blocking("res_d", "best")}),
              IfThen("(launch_valid_i || exit_valid_i) && best_found && best != res_d && "
                     "serves_d[best]",
                     {Blocking("res_valid_d", "1'b1"), Blocking("res_d", "best")})}));
  m.Add(Ff("p_state",
           {NonBlocking("res_valid_q", "1'b0"), NonBlocking("res_q", "'0"),
            NonBlocking("spill_mode_q", "1'b0")},
           {NonBlocking("res_valid_q", "res_valid_d"), NonBlocking("res_q", "res_d"),
            IfThen("launch_valid_i", {ForLoop("b", "NumBanks",
                                              {IfThen("32'(launch_need_i[b*NeedBits +: "
                                                      "NeedBits]) > RegsPerBank",
                                                      {NonBlocking("spill_mode_q", "1'b1")})})})}));
  m.Blank();
  m.Comment("Outputs: zero while rst_ni is low (free counts: every register free).");
  m.Add(Assign("alloc_grant_o", "grant"));
  m.Add(Assign("throttle_o", "rst_ni && throttle"));
  m.Add(Assign("reserved_valid_o", "rst_ni && res_valid_q"));
  m.Add(Assign("reserved_o", "(rst_ni && res_valid_q) ? res_q : '0"));
  m.Add(Assign("spill_mode_o", "rst_ni && spill_mode_q"));
}

Ifdef Assertions() {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(CommentItem{"Invariants T1-T5 at every edge, and the contract C1."}));
  d.items.push_back(Decl("chk_t1", "", "T1: a CTA other than the reserved one may issue"));
  d.items.push_back(Decl("chk_t2", "", "T2: a counter out of range"));
  d.items.push_back(Decl("chk_t3", "", "T3: free + held differs from RegsPerBank"));
  d.items.push_back(Decl("chk_t5", "", "T5: a grant eats the reserved CTA's worst case"));
  d.items.push_back(Decl("chk_c1", "", "C1: a port broke the contract"));
  d.items.push_back(Decl("chk_sum", "31", "a bank's free + held count"));
  d.items.push_back(Decl("chk_rel", "31", "releases of one cell"));
  d.items.push_back(Blank());
  Body terms = {
      Blocking("chk_t1", "1'b0"),
      Blocking("chk_t2", "1'b0"),
      Blocking("chk_t3", "1'b0"),
      Blocking("chk_t5", "1'b0"),
      Blocking("chk_c1", "1'b0"),
      ForLoop("i", "NumSlots",
              {IfThen("throttle_o && issue_ok_o[i] && !(res_valid_q && 32'(res_q) == i)",
                      {Blocking("chk_t1", "1'b1")})}),
      ForLoop("c", "NumCells",
              {IfThen("alive[c / NumBanks] ? (32'(held[c]) > 32'(need[c]) || 32'(held[c]) > "
                      "RegsPerBank) : (held[c] != '0 || need[c] != '0)",
                      {Blocking("chk_t2", "1'b1")}),
               Note("C1: a release names a register the slot holds; an allocation stays within C."),
               Blocking("chk_rel", "'0"),
               ForLoop("p", "NumRelPorts",
                       {IfThen("rel_valid_i[p] && 32'(rel_slot[p]) == c / NumBanks && "
                               "32'(rel_bank[p]) == c % NumBanks",
                               {Blocking("chk_rel", "chk_rel + 32'd1")})}),
               IfThen("chk_rel > 32'(held[c])", {Blocking("chk_c1", "1'b1")}),
               IfThen("grant && 32'(alloc_slot_i) == c / NumBanks && "
                      "32'(held[c]) + 32'(n_alloc[c % NumBanks]) > 32'(need[c])",
                      {Blocking("chk_c1", "1'b1")})}),
      ForLoop(
          "b", "NumBanks",
          {Blocking("chk_sum", "32'(free_n[b])"),
           ForLoop("i", "NumSlots", {Blocking("chk_sum", "chk_sum + 32'(held[i*NumBanks + b])")}),
           IfThen("chk_sum != RegsPerBank", {Blocking("chk_t3", "1'b1")}),
           IfThen("grant && !is_res && 32'(free_n[b]) < 32'(n_alloc[b]) + 32'(keep[b])",
                  {Blocking("chk_t5", "1'b1")}),
           Note("C1: spills are released in the grant's cycle (the count never goes below 0)."),
           Blocking("chk_rel", "'0"),
           ForLoop("p", "NumRelPorts",
                   {IfThen("rel_valid_i[p] && 32'(rel_bank[p]) == b",
                           {Blocking("chk_rel", "chk_rel + 32'd1")})}),
           IfThen("grant && 32'(free_n[b]) + chk_rel < 32'(n_alloc[b])",
                  {Blocking("chk_c1", "1'b1")})}),
      ForLoop("p", "NumRelPorts",
              {IfThen("rel_valid_i[p] && (32'(rel_slot[p]) >= NumSlots || 32'(rel_bank[p]) >= "
                      "NumBanks)",
                      {Blocking("chk_c1", "1'b1")})}),
      ForLoop("a", "NumAllocPorts",
              {IfThen("alloc_valid_i[a] && 32'(alloc_bank[a]) >= NumBanks",
                      {Blocking("chk_c1", "1'b1")})}),
      IfThen("(|alloc_valid_i) && (32'(alloc_slot_i) >= NumSlots || !alive[alloc_slot_i])",
             {Blocking("chk_c1", "1'b1")}),
      IfThen("launch_valid_i && (exit_valid_i || 32'(launch_slot_i) >= NumSlots || "
             "alive[launch_slot_i])",
             {Blocking("chk_c1", "1'b1")}),
      IfThen("exit_valid_i && (32'(exit_slot_i) >= NumSlots || !alive[exit_slot_i])",
             {Blocking("chk_c1", "1'b1")}),
      Note("C1: an exit leaves nothing held after the cycle's releases."),
      ForLoop("b", "NumBanks",
              {IfThen("exit_valid_i && 32'(exit_slot_i) < NumSlots && "
                      "held_d[32'(exit_slot_i)*NumBanks + b] != '0",
                      {Blocking("chk_c1", "1'b1")})}),
  };
  d.items.push_back(Comb("p_invariant_terms", std::move(terms)));
  d.items.push_back(Blank());
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_invariants", {}};
  a.body.push_back(IfThen(
      "rst_ni",
      {Assert("!chk_t1",
              {Quote("%m: T1 violated: a throttled CTA may issue (issue_ok %b, reserved %0d)"),
               "issue_ok_o", "res_q"}),
       Assert("!chk_t2", {Quote("%m: T2 violated: a balance counter out of range")}),
       Assert("!chk_t3",
              {Quote("%m: T3 violated: free count + held registers differs from RegsPerBank")}),
       Assert("res_valid_q == (|alive) && (!res_valid_q || (32'(res_q) < NumSlots && "
              "alive[res_q]))",
              {Quote("%m: T4 violated: reserved %0d (valid %0d), alive %b"), "res_q", "res_valid_q",
               "alive"}),
       Assert("!chk_t5",
              {Quote("%m: T5 violated: a grant to slot %0d eats the reserved CTA's worst case"),
               "alloc_slot_i"}),
       Assert("!chk_c1", {Quote("%m: C1 violated: a port broke the contract")})}));
  d.items.push_back(MakeItem(std::move(a)));
  return d;
}

}  // namespace

GeneratedStructure EmitCtaThrottle(const CtaThrottleSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  g.derived = {
      {"phys_regs", s.banks * s.regs_per_bank},
      {"balance_counter_bits", s.sum_bits},
      {"need_bits", s.need_bits},
      {"held_bits", s.count_bits},
      {"state_bits", s.slots * s.banks * (s.need_bits + s.count_bits) + s.slots +
                         s.banks * s.count_bits + s.slot_bits + 2},
  };

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumSlots", Int(s.slots), "N: resident CTA slots", false},
      {"NumBanks", Int(s.banks), "B: MRF banks (the balance is kept per bank)", false},
      {"RegsPerBank", Int(s.regs_per_bank), "P: physical registers per bank", false},
      {"NumAllocPorts", Int(s.alloc_ports), "A: registers one warp maps in a cycle", false},
      {"NumRelPorts", Int(s.release_ports), "R: release ports", false},
      {"SlotBits", "(NumSlots > 2) ? $clog2(NumSlots) : 1", "bits of a slot index", true},
      {"BankBits", "(NumBanks > 2) ? $clog2(NumBanks) : 1", "bits of a bank index", true},
      {"CountBits", "$clog2(RegsPerBank + 1)", "bits of a per-bank count (0..P)", true},
      {"NeedBits", "CountBits + 1", "bits of C per bank (a CTA may need more than P)", true},
      {"SumBits", "NeedBits + BankBits", "bits of a balance counter or the free total", true},
      {"SpillBits", "$clog2(NumAllocPorts + 1)", "bits of a group's count in one bank", true},
      {"RelBits", "$clog2(NumRelPorts + 1)", "bits of a count of releases", true},
      {"NumCells", "NumSlots * NumBanks", "(slot, bank) cells", true},
  };
  m.ports = CtaThrottlePortTable(s).Verilog();
  AddBody(m);
  m.Blank();
  m.Add(MakeItem(Assertions()));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(AssertHeaderFile());
  g.files.push_back(top);
  g.ports = CtaThrottlePortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
