// The renaming table (gen/structures/renaming_table) in the characterization layer: its activity
// driver.
//
// The driver runs the golden model (models/renaming_table_model.h) on the inputs it drives, so it
// counts what the table did, not what was offered, and keeps the free physical registers the way
// the availability vectors would (an id leaves when the table maps it, comes back when a free
// port releases it). N = 0: every register is renamed, so every operand goes through the table.
// The operands of one request are in distinct banks, so a request is served in one cycle. The
// access components, each with what one access means (the lookup, allocate, release):
//   read     lookup: one served operand that reads its entry (a source, or a destination that
//            already has a mapping);
//   write    allocate: one map-on-first-write (a destination without a mapping takes a free id);
//   release  release: one mapping released (a pir source, a pbr list or a warp exit entry), its
//            entry invalidated and its id on a free port.
// Warm-up maps every other entry of every warp. The sets:
//   reads     three mapped sources, no release, no destination: lookups only;
//   writes    allocations only: a destination without a mapping, while the table has an
//             unmapped entry (then idle requests);
//   mixed     sources (some with pir) and a destination, each present at random;
//   releases  releases only: pbr lists of up to four mapped registers of a warp (one per bank),
//             while any entry is mapped (then idle requests).
// Allocations and releases balance in any steady state, so only sets that fill and drain the
// table, each with one kind of access, let the fit tell the two apart.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>

#include "gen/structures/renaming_table/renaming_table_ports.h"
#include "gen/structures/renaming_table/renaming_table_spec.h"
#include "models/renaming_table_model.h"
#include "synth/activity_driver.h"
#include "synth/level_table.h"

namespace gpurf {
namespace {

using P = RenamingTablePort;
using S = RenamingTableSpec;

constexpr size_t kReleaseComponent = 2;
constexpr const char* kReleasesSet = "releases";

class RenamingTableDriver final : public ActivityDriver {
 public:
  explicit RenamingTableDriver(const GeneratedStructure& g)
      : g_(g), spec_(SpecOf<RenamingTableSpec>(g)) {
    in_ = out_ = def_ = RenamingTablePortTable(spec_).ZeroValues();
    Restart();
  }

  void Reset(DriveValues& v) override {
    for (auto& b : in_)
      b.clear();
    Restart();
    CopyInputs(g_.ports, in_, v);
  }

  uint64_t WarmupCycles() const override {
    return static_cast<uint64_t>(spec_.warps) * static_cast<uint64_t>((spec_.window + 1) / 2) + 4;
  }
  void Warmup(uint64_t cycle, ActivityRng& /*rng*/, DriveValues& v) override {
    const uint64_t half = static_cast<uint64_t>((spec_.window + 1) / 2);
    const int warp = static_cast<int>(cycle / half);
    Request(S::kInstr, std::min(warp, spec_.warps - 1));
    if (warp < spec_.warps)
      Destination(2 * static_cast<int>(cycle % half));
    AccessCounts ignored(3);
    Cycle(v, ignored);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    in_[P::kReqValid] = Bits(1, 0);
    if (set != kIdleSet && model_->Ready()) {
      const int warp = static_cast<int>(rng() % static_cast<uint64_t>(spec_.warps));
      if (set == kReadsSet) {
        Request(S::kInstr, warp);
        Sources(warp, 3, 0.0, rng);
      } else if (set == kWritesSet) {
        // Allocations only, while a warp has an unmapped entry and the pool a free id.
        const int w = WarpWhere(rng, [&](int x) { return Unmapped(x, -1, rng) >= 0; });
        if (w >= 0) {
          Request(S::kInstr, w);
          Destination(Unmapped(w, -1, rng));
        }
      } else if (set == kReleasesSet) {
        // Releases only: pbr lists, while any warp holds a mapping.
        const int w = WarpWhere(rng, [&](int x) { return !model_->map().Mapped(x).empty(); });
        if (w >= 0) {
          Request(S::kRelease, w);
          ReleaseList(w, rng);
        }
      } else {  // mixed
        Request(S::kInstr, warp);
        const int bank = Sources(warp, static_cast<int>(rng() % 4), 0.3, rng);
        if (rng() % 2 == 0)
          Destination(Unmapped(warp, bank, rng));
      }
    }
    Cycle(v, counts);
  }

  std::vector<StimulusSet> ExtraSets() const override { return {kReleasesSet}; }

  std::vector<AccessComponent> Components() const override {
    return {
        {"read",
         "lookup: one served operand that reads its entry (a source, or a destination "
         "already mapped)",
         ""},
        {"write", "allocate: one map-on-first-write (a destination takes a free physical id)", ""},
        {"release",
         "release: one mapping released (pir, pbr list or warp exit), its id on a free port", ""}};
  }

 private:
  void Restart() {
    model_.emplace(spec_);
    pool_.clear();
    for (int id = 0; id < spec_.phys_regs; ++id)
      pool_.insert(id);
    in_[P::kRstN] = Bits(1, 1);
    in_[P::kExempt] = Bits(spec_.exempt_bits, 0);
  }

  void Request(int op, int warp) {
    for (int p = P::kReqValid; p <= P::kRelMask; ++p)
      in_[p].clear();
    in_[P::kRstN] = Bits(1, 1);
    in_[P::kReqValid] = Bits(1, 1);
    in_[P::kReqOp] = Bits(2, static_cast<uint64_t>(op));
    in_[P::kReqWarp] = Bits(spec_.warp_bits, static_cast<uint64_t>(warp));
  }

  // A warp for which `want` holds: a random one, else the first from a random start (-1: none).
  template <typename Pred>
  int WarpWhere(ActivityRng& rng, Pred want) const {
    const int start = static_cast<int>(rng() % static_cast<uint64_t>(spec_.warps));
    for (int i = 0; i < spec_.warps; ++i) {
      const int w = (start + i) % spec_.warps;
      if (want(w))
        return w;
    }
    return -1;
  }

  // Up to `n` mapped sources of `warp` in distinct banks, each with the pir bit at probability
  // `pir`; returns a bank none of them uses (-1 if all are used).
  int Sources(int warp, int n, double pir, ActivityRng& rng) {
    const std::vector<int> mapped = model_->map().Mapped(warp);
    std::vector<bool> used(static_cast<size_t>(spec_.banks), false);
    int p = 0;
    for (int tries = 0; p < n && tries < 16 && !mapped.empty(); ++tries) {
      const int reg = mapped[rng() % mapped.size()];
      const int bank = spec_.BankOfEntry(reg);
      if (used[bank])
        continue;
      used[bank] = true;
      in_[P::kSrcValid].set_bit(p, true);
      in_[P::kSrcReg].set(p * spec_.reg_bits, spec_.reg_bits, static_cast<uint64_t>(reg));
      in_[P::kSrcRelease].set_bit(p, std::bernoulli_distribution(pir)(rng));
      ++p;
    }
    for (int b = 0; b < spec_.banks; ++b) {
      if (!used[b])
        return b;
    }
    return -1;
  }

  // An unmapped register of `warp`, in `bank` if possible (bank < 0: any); -1 if none.
  int Unmapped(int warp, int bank, ActivityRng& rng) const {
    const std::vector<int> mapped = model_->map().Mapped(warp);
    const std::set<int> held(mapped.begin(), mapped.end());
    std::vector<int> free;
    for (int r = 0; r < spec_.window; ++r) {
      if (!held.contains(r) && (bank < 0 || spec_.BankOfEntry(r) == bank))
        free.push_back(r);
    }
    return free.empty() ? -1 : free[rng() % free.size()];
  }

  void Destination(int reg) {
    if (reg < 0 || pool_.empty())
      return;
    in_[P::kDstValid] = Bits(1, 1);
    in_[P::kDstReg] = Bits(spec_.reg_bits, static_cast<uint64_t>(reg));
    in_[P::kDstPhys] = Bits(spec_.phys_bits, static_cast<uint64_t>(*pool_.begin()));
  }

  // A pbr list: up to one mapped register of `warp` per bank.
  void ReleaseList(int warp, ActivityRng& rng) {
    std::vector<int> mapped = model_->map().Mapped(warp);
    std::shuffle(mapped.begin(), mapped.end(), rng);
    std::vector<bool> used(static_cast<size_t>(spec_.banks), false);
    for (int reg : mapped) {
      const int bank = spec_.BankOfEntry(reg);
      if (!used[bank]) {
        used[bank] = true;
        in_[P::kRelMask].set_bit(reg, true);
      }
    }
  }

  void Cycle(DriveValues& v, AccessCounts& counts) {
    model_->Outputs(in_, out_, def_);
    for (int p = 0; p < S::kSources; ++p)
      counts[kReadComponent] += out_[P::kSrcServed].bit(p);
    if (out_[P::kDstServed].bit(0)) {
      if (out_[P::kDstAlloc].bit(0)) {
        ++counts[kWriteComponent];
        pool_.erase(static_cast<int>(out_[P::kDstPhysOut].get(0, spec_.phys_bits)));
      } else {
        ++counts[kReadComponent];
      }
    }
    for (int b = 0; b < spec_.banks; ++b) {
      if (!out_[P::kFreeValid].bit(b))
        continue;
      ++counts[kReleaseComponent];
      pool_.insert(static_cast<int>(out_[P::kFreePhys].get(b * spec_.phys_bits, spec_.phys_bits)));
    }
    model_->Clock(in_);
    if (!model_->Failure().empty())
      throw std::logic_error(g_.top +
                             ": renaming-table driver broke the model: " + model_->Failure());
    CopyInputs(g_.ports, in_, v);
  }

  const GeneratedStructure g_;
  const RenamingTableSpec spec_;
  std::optional<RenamingTableModel> model_;  // rebuilt at reset
  std::set<int> pool_;                       // free physical ids
  PortValues in_, out_, def_;
};

// The per-level table: the lookup and allocate row (E_read, E_write) and a row of its own for
// releases, each with its component's meaning.
void RenamingTableRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  out.push_back(GateLevelRow(r, "renaming table"));
  out.push_back(ComponentLevelRow(r, "renaming table release", "release"));
}

}  // namespace

GPURF_REGISTER(LevelRowsFamily, renaming_table_rows, "renaming-table",
               LevelRowsFamily{RenamingTableRows})
GPURF_REGISTER(ActivityFamily, renaming_table, "renaming-table",
               DriverFamily<RenamingTableDriver>("renaming-table-driver-v2"))

}  // namespace gpurf
