#include "sim/passes/value_usage.h"

#include <fmt/format.h>

#include <algorithm>

namespace gpurf::sim::passes {
namespace {

constexpr int kLanes = 32;
constexpr uint32_t kNone = UINT32_MAX;

// Per lane and register: position (thread instruction count) of the producer and reads so far.
struct Slot {
  uint32_t produced_at = kNone;
  uint32_t reads = 0;
  uint32_t first_read_at = 0;
};

void Retire(ValueUsage& u, const Slot& s) {
  if (s.produced_at == kNone)
    return;
  ++u.values;
  ++u.reads[std::min<uint32_t>(s.reads, 3)];
  if (s.reads == 1) {
    const uint32_t life = s.first_read_at - s.produced_at;
    ++u.once_life[std::min<uint32_t>(life, 4) - 1];
  }
}

}  // namespace

ValueUsage CharacterizeValueUsage(const KernelRun& run) {
  ValueUsage u;
  const Kernel& k = *run.kernel;
  u.kernel = k.name;
  std::vector<Slot> slots(static_cast<size_t>(kLanes) * kMaxRegs);
  std::array<uint32_t, kLanes> pos{};
  for (const WarpStream& w : run.warps) {
    std::fill(slots.begin(), slots.end(), Slot{});
    pos.fill(0);
    for (const DynInst& d : w.insts) {
      const Instruction& in = k.code[d.inst];
      for (uint32_t m = d.active_mask; m != 0; m &= m - 1) {
        const int lane = __builtin_ctz(m);
        const uint32_t p = ++pos[static_cast<size_t>(lane)];
        Slot* ls = &slots[static_cast<size_t>(lane) * kMaxRegs];
        for (const RegOperand& o : in.srcs) {
          for (int j = 0; j < o.count; ++j) {
            Slot& s = ls[o.first + j];
            if (s.produced_at == kNone)
              continue;  // written before the kernel (never, for registers) or never written
            if (s.reads++ == 0)
              s.first_read_at = p;
          }
        }
        for (const RegOperand& o : in.dsts) {
          for (int j = 0; j < o.count; ++j) {
            Slot& s = ls[o.first + j];
            Retire(u, s);
            s = Slot{p, 0, 0};
          }
        }
      }
      u.thread_instructions += static_cast<uint64_t>(__builtin_popcount(d.active_mask));
    }
    for (const Slot& s : slots)
      Retire(u, s);
  }
  return u;
}

std::string ValueUsageTable(const std::vector<ValueUsage>& rows) {
  std::string t =
      fmt::format("{:<32} {:>12} {:>7} {:>7} {:>7} {:>7} | {:>7} {:>7} {:>7} {:>7}\n", "kernel",
                  "values", "read 0", "1", "2", ">2", "once:1", "2", "3", ">3");
  for (const auto& r : rows) {
    auto pct = [&](uint64_t n) { return fmt::format("{:6.1f}%", 100.0 * r.Fraction(n)); };
    std::string name = r.kernel.size() > 32 ? r.kernel.substr(0, 29) + "..." : r.kernel;
    t += fmt::format("{:<32} {:>12} {:>7} {:>7} {:>7} {:>7} | {:>7} {:>7} {:>7} {:>7}\n", name,
                     r.values, pct(r.reads[0]), pct(r.reads[1]), pct(r.reads[2]), pct(r.reads[3]),
                     pct(r.once_life[0]), pct(r.once_life[1]), pct(r.once_life[2]),
                     pct(r.once_life[3]));
  }
  t += "(percent of all dynamic values; 'once:N' = read once with lifetime N instructions)\n";
  return t;
}

std::string ValueUsageCsv(const std::vector<ValueUsage>& rows) {
  std::string t =
      "kernel,values,thread_instructions,read_0,read_1,read_2,read_gt2,"
      "once_life_1,once_life_2,once_life_3,once_life_gt3\n";
  for (const auto& r : rows) {
    t += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", r.kernel, r.values,
                     r.thread_instructions, r.reads[0], r.reads[1], r.reads[2], r.reads[3],
                     r.once_life[0], r.once_life[1], r.once_life[2], r.once_life[3]);
  }
  return t;
}

}  // namespace gpurf::sim::passes
