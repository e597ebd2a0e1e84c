// The release flag cache (gen/structures/release_flag_cache) in the characterization layer: its
// activity driver.
//
// The driver runs the golden model (models/release_flag_cache_model.h) beside the inputs it
// drives. PCs are pirs of one kernel (a pir every 19 instructions), twice as many as the entries,
// so lookups both hit and miss; fills carry a fixed hash of the pir's address as flags. The
// access components, each with what one access means (the flag-cache access):
//   read   flag-cache access: one lookup of a pir PC (hit or miss: the entry's tag compared, on
//          a hit its flags driven out, the hit or miss counter incremented);
//   write  fill: one pir's flags written into its entry (tag, flags, valid bit).
// Warm-up fills every entry. The sets:
//   reads   a lookup every cycle, no fill;
//   writes  a fill every cycle, no lookup;
//   mixed   a lookup and a fill each with probability 1/2.
#include <optional>
#include <stdexcept>
#include <vector>

#include "gen/structures/release_flag_cache/release_flag_cache_ports.h"
#include "gen/structures/release_flag_cache/release_flag_cache_spec.h"
#include "models/release_flag_cache_model.h"
#include "synth/activity_driver.h"
#include "synth/level_table.h"

namespace gpurf {
namespace {

using P = ReleaseFlagCachePort;

class ReleaseFlagCacheDriver final : public ActivityDriver {
 public:
  explicit ReleaseFlagCacheDriver(const GeneratedStructure& g)
      : g_(g), spec_(SpecOf<ReleaseFlagCacheSpec>(g)) {
    in_ = out_ = def_ = ReleaseFlagCachePortTable(spec_).ZeroValues();
    Restart();
  }

  void Reset(DriveValues& v) override {
    for (auto& b : in_)
      b.clear();
    Restart();
    CopyInputs(g_.ports, in_, v);
  }

  uint64_t WarmupCycles() const override { return static_cast<uint64_t>(2 * spec_.entries); }
  void Warmup(uint64_t cycle, ActivityRng& /*rng*/, DriveValues& v) override {
    Clear();
    Fill(Pir(static_cast<int>(cycle)));
    AccessCounts ignored(2);
    Cycle(v, ignored);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    Clear();
    const bool mixed = set == kMixedSet;
    if (set == kReadsSet || (mixed && rng() % 2 == 0)) {
      in_[P::kLkValid] = Bits(1, 1);
      in_[P::kLkPc] = Bits(spec_.pc_bits, Pir(static_cast<int>(rng() % Pirs())));
      ++counts[kReadComponent];
    }
    if (set == kWritesSet || (mixed && rng() % 2 == 0)) {
      Fill(Pir(static_cast<int>(rng() % Pirs())));
      ++counts[kWriteComponent];
    }
    Cycle(v, counts);
  }

  std::vector<AccessComponent> Components() const override {
    return {{"read",
             "flag-cache access: one lookup of a pir PC (tag compare, flags out on a hit, hit or "
             "miss counted)",
             ""},
            {"write", "fill: one pir's release flags written into its entry", ""}};
  }

 private:
  uint64_t Pirs() const { return static_cast<uint64_t>(2 * spec_.entries); }
  uint64_t Pir(int k) const {
    const uint64_t mask = (uint64_t{1} << spec_.pc_bits) - 1;
    return (uint64_t{0x1000} +
            static_cast<uint64_t>(k) * 19 * static_cast<uint64_t>(spec_.inst_bytes)) &
           mask;
  }
  uint64_t FlagsOf(uint64_t pc) const {
    uint64_t x = (pc >> spec_.offset_bits) * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 31;
    return spec_.payload_bits == 64 ? x : x & ((uint64_t{1} << spec_.payload_bits) - 1);
  }
  void Fill(uint64_t pc) {
    in_[P::kFillValid] = Bits(1, 1);
    in_[P::kFillPc] = Bits(spec_.pc_bits, pc);
    in_[P::kFillFlags] = Bits(spec_.payload_bits, FlagsOf(pc));
  }
  void Restart() {
    model_.emplace(spec_);
    in_[P::kRstN] = Bits(1, 1);
  }
  void Clear() {
    in_[P::kRstN] = Bits(1, 1);
    in_[P::kLkValid] = Bits(1, 0);
    in_[P::kFillValid] = Bits(1, 0);
    in_[P::kFlush] = Bits(1, 0);
  }
  void Cycle(DriveValues& v, AccessCounts& /*counts*/) {
    model_->Outputs(in_, out_, def_);
    model_->Clock(in_);
    if (!model_->Failure().empty())
      throw std::logic_error(g_.top +
                             ": release-flag-cache driver broke the model: " + model_->Failure());
    CopyInputs(g_.ports, in_, v);
  }

  const GeneratedStructure g_;
  const ReleaseFlagCacheSpec spec_;
  std::optional<ReleaseFlagCacheModel> model_;  // rebuilt at reset
  PortValues in_, out_, def_;
};

// The per-level table: one row for flag-cache accesses (E_read) and one for fills, each named
// by its component's meaning.
void ReleaseFlagCacheRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  out.push_back(ComponentLevelRow(r, "release flag cache access", "read"));
  out.push_back(ComponentLevelRow(r, "release flag cache fill", "write"));
}

}  // namespace

GPURF_REGISTER(LevelRowsFamily, release_flag_cache_rows, "release-flag-cache",
               LevelRowsFamily{ReleaseFlagCacheRows})
GPURF_REGISTER(ActivityFamily, release_flag_cache, "release-flag-cache",
               DriverFamily<ReleaseFlagCacheDriver>("release-flag-cache-driver-v1"))

}  // namespace gpurf
