// Formal properties of FineReg's pending-CTA register file (gen/structures/pcrf/pcrf_spec.h),
// proven from the RTL's own assertions (pcrf_gen.cc) with every input free:
//   chain-shape  the chain shadow: every occupied entry is on exactly one chain (a CTA's, the
//                walk's) or in flight in the walk pipeline; every chain is a simple path from its
//                head (or the walker's next entry) of exactly its live count of entries, linked
//                by next pointers, ending in the entry with the end bit at the tail;
//   free-count   I1: free count + occupied entries = entries;
//   one-chain    I2, I3, I5: no free entry on a chain or issued, appends only into free entries,
//                no entry issued twice, live counts + walk = occupied entries, a head valid
//                exactly when its CTA's count is not zero;
//   end-bits     I4: every chain's tail has the end bit, and a walk meets it at its last entry
//                and only there.
// I1-I5 alone are not inductive (an induction state may hold chains that loop or share
// entries); each property therefore includes the chain shadow's check, which is (with it they
// are 1-inductive). The only assumption is the interface contract that app_cta_i and rs_cta_i
// name a CTA slot < NumCtas when valid (none with a power-of-two number of slots).
#include <fmt/format.h>

#include "gen/structures/pcrf/pcrf_spec.h"
#include "gen/vlog/expr.h"
#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

constexpr const char* kShadow = "chain shadow violated";
using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

PropertyDef Def(const std::string& name, const std::string& summary,
                std::vector<std::string> checks) {
  return {
      name, summary, 4, std::move(checks),
      [name, summary](const StructureSpec& spec, const GeneratedStructure& rtl) {
        const PcrfSpec& s = SpecAs<PcrfSpec>(spec);
        HarnessBuilder b(rtl, name, {fmt::format("{}: {}", rtl.top, summary)});
        if ((1 << s.cta_bits) == s.ctas) {
          b.Comment(
              "No assumptions: appends, restores, backpressure, queries and the reset in "
              "any cycle\n(every CTA slot number is in range).");
        } else {
          b.Comment(
              "Interface contract: an append or a restore names a CTA slot < NumCtas; "
              "otherwise\nappends, restores, backpressure, queries and the reset in any "
              "cycle.");
          b.Add(MakeItem(Always{AlwaysKind::kComb,
                                "",
                                "",
                                {Assume(BinOp("!app_valid_i", "||",
                                              BinOp(Cast("32", "app_cta_i"), "<", Int(s.ctas)))),
                                 Assume(BinOp("!rs_valid_i", "||",
                                              BinOp(Cast("32", "rs_cta_i"), "<", Int(s.ctas))))}}));
        }
        b.Comment("The property is the RTL's own assertions (GPURF_ASSERTIONS).");
        return b.Finish();
      }};
}

Family PcrfFamily() {
  Family f;
  f.kinds = {"pcrf"};
  f.properties = [](const StructureSpec&) {
    return std::vector<PropertyDef>{
        Def("chain-shape",
            "every occupied entry on exactly one chain (a CTA's or the walk's) or in flight; "
            "every chain a simple path from its head of exactly its live count of entries, "
            "ending with the end bit at its tail",
            {kShadow}),
        Def("free-count", "I1: free count + occupied entries = entries", {"I1 violated", kShadow}),
        Def("one-chain",
            "I2, I3, I5: no free entry on a chain or issued; appends only into free entries; no "
            "entry issued twice; live counts + walk = occupied entries; a head valid exactly "
            "when the count is not zero",
            {"I2 violated", "I3 violated", "I5 violated", kShadow}),
        Def("end-bits",
            "I4: every chain's tail has the end bit; a walk meets it at its "
            "last entry and only there",
            {"I4 violated", kShadow}),
    };
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, pcrf, "pcrf", PcrfFamily())

}  // namespace gpurf::formal
