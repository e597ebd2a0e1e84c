#include "sim/harness/hybrid_system.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "base/registry.h"
#include "energy/gebhart.h"
#include "sim/harness/hierarchy.h"
#include "sim/harness/transactors/hybrid_rc_transactions.h"
#include "sim/harness/transactors/mrf_transactions.h"

namespace gpurf::harness {

namespace sp = sim::passes;

// ---------------------------------------------------------------------------------------------
// RegisterCache

RegisterCache::RegisterCache(int lines, int ways) : ways_(std::max(1, ways)) {
  sets_ = std::max(0, lines) / ways_;
  key_.assign(static_cast<size_t>(sets_ * ways_), -1);
  stamp_.assign(key_.size(), 0);
}

int RegisterCache::Find(int warp, int reg) const {
  if (sets_ == 0)
    return -1;
  const int64_t key = Key(warp, reg);
  const int base = SetOf(warp, reg) * ways_;
  for (int w = 0; w < ways_; ++w) {
    if (key_[static_cast<size_t>(base + w)] == key)
      return base + w;
  }
  return -1;
}

bool RegisterCache::Write(int warp, int reg, Victim& victim) {
  victim = {};
  if (const int line = Find(warp, reg); line >= 0) {
    Touch(line);
    return true;
  }
  const int base = SetOf(warp, reg) * ways_;
  int pick = -1;
  for (int w = 0; w < ways_ && pick < 0; ++w) {
    if (key_[static_cast<size_t>(base + w)] < 0)
      pick = base + w;
  }
  if (pick < 0) {
    pick = base;
    for (int w = 1; w < ways_; ++w) {
      if (stamp_[static_cast<size_t>(base + w)] < stamp_[static_cast<size_t>(pick)])
        pick = base + w;
    }
    const int64_t old = key_[static_cast<size_t>(pick)];
    victim.valid = true;
    victim.warp = static_cast<int>(old >> 20);
    victim.reg = static_cast<int>(old & ((int64_t{1} << 20) - 1));
  }
  key_[static_cast<size_t>(pick)] = Key(warp, reg);
  Touch(pick);
  return false;
}

// ---------------------------------------------------------------------------------------------
// Energies

namespace {

// gpurf characterize hybrid-rc at the default point (2 KB RC + 1 KB RSP per scheduler, 6R2W,
// 128-bit slice), osu018 scaled to 40 nm: docs/hybrid-rc.md, "Measured".
constexpr double kRspReadPj = 0.97, kRspWritePj = 3.73;
constexpr double kRcReadPj = 1.94, kRcWritePj = 4.75;
const char* kOurs =
    "gpurf characterize hybrid-rc (6R2W, 2 KB RC + 1 KB RSP per scheduler, osu018 scaled to "
    "40 nm; docs/hybrid-rc.md)";

bool JsonHas(const std::string& json, const char* section) {
  if (json.empty())
    return false;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  return j.is_object() && j.contains(section);
}

}  // namespace

energy::Energies HybridEnergies(const sp::RegisterFileEnergies& pe, const std::string& json) {
  energy::Energies e;
  const std::string measured = pe.source + (json.empty() ? "" : " (characterization " + json + ")");
  energy::LevelEnergy mrf = energy::gebhart::Level("MRF", 1, 1);
  mrf.read_pj = pe.mrf_read_pj;
  mrf.write_pj = pe.mrf_write_pj;
  mrf.mm = {pe.mrf_private_mm, pe.mrf_shared_mm};
  if (!json.empty())
    mrf.source = measured;
  const std::string wires =
      "; wires: Gebhart's L1 ORF distances (assumed: the RC and RSP sit where the ORF does)";
  auto upper = [&](const char* name, const char* section, double r, double w, double jr,
                   double jw) {
    energy::LevelEnergy l;
    l.name = name;
    const bool given = JsonHas(json, section);
    l.read_pj = given ? jr : r;
    l.write_pj = given ? jw : w;
    l.source = (given ? measured + " `" + section + "` section" : std::string(kOurs)) + wires;
    l.mm = {pe.l1_private_mm, pe.l1_shared_mm};
    return l;
  };
  e.levels.push_back(std::move(mrf));
  e.levels.push_back(upper("RC", "l0", kRcReadPj, kRcWritePj, pe.l0_read_pj, pe.l0_write_pj));
  e.levels.push_back(upper("RSP", "l1", kRspReadPj, kRspWritePj, pe.l1_read_pj, pe.l1_write_pj));
  // With the RTL in the loop the RC's rows are counted at L0 and the RSP's at L1 (the hybrid_rc
  // transactor): the data-dependent estimate rescales them by those toggles.
  e.levels[1].activity = "L0";
  e.levels[2].activity = "L1";
  if (const sp::StructureCharacterization* c = pe.Structure("hybrid-rc")) {
    // Our own characterization (`--characterization`), per 128-bit slice access, held at every
    // capacity (the characterized point's figures; Bailey's Cacti figures grow with it). A fill
    // (the RSP's `fills`) is the family's `rc_fill`, an RC eviction (the RC's `drains`) its
    // `write_back`; the organizations without transfers have no `rc_fill`, and then no fills.
    const std::string ours = "ours: " + c->Source() + wires;
    energy::LevelEnergy& rc = e.levels[1];
    energy::LevelEnergy& rsp = e.levels[2];
    rsp.read_pj = c->Component("read");
    rsp.write_pj = c->Component("write");
    rc.read_pj = c->Component("rc_hit_read");
    rc.write_pj = c->Component("rc_write");
    rc.drain_pj = c->Component("write_back");
    rc.source = "`rc_hit_read`, `rc_write`, `write_back` (evictions) " + ours;
    rsp.source = "`read`, `write` " + ours;
    if (c->Has("rc_fill")) {
      rsp.fill_pj = c->Component("rc_fill");
      rsp.source = "`read`, `write`, `rc_fill` (fills) " + ours;
    }
  }
  // A lookup that misses reads the set's tags only (a hit's tag check is in the hit read).
  energy::ComponentEnergy miss = energy::gebhart::TagCheckEstimate(2);
  miss.name = "RC misses";
  miss.label = "rc miss";
  miss.source = "estimate, 2 ways: " + miss.source;
  e.components.push_back(std::move(miss));
  e.row_bits = 128;
  e.pj_per_mm_word = pe.wire_pj_per_mm_32bit;
  e.writeback_mm = pe.mrf_private_mm;  // write-backs travel to the MRF
  return e;
}

// ---------------------------------------------------------------------------------------------
// RSP allocation

sp::RspAllocation LifetimeRangesOnly(const sim::Kernel& k, const sp::RspAllocation& a) {
  sp::RspAllocation out = a;
  for (sp::RspInst& in : out.insts) {
    std::fill(in.srcs.begin(), in.srcs.end(), sp::RspOperand{});
    std::fill(in.dsts.begin(), in.dsts.end(), sp::RspResult{});
    in.writebacks.clear();
  }
  out.ranges.clear();
  auto same = [](const sim::RegOperand& x, const sim::RegOperand& g) {
    return x.first == g.first && x.count == g.count;
  };
  for (const sp::RspRange& r : a.ranges) {
    if (r.kind != sp::RspRangeKind::kWrite || r.live_out)
      continue;
    out.ranges.push_back(r);
    // The range's accesses: its group's RSP reads in (first, last] and RSP writes in [first,
    // last) (an instruction reads before it writes: the reads of `first` and the writes of `last`
    // belong to the register's neighbouring ranges).
    for (uint32_t i = r.first; i <= r.last; ++i) {
      const sim::Instruction& in = k.code[i];
      for (size_t s = 0; s < in.srcs.size() && i > r.first; ++s) {
        if (same(in.srcs[s], r.group) && a.insts[i].srcs[s].rsp)
          out.insts[i].srcs[s] = a.insts[i].srcs[s];
      }
      for (size_t d = 0; d < in.dsts.size() && i < r.last; ++d) {
        if (same(in.dsts[d], r.group) && a.insts[i].dsts[d].rsp)
          out.insts[i].dsts[d] = a.insts[i].dsts[d];
      }
    }
  }
  return out;
}

std::shared_ptr<const sp::RspAllocation> HybridRspAllocation(const sim::Kernel& k,
                                                             const sp::KernelAnalysis& a,
                                                             int rsp_bytes, int active_warps,
                                                             bool lifetime_only) {
  sp::RspConfig rc;
  rc.rsp_bytes = rsp_bytes;
  rc.active_warps = std::max(1, active_warps);
  if (rsp_bytes <= 0 || rc.EntriesPerWarp() < 1)
    return nullptr;
  // The compiler prices the RSP with the figures the energy model charges it.
  sp::RegisterFileEnergies pe = sp::GebhartEnergies();
  pe.l1_read_pj = kRspReadPj;
  pe.l1_write_pj = kRspWritePj;
  // Every partition of every SM runs the same allocation of the same kernel: keep the last one.
  static std::mutex mu;
  static struct {
    const sim::Kernel* k = nullptr;
    std::string name;
    size_t insts = 0;
    int bytes = 0, warps = 0;
    bool lifetime = false;
    std::shared_ptr<const sp::RspAllocation> alloc;
  } last;
  std::lock_guard<std::mutex> lock(mu);
  if (last.alloc == nullptr || last.k != &k || last.name != k.name || last.insts != k.code.size() ||
      last.bytes != rsp_bytes || last.warps != rc.active_warps || last.lifetime != lifetime_only) {
    last.k = &k;
    last.name = k.name;
    last.insts = k.code.size();
    last.bytes = rsp_bytes;
    last.warps = rc.active_warps;
    last.lifetime = lifetime_only;
    sp::RspAllocation alloc = sp::AllocateRsp(k, a.live, a.strands, rc, pe);
    if (lifetime_only) {
      // parallel-lifetime: no transfers, so only write ranges that die in the RSP; the capacity
      // the dropped ranges held is not given to others (the compiler has no such mode).
      alloc = LifetimeRangesOnly(k, alloc);
      if (const auto v = sp::CheckRspAllocation(k, a.live, a.strands, alloc); !v.empty())
        throw std::logic_error(
            fmt::format("hybrid parallel-lifetime allocation of {}: {}", k.name, v.front()));
    }
    last.alloc = std::make_shared<const sp::RspAllocation>(std::move(alloc));
  }
  return last.alloc;
}

// ---------------------------------------------------------------------------------------------
// The system

namespace {

class Hybrid : public RfSystem {
 public:
  Hybrid(const sim::Kernel& k, const sim::SmConfig& part, int banks, int collectors, int rc_lines,
         bool parallel_evict, std::shared_ptr<const sp::RspAllocation> alloc,
         const sp::Liveness& live)
      : RfSystem(k, part, banks, collectors),
        rc_(rc_lines, 2),
        parallel_evict_(parallel_evict),
        alloc_(std::move(alloc)),
        live_(live) {
    if (alloc_ != nullptr && alloc_->insts.size() != k.code.size())
      throw std::invalid_argument("hybrid: the RSP allocation does not belong to the kernel");
  }

  void Finish() override {
    RfSystem::Finish();
    st_.counts.events[static_cast<size_t>(miss_event_)] = hs_.rc_read_misses;
    st_.dead_kills = hs_.dead_kills;
  }
  const HybridStats& hybrid_stats() const { return hs_; }

 protected:
  void ResolveCounts(const energy::Energies& e) override {
    rc_level_ = e.LevelIndex("RC");
    rsp_level_ = e.LevelIndex("RSP");
    miss_event_ = e.ComponentIndex("RC misses");
  }
  int ExtraDelay(const sim::DynInst&) const override { return missed_ ? 1 : 0; }

  const sp::RspOperand* SrcAlloc(uint32_t inst, size_t s) const {
    return alloc_ == nullptr ? nullptr : &alloc_->insts[inst].srcs[s];
  }

  bool ReadsMrf(uint32_t warp, const sim::DynInst& d) const override {
    const sim::Instruction& in = k_.code[d.inst];
    for (size_t s = 0; s < in.srcs.size(); ++s) {
      const sp::RspOperand* oa = SrcAlloc(d.inst, s);
      if (oa != nullptr && oa->rsp)
        continue;
      for (int j = 0; j < in.srcs[s].count; ++j) {
        if (rc_.Find(static_cast<int>(warp), in.srcs[s].first + j) < 0)
          return true;
      }
    }
    return false;
  }

  void ReadOperands(uint32_t warp, const sim::DynInst& d, std::vector<int>& mrf) override {
    const sim::Instruction& in = k_.code[d.inst];
    const bool sh = sim::IsSharedUnit(in.op_class);
    const int w = static_cast<int>(warp);
    missed_ = false;
    ops_.clear();
    fills_.clear();
    for (size_t s = 0; s < in.srcs.size(); ++s) {
      const sim::RegOperand& o = in.srcs[s];
      const sp::RspOperand* oa = SrcAlloc(d.inst, s);
      if (oa != nullptr && oa->rsp) {
        Read(rsp_level_, sh, o.count);
        hs_.rsp_reads += o.count;
        for (int j = 0; j < o.count; ++j)
          ops_.push_back({true, oa->slots[static_cast<size_t>(j)], o.first + j, true, false});
        continue;
      }
      const bool fill = oa != nullptr && oa->fill;
      const bool last = live_.warp_dead_after[d.inst][s] != 0;
      for (int j = 0; j < o.count; ++j) {
        const int reg = o.first + j;
        const int line = rc_.Find(w, reg);  // lookups see the contents before this instruction
        if (line >= 0) {
          Read(rc_level_, sh);
          ++hs_.rc_read_hits;
          rc_.Touch(line);
        } else {
          if (rc_.enabled()) {
            ++hs_.rc_read_misses;
            missed_ = true;
          }
          Read(mrf_level_, sh);
          ++hs_.mrf_reads;
          mrf.push_back(reg);
        }
        ops_.push_back({false, 0, reg, line >= 0, line >= 0 && last && !fill});
        if (fill) {
          At(rsp_level_).fills += 1;
          ++hs_.rsp_fills;
          fills_.push_back({oa->slots[static_cast<size_t>(j)], reg});
        }
      }
    }
    // Last-use invalidations after every read of the instruction (a register read twice is
    // invalidated once).
    for (const HybridOperand& op : ops_) {
      if (!op.kill)
        continue;
      if (const int line = rc_.Find(w, op.reg); line >= 0) {
        ++hs_.dead_kills;
        rc_.Invalidate(line);
      }
    }
    if (listener_ != nullptr)
      listener_->Transaction(HybridRead(warp, entries(), ops_));
    // The read-allocation fills, one background transfer each, after the reads (the RC as the
    // reads left it). hierarchical: a hit takes the line's value and makes it the most recently
    // used; parallel-evict: the RSP takes the register and the RC's (dirty) copy is written
    // back and dropped. A miss takes the MRF's value (read above).
    for (const auto& [entry, reg] : fills_) {
      const int line = rc_.Find(w, reg);
      bool wb = false;
      if (line >= 0 && parallel_evict_) {
        At(mrf_level_).writebacks += 1;  // the fill's read of the line is the write-back's data
        ++hs_.evict_on_fill;
        rc_.Invalidate(line);
        wb = true;
      } else if (line >= 0) {
        rc_.Touch(line);
      }
      if (listener_ != nullptr)
        listener_->Transaction(
            HybridTransfer(warp, entries(), false, entry, reg, line >= 0, wb, {}));
    }
    // Live-outs whose last access is a read of this instruction go to the backing store now,
    // after its reads: nothing orders a later reader of the register behind this instruction's
    // completion (it writes none of the group).
    LiveOuts(warp, d, false);
    if (missed_)
      ++hs_.miss_delays;
  }

  void WriteResults(uint32_t warp, const sim::DynInst& d) override {
    const sim::Instruction& in = k_.code[d.inst];
    const bool sh = sim::IsSharedUnit(in.op_class);
    const int w = static_cast<int>(warp);
    for (size_t r = 0; r < in.dsts.size(); ++r) {
      const sim::RegOperand& o = in.dsts[r];
      if (alloc_ != nullptr && alloc_->insts[d.inst].dsts[r].rsp) {
        Write(rsp_level_, sh, o.count);
        hs_.rsp_writes += o.count;
        for (int j = 0; listener_ != nullptr && j < o.count; ++j)
          listener_->Transaction(HybridWrite(
              warp, entries(), true, alloc_->insts[d.inst].dsts[r].slots[static_cast<size_t>(j)],
              o.first + j, false, {}));
        continue;
      }
      for (int j = 0; j < o.count; ++j)
        ToBacking(w, o.first + j, sh, -1);
    }
    // Live-outs of a value this instruction writes: after its results.
    LiveOuts(warp, d, true);
  }

 private:
  int entries() const { return alloc_ == nullptr ? 0 : alloc_->entries; }

  // The live-outs after instruction `d` (the RSP entry goes to its backing store) of the groups
  // it writes (`written`) or of those it only reads.
  void LiveOuts(uint32_t warp, const sim::DynInst& d, bool written) {
    if (alloc_ == nullptr)
      return;
    const sim::Instruction& in = k_.code[d.inst];
    for (const sp::RspWriteBack& wb : alloc_->insts[d.inst].writebacks) {
      bool writes = false;
      ForEachReg(in.dsts, [&](int r) {
        writes = writes || (r >= wb.group.first && r < wb.group.first + wb.group.count);
      });
      if (writes != written)
        continue;
      for (int j = 0; j < wb.group.count; ++j) {
        At(rsp_level_).drains += 1;
        ++hs_.live_outs;
        ToBacking(static_cast<int>(warp), wb.group.first + j, false,
                  wb.slots[static_cast<size_t>(j)]);
      }
    }
  }

  // A result (`entry` < 0) or a live-out from RSP entry `entry` written below the RSP: into the
  // RC (write-allocate, the victim written back), or to the MRF without an RC, or
  // (parallel-evict live-out) to the MRF with the RC's older copy dropped.
  void ToBacking(int warp, int reg, bool shared, int entry) {
    const bool live_out = entry >= 0;
    const auto uw = static_cast<uint32_t>(warp);
    if (!rc_.enabled() || (live_out && parallel_evict_)) {
      const int line = rc_.Find(warp, reg);
      if (line >= 0)
        rc_.Invalidate(line);  // superseded by the live-out: no write-back
      if (live_out) {
        At(mrf_level_).writebacks += 1;
        if (listener_ != nullptr)
          listener_->Transaction(
              HybridTransfer(uw, entries(), true, entry, reg, line >= 0, true, {}));
      } else {
        Write(mrf_level_, shared);
        ++hs_.mrf_writes;
        if (listener_ != nullptr)
          listener_->Transaction(MrfWrite(uw, reg));
      }
      return;
    }
    RegisterCache::Victim v;
    const bool hit = rc_.Write(warp, reg, v);
    if (hit)
      ++hs_.rc_write_hits;
    Write(rc_level_, shared);
    ++hs_.rc_writes;
    if (v.valid) {
      At(rc_level_).drains += 1;
      At(mrf_level_).writebacks += 1;
      ++hs_.rc_evictions;
    }
    if (listener_ != nullptr) {
      const HybridVictim victim{v.valid, static_cast<uint32_t>(v.warp), v.reg};
      if (live_out)
        listener_->Transaction(HybridTransfer(uw, entries(), true, entry, reg, hit, false, victim));
      else
        listener_->Transaction(HybridWrite(uw, entries(), false, 0, reg, hit, victim));
    }
  }

  RegisterCache rc_;
  bool parallel_evict_;
  std::shared_ptr<const sp::RspAllocation> alloc_;
  const sp::Liveness& live_;
  HybridStats hs_;
  bool missed_ = false;
  std::vector<HybridOperand> ops_;          // the instruction's source registers
  std::vector<std::pair<int, int>> fills_;  // its read-allocation fills: entry, register
  int rc_level_ = -1, rsp_level_ = -1, miss_event_ = -1;
};

}  // namespace

std::unique_ptr<RfSystem> MakeHybridSystem(const DesignSpec& d, const sim::Kernel& k,
                                           const sim::SmConfig& part, const sp::KernelAnalysis& a,
                                           const HarnessOptions& opt) {
  const int parts = std::max(1, part.rf_partitions);
  const int rc_lines = d.hierarchy.rc_bytes / parts / 128;
  auto alloc = HybridRspAllocation(k, a, d.hierarchy.rsp_bytes, part.active_warps * parts,
                                   d.hierarchy.organization == "parallel-lifetime");
  return std::make_unique<Hybrid>(k, part, MrfBanks(d), opt.mrf_collectors, rc_lines,
                                  d.hierarchy.organization == "parallel-evict", std::move(alloc),
                                  a.live);
}

const HybridStats* HybridStatsOf(const RfSystem& system) {
  const auto* h = dynamic_cast<const Hybrid*>(&system);
  return h == nullptr ? nullptr : &h->hybrid_stats();
}

namespace {

std::string DescribeHybrid(const DesignSpec& d, const HarnessOptions&, int slots) {
  const auto& h = d.hierarchy;
  if (h.rsp_bytes == 0)
    return fmt::format("Bailey RC only: {} KB/SM, 2-way LRU, {} active warps", h.rc_bytes / 1024.0,
                       slots);
  if (h.rc_bytes == 0)
    return fmt::format("Bailey RSP only: {} KB/SM, {} active warps", h.rsp_bytes / 1024.0, slots);
  return fmt::format("Bailey hybrid {}: RC {} KB + RSP {} KB per SM, {} active warps",
                     h.organization, h.rc_bytes / 1024.0, h.rsp_bytes / 1024.0, slots);
}

}  // namespace

// Bailey et al.'s hybrid register cache / scratchpad (and its RC-only and RSP-only points).
GPURF_REGISTER(
    HarnessHierarchy, hybrid, "hybrid",
    (HarnessHierarchy{
        .allocated_levels = [](const DesignSpec&) { return 1; },  // no ORF; the RSP's own pass
        .make_system = MakeHybridSystem,
        .describe = DescribeHybrid,
        // One scheduler's hybrid-rc (the loop of each register-file partition drives its own).
        .rtl_structures = [](const DesignSpec&) { return std::vector<std::string>{"hybrid_rc"}; },
        .compiler_note =
            [](const DesignSpec& d) {
              return fmt::format(
                  "design '{}' is Bailey's hybrid register cache / scratchpad: the compiler "
                  "provides strands, liveness hints and the RSP allocation (`gpurf compile "
                  "KERNEL --rsp-bytes {}`), not ORF levels",
                  d.name, d.hierarchy.rsp_bytes);
            },
        .energies = [](const DesignSpec&, int, const sp::RegisterFileEnergies& pe,
                       const std::string& json) { return HybridEnergies(pe, json); },
        .characterized_kinds = {"hybrid-rc"},
    }))

}  // namespace gpurf::harness
