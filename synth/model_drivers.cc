// Activity drivers for the structures whose ports are handshakes rather than plain read and write
// ports: the banked MRF with its operand collectors, the hardware register file cache and the
// two-level warp scheduler. model_drivers.cc registers them (ActivityFamily, activity_driver.h)
// with their rows of the per-level table (LevelRowsFamily, level_table.h); nothing calls them by
// name.
//
// The gate-level simulator gives a driver no outputs, so each of these drivers runs the
// structure's golden model (models/) on the inputs it drives, one Evaluate/Clock per cycle.
// The model is proved equal to the RTL on every output every cycle by `gpurf verify`, so it
// tells the driver what the netlist shows (ready, grants, hits, activations) without probing it:
// an offered request is held until the model says it was accepted, and accesses are counted from
// what the structure did, not from what was offered.
//
// The access components each counts (AccessComponent, with their meanings in the reports):
//   mrf             read  = one operand read: a bank read granted to a collector slot (issue ->
//                           collector -> bank read -> operand buffer -> dispatch); random
//                           (warp, register) operands, so bank conflicts happen at their
//                           natural rate;
//                   write = one accepted write-back (one bank write).
//                   With SRAM macros the driver also plays the banks (see CutSramMacros in
//                   macro_cut.h): the read data of a bank read shows on the cut's
//                   `sram_b<k>_rdata_o` input one cycle after the grant, from the model's
//                   register contents.
//   rfc             read  = one operand lookup that hits in L1 (its data read), beyond the tag
//                           check; `l0_read` = one that hits in L0 (two levels);
//                   `tag_check` = one operand lookup (hit or miss: every valid lookup compares
//                           the slot's tags of every level);
//                   write = one accepted result write, with the evictions (L0 -> L1 moves, L1
//                           write-backs to the MRF through the write-back register) it causes at
//                           the natural rate of random registers into a full cache.
//                   Extra sets: `misses` (every port looks up a register the slot does not
//                   hold) and, with two levels, `l0-reads` (L0 hits and misses in equal parts;
//                   `reads` then hits only in L1), so each component has a set of its own.
//   warp-scheduler  read  = one issue (a cycle in which a warp is selected);
//                   write = one activation event (a pending warp moved into a freed slot),
//                           with the deactivation and the wake that go with it in steady state.

#include <fmt/format.h>

#include <array>
#include <cstdio>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "base/diag.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "gen/structures/registry.h"
#include "gen/structures/rfc/rfc_spec.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"
#include "models/mrf_model.h"
#include "models/rfc_model.h"
#include "models/warp_scheduler_model.h"
#include "synth/activity_driver.h"
#include "synth/level_table.h"

namespace gpurf {
namespace {

uint64_t Pick(ActivityRng& rng, int n) {
  return std::uniform_int_distribution<uint64_t>(0, static_cast<uint64_t>(n - 1))(rng);
}
bool Chance(ActivityRng& rng, double p) {
  return std::uniform_real_distribution<double>(0, 1)(rng) < p;
}
Bits RandomData(ActivityRng& rng, int width) {
  Bits b(width);
  for (int i = 0; i < b.num_words(); ++i)
    b.data()[i] = rng();
  b.canonicalize();
  return b;
}

// Input port values kept as Bits (what the golden models take) and copied into the simulator's
// words every cycle.
class PortState {
 public:
  explicit PortState(const GeneratedStructure& g) : ports_(g.ports) {
    for (const auto& p : ports_)
      values_.emplace_back(p.width);
    out_ = values_;
    defined_ = values_;
  }
  PortValues& in() { return values_; }
  PortValues& out() { return out_; }
  PortValues& defined() { return defined_; }
  void CopyTo(DriveValues& v) const { CopyInputs(ports_, values_, v); }
  int Find(const std::string& name) const {
    for (size_t i = 0; i < ports_.size(); ++i)
      if (ports_[i].name == name)
        return static_cast<int>(i);
    return -1;
  }
  const std::vector<PortInfo>& ports() const { return ports_; }

 private:
  std::vector<PortInfo> ports_;
  PortValues values_, out_, defined_;
};

// ------------------------------------------------------------------------------------ MRF

class MrfDriver final : public ActivityDriver {
 public:
  explicit MrfDriver(const GeneratedStructure& g)
      : spec_(SpecOf<MrfSpec>(g)), core_(spec_), ports_(g), rdata_port_(spec_.banks, -1) {
    // The banks of a macro cut (macro_cut.h): sram_b<k>_rdata_o are inputs the driver plays.
    for (size_t i = 0; i < g.ports.size(); ++i) {
      const PortInfo& p = g.ports[i];
      if (p.role != "sram_rdata")
        continue;
      int bank = -1;
      if (std::sscanf(p.name.c_str(), "sram_b%d_", &bank) != 1 || bank < 0 || bank >= spec_.banks ||
          p.width != spec_.width)
        throw ToolError(
            fmt::format("{}: SRAM read-data port {} does not name a bank of {} x {} "
                        "bits",
                        g.top, p.name, spec_.banks, spec_.width));
      rdata_port_[static_cast<size_t>(bank)] = static_cast<int>(i);
    }
    next_rdata_.resize(static_cast<size_t>(spec_.banks));
    collector_regs_.resize(static_cast<size_t>(spec_.collectors));
  }

  void Reset(DriveValues& v) override {
    for (auto& b : ports_.in())
      b.clear();
    core_.Step({}, {}, false, true);
    ports_.CopyTo(v);
  }

  // Every (warp, register) written once, in order, with random data.
  uint64_t WarmupCycles() const override {
    return static_cast<uint64_t>(spec_.warps) * static_cast<uint64_t>(spec_.regs);
  }
  void Warmup(uint64_t cycle, ActivityRng& rng, DriveValues& v) override {
    MrfWriteBack wb;
    wb.valid = true;
    wb.warp = static_cast<int>(cycle / static_cast<uint64_t>(spec_.regs));
    wb.reg = static_cast<int>(cycle % static_cast<uint64_t>(spec_.regs));
    wb.data = RandomData(rng, spec_.width);
    pending_wb_ = wb;
    pending_issue_.reset();
    AccessCounts ignored(2);
    Cycle(v, ignored);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    // Offers: a request not accepted last cycle stays offered (valid/ready handshake).
    const bool reads = set == kReadsSet, writes = set == kWritesSet, mixed = set == kMixedSet;
    const bool issue = reads || (mixed && Chance(rng, 0.5));
    const bool wb = writes || (mixed && Chance(rng, 0.5));
    if (!reads && !writes && !mixed) {
      pending_issue_.reset();
      pending_wb_.reset();
    }
    if (!pending_issue_ && issue) {
      MrfIssue i;
      i.valid = true;
      i.tag = next_tag_++ & ((uint64_t{1} << std::min(spec_.tag_width, 63)) - 1);
      i.warp = static_cast<int>(Pick(rng, spec_.warps));
      for (int s = 0; s < 3; ++s) {
        i.src_valid[s] = true;
        i.src_reg[s] = static_cast<int>(Pick(rng, spec_.regs));
      }
      pending_issue_ = i;
    }
    if (!pending_wb_ && wb) {
      MrfWriteBack w;
      w.valid = true;
      w.warp = static_cast<int>(Pick(rng, spec_.warps));
      w.reg = static_cast<int>(Pick(rng, spec_.regs));
      w.data = RandomData(rng, spec_.width);
      pending_wb_ = w;
    }
    Cycle(v, counts);
  }

  std::vector<AccessComponent> Components() const override {
    return {{"read",
             "one operand read: a bank read granted to a collector slot (issue -> collector -> "
             "bank read -> dispatch), 3 random source registers per instruction, so bank "
             "conflicts occur at their natural rate",
             ""},
            {"write",
             "one accepted write-back of random data to a random register (one bank write)", ""}};
  }

 private:
  void Cycle(DriveValues& v, AccessCounts& counts) {
    const MrfIssue issue = pending_issue_.value_or(MrfIssue{});
    const MrfWriteBack wb = pending_wb_.value_or(MrfWriteBack{});
    // The bank outputs of this cycle: last cycle's grants.
    for (int b = 0; b < spec_.banks; ++b) {
      const int port = rdata_port_[static_cast<size_t>(b)];
      auto& next = next_rdata_[static_cast<size_t>(b)];
      if (port >= 0 && next) {
        ports_.in()[static_cast<size_t>(port)] = *next;
        next.reset();
      }
    }
    auto& in = ports_.in();
    in[MrfModel::kRstN] = Bits(1, 1);
    in[MrfModel::kIssueValid] = Bits(1, issue.valid ? 1 : 0);
    if (issue.valid) {
      in[MrfModel::kIssueTag].set(0, spec_.tag_width, issue.tag);
      in[MrfModel::kIssueWarp].set(0, spec_.warp_width, static_cast<uint64_t>(issue.warp));
      for (int s = 0; s < 3; ++s) {
        in[MrfModel::kIssueSrcValid].set_bit(s, issue.src_valid[s]);
        in[MrfModel::kIssueSrcReg].set(s * spec_.reg_width, spec_.reg_width,
                                       static_cast<uint64_t>(issue.src_reg[s]));
      }
    }
    in[MrfModel::kWbValid] = Bits(1, wb.valid ? 1 : 0);
    if (wb.valid) {
      in[MrfModel::kWbWarp].set(0, spec_.warp_width, static_cast<uint64_t>(wb.warp));
      in[MrfModel::kWbReg].set(0, spec_.reg_width, static_cast<uint64_t>(wb.reg));
      in[MrfModel::kWbData] = wb.data;
    }
    in[MrfModel::kDispReady] = Bits(1, 1);

    const MrfCore::View view = core_.Evaluate(issue, wb, false);
    for (const auto& [c, s] : view.grants) {
      const auto& [warp, regs] = collector_regs_[static_cast<size_t>(c)];
      const int reg = regs[static_cast<size_t>(s)];
      const MrfCore::Location loc = core_.Locate(warp, reg);
      next_rdata_[static_cast<size_t>(loc.bank)] =
          core_.Register(warp, reg).value_or(Bits(spec_.width));
    }
    counts[kReadComponent] += view.grants.size();
    if (issue.valid && view.issue_ready) {
      collector_regs_[static_cast<size_t>(view.alloc)] = {issue.warp, issue.src_reg};
      pending_issue_.reset();
    }
    if (wb.valid && view.wb_ready) {
      ++counts[kWriteComponent];
      pending_wb_.reset();
    }
    core_.Step(issue, wb, true, false);
    ports_.CopyTo(v);
  }

  const MrfSpec spec_;
  MrfCore core_;
  PortState ports_;
  std::vector<int> rdata_port_;                  // per bank, -1: banks in the netlist
  std::vector<std::optional<Bits>> next_rdata_;  // per bank: data of this cycle's read
  std::vector<std::pair<int, std::array<int, 3>>> collector_regs_;  // (warp, source registers)
  std::optional<MrfIssue> pending_issue_;
  std::optional<MrfWriteBack> pending_wb_;
  uint64_t next_tag_ = 0;
};

// The MRF's level-table rows: "MRF bank" (SRAM model, per bank access; area of one bank; only with
// SRAM macros), "MRF logic" (gate-level: collectors, arbitration, operand buffers; with
// flip-flop banks the whole MRF) and, with macros, "MRF per access" (bank + logic; area of the
// module with all its banks).
void MrfRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  if (r.synth.macros.empty()) {
    out.push_back(GateLevelRow(r, "MRF (flip-flop banks)"));
    return;
  }
  AppendMacroLevelRows(r,
                       {"MRF bank", "one bank read of one row", "one bank write of one row",
                        "MRF logic (collectors, arbitration)", "MRF per access (bank + logic)"},
                       out);
}

// ------------------------------------------------------------------------------------ RFC

// The RFC's own stimulus sets and components (after read and write).
constexpr const char* kMissesSet = "misses";
constexpr const char* kL0ReadsSet = "l0-reads";
constexpr const char* kTagCheck = "tag_check";
constexpr const char* kL0Read = "l0_read";
constexpr size_t kTagCheckIndex = 2;
constexpr size_t kL0ReadIndex = 3;  // two levels only

class RfcDriver final : public ActivityDriver {
 public:
  explicit RfcDriver(const GeneratedStructure& g)
      : spec_(SpecOf<RfcSpec>(g)), p_(RfcPorts::For(spec_)), model_(spec_), ports_(g) {}

  void Reset(DriveValues& v) override {
    for (auto& b : ports_.in())
      b.clear();
    ClockModel();
    ports_.CopyTo(v);
  }

  // Fill every entry of every slot: entries (L0 + L1) distinct registers per slot.
  uint64_t WarmupCycles() const override {
    return static_cast<uint64_t>(spec_.active_warps) * static_cast<uint64_t>(Entries());
  }
  void Warmup(uint64_t cycle, ActivityRng& rng, DriveValues& v) override {
    Idle();
    const auto e = static_cast<uint64_t>(Entries());
    Write(static_cast<int>(cycle / e), static_cast<int>(cycle % e), rng);
    AccessCounts ignored(Components().size());
    Finish(v, ignored);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    Idle();
    const int slot = static_cast<int>(Pick(rng, spec_.active_warps));
    for (int k = 0; k < 3; ++k) {
      // Which level the lookup should hit: 0 = L0, 1 = L1, 2 = miss, -1 = no lookup.
      int want = -1;
      const double r = std::uniform_real_distribution<double>(0, 1)(rng);
      if (set == kReadsSet) {  // L1 hits and misses in equal parts
        want = r < 0.5 ? 1 : 2;
      } else if (set == kL0ReadsSet) {  // L0 hits and misses in equal parts
        want = r < 0.5 ? 0 : 2;
      } else if (set == kMissesSet) {
        want = 2;
      } else if (set == kMixedSet) {  // half the ports; mostly hits (other ratios than `reads`)
        if (Chance(rng, 0.5))
          want = spec_.two_levels() ? (r < 0.5 ? 0 : r < 0.75 ? 1 : 2) : (r < 0.75 ? 1 : 2);
      }
      if (want >= 0)
        Lookup(k, slot, want, rng);
    }
    if (set == kWritesSet || (set == kMixedSet && Chance(rng, 0.5)))
      Write(static_cast<int>(Pick(rng, spec_.active_warps)),
            static_cast<int>(Pick(rng, spec_.registers())), rng);
    Finish(v, counts);
  }

  std::vector<StimulusSet> ExtraSets() const override {
    if (spec_.two_levels())
      return {kMissesSet, kL0ReadsSet};
    return {kMissesSet};
  }

  std::vector<AccessComponent> Components() const override {
    std::vector<AccessComponent> c = {
        {"read",
         spec_.two_levels()
             ? "one operand lookup that hits in L1: its data read, beyond the tag check"
             : "one operand lookup that hits: its data read, beyond the tag check",
         ""},
        {"write",
         "one accepted result write of a random register into a full cache, with the "
         "evictions (L0 -> L1 moves, L1 write-backs to the MRF) it causes at their natural rate",
         ""},
        {kTagCheck, "one operand lookup, hit or miss (the slot's tags of every level compared)",
         "e_tag_pj"}};
    if (spec_.two_levels())
      c.push_back(
          {kL0Read, "one operand lookup that hits in L0: its data read, beyond the tag check", ""});
    return c;
  }

 private:
  int Entries() const { return spec_.l1_entries + (spec_.two_levels() ? spec_.l0_entries : 0); }

  // Holds the last payloads (as a datapath's pipeline registers would) with every valid low.
  void Idle() {
    auto& in = ports_.in();
    in[static_cast<size_t>(p_.rst_n)] = Bits(1, 1);
    in[static_cast<size_t>(p_.lu_valid)].clear();
    in[static_cast<size_t>(p_.lu_last)].clear();
    in[static_cast<size_t>(p_.wr_valid)].clear();
    in[static_cast<size_t>(p_.wr_long)].clear();
    if (p_.wr_no_l0 >= 0)
      in[static_cast<size_t>(p_.wr_no_l0)].clear();
    in[static_cast<size_t>(p_.fl_valid)].clear();
    in[static_cast<size_t>(p_.wb_ready)] = Bits(1, 1);  // the MRF takes every write-back
  }

  // Operand port k looks up a register of `slot` resident in level `want` (0, 1), or not
  // resident (2). Falls back to a miss when the level holds nothing.
  void Lookup(int k, int slot, int want, ActivityRng& rng) {
    std::vector<int> regs;
    for (int reg = 0; reg < spec_.registers(); ++reg) {
      const auto r = model_.cache().Probe(slot, reg);
      const int level = r.hit ? r.level : 2;
      if (level == want)
        regs.push_back(reg);
    }
    if (regs.empty() && want != 2) {
      Lookup(k, slot, 2, rng);
      return;
    }
    if (regs.empty())
      return;  // every register resident: no miss possible (more entries than registers)
    const int reg = regs[Pick(rng, static_cast<int>(regs.size()))];
    auto& in = ports_.in();
    in[static_cast<size_t>(p_.lu_valid)].set_bit(k, true);
    in[static_cast<size_t>(p_.lu_slot)].set(k * spec_.slot_bits, spec_.slot_bits,
                                            static_cast<uint64_t>(slot));
    in[static_cast<size_t>(p_.lu_reg)].set(k * spec_.reg_bits, spec_.reg_bits,
                                           static_cast<uint64_t>(reg));
  }

  void Write(int slot, int reg, ActivityRng& rng) {
    auto& in = ports_.in();
    in[static_cast<size_t>(p_.wr_valid)] = Bits(1, 1);
    in[static_cast<size_t>(p_.wr_slot)].set(0, spec_.slot_bits, static_cast<uint64_t>(slot));
    in[static_cast<size_t>(p_.wr_reg)].set(0, spec_.reg_bits, static_cast<uint64_t>(reg));
    in[static_cast<size_t>(p_.wr_data)] = RandomData(rng, spec_.width);
  }

  // Counts what the cache does with this cycle's inputs, clocks the model, emits the inputs.
  void Finish(DriveValues& v, AccessCounts& counts) {
    auto& in = ports_.in();
    model_.Outputs(in, ports_.out(), ports_.defined());
    const Bits& hit = ports_.out()[static_cast<size_t>(p_.lu_hit)];
    for (int k = 0; k < 3; ++k) {
      if (!in[static_cast<size_t>(p_.lu_valid)].bit(k))
        continue;
      ++counts[kTagCheckIndex];
      if (!hit.bit(k))
        continue;
      if (p_.lu_l0 >= 0 && ports_.out()[static_cast<size_t>(p_.lu_l0)].bit(k))
        ++counts[kL0ReadIndex];
      else
        ++counts[kReadComponent];
    }
    if (in[static_cast<size_t>(p_.wr_valid)].bit(0) &&
        ports_.out()[static_cast<size_t>(p_.wr_ready)].bit(0))
      ++counts[kWriteComponent];
    ClockModel();
    ports_.CopyTo(v);
  }

  void ClockModel() {
    model_.Clock(ports_.in());
    if (const std::string f = model_.Failure(); !f.empty())
      throw ToolError("RFC activity driver: the golden model reports " + f);
  }

  const RfcSpec spec_;
  const RfcPorts p_;
  RfcCycleModel model_;
  PortState ports_;
};

// The RFC's level-table rows: "RFC L1" (E_read per L1 hit; E_write per result write with one
// level), "RFC L0" (two levels: E_read per L0 hit, E_write per result write), "RFC tag check"
// (E_read column: per operand lookup; area and fmax: the whole RFC module, which the three rows
// share).
void RfcRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  const EnergyComponent* l0 = r.Component(kL0Read);  // declared with two levels
  LevelRow l1 = GateLevelRow(r, "RFC L1");
  if (l0 != nullptr) {
    l1.e_write_pj.reset();
    l1.scaled_e_write_pj.reset();
    l1.write_meaning = "(results are written into L0; L0 victims moving to L1 are in L0's E_write)";
  }
  out.push_back(l1);
  if (l0 != nullptr) {
    LevelRow row = GateLevelRow(r, "RFC L0");
    row.read_meaning = l0->meaning;
    row.e_read_pj = l0->e_pj;
    row.scaled_e_read_pj = ScaledLevelFigure(r, l0->scaled_e_pj);
    out.push_back(row);
  }
  out.push_back(ComponentLevelRow(r, "RFC tag check", kTagCheck));
}

// -------------------------------------------------------------------------- warp scheduler

class WarpSchedulerDriver final : public ActivityDriver {
 public:
  explicit WarpSchedulerDriver(const GeneratedStructure& g)
      : spec_(SpecOf<WarpSchedulerSpec>(g)), sched_(spec_), ports_(g) {}

  void Reset(DriveValues& v) override {
    for (auto& b : ports_.in())
      b.clear();
    sched_.Reset();
    suspended_at_.clear();
    ports_.CopyTo(v);
  }

  // Every warp launched and ready: the active slots fill.
  uint64_t WarmupCycles() const override { return 4; }
  void Warmup(uint64_t /*cycle*/, ActivityRng& /*rng*/, DriveValues& v) override {
    WarpScheduler::Inputs in;
    in.valid = All();
    in.ready = All();
    AccessCounts ignored(2);
    Cycle(in, v, ignored);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    WarpScheduler::Inputs in;
    in.valid = All();
    if (set == kReadsSet) {  // issue every cycle, no strand ends
      in.ready = All();
    } else if (set == kWritesSet) {  // every issue ends a strand; results return 2 cycles later
      in.ready = All();
      in.suspend = All();
      in.wake = Due(2, 1.0, rng);
    } else if (set == kMixedSet) {  // half the warps ready, half the instructions end a strand
      in.ready = rng() & All();
      in.suspend = rng() & All();
      in.wake = Due(2, 0.5, rng);
    }  // idle: instructions buffered, none ready; waiting warps stay waiting
    Cycle(in, v, counts);
  }

  std::vector<AccessComponent> Components() const override {
    return {{"read", "one issue: a cycle in which the inner level selects an active warp", ""},
            {"write",
             "one activation event: a pending warp moved into a freed slot, with the "
             "deactivation (strand end) and the wake that go with it in steady state",
             ""}};
  }

 private:
  uint64_t All() const {
    return spec_.warps >= 64 ? ~uint64_t{0} : (uint64_t{1} << spec_.warps) - 1;
  }

  // Waiting warps whose results return now: suspended at least `latency` cycles ago, each with
  // probability p.
  uint64_t Due(uint64_t latency, double p, ActivityRng& rng) {
    uint64_t wake = 0;
    for (const auto& [warp, at] : suspended_at_)
      if (cycle_ >= at + latency && Chance(rng, p))
        wake |= uint64_t{1} << warp;
    return wake;
  }

  void Cycle(const WarpScheduler::Inputs& in, DriveValues& v, AccessCounts& counts) {
    const WarpScheduler::Decision d = sched_.Step(in);
    if (d.issue)
      ++counts[kReadComponent];
    counts[kWriteComponent] += d.activations.size();
    // Track waiting warps for the wakes.
    for (auto it = suspended_at_.begin(); it != suspended_at_.end();)
      it = ((in.wake >> it->first) & 1U) ? suspended_at_.erase(it) : std::next(it);
    if (d.issue && d.deactivate)
      suspended_at_.push_back({d.issue_warp, cycle_});
    ++cycle_;
    auto& p = ports_.in();
    p[WarpSchedulerCycleModel::kRstN] = Bits(1, 1);
    p[WarpSchedulerCycleModel::kReady].set(0, spec_.warps, in.ready);
    p[WarpSchedulerCycleModel::kValid].set(0, spec_.warps, in.valid);
    p[WarpSchedulerCycleModel::kSuspend].set(0, spec_.warps, in.suspend);
    p[WarpSchedulerCycleModel::kWake].set(0, spec_.warps, in.wake);
    ports_.CopyTo(v);
  }

  const WarpSchedulerSpec spec_;
  WarpScheduler sched_;
  PortState ports_;
  std::deque<std::pair<int, uint64_t>> suspended_at_;  // (warp, cycle it was descheduled)
  uint64_t cycle_ = 0;
};

}  // namespace

GPURF_REGISTER(ActivityFamily, mrf, "mrf", DriverFamily<MrfDriver>("mrf-driver-v1"))
GPURF_REGISTER(ActivityFamily, rfc, "rfc", DriverFamily<RfcDriver>("rfc-driver-v2"))
GPURF_REGISTER(ActivityFamily, warp_scheduler, "warp-scheduler",
               DriverFamily<WarpSchedulerDriver>("warp-scheduler-driver-v1"))

GPURF_REGISTER(LevelRowsFamily, mrf_rows, "mrf", LevelRowsFamily{MrfRows})
GPURF_REGISTER(LevelRowsFamily, rfc_rows, "rfc", LevelRowsFamily{RfcRows})
// E_read column: per issue; E_write column: per activation.
GPURF_REGISTER(LevelRowsFamily, warp_scheduler_rows, "warp-scheduler",
               (LevelRowsFamily{[](const ModuleCharacterization& r, std::vector<LevelRow>& out) {
                 out.push_back(GateLevelRow(r, "warp scheduler"));
               }}))

}  // namespace gpurf
