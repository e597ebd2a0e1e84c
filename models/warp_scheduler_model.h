// Golden model of the two-level warp scheduler of Gebhart et al., TOCS 2012, section 3, written
// from the paper and the semantics in gen/structures/warp_scheduler/warp_scheduler_spec.h, not
// from the RTL.
//
// WarpScheduler is the library component the SM harness drives: one Step() per cycle with the
// per-warp bit vectors (warp w at bit w), returning the issue selection and the activation and
// deactivation events (which drive ORF invalidation and RFC flushes). Step() checks the three
// invariants after every decision and throws SchedulerInvariantError naming the violated one:
//   I1 never more than A active warps, each active warp in exactly one slot;
//   I2 a suspended (waiting) warp never issues;
//   I3 no ready pending warp waits while an active slot is free.
// WarpSchedulerCycleModel adapts it to the port-level CycleModel of the lockstep harness.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gen/structures/warp_scheduler/warp_scheduler_ports.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

class SchedulerInvariantError : public std::logic_error {
 public:
  SchedulerInvariantError(int invariant, const std::string& what)
      : std::logic_error(what), invariant_(invariant) {}
  int invariant() const { return invariant_; }  // 1, 2 or 3

 private:
  int invariant_;
};

class WarpScheduler {
 public:
  enum class Policy { kGreedy, kRoundRobin };

  // One cycle's per-warp inputs; bit w belongs to warp w.
  struct Inputs {
    uint64_t ready = 0;    // no short-latency hazard
    uint64_t valid = 0;    // a decoded instruction is buffered
    uint64_t suspend = 0;  // strand end: deschedule after issuing this instruction
    uint64_t wake = 0;     // the long-latency results the warp waits on returned
  };

  struct Activation {
    int slot = 0;
    int warp = 0;
    bool operator==(const Activation&) const = default;
  };

  // What one cycle does (every event takes effect at the cycle's clock edge).
  struct Decision {
    bool issue = false;
    int issue_warp = 0;
    int issue_slot = 0;
    bool deactivate = false;              // the issuing warp is descheduled (slot issue_slot frees)
    std::vector<Activation> activations;  // ascending slot order
  };

  WarpScheduler(int warps, int active, Policy policy);
  explicit WarpScheduler(const WarpSchedulerSpec& spec);
  virtual ~WarpScheduler() = default;

  // The decision for `in` without changing state (what the outputs show before the edge).
  Decision Peek(const Inputs& in) const { return Decide(in); }
  // Decide, check the invariants, and commit: the clock edge. Throws SchedulerInvariantError.
  Decision Step(const Inputs& in);
  void Reset();

  int warps() const { return warps_; }
  int active_slots() const { return active_; }
  Policy policy() const { return policy_; }
  bool IsActive(int warp) const { return (active_mask_ >> warp) & 1U; }
  bool IsWaiting(int warp) const { return (waiting_mask_ >> warp) & 1U; }
  uint64_t active_mask() const { return active_mask_; }
  uint64_t waiting_mask() const { return waiting_mask_; }
  // Slot contents: -1 when empty.
  int SlotWarp(int slot) const { return slots_[slot]; }
  // Pending warps that would be activated if a slot were free: valid, not active, not waiting.
  uint64_t ReadyPending(const Inputs& in) const;

  // Counters for the harness and energy model.
  uint64_t issues() const { return issues_; }
  uint64_t activations() const { return activations_; }
  uint64_t deactivations() const { return deactivations_; }

 protected:
  // The policy: pure function of the state and the inputs. Virtual only so that tests can plant
  // a broken policy and see the invariant checks fire.
  virtual Decision Decide(const Inputs& in) const;

 private:
  void CheckInvariants(const Inputs& in, const Decision& d) const;
  uint64_t All() const { return warps_ == 64 ? ~0ULL : (1ULL << warps_) - 1; }

  int warps_;
  int active_;
  Policy policy_;
  // State.
  std::vector<int> slots_;  // warp per slot, -1 = empty
  uint64_t active_mask_ = 0;
  uint64_t waiting_mask_ = 0;
  int last_slot_ = 0;  // slot that issued last
  bool hold_ = false;  // greedy: last_slot_ still holds the warp that issued last
  int outer_ = 0;      // first warp the activation search tries
  uint64_t issues_ = 0, activations_ = 0, deactivations_ = 0;
};

// Port-level adapter for the lockstep harness (ports indexed by the port table's handles,
// WarpSchedulerPort in warp_scheduler_ports.h). Every output bit is defined every cycle.
class WarpSchedulerCycleModel : public CycleModel, public WarpSchedulerPort {
 public:
  explicit WarpSchedulerCycleModel(const WarpSchedulerSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;

  const WarpScheduler& scheduler() const { return sched_; }
  static WarpScheduler::Inputs InputsOf(const PortValues& in);

 private:
  WarpSchedulerSpec spec_;
  WarpScheduler sched_;
};

}  // namespace gpurf
