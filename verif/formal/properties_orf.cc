// Formal property of the software ORF levels (gen/structures/orf/orf_spec.h, kinds orf-l1 and
// orf-l0), proven from the RTL's own assertion (orf_gen.cc):
//   empty-after-deschedule  in the cycle after inv_i names a slot (its warp was descheduled), no
//                           entry of that slot is valid, including one written in the same cycle
//                           as the invalidation. Validity is the compiler's contract; the RTL
//                           tracks it in its GPURF_ASSERTIONS shadow (the paper's ORF has no valid
//                           bits), so the proof shows the invalidation the misuse checker relies on
//                           is complete: every later read of the slot before a new write is
//                           reported as a read of an invalid entry.
// Inputs are free but for the interface contract: writes and invalidations name a slot (and
// entry) in range.
#include <fmt/format.h>

#include "gen/structures/orf/orf_spec.h"
#include "gen/vlog/expr.h"
#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

Harness EmptyHarness(const StructureSpec& spec, const GeneratedStructure& rtl) {
  const OrfSpec& s = SpecAs<OrfSpec>(spec);
  HarnessBuilder b(
      rtl, "empty-after-deschedule",
      {fmt::format("{}: after inv_i names a slot, none of its entries is valid.", rtl.top)});
  b.Comment("Interface contract: writes and invalidations name a slot and entry in range.");
  b.Add(MakeItem(Always{
      AlwaysKind::kComb,
      "",
      "",
      {Assume(BinOp("!we_i", "||",
                    And({BinOp(Cast("32", "wslot_i"), "<", Int(s.active_warps)),
                         BinOp(Cast("32", "wentry_i"), "<", Int(s.entries))}))),
       Assume(BinOp("!inv_i", "||", BinOp(Cast("32", "inv_slot_i"), "<", Int(s.active_warps))))}}));
  b.Comment("The property is the RTL's own assertion (GPURF_ASSERTIONS).");
  return b.Finish();
}

}  // namespace

namespace {

Family OrfFamily() {
  Family f;
  f.kinds = {"orf-l1", "orf-l0"};
  f.properties = [](const StructureSpec&) {
    return std::vector<PropertyDef>{
        {"empty-after-deschedule",
         "after a deschedule (inv_i) no entry of the slot is valid, not even one written in the "
         "same cycle",
         4,
         {"still holds a valid entry after its warp was descheduled"},
         EmptyHarness},
    };
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, orf, "orf", OrfFamily())

}  // namespace gpurf::formal
