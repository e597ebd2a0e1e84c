// Golden model of the multi-ported flip-flop register array, written from the port contract in
// gen/structures/flop_array/flop_array_spec.h (not from the RTL): an array of entries with a
// defined bit each, write ports applied in ascending order at the clock edge so the highest
// port wins, and read data taken before or after the edge's writes as the read mode and bypass
// option say.
#pragma once

#include <cstdint>
#include <vector>

#include "base/bits.h"
#include "gen/structures/flop_array/flop_array_ports.h"
#include "gen/structures/flop_array/flop_array_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

// Ports are indexed by the handles of the port table (FlopArrayPort::kWe, ..., flop_array_ports.h),
// which are the manifest indices.
class FlopArrayModel : public CycleModel, public FlopArrayPort {
 public:
  explicit FlopArrayModel(const FlopArraySpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;

  // Direct access for unit tests and the SM harness.
  bool Defined(int entry) const { return defined_[entry]; }
  const Bits& Entry(int entry) const { return mem_[entry]; }
  uint64_t writes() const { return writes_; }
  uint64_t reads() const { return reads_; }

 private:
  struct Value {
    Bits data;
    bool defined = false;
  };
  // The entry at `addr` as stored now (before this cycle's edge).
  Value Stored(uint64_t addr) const;
  // Stored value, overridden by the highest write port writing `addr` in this cycle.
  Value AfterWrites(uint64_t addr, const PortValues& in) const;

  const FlopArraySpec spec_;
  std::vector<Bits> mem_;
  std::vector<bool> defined_;
  std::vector<Value> read_reg_;  // registered read mode: rdata_q per port
  uint64_t writes_ = 0;
  uint64_t reads_ = 0;
};

}  // namespace gpurf
