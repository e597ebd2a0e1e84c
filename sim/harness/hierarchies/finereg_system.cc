#include "sim/harness/hierarchies/finereg_system.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "base/registry.h"
#include "energy/gebhart.h"
#include "gen/config/derive.h"
#include "sim/harness/hierarchy.h"
#include "sim/harness/transactors/finereg_transactions.h"
#include "sim/harness/transactors/mrf_transactions.h"

namespace gpurf::harness {

namespace sp = sim::passes;

FineRegConfig FineRegConfig::From(const DesignSpec& d) {
  FineRegConfig c;
  c.row_bytes = 4 * d.sm.lanes;
  if (d.sections == nullptr)
    return c;
  const ParamSet& h = d.sections->sections.at("hierarchy");
  c.acrf_bytes = h.Int("acrf_bytes");
  c.pcrf_bytes = h.Int("pcrf_bytes");
  c.resident_ctas = h.IntAsInt("resident_ctas");
  c.hop_cycles = h.IntAsInt("hop_cycles");
  c.move_ports = h.IntAsInt("move_ports");
  c.vector_lines = h.IntAsInt("vector_cache_entries");
  c.vector_miss_cycles = h.IntAsInt("vector_miss_cycles");
  c.target = h.Enum("switch_target");
  return c;
}

FineRegSystem::FineRegSystem(const sim::Kernel& k, const sim::SmConfig& sm, int mrf_banks,
                             int collectors, const FineRegConfig& c, sp::LiveVectors live)
    : RfSystem(k, sm, mrf_banks, collectors),
      cfg_(c),
      live_(std::move(live)),
      sm_(sm),
      mrf_warps_(static_cast<uint32_t>(std::max(1, sm.warps))),
      vtags_(static_cast<size_t>(c.vector_lines), 0) {
  for (uint32_t w = 0; w < mrf_warps_; ++w)
    free_acrf_.insert(free_acrf_.end(), w);
  if (sm.rf_partitions > 1)
    throw std::invalid_argument(
        "finereg: the ACRF and PCRF are the SM's one register file (sm.rf_partitions 1)");
  if (live_.bits.size() != k.code.size())
    throw std::invalid_argument("finereg: the live-register vectors do not belong to the kernel");
  const int unit = std::max<int>(1, static_cast<int>(sm.register_alloc_unit));
  regs_per_thread_ = (std::max(1, k.regs_per_thread) + unit - 1) / unit * unit;
  const long long rf =
      cfg_.target == "full-rf" ? cfg_.acrf_bytes + cfg_.pcrf_bytes : cfg_.acrf_bytes;
  acrf_regs_ = static_cast<uint64_t>(rf / 4);
  if (cfg_.target == "pcrf") {
    for (int e = 0; e < cfg_.pcrf_entries(); ++e)
      free_.insert(free_.end(), e);
    held_.assign(static_cast<size_t>(cfg_.pcrf_entries()), 0);
  }
  ctas_.resize(static_cast<size_t>(cfg_.resident_ctas));
  mon_cta_.assign(static_cast<size_t>(cfg_.resident_ctas), -1);
}

void FineRegSystem::ResolveCounts(const energy::Energies& e) {
  append_event_ = e.ComponentIndex("PCRF tag+row writes");
  hop_event_ = e.ComponentIndex("PCRF chain hops");
  pointer_event_ = e.ComponentIndex("PCRF pointer updates");
  vector_event_ = e.ComponentIndex("vector-cache accesses");
}

uint64_t FineRegSystem::RegsPerCta(const Cta& c) const {
  return c.warps.size() * static_cast<uint64_t>(sm_.lanes) *
         static_cast<uint64_t>(regs_per_thread_);
}

int FineRegSystem::ActiveLimit() const {
  // The scheduling limit: the preset's CTA slots and warp contexts.
  size_t wpc = 1;
  for (const Cta& c : ctas_)
    wpc = std::max(wpc, c.warps.size());
  return std::max(1, std::min(sm_.cta_slots, sm_.warps / static_cast<int>(wpc)));
}

bool FineRegSystem::Ready(const Cta& c) const {
  return std::all_of(c.warps.begin(), c.warps.end(),
                     [&](uint32_t w) { return warps_[w].long_outstanding == 0; });
}

bool FineRegSystem::CtaRunnable(uint32_t slot) const {
  return slot < ctas_.size() && ctas_[slot].state == State::kActive;
}

bool FineRegSystem::Busy() const {
  return RfSystem::Busy() || moving_ > 0;
}

void FineRegSystem::Launch(uint64_t, uint32_t warp, const sim::WarpStream& s) {
  if (warp >= warps_.size())
    warps_.resize(warp + 1);
  warps_[warp] = WarpTrack{&s, 0, 0};
}

bool FineRegSystem::AdmitCta(uint64_t, const sim::CtaInfo& c) {
  if (c.slot >= ctas_.size())
    return false;
  if (cfg_.target != "full-rf")
    return true;  // a waiting CTA holds no registers
  // Virtual-Thread-like: every resident CTA keeps its whole allocation in the whole RF.
  uint64_t used = 0;
  for (const Cta& x : ctas_)
    used += x.state == State::kEmpty ? 0 : RegsPerCta(x);
  return used + c.static_registers <= acrf_regs_;
}

void FineRegSystem::CtaLaunched(uint64_t cycle, const sim::CtaInfo& c) {
  Cta& x = ctas_.at(c.slot);
  x = Cta{};
  x.state = State::kWaiting;
  x.warps = *c.warps;
  x.seq = seq_++;
  for (uint32_t w : x.warps) {
    if (w >= warp_slot_.size())
      warp_slot_.resize(w + 1, -1);
    warp_slot_[w] = static_cast<int>(c.slot);
  }
  FillAcrf(cycle);
}

void FineRegSystem::CtaFinished(uint64_t cycle, const sim::CtaInfo& c) {
  Cta& x = ctas_.at(c.slot);
  if (x.state != State::kActive)
    throw std::logic_error(fmt::format("finereg: CTA {} finished while not active", c.cta));
  ReleaseSlots(x);
  x.state = State::kEmpty;
  x.warps.clear();
  const int mon = x.mon;
  mon_cta_.at(static_cast<size_t>(mon)) = -1;
  x.mon = -1;
  if (listener_ != nullptr && cfg_.target == "pcrf")
    listener_->Transaction(CsmSet(mon, 0, 0, Counts()));
  FillAcrf(cycle);
}

std::vector<int> FineRegSystem::ReadySlots() const {
  std::vector<int> v;
  for (const int s : mon_cta_) {
    if (s < 0)
      continue;
    const Cta& c = ctas_[static_cast<size_t>(s)];
    if (c.state == State::kPending && Ready(c))
      v.push_back(c.mon);
  }
  return v;
}

int FineRegSystem::FreeMonitorSlot() const {
  const auto it = std::find(mon_cta_.begin(), mon_cta_.end(), -1);
  if (it == mon_cta_.end())
    throw std::logic_error("finereg: every status-monitor slot is launched");
  return static_cast<int>(it - mon_cta_.begin());
}

bool FineRegSystem::AnyWaiting() const {
  return std::any_of(ctas_.begin(), ctas_.end(),
                     [](const Cta& c) { return c.state == State::kWaiting; });
}

int FineRegSystem::Candidate(int exclude) const {
  // Section V-B: the monitor "serves to quickly prioritize pending CTAs"; among the ready ones
  // (all of class B here: a switch saves the live registers, so a pending CTA's registers are in
  // the PCRF) the lowest-numbered slot, a priority encoder's pick. The stalled CTA is active,
  // never a candidate.
  for (const int s : mon_cta_) {
    if (s < 0 || s == exclude)
      continue;
    const Cta& c = ctas_[static_cast<size_t>(s)];
    if (c.state == State::kPending && Ready(c))
      return s;
  }
  int best = -1;
  for (size_t s = 0; s < ctas_.size(); ++s) {
    const Cta& c = ctas_[s];
    if (static_cast<int>(s) != exclude && c.state == State::kWaiting &&
        (best < 0 || c.seq < ctas_[static_cast<size_t>(best)].seq))
      best = static_cast<int>(s);
  }
  return best;
}

std::vector<FineRegSystem::SavedReg> FineRegSystem::LiveRegs(Cta& c, uint64_t& lookup) {
  std::vector<SavedReg> regs;
  c.issued_at_save.clear();
  for (uint32_t w : c.warps) {
    const WarpTrack& t = warps_[w];
    c.issued_at_save.push_back(t.issued);
    if (t.stream == nullptr || t.issued >= t.stream->insts.size())
      continue;  // finished: nothing live
    const uint32_t inst = t.stream->insts[t.issued].inst;
    // The direct-mapped vector cache, indexed by the PC of 8-byte instructions.
    uint64_t& line = vtags_[inst % vtags_.size()];
    ++fs_.vector_lookups;
    if (vector_event_ >= 0)
      ++st_.counts.events[static_cast<size_t>(vector_event_)];
    const bool hit = line == inst + 1ULL;
    if (hit) {
      lookup += 1;
    } else {
      ++fs_.vector_misses;
      lookup += static_cast<uint64_t>(cfg_.vector_miss_cycles);
      line = inst + 1ULL;
    }
    const uint64_t bits = live_.bits[inst];
    if (listener_ != nullptr) {
      // The vector as the save uses it: the registers the kernel has (regs_per_thread_ may
      // exceed 64: the vector's 64 bits).
      const uint64_t mask = regs_per_thread_ >= 64 ? ~0ULL : (1ULL << regs_per_thread_) - 1;
      listener_->Transaction(LvcLookup(w, inst, hit, bits & mask));
    }
    for (int r = 0; r < 64 && r < regs_per_thread_; ++r) {
      if ((bits >> r) & 1)
        regs.push_back({w, static_cast<uint16_t>(r), -1});
    }
    // Registers beyond the 64-bit vector: kept conservatively, every one the kernel has.
    for (uint16_t r : live_.unrepresentable) {
      if (r < regs_per_thread_)
        regs.push_back({w, r, -1});
    }
  }
  return regs;
}

uint64_t FineRegSystem::Move(uint64_t from, uint64_t lookup, uint64_t n) {
  if (n == 0)
    return from + lookup;
  const uint64_t start = std::max(from + lookup, port_free_);
  const uint64_t ports = static_cast<uint64_t>(std::max(1, cfg_.move_ports));
  const uint64_t cycles = (n + ports - 1) / ports;
  port_free_ = start + cycles;
  fs_.move_cycles += cycles;
  const uint64_t lat = cfg_.target == "dram" ? static_cast<uint64_t>(sm_.lat_dram)
                                             : static_cast<uint64_t>(cfg_.hop_cycles);
  return start + cycles + lat - 1;
}

int FineRegSystem::WarpInCta(const Cta& c, uint32_t warp) {
  const auto it = std::find(c.warps.begin(), c.warps.end(), warp);
  if (it == c.warps.end())
    throw std::logic_error(fmt::format("finereg: warp {} is not in its CTA", warp));
  return static_cast<int>(it - c.warps.begin());
}

void FineRegSystem::Save(Cta& c, std::vector<SavedReg> regs) {
  if (cfg_.target == "full-rf")
    regs.clear();          // the registers stay where they are
  const int slot = c.mon;  // the PCRF's pointer table is indexed as the status monitor's slots
  for (size_t i = 0; i < regs.size(); ++i) {
    SavedReg& r = regs[i];
    Read(mrf_level_, false);  // the ACRF row read out
    ++fs_.saved_entries;
    if (cfg_.target == "pcrf") {
      if (free_.empty())
        throw std::logic_error("finereg: a save found no free PCRF entry after the decision");
      r.entry = *free_.begin();
      free_.erase(free_.begin());
      if (held_[static_cast<size_t>(r.entry)] != 0)
        throw std::logic_error(fmt::format("finereg: PCRF entry {} taken twice", r.entry));
      held_[static_cast<size_t>(r.entry)] = 1;
      if (listener_ != nullptr)
        listener_->Transaction(PcrfAppend(slot, r.warp, WarpInCta(c, r.warp), r.reg, r.entry,
                                          regs.front().entry, static_cast<int>(i + 1),
                                          static_cast<int>(free_.size())));
      if (append_event_ >= 0)
        ++st_.counts.events[static_cast<size_t>(append_event_)];
      if (pointer_event_ >= 0)
        ++st_.counts.events[static_cast<size_t>(pointer_event_)];
    } else {
      fs_.memory_bytes += static_cast<uint64_t>(cfg_.row_bytes);
    }
  }
  c.chain = std::move(regs);
  CheckPcrf();
}

void FineRegSystem::TakeSlots(const Cta& c) {
  for (uint32_t w : c.warps) {
    if (w >= acrf_slot_.size())
      acrf_slot_.resize(w + 1, -1);
    if (acrf_slot_[w] >= 0)
      continue;
    if (free_acrf_.empty())
      throw std::logic_error(fmt::format("finereg: no free ACRF slot for warp {}", w));
    acrf_slot_[w] = static_cast<int>(*free_acrf_.begin());
    free_acrf_.erase(free_acrf_.begin());
  }
}

void FineRegSystem::ReleaseSlots(const Cta& c) {
  for (uint32_t w : c.warps) {
    if (w < acrf_slot_.size() && acrf_slot_[w] >= 0) {
      free_acrf_.insert(static_cast<uint32_t>(acrf_slot_[w]));
      acrf_slot_[w] = -1;
    }
  }
}

uint32_t FineRegSystem::MrfSlot(uint32_t warp) const {
  if (warp >= acrf_slot_.size() || acrf_slot_[warp] < 0)
    throw std::logic_error(fmt::format("finereg: warp {} has no ACRF slot", warp));
  return static_cast<uint32_t>(acrf_slot_[warp]);
}

void FineRegSystem::Restore(Cta& c) {
  // The CTA's ACRF slots may differ from those it left: its registers are written to the new
  // ones (full-rf: they never moved, but the loop's MRF holds only the running warps, so every
  // register is written to the slot).
  TakeSlots(c);
  if (listener_ != nullptr && cfg_.target == "full-rf") {
    for (uint32_t w : c.warps) {
      for (int r = 0; r < regs_per_thread_ && r < k_.regs_per_thread; ++r)
        listener_->Transaction(MrfWrite(w, MrfSlot(w), r, true));
    }
  }
  if (listener_ != nullptr && cfg_.target == "pcrf") {
    // The chain walked out of the PCRF (its rows go to the ACRF below).
    std::vector<PcrfChainEntry> chain;
    chain.reserve(c.chain.size());
    for (const SavedReg& r : c.chain)
      chain.push_back({r.warp, WarpInCta(c, r.warp), r.reg, r.entry});
    listener_->Transaction(
        PcrfRestore(c.mon, chain, static_cast<int>(free_.size() + chain.size())));
  }
  for (const SavedReg& r : c.chain) {
    // The warp must not have issued while its registers were away.
    const auto pos =
        static_cast<size_t>(std::find(c.warps.begin(), c.warps.end(), r.warp) - c.warps.begin());
    if (pos >= c.warps.size() || warps_[r.warp].issued != c.issued_at_save[pos])
      throw std::logic_error(
          fmt::format("finereg: warp {} issued while its register r{} was saved", r.warp, r.reg));
    Write(mrf_level_, false);  // the ACRF row written back
    if (listener_ != nullptr)
      listener_->Transaction(MrfWrite(r.warp, MrfSlot(r.warp), r.reg, true));
    ++fs_.restored_entries;
    if (cfg_.target == "pcrf") {
      if (r.entry < 0 || held_[static_cast<size_t>(r.entry)] == 0)
        throw std::logic_error(fmt::format("finereg: restore of a free PCRF entry {}", r.entry));
      held_[static_cast<size_t>(r.entry)] = 0;
      free_.insert(r.entry);
      if (hop_event_ >= 0)
        ++st_.counts.events[static_cast<size_t>(hop_event_)];
    } else {
      fs_.memory_bytes += static_cast<uint64_t>(cfg_.row_bytes);
    }
  }
  if (pointer_event_ >= 0 && !c.chain.empty() && cfg_.target == "pcrf")
    ++st_.counts.events[static_cast<size_t>(pointer_event_)];  // the CTA's pointer-table line
  const uint64_t n = c.chain.size();
  c.chain.clear();
  c.restore_entries = n;
  CheckPcrf();
}

void FineRegSystem::CheckPcrf() {
  if (cfg_.target != "pcrf")
    return;
  size_t occupied = 0;
  std::vector<uint8_t> seen(held_.size(), 0);
  for (const Cta& c : ctas_) {
    std::set<std::pair<uint32_t, uint16_t>> regs;
    for (const SavedReg& r : c.chain) {
      ++occupied;
      if (r.entry < 0 || seen[static_cast<size_t>(r.entry)] != 0 ||
          held_[static_cast<size_t>(r.entry)] == 0)
        throw std::logic_error(fmt::format("finereg: PCRF entry {} not held once", r.entry));
      seen[static_cast<size_t>(r.entry)] = 1;
      if (!regs.insert({r.warp, r.reg}).second)
        throw std::logic_error(
            fmt::format("finereg: warp {} register r{} saved twice", r.warp, r.reg));
    }
  }
  if (occupied + free_.size() != held_.size())
    throw std::logic_error(fmt::format("finereg: PCRF free {} + occupied {} != entries {}",
                                       free_.size(), occupied, held_.size()));
  fs_.max_pcrf_entries = std::max<uint64_t>(fs_.max_pcrf_entries, occupied);
}

void FineRegSystem::SwitchIn(int slot, uint64_t cycle, uint64_t ready) {
  Cta& c = ctas_[static_cast<size_t>(slot)];
  if (c.state == State::kWaiting) {
    ++fs_.starts;
    c.mon = FreeMonitorSlot();
    mon_cta_[static_cast<size_t>(c.mon)] = slot;
  } else {
    ++fs_.restores;
  }
  TakeSlots(c);
  c.decided = cycle;
  c.ready_at = ready;
  if (ready <= cycle) {
    c.state = State::kActive;  // nothing to move: it runs at once
    return;
  }
  c.state = State::kRestoring;
  ++moving_;
}

void FineRegSystem::FillAcrf(uint64_t cycle) {
  recheck_ = false;
  for (;;) {
    int running = 0;
    uint64_t used = 0;
    for (const Cta& c : ctas_) {
      if (c.state == State::kActive || c.state == State::kRestoring) {
        ++running;
        used += RegsPerCta(c);
      }
    }
    const int cand = Candidate(-1);
    if (cand < 0 || running >= ActiveLimit())
      break;
    Cta& c = ctas_[static_cast<size_t>(cand)];
    if (cfg_.target != "full-rf" && used + RegsPerCta(c) > acrf_regs_)
      break;
    uint64_t n = 0;
    if (c.state == State::kPending) {
      Restore(c);
      n = c.restore_entries;
    }
    SwitchIn(cand, cycle, Move(cycle, 0, n));
    if (listener_ != nullptr && cfg_.target == "pcrf")
      listener_->Transaction(CsmSet(c.mon, 2, 2, Counts()));
  }
  Census();
}

void FineRegSystem::CtaStalled(uint64_t cycle, const sim::CtaInfo& info) {
  Cta& s = ctas_.at(info.slot);
  if (s.state != State::kActive)
    return;
  s.stalled = true;
  Decide(cycle, info.slot, true);
}

void FineRegSystem::CtaResumed(uint64_t, const sim::CtaInfo& info) {
  ctas_.at(info.slot).stalled = false;
}

void FineRegSystem::Decide(uint64_t cycle, uint32_t slot, bool first) {
  Cta& s = ctas_[slot];
  const int cand = Candidate(static_cast<int>(slot));
  const bool csm = listener_ != nullptr && cfg_.target == "pcrf";
  // The monitor's inputs: the candidate set and whether the SM has a CTA to start.
  const std::vector<int> ready = csm ? ReadySlots() : std::vector<int>{};
  const bool can_launch = csm && AnyWaiting();
  if (cand < 0) {
    fs_.no_candidate += first ? 1 : 0;
    if (csm)
      listener_->Transaction(CsmDecision(s.mon, 0, static_cast<int>(free_.size()), -1, false, 0,
                                         false, Counts(), ready, can_launch));
    return;
  }
  Cta& in = ctas_[static_cast<size_t>(cand)];
  uint64_t lookup = 0;
  std::vector<SavedReg> live = LiveRegs(s, lookup);
  const bool pending = in.state == State::kPending;
  const int free_before = static_cast<int>(free_.size());
  const int saved = pending ? static_cast<int>(in.chain.size()) : 0;
  if (cfg_.target == "pcrf") {
    const size_t avail = free_.size() + (in.state == State::kPending ? in.chain.size() : 0);
    if (live.size() > avail) {
      fs_.kept += first ? 1 : 0;
      if (csm)
        listener_->Transaction(CsmDecision(s.mon, static_cast<int>(live.size()), free_before,
                                           pending ? in.mon : FreeMonitorSlot(), pending, saved,
                                           false, Counts(), ready, can_launch));
      return;
    }
  }
  const int nlive = static_cast<int>(live.size());
  ++fs_.switches;
  s.stalled = false;
  ReleaseSlots(s);  // its live registers leave the ACRF (before the restore takes slots)
  uint64_t n = 0;
  if (in.state == State::kPending) {
    Restore(in);  // the V-B decision counts the entries its restore frees
    n += in.restore_entries;
  }
  Save(s, std::move(live));
  n += s.chain.size();
  const uint64_t end = Move(cycle, cfg_.target == "full-rf" ? 0 : lookup, n);
  s.state = State::kSaving;
  s.ready_at = end;
  ++moving_;
  SwitchIn(cand, cycle, end);
  if (csm)
    listener_->Transaction(CsmDecision(s.mon, nlive, free_before, in.mon, pending, saved, true,
                                       Counts(), ready, can_launch));
  Census();
}

CsmCounts FineRegSystem::Counts() const {
  CsmCounts n;
  for (const Cta& c : ctas_) {
    n.active += c.state == State::kActive || c.state == State::kRestoring;
    n.pending += c.state == State::kSaving || c.state == State::kPending;
  }
  return n;
}

void FineRegSystem::Census() {
  uint64_t resident = 0, active = 0;
  for (const Cta& c : ctas_) {
    resident += c.state != State::kEmpty && c.state != State::kWaiting;
    active += c.state == State::kActive || c.state == State::kRestoring;
  }
  fs_.max_resident = std::max(fs_.max_resident, resident);
  fs_.max_active = std::max(fs_.max_active, active);
  if (active > static_cast<uint64_t>(ActiveLimit()))
    throw std::logic_error(
        fmt::format("finereg: {} CTAs run, the scheduling limit is {}", active, ActiveLimit()));
}

void FineRegSystem::Tick(uint64_t cycle) {
  RfSystem::Tick(cycle);
  if (moving_ == 0 && !recheck_)
    return;
  bool running = false;
  for (Cta& c : ctas_) {
    if ((c.state == State::kSaving || c.state == State::kRestoring) && c.ready_at <= cycle) {
      if (c.state == State::kRestoring)
        fs_.move_wait_cycles += cycle - c.decided;
      c.state = c.state == State::kSaving ? State::kPending : State::kActive;
      --moving_;
      recheck_ = true;
    }
    running = running || c.state == State::kActive;
  }
  if (moving_ > 0 && !running)
    ++fs_.move_stall_cycles;
  if (!recheck_)
    return;
  FillAcrf(cycle);
  // The candidates changed: decide again for the CTAs still stalled (their results not back).
  for (uint32_t s = 0; s < ctas_.size(); ++s) {
    if (ctas_[s].state == State::kActive && ctas_[s].stalled && !Ready(ctas_[s]))
      Decide(cycle, s, false);
  }
}

bool FineRegSystem::CanIssue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  return RfSystem::CanIssue(cycle, warp, d);
}

int FineRegSystem::Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  const int slot = warp < warp_slot_.size() ? warp_slot_[warp] : -1;
  if (slot < 0 || ctas_[static_cast<size_t>(slot)].state != State::kActive)
    throw std::logic_error(
        fmt::format("finereg: warp {} issued while its CTA is not active", warp));
  WarpTrack& t = warps_[warp];
  ++t.issued;
  t.long_outstanding += k_.code[d.inst].long_latency ? 1 : 0;
  return RfSystem::Issue(cycle, warp, d);
}

void FineRegSystem::Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  RfSystem::Writeback(cycle, warp, d);
  if (k_.code[d.inst].long_latency && --warps_[warp].long_outstanding == 0) {
    const int slot = warp_slot_[warp];
    recheck_ = recheck_ || ctas_[static_cast<size_t>(slot)].state == State::kPending;
  }
}

void FineRegSystem::ReadOperands(uint32_t, const sim::DynInst& d, std::vector<int>& mrf) {
  const sim::Instruction& in = k_.code[d.inst];
  ForEachReg(in.srcs, [&](int r) { mrf.push_back(r); });
  Read(mrf_level_, sim::IsSharedUnit(in.op_class), mrf.size());
}

bool FineRegSystem::ReadsMrf(uint32_t, const sim::DynInst& d) const {
  return !k_.code[d.inst].srcs.empty();
}

void FineRegSystem::WriteResults(uint32_t warp, const sim::DynInst& d) {
  const sim::Instruction& in = k_.code[d.inst];
  Write(mrf_level_, sim::IsSharedUnit(in.op_class), static_cast<uint64_t>(RegsOf(in.dsts)));
  // A result of a warp whose CTA was switched out (a long-latency result landing after the
  // save) has no ACRF slot: the register's row is the one its restore writes back.
  if (listener_ != nullptr && warp < acrf_slot_.size() && acrf_slot_[warp] >= 0)
    ForEachReg(in.dsts, [&](int r) { listener_->Transaction(MrfWrite(warp, MrfSlot(warp), r)); });
  else if (listener_ != nullptr && cfg_.target == "pcrf")
    ForEachReg(in.dsts, [&](int r) { listener_->Transaction(PcrfPendingResult(warp, r)); });
}

void FineRegSystem::Finish() {
  RfSystem::Finish();
  const FineRegStats& f = fs_;
  st_.extra = {{"switches", f.switches},
               {"switches kept (no PCRF room)", f.kept},
               {"stalls with no candidate", f.no_candidate},
               {"restores", f.restores},
               {"starts", f.starts},
               {"saved entries", f.saved_entries},
               {"restored entries", f.restored_entries},
               {"vector lookups", f.vector_lookups},
               {"vector misses", f.vector_misses},
               {"port move cycles", f.move_cycles},
               {"switch-in wait cycles", f.move_wait_cycles},
               {"move stall cycles", f.move_stall_cycles},
               {"extra memory bytes", f.memory_bytes},
               {"max resident CTAs (sum over SMs)", f.max_resident},
               {"max active CTAs (sum over SMs)", f.max_active},
               {"max PCRF entries (sum over SMs)", f.max_pcrf_entries}};
}

// ---------------------------------------------------------------------------------------------
// Registration

namespace {

// The ACRF is the MRF of Gebhart's frame; FineReg's structures are counted as components, per
// event (a PCRF entry holds a whole warp register, not a lane-cluster row). Without a
// characterization of the pcrf or live-vector-cache family (`--characterization`) their
// energies are gpurf estimates from Gebhart's per-row figures; with one they are ours, the PCRF
// data array rescaled to the design's entries by the SRAM model's law (synth/sram_model.h:
// energy per access x (W / W0) x sqrt(D / D0)) and its logic (tags, pointer table, free-space
// monitor) held at the characterized size.
energy::Energies FineRegEnergies(const DesignSpec& d, int slots, const sp::RegisterFileEnergies& pe,
                                 const std::string& json) {
  energy::Energies e;
  energy::LevelEnergy mrf = energy::gebhart::Level("MRF", d.hierarchy.l1_entries_per_thread, slots);
  mrf.read_pj = pe.mrf_read_pj;
  mrf.write_pj = pe.mrf_write_pj;
  mrf.mm = {pe.mrf_private_mm, pe.mrf_shared_mm};
  if (!json.empty())
    mrf.source = pe.source + " (characterization " + json + ")";
  e.levels.push_back(std::move(mrf));
  const std::string est = "gpurf estimate from " + pe.source + ": ";
  auto add = [&](const char* name, const char* label, double pj, std::string source, bool per_row) {
    energy::ComponentEnergy c{name, label, pj, std::move(source)};
    c.per_row = per_row;
    e.components.push_back(std::move(c));
  };
  if (const sp::StructureCharacterization* p = pe.Structure("pcrf")) {
    const FineRegConfig c = FineRegConfig::From(d);
    const double entries = p->Parameter("entries"), row_bytes = p->Parameter("row_bytes");
    const double scale = std::sqrt(c.pcrf_entries() / entries) * (c.row_bytes / row_bytes);
    const std::string ours = fmt::format(
        "ours: {}; data array (SRAM model) x {:.3g} for {} entries of {} bytes (sqrt(D/D0) x "
        "W/W0), logic as characterized",
        p->Source(), scale, c.pcrf_entries(), c.row_bytes);
    add("PCRF tag+row writes", "pcrf wr", p->WritePj(scale), "`write` " + ours, false);
    add("PCRF chain hops", "hops", p->ReadPj(scale), "`read` " + ours, false);
    add("PCRF pointer updates", "ptrs", p->Component("pointer_update"),
        "`pointer_update` ours: " + p->Source(), false);
  } else {
    add("PCRF tag+row writes", "pcrf wr", pe.mrf_write_pj + pe.l0_write_pj,
        est + "an MRF row write plus a flop-array write for the tag", true);
    add("PCRF chain hops", "hops", pe.mrf_read_pj + pe.l0_read_pj,
        est + "an MRF row read plus a flop-array read for the tag", true);
    add("PCRF pointer updates", "ptrs", pe.l0_write_pj,
        est + "a flop-array write (pointer table line)", true);
  }
  if (const sp::StructureCharacterization* v = pe.Structure("live-vector-cache")) {
    const FineRegConfig c = FineRegConfig::From(d);
    add("vector-cache accesses", "vcache", v->Component("read"),
        fmt::format("`read` ours: {} (the design's cache: {} lines)", v->Source(), c.vector_lines),
        false);
  } else {
    add("vector-cache accesses", "vcache", pe.l1_read_pj,
        est + "an L1 ORF read (a 32-line flop array)", true);
  }
  e.row_bits = 128;
  e.pj_per_mm_word = pe.wire_pj_per_mm_32bit;
  e.writeback_mm = pe.mrf_private_mm;
  return e;
}

}  // namespace

GPURF_REGISTER(
    HarnessHierarchy, finereg, "finereg",
    (HarnessHierarchy{
        .allocated_levels = [](const DesignSpec&) { return 1; },
        .make_system = [](const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm,
                          const sp::KernelAnalysis& a,
                          const HarnessOptions& opt) -> std::unique_ptr<RfSystem> {
          return std::make_unique<FineRegSystem>(k, sm, std::max(1, d.mrf.banks_per_cluster),
                                                 opt.mrf_collectors, FineRegConfig::From(d),
                                                 sp::FineRegLiveVectors(k, a.live));
        },
        .describe = [](const DesignSpec& d, const HarnessOptions&, int) -> std::string {
          const FineRegConfig c = FineRegConfig::From(d);
          return fmt::format("FineReg: {} KB ACRF + {} KB PCRF, {} resident CTAs, switch to {}",
                             c.acrf_bytes / 1024, c.pcrf_bytes / 1024, c.resident_ctas, c.target);
        },
        // The PCRF (pointer table and free-space monitor included), the live-register vector
        // cache and (with the PCRF: its decisions weigh PCRF room) the CTA status monitor, as
        // gen/config/hierarchies/finereg.cc names them (the ACRF is the MRF, the loop's register
        // home).
        .rtl_structures =
            [](const DesignSpec& d) {
              const FineRegConfig c = FineRegConfig::From(d);
              std::vector<std::string> v;
              if (c.target == "pcrf" && c.pcrf_bytes > 0)
                v.emplace_back("pcrf");
              if (c.target != "full-rf")
                v.emplace_back("live_vector_cache");
              if (c.target == "pcrf" && c.pcrf_bytes > 0)
                v.emplace_back("cta_status_monitor");
              return v;
            },
        .compiler_note =
            [](const DesignSpec& d) {
              return fmt::format(
                  "design '{}' is FineReg: the compiler provides live-register vectors per "
                  "instruction (the registers a CTA stalled there saves), not ORF levels",
                  d.name);
            },
        .energies = FineRegEnergies,
        .characterized_kinds = {"pcrf", "live-vector-cache"},
        .home_resident_warps = [](const DesignSpec& d, const sim::KernelRun& run,
                                  const sim::SmConfig& sm) -> uint64_t {
          // The running CTAs' registers are in the ACRF (full-rf: the whole register file).
          const FineRegConfig c = FineRegConfig::From(d);
          sim::SmConfig acrf = sm;
          if (c.target != "full-rf")
            acrf.registers = static_cast<uint32_t>(c.acrf_bytes / 4);
          return sim::MaxLiveWarps(run, acrf);
        },
    }))

}  // namespace gpurf::harness
