#include "base/bits.h"

#include <bit>
#include <cassert>

namespace gpurf {

namespace {
uint64_t LowMask(int len) {
  return len >= 64 ? ~uint64_t{0} : ((uint64_t{1} << len) - 1);
}
}  // namespace

Bits::Bits(int width, uint64_t value) : Bits(width) {
  if (width > 0)
    set(0, width < 64 ? width : 64, value);
}

void Bits::set_bit(int i, bool v) {
  const uint64_t m = uint64_t{1} << (i % 64);
  if (v) {
    words_[i / 64] |= m;
  } else {
    words_[i / 64] &= ~m;
  }
}

uint64_t Bits::get(int lsb, int len) const {
  assert(len >= 0 && len <= 64 && lsb + len <= width_);
  if (len == 0)
    return 0;
  const int w = lsb / 64, off = lsb % 64;
  uint64_t v = words_[w] >> off;
  if (off != 0 && off + len > 64)
    v |= words_[w + 1] << (64 - off);
  return v & LowMask(len);
}

void Bits::set(int lsb, int len, uint64_t v) {
  assert(len >= 0 && len <= 64 && lsb + len <= width_);
  if (len == 0)
    return;
  v &= LowMask(len);
  const int w = lsb / 64, off = lsb % 64;
  const uint64_t m = LowMask(len);
  words_[w] = (words_[w] & ~(m << off)) | (v << off);
  if (off != 0 && off + len > 64) {
    const int hi = off + len - 64;
    words_[w + 1] = (words_[w + 1] & ~LowMask(hi)) | (v >> (64 - off));
  }
}

void Bits::set_slice(int lsb, const Bits& src) {
  for (int i = 0; i < src.width(); i += 64) {
    const int len = src.width() - i < 64 ? src.width() - i : 64;
    set(lsb + i, len, src.get(i, len));
  }
}

Bits Bits::slice(int lsb, int len) const {
  Bits out(len);
  for (int i = 0; i < len; i += 64) {
    const int n = len - i < 64 ? len - i : 64;
    out.set(i, n, get(lsb + i, n));
  }
  return out;
}

void Bits::clear() {
  for (auto& w : words_)
    w = 0;
}

bool Bits::any() const {
  for (auto w : words_) {
    if (w != 0)
      return true;
  }
  return false;
}

void Bits::fill_ones() {
  for (auto& w : words_)
    w = ~uint64_t{0};
  canonicalize();
}

void Bits::canonicalize() {
  if (words_.empty())
    return;
  const int rem = width_ % 64;
  if (rem != 0)
    words_.back() &= LowMask(rem);
}

bool Bits::equal_masked(const Bits& o, const Bits& mask) const {
  for (size_t i = 0; i < words_.size(); ++i) {
    if ((words_[i] ^ o.words_[i]) & mask.words_[i])
      return false;
  }
  return true;
}

int Bits::popcount_xor(const Bits& o) const {
  int n = 0;
  for (size_t i = 0; i < words_.size(); ++i)
    n += std::popcount(words_[i] ^ o.words_[i]);
  return n;
}

std::string Bits::hex() const {
  static const char* kDigits = "0123456789abcdef";
  const int digits = width_ == 0 ? 1 : (width_ + 3) / 4;
  std::string s;
  s.reserve(digits);
  for (int d = digits - 1; d >= 0; --d) {
    const int lsb = d * 4;
    const int len = width_ - lsb < 4 ? width_ - lsb : 4;
    s.push_back(kDigits[width_ == 0 ? 0 : get(lsb, len)]);
  }
  return s;
}

}  // namespace gpurf
