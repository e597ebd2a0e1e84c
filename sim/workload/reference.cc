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

const std::map<std::string, ReferenceFn>& Registry() {
  static const std::map<std::string, ReferenceFn> r = {
      {"vectorAdd", VectorAdd}, {"matrixMul", MatrixMul},
      {"reduction", Reduction}, {"scalarProd", ScalarProd},
      {"histogram", Histogram}, {"convolutionSeparable", ConvolutionSeparable},
      {"transpose", Transpose}, {"blackScholes", BlackScholes},
      {"hotspot", Hotspot},     {"bfs", Bfs},
      {"nbody", Nbody},         {"bitonicSort", BitonicSort},
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
