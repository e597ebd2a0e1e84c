// Reactive stimulus for the two-level warp scheduler: a small SM around it. Each warp has a
// buffered instruction with a strand-end (suspend) bit drawn when it is fetched, i.e. after the
// warp's previous instruction issued (seen through Observe); a warp the scheduler suspends gets
// its long-latency result back after a phase-dependent latency (wake_i for one cycle). Warps may
// exit (last instruction suspends, then no instruction and no wake) and be relaunched (wake and
// instructions again).
//
// Phases, after a reset, in a seeded random order (each 64..512 cycles):
//   random         instruction bubbles, short-latency stalls, strand ends and latencies mixed
//   greedy-hold    every warp valid and ready, no strand ends: greedy keeps one warp, round-robin
//                  rotates
//   sparse         few warps ready, many bubbles: rotation over holes, empty cycles
//   all-suspended  every instruction ends a strand, long latencies: every warp ends up waiting,
//                  nothing issues; the phase ends with a wake storm (all results return at once)
//   wake-while-full  no strand ends while results return: woken warps wait for a slot
//   churn          every issue deschedules its warp, latencies of 1..3 cycles
//   suspend+wake   every instruction ends a strand and wake_i is held for every warp: each
//                  descheduled warp is pending and ready in the same cycle
//   exit-relaunch  some warps exit, stay gone, then are relaunched
//   spurious-wake  wake pulses for warps that are not waiting (must have no effect)
//   idle           no instructions at all
//   reset-pulse    one cycle of reset mid-run
// Configurations with A == W and A == 1 come from the test matrix.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class WarpSchedulerStimulus : public Stimulus {
 public:
  WarpSchedulerStimulus(const WarpSchedulerSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

  enum class PhaseKind {
    kReset,
    kRandom,
    kGreedyHold,
    kSparse,
    kAllSuspended,
    kWakeWhileFull,
    kChurn,
    kSuspendWake,
    kExitRelaunch,
    kSpuriousWake,
    kIdle,
    kResetPulse
  };

 private:
  static constexpr uint64_t kNever = UINT64_MAX;

  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  void PickPhase();
  double SuspendProbability() const;
  uint64_t Latency();
  void Fetch(int warp);  // a new instruction for `warp`

  const WarpSchedulerSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  uint64_t now_ = 0;
  std::vector<bool> suspend_;      // strand-end bit of each warp's buffered instruction
  std::vector<uint64_t> wake_at_;  // cycle the waiting warp's results return, or kNever
  std::vector<bool> waiting_;      // last observed waiting_o
  std::vector<bool> exited_;       // exit-relaunch: the warp is gone until relaunched
  std::vector<bool> exiting_;      // exit-relaunch: the buffered instruction is the warp's last
  uint64_t driven_wake_ = 0;       // wake_i of the current cycle
  bool in_reset_ = true;
};

}  // namespace gpurf
