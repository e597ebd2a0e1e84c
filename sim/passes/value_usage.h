// Value-usage characterization (Gebhart et al., TOCS 2012, Section 2.2, Figures 2 and 3): over
// a kernel run, how many times each dynamic register value written by a thread is read before it
// is overwritten or the thread ends, and, for the values read exactly once, their lifetime: the
// number of the thread's instructions from producer to consumer (a value consumed by the very
// next instruction has lifetime 1). Values are counted per thread and per 32-bit register
// (a 64-bit result is two values).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/kernel/kernel.h"

namespace gpurf::sim::passes {

struct ValueUsage {
  std::string kernel;
  uint64_t values = 0;                  // dynamic values written
  std::array<uint64_t, 4> reads{};      // read 0, 1, 2, more than 2 times
  std::array<uint64_t, 4> once_life{};  // read-once values with lifetime 1, 2, 3, more than 3
  uint64_t thread_instructions = 0;

  double Fraction(uint64_t n) const { return values ? static_cast<double>(n) / values : 0.0; }
};

// Walks every thread of every warp of `run` (active lanes of each dynamic instruction).
ValueUsage CharacterizeValueUsage(const KernelRun& run);

// A fixed-width text table (one row per kernel) and CSV with a header line.
std::string ValueUsageTable(const std::vector<ValueUsage>& rows);
std::string ValueUsageCsv(const std::vector<ValueUsage>& rows);

}  // namespace gpurf::sim::passes
