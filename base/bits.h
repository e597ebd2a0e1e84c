// An arbitrary-width bit vector: the value of one port (up to thousands of bits) as it crosses
// between stimulus, golden model and DUT. Bit 0 is the least significant bit of word 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpurf {

class Bits {
 public:
  Bits() = default;
  explicit Bits(int width) : width_(width), words_(NumWords(width), 0) {}
  Bits(int width, uint64_t value);

  int width() const { return width_; }
  int num_words() const { return static_cast<int>(words_.size()); }
  const std::vector<uint64_t>& words() const { return words_; }
  uint64_t* data() { return words_.data(); }
  const uint64_t* data() const { return words_.data(); }

  bool bit(int i) const { return (words_[i / 64] >> (i % 64)) & 1U; }
  void set_bit(int i, bool v);

  // Field of `len` bits (len <= 64) starting at bit `lsb`.
  uint64_t get(int lsb, int len) const;
  void set(int lsb, int len, uint64_t v);
  // Arbitrary-length field copy: this[lsb +: src.width()] = src.
  void set_slice(int lsb, const Bits& src);
  Bits slice(int lsb, int len) const;

  void clear();
  bool any() const;  // some bit is set
  void fill_ones();
  // Masks off bits above width() so equality is well-defined.
  void canonicalize();

  bool operator==(const Bits& o) const { return width_ == o.width_ && words_ == o.words_; }
  bool operator!=(const Bits& o) const { return !(*this == o); }
  // True when this and `o` agree on every bit set in `mask`.
  bool equal_masked(const Bits& o, const Bits& mask) const;
  // Number of bits that differ (Hamming distance); widths must match.
  int popcount_xor(const Bits& o) const;

  // Verilog-style hex literal without the width prefix, most significant digit first.
  std::string hex() const;

  static int NumWords(int width) { return (width + 63) / 64; }

 private:
  int width_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace gpurf
