#include "sim/workload/reference.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <queue>
#include <type_traits>

#include "base/diag.h"

namespace gpurf::sim {

uint64_t CountMul(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

uint64_t CountAdd(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

namespace {

std::string ParamField(size_t index) {
  return fmt::format("params[{}]", index);
}

}  // namespace

int64_t ReferenceContext::Int(size_t index) const {
  if (index >= spec.params.size())
    throw InputError(
        spec.reference_loc, "params", std::to_string(spec.params.size()),
        fmt::format("reference {} needs at least {} parameters", spec.reference, index + 1));
  const ParamBinding& p = spec.params[index];
  if (p.is_buffer)
    throw InputError(
        p.loc, ParamField(index), p.text,
        fmt::format("reference {} reads this parameter as a number, not a buffer", spec.reference),
        "a number");
  return std::strtoll(p.text.c_str(), nullptr, 0);
}

double ReferenceContext::Float(size_t index) const {
  Int(index);  // the same checks
  return std::strtod(spec.params[index].text.c_str(), nullptr);
}

uint64_t ReferenceContext::Count(size_t index, const std::string& what, uint64_t min,
                                 uint64_t max) const {
  Int(index);
  const ParamBinding& p = spec.params[index];
  const double d = std::strtod(p.text.c_str(), nullptr);
  if (!(d == std::floor(d)) || d < static_cast<double>(min) || d > static_cast<double>(max))
    throw InputError(p.loc, ParamField(index), p.text,
                     fmt::format("reference {} uses this parameter as {}", spec.reference, what),
                     fmt::format("an integer in {}..{}", min, max));
  return static_cast<uint64_t>(d);
}

void ReferenceContext::TooSmall(const BufferSpec& b, uint64_t needed,
                                const std::string& why) const {
  size_t index = 0;
  while (index < spec.buffers.size() && spec.buffers[index].name != b.name)
    ++index;
  const std::string need =
      needed == UINT64_MAX ? std::string("more than 2^64") : std::to_string(needed);
  throw InputError(b.loc, fmt::format("buffers[{}].count", index), std::to_string(b.count),
                   fmt::format("buffer '{}' holds {} elements but reference {} needs {}: {}",
                               b.name, b.count, spec.reference, need, why),
                   fmt::format("count >= {}, or scalars that need fewer elements", need));
}

template <typename T>
RefBuffer<T> ReferenceContext::Buffer(size_t index) const {
  if (index >= spec.params.size())
    throw InputError(
        spec.reference_loc, "params", std::to_string(spec.params.size()),
        fmt::format("reference {} needs at least {} parameters", spec.reference, index + 1));
  const ParamBinding& p = spec.params[index];
  if (!p.is_buffer)
    throw InputError(p.loc, ParamField(index), p.text,
                     fmt::format("reference {} reads this parameter as a buffer", spec.reference),
                     "a buffer name");
  const BufferSpec* b = spec.Buffer(p.buffer);
  if (b == nullptr)
    throw InputError(p.loc, ParamField(index), p.text, "no buffer of this name");
  const HostBuffers::Buf& hb = buffers_.Get(p.buffer);
  const bool is_float = std::is_floating_point_v<T>;
  if (static_cast<size_t>(ptx::TypeBits(hb.type) / 8) != sizeof(T) ||
      ptx::IsFloat(hb.type) != is_float)
    throw InputError(
        b->loc, p.buffer, ptx::TypeName(hb.type),
        fmt::format("reference {} reads buffer '{}' as {}-byte {} elements", spec.reference,
                    p.buffer, sizeof(T), is_float ? "float" : "integer"));
  return RefBuffer<T>(*this, *b, buffers_.As<T>(p.buffer));
}

template RefBuffer<float> ReferenceContext::Buffer<float>(size_t) const;
template RefBuffer<int32_t> ReferenceContext::Buffer<int32_t>(size_t) const;
template RefBuffer<uint32_t> ReferenceContext::Buffer<uint32_t>(size_t) const;
template RefBuffer<uint8_t> ReferenceContext::Buffer<uint8_t>(size_t) const;

namespace {

// "n = 4096 (params[3])"
std::string Why(const char* what, uint64_t v, size_t index) {
  return fmt::format("{} = {} (params[{}])", what, v, index);
}

// vectorAdd(a, b, c, n): c[i] = a[i] + b[i] for i < n.
void VectorAdd(ReferenceContext& c) {
  const uint64_t n = c.Count(3, "n");
  const std::string why = Why("n", n, 3);
  auto a = c.Buffer<float>(0);
  auto b = c.Buffer<float>(1);
  auto out = c.Buffer<float>(2);
  a.Need(n, why);
  b.Need(n, why);
  out.Need(n, why);
  for (uint64_t i = 0; i < n; ++i)
    out[i] = a[i] + b[i];
}

// matrixMul(a, b, c, n): C = A * B, n x n row-major.
void MatrixMul(ReferenceContext& c) {
  const uint64_t n = c.Count(3, "n");
  const std::string why = "n x n with " + Why("n", n, 3);
  auto a = c.Buffer<float>(0);
  auto b = c.Buffer<float>(1);
  auto out = c.Buffer<float>(2);
  for (const auto* buf : {&a, &b, &out})
    buf->Need(CountMul(n, n), why);
  for (uint64_t i = 0; i < n; ++i) {
    for (uint64_t j = 0; j < n; ++j) {
      double s = 0;
      for (uint64_t k = 0; k < n; ++k)
        s += static_cast<double>(a[i * n + k]) * b[k * n + j];
      out[i * n + j] = static_cast<float>(s);
    }
  }
}

// reduction(in, partial, n): partial[cta] = sum of in[cta*2*B .. cta*2*B + 2*B) within n,
// with B the CTA size.
void Reduction(ReferenceContext& c) {
  const uint64_t n = c.Count(2, "n");
  auto in = c.Buffer<int32_t>(0);
  auto partial = c.Buffer<int32_t>(1);
  const uint64_t per_cta = 2 * uint64_t{c.spec.block.x};
  const uint64_t ctas = c.spec.grid.x;
  in.Need(std::min(n, CountMul(ctas, per_cta)),
          fmt::format("min(n, grid.x x 2 x block.x) with {}, grid.x = {}, block.x = {}",
                      Why("n", n, 2), ctas, c.spec.block.x));
  partial.Need(ctas, fmt::format("one sum per CTA, grid.x = {}", ctas));
  for (uint64_t cta = 0; cta < ctas; ++cta) {
    uint32_t s = 0;  // two's-complement wrap, as the kernel's int adds
    for (uint64_t i = cta * per_cta; i < std::min(n, (cta + 1) * per_cta); ++i)
      s += static_cast<uint32_t>(in[i]);
    partial[cta] = static_cast<int32_t>(s);
  }
}

// scalarProd(out, a, b, vectors, len): out[v] = dot(a[v*len..], b[v*len..]).
void ScalarProd(ReferenceContext& c) {
  const uint64_t vectors = c.Count(3, "the number of vectors");
  const uint64_t len = c.Count(4, "the vector length");
  auto out = c.Buffer<float>(0);
  auto a = c.Buffer<float>(1);
  auto b = c.Buffer<float>(2);
  out.Need(vectors, Why("vectors", vectors, 3));
  const std::string why =
      fmt::format("vectors x len with {}, {}", Why("vectors", vectors, 3), Why("len", len, 4));
  a.Need(CountMul(vectors, len), why);
  b.Need(CountMul(vectors, len), why);
  for (uint64_t v = 0; v < vectors; ++v) {
    double s = 0;
    for (uint64_t i = 0; i < len; ++i)
      s += static_cast<double>(a[v * len + i]) * b[v * len + i];
    out[v] = static_cast<float>(s);
  }
}

// histogram(data, hist, n): hist[data[i] & 255] += 1 for i < n.
void Histogram(ReferenceContext& c) {
  const uint64_t n = c.Count(2, "n");
  auto data = c.Buffer<uint32_t>(0);
  auto hist = c.Buffer<uint32_t>(1);
  data.Need(n, Why("n", n, 2));
  hist.Need(256, "256 bins (data & 255)");
  for (uint64_t i = 0; i < n; ++i)
    ++hist[data[i] & 255];
}

// convolutionSeparable(out, in, filter, w, h): rows then columns with a 2R+1 tap filter
// (out = sum_k f[R-k] * rows(x, y+k), rows(x, y) = sum_j f[R-j] * in(x+j, y)), zero outside.
void ConvolutionSeparable(ReferenceContext& c) {
  const auto w = static_cast<int64_t>(c.Count(3, "the width", 0, 1u << 30));
  const auto h = static_cast<int64_t>(c.Count(4, "the height", 0, 1u << 30));
  auto out = c.Buffer<float>(0);
  auto in = c.Buffer<float>(1);
  auto f = c.Buffer<float>(2);
  const std::string why =
      fmt::format("width x height with {}, {}", Why("width", static_cast<uint64_t>(w), 3),
                  Why("height", static_cast<uint64_t>(h), 4));
  const auto pixels = CountMul(static_cast<uint64_t>(w), static_cast<uint64_t>(h));
  out.Need(pixels, why);
  in.Need(pixels, why);
  const auto r = static_cast<int64_t>(f.size() / 2);
  f.Need(static_cast<uint64_t>(2 * r + 1),
         fmt::format("an odd number of taps, 2R+1 with R = {} (half the filter's count)", r));
  auto at = [&](int64_t x, int64_t y) -> double {
    return (x >= 0 && x < w && y >= 0 && y < h) ? in[static_cast<uint64_t>(y * w + x)] : 0.0;
  };
  auto rows = [&](int64_t x, int64_t y) {
    double s = 0;
    for (int64_t k = -r; k <= r; ++k)
      s += f[static_cast<uint64_t>(r - k)] * at(x + k, y);
    return s;
  };
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t x = 0; x < w; ++x) {
      double s = 0;
      for (int64_t k = -r; k <= r; ++k)
        s += f[static_cast<uint64_t>(r - k)] * rows(x, y + k);
      out[static_cast<uint64_t>(y * w + x)] = static_cast<float>(s);
    }
  }
}

// transpose(out, in, w, h): out[x][y] = in[y][x], in is h x w.
void Transpose(ReferenceContext& c) {
  const uint64_t w = c.Count(2, "the width");
  const uint64_t h = c.Count(3, "the height");
  auto out = c.Buffer<float>(0);
  auto in = c.Buffer<float>(1);
  const std::string why =
      fmt::format("width x height with {}, {}", Why("width", w, 2), Why("height", h, 3));
  out.Need(CountMul(w, h), why);
  in.Need(CountMul(w, h), why);
  for (uint64_t y = 0; y < h; ++y) {
    for (uint64_t x = 0; x < w; ++x)
      out[x * h + y] = in[y * w + x];
  }
}

// blackScholes(call, put, price, strike, years, r, v, n): Black-Scholes European option
// prices with the Abramowitz-Stegun polynomial approximation of the normal CDF.
double Cnd(double d) {
  const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978,
               a5 = 1.330274429, rsqrt2pi = 0.39894228040143267794;
  const double k = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  double cnd =
      rsqrt2pi * std::exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  if (d > 0)
    cnd = 1.0 - cnd;
  return cnd;
}

void BlackScholes(ReferenceContext& c) {
  const double r = c.Float(5), v = c.Float(6);
  const uint64_t n = c.Count(7, "n");
  const std::string why = Why("n", n, 7);
  auto call = c.Buffer<float>(0);
  auto put = c.Buffer<float>(1);
  auto price = c.Buffer<float>(2);
  auto strike = c.Buffer<float>(3);
  auto years = c.Buffer<float>(4);
  for (const auto* buf : {&call, &put, &price, &strike, &years})
    buf->Need(n, why);
  for (uint64_t i = 0; i < n; ++i) {
    const double s = price[i], x = strike[i], t = years[i];
    const double sqrt_t = std::sqrt(t);
    const double d1 = (std::log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t);
    const double d2 = d1 - v * sqrt_t;
    const double cnd1 = Cnd(d1), cnd2 = Cnd(d2);
    const double e = std::exp(-r * t);
    call[i] = static_cast<float>(s * cnd1 - x * e * cnd2);
    put[i] = static_cast<float>(x * e * (1.0 - cnd2) - s * (1.0 - cnd1));
  }
}

// hotspot(out, temp, power, w, h, cap, rx, ry, rz, amb): one explicit step of
// T' = T + (P + (E + W - 2T) rx + (N + S - 2T) ry + (amb - T) rz) / cap, edges replicated.
void Hotspot(ReferenceContext& c) {
  const auto w = static_cast<int64_t>(c.Count(3, "the width", 1, 1u << 30));
  const auto h = static_cast<int64_t>(c.Count(4, "the height", 1, 1u << 30));
  const double cap = c.Float(5), rx = c.Float(6), ry = c.Float(7), rz = c.Float(8),
               amb = c.Float(9);
  auto out = c.Buffer<float>(0);
  auto temp = c.Buffer<float>(1);
  auto power = c.Buffer<float>(2);
  const std::string why =
      fmt::format("width x height with {}, {}", Why("width", static_cast<uint64_t>(w), 3),
                  Why("height", static_cast<uint64_t>(h), 4));
  for (const auto* buf : {&out, &temp, &power})
    buf->Need(CountMul(static_cast<uint64_t>(w), static_cast<uint64_t>(h)), why);
  auto t = [&](int64_t x, int64_t y) -> double {
    x = std::clamp<int64_t>(x, 0, w - 1);
    y = std::clamp<int64_t>(y, 0, h - 1);
    return temp[static_cast<uint64_t>(y * w + x)];
  };
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t x = 0; x < w; ++x) {
      const double ct = t(x, y);
      const double delta =
          (power[static_cast<uint64_t>(y * w + x)] + (t(x + 1, y) + t(x - 1, y) - 2 * ct) * rx +
           (t(x, y + 1) + t(x, y - 1) - 2 * ct) * ry + (amb - ct) * rz) /
          cap;
      out[static_cast<uint64_t>(y * w + x)] = static_cast<float>(ct + delta);
    }
  }
}

// bfs(cost, row_offsets, cols, nodes, source): breadth-first distances from source, -1 for
// unreachable nodes. Edge targets come from the data: cols[e] is checked against cost on use.
void Bfs(ReferenceContext& c) {
  const uint64_t nodes = c.Count(3, "the number of nodes", 1);
  const uint64_t source = c.Count(4, "the source node", 0, nodes - 1);
  auto cost = c.Buffer<int32_t>(0);
  auto rows = c.Buffer<uint32_t>(1);
  auto cols = c.Buffer<uint32_t>(2);
  cost.Need(nodes, Why("nodes", nodes, 3));
  rows.Need(nodes + 1, "nodes + 1 row offsets with " + Why("nodes", nodes, 3));
  cols.Need(rows[nodes], fmt::format("row_offsets[{}] = {} edges", nodes, rows[nodes]));
  for (uint64_t i = 0; i < nodes; ++i)
    cost[i] = -1;
  std::queue<uint64_t> q;
  cost[source] = 0;
  q.push(source);
  while (!q.empty()) {
    const uint64_t u = q.front();
    q.pop();
    for (uint64_t e = rows[u]; e < rows[u + 1]; ++e) {
      const uint32_t v = cols[e];
      if (v >= nodes)
        cost.Need(uint64_t{v} + 1, fmt::format("edge target cols[{}] = {}", e, v));
      if (cost[v] < 0) {
        cost[v] = cost[u] + 1;
        q.push(v);
      }
    }
  }
}

// nbody(acc, pos, n, eps2): acc_i = sum_j m_j d_ij / (|d_ij|^2 + eps2)^(3/2), pos = (x, y, z, m).
void Nbody(ReferenceContext& c) {
  const uint64_t n = c.Count(2, "the number of bodies");
  const double eps2 = c.Float(3);
  auto acc = c.Buffer<float>(0);
  auto pos = c.Buffer<float>(1);
  acc.Need(CountMul(3, n), "3 x n (x, y, z) with " + Why("n", n, 2));
  pos.Need(CountMul(4, n), "4 x n (x, y, z, mass) with " + Why("n", n, 2));
  for (uint64_t i = 0; i < n; ++i) {
    double a[3] = {0, 0, 0};
    for (uint64_t j = 0; j < n; ++j) {
      double d[3];
      double d2 = eps2;
      for (uint64_t k = 0; k < 3; ++k) {
        d[k] = static_cast<double>(pos[4 * j + k]) - pos[4 * i + k];
        d2 += d[k] * d[k];
      }
      const double inv = 1.0 / std::sqrt(d2);
      const double s = pos[4 * j + 3] * inv * inv * inv;
      for (uint64_t k = 0; k < 3; ++k)
        a[k] += d[k] * s;
    }
    for (uint64_t k = 0; k < 3; ++k)
      acc[3 * i + k] = static_cast<float>(a[k]);
  }
}

// bitonicSort(keys): each CTA's 2 * blockDim.x consecutive keys sorted ascending.
void BitonicSort(ReferenceContext& c) {
  auto keys = c.Buffer<uint32_t>(0);
  const uint64_t chunk = 2 * uint64_t{c.spec.block.x};
  const uint64_t ctas = c.spec.grid.x;
  const std::string why =
      fmt::format("grid.x x 2 x block.x with grid.x = {}, block.x = {}", ctas, c.spec.block.x);
  keys.Need(CountMul(ctas, chunk), why);
  for (uint64_t cta = 0; cta < ctas; ++cta) {
    const std::span<uint32_t> s = keys.Slice(cta * chunk, chunk, why);
    std::sort(s.begin(), s.end());
  }
}

// ---------------------------------------------------------------- issue 14: the grown corpus

uint64_t U(int64_t v) {
  return static_cast<uint64_t>(v);
}

// sgemm(c, a, b, m, n, k): C = A * B, A m x k, B k x n, row-major.
void Sgemm(ReferenceContext& c) {
  const uint64_t m = c.Count(3, "m"), n = c.Count(4, "n"), k = c.Count(5, "k");
  auto out = c.Buffer<float>(0);
  auto a = c.Buffer<float>(1);
  auto b = c.Buffer<float>(2);
  out.Need(CountMul(m, n), "m x n with " + Why("m", m, 3) + ", " + Why("n", n, 4));
  a.Need(CountMul(m, k), "m x k with " + Why("m", m, 3) + ", " + Why("k", k, 5));
  b.Need(CountMul(k, n), "k x n with " + Why("k", k, 5) + ", " + Why("n", n, 4));
  for (uint64_t i = 0; i < m; ++i) {
    for (uint64_t j = 0; j < n; ++j) {
      double s = 0;
      for (uint64_t q = 0; q < k; ++q)
        s += static_cast<double>(a[i * k + q]) * b[q * n + j];
      out[i * n + j] = static_cast<float>(s);
    }
  }
}

// kmeans(membership, sums, counts, feat, centroids, n, k): nearest centroid (squared distance
// over 12 features, first minimum) of each point, then per-cluster feature sums and counts.
// feat is feature-major (feat[f * n + i]).
void Kmeans(ReferenceContext& c) {
  constexpr uint64_t kF = 12;
  const uint64_t n = c.Count(5, "the number of points");
  const uint64_t k = c.Count(6, "the number of clusters", 1);
  auto member = c.Buffer<int32_t>(0);
  auto sums = c.Buffer<float>(1);
  auto counts = c.Buffer<uint32_t>(2);
  auto feat = c.Buffer<float>(3);
  auto cent = c.Buffer<float>(4);
  member.Need(n, Why("n", n, 5));
  feat.Need(CountMul(kF, n), "12 features x n with " + Why("n", n, 5));
  cent.Need(CountMul(k, kF), "k x 12 features with " + Why("k", k, 6));
  sums.Need(CountMul(k, kF), "k x 12 features with " + Why("k", k, 6));
  counts.Need(k, Why("k", k, 6));
  std::vector<double> acc(k * kF, 0.0);
  std::vector<uint32_t> cnt(k, 0);
  for (uint64_t i = 0; i < n; ++i) {
    double best = 0;
    uint64_t bi = 0;
    for (uint64_t q = 0; q < k; ++q) {
      double d = 0;
      for (uint64_t f = 0; f < kF; ++f) {
        const double diff = static_cast<double>(feat[f * n + i]) - cent[q * kF + f];
        d += diff * diff;
      }
      if (q == 0 || d < best) {
        best = d;
        bi = q;
      }
    }
    member[i] = static_cast<int32_t>(bi);
    ++cnt[bi];
    for (uint64_t f = 0; f < kF; ++f)
      acc[bi * kF + f] += feat[f * n + i];
  }
  for (uint64_t q = 0; q < k; ++q) {
    counts[q] += cnt[q];
    for (uint64_t f = 0; f < kF; ++f)
      sums[q * kF + f] = static_cast<float>(sums[q * kF + f] + acc[q * kF + f]);
  }
}

// The monteCarlo kernel's counter-based generator: a murmur3 finalizer of the path number.
uint32_t Mix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

// monteCarlo(price, s0, strike, years, r, v): per option (one per CTA), the discounted mean
// call payoff over blockDim.x x 10 paths; path pair g < 5 of thread t of CTA o uses
// h = mix(id + 0x9e3779b9), id = (o B + t) 5 + g, u1 = u(h), u2 = u((h ^ (h >> 15)) 0x2c1b3c6d),
// u(h) = (2 (h >> 9) + 1) / 2^24, and the Box-Muller normals r cos(2 pi u2), r sin(2 pi u2).
void MonteCarlo(ReferenceContext& c) {
  const double r = c.Float(4), v = c.Float(5);
  auto price = c.Buffer<float>(0);
  auto s0 = c.Buffer<float>(1);
  auto strike = c.Buffer<float>(2);
  auto years = c.Buffer<float>(3);
  const uint64_t options = c.spec.grid.x, threads = c.spec.block.x;
  const std::string why = fmt::format("one option per CTA, grid.x = {}", options);
  for (const auto* buf : {&price, &s0, &strike, &years})
    buf->Need(options, why);
  auto u = [](uint32_t h) { return ((h >> 9) * 2.0 + 1.0) / 16777216.0; };
  for (uint64_t o = 0; o < options; ++o) {
    const double s = s0[o], kx = strike[o], t = years[o];
    const double drift = (r - 0.5 * v * v) * t, vol = v * std::sqrt(t);
    double sum = 0;
    for (uint64_t th = 0; th < threads; ++th) {
      for (uint32_t g = 0; g < 5; ++g) {
        const auto id = static_cast<uint32_t>((o * threads + th) * 5 + g);
        const uint32_t h = Mix32(id + 0x9e3779b9u);
        const double u1 = u(h);
        const double u2 = u((h ^ (h >> 15)) * 0x2c1b3c6du);
        const double rad = std::sqrt(-2.0 * std::log(u1));
        const double ang = 2.0 * M_PI * u2;
        for (const double z : {rad * std::cos(ang), rad * std::sin(ang)})
          sum += std::max(s * std::exp(drift + vol * z) - kx, 0.0);
      }
    }
    price[o] = static_cast<float>(std::exp(-r * t) * sum / static_cast<double>(threads * 10));
  }
}

// srad(out, j, rows, cols, q0sqr, lambda): one SRAD iteration (edges replicated).
void Srad(ReferenceContext& c) {
  const auto rows = static_cast<int64_t>(c.Count(2, "the number of rows", 1, 1u << 30));
  const auto cols = static_cast<int64_t>(c.Count(3, "the number of columns", 1, 1u << 30));
  const double q0 = c.Float(4), lambda = c.Float(5);
  auto out = c.Buffer<float>(0);
  auto j = c.Buffer<float>(1);
  const std::string why =
      fmt::format("rows x cols with {}, {}", Why("rows", U(rows), 2), Why("cols", U(cols), 3));
  out.Need(CountMul(U(rows), U(cols)), why);
  j.Need(CountMul(U(rows), U(cols)), why);
  auto at = [&](int64_t y, int64_t x) -> double {
    return j[U(std::clamp<int64_t>(y, 0, rows - 1) * cols + std::clamp<int64_t>(x, 0, cols - 1))];
  };
  auto coef = [&](int64_t y, int64_t x) {
    const double jc = at(y, x);
    const double dn = at(y - 1, x) - jc, ds = at(y + 1, x) - jc, dw = at(y, x - 1) - jc,
                 de = at(y, x + 1) - jc;
    const double g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
    const double l = (dn + ds + dw + de) / jc;
    const double num = 0.5 * g2 - l * l / 16.0, den = 1.0 + 0.25 * l;
    const double q = num / (den * den);
    return std::clamp(1.0 / (1.0 + (q - q0) / (q0 * (1.0 + q0))), 0.0, 1.0);
  };
  for (int64_t y = 0; y < rows; ++y) {
    for (int64_t x = 0; x < cols; ++x) {
      const double jc = at(y, x);
      const double d = coef(y, x) * (at(y - 1, x) - jc + at(y, x - 1) - jc) +
                       coef(std::min(y + 1, rows - 1), x) * (at(y + 1, x) - jc) +
                       coef(y, std::min(x + 1, cols - 1)) * (at(y, x + 1) - jc);
      out[U(y * cols + x)] = static_cast<float>(jc + 0.25 * lambda * d);
    }
  }
}

// stencil2d(out, in, h, seg, c0, c1, c2): radius-2 cross stencil on a 512-wide image of h rows,
// zero outside.
void Stencil2d(ReferenceContext& c) {
  constexpr int64_t kW = 512;
  const auto h = static_cast<int64_t>(c.Count(2, "the height", 0, 1u << 20));
  const double c0 = c.Float(4), c1 = c.Float(5), c2 = c.Float(6);
  auto out = c.Buffer<float>(0);
  auto in = c.Buffer<float>(1);
  const std::string why = "512 x height with " + Why("height", U(h), 2);
  out.Need(CountMul(kW, U(h)), why);
  in.Need(CountMul(kW, U(h)), why);
  auto at = [&](int64_t y, int64_t x) -> double {
    return (x >= 0 && x < kW && y >= 0 && y < h) ? in[U(y * kW + x)] : 0.0;
  };
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t x = 0; x < kW; ++x) {
      const double s1 = at(y - 1, x) + at(y + 1, x) + at(y, x - 1) + at(y, x + 1);
      const double s2 = at(y - 2, x) + at(y + 2, x) + at(y, x - 2) + at(y, x + 2);
      out[U(y * kW + x)] = static_cast<float>(c0 * at(y, x) + c1 * s1 + c2 * s2);
    }
  }
}

// spmv(y, row_offsets, cols, vals, x, rows): y = A x, A in CSR. Column indices come from the
// data and are checked against x on use.
void Spmv(ReferenceContext& c) {
  const uint64_t rows = c.Count(5, "the number of rows");
  auto y = c.Buffer<float>(0);
  auto offsets = c.Buffer<uint32_t>(1);
  auto cols = c.Buffer<uint32_t>(2);
  auto vals = c.Buffer<float>(3);
  auto x = c.Buffer<float>(4);
  y.Need(rows, Why("rows", rows, 5));
  offsets.Need(rows + 1, "rows + 1 row offsets with " + Why("rows", rows, 5));
  const std::string nnz = fmt::format("row_offsets[{}] = {} nonzeros", rows, offsets[rows]);
  cols.Need(offsets[rows], nnz);
  vals.Need(offsets[rows], nnz);
  for (uint64_t i = 0; i < rows; ++i) {
    double s = 0;
    for (uint64_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      if (cols[e] >= x.size())
        x.Need(uint64_t{cols[e]} + 1, fmt::format("column index cols[{}] = {}", e, cols[e]));
      s += static_cast<double>(vals[e]) * x[cols[e]];
    }
    y[i] = static_cast<float>(s);
  }
}

// particleFilter(w_out, w_in, px, py, image, n, scale): w_out = w_in exp(scale x sum over the
// 13 radius-2 disk samples around (floor px, floor py), clamped to the 128 x 64 image, of
// (I - 100)^2 - (I - 228)^2).
void ParticleFilter(ReferenceContext& c) {
  constexpr int64_t kW = 128, kH = 64;
  const uint64_t n = c.Count(5, "the number of particles");
  const double scale = c.Float(6);
  auto wout = c.Buffer<float>(0);
  auto win = c.Buffer<float>(1);
  auto px = c.Buffer<float>(2);
  auto py = c.Buffer<float>(3);
  auto image = c.Buffer<float>(4);
  for (const auto* buf : {&wout, &win, &px, &py})
    buf->Need(n, Why("n", n, 5));
  image.Need(kW * kH, "a 128 x 64 image");
  for (uint64_t i = 0; i < n; ++i) {
    const auto cx = static_cast<int64_t>(std::floor(px[i]));
    const auto cy = static_cast<int64_t>(std::floor(py[i]));
    double l = 0;
    for (int64_t dy = -2; dy <= 2; ++dy) {
      for (int64_t dx = -2; dx <= 2; ++dx) {
        if (dx * dx + dy * dy > 4)
          continue;
        const int64_t sx = std::clamp<int64_t>(cx + dx, 0, kW - 1);
        const int64_t sy = std::clamp<int64_t>(cy + dy, 0, kH - 1);
        const double v = image[U(sy * kW + sx)];
        l += (v - 100) * (v - 100) - (v - 228) * (v - 228);
      }
    }
    wout[i] = static_cast<float>(win[i] * std::exp(l * scale));
  }
}

// nw(score, seq_a, seq_b, sub, penalty): for every pair (one per CTA) of 32-residue sequences,
// the 33 x 33 Needleman-Wunsch matrix with linear gap penalty and the 24 x 24 table sub.
void Nw(ReferenceContext& c) {
  constexpr uint64_t kL = 32, kM = kL + 1;
  const int64_t pen = c.Int(4);
  auto score = c.Buffer<int32_t>(0);
  auto sa = c.Buffer<int32_t>(1);
  auto sb = c.Buffer<int32_t>(2);
  auto sub = c.Buffer<int32_t>(3);
  const uint64_t pairs = c.spec.grid.x;
  const std::string why = fmt::format("one pair per CTA, grid.x = {}", pairs);
  score.Need(CountMul(pairs, kM * kM), "33 x 33 scores per pair, " + why);
  sa.Need(CountMul(pairs, kL), "32 residues per pair, " + why);
  sb.Need(CountMul(pairs, kL), "32 residues per pair, " + why);
  sub.Need(24 * 24, "a 24 x 24 substitution table");
  auto residue = [&](const RefBuffer<int32_t>& s, uint64_t i) {
    const int32_t r = s[i];
    if (r < 0 || r >= 24)
      sub.Need(UINT64_MAX, fmt::format("residue {}[{}] = {} (must be in 0..23)", s.name(), i, r));
    return static_cast<uint64_t>(r);
  };
  std::vector<int64_t> h(kM * kM);
  for (uint64_t p = 0; p < pairs; ++p) {
    for (uint64_t i = 0; i < kM; ++i) {
      h[i * kM] = -static_cast<int64_t>(i) * pen;
      h[i] = -static_cast<int64_t>(i) * pen;
    }
    for (uint64_t i = 1; i < kM; ++i) {
      for (uint64_t j = 1; j < kM; ++j) {
        const int64_t s = sub[residue(sa, p * kL + i - 1) * 24 + residue(sb, p * kL + j - 1)];
        h[i * kM + j] = std::max(
            {h[(i - 1) * kM + j - 1] + s, h[(i - 1) * kM + j] - pen, h[i * kM + j - 1] - pen});
      }
    }
    for (uint64_t e = 0; e < kM * kM; ++e)
      score[p * kM * kM + e] = static_cast<int32_t>(h[e]);
  }
}

// pathfinder(dst, src, wall, cols): 16 rows of cost(r, x) = wall(r, x) + min of cost(r-1, .)
// at x-1, x, x+1 inside the grid; dst gets the last row at the columns the CTAs write (the
// middle 96 of each CTA's 128: columns 96 b .. 96 b + 95 for CTA b).
void Pathfinder(ReferenceContext& c) {
  constexpr uint64_t kRows = 16;
  const uint64_t cols = c.Count(3, "the number of columns", 1);
  auto dst = c.Buffer<int32_t>(0);
  auto src = c.Buffer<int32_t>(1);
  auto wall = c.Buffer<int32_t>(2);
  dst.Need(cols, Why("cols", cols, 3));
  src.Need(cols, Why("cols", cols, 3));
  wall.Need(CountMul(kRows, cols), "16 rows x cols with " + Why("cols", cols, 3));
  std::vector<int64_t> cur(cols), next(cols);
  for (uint64_t x = 0; x < cols; ++x)
    cur[x] = src[x];
  for (uint64_t r = 0; r < kRows; ++r) {
    for (uint64_t x = 0; x < cols; ++x) {
      int64_t m = cur[x];
      if (x > 0)
        m = std::min(m, cur[x - 1]);
      if (x + 1 < cols)
        m = std::min(m, cur[x + 1]);
      next[x] = wall[r * cols + x] + m;
    }
    std::swap(cur, next);
  }
  const uint64_t written = std::min<uint64_t>(cols, uint64_t{c.spec.grid.x} * 96);
  for (uint64_t x = 0; x < written; ++x)
    dst[x] = static_cast<int32_t>(cur[x]);
}

// backprop(hidden, in, w, nhid): hidden(s, h) = 1 / (1 + exp(-sum_i in(s, i) w(i, h))) with
// 256 inputs, w input-major; samples = grid.x, hidden units = 16 x grid.y.
void Backprop(ReferenceContext& c) {
  constexpr uint64_t kIn = 256;
  const uint64_t nhid = c.Count(3, "the number of hidden units");
  auto hidden = c.Buffer<float>(0);
  auto in = c.Buffer<float>(1);
  auto w = c.Buffer<float>(2);
  const uint64_t samples = c.spec.grid.x, units = 16 * uint64_t{c.spec.grid.y};
  hidden.Need(CountMul(samples, nhid),
              fmt::format("grid.x = {} samples x {}", samples, Why("nhid", nhid, 3)));
  in.Need(CountMul(samples, kIn), fmt::format("grid.x = {} samples x 256 inputs", samples));
  w.Need(CountMul(kIn, nhid), "256 inputs x " + Why("nhid", nhid, 3));
  for (uint64_t s = 0; s < samples; ++s) {
    for (uint64_t h = 0; h < std::min(units, nhid); ++h) {
      double a = 0;
      for (uint64_t i = 0; i < kIn; ++i)
        a += static_cast<double>(in[s * kIn + i]) * w[i * nhid + h];
      hidden[s * nhid + h] = static_cast<float>(1.0 / (1.0 + std::exp(-a)));
    }
  }
}

// subHistogram(hist, keys, n): hist[keys[i] >> 22] += 1 for i < n (1024 bins).
void SubHistogram(ReferenceContext& c) {
  const uint64_t n = c.Count(2, "n");
  auto hist = c.Buffer<uint32_t>(0);
  auto keys = c.Buffer<uint32_t>(1);
  keys.Need(n, Why("n", n, 2));
  hist.Need(1024, "1024 bins (keys >> 22)");
  for (uint64_t i = 0; i < n; ++i)
    ++hist[keys[i] >> 22];
}

// lud(out, in, shift): packed LU factors (unit-lower L, U) without pivoting of each 16 x 16
// matrix in + shift I, two per CTA.
void Lud(ReferenceContext& c) {
  constexpr uint64_t kN = 16;
  const double shift = c.Float(2);
  auto out = c.Buffer<float>(0);
  auto in = c.Buffer<float>(1);
  const uint64_t mats = 2 * uint64_t{c.spec.grid.x};
  const std::string why = fmt::format("two 16 x 16 matrices per CTA, grid.x = {}", c.spec.grid.x);
  out.Need(CountMul(mats, kN * kN), why);
  in.Need(CountMul(mats, kN * kN), why);
  std::vector<double> a(kN * kN);
  for (uint64_t b = 0; b < mats; ++b) {
    for (uint64_t i = 0; i < kN; ++i)
      for (uint64_t j = 0; j < kN; ++j)
        a[i * kN + j] = in[b * kN * kN + i * kN + j] + (i == j ? shift : 0.0);
    for (uint64_t k = 0; k + 1 < kN; ++k) {
      for (uint64_t i = k + 1; i < kN; ++i) {
        a[i * kN + k] /= a[k * kN + k];
        for (uint64_t j = k + 1; j < kN; ++j)
          a[i * kN + j] -= a[i * kN + k] * a[k * kN + j];
      }
    }
    for (uint64_t e = 0; e < kN * kN; ++e)
      out[b * kN * kN + e] = static_cast<float>(a[e]);
  }
}

// stencil3d(out, in, nx, ny, nz, c0, c1): out = c0 in + c1 (sum of the 6 neighbours) on the
// interior of the nx x ny x nz grid (x fastest); the boundary of out keeps its contents.
void Stencil3d(ReferenceContext& c) {
  const uint64_t nx = c.Count(2, "nx", 1), ny = c.Count(3, "ny", 1), nz = c.Count(4, "nz", 1);
  const double c0 = c.Float(5), c1 = c.Float(6);
  auto out = c.Buffer<float>(0);
  auto in = c.Buffer<float>(1);
  const uint64_t cells = CountMul(CountMul(nx, ny), nz);
  const std::string why = fmt::format("nx x ny x nz with {}, {}, {}", Why("nx", nx, 2),
                                      Why("ny", ny, 3), Why("nz", nz, 4));
  out.Need(cells, why);
  in.Need(cells, why);
  const uint64_t plane = nx * ny;
  for (uint64_t z = 1; z + 1 < nz; ++z) {
    for (uint64_t y = 1; y + 1 < ny; ++y) {
      for (uint64_t x = 1; x + 1 < nx; ++x) {
        const uint64_t i = z * plane + y * nx + x;
        const double s = static_cast<double>(in[i - 1]) + in[i + 1] + in[i - nx] + in[i + nx] +
                         in[i - plane] + in[i + plane];
        out[i] = static_cast<float>(c0 * in[i] + c1 * s);
      }
    }
  }
}

// mriQ(qr, qi, x, y, z, ks, n): Qr + i Qi = sum_k phi_k exp(i 2 pi (k . v)) over the 8
// samples ks = (kx, ky, kz, phi) of the chunk.
void MriQ(ReferenceContext& c) {
  constexpr uint64_t kChunk = 8;
  const uint64_t n = c.Count(6, "the number of voxels");
  auto qr = c.Buffer<float>(0);
  auto qi = c.Buffer<float>(1);
  auto x = c.Buffer<float>(2);
  auto y = c.Buffer<float>(3);
  auto z = c.Buffer<float>(4);
  auto ks = c.Buffer<float>(5);
  for (const auto* buf : {&qr, &qi, &x, &y, &z})
    buf->Need(n, Why("n", n, 6));
  ks.Need(4 * kChunk, "8 samples of (kx, ky, kz, phi)");
  for (uint64_t v = 0; v < n; ++v) {
    double re = 0, im = 0;
    for (uint64_t s = 0; s < kChunk; ++s) {
      const double arg =
          2 * M_PI *
          (static_cast<double>(ks[4 * s]) * x[v] + static_cast<double>(ks[4 * s + 1]) * y[v] +
           static_cast<double>(ks[4 * s + 2]) * z[v]);
      re += ks[4 * s + 3] * std::cos(arg);
      im += ks[4 * s + 3] * std::sin(arg);
    }
    qr[v] = static_cast<float>(re);
    qi[v] = static_cast<float>(im);
  }
}

// warpReduce(rowSum, rowMax, m, cols): the sum and the maximum of each of the grid.x x grid.y
// rows of the row-major matrix m (one CTA per row).
void WarpReduce(ReferenceContext& c) {
  const uint64_t cols = c.Count(3, "the number of columns", 1);
  auto sum = c.Buffer<float>(0);
  auto mx = c.Buffer<float>(1);
  auto m = c.Buffer<float>(2);
  const uint64_t rows = uint64_t{c.spec.grid.x} * c.spec.grid.y;
  const std::string why = fmt::format("one row per CTA, grid.x x grid.y = {}", rows);
  sum.Need(rows, why);
  mx.Need(rows, why);
  m.Need(CountMul(rows, cols), why + " rows x " + Why("cols", cols, 3));
  for (uint64_t r = 0; r < rows; ++r) {
    double s = 0;
    float best = m[r * cols];
    for (uint64_t j = 0; j < cols; ++j) {
      const float v = m[r * cols + j];
      s += v;
      best = std::max(best, v);
    }
    sum[r] = static_cast<float>(s);
    mx[r] = best;
  }
}

// warpScan(out, in, len): out = the inclusive prefix sums of each of the grid.x x grid.y
// segments of len elements of in (one CTA per segment), with 32-bit wrap-around.
void WarpScan(ReferenceContext& c) {
  const uint64_t len = c.Count(2, "the segment length");
  auto out = c.Buffer<int32_t>(0);
  auto in = c.Buffer<int32_t>(1);
  const uint64_t segs = uint64_t{c.spec.grid.x} * c.spec.grid.y;
  const std::string why = fmt::format("one segment per CTA, grid.x x grid.y = {} segments x {}",
                                      segs, Why("len", len, 2));
  out.Need(CountMul(segs, len), why);
  in.Need(CountMul(segs, len), why);
  for (uint64_t g = 0; g < segs; ++g) {
    uint32_t run = 0;
    for (uint64_t i = 0; i < len; ++i) {
      run += static_cast<uint32_t>(in[g * len + i]);
      out[g * len + i] = static_cast<int32_t>(run);
    }
  }
}

// warpHistogram(hist, img, width, height): hist[img(y, x) >> 4] += 1 over the width x height
// 8-bit image (row pitch = width), 16 bins.
void WarpHistogram(ReferenceContext& c) {
  const uint64_t width = c.Count(2, "the image width"), height = c.Count(3, "the image height");
  auto hist = c.Buffer<uint32_t>(0);
  auto img = c.Buffer<uint8_t>(1);
  hist.Need(16, "16 bins (pixel >> 4)");
  img.Need(CountMul(width, height), fmt::format("width x height with {}, {}",
                                                Why("width", width, 2), Why("height", height, 3)));
  for (uint64_t i = 0; i < width * height; ++i)
    ++hist[img[i] >> 4];
}

const std::map<std::string, ReferenceFn>& Registry() {
  static const std::map<std::string, ReferenceFn> r = {
      {"vectorAdd", VectorAdd},
      {"matrixMul", MatrixMul},
      {"reduction", Reduction},
      {"scalarProd", ScalarProd},
      {"histogram", Histogram},
      {"convolutionSeparable", ConvolutionSeparable},
      {"transpose", Transpose},
      {"blackScholes", BlackScholes},
      {"hotspot", Hotspot},
      {"bfs", Bfs},
      {"nbody", Nbody},
      {"bitonicSort", BitonicSort},
      // issue 14
      {"sgemm", Sgemm},
      {"kmeans", Kmeans},
      {"monteCarlo", MonteCarlo},
      {"srad", Srad},
      {"stencil2d", Stencil2d},
      {"spmv", Spmv},
      {"particleFilter", ParticleFilter},
      {"nw", Nw},
      {"pathfinder", Pathfinder},
      {"backprop", Backprop},
      {"subHistogram", SubHistogram},
      {"lud", Lud},
      {"stencil3d", Stencil3d},
      {"mriQ", MriQ},
      // warp-level instructions
      {"warpReduce", WarpReduce},
      {"warpScan", WarpScan},
      {"warpHistogram", WarpHistogram},
  };
  return r;
}

}  // namespace

ReferenceFn FindReference(const std::string& name) {
  auto it = Registry().find(name);
  return it == Registry().end() ? nullptr : it->second;
}

std::vector<std::string> ReferenceNames() {
  std::vector<std::string> n;
  for (const auto& [k, v] : Registry())
    n.push_back(k);
  return n;
}

}  // namespace gpurf::sim
