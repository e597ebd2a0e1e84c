// Formal properties of the hybrid register cache / register scratchpad (gen/structures/
// hybrid_rc/hybrid_rc_spec.h, Bailey, Kloosterman, Mahlke), proven from the RTL's own invariant
// assertions (hybrid_rc_gen.cc) with every input free but for the organization's contract:
//   one-line-per-register  I1: no RC set holds one tag in two valid lines (checked on the next
//                          state at every edge);
//   dirty-values-kept      I2: every valid RC line is dirty (the RC allocates on writes only), so
//                          a line leaves the RC, or is retagged, only by a write-back of its
//                          register, a last-use read of it, or (parallel-evict) a live-out of the
//                          same register; relies on I1;
//   no-stale-read          I3: a fill takes the RC's value whenever the RC holds the register (the
//                          MRF's copy is older), and in parallel-evict no RC line of a register
//                          survives its transfer unless a write of the cycle put a newer value
//                          back; relies on I1.
// I4 (the pipeline never misses in the RSP) is the compiler's guarantee, a contract on the
// inputs, not a property of the hybrid-rc: with free inputs an RSP read of a slot never written
// is legal stimulus, so there is nothing to prove; the RTL checks it, and verify and the RTL
// loop (with the kernel's real allocation) exercise it. The RSP-only shape (rc_bytes 0) has no
// RC, hence no I1-I3 to prove: the family lists no property for it.
#include <fmt/format.h>

#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"
#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

Harness ContractHarness(const StructureSpec& spec, const GeneratedStructure& rtl,
                        const std::string& property, const std::string& what) {
  const HybridRcSpec& s = SpecAs<HybridRcSpec>(spec);
  HarnessBuilder b(rtl, property, {fmt::format("{}: {}", rtl.top, what)});
  if (!s.transfers() || !s.has_rsp()) {
    b.Comment(
        "Interface contract: no transfer (parallel-lifetime, or no RSP: the compiler makes no\n"
        "allocation that needs one). Every other input is free.");
    b.Add(MakeItem(Always{AlwaysKind::kComb, "", "", {Assume("!xf_valid_i")}}));
  } else {
    b.Comment(
        "No assumptions: reads, writes and transfers of any register or slot, in any cycle,\n"
        "together.");
  }
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

Family HybridRcFamily() {
  Family f;
  f.kinds = {"hybrid-rc"};
  f.properties = [](const StructureSpec& spec) {
    const HybridRcSpec& s = SpecAs<HybridRcSpec>(spec);
    if (!s.has_rc())
      return std::vector<PropertyDef>{};
    std::vector<PropertyDef> v = {
        Def("one-line-per-register", "I1: no RC set holds one register in two valid lines", 3,
            {"I1 violated"}),
        Def("dirty-values-kept",
            "I2: a dirty RC line leaves only by its write-back, a last-use read or (parallel-"
            "evict) a live-out of its register",
            3, {"I2 violated", "I1 violated"}),
    };
    if (s.transfers() && s.has_rsp()) {
      v.push_back(Def("no-stale-read",
                      "I3: a fill takes the RC's value when the RC holds the register; "
                      "parallel-evict keeps no RC copy of a transferred register",
                      3, {"I3 violated", "I1 violated"}));
    }
    return v;
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, hybrid_rc, "hybrid-rc", HybridRcFamily())

}  // namespace gpurf::formal
