// base/int_math.h: CeilLog2, IndexBits, IsPow2 and Log2Pow2 at their edges (zero, negative, one,
// two, every power of two and its neighbours up to 2^63, the top of uint64_t), against a
// reference that counts by doubling, for signed and unsigned arguments.

#include "base/int_math.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace gpurf {
namespace {

// Reference: the smallest b with 2^b >= x (0 for x <= 1), by repeated doubling (64 once 2^63
// is passed: 2^64 does not fit).
int CeilLog2ByDoubling(uint64_t x) {
  int b = 0;
  uint64_t p = 1;
  while (p < x) {
    if (b == 63)
      return 64;
    p <<= 1;
    ++b;
  }
  return b;
}

TEST(IntMath, CeilLog2Edges) {
  EXPECT_EQ(CeilLog2(0), 0);
  EXPECT_EQ(CeilLog2(-1), 0);
  EXPECT_EQ(CeilLog2(std::numeric_limits<int>::min()), 0);
  EXPECT_EQ(CeilLog2(1), 0);
  EXPECT_EQ(CeilLog2(2), 1);
  EXPECT_EQ(CeilLog2(3), 2);
  EXPECT_EQ(CeilLog2(4), 2);
  EXPECT_EQ(CeilLog2(5), 3);
  EXPECT_EQ(CeilLog2(1024), 10);
  EXPECT_EQ(CeilLog2(1025), 11);
  EXPECT_EQ(CeilLog2(std::numeric_limits<int>::max()), 31);
  EXPECT_EQ(CeilLog2(uint64_t{1} << 63), 63);
  EXPECT_EQ(CeilLog2((uint64_t{1} << 63) + 1), 64);
  EXPECT_EQ(CeilLog2(std::numeric_limits<uint64_t>::max()), 64);
  static_assert(CeilLog2(64) == 6 && CeilLog2(65u) == 7);
}

TEST(IntMath, CeilLog2MatchesDoublingAroundEveryPowerOfTwo) {
  for (int b = 0; b < 64; ++b) {
    const uint64_t p = uint64_t{1} << b;
    for (const uint64_t x : {p - 1, p, p + 1}) {
      EXPECT_EQ(CeilLog2(x), CeilLog2ByDoubling(x)) << "x = " << x;
      if (x <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        EXPECT_EQ(CeilLog2(static_cast<int64_t>(x)), CeilLog2ByDoubling(x)) << "x = " << x;
      }
    }
  }
}

TEST(IntMath, IndexBitsIsNeverZero) {
  EXPECT_EQ(IndexBits(-5), 1);
  EXPECT_EQ(IndexBits(0), 1);
  EXPECT_EQ(IndexBits(1), 1);
  EXPECT_EQ(IndexBits(2), 1);
  EXPECT_EQ(IndexBits(3), 2);
  EXPECT_EQ(IndexBits(4), 2);
  EXPECT_EQ(IndexBits(5), 3);
  EXPECT_EQ(IndexBits(4096), 12);
  EXPECT_EQ(IndexBits(4097), 13);
  EXPECT_EQ(IndexBits(std::numeric_limits<uint64_t>::max()), 64);
  for (uint64_t n = 2; n < 5000; ++n)
    EXPECT_EQ(IndexBits(n), CeilLog2ByDoubling(n)) << "n = " << n;
}

TEST(IntMath, IsPow2) {
  EXPECT_FALSE(IsPow2(0));
  EXPECT_FALSE(IsPow2(-4));
  EXPECT_FALSE(IsPow2(std::numeric_limits<int64_t>::min()));
  EXPECT_TRUE(IsPow2(1));
  EXPECT_TRUE(IsPow2(2));
  EXPECT_FALSE(IsPow2(3));
  EXPECT_FALSE(IsPow2(6));
  EXPECT_FALSE(IsPow2(std::numeric_limits<uint64_t>::max()));
  for (int b = 0; b < 64; ++b) {
    const uint64_t p = uint64_t{1} << b;
    EXPECT_TRUE(IsPow2(p)) << b;
    if (b >= 2) {
      EXPECT_FALSE(IsPow2(p + 1)) << b;
      EXPECT_FALSE(IsPow2(p - 1)) << b;
    }
  }
}

TEST(IntMath, Log2Pow2) {
  EXPECT_EQ(Log2Pow2(1), 0);
  EXPECT_EQ(Log2Pow2(2), 1);
  EXPECT_EQ(Log2Pow2(128), 7);
  EXPECT_EQ(Log2Pow2(int64_t{1} << 62), 62);
  for (int b = 0; b < 64; ++b) {
    const uint64_t p = uint64_t{1} << b;
    EXPECT_EQ(Log2Pow2(p), b);
    EXPECT_EQ(Log2Pow2(p), CeilLog2ByDoubling(p));
  }
}

}  // namespace
}  // namespace gpurf
