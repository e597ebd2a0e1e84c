// The availability vectors (gen/structures/availability_vectors) in the characterization layer:
// their activity driver.
//
// The driver runs the golden model (models/availability_vectors_model.h) on the inputs it
// drives, so it counts what the vectors did, not what was offered, and keeps the allocated ids
// itself (releases name allocated ids only). The access components, each with what one access
// means (the allocate and release):
//   read   allocate: one granted request (a find-first-free over the bank's powered subarrays,
//          the row's bit cleared, the free count decremented);
//   write  release: one id returned (its bit set, the bank's free count incremented).
// Warm-up fills every bank to half (its lower subarrays powered). The sets:
//   reads   allocations only, a request per bank every cycle while the bank has a free register
//           (stalls of wake-ups included), no release;
//   writes  releases only, one per release port every cycle while an id is allocated;
//   mixed   each bank requests and each release port releases with probability 1/2.
// Allocations and releases balance in a steady state, so only the one-sided sets let the fit
// tell them apart.
#include <optional>
#include <stdexcept>
#include <vector>

#include "gen/structures/availability_vectors/availability_vectors_ports.h"
#include "gen/structures/availability_vectors/availability_vectors_spec.h"
#include "models/availability_vectors_model.h"
#include "synth/activity_driver.h"
#include "synth/level_table.h"

namespace gpurf {
namespace {

using P = AvailabilityVectorsPort;

class AvailabilityVectorsDriver final : public ActivityDriver {
 public:
  explicit AvailabilityVectorsDriver(const GeneratedStructure& g)
      : g_(g), spec_(SpecOf<AvailabilityVectorsSpec>(g)) {
    in_ = out_ = def_ = AvailabilityVectorsPortTable(spec_).ZeroValues();
    Restart();
  }

  void Reset(DriveValues& v) override {
    for (auto& b : in_)
      b.clear();
    Restart();
    CopyInputs(g_.ports, in_, v);
  }

  uint64_t WarmupCycles() const override {
    return static_cast<uint64_t>(spec_.regs_per_bank) / 2 +
           static_cast<uint64_t>(spec_.subarrays * spec_.wake_cycles) + 4;
  }
  void Warmup(uint64_t /*cycle*/, ActivityRng& /*rng*/, DriveValues& v) override {
    Clear();
    for (int b = 0; b < spec_.banks; ++b)
      in_[P::kAllocReq].set_bit(b, model_->FreeCount(b) > spec_.regs_per_bank / 2);
    AccessCounts ignored(2);
    Cycle(v, ignored);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    Clear();
    const bool reads = set == kReadsSet, writes = set == kWritesSet, mixed = set == kMixedSet;
    for (int b = 0; b < spec_.banks; ++b)
      in_[P::kAllocReq].set_bit(b, reads || (mixed && rng() % 2 == 0));
    for (int p = 0; p < spec_.release_ports && !held_.empty(); ++p) {
      if (!writes && !(mixed && rng() % 2 == 0))
        continue;
      const size_t i = rng() % held_.size();
      in_[P::kRelValid].set_bit(p, true);
      in_[P::kRelId].set(p * spec_.id_bits, spec_.id_bits, static_cast<uint64_t>(held_[i]));
      held_[i] = held_.back();
      held_.pop_back();
      ++counts[kWriteComponent];
    }
    Cycle(v, counts);
  }

  std::vector<AccessComponent> Components() const override {
    return {{"read",
             "allocate: one granted request (find-first-free over the powered subarrays, bit "
             "cleared, free count decremented)",
             ""},
            {"write", "release: one id returned (bit set, free count incremented)", ""}};
  }

 private:
  void Restart() {
    model_.emplace(spec_);
    held_.clear();
    in_[P::kRstN] = Bits(1, 1);
  }
  void Clear() {
    in_[P::kRstN] = Bits(1, 1);
    in_[P::kAllocReq].clear();
    in_[P::kRelValid].clear();
  }

  void Cycle(DriveValues& v, AccessCounts& counts) {
    model_->Outputs(in_, out_, def_);
    for (int b = 0; b < spec_.banks; ++b) {
      if (!out_[P::kAllocGrant].bit(b))
        continue;
      ++counts[kReadComponent];
      held_.push_back(static_cast<int>(out_[P::kAllocId].get(b * spec_.id_bits, spec_.id_bits)));
    }
    model_->Clock(in_);
    if (!model_->Failure().empty())
      throw std::logic_error(g_.top +
                             ": availability-vectors driver broke the model: " + model_->Failure());
    CopyInputs(g_.ports, in_, v);
  }

  const GeneratedStructure g_;
  const AvailabilityVectorsSpec spec_;
  std::optional<AvailabilityVectorsModel> model_;  // rebuilt at reset
  std::vector<int> held_;                          // allocated ids
  PortValues in_, out_, def_;
};

// The per-level table: one row for allocations (E_read) and one for releases (E_write), each
// named by its component's meaning.
void AvailabilityVectorsRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  out.push_back(ComponentLevelRow(r, "availability vectors allocate", "read"));
  out.push_back(ComponentLevelRow(r, "availability vectors release", "write"));
}

}  // namespace

GPURF_REGISTER(LevelRowsFamily, availability_vectors_rows, "availability-vectors",
               LevelRowsFamily{AvailabilityVectorsRows})
GPURF_REGISTER(ActivityFamily, availability_vectors, "availability-vectors",
               DriverFamily<AvailabilityVectorsDriver>("availability-vectors-driver-v1"))

}  // namespace gpurf
