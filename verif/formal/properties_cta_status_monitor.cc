// Formal properties of FineReg's CTA status monitor (gen/structures/cta_status_monitor/
// cta_status_monitor_spec.h), proven from the RTL's own invariant assertions S1-S6
// (cta_status_monitor_gen.cc), with every input free but for the interface contract (the set
// port writes only consistent field pairs, and set and stall name a CTA slot < NumCtas):
//   status-encodings  S1-S4: no field holds the unused code 3; a slot is launched in both fields
//                     or in neither; a context in the pipeline has its registers in the ACRF; a
//                     saved live count only with registers in the PCRF;
//   switch-fits       S5: a switch or a launch is decided only when the stalled CTA's live
//                     registers fit the free PCRF entries (plus those the selected CTA's restore
//                     frees);
//   switch-choice     S6: a switch takes the first ready candidate of the best rank (registers in
//                     the ACRF before those in the PCRF), a launch only when there is none and
//                     into a slot not launched.
// S5 and S6 rely on S1-S4 (the fields' encodings select the candidates).
#include <fmt/format.h>

#include "gen/structures/cta_status_monitor/cta_status_monitor_spec.h"
#include "gen/vlog/expr.h"
#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

Harness ContractHarness(const StructureSpec& spec, const GeneratedStructure& rtl,
                        const std::string& property, const std::string& what) {
  const CtaStatusMonitorSpec& s = SpecAs<CtaStatusMonitorSpec>(spec);
  HarnessBuilder b(rtl, property, {fmt::format("{}: {}", rtl.top, what)});
  b.Comment(
      "Interface contract: the set port writes only consistent pairs (both fields 0, or both\n"
      "launched, never code 3, a context in the pipeline only with its registers in the ACRF),\n"
      "and set and stall name a CTA slot < NumCtas.");
  std::vector<Stmt> contract = {Assume(
      BinOp("!set_valid_i", "||",
            And({BinOp(BinOp("set_ctx_i", "==", "2'd0"), "==", BinOp("set_reg_i", "==", "2'd0")),
                 BinOp("set_ctx_i", "!=", "2'd3"), BinOp("set_reg_i", "!=", "2'd3"),
                 "!((set_ctx_i == 2'd2) && (set_reg_i != 2'd2))"})))};
  if ((1 << s.cta_bits) != s.ctas) {
    contract.push_back(
        Assume(BinOp("!set_valid_i", "||", BinOp(Cast("32", "set_cta_i"), "<", Int(s.ctas)))));
    contract.push_back(
        Assume(BinOp("!stall_valid_i", "||", BinOp(Cast("32", "stall_cta_i"), "<", Int(s.ctas)))));
  }
  b.Add(MakeItem(Always{AlwaysKind::kComb, "", "", std::move(contract)}));
  b.Comment("The property is the RTL's own assertions (GPURF_ASSERTIONS).");
  return b.Finish();
}

PropertyDef Def(const std::string& name, const std::string& summary, int depth,
                std::vector<std::string> checks) {
  return {name, summary, depth, std::move(checks),
          [name, summary](const StructureSpec& s, const GeneratedStructure& g) {
            return ContractHarness(s, g, name, summary);
          }};
}

Family CtaStatusMonitorFamily() {
  Family f;
  f.kinds = {"cta-status-monitor"};
  f.properties = [](const StructureSpec&) {
    const std::vector<std::string> encodings = {"S1 violated", "S2 violated", "S3 violated",
                                                "S4 violated"};
    auto with = [&](std::vector<std::string> more) {
      more.insert(more.end(), encodings.begin(), encodings.end());
      return more;
    };
    return std::vector<PropertyDef>{
        Def("status-encodings",
            "S1-S4: no status field holds code 3; a slot is launched in both fields or in "
            "neither; a context in the pipeline has its registers in the ACRF; a saved live count "
            "only with registers in the PCRF",
            5, encodings),
        Def("switch-fits",
            "S5: a switch or launch is decided only when the stalled CTA's live registers fit "
            "the free PCRF entries plus those the selected CTA's restore frees (with S1-S4)",
            5, with({"S5 violated"})),
        Def("switch-choice",
            "S6: a switch takes the first ready candidate of the best rank (ACRF before PCRF); a "
            "launch only without a candidate, into a slot not launched (with S1-S4)",
            5, with({"S6 violated"})),
    };
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, cta_status_monitor, "cta-status-monitor", CtaStatusMonitorFamily())

}  // namespace gpurf::formal
