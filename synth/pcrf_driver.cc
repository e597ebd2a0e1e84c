// The pending-CTA register file (gen/structures/pcrf) in the characterization layer: its
// activity driver.
//
// The driver runs the golden model (models/pcrf_model.h) on the inputs it drives, so it counts
// what the structure did: an append refused while the PCRF is full is not a write, and a chain
// hop is counted when its register comes out. The consumer is always ready. The components,
// each with what one access means:
//   read            chain hop: one restored entry (its tag read, the next pointer followed, its
//                   row read from the data array, its entry freed in the free-space monitor);
//   write           tag+row write: one append (the new entry's tag and row written, the CTA's
//                   old tail relinked, the free bit cleared, the CTA's pointer-table line grown);
//   pointer_update  pointer update of a restore: a non-empty CTA's head and count handed to the
//                   walker and its pointer-table line cleared.
// Warm-up fills three quarters of the entries with chains of 16 CTAs. The sets:
//   reads      back-to-back restores of the longest chains (appends only if the PCRF is empty);
//   writes     appends over the 16 CTAs (restores only when the PCRF is full);
//   mixed      an append and a restore request each with probability 1/2;
//   restarts   one-register chains saved and restored at once: a pointer update per hop.
// With the data array as a hard macro the gate-level netlist is the logic around it; the driver
// plays the macro's read data (the row the model returns), and the characterization adds the
// SRAM model's energy per row read (a chain hop) and row write (an append).
#include <fmt/format.h>

#include <optional>
#include <stdexcept>

#include "base/diag.h"
#include "gen/structures/pcrf/pcrf_ports.h"
#include "gen/structures/pcrf/pcrf_spec.h"
#include "models/pcrf_model.h"
#include "synth/activity_driver.h"
#include "synth/level_table.h"

namespace gpurf {
namespace {

constexpr size_t kPointerComponent = 2;
constexpr const char* kRestartsSet = "restarts";

class PcrfDriver final : public ActivityDriver {
 public:
  explicit PcrfDriver(const GeneratedStructure& g) : g_(g), spec_(SpecOf<PcrfSpec>(g)) {
    model_.emplace(spec_);
    // The manifest's ports, then with the data array as a black-boxed macro the cut's
    // (macro_cut.h): the driver plays the macro's read data, sram_b0_rdata_o.
    for (size_t i = 0; i < g.ports.size(); ++i) {
      const PortInfo& p = g.ports[i];
      in_.emplace_back(p.width);
      out_.emplace_back(p.width);
      def_.emplace_back(p.width);
      if (p.role != "sram_rdata")
        continue;
      if (rdata_port_ >= 0 || p.width != spec_.row_bits)
        throw ToolError(fmt::format("{}: SRAM read-data port {} is not the one {}-bit data array",
                                    g.top, p.name, spec_.row_bits));
      rdata_port_ = static_cast<int>(i);
    }
  }

  void Reset(DriveValues& v) override {
    for (auto& b : in_)
      b.clear();
    model_.emplace(spec_);
    CopyInputs(g_.ports, in_, v);
  }

  uint64_t WarmupCycles() const override {
    return static_cast<uint64_t>(spec_.entries) * 3 / 4 + 4;
  }
  void Warmup(uint64_t cycle, ActivityRng& rng, DriveValues& v) override {
    Idle();
    if (cycle >= 2)  // two cycles of reset-released idle first
      Append(static_cast<int>(cycle % static_cast<uint64_t>(Ctas())), rng);
    AccessCounts ignored(3);
    Cycle(v, ignored);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    Idle();
    const int free = model_->free_count();
    const bool walking = model_->walking();
    if (set == kReadsSet) {
      if (free == spec_.entries)
        Append(static_cast<int>(rng() % static_cast<uint64_t>(Ctas())), rng);
      else if (!walking)
        Restore(Longest());
    } else if (set == kWritesSet) {
      if (free > 0)
        Append(static_cast<int>(rng() % static_cast<uint64_t>(Ctas())), rng);
      else if (!walking)
        Restore(Longest());
    } else if (set == kMixedSet) {
      if (rng() % 2 == 0)
        Append(static_cast<int>(rng() % static_cast<uint64_t>(Ctas())), rng);
      if (rng() % 2 == 0 && !walking)
        Restore(static_cast<int>(rng() % static_cast<uint64_t>(Ctas())));
    } else if (set == kRestartsSet) {
      // CTA slots beyond the warm chains hold one register each, saved and restored at once.
      const int spare = spec_.ctas - Ctas();
      const int cta = Ctas() + static_cast<int>(rng() % static_cast<uint64_t>(spare));
      if (free > 0)
        Append(cta, rng);
      if (!walking) {
        int one = -1;
        for (int c = Ctas(); c < spec_.ctas && one < 0; ++c) {
          if (!model_->Chain(c).empty())
            one = c;
        }
        if (one >= 0)
          Restore(one);
      }
    }
    Cycle(v, counts);
  }

  std::vector<StimulusSet> ExtraSets() const override { return {kRestartsSet}; }

  std::vector<AccessComponent> Components() const override {
    return {{"read",
             "chain hop: one restored entry (tag read, next pointer followed, row read, entry "
             "freed)",
             ""},
            {"write",
             "tag+row write: one append (tag and row written, old tail relinked, free bit "
             "cleared, pointer-table line grown)",
             ""},
            {"pointer_update",
             "pointer update of a restore: a CTA's head and count to the walker, its line "
             "cleared",
             ""}};
  }

 private:
  // CTA slots of the warm chains: half the slots, at most 16, leaving the rest for restarts.
  int Ctas() const { return std::max(1, std::min(16, spec_.ctas / 2)); }

  int Longest() const {
    int best = 0;
    for (int c = 0; c < spec_.ctas; ++c) {
      if (model_->Chain(c).size() > model_->Chain(best).size())
        best = c;
    }
    return best;
  }

  void Idle() {
    in_[PcrfPort::kRstN] = Bits(1, 1);
    in_[PcrfPort::kAppValid] = Bits(1, 0);
    in_[PcrfPort::kRsValid] = Bits(1, 0);
    in_[PcrfPort::kOutReady] = Bits(1, 1);
  }

  void Append(int cta, ActivityRng& rng) {
    in_[PcrfPort::kAppValid] = Bits(1, 1);
    in_[PcrfPort::kAppCta].set(0, spec_.cta_bits, static_cast<uint64_t>(cta));
    in_[PcrfPort::kAppWarp].set(0, spec_.warp_bits, rng() % static_cast<uint64_t>(spec_.warps));
    in_[PcrfPort::kAppReg].set(0, spec_.reg_bits, rng() % static_cast<uint64_t>(spec_.regs));
    Bits& d = in_[PcrfPort::kAppData];
    for (int w = 0; w < d.num_words(); ++w)
      d.data()[w] = rng();
    d.canonicalize();
  }

  void Restore(int cta) {
    in_[PcrfPort::kRsValid] = Bits(1, 1);
    in_[PcrfPort::kRsCta].set(0, spec_.cta_bits, static_cast<uint64_t>(cta));
  }

  void Cycle(DriveValues& v, AccessCounts& counts) {
    model_->Outputs(in_, out_, def_);
    if (out_[PcrfPort::kOutValid].bit(0))
      ++counts[kReadComponent];
    if (in_[PcrfPort::kAppValid].bit(0) && out_[PcrfPort::kAppReady].bit(0))
      ++counts[kWriteComponent];
    if (in_[PcrfPort::kRsValid].bit(0) && out_[PcrfPort::kRsReady].bit(0)) {
      const int cta = static_cast<int>(in_[PcrfPort::kRsCta].get(0, spec_.cta_bits));
      if (!model_->Chain(cta).empty())
        ++counts[kPointerComponent];
    }
    model_->Clock(in_);
    if (!model_->Failure().empty())
      throw std::logic_error(g_.top + ": pcrf driver broke the model: " + model_->Failure());
    // The row read at this edge shows on the macro's output in the next cycle (and holds).
    if (rdata_port_ >= 0 && model_->Output())
      in_[static_cast<size_t>(rdata_port_)] = model_->Output()->reg.data;
    CopyInputs(g_.ports, in_, v);
  }

  const GeneratedStructure g_;
  const PcrfSpec spec_;
  std::optional<PcrfModel> model_;  // rebuilt at reset
  PortValues in_, out_, def_;
  int rdata_port_ = -1;  // the macro cut's read-data input, or -1 (flip-flop data array)
};

// The per-level table: with the data array as a hard macro, its row (SRAM model, per row read
// and row write) and the per-access total (chain hop = row read + logic, append = row write +
// logic); the logic's gate-level row (tags, pointer table, free-space monitor, walker; with a
// flip-flop data array the whole PCRF); and the pointer update's own row.
void PcrfRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  if (r.synth.macros.empty()) {
    out.push_back(GateLevelRow(r, "PCRF (flip-flop data array)"));
  } else {
    AppendMacroLevelRows(r,
                         {"PCRF data array", "one row read (a chain hop's register)",
                          "one row write (an append's register)",
                          "PCRF logic (tags, pointer table, free-space monitor)",
                          "PCRF per access (data array + logic)"},
                         out);
  }
  out.push_back(ComponentLevelRow(r, "PCRF pointer update", "pointer_update"));
}

}  // namespace

GPURF_REGISTER(LevelRowsFamily, pcrf_rows, "pcrf", LevelRowsFamily{PcrfRows})
GPURF_REGISTER(ActivityFamily, pcrf, "pcrf", DriverFamily<PcrfDriver>("pcrf-driver-v2"))

}  // namespace gpurf
