#include "gen/structures/mrf/mrf_gen.h"

#include <fmt/format.h>

#include "gen/structures/emit_util.h"
#include "gen/structures/mrf/mrf_ports.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL
using emit::Assign;
using emit::Comb;
using emit::Decl;

bool WritePriority(const MrfSpec& s) {
  return s.wb_policy == MrfSpec::WbPolicy::kWritePriority;
}

// The register -> (bank, row) mapping in terms of the module's parameters.
std::string MappingText(const MrfSpec& s) {
  return fmt::format("bank = {} mod NumBanks, row = warp * RowsPerWarp + reg div NumBanks",
                     s.interleave == MrfSpec::Interleave::kRegister ? "reg" : "(warp + reg)");
}

std::vector<std::string> ModuleDoc(const MrfSpec& s) {
  std::vector<std::string> doc = {
      s.module_name +
          ": banked main register file, NumBanks banks x BankRows rows x Width bits, "
          "NumCollectors operand collectors, NumWarps warps x NumRegs registers "
          "(Gebhart et al., TOCS 2012, section 2.1).",
      "",
      "Banks: gpurf_sram_1r1w, one read and one write port each,",
      s.bank_impl == MrfSpec::BankImpl::kMacro
          ? "as hard macros (BankImpl = 1: black boxes for synthesis)."
          : "as flip-flop arrays (BankImpl = 0).",
      fmt::format("Interleaving ({}): {}.", s.InterleaveName(), MappingText(s)),
      "A row holds one register of one warp for the lanes of a lane cluster.",
      "",
      "Issue: issue_valid_i && issue_ready_o puts a warp instruction (tag, warp, up to three "
      "source",
      "registers, slot s at [s*RegWidth +: RegWidth]) into the lowest-numbered free collector.",
      "Read arbitration: each cycle each bank grants one read to the slot of the oldest "
      "instruction",
      "that still needs that bank (ties: slot A, B, C), so operands of one instruction in one bank",
      "are read on successive cycles and every bank does at most one read per cycle.",
      WritePriority(s)
          ? "Write-back (write-priority): always accepted; a read of the row being written waits."
          : "Write-back (read-priority): reads go first; wb_ready_o drops while the read granted "
            "on",
  };
  if (!WritePriority(s))
    doc.push_back("the write's bank is of the write's row.");
  for (const char* l : {
           "The 1R1W banks cannot read and write one row in one cycle; this arbitration ensures "
           "they",
           "never do.",
           "Dispatch: the oldest instruction whose valid operands are all buffered is presented on",
           "disp_*_o (slot s data at [s*Width +: Width]); disp_ready_i frees its collector.",
           "",
           "Timing (SRAM read latency 1 cycle): issue accepted in cycle t; its reads granted from",
           "cycle t+1 (the bank captures the row address at the end of the cycle); the read data",
           "is on the bank output in the next cycle and enters the operand buffer at its end;",
           "disp_valid_o rises the cycle after the last operand arrived: t+3 without conflicts,",
           "one more cycle for each read that waits for its bank. An accepted write-back writes",
           "its row at the end of the cycle; reads granted from the next cycle see the new value.",
           "",
           "Counters (registered, wrapping): bank reads, write-backs, conflicts (slot-cycles a "
           "slot",
           "waited for its bank), issue stalls (issue_valid_i && !issue_ready_o), write-back",
           "stalls (wb_valid_i && !wb_ready_o). Reset (rst_ni low, asynchronous) frees every",
           "collector, clears the counters and accepts nothing; the banks are not reset.",
           "With GPURF_ASSERTIONS defined, assertions report misuse (warp or register out of",
           "range) and check the arbitration invariants every cycle.",
       }) {
    doc.emplace_back(l);
  }
  return doc;
}

// Helpers that keep the builder code below close to the Verilog it produces.
Item Blank() {
  return MakeItem(BlankLine{});
}
Item Text(std::string text) {
  return MakeItem(CommentItem{std::move(text)});
}

// (warp, reg) -> bank and row, as Verilog expressions over 32-bit operands.
std::string BankExpr(const MrfSpec& s, const std::string& warp, const std::string& reg) {
  const std::string sum = s.interleave == MrfSpec::Interleave::kRegister
                              ? fmt::format("32'({})", reg)
                              : fmt::format("(32'({}) + 32'({}))", warp, reg);
  return fmt::format("BankWidth'({} % NumBanks)", sum);
}
std::string RowExpr(const std::string& warp, const std::string& reg) {
  return fmt::format("RowAddrWidth'(32'({}) * RowsPerWarp + 32'({}) / NumBanks)", warp, reg);
}

// Slot j comes before slot i in instruction order: its collector is older, or it is an earlier
// slot of the same collector (a slot never precedes itself).
const char* kSlotBeats =
    "(CollectorOf(j) == CollectorOf(i)) ? (j < i) : older_q[OlderBit(CollectorOf(j), "
    "CollectorOf(i))]";

void AddMapping(Module& m, const MrfSpec& s) {
  m.Comment(fmt::format("Register -> (bank, row), {} interleaving:\n{}.", s.InterleaveName(),
                        MappingText(s)));
  m.Add(Decl("issue_bank", Msb("BankWidth"), "bank of each source slot", "3"));
  m.Add(Decl("issue_row", Msb("RowAddrWidth"), "row of each source slot", "3"));
  m.Add(Decl("wb_bank", Msb("BankWidth"), "bank of the write-back"));
  m.Add(Decl("wb_row", Msb("RowAddrWidth"), "row of the write-back"));
  m.Blank();
  GenerateFor g{"gen_issue_map", "s", "3", {}};
  g.items.push_back(Decl("src_reg", Msb("RegWidth"), "this slot's register"));
  g.items.push_back(Blank());
  g.items.push_back(Assign("src_reg", PartSelect("issue_src_reg_i", "s*RegWidth", "RegWidth")));
  g.items.push_back(Assign(Index("issue_bank", "s"), BankExpr(s, "issue_warp_i", "src_reg")));
  g.items.push_back(Assign(Index("issue_row", "s"), RowExpr("issue_warp_i", "src_reg")));
  m.Add(MakeItem(std::move(g)));
  m.Blank();
  m.Add(Assign("wb_bank", BankExpr(s, "wb_warp_i", "wb_reg_i")));
  m.Add(Assign("wb_row", RowExpr("wb_warp_i", "wb_reg_i")));
}

void AddIndexFunctions(Module& m) {
  m.Comment("Index functions of the flat slot and order vectors.");
  m.Add(MakeItem(Function{"SlotOf",
                          {"collector", "operand"},
                          "3 * collector + operand",
                          "Slot of source operand `operand` (0..2: A, B, C) of a collector."}));
  m.Add(MakeItem(Function{"CollectorOf", {"slot"}, "slot / 3", "Collector of a slot."}));
  m.Add(MakeItem(Function{"OperandOf", {"slot"}, "slot % 3", "Source operand of a slot."}));
  m.Add(MakeItem(Function{"OlderBit",
                          {"j", "k"},
                          "j * NumCollectors + k",
                          "Bit of older_q/older_d: collector j was issued before collector k."}));
  m.Add(MakeItem(Function{
      "PrecedeBit", {"j", "i"}, "j * NumSlots + i", "Bit of precede: slot j precedes slot i."}));
}

void AddDeclarations(Module& m) {
  AddIndexFunctions(m);
  m.Blank();
  m.Comment(
      "Collector state. Slot i = SlotOf(k, s) is source operand s (A, B, C) of collector k; a\n"
      "valid slot goes need -> inflight (read granted, data on the bank output next cycle) ->\n"
      "have. Arrays of registers and wires, not RAMs: mem2reg tells Yosys so.");
  m.Add(Decl("busy_q", Msb("NumCollectors"), "collector holds an instruction"));
  m.Add(Decl("busy_d", Msb("NumCollectors"), ""));
  m.Add(Decl("older_q", "NumCollectors*NumCollectors-1",
             "bit OlderBit(j, k): collector j was issued before k"));
  m.Add(Decl("older_d", "NumCollectors*NumCollectors-1", ""));
  m.Add(Decl("src_valid_q", Msb("NumSlots"), "slot has a source operand"));
  m.Add(Decl("src_valid_d", Msb("NumSlots"), ""));
  m.Add(Decl("need_q", Msb("NumSlots"), "slot waits for its bank read"));
  m.Add(Decl("need_d", Msb("NumSlots"), ""));
  m.Add(Decl("inflight_q", Msb("NumSlots"), "slot's read was granted last cycle"));
  m.Add(Decl("inflight_d", Msb("NumSlots"), ""));
  m.Add(Decl("have_q", Msb("NumSlots"), "slot's operand is in its buffer"));
  m.Add(Decl("have_d", Msb("NumSlots"), ""));
  m.Add(Decl("tag_q", Msb("TagWidth"), "instruction tag", "NumCollectors"));
  m.Add(Decl("warp_q", Msb("WarpWidth"), "instruction warp", "NumCollectors"));
  m.Add(Decl("slot_bank_q", Msb("BankWidth"), "bank of the slot's register", "NumSlots"));
  m.Add(Decl("slot_row_q", Msb("RowAddrWidth"), "row of the slot's register", "NumSlots"));
  m.Add(Decl("operand_q", Msb("Width"), "operand buffer", "NumSlots"));
  m.Add(Decl("bank_rdata", Msb("Width"), "read data of each bank", "NumBanks"));
  m.Blank();
  m.Add(Decl("alloc_sel", Msb("NumCollectors"), "lowest free collector, one-hot"));
  m.Add(Decl("issue_fire", "", "an instruction is accepted"));
  m.Add(Decl("read_elig", Msb("NumSlots"), "slots that may be granted a read this cycle"));
  m.Add(Decl("precede", "NumSlots*NumSlots-1", "bit PrecedeBit(j, i): slot j precedes slot i"));
  m.Add(Decl("grant", Msb("NumSlots"), "slots granted a bank read this cycle"));
  m.Add(Decl("wb_fire", "", "a write-back is accepted"));
  m.Add(Decl("done", Msb("NumCollectors"), "collector has every valid operand"));
  m.Add(Decl("disp_sel", Msb("NumCollectors"), "oldest done collector, one-hot"));
  m.Add(Decl("disp_fire", "", "an instruction leaves"));
  m.Add(Decl("num_req", Msb("SlotCountWidth"), "slots needing a read"));
  m.Add(Decl("num_grant", Msb("SlotCountWidth"), "reads granted"));
  m.Add(Decl("num_wait", Msb("SlotCountWidth"), "slots that wait: bank conflicts"));
  for (const char* c : {"reads", "writes", "conflicts", "issue_stalls", "wb_stalls"}) {
    m.Add(Decl(fmt::format("cnt_{}_q", c), Msb("CounterWidth"), ""));
    m.Add(Decl(fmt::format("cnt_{}_d", c), Msb("CounterWidth"), ""));
  }
}

void AddIssue(Module& m) {
  m.Comment("Issue: the lowest-numbered free collector takes the instruction.");
  m.Add(Assign("alloc_sel", "~busy_q & (busy_q + NumCollectors'(1))"));
  m.Add(Assign("issue_ready_o", "rst_ni && !(&busy_q)"));
  m.Add(Assign("issue_fire", "issue_valid_i && issue_ready_o"));
}

void AddArbiter(Module& m, const MrfSpec& s) {
  const std::string same_row = "(slot_bank_q[i] == wb_bank) && (slot_row_q[i] == wb_row)";
  if (WritePriority(s)) {
    m.Comment(
        "Write-priority: a slot whose row is being written this cycle waits; the write-back is\n"
        "always accepted.");
    m.Add(Comb("p_read_eligible",
               {ForLoop("i", "NumSlots",
                        {Blocking(Index("read_elig", "i"),
                                  fmt::format("need_q[i] && !(wb_valid_i && {})", same_row))})}));
  } else {
    m.Comment("Read-priority: every slot needing a read competes; the write-back waits (below).");
    m.Add(Assign("read_elig", "need_q"));
  }
  m.Blank();
  m.Comment(
      "Instruction order of the slots: slot j precedes slot i when its collector is older, or it\n"
      "is an earlier slot (A, B, C) of the same collector.");
  m.Add(Comb(
      "p_slot_order",
      {ForLoop("i", "NumSlots",
               {ForLoop("j", "NumSlots", {Blocking("precede[PrecedeBit(j, i)]", kSlotBeats)})})}));
  m.Blank();
  m.Comment(
      "Bank arbitration: a slot is granted when no eligible slot of the same bank precedes it.\n"
      "The order is total, so each bank grants at most one read.");
  m.Add(Comb("p_read_arbiter",
             {ForLoop("i", "NumSlots",
                      {Blocking(Index("grant", "i"), Index("read_elig", "i")),
                       ForLoop("j", "NumSlots",
                               {IfThen("read_elig[j] && precede[PrecedeBit(j, i)] && "
                                       "(slot_bank_q[j] == slot_bank_q[i])",
                                       {Blocking(Index("grant", "i"), "1'b0")})})})}));
  m.Blank();
  if (WritePriority(s)) {
    m.Add(Assign("wb_ready_o", "rst_ni"));
  } else {
    m.Add(Decl("wb_conflict", "", "the read granted on the write's bank is of its row"));
    m.Blank();
    m.Add(Comb("p_wb_conflict", {Blocking("wb_conflict", "1'b0"),
                                 ForLoop("i", "NumSlots",
                                         {IfThen(fmt::format("grant[i] && {}", same_row),
                                                 {Blocking("wb_conflict", "1'b1")})})}));
    m.Blank();
    m.Add(Assign("wb_ready_o", "rst_ni && !(wb_valid_i && wb_conflict)"));
  }
  m.Add(Assign("wb_fire", "wb_valid_i && wb_ready_o"));
}

void AddBanks(Module& m) {
  m.Comment(
      "Banks: the granted slot of each bank drives its read port; the write-back drives the write\n"
      "port of its bank.");
  GenerateFor g{"gen_banks", "b", "NumBanks", {}};
  g.items.push_back(Decl("re", "", "a read is granted on this bank"));
  g.items.push_back(Decl("raddr", Msb("RowAddrWidth"), "row of that read"));
  g.items.push_back(Decl("we", "", "the write-back targets this bank"));
  g.items.push_back(Blank());
  g.items.push_back(
      Comb("", {Blocking("re", "1'b0"), Blocking("raddr", "'0"),
                ForLoop("i", "NumSlots",
                        {IfThen("grant[i] && (slot_bank_q[i] == BankWidth'(b))",
                                {Blocking("re", "1'b1"), Blocking("raddr", "slot_row_q[i]")})})}));
  g.items.push_back(Blank());
  g.items.push_back(Assign("we", "wb_fire && (wb_bank == BankWidth'(b))"));
  g.items.push_back(Blank());
  g.items.push_back(
      MakeItem(Instance{"gpurf_sram_1r1w",
                        "u_bank",
                        {{"Depth", "BankRows"}, {"Width", "Width"}, {"Impl", "BankImpl"}},
                        {{"clk_i", "clk_i"},
                         {"re_i", "re"},
                         {"raddr_i", "raddr"},
                         {"rdata_o", Index("bank_rdata", "b")},
                         {"we_i", "we"},
                         {"waddr_i", "wb_row"},
                         {"wdata_i", "wb_data_i"}}}));
  m.Add(MakeItem(std::move(g)));
}

void AddDispatch(Module& m) {
  m.Comment("Dispatch: the oldest collector with every valid operand buffered.");
  GenerateFor done{"gen_done", "k", "NumCollectors", {}};
  done.items.push_back(
      Assign(Index("done", "k"),
             "busy_q[k] && (&(have_q[SlotOf(k, 0) +: 3] | ~src_valid_q[SlotOf(k, 0) +: 3]))"));
  m.Add(MakeItem(std::move(done)));
  m.Blank();
  m.Add(Comb("p_dispatch_select",
             {ForLoop("k", "NumCollectors",
                      {Blocking(Index("disp_sel", "k"), Index("done", "k")),
                       ForLoop("j", "NumCollectors",
                               {IfThen("done[j] && (j != k) && older_q[OlderBit(j, k)]",
                                       {Blocking(Index("disp_sel", "k"), "1'b0")})})})}));
  m.Blank();
  m.Add(Assign("disp_valid_o", "|done"));
  m.Add(Assign("disp_fire", "disp_valid_o && disp_ready_i"));
  m.Blank();
  m.Add(Comb("p_dispatch_mux",
             {Blocking("disp_tag_o", "'0"), Blocking("disp_warp_o", "'0"),
              Blocking("disp_src_valid_o", "'0"), Blocking("disp_data_o", "'0"),
              ForLoop("k", "NumCollectors",
                      {IfThen("disp_sel[k]",
                              {Blocking("disp_tag_o", Index("tag_q", "k")),
                               Blocking("disp_warp_o", Index("warp_q", "k")),
                               Blocking("disp_src_valid_o", "src_valid_q[SlotOf(k, 0) +: 3]"),
                               ForLoop("s", "3",
                                       {Blocking(PartSelect("disp_data_o", "s*Width", "Width"),
                                                 "operand_q[SlotOf(k, s)]")})})})}));
}

void AddNextState(Module& m) {
  m.Comment(
      "Next collector state: reads granted now are in flight next cycle, whose data arrives in\n"
      "the buffer; dispatch frees a collector; issue fills one (it is free, so no read of it is\n"
      "in flight) and makes it the youngest.");
  Body b = {
      Blocking("busy_d", "busy_q"),
      Blocking("older_d", "older_q"),
      Blocking("src_valid_d", "src_valid_q"),
      Blocking("need_d", "need_q & ~grant"),
      Blocking("inflight_d", "grant"),
      Blocking("have_d", "have_q | inflight_q"),
      IfThen("disp_fire", {Blocking("busy_d", "busy_d & ~disp_sel"),
                           ForLoop("i", "NumSlots",
                                   {IfThen("disp_sel[CollectorOf(i)]",
                                           {Blocking(Index("src_valid_d", "i"), "1'b0"),
                                            Blocking(Index("have_d", "i"), "1'b0")})})}),
      IfThen(
          "issue_fire",
          {Blocking("busy_d", "busy_d | alloc_sel"),
           ForLoop("i", "NumSlots",
                   {IfThen("alloc_sel[CollectorOf(i)]",
                           {Blocking(Index("src_valid_d", "i"), "issue_src_valid_i[OperandOf(i)]"),
                            Blocking(Index("need_d", "i"), "issue_src_valid_i[OperandOf(i)]"),
                            Blocking(Index("have_d", "i"), "1'b0")})}),
           ForLoop(
               "k", "NumCollectors",
               {IfThen("alloc_sel[k]",
                       {Blocking(PartSelect("older_d", "OlderBit(k, 0)", "NumCollectors"), "'0")},
                       {Blocking(PartSelect("older_d", "OlderBit(k, 0)", "NumCollectors"),
                                 "older_q[OlderBit(k, 0) +: NumCollectors] | alloc_sel")})})}),
  };
  m.Add(Comb("p_next_state", std::move(b)));
}

void AddCounters(Module& m) {
  m.Comment("Event counters.");
  m.Add(
      Comb("p_count", {Blocking("num_req", "'0"), Blocking("num_grant", "'0"),
                       ForLoop("i", "NumSlots",
                               {Blocking("num_req", "num_req + SlotCountWidth'(need_q[i])"),
                                Blocking("num_grant", "num_grant + SlotCountWidth'(grant[i])")})}));
  m.Blank();
  m.Add(Assign("cnt_reads_d", "cnt_reads_q + CounterWidth'(num_grant)"));
  m.Add(Assign("cnt_writes_d", "cnt_writes_q + CounterWidth'(wb_fire)"));
  m.Add(Assign("num_wait", "num_req - num_grant"));
  m.Add(Assign("cnt_conflicts_d", "cnt_conflicts_q + CounterWidth'(num_wait)"));
  m.Add(Assign("cnt_issue_stalls_d",
               "cnt_issue_stalls_q + CounterWidth'(issue_valid_i && !issue_ready_o)"));
  m.Add(Assign("cnt_wb_stalls_d", "cnt_wb_stalls_q + CounterWidth'(wb_valid_i && !wb_ready_o)"));
  m.Blank();
  for (const char* c : {"reads", "writes", "conflicts", "issue_stalls", "wb_stalls"})
    m.Add(Assign(fmt::format("cnt_{}_o", c), fmt::format("cnt_{}_q", c)));
}

void AddRegisters(Module& m) {
  const char* state[] = {
      "busy",         "older",     "src_valid",  "need",          "inflight",
      "have",         "cnt_reads", "cnt_writes", "cnt_conflicts", "cnt_issue_stalls",
      "cnt_wb_stalls"};
  Body reset, update;
  for (const char* r : state) {
    reset.push_back(NonBlocking(fmt::format("{}_q", r), "'0"));
    update.push_back(NonBlocking(fmt::format("{}_q", r), fmt::format("{}_d", r)));
  }
  m.Comment("Control state and counters, reset asynchronously.");
  m.Add(MakeItem(Always{AlwaysKind::kFF,
                        "posedge clk_i or negedge rst_ni",
                        "p_state",
                        {IfThen("!rst_ni", std::move(reset), std::move(update))}}));
  m.Blank();
  m.Comment("Instruction fields and operand buffers: data path, not reset.");
  GenerateFor c{"gen_collector_fields", "k", "NumCollectors", {}};
  c.items.push_back(
      MakeItem(Always{AlwaysKind::kFF,
                      "posedge clk_i",
                      "",
                      {IfThen("issue_fire && alloc_sel[k]",
                              {NonBlocking(Index("tag_q", "k"), "issue_tag_i"),
                               NonBlocking(Index("warp_q", "k"), "issue_warp_i")})}}));
  m.Add(MakeItem(std::move(c)));
  m.Blank();
  GenerateFor sl{"gen_slot_fields", "i", "NumSlots", {}};
  sl.items.push_back(MakeItem(
      Always{AlwaysKind::kFF,
             "posedge clk_i",
             "",
             {IfThen("issue_fire && alloc_sel[CollectorOf(i)]",
                     {NonBlocking(Index("slot_bank_q", "i"), "issue_bank[OperandOf(i)]"),
                      NonBlocking(Index("slot_row_q", "i"), "issue_row[OperandOf(i)]")}),
              IfThen(Index("inflight_q", "i"),
                     {NonBlocking(Index("operand_q", "i"), "bank_rdata[slot_bank_q[i]]")})}}));
  m.Add(MakeItem(std::move(sl)));
}

Ifdef Assertions() {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(
      Text("Parameter checks at elaboration; misuse and invariant checks every cycle."));
  Initial init{"p_param_check", {}};
  auto check = [&](const std::string& cond, const std::string& what) {
    init.body.push_back(Assert(cond, {Quote("%m: " + what)}));
  };
  check("NumBanks >= 1 && NumBanks <= 64", "NumBanks must be in 1..64");
  check("NumCollectors >= 1 && NumCollectors <= 8", "NumCollectors must be in 1..8");
  check("NumWarps * RowsPerWarp <= BankRows",
        "NumWarps x ceil(NumRegs / NumBanks) rows do not fit in BankRows");
  d.items.push_back(MakeItem(std::move(init)));
  d.items.push_back(Blank());

  const std::string src = PartSelect("issue_src_reg_i", "s*RegWidth", "RegWidth");
  Always misuse{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_misuse_check", {}};
  misuse.body.push_back(
      IfThen("rst_ni",
             {Assert("!issue_valid_i || (32'(issue_warp_i) < NumWarps)",
                     {Quote("%m: issued warp %0d >= NumWarps (%0d)"), "issue_warp_i", "NumWarps"}),
              ForLoop("s", "3",
                      {Assert(fmt::format("!(issue_valid_i && issue_src_valid_i[s]) || "
                                          "(32'({}) < NumRegs)",
                                          src),
                              {Quote("%m: source slot %0d register %0d >= NumRegs (%0d)"), "s", src,
                               "NumRegs"})}),
              Assert("!wb_valid_i || ((32'(wb_warp_i) < NumWarps) && (32'(wb_reg_i) < NumRegs))",
                     {Quote("%m: write-back of warp %0d register %0d out of range"), "wb_warp_i",
                      "wb_reg_i"})}));
  d.items.push_back(MakeItem(std::move(misuse)));
  d.items.push_back(Blank());

  Always inv{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_invariant_check", {}};
  inv.body.push_back(IfThen(
      "rst_ni",
      {ForLoop(
           "i", "NumSlots",
           {Assert("!((need_q[i] && inflight_q[i]) || (need_q[i] && have_q[i]) || "
                   "(inflight_q[i] && have_q[i]))",
                   {Quote("%m: slot %0d in more than one state"), "i"}),
            Assert("!(need_q[i] || inflight_q[i] || have_q[i]) || "
                   "(busy_q[CollectorOf(i)] && src_valid_q[i])",
                   {Quote("%m: slot %0d active without a valid source of a busy collector"), "i"}),
            Assert("!grant[i] || need_q[i]",
                   {Quote("%m: slot %0d granted without a request"), "i"}),
            ForLoop("j", "NumSlots",
                    {Assert("!((j > i) && grant[i] && grant[j] && "
                            "(slot_bank_q[i] == slot_bank_q[j]))",
                            {Quote("%m: bank %0d granted two reads (slots %0d, %0d)"),
                             "slot_bank_q[i]", "i", "j"})}),
            Assert("!(grant[i] && wb_fire && (slot_bank_q[i] == wb_bank) && "
                   "(slot_row_q[i] == wb_row))",
                   {Quote("%m: bank %0d row %0d read and written in one cycle"), "wb_bank",
                    "wb_row"})}),
       Assert("!disp_fire || ((disp_sel & (disp_sel - NumCollectors'(1))) == '0)",
              {Quote("%m: more than one collector dispatched")}),
       Assert("!issue_fire || ((alloc_sel & busy_q) == '0)",
              {Quote("%m: issue into a busy collector")})}));
  d.items.push_back(MakeItem(std::move(inv)));
  return d;
}

}  // namespace

GeneratedStructure EmitMrf(const MrfSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  const bool macro = s.bank_impl == MrfSpec::BankImpl::kMacro;
  g.derived = {
      {"row_addr_width", s.row_addr_width},
      {"bank_width", s.bank_width},
      {"warp_width", s.warp_width},
      {"reg_width", s.reg_width},
      {"rows_per_warp", s.rows_per_warp},
      {"rows_used", s.warps * s.rows_per_warp},
      {"storage_bits", static_cast<long long>(s.banks) * s.rows * s.width},
      {"interleave",
       {{"name", s.InterleaveName()},
        {"mapping", s.MappingText()},
        {"default", "register (Gebhart 2.1: registers interleaved across banks)"}}},
      {"wb_policy", s.WbPolicyName()},
      {"sram_read_latency", 1},
      {"min_issue_to_dispatch_cycles", 3},
      {"bank_impl", macro ? "macro" : "flops"},
  };
  if (macro) {
    g.derived["sram_macros"] = nlohmann::ordered_json::array({{{"module", "gpurf_sram_1r1w_macro"},
                                                               {"depth", s.rows},
                                                               {"width", s.width},
                                                               {"read_ports", 1},
                                                               {"write_ports", 1},
                                                               {"count", s.banks}}});
  }

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumBanks", Int(s.banks), "SRAM banks", false},
      {"BankRows", Int(s.rows), "rows per bank", false},
      {"Width", Int(s.width), "bits per row", false},
      {"NumWarps", Int(s.warps), "resident warps", false},
      {"NumRegs", Int(s.regs), "architected registers per thread", false},
      {"NumCollectors", Int(s.collectors), "operand collectors", false},
      {"TagWidth", Int(s.tag_width), "instruction tag bits", false},
      {"CounterWidth", Int(s.counter_width), "bits per event counter", false},
      {"BankImpl", macro ? "1" : "0", "gpurf_sram_1r1w Impl: 0 flip-flops, 1 hard macro", true},
      {"RowAddrWidth", "(BankRows > 1) ? $clog2(BankRows) : 1", "bits per row address", true},
      {"BankWidth", "(NumBanks > 1) ? $clog2(NumBanks) : 1", "bits per bank id", true},
      {"WarpWidth", "(NumWarps > 1) ? $clog2(NumWarps) : 1", "bits per warp id", true},
      {"RegWidth", "(NumRegs > 1) ? $clog2(NumRegs) : 1", "bits per register id", true},
      {"RowsPerWarp", "(NumRegs + NumBanks - 1) / NumBanks", "rows of each bank per warp", true},
      {"NumSlots", "3 * NumCollectors", "source operand slots", true},
      {"SlotCountWidth", "$clog2(NumSlots + 1)", "bits to count slots", true},
  };
  m.ports = MrfPortTable(s).Verilog();

  AddDeclarations(m);
  m.Blank();
  AddMapping(m, s);
  m.Blank();
  AddIssue(m);
  m.Blank();
  AddArbiter(m, s);
  m.Blank();
  AddBanks(m);
  m.Blank();
  AddDispatch(m);
  m.Blank();
  AddNextState(m);
  m.Blank();
  AddCounters(m);
  m.Blank();
  AddRegisters(m);
  m.Blank();
  m.Add(MakeItem(Assertions()));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(AssertHeaderFile());
  if (macro)
    g.files.push_back(PrimitiveFile("gpurf_sram_1r1w_macro.sv"));
  g.files.push_back(PrimitiveFile("gpurf_sram_1r1w.sv"));
  g.files.push_back(top);

  g.ports = MrfPortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
