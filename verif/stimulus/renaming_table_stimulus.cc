#include "verif/stimulus/renaming_table_stimulus.h"

#include <algorithm>

#include "gen/structures/renaming_table/renaming_table_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = RenamingTablePort;
using S = RenamingTableSpec;

RenamingTableStimulus::RenamingTableStimulus(const RenamingTableSpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed) {
  NewExempt();
}

std::string RenamingTableStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kAlu:
      return "alu";
    case PhaseKind::kConflicts:
      return "conflicts";
    case PhaseKind::kFill:
      return "fill";
    case PhaseKind::kRelease:
      return "release";
    case PhaseKind::kExit:
      return "exit";
    case PhaseKind::kStale:
      return "stale";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

void RenamingTableStimulus::NewExempt() {
  // N: none, the most whose exempt blocks fit the physical registers, or in between.
  const int max_n = std::min(spec_.regs, spec_.phys_regs / spec_.warps);
  const int pick = Uniform(0, 3);
  n_ = pick == 0 ? 0 : pick == 1 ? max_n : Uniform(0, max_n);
  pool_.clear();
  for (int id = spec_.warps * n_; id < spec_.phys_regs; ++id)
    pool_.insert(id);
  recent_.clear();
}

int RenamingTableStimulus::Limit() const {
  return std::min(spec_.regs, n_ + spec_.window);
}

int RenamingTableStimulus::RegInBank(int bank) {
  // A renamed register whose entry (r - N) is in `bank`.
  const int entries = Limit() - n_;
  const int rows = (entries - bank + spec_.banks - 1) / spec_.banks;
  if (rows <= 0)
    return RenamedReg();
  return n_ + bank + spec_.banks * Uniform(0, rows - 1);
}

void RenamingTableStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {
      PhaseKind::kAlu,     PhaseKind::kAlu,       PhaseKind::kConflicts, PhaseKind::kFill,
      PhaseKind::kRelease, PhaseKind::kExit,      PhaseKind::kStale,     PhaseKind::kAlu,
      PhaseKind::kIdle,    PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  phase_left_ =
      phase_ == PhaseKind::kResetPulse ? 1 : std::uniform_int_distribution<uint64_t>(64, 512)(rng_);
  focus_.clear();
  const int n = phase_ == PhaseKind::kFill ? 1 : Uniform(1, 4);
  for (int i = 0; i < n; ++i)
    focus_.push_back(Uniform(0, spec_.warps - 1));
  fill_next_ = 0;
}

void RenamingTableStimulus::Instruction(PortValues& in) {
  const int warp = Warp();
  in[P::kReqOp] = Bits(2, S::kInstr);
  in[P::kReqWarp] = Bits(spec_.warp_bits, static_cast<uint64_t>(warp));
  const bool renamed_exists = Limit() > n_;
  const int bank = Uniform(0, spec_.banks - 1);
  for (int p = 0; p < S::kSources; ++p) {
    if (phase_ == PhaseKind::kFill || !Chance(0.8))
      continue;
    int reg = AnyReg();
    if (renamed_exists && phase_ == PhaseKind::kConflicts)
      reg = (p > 0 && Chance(0.3)) ? static_cast<int>(in[P::kSrcReg].get(0, spec_.reg_bits))
                                   : RegInBank(bank);
    else if (renamed_exists && phase_ == PhaseKind::kStale && !recent_.empty() && Chance(0.6))
      reg = recent_[Uniform(0, static_cast<int>(recent_.size()) - 1)];
    const bool pir = Chance(phase_ == PhaseKind::kStale ? 0.5 : 0.25);
    in[P::kSrcValid].set_bit(p, true);
    in[P::kSrcReg].set(p * spec_.reg_bits, spec_.reg_bits, static_cast<uint64_t>(reg));
    in[P::kSrcRelease].set_bit(p, pir);
    if (pir && reg >= n_) {
      recent_.push_back(reg);
      if (recent_.size() > 8)
        recent_.erase(recent_.begin());
    }
  }
  if (!Chance(phase_ == PhaseKind::kFill ? 1.0 : 0.85))
    return;
  int reg = AnyReg();
  if (renamed_exists && phase_ == PhaseKind::kConflicts)
    reg = RegInBank(bank);
  if (renamed_exists && phase_ == PhaseKind::kFill)
    reg = n_ + (fill_next_++ % (Limit() - n_));
  if (pool_.empty()) {
    if (n_ == 0)
      return;  // nothing but renamed registers, and no free id: no destination
    reg = Uniform(0, n_ - 1);
  }
  in[P::kDstValid] = Bits(1, 1);
  in[P::kDstReg] = Bits(spec_.reg_bits, static_cast<uint64_t>(reg));
  // The lowest free id; anything when the destination is exempt and the pool empty (unused).
  const uint64_t phys =
      pool_.empty() ? rng_() % static_cast<uint64_t>(spec_.phys_regs) : *pool_.begin();
  in[P::kDstPhys] = Bits(spec_.phys_bits, phys);
}

void RenamingTableStimulus::Release(PortValues& in, bool exit) {
  in[P::kReqOp] = Bits(2, exit ? S::kExit : S::kRelease);
  in[P::kReqWarp] = Bits(spec_.warp_bits, static_cast<uint64_t>(Warp()));
  if (!exit) {
    // A pbr list: a few registers, exempt ones included (ignored).
    const int k = Uniform(1, 6);
    for (int i = 0; i < k; ++i)
      in[P::kRelMask].set_bit(AnyReg(), true);
  }
}

void RenamingTableStimulus::Next(uint64_t /*cycle*/, PortValues& in) {
  if (phase_left_ == 0) {
    PickPhase();
    if (phase_ == PhaseKind::kResetPulse)
      NewExempt();
  }
  --phase_left_;
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN] = Bits(1, reset ? 0 : 1);
  in[P::kExempt] = Bits(spec_.exempt_bits, static_cast<uint64_t>(n_));
  for (int p = P::kReqValid; p <= P::kRelMask; ++p)
    in[p].clear();
  // Junk in the fields a request does not use: they must be ignored.
  in[P::kSrcRelease].set(0, S::kSources, rng_());
  in[P::kRelMask].set(0, std::min(spec_.regs, 64), rng_());
  if (phase_ == PhaseKind::kIdle || reset || Chance(0.1))
    return;
  in[P::kReqValid] = Bits(1, 1);
  in[P::kRelMask].clear();
  in[P::kSrcRelease].clear();
  if (phase_ == PhaseKind::kRelease && Chance(0.3))
    Release(in, false);
  else if (phase_ == PhaseKind::kExit && Chance(0.15))
    Release(in, true);
  else if (!focus_.empty())
    Instruction(in);
  else
    in[P::kReqValid] = Bits(1, 0);
}

void RenamingTableStimulus::Observe(uint64_t /*cycle*/, const PortValues& out) {
  ready_ = out[P::kReqReady].bit(0);
  if (out[P::kDstAlloc].bit(0))
    pool_.erase(static_cast<int>(out[P::kDstPhysOut].get(0, spec_.phys_bits)));
  for (int b = 0; b < spec_.banks; ++b) {
    if (out[P::kFreeValid].bit(b))
      pool_.insert(static_cast<int>(out[P::kFreePhys].get(b * spec_.phys_bits, spec_.phys_bits)));
  }
}

GPURF_REGISTER(StimulusFamily, renaming_table, "renaming-table",
               StimulusFamily{[](const StructureSpec& s,
                                 uint64_t seed) -> std::unique_ptr<Stimulus> {
                 return std::make_unique<RenamingTableStimulus>(SpecAs<RenamingTableSpec>(s), seed);
               }})

}  // namespace gpurf
