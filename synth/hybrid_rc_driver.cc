// The hybrid register cache / scratchpad (gen/structures/hybrid_rc) in the characterization
// layer: its activity driver.
//
// The driver runs the golden model (models/hybrid_rc_model.h) on the inputs it drives and picks
// its RC registers from the model's contents, so every RC read it offers hits, every RC write
// it means as a hit hits and every write it means as an eviction evicts, whatever the order of
// the sets. The access components, each with what one access means:
//   read         RSP read: one read port reading a slot;
//   write        RSP write: one write port writing a slot;
//   rc_hit_read  RC hit read: one read port's tag check that hits, the line read, its LRU touch;
//   rc_write     RC write: one write port's tag check and line write (hit or allocation);
//   rc_fill      RC fill (read allocation): one background fill of an RSP slot through the RC
//                (its lookup and the slot's write; organizations with transfers only);
//   write_back   write-back: one line's value sent to the MRF (a write's LRU victim).
// Warm-up writes every RSP slot and fills every RC set. The sets:
//   reads        six RSP reads per cycle;            writes      two RSP writes per cycle;
//   rc_hits      six RC reads of resident registers; rc_writes   two RC writes that hit;
//   rc_fills     one fill per cycle (of a resident register when the fill keeps it, hierarchical;
//                of one the RC does not hold when a hit would evict it, parallel-evict);
//   write_backs  two RC writes of registers not resident, into full sets (write + write-back);
//   mixed        every port at random among the above.
// Live-outs (an RSP read plus an RC write, or a write-back beside the RC) are not driven: their
// energy is that of the components they are made of.
#include <fmt/format.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "gen/structures/hybrid_rc/hybrid_rc_ports.h"
#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"
#include "models/hybrid_rc_model.h"
#include "synth/activity_driver.h"
#include "synth/level_table.h"

namespace gpurf {
namespace {

using P = HybridRcPort;
constexpr size_t kRcHitRead = 2, kRcWrite = 3, kRcFill = 4, kWriteBack = 5;
constexpr const char* kRcHitsSet = "rc_hits";
constexpr const char* kRcWritesSet = "rc_writes";
constexpr const char* kRcFillsSet = "rc_fills";
constexpr const char* kWriteBacksSet = "write_backs";

class HybridRcDriver final : public ActivityDriver {
 public:
  explicit HybridRcDriver(const GeneratedStructure& g) : g_(g), spec_(SpecOf<HybridRcSpec>(g)) {
    // Its stimulus sets price the RSP's and the RC's accesses of a hybrid with a power-of-two
    // number of RC sets (register k of a set is a bit field); the RC-only and RSP-only shapes and
    // remainder set indices are not characterized yet.
    if (!spec_.has_rc() || !spec_.has_rsp() || !spec_.sets_pow2)
      throw ToolError(fmt::format(
          "{}: the hybrid-rc activity driver characterizes an RC and an RSP with a power-of-two "
          "number of RC sets; this shape has {} RC sets and {} RSP slots",
          g.top, spec_.sets, spec_.rsp_slots));
    model_.emplace(spec_);
    in_ = out_ = def_ = HybridRcPortTable(spec_).ZeroValues();
  }

  void Reset(DriveValues& v) override {
    for (auto& b : in_)
      b.clear();
    model_.emplace(spec_);
    CopyInputs(g_.ports, in_, v);
  }

  uint64_t WarmupCycles() const override {
    return static_cast<uint64_t>(std::max(spec_.rsp_slots, spec_.rc_lines) / 2 + 2);
  }
  void Warmup(uint64_t cycle, ActivityRng& rng, DriveValues& v) override {
    Clear();
    for (int q = 0; q < HybridRcSpec::kWritePorts; ++q) {
      const int k = static_cast<int>(cycle) * HybridRcSpec::kWritePorts + q;
      if (k < spec_.rsp_slots)
        RspWrite(q, k, rng);
      else if (k - spec_.rsp_slots < spec_.rc_lines)
        RcWriteOf(q, WarmRegister(k - spec_.rsp_slots), rng);
    }
    AccessCounts ignored(Components().size());
    Cycle(v, ignored);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    Clear();
    if (set == kIdleSet) {
      Cycle(v, counts);
      return;
    }
    const bool mixed = set == kMixedSet;
    for (int p = 0; p < HybridRcSpec::kReadPorts; ++p) {
      const uint64_t pick = mixed ? rng() % 3 : 9;
      if (set == kReadsSet || pick == 0)
        RspRead(p, rng);
      else if (set == kRcHitsSet || pick == 1)
        RcRead(p, rng);
    }
    for (int q = 0; q < HybridRcSpec::kWritePorts; ++q) {
      const uint64_t pick = mixed ? rng() % 4 : 9;
      if (set == kWritesSet || pick == 0)
        RspWrite(q, static_cast<int>(rng() % static_cast<uint64_t>(spec_.rsp_slots)), rng);
      else if (set == kRcWritesSet || pick == 1)
        RcWriteOf(q, Resident(rng), rng);
      else if (set == kWriteBacksSet || pick == 2)
        RcWriteOf(q, Fresh(rng), rng);
    }
    if (spec_.transfers() && (set == kRcFillsSet || (mixed && rng() % 2 == 0)))
      Fill(rng);
    Cycle(v, counts);
  }

  std::vector<StimulusSet> ExtraSets() const override {
    std::vector<StimulusSet> sets = {kRcHitsSet, kRcWritesSet};
    if (spec_.transfers())
      sets.push_back(kRcFillsSet);
    sets.push_back(kWriteBacksSet);
    return sets;
  }

  std::vector<AccessComponent> Components() const override {
    std::vector<AccessComponent> c = {
        {"read", "RSP read: one read port reading a slot", ""},
        {"write", "RSP write: one write port writing a slot", ""},
        {"rc_hit_read", "RC hit read: one read port's tag check that hits, line read, LRU touch",
         ""},
        {"rc_write", "RC write: one write port's tag check and line write (hit or allocation)", ""},
        {"rc_fill",
         "RC fill: one background fill of an RSP slot through the RC (lookup and slot write)", ""},
        {"write_back", "write-back: one RC line's value sent to the MRF (an LRU victim)", ""},
    };
    if (!spec_.transfers())
      c.erase(c.begin() + kRcFill);
    return c;
  }

 private:
  void Clear() {
    in_[P::kRstN] = Bits(1, 1);
    in_[P::kRdValid].clear();
    in_[P::kWrValid].clear();
    in_[P::kXfValid].clear();
  }

  // Register k of the warm-up: set k mod sets, the (k / sets)-th register of that set counting
  // over the tag (warp, then the register's high bits).
  std::pair<int, int> WarmRegister(int k) const {
    const int set = k % spec_.sets, j = k / spec_.sets;
    const int highs = 1 << (spec_.reg_bits - spec_.set_bits);
    const int warp = j / highs, high = j % highs;
    return {warp, (high << spec_.set_bits) | ((set ^ warp) & (spec_.sets - 1))};
  }
  // A register the RC holds, from the model.
  std::pair<int, int> Resident(ActivityRng& rng) const {
    for (int tries = 0; tries < 4 * spec_.sets; ++tries) {
      const int set = static_cast<int>(rng() % static_cast<uint64_t>(spec_.sets));
      const auto regs = model_->rc().SetContents(set);
      if (!regs.empty())
        return regs[rng() % regs.size()];
    }
    throw std::logic_error(g_.top + ": hybrid-rc driver found no resident register");
  }
  // A register the RC does not hold and write 0 does not write this cycle.
  std::pair<int, int> Fresh(ActivityRng& rng) const {
    for (;;) {
      const int warp = static_cast<int>(rng() % static_cast<uint64_t>(spec_.warps));
      const int reg = static_cast<int>(rng() % (uint64_t{1} << spec_.reg_bits));
      if (!model_->rc().Holds(warp, reg) && !WrittenThisCycle(warp, reg))
        return {warp, reg};
    }
  }
  bool WrittenThisCycle(int warp, int reg) const {
    return in_[P::kWrValid].bit(0) && !in_[P::kWrRsp].bit(0) &&
           static_cast<int>(in_[P::kWrWarp].get(0, spec_.warp_bits)) == warp &&
           static_cast<int>(in_[P::kWrReg].get(0, spec_.reg_bits)) == reg;
  }

  void Data(int port, int lsb, ActivityRng& rng) {
    for (int i = 0; i < spec_.width; i += 64)
      in_[port].set(lsb + i, std::min(64, spec_.width - i), rng());
  }
  void RspRead(int p, ActivityRng& rng) {
    in_[P::kRdValid].set_bit(p, true);
    in_[P::kRdRsp].set_bit(p, true);
    in_[P::kRdLast].set_bit(p, false);
    in_[P::kRdSlot].set(p * spec_.slot_bits, spec_.slot_bits,
                        rng() % static_cast<uint64_t>(spec_.rsp_slots));
  }
  void RcRead(int p, ActivityRng& rng) {
    const auto [w, r] = Resident(rng);
    in_[P::kRdValid].set_bit(p, true);
    in_[P::kRdRsp].set_bit(p, false);
    in_[P::kRdLast].set_bit(p, false);
    in_[P::kRdWarp].set(p * spec_.warp_bits, spec_.warp_bits, static_cast<uint64_t>(w));
    in_[P::kRdReg].set(p * spec_.reg_bits, spec_.reg_bits, static_cast<uint64_t>(r));
  }
  void RspWrite(int q, int slot, ActivityRng& rng) {
    in_[P::kWrValid].set_bit(q, true);
    in_[P::kWrRsp].set_bit(q, true);
    in_[P::kWrSlot].set(q * spec_.slot_bits, spec_.slot_bits, static_cast<uint64_t>(slot));
    Data(P::kWrData, q * spec_.width, rng);
  }
  void RcWriteOf(int q, std::pair<int, int> reg, ActivityRng& rng) {
    in_[P::kWrValid].set_bit(q, true);
    in_[P::kWrRsp].set_bit(q, false);
    in_[P::kWrWarp].set(q * spec_.warp_bits, spec_.warp_bits, static_cast<uint64_t>(reg.first));
    in_[P::kWrReg].set(q * spec_.reg_bits, spec_.reg_bits, static_cast<uint64_t>(reg.second));
    Data(P::kWrData, q * spec_.width, rng);
  }
  void Fill(ActivityRng& rng) {
    const auto [w, r] = spec_.hierarchical() ? Resident(rng) : Fresh(rng);
    in_[P::kXfValid] = Bits(1, 1);
    in_[P::kXfOp] = Bits(1, HybridRcSpec::kFill);
    in_[P::kXfSlot].set(0, spec_.slot_bits, rng() % static_cast<uint64_t>(spec_.rsp_slots));
    in_[P::kXfWarp].set(0, spec_.warp_bits, static_cast<uint64_t>(w));
    in_[P::kXfReg].set(0, spec_.reg_bits, static_cast<uint64_t>(r));
    Data(P::kXfData, 0, rng);
  }

  void Cycle(DriveValues& v, AccessCounts& counts) {
    model_->Outputs(in_, out_, def_);
    const size_t fill = kRcFill, wb = spec_.transfers() ? kWriteBack : kWriteBack - 1;
    for (int p = 0; p < HybridRcSpec::kReadPorts; ++p) {
      if (!in_[P::kRdValid].bit(p))
        continue;
      if (in_[P::kRdRsp].bit(p))
        ++counts[kReadComponent];
      else if (out_[P::kRdHit].bit(p))
        ++counts[kRcHitRead];
    }
    for (int q = 0; q < HybridRcSpec::kWritePorts; ++q) {
      if (in_[P::kWrValid].bit(q))
        ++counts[in_[P::kWrRsp].bit(q) ? kWriteComponent : kRcWrite];
    }
    if (spec_.transfers() && in_[P::kXfValid].bit(0))
      ++counts[fill];
    for (int c = 0; c < HybridRcSpec::kWbChannels; ++c) {
      if (out_[P::kWbValid].bit(c))
        ++counts[wb];
    }
    model_->Clock(in_);
    if (!model_->Failure().empty())
      throw std::logic_error(g_.top + ": hybrid-rc driver broke the model: " + model_->Failure());
    CopyInputs(g_.ports, in_, v);
  }

  const GeneratedStructure g_;
  const HybridRcSpec spec_;
  std::optional<HybridRcCycleModel> model_;  // rebuilt at reset
  PortValues in_, out_, def_;
};

// The per-level table: the RSP row (its read and write), the RC row (hit read, write), and rows
// of their own for the fill through the RC and the write-back, each with its component's meaning.
void HybridRcRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  out.push_back(GateLevelRow(r, "hybrid RSP"));
  out.push_back(ComponentLevelRow(r, "hybrid RC", "rc_hit_read", "rc_write"));
  if (r.Component("rc_fill") != nullptr)  // organizations with transfers
    out.push_back(ComponentLevelRow(r, "hybrid RC fill", "rc_fill"));
  out.push_back(ComponentLevelRow(r, "hybrid write-back", "write_back"));
}

}  // namespace

GPURF_REGISTER(LevelRowsFamily, hybrid_rc_rows, "hybrid-rc", LevelRowsFamily{HybridRcRows})
GPURF_REGISTER(ActivityFamily, hybrid_rc, "hybrid-rc",
               DriverFamily<HybridRcDriver>("hybrid-rc-driver-v1"))

}  // namespace gpurf
