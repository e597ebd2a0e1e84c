// The software-managed operand register files (orf-l1, orf-l0; gen/structures/orf) in the
// characterization layer: their activity driver and their rows of the per-level table.
#include <fmt/format.h>

#include "base/diag.h"
#include "synth/activity_driver.h"
#include "synth/level_table.h"

namespace gpurf {
namespace {

// Drives a software-managed ORF level (orf-l1, orf-l0; gen/structures/orf): rows are addressed by
// (active slot, entry) from the instruction, with no tags. Reads draw a uniformly random slot and
// entry (in a split L0, read port k reads operand-slot bank k, as the datapath does); writes a
// uniformly random slot and entry with random data. The invalidation port is a checker input
// (descheduling) and stays idle: the ORF's storage does not see it.
class OrfDriver final : public ActivityDriver {
 public:
  OrfDriver(const GeneratedStructure& g, int slots, int entries, bool split)
      : slots_(slots), entries_(entries), split_(split) {
    for (size_t i = 0; i < g.ports.size(); ++i) {
      const PortInfo& p = g.ports[i];
      const int idx = static_cast<int>(i);
      if (p.dir == PortDir::kOutput || p.role == "clock")
        continue;
      if (p.role == "reset_n")
        reset_n_.push_back(idx);
      else if (p.role == "write_enable")
        we_ = idx;
      else if (p.role == "write_slot")
        wslot_ = idx;
      else if (p.role == "write_entry")
        wentry_ = idx;
      else if (p.role == "write_data")
        wdata_ = idx;
      else if (p.role == "read_enable")
        re_ = idx;
      else if (p.role == "read_slot")
        rslot_ = idx;
      else if (p.role == "read_entry")
        rentry_ = idx;
      else if (p.role == "invalidate" || p.role == "invalidate_slot")
        idle_.push_back(idx);
      else
        throw ToolError(
            fmt::format("{} ({}): input port {} has role '{}', which the ORF activity "
                        "driver does not drive",
                        g.top, g.kind, p.name, p.role));
    }
    if (we_ < 0 || wslot_ < 0 || wentry_ < 0 || wdata_ < 0 || re_ < 0 || rslot_ < 0 || rentry_ < 0)
      throw ToolError(fmt::format("{} ({}): ORF port roles incomplete", g.top, g.kind));
    reads_ = g.ports[static_cast<size_t>(rslot_)].count;
    sw_ = g.ports[static_cast<size_t>(wslot_)].slice_width();
    ew_ = g.ports[static_cast<size_t>(wentry_)].slice_width();
    rsw_ = g.ports[static_cast<size_t>(rslot_)].slice_width();
    rew_ = g.ports[static_cast<size_t>(rentry_)].slice_width();
    dw_ = g.ports[static_cast<size_t>(wdata_)].slice_width();
  }

  void Reset(DriveValues& v) override {
    for (auto& w : v)
      std::fill(w.begin(), w.end(), 0);
  }
  uint64_t WarmupCycles() const override { return static_cast<uint64_t>(slots_ * entries_); }
  void Warmup(uint64_t cycle, ActivityRng& rng, DriveValues& v) override {
    Release(v);
    const auto row = static_cast<int>(cycle);
    Write(v, rng, row / entries_, row % entries_);
    SetBits(v[static_cast<size_t>(re_)], 0, reads_, 0);
  }
  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    Release(v);
    const bool mixed = set == kMixedSet;
    const bool reads = set == kReadsSet;
    for (int r = 0; r < reads_; ++r) {
      const bool on = reads || (mixed && (rng() & 1U));
      SetBits(v[static_cast<size_t>(re_)], r, 1, on ? 1 : 0);
      if (on) {
        SetBits(v[static_cast<size_t>(rslot_)], r * rsw_, rsw_, Pick(rng, slots_));
        SetBits(v[static_cast<size_t>(rentry_)], r * rew_, rew_,
                split_ ? static_cast<uint64_t>(r) : Pick(rng, entries_));
        ++counts[kReadComponent];
      }
    }
    const bool wr = set == kWritesSet || (mixed && (rng() & 1U));
    SetBits(v[static_cast<size_t>(we_)], 0, 1, wr ? 1 : 0);
    if (wr) {
      Write(v, rng, static_cast<int>(Pick(rng, slots_)), static_cast<int>(Pick(rng, entries_)));
      ++counts[kWriteComponent];
    }
  }
  std::vector<AccessComponent> Components() const override {
    return {{"read",
             split_ ? "one operand read of a random slot's entry in its operand-slot bank"
                    : "one operand read of a random (slot, entry)",
             ""},
            {"write", "one result write of random data to a random (slot, entry)", ""}};
  }

 private:
  void Release(DriveValues& v) {
    for (const int r : reset_n_)
      SetBits(v[static_cast<size_t>(r)], 0, 1, 1);
    for (const int i : idle_)
      std::fill(v[static_cast<size_t>(i)].begin(), v[static_cast<size_t>(i)].end(), 0);
  }
  void Write(DriveValues& v, ActivityRng& rng, int slot, int entry) {
    SetBits(v[static_cast<size_t>(we_)], 0, 1, 1);
    SetBits(v[static_cast<size_t>(wslot_)], 0, sw_, static_cast<uint64_t>(slot));
    SetBits(v[static_cast<size_t>(wentry_)], 0, ew_, static_cast<uint64_t>(entry));
    RandomBits(v[static_cast<size_t>(wdata_)], 0, dw_, rng);
  }
  static uint64_t Pick(ActivityRng& rng, int n) {
    return std::uniform_int_distribution<uint64_t>(0, static_cast<uint64_t>(n - 1))(rng);
  }

  int slots_, entries_;
  bool split_;
  std::vector<int> reset_n_, idle_;
  int we_ = -1, wslot_ = -1, wentry_ = -1, wdata_ = -1, re_ = -1, rslot_ = -1, rentry_ = -1;
  int reads_ = 0, sw_ = 0, ew_ = 0, rsw_ = 0, rew_ = 0, dw_ = 0;
};

int IntParameter(const GeneratedStructure& g, const char* name) {
  if (!g.parameters.contains(name) || !g.parameters[name].is_number_integer())
    throw ToolError(fmt::format("{} ({}): no integer '{}' parameter", g.top, g.kind, name));
  return g.parameters[name].get<int>();
}

}  // namespace

GPURF_REGISTER(ActivityFamily, orf_l1, "orf-l1",
               (ActivityFamily{[](const GeneratedStructure& g) -> std::unique_ptr<ActivityDriver> {
                                 return std::make_unique<OrfDriver>(
                                     g, IntParameter(g, "active_warps"),
                                     IntParameter(g, "entries_per_thread"), false);
                               },
                               ""}))
GPURF_REGISTER(ActivityFamily, orf_l0, "orf-l0",
               (ActivityFamily{[](const GeneratedStructure& g) -> std::unique_ptr<ActivityDriver> {
                                 const bool split = g.parameters.value("split", false);
                                 return std::make_unique<OrfDriver>(
                                     g, IntParameter(g, "active_warps"), split ? 3 : 1, split);
                               },
                               ""}))

GPURF_REGISTER(LevelRowsFamily, orf_l1_rows, "orf-l1",
               (LevelRowsFamily{[](const ModuleCharacterization& r, std::vector<LevelRow>& out) {
                 out.push_back(GateLevelRow(r, "L1 ORF"));
               }}))
GPURF_REGISTER(LevelRowsFamily, orf_l0_rows, "orf-l0",
               (LevelRowsFamily{[](const ModuleCharacterization& r, std::vector<LevelRow>& out) {
                 out.push_back(GateLevelRow(r, "L0 ORF"));
               }}))

}  // namespace gpurf
