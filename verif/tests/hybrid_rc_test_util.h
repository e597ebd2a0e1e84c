// Hybrid register cache / scratchpad specs for the tests.
#pragma once

#include <string>

#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"

namespace gpurf::test {

struct HybridShape {
  int rc_bytes = 2048, rsp_bytes = 1024, line_bytes = 128, ways = 2, warps = 16, reg_bits = 8,
      width = 128;
  const char* organization = "hierarchical";
};

inline HybridRcSpec MakeHybridSpec(const HybridShape& s) {
  ParamSet p(HybridRcSpec::ParamDescs());
  auto set = [&](const char* name, int v) { p.Set(name, std::to_string(v), {}, name); };
  set("rc_bytes", s.rc_bytes);
  set("rsp_bytes", s.rsp_bytes);
  set("line_bytes", s.line_bytes);
  set("ways", s.ways);
  set("warps", s.warps);
  set("reg_bits", s.reg_bits);
  set("width", s.width);
  p.Set("organization", s.organization, {}, "organization");
  return HybridRcSpec::FromParams(p);
}

// A geometry small enough to work by hand: 2 sets of 2 ways (4 lines of 128 bytes), 2 RSP
// slots, 2 warps x 8 registers, 8-bit values. Register (w, r) is in set (r ^ w) & 1.
inline HybridRcSpec TinyHybridSpec(const char* organization) {
  return MakeHybridSpec({512, 256, 128, 2, 2, 3, 8, organization});
}

}  // namespace gpurf::test
