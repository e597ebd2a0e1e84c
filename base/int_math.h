// Integer helpers for sizing fields: the bits of an address or index into n things, and the
// exponent of a power of two. Every generator spec, hierarchy and transactor sizes its fields
// with these, so that the Verilog's widths and the C++ models' widths are computed the same way.
// They take any integer type; a value at or below zero counts as "nothing to index".
#pragma once

#include <algorithm>
#include <bit>
#include <concepts>
#include <type_traits>

namespace gpurf {

// ceil(log2(x)): 0 for x <= 1 (one thing needs no address bits), 1 for 2, 2 for 3 and 4, ...,
// 64 for values above 2^63 (uint64_t).
template <std::integral T>
constexpr int CeilLog2(T x) {
  if (x <= 1)
    return 0;
  return static_cast<int>(std::bit_width(static_cast<std::make_unsigned_t<T>>(x - 1)));
}

// Bits of an index into n things: max(1, ceil(log2(n))). Unlike CeilLog2 it is never 0, so a
// port that carries the index always has at least one bit (IndexBits(1) == 1, CeilLog2(1) == 0).
template <std::integral T>
constexpr int IndexBits(T n) {
  return std::max(1, CeilLog2(n));
}

// True when x is a positive power of two (1, 2, 4, ...).
template <std::integral T>
constexpr bool IsPow2(T x) {
  return x > 0 && (x & (x - 1)) == 0;
}

// log2(x) of a power of two x (IsPow2(x)): the number of trailing zero bits.
template <std::integral T>
constexpr int Log2Pow2(T x) {
  return std::countr_zero(static_cast<std::make_unsigned_t<T>>(x));
}

}  // namespace gpurf
