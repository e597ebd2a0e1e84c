// gpurf::Bits: field get/set at every alignment relative to the 64-bit word boundaries (inside
// one word, straddling two, whole words, full 64-bit fields), arbitrary-length slice/set_slice,
// hex() for widths that are and are not multiples of 4, canonicalize() of stray high bits,
// equal_masked and popcount_xor across several words.

#include "base/bits.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace gpurf {
namespace {

// Reference: the same field built bit by bit through bit()/set_bit().
uint64_t GetByBits(const Bits& b, int lsb, int len) {
  uint64_t v = 0;
  for (int i = 0; i < len; ++i)
    v |= static_cast<uint64_t>(b.bit(lsb + i)) << i;
  return v;
}

TEST(Bits, ConstructorMasksValueToWidth) {
  const Bits b(12, 0xffffULL);
  EXPECT_EQ(b.width(), 12);
  EXPECT_EQ(b.num_words(), 1);
  EXPECT_EQ(b.words()[0], 0xfffULL);
  EXPECT_EQ(Bits::NumWords(0), 0);
  EXPECT_EQ(Bits::NumWords(64), 1);
  EXPECT_EQ(Bits::NumWords(65), 2);
  EXPECT_EQ(Bits(130).num_words(), 3);
}

TEST(Bits, SetAndGetAcrossWordBoundaries) {
  // Each (lsb, len) pair places a field inside a word, exactly at a boundary, or straddling one.
  const struct {
    int lsb, len;
  } cases[] = {{0, 1},    {0, 64},   {3, 17},  {60, 8}, {63, 2},  {64, 64},
               {100, 50}, {120, 64}, {127, 1}, {1, 63}, {65, 63}, {130, 62}};
  // A pattern and its complement: every field bit is checked both as 0 and as 1.
  for (const uint64_t pattern : {0xa5c3'96e1'0f1e'2d3cULL, ~0xa5c3'96e1'0f1e'2d3cULL})
    for (const auto& c : cases) {
      Bits b(192);
      b.fill_ones();
      b.set(c.lsb, c.len, pattern);
      const uint64_t mask = c.len == 64 ? ~uint64_t{0} : (uint64_t{1} << c.len) - 1;
      SCOPED_TRACE(testing::Message() << "lsb=" << c.lsb << " len=" << c.len);
      EXPECT_EQ(b.get(c.lsb, c.len), pattern & mask);
      EXPECT_EQ(GetByBits(b, c.lsb, c.len), pattern & mask);
      // Bits outside the field keep their value (all ones).
      for (int i = 0; i < 192; ++i) {
        if (i < c.lsb || i >= c.lsb + c.len) {
          ASSERT_TRUE(b.bit(i)) << "bit " << i << " clobbered";
        }
      }
    }
}

TEST(Bits, StraddlingFieldLandsInBothWords) {
  Bits b(128);
  b.set(60, 8, 0xabULL);  // low nibble 0xb in word 0 bits 60..63, high nibble 0xa in word 1
  EXPECT_EQ(b.words()[0], 0xbULL << 60);
  EXPECT_EQ(b.words()[1], 0xaULL);
  EXPECT_EQ(b.get(60, 8), 0xabULL);
  EXPECT_EQ(b.get(62, 4), 0xaULL);  // field bits 2..5 of 0xab = 0b1010, across the boundary
}

TEST(Bits, SetMasksValueToLength) {
  Bits b(64);
  b.set(8, 4, 0xffULL);
  EXPECT_EQ(b.words()[0], 0xf00ULL);
  b.set(0, 0, 0xffULL);  // zero-length is a no-op
  EXPECT_EQ(b.words()[0], 0xf00ULL);
  EXPECT_EQ(b.get(5, 0), 0U);
}

TEST(Bits, SetBitAndClear) {
  Bits b(70);
  b.set_bit(69, true);
  b.set_bit(0, true);
  EXPECT_TRUE(b.bit(69));
  EXPECT_EQ(b.words()[1], uint64_t{1} << 5);
  b.set_bit(69, false);
  EXPECT_FALSE(b.bit(69));
  EXPECT_TRUE(b.bit(0));
  b.clear();
  EXPECT_EQ(b, Bits(70));
}

TEST(Bits, SliceAndSetSliceArbitraryLength) {
  Bits src(200);
  for (int i = 0; i < 200; ++i)
    src.set_bit(i, (i * 7 + 3) % 5 < 2);
  for (const int lsb : {0, 1, 63, 64, 70}) {
    for (const int len : {1, 63, 64, 65, 129}) {
      if (lsb + len > 200)
        continue;
      SCOPED_TRACE(testing::Message() << "lsb=" << lsb << " len=" << len);
      const Bits s = src.slice(lsb, len);
      ASSERT_EQ(s.width(), len);
      for (int i = 0; i < len; ++i)
        ASSERT_EQ(s.bit(i), src.bit(lsb + i)) << "bit " << i;
      // Copying the slice back into a fresh vector at another offset reproduces it there.
      Bits dst(300);
      dst.fill_ones();
      dst.set_slice(lsb + 5, s);
      for (int i = 0; i < 300; ++i) {
        const bool inside = i >= lsb + 5 && i < lsb + 5 + len;
        ASSERT_EQ(dst.bit(i), inside ? src.bit(i - 5) : true) << "bit " << i;
      }
      EXPECT_EQ(dst.slice(lsb + 5, len), s);
    }
  }
}

TEST(Bits, HexMostSignificantDigitFirst) {
  EXPECT_EQ(Bits(8, 0x5aULL).hex(), "5a");
  EXPECT_EQ(Bits(1, 1).hex(), "1");
  EXPECT_EQ(Bits(0).hex(), "0");
  // Width not a multiple of 4: the top digit holds only the remaining bits.
  EXPECT_EQ(Bits(6, 0x3fULL).hex(), "3f");
  EXPECT_EQ(Bits(5, 0x1fULL).hex(), "1f");
  EXPECT_EQ(Bits(13, 0x1234ULL).hex(), "1234");
  // Leading zeros are kept: one digit per 4 bits of width.
  EXPECT_EQ(Bits(16, 0x1ULL).hex(), "0001");
  Bits wide(72);
  wide.set(0, 64, 0x0123'4567'89ab'cdefULL);
  wide.set(64, 8, 0xfeULL);
  EXPECT_EQ(wide.hex(), "fe0123456789abcdef");
}

TEST(Bits, CanonicalizeClearsBitsAboveWidth) {
  Bits a(70);
  a.data()[1] = ~uint64_t{0};  // stray bits 70..127 set through the raw words
  Bits b(70);
  b.set(64, 6, 0x3fULL);
  EXPECT_NE(a, b);
  a.canonicalize();
  EXPECT_EQ(a.words()[1], 0x3fULL);
  EXPECT_EQ(a, b);
  // A width that is a multiple of 64 has nothing above it.
  Bits full(128);
  full.data()[1] = ~uint64_t{0};
  full.canonicalize();
  EXPECT_EQ(full.words()[1], ~uint64_t{0});
  // fill_ones() stays canonical.
  Bits ones(70);
  ones.fill_ones();
  EXPECT_EQ(ones.words()[1], 0x3fULL);
  EXPECT_EQ(ones.hex(), "3fffffffffffffffff");
}

TEST(Bits, EqualityNeedsSameWidth) {
  EXPECT_NE(Bits(8, 1), Bits(9, 1));
  EXPECT_EQ(Bits(9, 1), Bits(9, 1));
}

TEST(Bits, EqualMaskedComparesOnlyMaskedBits) {
  Bits a(130), b(130), mask(130);
  a.set(0, 64, 0xffff'0000'ffff'0000ULL);
  b.set(0, 64, 0xffff'0000'ffff'0001ULL);  // differs at bit 0
  a.set_bit(129, true);                    // differs at bit 129 (third word)
  EXPECT_TRUE(a.equal_masked(b, mask));    // empty mask: everything equal
  mask.set_bit(1, true);
  EXPECT_TRUE(a.equal_masked(b, mask));
  mask.set_bit(0, true);
  EXPECT_FALSE(a.equal_masked(b, mask));
  mask.set_bit(0, false);
  mask.set_bit(129, true);
  EXPECT_FALSE(a.equal_masked(b, mask));
  b.set_bit(129, true);
  EXPECT_TRUE(a.equal_masked(b, mask));
  mask.fill_ones();
  EXPECT_FALSE(a.equal_masked(b, mask));
  b.set_bit(0, false);
  EXPECT_TRUE(a.equal_masked(b, mask));
}

TEST(Bits, PopcountXorCountsDifferencesInEveryWord) {
  Bits a(200), b(200);
  EXPECT_EQ(a.popcount_xor(b), 0);
  a.set_bit(0, true);
  a.set_bit(63, true);
  a.set_bit(64, true);
  a.set_bit(199, true);
  EXPECT_EQ(a.popcount_xor(b), 4);
  b.set_bit(63, true);  // now equal at 63
  b.set_bit(100, true);
  EXPECT_EQ(a.popcount_xor(b), 4);  // 0, 64, 199 and 100
  EXPECT_EQ(b.popcount_xor(a), 4);
  a.fill_ones();
  b.clear();
  EXPECT_EQ(a.popcount_xor(b), 200);
}

}  // namespace
}  // namespace gpurf
