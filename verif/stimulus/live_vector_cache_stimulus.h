// Stimulus for the live-register vector cache: the register management unit looking up the PCs
// the warps of stalled CTAs stopped at, a memory answering misses, and the register transfer
// taking the decoder's groups. Reactive: it sees the model's mem_req_valid_o and answers an
// accepted request after the memory latency. Inputs not under their valid are junk.
//
// Phases, after a reset, in a seeded random order:
//   hot          lookups from a few PCs (the few stalling instructions): mostly hits
//   conflict     PCs that share a line with different tags: a line replaced again and again
//   cold         random PCs: mostly misses, the memory at `fetch_latency`
//   fast-memory  random PCs with a memory answering in 1..8 cycles (many fills)
//   vectors      the working set with empty, full and single-bit vectors from memory
//   backpressure the register transfer mostly not ready, the memory slow to take requests
//   idle         no lookup
//   reset-pulse  one cycle of reset mid-run
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gen/structures/live_vector_cache/live_vector_cache_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class LiveVectorCacheStimulus : public Stimulus {
 public:
  LiveVectorCacheStimulus(const LiveVectorCacheSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

  enum class PhaseKind {
    kReset,
    kHot,
    kConflict,
    kCold,
    kFastMemory,
    kVectors,
    kBackpressure,
    kIdle,
    kResetPulse
  };
  PhaseKind phase() const { return phase_; }

 private:
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  uint64_t Uniform(uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_);
  }
  void PickPhase();
  uint64_t Pc();
  Bits Vector();

  const LiveVectorCacheSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  std::vector<uint64_t> hot_;  // the working set of stalling PCs
  bool req_ready_ = false;     // mem_req_ready_i driven this cycle
  bool pending_ = false;       // a request was taken and is not answered
  uint64_t resp_at_ = 0;       // the cycle of its answer
};

}  // namespace gpurf
