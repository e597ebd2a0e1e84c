// Golden model of the physical-register availability vectors of GPU register file
// virtualization (Jeon et al., MICRO 2015, sections 7.1 and 8.2), written from the semantics the
// spec states (gen/structures/availability_vectors/availability_vectors_spec.h), not from the
// RTL: per bank, the set of allocated registers, the powered subarrays and the wake-up in
// progress. It reports the first violated invariant or contract through Failure():
//   I1 free count + allocated count = registers per bank (the model keeps the free count as a
//      counter of its own, moved by grants and releases, and compares it with the set);
//   I2 a grant takes a free register of a powered subarray;
//   I3 a gated subarray holds no allocated register;
//   C1 a release names an allocated register, in range, once per cycle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/structures/availability_vectors/availability_vectors_ports.h"
#include "gen/structures/availability_vectors/availability_vectors_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

class AvailabilityVectorsModel : public CycleModel, public AvailabilityVectorsPort {
 public:
  explicit AvailabilityVectorsModel(const AvailabilityVectorsSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override { return failure_; }

  // Per bank: the row a request would be granted now (-1: none powered), the free count, and
  // whether row r is allocated / subarray k powered.
  int GrantRow(int bank) const;
  int FreeCount(int bank) const { return banks_[bank].free; }
  bool Allocated(int bank, int row) const { return banks_[bank].allocated[row]; }
  bool Powered(int bank, int k) const { return banks_[bank].powered[k]; }
  bool Waking(int bank) const { return banks_[bank].wake_sub >= 0; }
  uint64_t wakeups() const { return wakeups_; }

 private:
  struct Bank {
    std::vector<bool> allocated;  // per row
    std::vector<bool> powered;    // per subarray
    int free = 0;                 // the free count, as a counter
    int wake_sub = -1;            // subarray being woken, -1 none
    int wake_left = 0;            // cycles until it is powered
  };
  void Reset();
  bool SubarrayEmpty(const Bank& k, int sub) const;
  void Fail(const std::string& what) {
    if (failure_.empty())
      failure_ = what;
  }

  const AvailabilityVectorsSpec spec_;
  std::vector<Bank> banks_;
  uint64_t wakeups_ = 0;
  std::string failure_;
};

}  // namespace gpurf
