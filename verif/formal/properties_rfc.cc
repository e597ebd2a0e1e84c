// Formal properties of the hardware register file cache (gen/structures/rfc/rfc_spec.h), both
// proven from the RTL's own GPURF_ASSERTIONS checks (rfc_gen.cc), with every input free but for
// the interface contract (slots in range on valid requests):
//   no-duplicate-tag  no slot ever holds one register in two valid entries, within a level or
//                     across L0 and L1 (checked on the next state at every edge); it relies on
//                     the auxiliary invariant that each slot's replacement ages are a permutation
//                     (else a write could pick two victims and fill both with its register);
//   live-values-kept  valid means dirty (results only are cached), so no live value may be
//                     dropped: a valid entry is invalidated or overwritten only by a dead hint, a
//                     newer value of its register, or a write-back that takes it along (to L1, or
//                     into the write-back register), and a waiting write-back is never overwritten.
#include <fmt/format.h>

#include "gen/structures/rfc/rfc_spec.h"
#include "gen/vlog/expr.h"
#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

Harness ContractHarness(const StructureSpec& spec, const GeneratedStructure& rtl,
                        const std::string& property, const std::string& what) {
  const RfcSpec& s = SpecAs<RfcSpec>(spec);
  HarnessBuilder b(rtl, property, {fmt::format("{}: {}", rtl.top, what)});
  if ((1 << s.slot_bits) != s.active_warps) {
    const std::string n = Int(s.active_warps);
    b.Comment(
        "Interface contract: valid lookups, writes and flush requests name a slot < NumSlots.");
    b.Add(MakeItem(Always{
        AlwaysKind::kComb,
        "",
        "",
        {ForLoop("p", Int(RfcSpec::kOperands),
                 {Assume(BinOp("!lu_valid_i[p]", "||",
                               BinOp(Cast("32", PartSelect("lu_slot_i", "p*" + Int(s.slot_bits),
                                                           Int(s.slot_bits))),
                                     "<", n)))}),
         Assume(BinOp("!wr_valid_i", "||", BinOp(Cast("32", "wr_slot_i"), "<", n))),
         Assume(BinOp("!fl_valid_i", "||", BinOp(Cast("32", "fl_slot_i"), "<", n)))}}));
  } else {
    b.Comment("Interface contract: none needed (every slot number is in range).");
  }
  b.Comment("The property is the RTL's own assertions (GPURF_ASSERTIONS).");
  return b.Finish();
}

}  // namespace

namespace {

Family RfcFamily() {
  Family f;
  f.kinds = {"rfc"};
  f.properties = [](const StructureSpec&) {
    const std::string dup = "no slot holds one register in two valid entries (L0 or L1)";
    const std::string kept =
        "a live (dirty) value leaves its entry only by a dead hint, a newer value of its "
        "register, or a write-back (to L1 or the MRF); a waiting write-back is never overwritten";
    return std::vector<PropertyDef>{
        {"no-duplicate-tag",
         dup,
         4,
         {"holds register %0d twice", "replacement ages"},
         [dup](const StructureSpec& s, const GeneratedStructure& g) {
           return ContractHarness(s, g, "no-duplicate-tag", dup);
         }},
        {"live-values-kept",
         kept,
         4,
         {"without a write-back", "waiting write-back overwritten"},
         [kept](const StructureSpec& s, const GeneratedStructure& g) {
           return ContractHarness(s, g, "live-values-kept", kept);
         }},
    };
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, rfc, "rfc", RfcFamily())

}  // namespace gpurf::formal
