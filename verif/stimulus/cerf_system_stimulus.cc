#include "verif/stimulus/cerf_system_stimulus.h"

#include <algorithm>

#include "gen/structures/cerf_system/cerf_system_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = CerfSystemPort;

CerfSystemStimulus::CerfSystemStimulus(const CerfSystemSpec& spec, uint64_t seed)
    : spec_(spec), ts_(spec_.tags), rng_(seed) {}

std::string CerfSystemStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kAlu:
      return "alu";
    case PhaseKind::kMemory:
      return "memory";
    case PhaseKind::kContention:
      return "contention";
    case PhaseKind::kConflicts:
      return "conflicts";
    case PhaseKind::kSlow:
      return "slow-memory";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

void CerfSystemStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {
      PhaseKind::kAlu,        PhaseKind::kMemory, PhaseKind::kContention, PhaseKind::kContention,
      PhaseKind::kConflicts,  PhaseKind::kSlow,   PhaseKind::kAlu,        PhaseKind::kMemory,
      PhaseKind::kContention, PhaseKind::kIdle,   PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  phase_left_ =
      phase_ == PhaseKind::kResetPulse ? 1 : std::uniform_int_distribution<uint64_t>(64, 512)(rng_);
  focus_bank_ = Uniform(0, ts_.banks - 1);
  focus_sets_.clear();
  const int n = Uniform(1, 3);
  for (int i = 0; i < n; ++i)
    focus_sets_.push_back(Uniform(0, ts_.sets - 1));
}

Bits CerfSystemStimulus::RandomData() {
  Bits b(spec_.data_width);
  for (int lsb = 0; lsb < spec_.data_width; lsb += 64)
    b.set(lsb, std::min(64, spec_.data_width - lsb), rng_());
  return b;
}

Bits CerfSystemStimulus::MemoryValue(uint64_t line) {
  auto it = memory_.find(line);
  if (it != memory_.end())
    return it->second;
  // Memory's initial contents: a fixed function of the address (splitmix64 of it).
  Bits b(spec_.data_width);
  uint64_t x = line;
  for (int lsb = 0; lsb < spec_.data_width; lsb += 64) {
    x += 0x9e3779b97f4a7c15ULL;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    b.set(lsb, std::min(64, spec_.data_width - lsb), z ^ (z >> 31));
  }
  return b;
}

uint64_t CerfSystemStimulus::MemAddress() {
  // A tag from a small pool (lines are hit again, sets fill up), a focus set (or any set in
  // the slow phase), any byte offset; the tag's top bit is clear, so never in the reg-mem space.
  const int set = (phase_ == PhaseKind::kSlow && Chance(0.5))
                      ? Uniform(0, ts_.sets - 1)
                      : focus_sets_[Uniform(0, static_cast<int>(focus_sets_.size()) - 1)];
  const uint64_t pool = ts_.tag_width >= 2 ? (uint64_t{1} << (ts_.tag_width - 1)) : 1;
  const uint64_t tag =
      std::min<uint64_t>(static_cast<uint64_t>(Uniform(0, 2 * ts_.ways + 1)), pool - 1);
  return ts_.LineAddress(set, tag) | (rng_() & ((uint64_t{1} << ts_.offset_bits) - 1));
}

bool CerfSystemStimulus::AddReg(int op, bool last, std::set<int>& sets) {
  Lookup l;
  l.op = op;
  l.last = last;
  for (int attempt = 0; attempt < 8; ++attempt) {
    if (op == TagArraySpec::kReadReg) {
      if (live_.empty())
        return false;
      auto it = live_.begin();
      std::advance(it, Uniform(0, static_cast<int>(live_.size()) - 1));
      l.warp = it->first;
      l.reg = it->second;
    } else {
      l.warp = Uniform(0, ts_.warps - 1);
      l.reg = Uniform(0, ts_.regs - 1);
    }
    l.addr = ts_.RegMemAddress(l.warp, l.reg);
    const int set = ts_.SetOf(l.addr);
    const bool want = phase_ == PhaseKind::kContention
                          ? std::count(focus_sets_.begin(), focus_sets_.end(), set) > 0
                      : phase_ == PhaseKind::kConflicts ? ts_.BankOf(l.addr) == focus_bank_
                                                        : true;
    if (sets.count(set) || (!want && attempt < 6))
      continue;
    sets.insert(set);
    l.data = RandomData();
    req_.push_back(l);
    return true;
  }
  return false;
}

bool CerfSystemStimulus::AddMem(int op, std::set<int>& sets) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    Lookup l;
    l.op = op;
    l.addr = MemAddress();
    const int set = ts_.SetOf(l.addr);
    if (sets.count(set))
      continue;
    sets.insert(set);
    l.data = RandomData();
    req_.push_back(l);
    return true;
  }
  return false;
}

void CerfSystemStimulus::NewRequest() {
  req_.clear();
  const int n = spec_.lookups();
  std::set<int> sets;
  const bool memory =
      phase_ == PhaseKind::kMemory ||
      ((phase_ == PhaseKind::kContention || phase_ == PhaseKind::kSlow) && Chance(0.5));
  if (memory) {
    AddMem(Chance(0.6) ? TagArraySpec::kLoad : TagArraySpec::kStore, sets);
  } else {
    const int srcs = n == 1 ? (Chance(0.5) ? 1 : 0) : Uniform(0, n - 1);
    for (int i = 0; i < srcs; ++i)
      AddReg(TagArraySpec::kReadReg, Chance(0.15), sets);
    if (n == 1 ? srcs == 0 : Chance(0.9))
      AddReg(TagArraySpec::kWriteReg, false, sets);
  }
  // Lookup ports: sources first, a destination last (a memory request on port 0); with a
  // conflicts phase the order is shuffled so that a later port wins nothing.
  if (phase_ == PhaseKind::kConflicts)
    std::shuffle(req_.begin(), req_.end(), rng_);
}

void CerfSystemStimulus::Respond(uint64_t cycle, std::vector<Response>& q, int valid, int id,
                                 int data, PortValues& in) {
  auto it = std::find_if(q.begin(), q.end(), [&](const Response& r) { return r.due <= cycle; });
  if (it == q.end())
    return;
  in[valid].set_bit(0, true);
  in[id].set(0, spec_.id_bits, static_cast<uint64_t>(it->id));
  in[data].set_slice(0, MemoryValue(it->addr));
  q.erase(it);
}

void CerfSystemStimulus::Next(uint64_t cycle, PortValues& in) {
  for (int p = P::kRstN; p < P::kNumPorts; ++p) {
    if (p == P::kRstN || p == P::kReqValid || p == P::kLkValid || p == P::kLkOp ||
        p == P::kLkLast || p == P::kLkWarp || p == P::kLkReg || p == P::kLkAddr ||
        p == P::kLkData || p == P::kMemRspValid || p == P::kMemRspId || p == P::kMemRspData ||
        p == P::kFillRspValid || p == P::kFillRspId || p == P::kFillRspData)
      in[p].clear();
  }
  if (phase_left_ == 0)
    PickPhase();
  --phase_left_;
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN].set_bit(0, !reset);
  if (reset) {
    live_.clear();
    l2_q_.clear();
    fill_q_.clear();
    req_.clear();
    return;
  }
  Respond(cycle, l2_q_, P::kMemRspValid, P::kMemRspId, P::kMemRspData, in);
  Respond(cycle, fill_q_, P::kFillRspValid, P::kFillRspId, P::kFillRspData, in);
  if (req_.empty() && phase_ != PhaseKind::kIdle && Chance(0.8))
    NewRequest();
  offered_ = !req_.empty();
  if (!offered_)
    return;
  in[P::kReqValid].set_bit(0, true);
  const int aw = ts_.addr_width, dw = spec_.data_width;
  for (size_t i = 0; i < req_.size(); ++i) {
    const int p = static_cast<int>(i);
    const Lookup& l = req_[i];
    in[P::kLkValid].set_bit(p, true);
    in[P::kLkOp].set(2 * p, 2, static_cast<uint64_t>(l.op));
    in[P::kLkLast].set_bit(p, l.last);
    in[P::kLkWarp].set(p * ts_.warp_bits, ts_.warp_bits, static_cast<uint64_t>(l.warp));
    in[P::kLkReg].set(p * ts_.reg_bits, ts_.reg_bits, static_cast<uint64_t>(l.reg));
    if (l.op >= TagArraySpec::kLoad)
      in[P::kLkAddr].set(p * aw, aw, l.addr);
    in[P::kLkData].set_slice(p * dw, l.data);
  }
}

void CerfSystemStimulus::Observe(uint64_t cycle, const PortValues& out) {
  if (phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse)
    return;
  const int n = spec_.lookups(), aw = ts_.addr_width, dw = spec_.data_width;
  const uint64_t max_latency = phase_ == PhaseKind::kSlow ? 40 : 4;
  for (int p = 0; p < n; ++p) {
    if (out[P::kMemWrValid].bit(p))
      memory_[out[P::kMemWrAddr].get(p * aw, aw)] = out[P::kMemWrData].slice(p * dw, dw);
    if (out[P::kSpillValid].bit(p))
      memory_[out[P::kSpillAddr].get(p * aw, aw)] = out[P::kSpillData].slice(p * dw, dw);
    const uint64_t due = cycle + std::uniform_int_distribution<uint64_t>(1, max_latency)(rng_);
    if (out[P::kMemRdValid].bit(p))
      l2_q_.push_back({due, p, out[P::kMemRdAddr].get(p * aw, aw)});
    if (out[P::kFillValid].bit(p))
      fill_q_.push_back({due, p, out[P::kFillAddr].get(p * aw, aw)});
  }
  if (offered_ && out[P::kReqReady].bit(0)) {
    // Accepted: the program's registers after this instruction.
    for (const Lookup& l : req_) {
      if (l.op == TagArraySpec::kReadReg && l.last)
        live_.erase({l.warp, l.reg});
    }
    for (const Lookup& l : req_) {
      if (l.op == TagArraySpec::kWriteReg)
        live_.insert({l.warp, l.reg});
    }
    req_.clear();
  }
}

GPURF_REGISTER(StimulusFamily, cerf_system, "cerf-system",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<CerfSystemStimulus>(SpecAs<CerfSystemSpec>(s), seed);
                   }})

}  // namespace gpurf
