// Golden model of the CTA register balance counters and issue throttle of GPU register file
// virtualization (Jeon et al., MICRO 2015, section 8.1), written from the semantics the spec
// states (gen/structures/cta_throttle/cta_throttle_spec.h), not from the RTL: per resident CTA
// its worst case C and held registers k per bank, the free registers per bank, the reserved CTA
// and the spill mode. It reports the first violated invariant or contract through Failure():
//   T1 a throttled CTA never issues while the throttle is on;
//   T2 0 <= k <= min(C, P) for an alive CTA, nothing held by a free slot;
//   T3 free + sum of k = P per bank (the model keeps the free count as a counter of its own);
//   T4 a CTA is reserved exactly when one is alive, and the reserved CTA is alive;
//   T5 a grant to another CTA leaves the reserved CTA's worst case free;
//   C1 the port contract (launch, exit, allocation, release, spills released in time).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/structures/cta_throttle/cta_throttle_ports.h"
#include "gen/structures/cta_throttle/cta_throttle_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

class CtaThrottleModel : public CycleModel, public CtaThrottlePort {
 public:
  explicit CtaThrottleModel(const CtaThrottleSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override { return failure_; }

  // The state, for tests and drivers.
  bool Alive(int slot) const { return ctas_[slot].alive; }
  int Need(int slot, int bank) const { return ctas_[slot].need[bank]; }
  int Held(int slot, int bank) const { return ctas_[slot].held[bank]; }
  int Free(int bank) const { return free_[bank]; }
  int Reserved() const { return reserved_; }  // -1: none
  bool SpillMode() const { return spill_mode_; }
  // Cnt_i = sum_b (C_ib - k_ib), and the paper's throttle condition.
  int64_t Counter(int slot) const;
  bool Throttle() const;
  bool MayIssue(int slot) const;
  // Whether a group of `slot` with n[b] registers per bank is granted, and its spills.
  bool Grants(int slot, const std::vector<int>& n) const;
  uint64_t grants() const { return grants_; }
  uint64_t throttled_cycles() const { return throttled_cycles_; }
  uint64_t spills() const { return spills_; }

 private:
  struct Cta {
    bool alive = false;
    std::vector<int> need, held;  // per bank: C and k
  };
  void Reset();
  std::vector<int> GroupOf(const PortValues& in) const;
  int ArgMinCounter() const;
  bool Serves(int slot) const;
  void Fail(const std::string& what) {
    if (failure_.empty())
      failure_ = what;
  }

  const CtaThrottleSpec spec_;
  std::vector<Cta> ctas_;
  std::vector<int> free_;
  int reserved_ = -1;
  bool spill_mode_ = false;
  uint64_t grants_ = 0, throttled_cycles_ = 0, spills_ = 0;
  std::string failure_;
};

}  // namespace gpurf
