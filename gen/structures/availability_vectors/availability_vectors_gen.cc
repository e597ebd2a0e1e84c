#include "gen/structures/availability_vectors/availability_vectors_gen.h"

#include <fmt/format.h>

#include "gen/structures/availability_vectors/availability_vectors_ports.h"
#include "gen/structures/emit_util.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

std::vector<std::string> ModuleDoc(const AvailabilityVectorsSpec& s) {
  return {
      fmt::format("{}: physical-register availability vectors (Jeon et al., MICRO 2015,",
                  s.module_name),
      fmt::format("sections 7.1 and 8.2): {} banks x {} registers, {} subarrays of {} rows per",
                  s.banks, s.regs_per_bank, s.subarrays, s.sub_rows),
      fmt::format("bank, {}-cycle subarray wake-up, {} release ports.", s.wake_cycles,
                  s.release_ports),
      "",
      "Id of row r of bank b: r * NumBanks + b. Each bank grants one request per cycle: the",
      "lowest free row among its powered subarrays (fill subarray k before waking k+1). With no",
      "free row powered but a free register in the bank, the lowest gated subarray is woken and",
      "the request stalls WakeCycles cycles. A powered subarray that holds no allocated register",
      "after the edge is gated. Releases return ids into any bank, several per cycle.",
      "Invariants (checked with GPURF_ASSERTIONS defined): I1 free count + allocated count =",
      "RegsPerBank; I2 a grant takes a free row of a powered subarray; I3 a gated subarray holds",
      "no allocated register; C1 the contract (a release names an allocated id, once).",
  };
}

// One bank: its vector, free counter, power state and wake-up, and its grant.
GenerateFor Bank() {
  GenerateFor g{"gen_banks", "b", "NumBanks", {}};
  auto net = [&](const char* name, const char* width, const char* comment) {
    g.items.push_back(MakeItem(Net{name, width, "", comment, ""}));
  };
  net("avail_q", "RegsPerBank-1", "1: the row is free");
  net("free_q", "CountBits-1", "free registers (counter)");
  net("pwr_q", "NumSub-1", "powered subarrays");
  net("waking_q", "", "a wake-up in progress");
  net("wake_sub_q", "SubBits-1", "the subarray being woken");
  net("wake_cnt_q", "WakeBits-1", "cycles left of the wake-up");
  net("req", "", "the bank's request");
  net("found", "", "a free row in a powered subarray");
  net("row", "RowBits-1", "the lowest such row");
  net("grant", "", "the request is granted");
  net("gated_any", "", "some subarray is gated");
  net("gated_first", "SubBits-1", "the lowest gated subarray");
  net("start_wake", "", "the request starts a wake-up");
  net("rel_mask", "RegsPerBank-1", "rows released this cycle");
  net("rel_n", "CountBits-1", "how many");
  net("avail_d", "RegsPerBank-1", "the vector after the edge");
  net("pwr_d", "NumSub-1", "subarrays still holding a register after the edge");
  net("wake_on", "NumSub-1", "the subarray whose wake-up ends at the edge");
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(MakeItem(ContinuousAssign{"req", Index("alloc_req_i", "b")}));

  Always search{AlwaysKind::kComb, "", "search", {}};
  search.body = {
      Note("Find-first-free over the powered subarrays: fill subarray k before waking k+1."),
      Blocking("found", "1'b0"),
      Blocking("row", "'0"),
      ForLoop("i", "RegsPerBank",
              {IfThen("!found && avail_q[i] && pwr_q[i / SubRows]",
                      {Blocking("found", "1'b1"), Blocking("row", "RowBits'(i)")})}),
      Blocking("gated_any", "1'b0"),
      Blocking("gated_first", "'0"),
      ForLoop("k", "NumSub",
              {IfThen("!gated_any && !pwr_q[k]",
                      {Blocking("gated_any", "1'b1"), Blocking("gated_first", "SubBits'(k)")})}),
      Blocking("grant", "rst_ni && req && found"),
      Blocking("start_wake", "rst_ni && req && !found && free_q != '0 && !waking_q && gated_any"),
  };
  g.items.push_back(MakeItem(std::move(search)));
  g.items.push_back(MakeItem(BlankLine{}));

  Always next{AlwaysKind::kComb, "", "next_state", {}};
  next.body = {
      Blocking("rel_mask", "'0"),
      Blocking("rel_n", "'0"),
      ForLoop("p", "NumRelPorts",
              {IfThen("rel_valid_i[p] && 32'(rel_bank[p]) == b && 32'(rel_row[p]) < RegsPerBank",
                      {Blocking("rel_mask[rel_row[p]]", "1'b1"),
                       Blocking("rel_n", "rel_n + CountBits'(1)")})}),
      Blocking("avail_d", "avail_q | rel_mask"),
      IfThen("grant", {Blocking("avail_d[row]", "1'b0")}),
      Note("A powered subarray with no allocated register after the edge is gated."),
      ForLoop("k", "NumSub",
              {Blocking("pwr_d[k]", "pwr_q[k] && !(&avail_d[k*SubRows +: SubRows])")}),
      Blocking("wake_on", "'0"),
      IfThen("waking_q && wake_cnt_q == WakeBits'(1)", {Blocking("wake_on[wake_sub_q]", "1'b1")}),
      IfThen("start_wake && WakeCycles == 1", {Blocking("wake_on[gated_first]", "1'b1")}),
  };
  g.items.push_back(MakeItem(std::move(next)));
  g.items.push_back(MakeItem(BlankLine{}));

  Body reset = {
      NonBlocking("avail_q", "'1"),    NonBlocking("free_q", "CountBits'(RegsPerBank)"),
      NonBlocking("pwr_q", "'0"),      NonBlocking("waking_q", "1'b0"),
      NonBlocking("wake_sub_q", "'0"), NonBlocking("wake_cnt_q", "'0"),
  };
  Body run = {
      NonBlocking("avail_q", "avail_d"),
      NonBlocking("free_q", "free_q - CountBits'(grant) + rel_n"),
      NonBlocking("pwr_q", "pwr_d | wake_on"),
      IfThen("start_wake && WakeCycles > 1",
             {NonBlocking("waking_q", "1'b1"), NonBlocking("wake_sub_q", "gated_first"),
              NonBlocking("wake_cnt_q", "WakeBits'(WakeCycles - 1)")},
             {IfThen("waking_q",
                     {IfThen("wake_cnt_q == WakeBits'(1)", {NonBlocking("waking_q", "1'b0")}),
                      NonBlocking("wake_cnt_q", "wake_cnt_q - WakeBits'(1)")})}),
  };
  g.items.push_back(MakeItem(Always{AlwaysKind::kFF,
                                    "posedge clk_i or negedge rst_ni",
                                    "bank_state",
                                    {IfThen("!rst_ni", reset, run)}}));
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(MakeItem(ContinuousAssign{Index("alloc_grant_o", "b"), "grant"}));
  g.items.push_back(MakeItem(ContinuousAssign{PartSelect("alloc_id_o", "b*IdBits", "IdBits"),
                                              "grant ? {row, BankBits'(b)} : '0"}));
  g.items.push_back(
      MakeItem(ContinuousAssign{Index("alloc_none_o", "b"), "rst_ni && req && free_q == '0"}));
  g.items.push_back(
      MakeItem(ContinuousAssign{PartSelect("free_count_o", "b*CountBits", "CountBits"),
                                "rst_ni ? free_q : CountBits'(RegsPerBank)"}));
  g.items.push_back(MakeItem(
      ContinuousAssign{PartSelect("powered_o", "b*NumSub", "NumSub"), "rst_ni ? pwr_q : '0"}));
  g.items.push_back(MakeItem(ContinuousAssign{Index("waking_o", "b"), "rst_ni && waking_q"}));

  // The bank's terms of I1-I3 and C1.
  Ifdef chk{"GPURF_ASSERTIONS", {}};
  chk.items.push_back(
      MakeItem(Net{"chk_alloc", "CountBits-1", "", "allocated registers (vector)", ""}));
  chk.items.push_back(
      MakeItem(Net{"chk_gated_holds", "", "", "a gated subarray holds a register", ""}));
  chk.items.push_back(
      MakeItem(Net{"chk_releases_free", "", "", "a release names a free row of the bank", ""}));
  chk.items.push_back(MakeItem(Always{
      AlwaysKind::kComb,
      "",
      "",
      {Blocking("chk_alloc", "'0"),
       ForLoop("i", "RegsPerBank", {Blocking("chk_alloc", "chk_alloc + CountBits'(!avail_q[i])")}),
       Blocking("chk_gated_holds", "1'b0"),
       ForLoop("k", "NumSub",
               {IfThen("!pwr_q[k] && !(&avail_q[k*SubRows +: SubRows])",
                       {Blocking("chk_gated_holds", "1'b1")})}),
       Blocking("chk_releases_free", "1'b0"),
       ForLoop("p", "NumRelPorts",
               {IfThen("rel_valid_i[p] && 32'(rel_bank[p]) == b && 32'(rel_row[p]) < RegsPerBank "
                       "&& avail_q[rel_row[p]]",
                       {Blocking("chk_releases_free", "1'b1")})})}}));
  chk.items.push_back(MakeItem(ContinuousAssign{Index("chk_rel_free", "b"), "chk_releases_free"}));
  chk.items.push_back(MakeItem(
      ContinuousAssign{Index("chk_count", "b"), "32'(free_q) + 32'(chk_alloc) != RegsPerBank"}));
  chk.items.push_back(MakeItem(ContinuousAssign{
      Index("chk_grant", "b"), "grant && !(avail_q[row] && pwr_q[32'(row) / SubRows])"}));
  chk.items.push_back(MakeItem(ContinuousAssign{Index("chk_gated", "b"), "chk_gated_holds"}));
  g.items.push_back(MakeItem(std::move(chk)));
  return g;
}

Ifdef Assertions() {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(
      CommentItem{"C1's port terms: an id out of range, or named by two ports in a cycle."}));
  d.items.push_back(
      MakeItem(Net{"chk_rel_bad", "", "", "C1: an out-of-range or twice-named id", ""}));
  d.items.push_back(MakeItem(Always{
      AlwaysKind::kComb,
      "",
      "",
      {Blocking("chk_rel_bad", "1'b0"),
       ForLoop("p", "NumRelPorts",
               {IfThen("rel_valid_i[p] && 32'(rel_row[p]) >= RegsPerBank",
                       {Blocking("chk_rel_bad", "1'b1")}),
                ForLoop("q", "NumRelPorts",
                        {IfThen("q < p && rel_valid_i[p] && rel_valid_i[q] && "
                                "rel_id_i[p*IdBits +: IdBits] == rel_id_i[q*IdBits +: IdBits]",
                                {Blocking("chk_rel_bad", "1'b1")})})})}}));
  d.items.push_back(MakeItem(BlankLine{}));
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_invariants", {}};
  a.body.push_back(IfThen(
      "rst_ni",
      {Assert("chk_count == '0",
              {Quote("%m: I1 violated: free count + allocated count differs from RegsPerBank")}),
       Assert("chk_grant == '0",
              {Quote("%m: I2 violated: a grant of an allocated row or of a gated subarray")}),
       Assert("chk_gated == '0",
              {Quote("%m: I3 violated: a gated subarray holds an allocated register")}),
       Assert("chk_rel_free == '0 && !chk_rel_bad",
              {Quote("%m: C1 violated: a release of a free, out-of-range or twice-named id")})}));
  d.items.push_back(MakeItem(std::move(a)));
  return d;
}

}  // namespace

GeneratedStructure EmitAvailabilityVectors(const AvailabilityVectorsSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  g.derived = {{"phys_regs", s.PhysRegs()},
               {"id_bits", s.id_bits},
               {"sub_rows", s.sub_rows},
               {"vector_bits", s.PhysRegs()}};

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumBanks", Int(s.banks), "B: MRF banks (power of two)", false},
      {"RegsPerBank", Int(s.regs_per_bank), "P: physical registers per bank", false},
      {"NumSub", Int(s.subarrays), "S: power-gated subarrays per bank", false},
      {"WakeCycles", Int(s.wake_cycles), "W: subarray wake-up latency (>= 1)", false},
      {"NumRelPorts", Int(s.release_ports), "release ports", false},
      {"BankBits", "$clog2(NumBanks)", "bank field of an id (its low bits)", true},
      {"RowBits", "$clog2(RegsPerBank)", "row field of an id", true},
      {"IdBits", "RowBits + BankBits", "bits of a physical id", true},
      {"CountBits", "$clog2(RegsPerBank + 1)", "bits of a free count (0..RegsPerBank)", true},
      {"SubRows", "RegsPerBank / NumSub", "rows per subarray", true},
      {"SubBits", "(NumSub > 1) ? $clog2(NumSub) : 1", "bits of a subarray index", true},
      {"WakeBits", "$clog2(WakeCycles + 1)", "bits of the wake-up counter", true},
  };
  m.ports = AvailabilityVectorsPortTable(s).Verilog();

  m.Blank();
  m.Comment("Release ports: the bank (low bits) and row of each id.");
  m.Add(MakeItem(Net{"rel_bank", "BankBits-1", "NumRelPorts", "bank of port p's id", "mem2reg"}));
  m.Add(MakeItem(Net{"rel_row", "RowBits-1", "NumRelPorts", "row of port p's id", "mem2reg"}));
  m.Add(MakeItem(Ifdef{
      "GPURF_ASSERTIONS",
      {MakeItem(Net{"chk_count", Msb("NumBanks"), "", "I1: the bank's count disagrees", ""}),
       MakeItem(
           Net{"chk_grant", Msb("NumBanks"), "", "I2: the bank's grant is not free/powered", ""}),
       MakeItem(Net{"chk_gated", Msb("NumBanks"), "", "I3: a gated subarray holds a register", ""}),
       MakeItem(Net{"chk_rel_free", Msb("NumBanks"), "", "C1: a release of a free row", ""})}}));
  m.Blank();
  GenerateFor ports{"gen_rel_ports", "g", "NumRelPorts", {}};
  ports.items.push_back(
      MakeItem(ContinuousAssign{"rel_bank[g]", "rel_id_i[g*IdBits +: BankBits]"}));
  ports.items.push_back(
      MakeItem(ContinuousAssign{"rel_row[g]", "rel_id_i[g*IdBits + BankBits +: RowBits]"}));
  m.Add(MakeItem(std::move(ports)));
  m.Blank();
  m.Add(MakeItem(Bank()));
  m.Blank();
  m.Add(MakeItem(Assertions()));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(AssertHeaderFile());
  g.files.push_back(top);

  g.ports = AvailabilityVectorsPortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
