// The CTA status monitor (gen/structures/cta_status_monitor) in the characterization layer: its
// activity driver.
//
// The driver runs the golden model (models/cta_status_monitor_model.h) on the inputs it drives
// and counts what the monitor did. Components, each with what one access means:
//   read    switch decision: one stall of an active CTA evaluated (the candidate priority
//           encoders over every slot's fields and ready bit, the room sum, the fit compare);
//   write   field write: one set-port write of a slot's context, register and live fields;
//   switch  one decision applied: the stalled CTA's fields and live count and the resumed or
//           launched CTA's fields rewritten.
// Warm-up launches every slot through the set port: the lower half active, the upper half
// pending with registers in the PCRF (random live counts). The sets:
//   reads     stalls of active CTAs with no room in the PCRF (free 0, live counts above 0):
//             decisions that keep the CTA;
//   writes    set-port writes only: CTAs swapped out and in (context 1 / registers 2 and back);
//   mixed     stalls and writes at random;
//   switches  stalls of active CTAs with every pending CTA ready and room in the PCRF: each
//             decision switches.
#include <fmt/format.h>

#include <optional>
#include <stdexcept>

#include "gen/structures/cta_status_monitor/cta_status_monitor_ports.h"
#include "gen/structures/cta_status_monitor/cta_status_monitor_spec.h"
#include "models/cta_status_monitor_model.h"
#include "synth/activity_driver.h"
#include "synth/level_table.h"

namespace gpurf {
namespace {

using P = CtaStatusMonitorPort;

constexpr size_t kSwitchComponent = 2;
constexpr const char* kSwitchesSet = "switches";

class CtaStatusMonitorDriver final : public ActivityDriver {
 public:
  explicit CtaStatusMonitorDriver(const GeneratedStructure& g)
      : g_(g), spec_(SpecOf<CtaStatusMonitorSpec>(g)) {
    in_ = out_ = def_ = CtaStatusMonitorPortTable(spec_).ZeroValues();
    model_.emplace(spec_);
  }

  void Reset(DriveValues& v) override {
    for (auto& b : in_)
      b.clear();
    model_.emplace(spec_);
    CopyInputs(g_.ports, in_, v);
  }

  uint64_t WarmupCycles() const override { return static_cast<uint64_t>(spec_.ctas) + 2; }
  void Warmup(uint64_t cycle, ActivityRng& rng, DriveValues& v) override {
    Idle();
    if (cycle >= 2) {
      const int c = static_cast<int>(cycle - 2);
      if (c < spec_.ctas / 2)
        Set(c, 2, 2, 0);
      else
        Set(c, 1, 1, static_cast<int>(rng() % 48));
    }
    AccessCounts ignored(3);
    Cycle(v, ignored);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    Idle();
    const int c = static_cast<int>(rng() % static_cast<uint64_t>(spec_.ctas));
    if (set == kReadsSet) {
      Stall(Active(rng), 1 + static_cast<int>(rng() % 32), 0);
    } else if (set == kWritesSet) {
      const auto& x = model_->cta(c);
      if (x.active())
        Set(c, 1, 2, 0);
      else if (x.context != CtaStatusMonitorModel::Context::kNotLaunched)
        Set(c, 2, 2, 0);
      else
        Set(c, 1, 1, static_cast<int>(rng() % 48));
    } else if (set == kMixedSet) {
      if (rng() % 2 == 0)
        Stall(Active(rng), static_cast<int>(rng() % 48), static_cast<int>(rng() % 48));
      if (rng() % 2 == 0)
        Set(c, 1, 1, static_cast<int>(rng() % 48));
      in_[P::kReady].set_bit(c, true);
    } else if (set == kSwitchesSet) {
      Stall(Active(rng), static_cast<int>(rng() % 32), spec_.pcrf_entries);
      in_[P::kReady].fill_ones();
    }
    Cycle(v, counts);
  }

  std::vector<StimulusSet> ExtraSets() const override { return {kSwitchesSet}; }

  std::vector<AccessComponent> Components() const override {
    return {{"read", "switch decision: one stall of an active CTA evaluated", ""},
            {"write", "field write: one set-port write of a slot", ""},
            {"switch", "one switch or launch applied (two slots' fields rewritten)", ""}};
  }

 private:
  // An active CTA (a random one when none is).
  int Active(ActivityRng& rng) const {
    const int start = static_cast<int>(rng() % static_cast<uint64_t>(spec_.ctas));
    for (int k = 0; k < spec_.ctas; ++k) {
      const int c = (start + k) % spec_.ctas;
      if (model_->cta(c).active())
        return c;
    }
    return start;
  }

  void Idle() {
    in_[P::kRstN] = Bits(1, 1);
    in_[P::kStallValid] = Bits(1, 0);
    in_[P::kSetValid] = Bits(1, 0);
    in_[P::kCanLaunch] = Bits(1, 0);
    in_[P::kReady].clear();
    in_[P::kFree].clear();
  }

  void Stall(int cta, int live, int free) {
    in_[P::kStallValid] = Bits(1, 1);
    in_[P::kStallCta].set(0, spec_.cta_bits, static_cast<uint64_t>(cta));
    in_[P::kStallLive].set(0, spec_.count_bits,
                           static_cast<uint64_t>(std::min(live, spec_.pcrf_entries)));
    in_[P::kFree].set(0, spec_.count_bits,
                      static_cast<uint64_t>(std::min(free, spec_.pcrf_entries)));
  }

  void Set(int cta, int ctx, int reg, int live) {
    in_[P::kSetValid] = Bits(1, 1);
    in_[P::kSetCta].set(0, spec_.cta_bits, static_cast<uint64_t>(cta));
    in_[P::kSetCtx].set(0, 2, static_cast<uint64_t>(ctx));
    in_[P::kSetReg].set(0, 2, static_cast<uint64_t>(reg));
    in_[P::kSetLive].set(0, spec_.count_bits,
                         static_cast<uint64_t>(std::min(live, spec_.pcrf_entries)));
  }

  void Cycle(DriveValues& v, AccessCounts& counts) {
    model_->Outputs(in_, out_, def_);
    const auto kind = static_cast<CtaDecision>(out_[P::kDecKind].get(0, 2));
    if (kind != CtaDecision::kNone)
      ++counts[kReadComponent];
    if (in_[P::kSetValid].bit(0))
      ++counts[kWriteComponent];
    if (kind == CtaDecision::kSwitch || kind == CtaDecision::kLaunch)
      ++counts[kSwitchComponent];
    model_->Clock(in_);
    if (!model_->Failure().empty())
      throw std::logic_error(g_.top +
                             ": cta-status-monitor driver broke the model: " + model_->Failure());
    CopyInputs(g_.ports, in_, v);
  }

  const GeneratedStructure g_;
  const CtaStatusMonitorSpec spec_;
  std::optional<CtaStatusMonitorModel> model_;
  PortValues in_, out_, def_;
};

// The per-level table: the whole module's gate-level row (read and write as declared) and the
// row of its own component.
void CtaStatusMonitorRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  out.push_back(GateLevelRow(r, "CTA status monitor (fields, decision)"));
  out.push_back(ComponentLevelRow(r, "CTA switch applied", "switch"));
}

}  // namespace

GPURF_REGISTER(LevelRowsFamily, cta_status_monitor_rows, "cta-status-monitor",
               LevelRowsFamily{CtaStatusMonitorRows})
GPURF_REGISTER(ActivityFamily, cta_status_monitor, "cta-status-monitor",
               DriverFamily<CtaStatusMonitorDriver>("cta-status-monitor-driver-v1"))

}  // namespace gpurf
