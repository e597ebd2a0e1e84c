// Tag-array specs for the tests.
#pragma once

#include <string>

#include "gen/structures/tag_array/tag_array_spec.h"

namespace gpurf::test {

struct TagShape {
  int banks = 4, sets = 256, ways = 4, addr_width = 32, line_bytes = 128, warps = 32, regs = 32,
      lookups = 4;
  bool prioritized = true;
};

inline TagArraySpec MakeTagSpec(const TagShape& s) {
  ParamSet p(TagArraySpec::ParamDescs());
  auto set = [&](const char* name, int v) { p.Set(name, std::to_string(v), {}, name); };
  set("banks", s.banks);
  set("sets", s.sets);
  set("ways", s.ways);
  set("addr_width", s.addr_width);
  set("line_bytes", s.line_bytes);
  set("warps", s.warps);
  set("regs", s.regs);
  set("lookups", s.lookups);
  p.Set("policy", s.prioritized ? "lru-prioritized" : "lru-fair", {}, "policy");
  return TagArraySpec::FromParams(p);
}

// A small geometry whose addresses are easy to write by hand: 2 banks, 4 sets, 4-byte lines,
// 16-bit addresses, 8 warps x 2 registers. Line address = tag << 4 | set << 2; the bank is bit 2.
// Register (w, r) is at 0xFFC0 | w << 3 | r << 2: set (2w + r) % 4, tag 0xFFC | w >> 1.
inline TagArraySpec SmallTagSpec(int ways, bool prioritized) {
  return MakeTagSpec({2, 4, ways, 16, 4, 8, 2, 4, prioritized});
}

}  // namespace gpurf::test
