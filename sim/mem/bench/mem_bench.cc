// Issue() rate of the memory hierarchy in calls per CPU second (thread CPU time), for a few
// access patterns over 16 SMs sharing the L2: coalesced streaming loads (every line new: L1 and
// L2 misses, DRAM queue), coalesced loads hitting a small L1 working set, conflict-free shared
// accesses, and fully divergent loads (32 lines per warp). Built with GPURF_BUILD_BENCHMARKS=ON.
//
//   gpurf_mem_bench [calls]   (default 20,000,000 per pattern)
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "sim/mem/memory.h"

namespace m = gpurf::sim::mem;

namespace {

double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

gpurf::sim::MemoryConfig Config() {
  gpurf::sim::MemoryConfig c;
  c.l1d.bytes = 48 * 1024;
  c.l1d.ways = 4;
  c.l1d.hit_latency = 28;
  c.l1d.mshrs = 64;
  c.const_cache.bytes = 8 * 1024;
  c.const_cache.ways = 4;
  c.l2.bytes = 2 * 1024 * 1024;
  c.l2.ways = 16;
  c.l2.write_back = true;
  c.l2.write_allocate = true;
  c.l2_slices = 16;
  return c;
}

constexpr int kSms = 16;
constexpr int kWarps = 48;  // per SM

// Runs `calls` Issue() calls, closed loop: every warp issues its next access when the last one
// completed (a refused one is retried the next cycle), the earliest warp first, so cycles are
// non-decreasing. Warp w of SM s on its iteration `it` gets lanes from `fill(s, w, it)`.
template <class Fill>
void Run(const std::string& name, uint64_t calls, m::Space space, Fill fill) {
  m::MemorySystem mem(Config(), kSms);
  std::array<uint64_t, 32> lanes{};
  m::Access a;
  a.space = space;
  a.mask = ~0u;
  a.lane_bytes = 4;
  a.lanes = lanes.data();
  uint64_t refused = 0, cycle = 0;
  std::array<uint64_t, kSms * kWarps> iter{};
  using Ev = std::pair<uint64_t, size_t>;  // ready cycle, warp slot
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> ready;
  for (size_t slot = 0; slot < iter.size(); ++slot)
    ready.push({slot % 4, slot});
  const double t0 = CpuSeconds();
  for (uint64_t i = 0; i < calls; ++i) {
    const auto [at, slot] = ready.top();
    ready.pop();
    cycle = std::max(cycle, at);
    const int s = static_cast<int>(slot / kWarps);
    fill(s, slot % kWarps, iter[slot], lanes);
    if (auto done = mem.Issue(s, cycle, a)) {
      ++iter[slot];
      ready.push({*done, slot});
    } else {
      ++refused;
      ready.push({cycle + 1, slot});
    }
  }
  const double secs = CpuSeconds() - t0;
  const m::MemStats t = mem.Total();
  auto ratio = [](uint64_t x, uint64_t y) { return y ? static_cast<double>(x) / y : 0.0; };
  fmt::print("{:<22} {:>10} {:>7.3f} {:>12.0f} {:>9} {:>10} {:>7.3f} {:>7.3f} {:>8.1f}\n", name,
             calls, secs, static_cast<double>(calls) / secs, refused, cycle,
             ratio(t.l1d.hits, t.l1d.accesses), ratio(t.l2.hits, t.l2.accesses),
             ratio(t.dram.bytes, cycle));
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t calls = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20'000'000;
  fmt::print("{:<22} {:>10} {:>7} {:>12} {:>9} {:>10} {:>7} {:>7} {:>8}\n", "pattern", "calls",
             "cpu-s", "calls/s", "refused", "cycles", "L1 hit", "L2 hit", "DRAM B/c");
  // The warps of an SM stream through one array (grid-stride): warp w on its iteration `it`
  // reads line it * warps + w, every line new.
  Run("stream (coalesced)", calls, m::Space::kGlobal,
      [](int s, size_t w, uint64_t it, std::array<uint64_t, 32>& l) {
        const uint64_t base = uint64_t(s) << 36 | (it * kWarps + w) * 128;
        for (uint64_t i = 0; i < 32; ++i)
          l[i] = base + i * 4;
      });
  // Each warp reads its 4 lines (a 24 KB working set per SM) over and over.
  Run("L1 hits (coalesced)", calls, m::Space::kGlobal,
      [](int s, size_t w, uint64_t it, std::array<uint64_t, 32>& l) {
        const uint64_t base = uint64_t(s) << 32 | (w * 4 + it % 4) * 128;
        for (uint64_t i = 0; i < 32; ++i)
          l[i] = base + i * 4;
      });
  Run("shared stride 1", calls, m::Space::kShared,
      [](int, size_t w, uint64_t it, std::array<uint64_t, 32>& l) {
        for (uint64_t i = 0; i < 32; ++i)
          l[i] = (w * 1024 + (it % 8) * 128 + i * 4) % 49152;
      });
  Run("divergent (32 lines)", calls / 8, m::Space::kGlobal,
      [](int s, size_t w, uint64_t it, std::array<uint64_t, 32>& l) {
        const uint64_t base = (uint64_t(s) * kWarps + w) << 32;
        for (uint64_t i = 0; i < 32; ++i)
          l[i] = base + ((it * 32 + i) * 4099 % 65536) * 128;
      });
  return 0;
}
