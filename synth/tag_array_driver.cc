// The tag array (gen/structures/tag_array) in the characterization layer: its activity driver.
//
// The driver runs the golden model (models/tag_array_model.h) on the inputs it drives, so it
// counts what the structure did, not what was offered: a lookup waiting behind a bank conflict is
// counted in the cycle it is served. Every request offers one lookup per port, each to a set of
// its own bank where the banks allow (lookup p goes to set base + p), so that conflicts are rare.
// The access components, each with what one access means:
//   read           lookup: one served lookup, the tag compare of its set (hit or miss);
//   write          state update: one line written by a served lookup (its state and the set's
//                  LRU ages on a hit; state, tag and ages on a fill);
//   victim_select  victim selection: one fill that replaces a line (the LRU choice among the
//                  policy's candidates and the victim's report).
// Warm-up fills every set with clean lines (tags 1..W, loads). The sets:
//   reads      stores that miss (write-no-allocate): lookups without an update;
//   writes     loads that hit the warm lines: lookup and state update;
//   evictions  loads of new tags into full sets: lookup, update and victim selection;
//   mixed      each lookup one of the three at random, or absent.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "gen/structures/tag_array/tag_array_ports.h"
#include "gen/structures/tag_array/tag_array_spec.h"
#include "models/tag_array_model.h"
#include "synth/activity_driver.h"
#include "synth/level_table.h"

namespace gpurf {
namespace {

constexpr size_t kVictimComponent = 2;
constexpr const char* kEvictionsSet = "evictions";

class TagArrayDriver final : public ActivityDriver {
 public:
  explicit TagArrayDriver(const GeneratedStructure& g) : g_(g), spec_(SpecOf<TagArraySpec>(g)) {
    model_.emplace(spec_);
    in_ = out_ = def_ = TagArrayPortTable(spec_).ZeroValues();
  }

  void Reset(DriveValues& v) override {
    for (auto& b : in_)
      b.clear();
    model_.emplace(spec_);
    CopyInputs(g_.ports, in_, v);
  }

  uint64_t WarmupCycles() const override {
    return static_cast<uint64_t>(spec_.sets * spec_.ways / spec_.lookups) + 8;
  }
  void Warmup(uint64_t cycle, ActivityRng& /*rng*/, DriveValues& v) override {
    Request();
    for (int p = 0; p < spec_.lookups; ++p) {
      const uint64_t k = cycle * static_cast<uint64_t>(spec_.lookups) + static_cast<uint64_t>(p);
      const int set = static_cast<int>(k % static_cast<uint64_t>(spec_.sets));
      const uint64_t tag = 1 + (k / static_cast<uint64_t>(spec_.sets)) % spec_.ways;
      Lookup(p, TagArraySpec::kLoad, set, tag);
    }
    AccessCounts ignored(3);
    Cycle(v, ignored);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    if (set == kIdleSet) {
      in_[TagArrayPort::kReqValid] = Bits(1, 0);
      Cycle(v, counts);
      return;
    }
    Request();
    const int base = static_cast<int>(rng() % static_cast<uint64_t>(spec_.sets));
    for (int p = 0; p < spec_.lookups; ++p) {
      const int s = (base + p) % spec_.sets;
      int kind = set == kReadsSet ? 0 : set == kWritesSet ? 1 : set == kEvictionsSet ? 2 : 3;
      if (kind == 3)
        kind = static_cast<int>(rng() % 4);  // mixed: 3 = the lookup is absent
      if (kind == 0)
        Lookup(p, TagArraySpec::kStore, s, FreshTag(rng));
      else if (kind == 1)
        Lookup(p, TagArraySpec::kLoad, s, 1 + rng() % static_cast<uint64_t>(spec_.ways));
      else if (kind == 2)
        Lookup(p, TagArraySpec::kLoad, s, FreshTag(rng));
    }
    Cycle(v, counts);
  }

  std::vector<StimulusSet> ExtraSets() const override { return {kEvictionsSet}; }

  std::vector<AccessComponent> Components() const override {
    return {{"read", "lookup: one served lookup, the tag compare of its set (hit or miss)", ""},
            {"write",
             "state update: one line written by a served lookup (state and LRU ages; tag on a "
             "fill)",
             ""},
            {"victim_select",
             "victim selection: one fill that replaces a line (LRU choice among the policy's "
             "candidates, victim report)",
             ""}};
  }

 private:
  void Request() {
    in_[TagArrayPort::kRstN] = Bits(1, 1);
    in_[TagArrayPort::kReqValid] = Bits(1, 1);
    in_[TagArrayPort::kLkValid].clear();
  }

  // A tag outside the warm lines 1..W, not in the reg-mem space.
  uint64_t FreshTag(ActivityRng& rng) const {
    const uint64_t mask = (uint64_t{1} << std::min(spec_.tag_width, 62)) - 1;
    return (static_cast<uint64_t>(spec_.ways) + 1 + rng() % 1024) & mask;
  }

  void Lookup(int p, int op, int set, uint64_t tag) {
    uint64_t addr = spec_.LineAddress(set, tag);
    if (spec_.InRegSpace(addr))
      addr &= ~(uint64_t{1} << (spec_.addr_width - 1));
    in_[TagArrayPort::kLkValid].set_bit(p, true);
    in_[TagArrayPort::kLkOp].set(2 * p, 2, static_cast<uint64_t>(op));
    in_[TagArrayPort::kLkAddr].set(p * spec_.addr_width, spec_.addr_width, addr);
  }

  void Cycle(DriveValues& v, AccessCounts& counts) {
    model_->Outputs(in_, out_, def_);
    for (int p = 0; p < spec_.lookups; ++p) {
      if (!out_[TagArrayPort::kRspValid].bit(p))
        continue;
      ++counts[kReadComponent];
      if (out_[TagArrayPort::kRspHit].bit(p) || out_[TagArrayPort::kRspNext].get(2 * p, 2) != 0)
        ++counts[kWriteComponent];
      if (out_[TagArrayPort::kRspVictimValid].bit(p))
        ++counts[kVictimComponent];
    }
    model_->Clock(in_);
    if (!model_->Failure().empty())
      throw std::logic_error(g_.top + ": tag-array driver broke the model: " + model_->Failure());
    CopyInputs(g_.ports, in_, v);
  }

  const GeneratedStructure g_;
  const TagArraySpec spec_;
  std::optional<TagArrayCycleModel> model_;  // rebuilt at reset
  PortValues in_, out_, def_;
};

// The per-level table: the lookup and state-update row (E_read, E_write) and a row of its own for
// victim selection, each with its component's meaning.
void TagArrayRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  out.push_back(GateLevelRow(r, "tag array"));
  out.push_back(ComponentLevelRow(r, "tag array victim selection", "victim_select"));
}

}  // namespace

GPURF_REGISTER(LevelRowsFamily, tag_array_rows, "tag-array", LevelRowsFamily{TagArrayRows})
GPURF_REGISTER(ActivityFamily, tag_array, "tag-array",
               DriverFamily<TagArrayDriver>("tag-array-driver-v1"))

}  // namespace gpurf
