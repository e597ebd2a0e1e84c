// Formal property of the flip-flop array (gen/structures/flop_array/flop_array_spec.h): a read
// returns the last value written, honouring the read mode, the write-to-read bypass and the
// write-port collision priority (the highest-numbered port wins).
//
// The harness watches one address chosen by the solver ((* anyconst *) f_addr, so the proof
// covers every address) and keeps what the spec says it must hold: f_known_q (written since the
// start) and f_data_q (the last value written, from the highest-numbered port writing it in that
// cycle). Every read port reading f_addr is checked against it:
//   comb, no bypass: rdata(t)   = f_data before edge t
//   comb, bypass:    rdata(t)   = this cycle's winning write data if f_addr is written, else f_data
//   reg,  no bypass: rdata(t+1) = f_data before edge t;  rdata = 0 after reset
//   reg,  bypass:    rdata(t+1) = f_data after edge t;   rdata = 0 after reset
// Auxiliary invariant (makes it 1-inductive; without it no depth suffices, since a read of f_addr
// may come any number of cycles after its write): the stored row f_addr, probed from the DUT,
// equals f_data_q whenever f_known_q.
#include <fmt/format.h>

#include "gen/structures/flop_array/flop_array_spec.h"
#include "gen/vlog/expr.h"
#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

Harness LastWriteHarness(const StructureSpec& spec, const GeneratedStructure& rtl) {
  const FlopArraySpec& s = SpecAs<FlopArraySpec>(spec);
  const int E = s.entries, DW = s.width, R = s.read_ports, W = s.write_ports, AW = s.addr_width;
  const std::string dmsb = MsbOf(DW), amsb = MsbOf(AW);
  auto waddr = [&](const std::string& w) {
    return PartSelect("waddr_i", w + "*" + Int(AW), Int(AW));
  };
  auto wdata = [&](const std::string& w) {
    return PartSelect("wdata_i", w + "*" + Int(DW), Int(DW));
  };
  auto raddr = [&](const std::string& p) {
    return PartSelect("raddr_i", p + "*" + Int(AW), Int(AW));
  };
  auto rdata = [&](const std::string& p) {
    return PartSelect("rdata_o", p + "*" + Int(DW), Int(DW));
  };

  HarnessBuilder b(rtl, "read-returns-last-write",
                   {fmt::format("{}: a read returns the last value written to its address ({} "
                                "reads{}, {} write ports: the highest-numbered port wins).",
                                rtl.top, s.registered() ? "registered" : "combinational",
                                s.bypass ? " with write-to-read bypass" : "", W)});
  b.Comment("The watched address, any one the solver picks, and what the spec says it holds.");
  b.Add(MakeItem(Net{"f_addr", amsb, "", "watched address", "anyconst"}));
  b.Add(MakeItem(Net{"f_wr", "", "", "a write port writes f_addr this cycle", ""}));
  b.Add(MakeItem(Net{"f_wdata", dmsb, "", "the data of the highest-numbered such port", ""}));
  b.Add(MakeItem(Net{"f_known_q", "", "", "f_addr has been written", ""}));
  b.Add(MakeItem(Net{"f_data_q", dmsb, "", "its last value", ""}));
  b.Blank();
  b.Comment("Interface contract: addresses below Entries (others are misuse with undefined data).");
  b.Add(MakeItem(Always{
      AlwaysKind::kComb,
      "",
      "",
      {ForLoop("w", Int(W),
               {Assume(BinOp("!we_i[w]", "||", BinOp(Cast("32", waddr("w")), "<", Int(E))))}),
       ForLoop("p", Int(R), {Assume(BinOp(Cast("32", raddr("p")), "<", Int(E)))}),
       Assume(BinOp(Cast("32", "f_addr"), "<", Int(E)))}}));
  b.Blank();
  b.Add(MakeItem(
      Always{AlwaysKind::kComb,
             "",
             "",
             {Blocking("f_wr", "1'b0"), Blocking("f_wdata", "'0"),
              ForLoop("w", Int(W),
                      {IfThen(And({"we_i[w]", Eq(waddr("w"), "f_addr")}),
                              {Blocking("f_wr", "1'b1"), Blocking("f_wdata", wdata("w"))})})}}));
  b.Add(MakeItem(Initial{"p_known_init", {Blocking("f_known_q", "1'b0")}}));
  b.Comment("Storage is not reset, so neither is what the harness knows about it.");
  b.Add(MakeItem(Always{
      AlwaysKind::kFF,
      "posedge clk_i",
      "",
      {IfThen("f_wr", {NonBlocking("f_known_q", "1'b1"), NonBlocking("f_data_q", "f_wdata")})}}));
  b.Blank();
  b.Comment("The DUT's rows (probes) and row f_addr.");
  std::vector<std::string> rows;
  for (int r = E - 1; r >= 0; --r) {
    b.AddProbe(fmt::format("f_row_q{}", r), dmsb, fmt::format("gen_rows[{}].row_q", r),
               fmt::format("row {}", r));
    rows.push_back(fmt::format("f_row_q{}", r));
  }
  b.Add(MakeItem(Net{"f_rows", MsbOf(E * DW), "", "row r at [r*Width +: Width]", ""}));
  b.Add(MakeItem(Net{"f_row", dmsb, "", "row f_addr", ""}));
  b.Blank();
  b.Add(MakeItem(ContinuousAssign{"f_rows", "{" + fmt::format("{}", fmt::join(rows, ", ")) + "}"}));
  b.Add(MakeItem(Always{
      AlwaysKind::kComb,
      "",
      "",
      {Blocking("f_row", "'0"),
       ForLoop("r", Int(E),
               {IfThen(Eq(Cast("32", "f_addr"), "r"),
                       {Blocking("f_row", PartSelect("f_rows", "r*" + Int(DW), Int(DW)))})})}}));
  b.Blank();

  Body checks;
  checks.push_back(Note("Auxiliary invariant: row f_addr holds its last written value."));
  checks.push_back(IfThen("f_known_q", {Assert("f_row == f_data_q")}));
  if (!s.registered()) {
    Body per_port;
    if (s.bypass) {
      per_port.push_back(
          IfThen(And({Eq(raddr("p"), "f_addr"), "f_wr"}), {Assert(Eq(rdata("p"), "f_wdata"))}));
      per_port.push_back(IfThen(And({Eq(raddr("p"), "f_addr"), "!f_wr", "f_known_q"}),
                                {Assert(Eq(rdata("p"), "f_data_q"))}));
    } else {
      per_port.push_back(IfThen(And({Eq(raddr("p"), "f_addr"), "f_known_q"}),
                                {Assert(Eq(rdata("p"), "f_data_q"))}));
    }
    checks.push_back(Note(s.bypass ? "A combinational read of f_addr returns this cycle's write, "
                                     "else the stored value."
                                   : "A combinational read of f_addr returns the value stored "
                                     "before this edge."));
    checks.push_back(ForLoop("p", Int(R), per_port));
  } else {
    b.Comment(
        "Registered reads: what each port must show one cycle after it reads f_addr, and the\n"
        "read registers' reset value.");
    b.Add(MakeItem(Net{"f_chk_q", MsbOf(R), "", "port p read f_addr last cycle, data known", ""}));
    b.Add(MakeItem(Net{"f_exp_q", MsbOf(R * DW), "", "what it must return", ""}));
    b.Add(MakeItem(Net{"f_reset_q", "", "", "no edge since reset", ""}));
    b.Blank();
    const std::string known = s.bypass ? "f_known_q || f_wr" : "f_known_q";
    const std::string value = s.bypass ? "f_wr ? f_wdata : f_data_q" : "f_data_q";
    b.Add(MakeItem(Always{
        AlwaysKind::kFF,
        "posedge clk_i or negedge rst_ni",
        "",
        {IfThen("!rst_ni", {NonBlocking("f_chk_q", "'0"), NonBlocking("f_reset_q", "1'b1")},
                {NonBlocking("f_reset_q", "1'b0"),
                 ForLoop("p", Int(R),
                         {NonBlocking("f_chk_q[p]",
                                      And({Eq(raddr("p"), "f_addr"), "(" + known + ")"}))})})}}));
    b.Add(MakeItem(
        Always{AlwaysKind::kFF,
               "posedge clk_i",
               "",
               {ForLoop("p", Int(R),
                        {NonBlocking(PartSelect("f_exp_q", "p*" + Int(DW), Int(DW)), value)})}}));
    b.Blank();
    checks.push_back(Note(s.bypass ? "A registered read of f_addr returns, one cycle later, the "
                                     "value after that cycle's write."
                                   : "A registered read of f_addr returns, one cycle later, the "
                                     "value before that cycle's write."));
    checks.push_back(ForLoop(
        "p", Int(R),
        {IfThen("f_chk_q[p]",
                {Assert(Eq(rdata("p"), PartSelect("f_exp_q", "p*" + Int(DW), Int(DW))))})}));
    checks.push_back(Note("The read registers are zero until the first edge after reset."));
    checks.push_back(IfThen("f_reset_q", {Assert("rdata_o == '0")}));
  }
  b.Add(MakeItem(Always{AlwaysKind::kPlain, "posedge clk_i", "p_read_returns_last_write", checks}));
  return b.Finish();
}

}  // namespace

namespace {

Family FlopArrayFamily() {
  Family f;
  f.kinds = {"flop-array"};
  f.properties = [](const StructureSpec&) {
    return std::vector<PropertyDef>{
        {"read-returns-last-write",
         "every read port returns the last value written to its address: the highest-numbered "
         "write port wins a collision; with bypass a same-cycle write is returned; registered "
         "reads one cycle later, zero after reset",
         3,
         {},
         LastWriteHarness},
    };
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, flop_array, "flop-array", FlopArrayFamily())

}  // namespace gpurf::formal
