#include "verif/stimulus/live_vector_cache_stimulus.h"

#include <algorithm>

#include "gen/structures/live_vector_cache/live_vector_cache_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = LiveVectorCachePort;

LiveVectorCacheStimulus::LiveVectorCacheStimulus(const LiveVectorCacheSpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed) {}

std::string LiveVectorCacheStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kHot:
      return "hot";
    case PhaseKind::kConflict:
      return "conflict";
    case PhaseKind::kCold:
      return "cold";
    case PhaseKind::kFastMemory:
      return "fast-memory";
    case PhaseKind::kVectors:
      return "vectors";
    case PhaseKind::kBackpressure:
      return "backpressure";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

void LiveVectorCacheStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {PhaseKind::kHot,        PhaseKind::kHot,
                                      PhaseKind::kConflict,   PhaseKind::kCold,
                                      PhaseKind::kFastMemory, PhaseKind::kFastMemory,
                                      PhaseKind::kVectors,    PhaseKind::kBackpressure,
                                      PhaseKind::kIdle,       PhaseKind::kResetPulse};
  do {
    phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  } while (phase_ == PhaseKind::kResetPulse && !Chance(0.3));
  phase_left_ = phase_ == PhaseKind::kResetPulse
                    ? 1
                    : Uniform(300, 300 + 8 * static_cast<uint64_t>(spec_.fetch_latency));
  // A new working set now and then: a few PCs, spread over the lines or sharing a few.
  if (hot_.empty() || Chance(0.15)) {
    hot_.clear();
    const int n = static_cast<int>(Uniform(1, static_cast<uint64_t>(std::min(spec_.entries, 12))));
    for (int i = 0; i < n; ++i)
      hot_.push_back(Pc());
  }
}

uint64_t LiveVectorCacheStimulus::Pc() {
  const uint64_t mask = spec_.pc_bits >= 64 ? ~0ULL : (1ULL << spec_.pc_bits) - 1;
  uint64_t pc = rng_() & mask;
  if (Chance(0.7))  // mostly small, aligned code addresses; sometimes misaligned junk bits
    pc = (pc & 0xffff & mask) & ~((1ULL << spec_.align_bits) - 1);
  return pc;
}

Bits LiveVectorCacheStimulus::Vector() {
  Bits v(spec_.vector_bits);
  const int style = static_cast<int>(Uniform(0, phase_ == PhaseKind::kVectors ? 5 : 9));
  if (style == 0)
    return v;  // no live register
  if (style == 1) {
    v.fill_ones();
    return v;
  }
  if (style == 2) {
    v.set_bit(static_cast<int>(Uniform(0, static_cast<uint64_t>(spec_.vector_bits - 1))), true);
    return v;
  }
  if (style == 3) {  // the top register only
    v.set_bit(spec_.vector_bits - 1, true);
    return v;
  }
  for (int w = 0; w < v.num_words(); ++w)
    v.data()[w] = style < 6 ? (rng_() & rng_()) : rng_();  // sparse or dense
  v.canonicalize();
  return v;
}

void LiveVectorCacheStimulus::Observe(uint64_t cycle, const PortValues& out) {
  if (out[P::kMemReqValid].bit(0) && req_ready_) {
    pending_ = true;
    const uint64_t lat = phase_ == PhaseKind::kFastMemory || phase_ == PhaseKind::kVectors ||
                                 phase_ == PhaseKind::kConflict
                             ? Uniform(1, 8)
                             : static_cast<uint64_t>(spec_.fetch_latency);
    resp_at_ = cycle + lat;
  }
}

void LiveVectorCacheStimulus::Next(uint64_t cycle, PortValues& in) {
  if (phase_left_ == 0)
    PickPhase();
  --phase_left_;
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN] = Bits(1, reset ? 0 : 1);
  for (int p = P::kLkValid; p <= P::kDecReady; ++p) {
    for (int w = 0; w < in[p].num_words(); ++w)
      in[p].data()[w] = rng_();
    in[p].canonicalize();
  }
  if (reset)
    pending_ = false;
  double p_lk = 0.7, p_ready = 0.85, p_req = 0.9;
  uint64_t pc = 0;
  switch (phase_) {
    case PhaseKind::kHot:
    case PhaseKind::kVectors:
      pc = hot_[Uniform(0, hot_.size() - 1)];
      break;
    case PhaseKind::kConflict: {
      // Same line, another tag: flip a tag bit of a working-set PC.
      pc = hot_[Uniform(0, hot_.size() - 1)];
      const int bit =
          spec_.align_bits + spec_.index_bits +
          static_cast<int>(Uniform(0, static_cast<uint64_t>(std::min(spec_.tag_bits, 3) - 1)));
      if (Chance(0.5))
        pc ^= 1ULL << bit;
      break;
    }
    case PhaseKind::kBackpressure:
      p_ready = 0.15, p_req = 0.2;
      pc = Chance(0.5) ? hot_[Uniform(0, hot_.size() - 1)] : Pc();
      break;
    case PhaseKind::kIdle:
      p_lk = 0.0;
      break;
    default:
      pc = Pc();
  }
  in[P::kLkValid].set_bit(0, !reset && Chance(p_lk));
  if (in[P::kLkValid].bit(0))
    in[P::kLkPc].set(0, spec_.pc_bits, pc);
  req_ready_ = Chance(p_req);
  in[P::kMemReqReady].set_bit(0, req_ready_);
  in[P::kDecReady].set_bit(0, Chance(p_ready));
  const bool resp = !reset && pending_ && cycle >= resp_at_;
  in[P::kMemRespValid].set_bit(0, resp);
  if (resp) {
    pending_ = false;
    in[P::kMemRespVector] = Vector();
  }
}

GPURF_REGISTER(StimulusFamily, live_vector_cache, "live-vector-cache",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<LiveVectorCacheStimulus>(
                         SpecAs<LiveVectorCacheSpec>(s), seed);
                   }})

}  // namespace gpurf
