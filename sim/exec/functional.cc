#include "sim/exec/functional.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

namespace gpurf::sim {

uint64_t DeviceMemory::Allocate(uint64_t bytes, std::string name) {
  const uint64_t off = (data_.size() + 255) / 256 * 256;
  data_.resize(off + std::max<uint64_t>(bytes, 1), 0);
  if (name.empty())
    name = fmt::format("#{}", regions_.size());
  regions_.push_back({kGlobalBase + off, bytes, std::move(name)});
  return kGlobalBase + off;
}

const DeviceMemory::Region* DeviceMemory::Find(uint64_t addr) const {
  auto it = std::upper_bound(regions_.begin(), regions_.end(), addr,
                             [](uint64_t a, const Region& r) { return a < r.addr; });
  if (it == regions_.begin())
    return nullptr;
  --it;
  return addr - it->addr < it->bytes ? &*it : nullptr;
}

std::string DeviceMemory::Describe(uint64_t addr, uint64_t bytes) const {
  auto it = std::upper_bound(regions_.begin(), regions_.end(), addr,
                             [](uint64_t a, const Region& r) { return a < r.addr; });
  if (it == regions_.begin()) {
    if (regions_.empty())
      return "no global buffer is allocated";
    return fmt::format("below the first buffer '{}' (at 0x{:x})", regions_.front().name,
                       regions_.front().addr);
  }
  const Region& r = *std::prev(it);
  const std::string buf = fmt::format("buffer '{}' ({} bytes at 0x{:x})", r.name, r.bytes, r.addr);
  const uint64_t off = addr - r.addr;
  if (off < r.bytes)
    return fmt::format("runs {} bytes past the end of {}", off + bytes - r.bytes, buf);
  const std::string past = fmt::format("{} bytes past the end of {}", off - r.bytes, buf);
  if (it == regions_.end())
    return fmt::format("outside every buffer, {} (the last one)", past);
  return fmt::format("{}, before buffer '{}'", past, it->name);
}

namespace {

using ptx::AtomOp;
using ptx::BoolOp;
using ptx::Cmp;
using ptx::MulMode;
using ptx::Op;
using ptx::Operand;
using ptx::PtxInst;
using ptx::Round;
using ptx::Space;
using ptx::Special;
using ptx::Type;

// ------------------------------------------------------------------------ value helpers

// 128-bit integers for mul.hi.64 and exact conversions (a GCC/Clang extension).
__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

inline int64_t SExt(uint64_t v, int bits) {
  if (bits >= 64)
    return static_cast<int64_t>(v);
  const int s = 64 - bits;
  return static_cast<int64_t>(v << s) >> s;
}
inline uint64_t ZExt(uint64_t v, int bits) {
  return bits >= 64 ? v : v & ((uint64_t{1} << bits) - 1);
}
inline uint64_t Canon(uint64_t v, Type t) {
  const int bits = ptx::TypeBits(t);
  return ptx::IsSigned(t) ? static_cast<uint64_t>(SExt(v, bits)) : ZExt(v, bits);
}
inline float F32(uint64_t v) {
  return std::bit_cast<float>(static_cast<uint32_t>(v));
}
inline double F64(uint64_t v) {
  return std::bit_cast<double>(v);
}
inline uint64_t Bits(float f) {
  return std::bit_cast<uint32_t>(f);
}
inline uint64_t Bits(double d) {
  return std::bit_cast<uint64_t>(d);
}
inline float Ftz(float f) {
  return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f;
}

// IEEE half precision. HalfToDouble is exact; HalfFromDouble rounds in mode `r` (rn, rz, rm, rp;
// the default is rn) and returns the canonical NaN 0x7fff for NaN.
double HalfToDouble(uint64_t h) {
  const uint32_t e = (h >> 10) & 0x1f, f = h & 0x3ff;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 0x1f)
    return f ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
  if (e == 0)
    return sign * std::ldexp(static_cast<double>(f), -24);
  return sign * std::ldexp(static_cast<double>(f | 0x400), static_cast<int>(e) - 25);
}

uint64_t HalfFromDouble(double x, Round r) {
  if (std::isnan(x))
    return 0x7fff;
  const uint64_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(x);
  // Rounds a non-negative magnitude q to an integer in mode r, for a value of this sign.
  const auto round = [&](double q) {
    switch (r) {
      case Round::kRz:
        return std::trunc(q);
      case Round::kRm:
        return sign ? std::ceil(q) : std::floor(q);
      case Round::kRp:
        return sign ? std::floor(q) : std::ceil(q);
      default:
        return std::nearbyint(q);  // host default rounding: to nearest even
    }
  };
  int e = 0;
  std::frexp(a, &e);                     // a = f * 2^e, f in [0.5, 1)
  const int exp = std::max(e - 1, -14);  // unbiased exponent (subnormals share -14)
  if (a == 0)
    return sign;
  if (std::isinf(a))
    return sign | 0x7c00;
  double q = round(std::ldexp(a, 10 - exp));  // significand in units of the last place
  int be = exp + 15;                          // biased exponent
  if (q >= 2048) {
    q /= 2;
    ++be;
  } else if (be == 1 && q < 1024) {
    be = 0;  // subnormal
  }
  if (be >= 31) {
    const bool to_inf = r == Round::kRn || r == Round::kDefault || (r == Round::kRp && !sign) ||
                        (r == Round::kRm && sign);
    return sign | (to_inf ? 0x7c00 : 0x7bff);
  }
  return sign | (static_cast<uint64_t>(be) << 10) | (static_cast<uint64_t>(q) & 0x3ff);
}

inline uint64_t HalfFtz(uint64_t h) {
  return (h & 0x7c00) == 0 ? h & 0x8000 : h;
}

// One .f16 lane of add/sub/mul/fma/min/max/abs/neg: computed exactly (or, for fma, to within
// double precision) in double and rounded once to half.
uint64_t HalfOp(const PtxInst& in, uint64_t ua, uint64_t ub, uint64_t uc) {
  ua &= 0xffff;
  ub &= 0xffff;
  uc &= 0xffff;
  if (in.op == Op::kAbs)
    return ua & 0x7fff;
  if (in.op == Op::kNeg)
    return ua ^ 0x8000;
  if (in.ftz) {
    ua = HalfFtz(ua);
    ub = HalfFtz(ub);
    uc = HalfFtz(uc);
  }
  const double a = HalfToDouble(ua), b = HalfToDouble(ub), c = HalfToDouble(uc);
  double x = 0;
  switch (in.op) {
    case Op::kAdd:
      x = a + b;
      break;
    case Op::kSub:
      x = a - b;
      break;
    case Op::kMul:
      x = a * b;
      break;
    case Op::kFma:
      x = std::fma(a, b, c);
      break;
    case Op::kMin:
    case Op::kMax:
      if (std::isnan(a) && std::isnan(b))
        return 0x7fff;
      if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) ? ub : ua;
      x = in.op == Op::kMin ? std::fmin(a, b) : std::fmax(a, b);
      break;
    default:
      break;
  }
  uint64_t h = HalfFromDouble(x, in.round);
  if (in.sat) {
    const double v = HalfToDouble(h);
    h = std::isnan(v) || v <= 0 ? 0 : v >= 1 ? 0x3c00 : h;
  }
  return in.ftz ? HalfFtz(h) : h;
}

// Rounds the exact value hi + lo (|lo| tiny against hi) to float in a directed mode.
float RoundF32(double hi, double lo, Round r) {
  float f = static_cast<float>(hi);
  if (r == Round::kRn || r == Round::kDefault || std::isnan(hi))
    return f;
  if (std::isinf(hi))
    return f;
  const double d = static_cast<double>(f) - hi;  // f - x = d - lo
  const bool above = d > lo, below = d < lo;
  const double x = hi;
  switch (r) {
    case Round::kRz:
      if (x > 0 && above)
        f = std::nextafter(f, 0.0f);
      else if (x < 0 && below)
        f = std::nextafter(f, 0.0f);
      break;
    case Round::kRm:
      if (above)
        f = std::nextafter(f, -std::numeric_limits<float>::infinity());
      break;
    case Round::kRp:
      if (below)
        f = std::nextafter(f, std::numeric_limits<float>::infinity());
      break;
    default:
      break;
  }
  return f;
}

// Exact sum of two doubles as hi + lo (Knuth's TwoSum).
inline void TwoSum(double a, double b, double& hi, double& lo) {
  hi = a + b;
  const double bb = hi - a;
  lo = (a - (hi - bb)) + (b - bb);
}

// Directed rounding of double results: the host's FPU in the requested mode. The operations
// run in a separate non-inlined function so the compiler cannot move them across fesetround.
__attribute__((noinline)) double DirectedF64(Op op, double a, double b, double c, Round r) {
  const int mode = r == Round::kRz   ? FE_TOWARDZERO
                   : r == Round::kRm ? FE_DOWNWARD
                   : r == Round::kRp ? FE_UPWARD
                                     : FE_TONEAREST;
  const int old = std::fegetround();
  std::fesetround(mode);
  volatile double va = a, vb = b, vc = c;
  double res = 0;
  switch (op) {
    case Op::kAdd:
      res = va + vb;
      break;
    case Op::kSub:
      res = va - vb;
      break;
    case Op::kMul:
      res = va * vb;
      break;
    case Op::kDiv:
      res = va / vb;
      break;
    case Op::kFma:
      res = std::fma(va, vb, vc);
      break;
    case Op::kSqrt:
      res = std::sqrt(va);
      break;
    case Op::kRcp:
      res = 1.0 / va;
      break;
    default:
      break;
  }
  volatile double out = res;
  std::fesetround(old);
  return out;
}

inline bool Directed(Round r) {
  return r == Round::kRz || r == Round::kRm || r == Round::kRp;
}

// Float arithmetic of one lane: add/sub/mul/fma/div/min/max/abs/neg/SFU.
uint64_t FloatOp(const PtxInst& in, uint64_t ua, uint64_t ub, uint64_t uc) {
  if (in.type == Type::kF64) {
    const double a = F64(ua), b = F64(ub), c = F64(uc);
    if (Directed(in.round) && in.op != Op::kMin && in.op != Op::kMax && in.op != Op::kAbs &&
        in.op != Op::kNeg)
      return Bits(DirectedF64(in.op, a, b, c, in.round));
    switch (in.op) {
      case Op::kAdd:
        return Bits(a + b);
      case Op::kSub:
        return Bits(a - b);
      case Op::kMul:
        return Bits(a * b);
      case Op::kFma:
        return Bits(std::fma(a, b, c));
      case Op::kDiv:
        return Bits(a / b);
      case Op::kMin:
        return Bits(std::fmin(a, b));
      case Op::kMax:
        return Bits(std::fmax(a, b));
      case Op::kAbs:
        return ua & ~(uint64_t{1} << 63);
      case Op::kNeg:
        return ua ^ (uint64_t{1} << 63);
      case Op::kRcp:
        return Bits(1.0 / a);
      case Op::kSqrt:
        return Bits(std::sqrt(a));
      case Op::kRsqrt:
        return Bits(1.0 / std::sqrt(a));
      case Op::kEx2:
        return Bits(std::exp2(a));
      case Op::kLg2:
        return Bits(std::log2(a));
      case Op::kSin:
        return Bits(std::sin(a));
      case Op::kCos:
        return Bits(std::cos(a));
      default:
        return 0;
    }
  }
  float a = F32(ua), b = F32(ub), c = F32(uc);
  if (in.ftz) {
    a = Ftz(a);
    b = Ftz(b);
    c = Ftz(c);
  }
  float r = 0;
  const bool dir = Directed(in.round);
  switch (in.op) {
    case Op::kAdd:
    case Op::kSub: {
      const double bb = in.op == Op::kSub ? -static_cast<double>(b) : static_cast<double>(b);
      if (dir) {
        double hi, lo;
        TwoSum(a, bb, hi, lo);
        r = RoundF32(hi, lo, in.round);
      } else {
        r = in.op == Op::kSub ? a - b : a + b;
      }
      break;
    }
    case Op::kMul:
      r = dir ? RoundF32(static_cast<double>(a) * b, 0, in.round) : a * b;
      break;
    case Op::kFma:
      if (dir) {
        double hi, lo;
        TwoSum(static_cast<double>(a) * b, c, hi, lo);
        r = RoundF32(hi, lo, in.round);
      } else {
        r = std::fma(a, b, c);
      }
      break;
    case Op::kDiv:
      if (dir) {
        const double q = static_cast<double>(a) / b;
        const double rem = std::fma(-q, static_cast<double>(b), static_cast<double>(a));
        r = RoundF32(q, rem / b, in.round);
      } else {
        r = a / b;
      }
      break;
    case Op::kMin:
      r = std::fmin(a, b);
      break;
    case Op::kMax:
      r = std::fmax(a, b);
      break;
    case Op::kAbs:
      r = std::bit_cast<float>(std::bit_cast<uint32_t>(a) & 0x7fffffffu);
      break;
    case Op::kNeg:
      r = std::bit_cast<float>(std::bit_cast<uint32_t>(a) ^ 0x80000000u);
      break;
    case Op::kRcp:
      if (dir) {
        const double q = 1.0 / a;
        r = RoundF32(q, std::fma(-q, static_cast<double>(a), 1.0) / a, in.round);
      } else {
        r = 1.0f / a;
      }
      break;
    case Op::kSqrt:
      if (dir) {
        const double s = std::sqrt(static_cast<double>(a));
        r = RoundF32(s, std::fma(-s, s, static_cast<double>(a)) / (2 * s), in.round);
      } else {
        r = std::sqrt(a);
      }
      break;
    case Op::kRsqrt:
      r = 1.0f / std::sqrt(a);
      break;
    case Op::kEx2:
      r = std::exp2(a);
      break;
    case Op::kLg2:
      r = std::log2(a);
      break;
    case Op::kSin:
      r = std::sin(a);
      break;
    case Op::kCos:
      r = std::cos(a);
      break;
    default:
      break;
  }
  if (in.sat)
    r = std::isnan(r) ? 0.0f : std::fmin(std::fmax(r, 0.0f), 1.0f);
  if (in.ftz)
    r = Ftz(r);
  return Bits(r);
}

// Integer arithmetic of one lane; a, b, c are canonical (sign- or zero-extended) values.
uint64_t IntOp(const PtxInst& in, uint64_t a, uint64_t b, uint64_t c) {
  const Type t = in.type;
  const int bits = ptx::TypeBits(t);
  const bool sgn = ptx::IsSigned(t);
  const auto sa = static_cast<int64_t>(a), sb = static_cast<int64_t>(b);
  switch (in.op) {
    case Op::kAdd:
    case Op::kSub: {
      const uint64_t r = in.op == Op::kAdd ? a + b : a - b;
      if (in.sat && sgn && bits == 32) {
        const int64_t w = in.op == Op::kAdd ? sa + sb : sa - sb;
        return static_cast<uint64_t>(std::clamp<int64_t>(w, INT32_MIN, INT32_MAX));
      }
      return r;
    }
    case Op::kMul:
    case Op::kMad: {
      uint64_t r;
      if (in.mul == MulMode::kLo) {
        r = a * b;
      } else if (in.mul == MulMode::kWide) {
        r = sgn ? static_cast<uint64_t>(sa * sb) : a * b;  // 32x32 -> 64 fits
      } else {                                             // hi
        if (bits == 64) {
          r = sgn ? static_cast<uint64_t>((static_cast<I128>(sa) * static_cast<I128>(sb)) >> 64)
                  : static_cast<uint64_t>((static_cast<U128>(a) * b) >> 64);
        } else {
          r = sgn ? static_cast<uint64_t>((sa * sb) >> bits) : (a * b) >> bits;
        }
      }
      return in.op == Op::kMad ? r + c : r;
    }
    case Op::kDiv:
    case Op::kRem:
      if (b == 0 || (sgn && sb == -1 && sa == SExt(uint64_t{1} << (bits - 1), bits)))
        return in.op == Op::kDiv ? ~uint64_t{0} : a;  // undefined in PTX: all ones / dividend
      if (sgn)
        return static_cast<uint64_t>(in.op == Op::kDiv ? sa / sb : sa % sb);
      return in.op == Op::kDiv ? a / b : a % b;
    case Op::kMin:
      return sgn ? static_cast<uint64_t>(std::min(sa, sb)) : std::min(a, b);
    case Op::kMax:
      return sgn ? static_cast<uint64_t>(std::max(sa, sb)) : std::max(a, b);
    case Op::kAbs:
      return static_cast<uint64_t>(sa < 0 ? -sa : sa);
    case Op::kNeg:
      return static_cast<uint64_t>(-sa);
    case Op::kAnd:
      return a & b;
    case Op::kOr:
      return a | b;
    case Op::kXor:
      return a ^ b;
    case Op::kNot:
      return ~a;
    case Op::kShl:
      return b >= static_cast<uint64_t>(bits) ? 0 : a << b;
    case Op::kShr:
      if (sgn)
        return static_cast<uint64_t>(sa >> std::min<uint64_t>(b, 63));
      return b >= static_cast<uint64_t>(bits) ? 0 : a >> b;
    case Op::kPopc:
      return static_cast<uint64_t>(std::popcount(ZExt(a, bits)));
    case Op::kClz:
      return static_cast<uint64_t>(std::countl_zero(ZExt(a, bits)) - (64 - bits));
    case Op::kBfind: {
      // The most significant 1 bit (signed: the most significant bit that differs from the
      // sign), as a position or (.shiftamt) as bits - 1 - position; none: 0xffffffff.
      uint64_t v = ZExt(a, bits);
      if (sgn && (v >> (bits - 1)) & 1)
        v = ZExt(~v, bits);
      if (v == 0)
        return 0xffffffffu;
      const int pos = 63 - std::countl_zero(v);
      return static_cast<uint64_t>(in.shiftamt ? bits - 1 - pos : pos);
    }
    case Op::kBrev: {
      uint64_t r = 0;
      for (int i = 0; i < bits; ++i)
        r |= ((a >> i) & 1) << (bits - 1 - i);
      return r;
    }
    case Op::kBfe: {
      const uint64_t pos = b & 0xff, len = c & 0xff;
      const uint64_t ua = ZExt(a, bits);
      if (len == 0)
        return 0;
      uint64_t field = pos >= static_cast<uint64_t>(bits) ? 0 : ua >> pos;
      const uint64_t take = std::min<uint64_t>(len, 64);
      if (take < 64)
        field &= (uint64_t{1} << take) - 1;
      if (sgn) {
        const uint64_t msb_pos = std::min<uint64_t>(pos + len - 1, static_cast<uint64_t>(bits) - 1);
        const bool neg = (ua >> msb_pos) & 1;
        if (neg && take < 64)
          field |= ~uint64_t{0} << take;
      }
      return field;
    }
    case Op::kPrmt: {
      const uint64_t bytes = (ZExt(b, 32) << 32) | ZExt(a, 32);
      uint64_t r = 0;
      for (int i = 0; i < 4; ++i) {
        const uint64_t sel = (c >> (4 * i)) & 0xf;
        uint64_t byte = (bytes >> (8 * (sel & 7))) & 0xff;
        if (sel & 8)
          byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * i);
      }
      return r;
    }
    default:
      return 0;
  }
}

bool Compare(const PtxInst& in, uint64_t a, uint64_t b) {
  const Type t = in.type;
  if (ptx::IsFloat(t) || t == Type::kF16) {
    double x, y;
    if (t == Type::kF16) {
      x = HalfToDouble(in.ftz ? HalfFtz(a & 0xffff) : a & 0xffff);
      y = HalfToDouble(in.ftz ? HalfFtz(b & 0xffff) : b & 0xffff);
    } else if (t == Type::kF32) {
      float fa = F32(a), fb = F32(b);
      if (in.ftz) {
        fa = Ftz(fa);
        fb = Ftz(fb);
      }
      x = fa;
      y = fb;
    } else {
      x = F64(a);
      y = F64(b);
    }
    const bool nan = std::isnan(x) || std::isnan(y);
    switch (in.cmp) {
      case Cmp::kEq:
        return !nan && x == y;
      case Cmp::kNe:
        return !nan && x != y;
      case Cmp::kLt:
        return !nan && x < y;
      case Cmp::kLe:
        return !nan && x <= y;
      case Cmp::kGt:
        return !nan && x > y;
      case Cmp::kGe:
        return !nan && x >= y;
      case Cmp::kEqu:
        return nan || x == y;
      case Cmp::kNeu:
        return nan || x != y;
      case Cmp::kLtu:
        return nan || x < y;
      case Cmp::kLeu:
        return nan || x <= y;
      case Cmp::kGtu:
        return nan || x > y;
      case Cmp::kGeu:
        return nan || x >= y;
      case Cmp::kNum:
        return !nan;
      case Cmp::kNan:
        return nan;
      default:
        return false;
    }
  }
  const auto sa = static_cast<int64_t>(a), sb = static_cast<int64_t>(b);
  const bool sgn = ptx::IsSigned(t);
  switch (in.cmp) {
    case Cmp::kEq:
      return a == b;
    case Cmp::kNe:
      return a != b;
    case Cmp::kLt:
      return sgn ? sa < sb : a < b;
    case Cmp::kLe:
      return sgn ? sa <= sb : a <= b;
    case Cmp::kGt:
      return sgn ? sa > sb : a > b;
    case Cmp::kGe:
      return sgn ? sa >= sb : a >= b;
    case Cmp::kLo:
      return a < b;
    case Cmp::kLs:
      return a <= b;
    case Cmp::kHi:
      return a > b;
    case Cmp::kHs:
      return a >= b;
    default:
      return false;
  }
}

// Float -> integer with integer rounding, saturating (NaN -> 0) as PTX cvt does.
uint64_t FloatToInt(double x, Round r, Type d) {
  if (std::isnan(x))
    return 0;
  switch (r) {
    case Round::kRni:
      x = std::nearbyint(x);  // host default rounding: to nearest even
      break;
    case Round::kRmi:
      x = std::floor(x);
      break;
    case Round::kRpi:
      x = std::ceil(x);
      break;
    default:
      x = std::trunc(x);
      break;
  }
  const int bits = ptx::TypeBits(d);
  if (ptx::IsSigned(d)) {
    const double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1);
    if (x < lo)
      return ZExt(static_cast<uint64_t>(SExt(uint64_t{1} << (bits - 1), bits)), 64);
    if (x >= hi)
      return (uint64_t{1} << (bits - 1)) - 1;
    return static_cast<uint64_t>(static_cast<int64_t>(x));
  }
  if (x <= 0)
    return 0;
  if (x >= std::ldexp(1.0, bits))
    return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  return static_cast<uint64_t>(x);
}

double RoundIntegral(double x, Round r) {
  switch (r) {
    case Round::kRni:
      return std::nearbyint(x);
    case Round::kRzi:
      return std::trunc(x);
    case Round::kRmi:
      return std::floor(x);
    case Round::kRpi:
      return std::ceil(x);
    default:
      return x;
  }
}

uint64_t ConvertTypes(const PtxInst& in, Type d, Type a, uint64_t v);

// cvt: half types go through f32 (exact) as a source, or are rounded once from the exact source
// value (double) as a destination.
uint64_t Convert(const PtxInst& in, uint64_t v) {
  const Type d = in.type, a = in.type2;
  if (d != Type::kF16 && a != Type::kF16)
    return ConvertTypes(in, d, a, v);
  if (d != Type::kF16)
    return ConvertTypes(in, d, Type::kF32, Bits(static_cast<float>(HalfToDouble(v & 0xffff))));
  double x;
  if (a == Type::kF16)
    x = HalfToDouble(in.ftz ? HalfFtz(v & 0xffff) : v & 0xffff);
  else if (a == Type::kF32)
    x = in.ftz ? Ftz(F32(v)) : F32(v);
  else if (a == Type::kF64)
    x = F64(v);
  else if (ptx::IsSigned(a))
    x = static_cast<double>(static_cast<int64_t>(Canon(v, a)));
  else
    x = static_cast<double>(Canon(v, a));
  uint64_t h;
  if (in.round >= Round::kRni)
    h = HalfFromDouble(RoundIntegral(x, in.round), Round::kRn);
  else
    h = HalfFromDouble(x, in.round);
  if (in.sat) {
    const double y = HalfToDouble(h);
    h = std::isnan(y) || y <= 0 ? 0 : y >= 1 ? 0x3c00 : h;
  }
  return in.ftz ? HalfFtz(h) : h;
}

uint64_t ConvertTypes(const PtxInst& in, Type d, Type a, uint64_t v) {
  const bool fd = ptx::IsFloat(d), fa = ptx::IsFloat(a);
  if (!fd && !fa) {
    const uint64_t x = Canon(v, a);
    if (in.sat) {
      const int bits = ptx::TypeBits(d);
      const bool sa = ptx::IsSigned(a), sd = ptx::IsSigned(d);
      const I128 val = sa ? static_cast<I128>(static_cast<int64_t>(x)) : static_cast<I128>(x);
      const I128 lo = sd ? -(static_cast<I128>(1) << (bits - 1)) : 0;
      const I128 hi =
          sd ? (static_cast<I128>(1) << (bits - 1)) - 1 : (static_cast<I128>(1) << bits) - 1;
      return static_cast<uint64_t>(std::clamp(val, lo, hi));
    }
    return Canon(x, d);
  }
  if (fa && !fd) {
    double x = a == Type::kF32 ? static_cast<double>(F32(v)) : F64(v);
    if (in.ftz && a == Type::kF32)
      x = Ftz(static_cast<float>(x));
    return Canon(FloatToInt(x, in.round, d), d);
  }
  if (!fa && fd) {
    const uint64_t x = Canon(v, a);
    // Exact value as hi + lo in doubles (64-bit integers may not fit a double).
    double hi, lo;
    if (ptx::IsSigned(a)) {
      const auto s = static_cast<int64_t>(x);
      hi = static_cast<double>(s);
      const I128 rem = static_cast<I128>(s) - static_cast<I128>(hi);
      lo = static_cast<double>(static_cast<int64_t>(rem));
    } else {
      hi = static_cast<double>(x);
      const I128 rem = static_cast<I128>(x) - static_cast<I128>(static_cast<U128>(hi));
      lo = static_cast<double>(static_cast<int64_t>(rem));
    }
    if (d == Type::kF32) {
      float f;
      if (Directed(in.round)) {
        f = RoundF32(hi, lo, in.round);
      } else {
        f = ptx::IsSigned(a) ? static_cast<float>(static_cast<int64_t>(x)) : static_cast<float>(x);
      }
      return Bits(f);
    }
    if (Directed(in.round))
      return Bits(DirectedF64(Op::kAdd, hi, lo, 0, in.round));
    return Bits(ptx::IsSigned(a) ? static_cast<double>(static_cast<int64_t>(x))
                                 : static_cast<double>(x));
  }
  // float -> float
  if (d == Type::kF32) {
    float r;
    if (a == Type::kF64) {
      const double x = F64(v);
      if (in.round >= Round::kRni) {
        r = static_cast<float>(RoundIntegral(x, in.round));
      } else if (Directed(in.round)) {
        r = RoundF32(x, 0, in.round);
      } else {
        r = static_cast<float>(x);
      }
    } else {
      float x = F32(v);
      if (in.ftz)
        x = Ftz(x);
      r = in.round >= Round::kRni ? static_cast<float>(RoundIntegral(x, in.round)) : x;
    }
    if (in.sat)
      r = std::isnan(r) ? 0.0f : std::fmin(std::fmax(r, 0.0f), 1.0f);
    if (in.ftz)
      r = Ftz(r);
    return Bits(r);
  }
  double x = a == Type::kF32 ? static_cast<double>(in.ftz ? Ftz(F32(v)) : F32(v)) : F64(v);
  if (in.round >= Round::kRni)
    x = RoundIntegral(x, in.round);
  if (in.sat)
    x = std::isnan(x) ? 0.0 : std::fmin(std::fmax(x, 0.0), 1.0);
  return Bits(x);
}

// --------------------------------------------------------------------------- the machine

struct StackEntry {
  uint32_t pc;
  uint32_t rpc;  // reconvergence pc; kNoRpc for the bottom entry
  uint32_t mask;
};
constexpr uint32_t kNoRpc = 0xffffffffu;

struct Warp {
  uint32_t id = 0;
  uint32_t lanes = 0;           // mask of threads that exist and have not exited
  std::vector<uint32_t> regs;   // [reg * 32 + lane]
  std::vector<uint32_t> preds;  // per predicate register: lane mask
  std::vector<StackEntry> stack;
  std::array<uint32_t, 32> tid_x{}, tid_y{}, tid_z{};
  std::vector<uint8_t> local;  // [lane * local_bytes + offset]
  bool done = false;
  bool at_barrier = false;
  uint64_t executed = 0;
  WarpStream* stream = nullptr;
};

// Per-instruction data resolved once per launch.
// Common 32-bit operations executed by whole-warp lane loops (all lanes computed, inactive
// lanes keep their value), chosen once per instruction; everything else goes lane by lane.
enum class Fast : uint8_t {
  kNone,
  kMov,
  kIAdd,
  kISub,
  kIMulLo,
  kIMadLo,
  kShl,
  kShrU,
  kAnd,
  kOr,
  kXor,
  kFAdd,
  kFSub,
  kFMul,
  kFFma,
};

Fast FastKind(const PtxInst& in) {
  if (in.n_dst != 1 || in.dst.kind != Operand::kReg || in.dst.width != 1 || in.sat || in.ftz)
    return Fast::kNone;
  for (int k = 0; k < in.n_src; ++k) {
    const Operand& o = in.src[static_cast<size_t>(k)];
    if (!((o.kind == Operand::kReg && o.width == 1) || o.kind == Operand::kImm))
      return Fast::kNone;
  }
  if (ptx::IsHalf(in.type) || in.op == Op::kPack || in.op == Op::kUnpack || in.op >= Op::kShfl)
    return Fast::kNone;
  const int bits = ptx::TypeBits(in.type);
  const bool f32 = in.type == Type::kF32;
  const bool i32 = bits == 32 && !f32;
  const bool rn = in.round == Round::kDefault || in.round == Round::kRn;
  switch (in.op) {
    case Op::kMov:
      return bits == 32 ? Fast::kMov : Fast::kNone;
    case Op::kAdd:
      return i32 ? Fast::kIAdd : (f32 && rn) ? Fast::kFAdd : Fast::kNone;
    case Op::kSub:
      return i32 ? Fast::kISub : (f32 && rn) ? Fast::kFSub : Fast::kNone;
    case Op::kMul:
      return (i32 && in.mul == MulMode::kLo) ? Fast::kIMulLo
             : (f32 && rn)                   ? Fast::kFMul
                                             : Fast::kNone;
    case Op::kMad:
      return (i32 && in.mul == MulMode::kLo) ? Fast::kIMadLo : Fast::kNone;
    case Op::kFma:
      return (f32 && rn) ? Fast::kFFma : Fast::kNone;
    case Op::kShl:
      return i32 ? Fast::kShl : Fast::kNone;
    case Op::kShr:
      return (i32 && !ptx::IsSigned(in.type)) ? Fast::kShrU : Fast::kNone;
    case Op::kAnd:
      return i32 ? Fast::kAnd : Fast::kNone;
    case Op::kOr:
      return i32 ? Fast::kOr : Fast::kNone;
    case Op::kXor:
      return i32 ? Fast::kXor : Fast::kNone;
    default:
      return Fast::kNone;
  }
}

struct Resolved {
  Fast fast = Fast::kNone;
  bool mem = false;               // a memory instruction: its lane addresses are recorded
  uint32_t recon = 0;             // reconvergence point of a branch
  std::vector<uint16_t> rec_src;  // registers whose values are recorded, sources
  std::vector<uint16_t> rec_dst;
};

class Machine {
 public:
  Machine(const ptx::CompiledKernel& ck, Dim3 grid, Dim3 block, const std::vector<uint8_t>& params,
          DeviceMemory& mem, const ExecOptions& opt)
      : ck_(ck),
        code_(ck.fn.code),
        grid_(grid),
        block_(block),
        params_(params),
        mem_(mem),
        opt_(opt) {
    const Kernel& k = ck.kernel;
    res_.resize(code_.size());
    for (uint32_t i = 0; i < code_.size(); ++i) {
      const Instruction& ki = k.code[i];
      if (ki.op_class == OpClass::kBranch)
        res_[i].recon = k.ReconvergencePoint(i);
      for (const auto& r : ki.srcs)
        for (int j = 0; j < r.count; ++j)
          res_[i].rec_src.push_back(static_cast<uint16_t>(r.first + j));
      for (const auto& r : ki.dsts)
        for (int j = 0; j < r.count; ++j)
          res_[i].rec_dst.push_back(static_cast<uint16_t>(r.first + j));
      res_[i].fast = FastKind(code_[i]);
      const OpClass c = ki.op_class;
      res_[i].mem = opt.record_addresses &&
                    (c == OpClass::kGlobalMem || c == OpClass::kLocalMem ||
                     c == OpClass::kSharedMem || c == OpClass::kConstMem || c == OpClass::kTexture);
    }
    n_regs_ = static_cast<uint32_t>(std::max(k.regs_per_thread, 1));
    n_preds_ = static_cast<uint32_t>(std::max(k.pred_regs, 1));
    local_bytes_ = ck.fn.local_bytes;
  }

  KernelRun Run() {
    KernelRun run;
    run.kernel = &ck_.kernel;
    run.grid = grid_;
    run.block = block_;
    const uint64_t threads = block_.count();
    if (threads == 0 || threads > 1024 || block_.z > 64)
      throw InputError({}, "block", fmt::format("{}x{}x{}", block_.x, block_.y, block_.z),
                       "threads per CTA out of range", "1..1024 threads, z <= 64");
    if (grid_.count() == 0 || grid_.count() > (1u << 24))
      throw InputError({}, "grid", fmt::format("{}x{}x{}", grid_.x, grid_.y, grid_.z),
                       "grid size out of range", "1..16777216 CTAs");
    warps_per_cta_ = static_cast<uint32_t>((threads + 31) / 32);
    const uint64_t n_warps = grid_.count() * warps_per_cta_;
    recorded_ = n_warps * sizeof(WarpStream);
    if (recorded_ > opt_.max_recorded_bytes)
      throw InputError(
          {}, "grid", fmt::format("{}x{}x{}", grid_.x, grid_.y, grid_.z),
          fmt::format("{} warps are too many to record within the limit of {} MiB of "
                      "recorded execution",
                      n_warps, opt_.max_recorded_bytes >> 20),
          fmt::format("fewer CTAs, or a higher limit ({} MB)", opt_.record_limit_option));
    run.warps.resize(n_warps);
    shared_.assign(ck_.fn.shared_bytes, 0);
    uint32_t cta = 0;
    for (uint32_t z = 0; z < grid_.z; ++z) {
      for (uint32_t y = 0; y < grid_.y; ++y) {
        for (uint32_t x = 0; x < grid_.x; ++x, ++cta) {
          ctaid_ = {x, y, z};
          RunCta(cta, run);
        }
      }
    }
    return run;
  }

 private:
  void RunCta(uint32_t cta, KernelRun& run) {
    std::fill(shared_.begin(), shared_.end(), 0);
    std::vector<Warp> warps(warps_per_cta_);
    const uint64_t threads = block_.count();
    for (uint32_t w = 0; w < warps_per_cta_; ++w) {
      Warp& wp = warps[w];
      wp.id = w;
      wp.regs.assign(size_t{n_regs_} * 32, 0);
      wp.preds.assign(n_preds_, 0);
      wp.local.assign(size_t{local_bytes_} * 32, 0);
      for (uint32_t l = 0; l < 32; ++l) {
        const uint64_t t = uint64_t{w} * 32 + l;
        if (t >= threads)
          break;
        wp.lanes |= 1u << l;
        wp.tid_x[l] = static_cast<uint32_t>(t % block_.x);
        wp.tid_y[l] = static_cast<uint32_t>((t / block_.x) % block_.y);
        wp.tid_z[l] = static_cast<uint32_t>(t / (uint64_t{block_.x} * block_.y));
      }
      wp.stack.push_back({0, kNoRpc, wp.lanes});
      WarpStream& s = run.warps[size_t{cta} * warps_per_cta_ + w];
      s.cta = cta;
      s.warp_in_cta = w;
      s.has_values = opt_.record_values;
      s.has_addrs = opt_.record_addresses;
      wp.stream = &s;
    }
    for (;;) {
      for (Warp& w : warps) {
        if (!w.done && !w.at_barrier)
          RunWarp(w);
      }
      bool any_waiting = false;
      for (const Warp& w : warps)
        any_waiting |= w.at_barrier;
      if (!any_waiting)
        break;
      for (Warp& w : warps)
        w.at_barrier = false;
    }
  }

  // ------------------------------------------------------------------- operand access

  uint32_t SpecialValue(const Warp& w, Special s, uint32_t l) const {
    switch (s) {
      case Special::kTidX:
        return w.tid_x[l];
      case Special::kTidY:
        return w.tid_y[l];
      case Special::kTidZ:
        return w.tid_z[l];
      case Special::kNtidX:
        return block_.x;
      case Special::kNtidY:
        return block_.y;
      case Special::kNtidZ:
        return block_.z;
      case Special::kCtaidX:
        return ctaid_.x;
      case Special::kCtaidY:
        return ctaid_.y;
      case Special::kCtaidZ:
        return ctaid_.z;
      case Special::kNctaidX:
        return grid_.x;
      case Special::kNctaidY:
        return grid_.y;
      case Special::kNctaidZ:
        return grid_.z;
      case Special::kLaneId:
        return l;
      case Special::kWarpId:
        return w.id;
      case Special::kNWarpId:
        return warps_per_cta_;
    }
    return 0;
  }

  inline uint64_t Read(const Warp& w, const Operand& o, uint32_t l) const {
    switch (o.kind) {
      case Operand::kReg:
        if (o.width == 2)
          return w.regs[size_t{o.reg} * 32 + l] |
                 (uint64_t{w.regs[(size_t{o.reg} + 1) * 32 + l]} << 32);
        return w.regs[size_t{o.reg} * 32 + l];
      case Operand::kImm:
        return static_cast<uint64_t>(o.imm);
      case Operand::kSpecial:
        return SpecialValue(w, o.special, l);
      default:
        return 0;
    }
  }

  // A warp-collective result: lane l of `out` to 32-bit register `reg` of every lane in `mask`.
  template <typename Lanes>
  static void WriteLanes(Warp& w, uint16_t reg, uint32_t mask, const Lanes& out) {
    for (uint32_t m = mask; m; m &= m - 1) {
      const auto l = static_cast<uint32_t>(std::countr_zero(m));
      Write(w, reg, 1, l, out[l]);
    }
  }
  // The bits of `p` of the lanes in `mask` to predicate `pred`; the other lanes keep theirs.
  static void WritePred(Warp& w, uint16_t pred, uint32_t mask, uint32_t p) {
    uint32_t& pd = w.preds[pred];
    pd = (pd & ~mask) | (p & mask);
  }

  static inline void Write(Warp& w, uint16_t reg, uint8_t width, uint32_t l, uint64_t v) {
    w.regs[size_t{reg} * 32 + l] = static_cast<uint32_t>(v);
    if (width == 2)
      w.regs[(size_t{reg} + 1) * 32 + l] = static_cast<uint32_t>(v >> 32);
  }

  // Whether `in`'s address is a 32-bit shared address: ld/st/atom on .shared through a 32-bit
  // register or a variable alone. The hardware computes those modulo 2^32, so a register below 0
  // plus an offset that brings it back into the CTA's memory is a valid access (nvcc forms such
  // temporaries when it strength-reduces an unrolled loop over a shared array).
  static bool Shared32(const PtxInst& in) {
    return in.space == Space::kShared && (!in.src[0].has_base || in.src[0].width == 1);
  }

  uint64_t Address(const Warp& w, const PtxInst& in, uint32_t l) const {
    const Operand& o = in.src[0];
    uint64_t a = static_cast<uint64_t>(o.imm);
    if (o.has_base) {
      const uint64_t b = o.width == 2 ? (w.regs[size_t{o.reg} * 32 + l] |
                                         (uint64_t{w.regs[(size_t{o.reg} + 1) * 32 + l]} << 32))
                                      : w.regs[size_t{o.reg} * 32 + l];
      a += b;
    }
    return Shared32(in) ? a & 0xffffffffu : a;
  }

  // Out-of-bounds and similar errors name the warp, the lane, the instruction (index, PC,
  // opcode) and the address, at the instruction's PTX location.
  [[noreturn]] void MemError(const PtxInst& in, const Warp& w, uint32_t l, uint64_t addr,
                             uint32_t bytes, const std::string& problem) const {
    const auto i = static_cast<size_t>(&in - code_.data());
    throw InputError(
        in.loc, "address", fmt::format("0x{:x}", addr),
        fmt::format("{}: {}-byte access by warp {} of CTA ({},{},{}), lane {}, instruction {} at "
                    "PC 0x{:x} ({}) in kernel {}",
                    problem, bytes, w.id, ctaid_.x, ctaid_.y, ctaid_.z, l, i,
                    i < ck_.kernel.code.size() ? ck_.kernel.code[i].pc : i, in.opcode,
                    ck_.fn.name));
  }

  // Host pointer of a `bytes`-wide access at `addr` in `space` by lane `l`.
  uint8_t* Mem(const PtxInst& in, Warp& w, Space space, uint64_t addr, uint32_t bytes, uint32_t l) {
    if (addr % bytes != 0)
      MemError(in, w, l, addr, bytes, "misaligned address");
    if (space == Space::kGeneric) {
      if (addr >= kSharedWindow && addr < kSharedWindow + kWindowSize) {
        space = Space::kShared;
        addr -= kSharedWindow;
      } else if (addr >= kLocalWindow && addr < kLocalWindow + kWindowSize) {
        space = Space::kLocal;
        addr -= kLocalWindow;
      } else {
        space = Space::kGlobal;
      }
    }
    switch (space) {
      case Space::kGlobal: {
        uint8_t* p = mem_.At(addr, bytes);
        if (!p)
          MemError(in, w, l, addr, bytes,
                   "global access out of bounds: " + mem_.Describe(addr, bytes));
        return p;
      }
      case Space::kShared:
        if (addr > shared_.size() || bytes > shared_.size() - addr)
          MemError(in, w, l, addr, bytes,
                   fmt::format("shared address outside the CTA's {} bytes", shared_.size()));
        return shared_.data() + addr;
      case Space::kLocal:
        if (addr > local_bytes_ || bytes > local_bytes_ - addr)
          MemError(in, w, l, addr, bytes, "local address outside the thread's local memory");
        return w.local.data() + size_t{l} * local_bytes_ + addr;
      case Space::kParam:
        if (addr > params_.size() || bytes > params_.size() - addr)
          MemError(in, w, l, addr, bytes, "parameter read outside the parameter buffer");
        return const_cast<uint8_t*>(params_.data()) + addr;
      default:
        MemError(in, w, l, addr, bytes, "unsupported state space");
    }
  }

  static uint64_t LoadBytes(const uint8_t* p, uint32_t bytes) {
    uint64_t v = 0;
    std::memcpy(&v, p, bytes);
    return v;
  }
  static void StoreBytes(uint8_t* p, uint32_t bytes, uint64_t v) { std::memcpy(p, &v, bytes); }

  // ------------------------------------------------------------------- execution

  [[noreturn]] void RecordLimit(const Warp& w, uint32_t i) const {
    throw InputError(
        code_[i].loc, "execution", ck_.fn.name,
        fmt::format("the run's recorded instruction stream, register values and addresses exceed "
                    "the limit "
                    "of {} MiB (warp {} of CTA ({},{},{}) at instruction {}, {} instructions into "
                    "the warp): a runaway loop, or a launch too large to record",
                    opt_.max_recorded_bytes >> 20, w.id, ctaid_.x, ctaid_.y, ctaid_.z, i,
                    w.executed),
        fmt::format("at most {} MiB recorded; raise it with {} MB, or launch fewer CTAs",
                    opt_.max_recorded_bytes >> 20, opt_.record_limit_option));
  }

  void Record(Warp& w, uint32_t i, uint32_t mask, bool before) {
    WarpStream& s = *w.stream;
    const auto& regs = before ? res_[i].rec_src : res_[i].rec_dst;
    recorded_ += (before ? sizeof(DynInst) : 0) +
                 (opt_.record_values ? regs.size() * 32 * sizeof(uint32_t) : 0);
    if (recorded_ > opt_.max_recorded_bytes) [[unlikely]]
      RecordLimit(w, i);
    if (before) {
      s.insts.push_back(DynInst{i, mask, static_cast<uint32_t>(s.values.size()), 0});
      if (!opt_.record_values)
        return;
    }
    if (!opt_.record_values || regs.empty())
      return;
    const size_t at = s.values.size();
    s.values.resize(at + regs.size() * 32);
    uint32_t* out = s.values.data() + at;
    for (uint16_t r : regs) {
      const uint32_t* src = w.regs.data() + size_t{r} * 32;
      if (mask == 0xffffffffu) {
        std::memcpy(out, src, 32 * sizeof(uint32_t));
      } else {
        for (uint32_t l = 0; l < 32; ++l)
          out[l] = (mask >> l) & 1 ? src[l] : 0;
      }
      out += 32;
    }
  }

  // The 32 lane addresses of memory instruction `in` (just recorded by Record), read before it
  // executes (a load may overwrite its address register): global accesses the device address;
  // shared, local and parameter accesses the offset in that space; a generic access the offset
  // in the space its window resolves to (the device address outside the windows), and when
  // every active lane resolves to the same window, that space in WarpStream::resolved.
  void RecordAddresses(Warp& w, const PtxInst& in, uint32_t mask) {
    WarpStream& s = *w.stream;
    recorded_ += 32 * sizeof(uint64_t);
    if (recorded_ > opt_.max_recorded_bytes) [[unlikely]]
      RecordLimit(w, static_cast<uint32_t>(&in - code_.data()));
    s.insts.back().addrs = static_cast<uint32_t>(s.addrs.size());
    std::array<uint64_t, 32> a{};
    const Operand& o = in.src[0];
    if (in.op != Op::kShfl) {  // shfl has no address (class kSharedMem for its unit): all 0
      const auto imm = static_cast<uint64_t>(o.imm);
      const uint32_t* lo = w.regs.data() + size_t{o.reg} * 32;
      if (!o.has_base) {
        for (uint32_t l = 0; l < 32; ++l)
          a[l] = (mask >> l) & 1 ? imm : 0;
      } else if (o.width == 2) {
        const uint32_t* hi = lo + 32;
        for (uint32_t l = 0; l < 32; ++l)
          a[l] = (mask >> l) & 1 ? imm + (lo[l] | (uint64_t{hi[l]} << 32)) : 0;
      } else {
        for (uint32_t l = 0; l < 32; ++l)
          a[l] = (mask >> l) & 1 ? imm + lo[l] : 0;
      }
      if (Shared32(in)) {
        for (uint32_t l = 0; l < 32; ++l)
          a[l] &= 0xffffffffu;
      }
      if (in.space == Space::kGeneric) {
        uint32_t shared = 0, local = 0;
        for (uint32_t l = 0; l < 32; ++l) {
          if (a[l] >= kSharedWindow && a[l] < kSharedWindow + kWindowSize) {
            a[l] -= kSharedWindow;
            shared |= 1u << l;
          } else if (a[l] >= kLocalWindow && a[l] < kLocalWindow + kWindowSize) {
            a[l] -= kLocalWindow;
            local |= 1u << l;
          }
        }
        // One space for every active lane: the memory model times the access in it (a warp
        // whose lanes span windows stays a global access, its lanes' offsets recorded each in
        // its own space).
        if (mask != 0 && (shared == mask || local == mask)) {
          s.resolved.push_back({static_cast<uint32_t>(s.addrs.size() / 32),
                                shared == mask ? OpClass::kSharedMem : OpClass::kLocalMem});
          recorded_ += sizeof(WarpStream::ResolvedGeneric);
        }
      }
    }
    s.addrs.insert(s.addrs.end(), a.begin(), a.end());
  }

  static void ExitLanes(Warp& w, uint32_t lanes) {
    w.lanes &= ~lanes;
    for (auto& e : w.stack)
      e.mask &= ~lanes;
    while (!w.stack.empty() && w.stack.back().mask == 0)
      w.stack.pop_back();
  }

  void RunWarp(Warp& w) {
    for (;;) {
      if (w.stack.empty()) {
        w.done = true;
        return;
      }
      StackEntry& top = w.stack.back();
      if (top.mask == 0 || top.pc == top.rpc) {
        w.stack.pop_back();
        continue;
      }
      if (top.pc >= code_.size()) {  // fell off the end of the code: those lanes exit
        ExitLanes(w, top.mask);
        continue;
      }
      const uint32_t i = top.pc;
      const PtxInst& in = code_[i];
      const uint32_t active = top.mask;
      uint32_t mask = active;
      if (in.has_guard) {
        const uint32_t g = w.preds[in.guard.reg];
        mask &= in.guard.negated ? ~g : g;
      }
      if (++w.executed > opt_.max_warp_instructions) {
        throw InputError(in.loc, "execution", ck_.fn.name,
                         fmt::format("warp {} executed more than {} instructions (runaway loop?)",
                                     w.id, opt_.max_warp_instructions));
      }
      switch (in.op) {
        case Op::kBra: {
          Record(w, i, active, true);
          if (mask == active) {
            top.pc = static_cast<uint32_t>(in.target);
          } else if (mask == 0) {
            top.pc = i + 1;
          } else {
            const uint32_t r = res_[i].recon;
            const uint32_t rpc = top.rpc;
            (void)rpc;
            top.pc = r;
            const uint32_t not_taken = active & ~mask;
            if (i + 1 != r)
              w.stack.push_back({i + 1, r, not_taken});
            if (static_cast<uint32_t>(in.target) != r)
              w.stack.push_back({static_cast<uint32_t>(in.target), r, mask});
          }
          continue;
        }
        case Op::kRet:
          Record(w, i, mask, true);
          top.pc = i + 1;
          if (mask != 0)
            ExitLanes(w, mask);
          continue;
        case Op::kBar:
          if (active != w.lanes && mask != 0) {
            throw InputError(in.loc, "bar.sync", ck_.fn.name,
                             fmt::format("barrier reached in divergent code by warp {} (active "
                                         "mask 0x{:08x} of 0x{:08x})",
                                         w.id, active, w.lanes));
          }
          Record(w, i, mask, true);
          top.pc = i + 1;
          if (mask != 0) {
            w.at_barrier = true;
            return;
          }
          continue;
        default:
          break;
      }
      Record(w, i, mask, true);
      if (res_[i].mem)
        RecordAddresses(w, in, mask);
      if (mask != 0)
        Execute(w, in, mask, res_[i].fast);
      Record(w, i, mask, false);
      top.pc = i + 1;
    }
  }

  // 32 lane values of a register or an immediate operand.
  const uint32_t* Lanes(const Warp& w, const Operand& o, std::array<uint32_t, 32>& buf) const {
    if (o.kind == Operand::kReg)
      return w.regs.data() + size_t{o.reg} * 32;
    buf.fill(static_cast<uint32_t>(o.imm));
    return buf.data();
  }

  template <typename F>
  static void LaneLoop(uint32_t* d, uint32_t mask, F&& f) {
    if (mask == 0xffffffffu) {
      for (uint32_t l = 0; l < 32; ++l)
        d[l] = f(l);
    } else {
      for (uint32_t l = 0; l < 32; ++l) {
        const uint32_t v = f(l);
        d[l] = (mask >> l) & 1 ? v : d[l];
      }
    }
  }

  void ExecuteFast(Warp& w, const PtxInst& in, uint32_t mask, Fast fast) {
    std::array<uint32_t, 32> ba, bb, bc;
    const uint32_t* a = Lanes(w, in.src[0], ba);
    const uint32_t* b = in.n_src > 1 ? Lanes(w, in.src[1], bb) : a;
    const uint32_t* c = in.n_src > 2 ? Lanes(w, in.src[2], bc) : a;
    // Sources are read into locals before the destination row is written (it may alias one).
    std::array<uint32_t, 32> out;
    uint32_t* d = w.regs.data() + size_t{in.dst.reg} * 32;
    std::memcpy(out.data(), d, sizeof(out));
    auto fl = [](uint32_t x) { return std::bit_cast<float>(x); };
    auto u = [](float x) { return std::bit_cast<uint32_t>(x); };
    switch (fast) {
      case Fast::kMov:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return a[l]; });
        break;
      case Fast::kIAdd:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return a[l] + b[l]; });
        break;
      case Fast::kISub:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return a[l] - b[l]; });
        break;
      case Fast::kIMulLo:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return a[l] * b[l]; });
        break;
      case Fast::kIMadLo:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return a[l] * b[l] + c[l]; });
        break;
      case Fast::kShl:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return b[l] >= 32 ? 0u : a[l] << b[l]; });
        break;
      case Fast::kShrU:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return b[l] >= 32 ? 0u : a[l] >> b[l]; });
        break;
      case Fast::kAnd:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return a[l] & b[l]; });
        break;
      case Fast::kOr:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return a[l] | b[l]; });
        break;
      case Fast::kXor:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return a[l] ^ b[l]; });
        break;
      case Fast::kFAdd:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return u(fl(a[l]) + fl(b[l])); });
        break;
      case Fast::kFSub:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return u(fl(a[l]) - fl(b[l])); });
        break;
      case Fast::kFMul:
        LaneLoop(out.data(), mask, [&](uint32_t l) { return u(fl(a[l]) * fl(b[l])); });
        break;
      case Fast::kFFma:
        LaneLoop(out.data(), mask,
                 [&](uint32_t l) { return u(std::fma(fl(a[l]), fl(b[l]), fl(c[l]))); });
        break;
      case Fast::kNone:
        break;
    }
    std::memcpy(d, out.data(), sizeof(out));
  }

  void Execute(Warp& w, const PtxInst& in, uint32_t mask, Fast fast) {
    if (fast != Fast::kNone) {
      ExecuteFast(w, in, mask, fast);
      return;
    }
    switch (in.op) {
      case Op::kMembar:
      case Op::kPrefetch:
        return;
      case Op::kShfl:
      case Op::kVote:
      case Op::kActivemask:
      case Op::kMatch:
      case Op::kRedux:
      case Op::kBarWarp:
        WarpCollective(w, in, mask);
        return;
      case Op::kSetp: {
        uint32_t res = 0;
        for (uint32_t m = mask; m; m &= m - 1) {
          const auto l = static_cast<uint32_t>(std::countr_zero(m));
          const uint64_t a = Canon(Read(w, in.src[0], l), in.type);
          const uint64_t b = Canon(Read(w, in.src[1], l), in.type);
          res |= static_cast<uint32_t>(Compare(in, a, b)) << l;
        }
        uint32_t r1 = res, r2 = ~res;
        if (in.bool_op != BoolOp::kNone) {
          uint32_t c = w.preds[in.psrc.reg];
          if (in.psrc.negated)
            c = ~c;
          switch (in.bool_op) {
            case BoolOp::kAnd:
              r1 = res & c;
              r2 = ~res & c;
              break;
            case BoolOp::kOr:
              r1 = res | c;
              r2 = ~res | c;
              break;
            case BoolOp::kXor:
              r1 = res ^ c;
              r2 = ~res ^ c;
              break;
            default:
              break;
          }
        }
        uint32_t& p0 = w.preds[in.pdst[0].reg];
        p0 = (p0 & ~mask) | (r1 & mask);
        if (in.n_pdst == 2) {
          uint32_t& p1 = w.preds[in.pdst[1].reg];
          p1 = (p1 & ~mask) | (r2 & mask);
        }
        return;
      }
      default:
        break;
    }
    if (in.type == Type::kPred) {  // predicate logic: whole-warp masks
      auto p = [&](int k) {
        const Operand& o = in.src[static_cast<size_t>(k)];
        if (o.kind == Operand::kImm)
          return o.imm ? ~0u : 0u;  // mov.pred %p, 1
        return w.preds[o.reg];
      };
      uint32_t r = 0;
      switch (in.op) {
        case Op::kMov:
          r = p(0);
          break;
        case Op::kAnd:
          r = p(0) & p(1);
          break;
        case Op::kOr:
          r = p(0) | p(1);
          break;
        case Op::kXor:
          r = p(0) ^ p(1);
          break;
        case Op::kNot:
          r = ~p(0);
          break;
        default:
          break;
      }
      uint32_t& d = w.preds[in.pdst[0].reg];
      d = (d & ~mask) | (r & mask);
      return;
    }
    switch (in.op) {
      case Op::kLd:
        Load(w, in, mask);
        return;
      case Op::kSt:
        Store(w, in, mask);
        return;
      case Op::kAtom:
        Atomic(w, in, mask);
        return;
      default:
        break;
    }
    const bool fl = ptx::IsFloat(in.type);
    const Type t = in.type;
    const uint8_t dw = in.dst.width;
    const uint16_t dr = in.dst.reg;
    const bool half =
        ptx::IsHalf(t) && in.op != Op::kMov && in.op != Op::kSelp && in.op != Op::kCvt;
    for (uint32_t m = mask; m; m &= m - 1) {
      const auto l = static_cast<uint32_t>(std::countr_zero(m));
      uint64_t r = 0;
      if (half) {
        const uint64_t a = in.n_src > 0 ? Read(w, in.src[0], l) : 0;
        const uint64_t b = in.n_src > 1 ? Read(w, in.src[1], l) : 0;
        const uint64_t c = in.n_src > 2 ? Read(w, in.src[2], l) : 0;
        r = HalfOp(in, a, b, c);
        if (t == Type::kF16x2)
          r |= HalfOp(in, a >> 16, b >> 16, c >> 16) << 16;
        Write(w, dr, dw, l, r);
        continue;
      }
      switch (in.op) {
        case Op::kPack: {
          const int eb = ptx::TypeBits(t);
          for (int k = 0; k < in.n_src; ++k)
            r |= ZExt(Read(w, in.src[static_cast<size_t>(k)], l), eb) << (k * eb);
          break;
        }
        case Op::kUnpack:
          r = ZExt(Read(w, in.src[0], l) >> in.src[1].imm, ptx::TypeBits(t));
          break;
        case Op::kMov:
          r = Read(w, in.src[0], l);
          break;
        case Op::kSelp: {
          const bool c = (w.preds[in.psrc.reg] >> l) & 1;
          r = Read(w, in.src[c ? 0 : 1], l);
          break;
        }
        case Op::kCvt:
          r = Convert(in, Read(w, in.src[0], l));
          break;
        case Op::kCvta: {
          const uint64_t a = Read(w, in.src[0], l);
          const uint64_t base = in.space == Space::kShared  ? kSharedWindow
                                : in.space == Space::kLocal ? kLocalWindow
                                                            : 0;
          r = in.to ? a - base : a + base;
          if (t == Type::kU32)
            r = ZExt(r, 32);
          break;
        }
        case Op::kShl:
        case Op::kShr:
          r = IntOp(in, Canon(Read(w, in.src[0], l), t), ZExt(Read(w, in.src[1], l), 32), 0);
          break;
        case Op::kMul:
        case Op::kMad:
          if (!fl) {
            const uint64_t a = Canon(Read(w, in.src[0], l), t);
            const uint64_t b = Canon(Read(w, in.src[1], l), t);
            uint64_t c = 0;
            if (in.op == Op::kMad)
              c = in.mul == MulMode::kWide ? Read(w, in.src[2], l)
                                           : Canon(Read(w, in.src[2], l), t);
            r = IntOp(in, a, b, c);
            break;
          }
          [[fallthrough]];
        default: {
          const uint64_t a = in.n_src > 0 ? Read(w, in.src[0], l) : 0;
          const uint64_t b = in.n_src > 1 ? Read(w, in.src[1], l) : 0;
          const uint64_t c = in.n_src > 2 ? Read(w, in.src[2], l) : 0;
          if (fl) {
            r = FloatOp(in, a, b, c);
          } else if (in.op == Op::kBfe) {
            r = IntOp(in, Canon(a, t), b, c);
          } else if (in.op == Op::kBfi) {
            const uint64_t d = in.n_src > 3 ? Read(w, in.src[3], l) : 0;
            const int bits = ptx::TypeBits(t);
            const uint64_t pos = c & 0xff, len = d & 0xff;
            r = b;
            if (len > 0 && pos < static_cast<uint64_t>(bits)) {
              const uint64_t n = std::min<uint64_t>(len, static_cast<uint64_t>(bits) - pos);
              const uint64_t fm = (n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1) << pos;
              r = (b & ~fm) | ((a << pos) & fm);
            }
          } else {
            r = IntOp(in, Canon(a, t), Canon(b, t), Canon(c, t));
          }
          break;
        }
      }
      Write(w, dr, dw, l, r);
    }
  }

  // Warp-level operations. Every lane's sources are read before any destination is written
  // (a destination may be a source of another lane). `mask` holds the executing lanes; the
  // membermask is per lane (nvcc computes segment masks per lane for tiled partitions).
  // Conventions of this model (PTX leaves them undefined):
  //   - an executing lane must be in its own membermask, and every live lane of a membermask
  //     must execute the instruction with it: the SIMT stack runs divergent paths one after
  //     another, so warp-synchronous code across divergent paths cannot be modelled; both are
  //     InputErrors at the instruction;
  //   - shfl from a source lane that is in range but not executing (outside the membermask, or
  //     exited) returns the reading lane's own value, as for an out-of-range source (the real
  //     register file would return that lane's stale register, which depends on ptxas's
  //     register allocation rather than the program); the predicate still says "in range".
  void WarpCollective(Warp& w, const PtxInst& in, uint32_t mask) {
    const Operand& mm_op = in.op == Op::kShfl   ? in.src[3]
                           : in.op == Op::kVote ? in.src[0]
                                                : in.src[1];
    std::array<uint32_t, 32> mm{}, out{};
    if (in.op == Op::kBarWarp || in.op == Op::kActivemask) {
      for (uint32_t l = 0; l < 32; ++l)
        mm[l] = in.op == Op::kBarWarp ? static_cast<uint32_t>(Read(w, in.src[0], l)) : mask;
    } else {
      for (uint32_t l = 0; l < 32; ++l)
        mm[l] = static_cast<uint32_t>(Read(w, mm_op, l));
    }
    for (uint32_t m = mask; m; m &= m - 1) {
      const auto l = static_cast<uint32_t>(std::countr_zero(m));
      if (!((mm[l] >> l) & 1) || (mm[l] & w.lanes & ~mask) != 0) {
        const auto i = static_cast<size_t>(&in - code_.data());
        throw InputError(
            in.loc, "membermask", fmt::format("0x{:08x}", mm[l]),
            fmt::format("{} executed by lane {} of warp {} of CTA ({},{},{}) (instruction {}) "
                        "with executing lanes 0x{:08x}: {}",
                        in.opcode, l, w.id, ctaid_.x, ctaid_.y, ctaid_.z, i, mask,
                        !((mm[l] >> l) & 1)
                            ? "the lane is not in its membermask"
                            : "the membermask names live lanes that do not execute it here (the "
                              "SIMT stack runs divergent paths one after another; "
                              "warp-synchronous code across divergent paths is not modelled)"),
            "a membermask holding the executing lane and only lanes that execute the "
            "instruction together");
      }
    }
    switch (in.op) {
      case Op::kBarWarp:
        return;
      case Op::kActivemask:
        for (uint32_t m = mask; m; m &= m - 1)
          Write(w, in.dst.reg, 1, static_cast<uint32_t>(std::countr_zero(m)), mask);
        return;
      case Op::kShfl: {
        const uint32_t* a = w.regs.data();
        uint32_t p = 0;
        for (uint32_t m = mask; m; m &= m - 1) {
          const auto l = static_cast<uint32_t>(std::countr_zero(m));
          const auto av = static_cast<uint32_t>(Read(w, in.src[0], l));
          const auto b = static_cast<uint32_t>(Read(w, in.src[1], l));
          const auto c = static_cast<uint32_t>(Read(w, in.src[2], l));
          const uint32_t clamp = c & 0x1f, seg = (c >> 8) & 0x1f;
          const int max_lane = static_cast<int>((l & seg) | (clamp & ~seg));
          const int min_lane = static_cast<int>(l & seg);
          int j = 0;
          bool ok = false;
          switch (static_cast<ptx::ShflMode>(in.sub)) {
            case ptx::ShflMode::kUp:
              j = static_cast<int>(l) - static_cast<int>(b & 0x1f);
              ok = j >= max_lane;
              break;
            case ptx::ShflMode::kDown:
              j = static_cast<int>(l) + static_cast<int>(b & 0x1f);
              ok = j <= max_lane;
              break;
            case ptx::ShflMode::kBfly:
              j = static_cast<int>(l ^ (b & 0x1f));
              ok = j <= max_lane;
              break;
            case ptx::ShflMode::kIdx:
              j = min_lane | static_cast<int>(b & 0x1f & ~seg);
              ok = j <= max_lane;
              break;
          }
          uint32_t v = av;
          if (ok && (mask >> j) & 1 && (mm[l] >> j) & 1) {
            const Operand& src = in.src[0];
            v = src.kind == Operand::kReg ? a[size_t{src.reg} * 32 + static_cast<uint32_t>(j)] : av;
          }
          out[l] = v;
          p |= static_cast<uint32_t>(ok) << l;
        }
        WriteLanes(w, in.dst.reg, mask, out);
        if (in.n_pdst > 0)
          WritePred(w, in.pdst[0].reg, mask, p);
        return;
      }
      case Op::kVote: {
        uint32_t pv = w.preds[in.psrc.reg];
        if (in.psrc.negated)
          pv = ~pv;
        uint32_t res = 0;
        for (uint32_t m = mask; m; m &= m - 1) {
          const auto l = static_cast<uint32_t>(std::countr_zero(m));
          const uint32_t g = mm[l] & mask;  // the lanes voting with l
          const uint32_t yes = pv & g;
          bool r = false;
          switch (static_cast<ptx::VoteMode>(in.sub)) {
            case ptx::VoteMode::kAll:
              r = yes == g;
              break;
            case ptx::VoteMode::kAny:
              r = yes != 0;
              break;
            case ptx::VoteMode::kUni:
              r = yes == 0 || yes == g;
              break;
            case ptx::VoteMode::kBallot:
              out[l] = yes;
              break;
          }
          res |= static_cast<uint32_t>(r) << l;
        }
        if (static_cast<ptx::VoteMode>(in.sub) == ptx::VoteMode::kBallot) {
          WriteLanes(w, in.dst.reg, mask, out);
        } else {
          WritePred(w, in.pdst[0].reg, mask, res);
        }
        return;
      }
      case Op::kMatch: {
        std::array<uint64_t, 32> v{};
        for (uint32_t m = mask; m; m &= m - 1) {
          const auto l = static_cast<uint32_t>(std::countr_zero(m));
          v[l] = Read(w, in.src[0], l);
        }
        uint32_t p = 0;
        for (uint32_t m = mask; m; m &= m - 1) {
          const auto l = static_cast<uint32_t>(std::countr_zero(m));
          const uint32_t g = mm[l] & mask;
          uint32_t same = 0;
          for (uint32_t k = g; k; k &= k - 1) {
            const auto o = static_cast<uint32_t>(std::countr_zero(k));
            same |= static_cast<uint32_t>(v[o] == v[l]) << o;
          }
          if (in.sub == 0) {
            out[l] = same;
          } else {
            out[l] = same == g ? g : 0;
            p |= static_cast<uint32_t>(same == g) << l;
          }
        }
        WriteLanes(w, in.dst.reg, mask, out);
        if (in.n_pdst > 0)
          WritePred(w, in.pdst[0].reg, mask, p);
        return;
      }
      case Op::kRedux: {
        std::array<uint32_t, 32> v{};
        for (uint32_t m = mask; m; m &= m - 1) {
          const auto l = static_cast<uint32_t>(std::countr_zero(m));
          v[l] = static_cast<uint32_t>(Read(w, in.src[0], l));
        }
        const bool sgn = in.type == Type::kS32;
        for (uint32_t m = mask; m; m &= m - 1) {
          const auto l = static_cast<uint32_t>(std::countr_zero(m));
          const uint32_t g = mm[l] & mask;
          const auto first = static_cast<uint32_t>(std::countr_zero(g));
          uint32_t r = v[first];
          for (uint32_t k = g & (g - 1); k; k &= k - 1) {
            const uint32_t x = v[static_cast<uint32_t>(std::countr_zero(k))];
            switch (in.atom) {
              case AtomOp::kAdd:
                r += x;
                break;
              case AtomOp::kMin:
                r = sgn ? static_cast<uint32_t>(
                              std::min(static_cast<int32_t>(r), static_cast<int32_t>(x)))
                        : std::min(r, x);
                break;
              case AtomOp::kMax:
                r = sgn ? static_cast<uint32_t>(
                              std::max(static_cast<int32_t>(r), static_cast<int32_t>(x)))
                        : std::max(r, x);
                break;
              case AtomOp::kAnd:
                r &= x;
                break;
              case AtomOp::kOr:
                r |= x;
                break;
              case AtomOp::kXor:
                r ^= x;
                break;
              default:
                break;
            }
          }
          out[l] = r;
        }
        WriteLanes(w, in.dst.reg, mask, out);
        return;
      }
      default:
        return;
    }
  }

  void Load(Warp& w, const PtxInst& in, uint32_t mask) {
    const uint32_t eb = static_cast<uint32_t>(ptx::TypeBits(in.type) / 8);
    const uint32_t n = in.vec;
    for (uint32_t m = mask; m; m &= m - 1) {
      const auto l = static_cast<uint32_t>(std::countr_zero(m));
      const uint64_t addr = Address(w, in, l);
      const uint8_t* p = Mem(in, w, in.space, addr, eb * n, l);
      if (in.dst.kind == Operand::kVec) {
        // Read every element before writing (an element may overwrite the address register).
        std::array<uint64_t, 4> v{};
        for (uint32_t k = 0; k < n; ++k)
          v[k] = Canon(LoadBytes(p + k * eb, eb), in.type);
        for (uint32_t k = 0; k < n; ++k)
          Write(w, in.dst.vec[k], in.dst.width, l, v[k]);
      } else {
        Write(w, in.dst.reg, in.dst.width, l, Canon(LoadBytes(p, eb), in.type));
      }
    }
  }

  void Store(Warp& w, const PtxInst& in, uint32_t mask) {
    const uint32_t eb = static_cast<uint32_t>(ptx::TypeBits(in.type) / 8);
    const uint32_t n = in.vec;
    for (uint32_t m = mask; m; m &= m - 1) {
      const auto l = static_cast<uint32_t>(std::countr_zero(m));
      const uint64_t addr = Address(w, in, l);
      uint8_t* p = Mem(in, w, in.space, addr, eb * n, l);
      const Operand& v = in.src[1];
      if (v.kind == Operand::kVec) {
        for (uint32_t k = 0; k < n; ++k) {
          Operand e;
          e.kind = Operand::kReg;
          e.reg = v.vec[k];
          e.width = v.width;
          StoreBytes(p + k * eb, eb, Read(w, e, l));
        }
      } else {
        StoreBytes(p, eb, Read(w, v, l));
      }
    }
  }

  void Atomic(Warp& w, const PtxInst& in, uint32_t mask) {
    const uint32_t eb = static_cast<uint32_t>(ptx::TypeBits(in.type) / 8);
    const Type t = in.type;
    for (uint32_t m = mask; m; m &= m - 1) {
      const auto l = static_cast<uint32_t>(std::countr_zero(m));
      const uint64_t addr = Address(w, in, l);
      uint8_t* p = Mem(in, w, in.space, addr, eb, l);
      const uint64_t old = Canon(LoadBytes(p, eb), t);
      const uint64_t b = Canon(Read(w, in.src[1], l), t);
      uint64_t nv = old;
      const bool sgn = ptx::IsSigned(t);
      switch (in.atom) {
        case AtomOp::kAdd:
          if (t == Type::kF32)
            nv = Bits(F32(old) + F32(b));
          else if (t == Type::kF64)
            nv = Bits(F64(old) + F64(b));
          else
            nv = old + b;
          break;
        case AtomOp::kMin:
          nv = sgn ? static_cast<uint64_t>(
                         std::min(static_cast<int64_t>(old), static_cast<int64_t>(b)))
                   : std::min(old, b);
          break;
        case AtomOp::kMax:
          nv = sgn ? static_cast<uint64_t>(
                         std::max(static_cast<int64_t>(old), static_cast<int64_t>(b)))
                   : std::max(old, b);
          break;
        case AtomOp::kExch:
          nv = b;
          break;
        case AtomOp::kCas:
          nv = old == b ? Canon(Read(w, in.src[2], l), t) : old;
          break;
        case AtomOp::kAnd:
          nv = old & b;
          break;
        case AtomOp::kOr:
          nv = old | b;
          break;
        case AtomOp::kXor:
          nv = old ^ b;
          break;
        case AtomOp::kInc:
          nv = ZExt(old, 32) >= ZExt(b, 32) ? 0 : old + 1;
          break;
        case AtomOp::kDec:
          nv = (ZExt(old, 32) == 0 || ZExt(old, 32) > ZExt(b, 32)) ? b : old - 1;
          break;
      }
      StoreBytes(p, eb, nv);
      if (in.n_dst > 0)
        Write(w, in.dst.reg, in.dst.width, l, old);
    }
  }

  const ptx::CompiledKernel& ck_;
  const std::vector<PtxInst>& code_;
  Dim3 grid_, block_;
  const std::vector<uint8_t>& params_;
  DeviceMemory& mem_;
  const ExecOptions& opt_;
  std::vector<Resolved> res_;
  uint32_t n_regs_ = 1, n_preds_ = 1, local_bytes_ = 0, warps_per_cta_ = 1;
  std::vector<uint8_t> shared_;
  Dim3 ctaid_;
  uint64_t recorded_ = 0;  // bytes of the run's streams so far (ExecOptions::max_recorded_bytes)
};

}  // namespace

KernelRun Execute(const ptx::CompiledKernel& ck, Dim3 grid, Dim3 block,
                  const std::vector<uint8_t>& params, DeviceMemory& mem, const ExecOptions& opt) {
  if (params.size() < ck.fn.param_bytes) {
    throw InputError({}, "params", std::to_string(params.size()),
                     fmt::format("parameter buffer smaller than the {} bytes kernel {} declares",
                                 ck.fn.param_bytes, ck.fn.name));
  }
  Machine m(ck, grid, block, params, mem, opt);
  return m.Run();
}

}  // namespace gpurf::sim
