// The register rows of one lane cluster as the kernel's recorded values make them, for the RTL in
// the loop (rtl_loop.h, rtl_top.h): per warp context and register the row the register file must
// hold (lanes 0..lanes-1 of the cluster, 32 bits each), whether it was written since the warp's
// launch, the rows an instruction's results write, and the row an instruction expects to read.
// Streams without values (Accel-Sim traces) get deterministic pseudo-random result rows.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "base/bits.h"
#include "sim/kernel/kernel.h"

namespace gpurf::harness {

// An expected row and the bits to compare (the instruction's active lanes); `check` is false for
// a register never written since launch.
struct RowExpect {
  Bits value, mask;
  bool check = false;
};

class RegisterRows {
 public:
  RegisterRows(const sim::Kernel& k, size_t warps, int width, int lanes, uint64_t seed);

  // A new stream in warp context `warp` (beyond `warps`: the rows grow): nothing written yet.
  void Launch(uint32_t warp, const sim::WarpStream& stream);
  // Every launched stream has recorded values.
  bool has_values() const { return values_; }
  size_t regs() const { return regs_; }

  Bits& Shadow(uint32_t warp, int reg) { return shadow_[warp][static_cast<size_t>(reg)]; }
  bool Written(uint32_t warp, int reg) const {
    return written_[warp][static_cast<size_t>(reg)] != 0;
  }

  // The rows the results of `d` write (inactive lanes keep the register's row), pending until
  // committed.
  void WriteResultRows(uint32_t warp, const sim::DynInst& d);
  const std::vector<std::pair<int, Bits>>& pending() const { return pending_; }
  // Moves the pending row of `reg` into the shadow (no-op when none is pending).
  void Commit(uint32_t warp, int reg);

  // The row source register `reg` of instruction `d` (null: the shadow) must read.
  RowExpect SourceExpect(uint32_t warp, int reg, const sim::DynInst* d) const;

 private:
  const sim::Kernel& k_;
  int width_, lanes_;
  size_t regs_;
  std::vector<const sim::WarpStream*> streams_;
  bool values_ = true;
  std::vector<std::vector<Bits>> shadow_;
  std::vector<std::vector<uint8_t>> written_;
  uint64_t rand_state_;
  std::vector<std::pair<int, Bits>> pending_;
};

}  // namespace gpurf::harness
