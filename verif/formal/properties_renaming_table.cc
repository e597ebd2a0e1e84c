// Formal properties of the register renaming table (gen/structures/renaming_table/
// renaming_table_spec.h), proven from the RTL's own invariant assertions (renaming_table_gen.cc)
// (I2 and I3 with every input free: they need no interface contract; I1 given the allocator's):
//   no-stale-read  I2: a released mapping is never read before it is rewritten: a source
//                  answered as mapped read a valid entry (a released or never-written register
//                  is answered unmapped);
//   free-once      I3: every id on a free port comes from a valid entry (it was mapped), which
//                  is invalidated in that cycle, so an id is freed once.
//   mapped-once    I1: no physical register is mapped twice. The RTL checks, at each
//                  allocation, that the id is in range and held by no valid row; that needs the
//                  id allocator's contract, so the harness models the allocator (the
//                  availability vectors): a shadow set f_mapped_q of the ids handed out
//                  (dst_alloc_o / dst_phys_o) and not yet returned (free_valid_o /
//                  free_phys_o), and assumes that the id the table consumes in a cycle is in
//                  range, outside the exempt blocks and not in that set. The auxiliary invariant
//                  ties the set to the rows (probed; the rows' ids are a mem2reg memory): every
//                  valid row's id is in the set, and no two valid rows hold the same id. With I3
//                  (a free port names a valid row) it is 1-inductive, but z3 takes 15 minutes and
//                  more on the induction step (and minutes on the base case at K = 4) of this
//                  small design, so its unbounded step is ABC's PDR (PropertyDef::pdr), which
//                  proves it in under a second; the base case at K = 4 (z3) is the one that
//                  reports the planted bugs with a trace.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "gen/structures/renaming_table/renaming_table_spec.h"
#include "gen/vlog/expr.h"
#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

constexpr const char* kFreeInputs =
    "requests, operands, release masks and exempt_i may take any value in any\ncycle.";

PropertyDef Def(const std::string& name, const std::string& summary, int depth,
                std::vector<std::string> checks) {
  return AssumptionFreeProperty(name, summary, depth, std::move(checks), kFreeInputs);
}

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

// The id allocator's model and the auxiliary invariant of I1 (see the head of this file).
Harness MappedOnceHarness(const StructureSpec& spec, const GeneratedStructure& rtl,
                          const std::string& property, const std::string& what) {
  const RenamingTableSpec& s = SpecAs<RenamingTableSpec>(spec);
  const int P = s.phys_regs, PB = s.phys_bits, B = s.banks;
  HarnessBuilder b(rtl, property, {fmt::format("{}: {}", rtl.top, what)});
  b.Comment(
      "The allocator's view: f_mapped_q[x] is high while id x is handed out, from the edge of\n"
      "the allocation that consumed it (dst_alloc_o, dst_phys_o) to the edge of its return on a\n"
      "free port.");
  b.Add(MakeItem(Net{"f_mapped_q", MsbOf(P), "", "ids handed out and not returned", ""}));
  b.Add(MakeItem(Net{"f_mapped_d", MsbOf(P), "", "after this edge", ""}));
  b.Blank();
  b.Add(MakeItem(Always{
      AlwaysKind::kComb,
      "",
      "",
      {Blocking("f_mapped_d", "f_mapped_q"),
       ForLoop(
           "x", Int(P),
           {ForLoop("k", Int(B),
                    {IfThen(And({"free_valid_o[k]",
                                 Eq(Cast("32", PartSelect("free_phys_o", "k*" + Int(PB), Int(PB))),
                                    "x")}),
                            {Blocking("f_mapped_d[x]", "1'b0")})}),
            IfThen(And({"dst_alloc_o", Eq(Cast("32", "dst_phys_o"), "x")}),
                   {Blocking("f_mapped_d[x]", "1'b1")})})}}));
  b.Add(MakeItem(Always{AlwaysKind::kFF,
                        "posedge clk_i or negedge rst_ni",
                        "",
                        {IfThen("!rst_ni", {NonBlocking("f_mapped_q", "'0")},
                                {NonBlocking("f_mapped_q", "f_mapped_d")})}}));
  b.Blank();
  b.Comment(
      "The allocator's contract: the id the table consumes is in range, outside the exempt\n"
      "blocks, and not handed out.");
  b.Add(MakeItem(Always{
      AlwaysKind::kComb,
      "",
      "",
      {IfThen("dst_alloc_o",
              {Assume(BinOp(Cast("32", "dst_phys_o"), "<", Int(P))),
               Assume(BinOp(Cast("32", "dst_phys_o"), ">=", Int(s.warps) + " * 32'(exempt_i)")),
               Assume("!f_mapped_q[dst_phys_o]")})}}));
  b.Blank();
  b.Comment("The rows (probes): valid bits and ids of each bank.");
  std::vector<std::pair<std::string, std::string>> rows;  // (valid, id) of every row
  for (int k = 0; k < B; ++k) {
    const int n = s.warps * ((s.window - k + B - 1) / B);
    if (n == 0)
      continue;
    b.AddProbe(fmt::format("f_valid{}", k), MsbOf(n), fmt::format("gen_banks[{}].valid_q", k),
               fmt::format("bank {}'s valid bits", k));
    for (int i = 0; i < n; ++i) {
      const std::string id = fmt::format("f_id{}_{}", k, i);
      b.AddProbe(id, MsbOf(PB), fmt::format("gen_banks[{}].phys_q[{}]", k, i),
                 fmt::format("bank {} row {}'s id", k, i));
      rows.emplace_back(n == 1 ? fmt::format("f_valid{}", k) : fmt::format("f_valid{}[{}]", k, i),
                        id);
    }
  }
  b.Blank();
  Body checks;
  checks.push_back(
      Note("Auxiliary invariant: a valid row's id is handed out, and no other valid "
           "row holds it."));
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& [v, id] = rows[i];
    checks.push_back(
        IfThen(v, {Assert(And({BinOp(Cast("32", id), "<", Int(P)), Index("f_mapped_q", id)}))}));
    for (size_t j = i + 1; j < rows.size(); ++j)
      checks.push_back(IfThen(And({v, rows[j].first}), {Assert(BinOp(id, "!=", rows[j].second))}));
  }
  b.Add(MakeItem(Always{
      AlwaysKind::kPlain, "posedge clk_i", "p_rows_match_allocator", {IfThen("rst_ni", checks)}}));
  b.Comment("The property is the RTL's own I1 assertion (GPURF_ASSERTIONS), with I3.");
  return b.Finish();
}

}  // namespace

namespace {

Family RenamingTableFamily() {
  Family f;
  f.kinds = {"renaming-table"};
  f.properties = [](const StructureSpec&) {
    return std::vector<PropertyDef>{
        {"mapped-once",
         "I1: no physical register is mapped twice (an allocated id is in range and held by no "
         "valid row), given the id allocator's contract",
         4,
         {"I1 violated", "I3 violated"},
         [](const StructureSpec& s, const GeneratedStructure& g) {
           return MappedOnceHarness(s, g, "mapped-once",
                                    "I1: no physical register is mapped twice");
         },
         /*pdr=*/true},
        Def("no-stale-read",
            "I2: a released mapping is never read before it is rewritten (a source answered as "
            "mapped read a valid entry)",
            3, {"I2 violated"}),
        Def("free-once",
            "I3: every id on a free port comes from a valid entry, invalidated in that cycle "
            "(freed once)",
            3, {"I3 violated"}),
    };
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, renaming_table, "renaming-table", RenamingTableFamily())

}  // namespace gpurf::formal
