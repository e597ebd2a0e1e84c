#include "verif/stimulus/release_flag_cache_stimulus.h"

#include <algorithm>

#include "gen/structures/release_flag_cache/release_flag_cache_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = ReleaseFlagCachePort;

ReleaseFlagCacheStimulus::ReleaseFlagCacheStimulus(const ReleaseFlagCacheSpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed) {
  NewKernel();
}

std::string ReleaseFlagCacheStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kLoop:
      return "loop";
    case PhaseKind::kSweep:
      return "sweep";
    case PhaseKind::kConflict:
      return "conflict";
    case PhaseKind::kKernel:
      return "kernel";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

uint64_t ReleaseFlagCacheStimulus::FlagsOf(uint64_t pc) const {
  uint64_t x = (pc >> spec_.offset_bits) * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 32;
  return spec_.payload_bits == 64 ? x : x & ((uint64_t{1} << spec_.payload_bits) - 1);
}

void ReleaseFlagCacheStimulus::NewKernel() {
  const uint64_t words = uint64_t{1} << spec_.addr_bits;
  base_ = (rng_() % words) << spec_.offset_bits;
  pirs_ = Uniform(2, 3 * spec_.entries + 2);
}

uint64_t ReleaseFlagCacheStimulus::PirPc(int k) const {
  const uint64_t mask = (uint64_t{1} << spec_.pc_bits) - 1;
  return (base_ + static_cast<uint64_t>(k) * 19 * static_cast<uint64_t>(spec_.inst_bytes)) & mask;
}

void ReleaseFlagCacheStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {
      PhaseKind::kLoop,     PhaseKind::kLoop,   PhaseKind::kSweep, PhaseKind::kConflict,
      PhaseKind::kConflict, PhaseKind::kKernel, PhaseKind::kIdle,  PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  phase_left_ =
      phase_ == PhaseKind::kResetPulse ? 1 : std::uniform_int_distribution<uint64_t>(64, 512)(rng_);
  if (phase_ == PhaseKind::kKernel) {
    flush_pending_ = true;
    NewKernel();
  }
  window_lo_ = Uniform(0, pirs_ - 1);
  window_n_ = Uniform(1, std::max(1, spec_.entries / 2));
  walk_ = 0;
}

uint64_t ReleaseFlagCacheStimulus::LookupPc() {
  switch (phase_) {
    case PhaseKind::kSweep:
      return PirPc(walk_++ % pirs_);
    case PhaseKind::kConflict: {
      // Aliases of the kernel's first pir: the same low index bits (2^IndexBits words apart),
      // and, when entries fold, the word whose low bits are E more (same entry, other tag).
      const uint64_t mask = (uint64_t{1} << spec_.pc_bits) - 1;
      const uint64_t word = static_cast<uint64_t>(spec_.inst_bytes);
      const uint64_t stride = (uint64_t{1} << spec_.index_bits) * word;
      uint64_t pc = base_ + stride * static_cast<uint64_t>(Uniform(0, 2));
      if (spec_.folded && Chance(0.5)) {
        // Low bits l below 2^IndexBits - E share an entry with l + E.
        const uint64_t spare = (uint64_t{1} << spec_.index_bits) - spec_.entries;
        const uint64_t l = rng_() % spare;
        pc = ((pc >> spec_.offset_bits >> spec_.index_bits << spec_.index_bits) + l +
              (Chance(0.5) ? static_cast<uint64_t>(spec_.entries) : 0))
             << spec_.offset_bits;
      }
      return pc & mask;
    }
    default:
      return PirPc((window_lo_ + (walk_++ % window_n_)) % pirs_);
  }
}

void ReleaseFlagCacheStimulus::Next(uint64_t cycle, PortValues& in) {
  cycle_ = cycle;
  if (phase_left_ == 0)
    PickPhase();
  --phase_left_;
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN] = Bits(1, reset ? 0 : 1);
  // Junk in fields that are not offered (ignored), low PC bits included.
  in[P::kLkValid] = Bits(1, 0);
  in[P::kFillValid] = Bits(1, 0);
  in[P::kFlush] = Bits(1, 0);
  in[P::kLkPc] = Bits(spec_.pc_bits, rng_());
  in[P::kFillPc] = Bits(spec_.pc_bits, rng_());
  in[P::kFillFlags] = Bits(spec_.payload_bits, rng_());
  looked_up_ = false;
  if (reset) {
    fills_.clear();
    return;
  }
  const uint64_t junk = rng_() & (static_cast<uint64_t>(spec_.inst_bytes) - 1);
  if (flush_pending_ && Chance(0.3)) {
    in[P::kFlush] = Bits(1, 1);
    flush_pending_ = false;
  }
  if (phase_ != PhaseKind::kIdle && Chance(0.75)) {
    lk_pc_ = LookupPc();
    looked_up_ = true;
    in[P::kLkValid] = Bits(1, 1);
    in[P::kLkPc] = Bits(spec_.pc_bits, lk_pc_ | junk);
  }
  if (!fills_.empty() && fills_.front().due <= cycle) {
    const uint64_t pc = fills_.front().pc;
    fills_.pop_front();
    in[P::kFillValid] = Bits(1, 1);
    in[P::kFillPc] = Bits(spec_.pc_bits, pc | junk);
    in[P::kFillFlags] = Bits(spec_.payload_bits, FlagsOf(pc));
  } else if (Chance(0.02)) {
    const uint64_t pc = PirPc(Uniform(0, pirs_ - 1));
    in[P::kFillValid] = Bits(1, 1);
    in[P::kFillPc] = Bits(spec_.pc_bits, pc);
    in[P::kFillFlags] = Bits(spec_.payload_bits, FlagsOf(pc));
  }
}

void ReleaseFlagCacheStimulus::Observe(uint64_t cycle, const PortValues& out) {
  if (looked_up_ && out[P::kLkMiss].bit(0) && fills_.size() < 16)
    fills_.push_back({cycle + static_cast<uint64_t>(Uniform(1, 6)), lk_pc_});
}

GPURF_REGISTER(StimulusFamily, release_flag_cache, "release-flag-cache",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<ReleaseFlagCacheStimulus>(
                         SpecAs<ReleaseFlagCacheSpec>(s), seed);
                   }})

}  // namespace gpurf
