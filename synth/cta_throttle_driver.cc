// The CTA register balance counters and throttle (gen/structures/cta_throttle) in the
// characterization layer: its activity driver.
//
// The driver runs the golden model (models/cta_throttle_model.h) on the inputs it drives, so it
// counts what the structure did (a refused group is no allocation) and keeps every request within
// the contract from the model's state. Components, each with what one access means:
//   read       allocate: one granted group of a warp (the per-bank group counts, the grant
//              compares against the free counts and the reserved CTA's worst case, the CTA's
//              held counts and the banks' free counts updated);
//   write      release: one register returned (a held count and a free count updated);
//   cta_event  a CTA launch or exit: C loaded or cleared, and the reservation re-evaluated (every
//              counter after the edge, the minimum, the serve check).
// The throttle check itself (the counters, their minimum, the compare with the free total and
// the per-slot issue permissions) is combinational on the state: its energy is in every
// component that changes the state. Warm-up launches every slot with a worst case of half a bank
// per bank (the CTAs together need twice the file) and fills the file to half. The sets:
//   reads       a group of a CTA that may issue every cycle, a release only when the file is
//               three-quarters full;
//   writes      a release every cycle, a group only when the file is a quarter full;
//   mixed       a group and a release with probability 1/2 each;
//   cta-events  a launch into a free slot or an exit of an empty CTA every cycle (a CTA with a
//               small worst case is launched and exits again), nothing else.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "gen/structures/cta_throttle/cta_throttle_ports.h"
#include "gen/structures/cta_throttle/cta_throttle_spec.h"
#include "models/cta_throttle_model.h"
#include "synth/activity_driver.h"
#include "synth/level_table.h"

namespace gpurf {
namespace {

using P = CtaThrottlePort;

constexpr size_t kCtaEventComponent = 2;
constexpr const char* kCtaEventsSet = "cta-events";

class CtaThrottleDriver final : public ActivityDriver {
 public:
  explicit CtaThrottleDriver(const GeneratedStructure& g)
      : g_(g), spec_(SpecOf<CtaThrottleSpec>(g)) {
    in_ = out_ = def_ = CtaThrottlePortTable(spec_).ZeroValues();
    model_.emplace(spec_);
  }

  void Reset(DriveValues& v) override {
    for (auto& b : in_)
      b.clear();
    model_.emplace(spec_);
    CopyInputs(g_.ports, in_, v);
  }

  uint64_t WarmupCycles() const override {
    return static_cast<uint64_t>(spec_.slots) +
           static_cast<uint64_t>(spec_.banks * spec_.regs_per_bank / 2) + 4;
  }
  void Warmup(uint64_t cycle, ActivityRng& rng, DriveValues& v) override {
    Idle();
    const auto c = static_cast<int>(cycle);
    if (c < spec_.slots)
      Launch(c, spec_.regs_per_bank / 2);
    else if (FreeTotal() > Total() / 2)
      Group(rng, 1.0);
    AccessCounts ignored(3);
    Cycle(v, ignored);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    Idle();
    if (set == kReadsSet) {
      Group(rng, 1.0);
      if (FreeTotal() < Total() / 4)
        Releases(rng, 1);
    } else if (set == kWritesSet) {
      Releases(rng, spec_.release_ports);
      if (FreeTotal() > 3 * Total() / 4)
        Group(rng, 1.0);
    } else if (set == kMixedSet) {
      if (rng() % 2 == 0)
        Group(rng, 0.5);
      if (rng() % 2 == 0)
        Releases(rng, 1);
    } else if (set == kCtaEventsSet) {
      CtaEvent(rng);
    }
    Cycle(v, counts);
  }

  std::vector<StimulusSet> ExtraSets() const override { return {kCtaEventsSet}; }

  std::vector<AccessComponent> Components() const override {
    return {
        {"read", "allocate: one granted group of a warp (grant check, counts updated)", ""},
        {"write", "release: one register returned (a held and a free count updated)", ""},
        {"cta_event", "a CTA launch or exit (C loaded or cleared, reservation re-evaluated)", ""}};
  }

 private:
  int Total() const { return spec_.banks * spec_.regs_per_bank; }
  int FreeTotal() const {
    int f = 0;
    for (int b = 0; b < spec_.banks; ++b)
      f += model_->Free(b);
    return f;
  }
  int HeldBy(int slot) const {
    int h = 0;
    for (int b = 0; b < spec_.banks; ++b)
      h += model_->Held(slot, b) - rel_[static_cast<size_t>(slot * spec_.banks + b)];
    return h;
  }

  void Idle() {
    for (int p = P::kRstN; p <= P::kRelBank; ++p)
      in_[p].clear();
    in_[P::kRstN] = Bits(1, 1);
    rel_.assign(static_cast<size_t>(spec_.slots * spec_.banks), 0);
    ports_ = 0;
    group_slot_ = -1;
  }

  void Launch(int slot, int need) {
    in_[P::kLaunchValid] = Bits(1, 1);
    in_[P::kLaunchSlot].set(0, spec_.slot_bits, static_cast<uint64_t>(slot));
    for (int b = 0; b < spec_.banks; ++b)
      in_[P::kLaunchNeed].set(b * spec_.need_bits, spec_.need_bits, static_cast<uint64_t>(need));
  }

  // One group of a CTA that may issue (the reserved CTA under the throttle), within its C and
  // the bank's free registers (no spill: the driver's CTAs fit their banks).
  void Group(ActivityRng& rng, double p_port) {
    std::vector<int> may;
    for (int i = 0; i < spec_.slots; ++i) {
      if (model_->MayIssue(i))
        may.push_back(i);
    }
    if (may.empty())
      return;
    const int s = may[rng() % may.size()];
    std::vector<int> n(static_cast<size_t>(spec_.banks), 0);
    bool any = false;
    for (int a = 0; a < spec_.alloc_ports; ++a) {
      if (static_cast<double>(rng() % 1000) >= p_port * 1000)
        continue;
      const int b = static_cast<int>(rng() % static_cast<uint64_t>(spec_.banks));
      if (model_->Held(s, b) + n[b] >= model_->Need(s, b) || n[b] >= model_->Free(b))
        continue;
      ++n[b];
      any = true;
      in_[P::kAllocValid].set_bit(a, true);
      in_[P::kAllocBank].set(a * spec_.bank_bits, spec_.bank_bits, static_cast<uint64_t>(b));
    }
    if (any) {
      group_slot_ = s;
      in_[P::kAllocSlot].set(0, spec_.slot_bits, static_cast<uint64_t>(s));
    }
  }

  // Up to `count` releases of registers CTAs hold (never of the CTA whose group is offered).
  void Releases(ActivityRng& rng, int count) {
    for (int k = 0; k < count && ports_ < spec_.release_ports; ++k) {
      const int start = static_cast<int>(rng() % static_cast<uint64_t>(spec_.slots * spec_.banks));
      for (int j = 0; j < spec_.slots * spec_.banks; ++j) {
        const int c = (start + j) % (spec_.slots * spec_.banks);
        const int s = c / spec_.banks, b = c % spec_.banks;
        if (s == group_slot_ || model_->Held(s, b) - rel_[static_cast<size_t>(c)] <= 0)
          continue;
        ++rel_[static_cast<size_t>(c)];
        in_[P::kRelValid].set_bit(ports_, true);
        in_[P::kRelSlot].set(ports_ * spec_.slot_bits, spec_.slot_bits, static_cast<uint64_t>(s));
        in_[P::kRelBank].set(ports_ * spec_.bank_bits, spec_.bank_bits, static_cast<uint64_t>(b));
        ++ports_;
        break;
      }
    }
  }

  // A launch into a free slot, else an exit of an alive CTA that holds nothing, else the release
  // of one register of the CTA holding the fewest (so that it can exit soon).
  void CtaEvent(ActivityRng& rng) {
    for (int i = 0; i < spec_.slots; ++i) {
      if (!model_->Alive(i)) {
        Launch(i, 1 + static_cast<int>(rng() % 4));
        return;
      }
    }
    int fewest = -1;
    for (int i = 0; i < spec_.slots; ++i) {
      if (HeldBy(i) == 0) {
        in_[P::kExitValid] = Bits(1, 1);
        in_[P::kExitSlot].set(0, spec_.slot_bits, static_cast<uint64_t>(i));
        return;
      }
      if (fewest < 0 || HeldBy(i) < HeldBy(fewest))
        fewest = i;
    }
    for (int b = 0; b < spec_.banks && ports_ < spec_.release_ports; ++b) {
      while (ports_ < spec_.release_ports &&
             model_->Held(fewest, b) - rel_[static_cast<size_t>(fewest * spec_.banks + b)] > 0) {
        ++rel_[static_cast<size_t>(fewest * spec_.banks + b)];
        in_[P::kRelValid].set_bit(ports_, true);
        in_[P::kRelSlot].set(ports_ * spec_.slot_bits, spec_.slot_bits,
                             static_cast<uint64_t>(fewest));
        in_[P::kRelBank].set(ports_ * spec_.bank_bits, spec_.bank_bits, static_cast<uint64_t>(b));
        ++ports_;
      }
    }
  }

  void Cycle(DriveValues& v, AccessCounts& counts) {
    model_->Outputs(in_, out_, def_);
    if (out_[P::kAllocGrant].bit(0))
      ++counts[kReadComponent];
    counts[kWriteComponent] += static_cast<uint64_t>(ports_);
    if (in_[P::kLaunchValid].bit(0) || in_[P::kExitValid].bit(0))
      ++counts[kCtaEventComponent];
    model_->Clock(in_);
    if (!model_->Failure().empty())
      throw std::logic_error(g_.top +
                             ": cta-throttle driver broke the model: " + model_->Failure());
    CopyInputs(g_.ports, in_, v);
  }

  const GeneratedStructure g_;
  const CtaThrottleSpec spec_;
  std::optional<CtaThrottleModel> model_;  // rebuilt at reset
  std::vector<int> rel_;                   // per (slot, bank): releases offered this cycle
  int ports_ = 0;                          // release ports used this cycle
  int group_slot_ = -1;                    // the CTA whose group is offered this cycle
  PortValues in_, out_, def_;
};

// The per-level table: one row per component, named by its meaning.
void CtaThrottleRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  out.push_back(ComponentLevelRow(r, "CTA throttle allocate", "read"));
  out.push_back(ComponentLevelRow(r, "CTA throttle release", "write"));
  out.push_back(ComponentLevelRow(r, "CTA throttle launch or exit", "cta_event"));
}

}  // namespace

GPURF_REGISTER(LevelRowsFamily, cta_throttle_rows, "cta-throttle", LevelRowsFamily{CtaThrottleRows})
GPURF_REGISTER(ActivityFamily, cta_throttle, "cta-throttle",
               DriverFamily<CtaThrottleDriver>("cta-throttle-driver-v1"))

}  // namespace gpurf
