#include "sim/workload/reference.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <queue>

namespace gpurf::sim {

int64_t ReferenceContext::Int(size_t index) const {
  const ParamBinding& p = spec.params.at(index);
  if (p.is_buffer)
    throw std::logic_error(
        fmt::format("reference {}: params[{}] is a buffer, not a scalar", spec.reference, index));
  return std::strtoll(p.text.c_str(), nullptr, 0);
}

double ReferenceContext::Float(size_t index) const {
  const ParamBinding& p = spec.params.at(index);
  if (p.is_buffer)
    throw std::logic_error(
        fmt::format("reference {}: params[{}] is a buffer, not a scalar", spec.reference, index));
  return std::strtod(p.text.c_str(), nullptr);
}

namespace {

// Buffer bound to parameter `index`.
const std::string& Buf(const ReferenceContext& c, size_t index) {
  const ParamBinding& p = c.spec.params.at(index);
  if (!p.is_buffer)
    throw std::logic_error(
        fmt::format("reference {}: params[{}] is not a buffer", c.spec.reference, index));
  return p.buffer;
}

// vectorAdd(a, b, c, n): c[i] = a[i] + b[i] for i < n.
void VectorAdd(ReferenceContext& c) {
  auto a = c.buffers.As<float>(Buf(c, 0));
  auto b = c.buffers.As<float>(Buf(c, 1));
  auto out = c.buffers.As<float>(Buf(c, 2));
  const auto n = static_cast<size_t>(c.Int(3));
  for (size_t i = 0; i < n; ++i)
    out[i] = a[i] + b[i];
}

// matrixMul(a, b, c, n): C = A * B, n x n row-major.
void MatrixMul(ReferenceContext& c) {
  auto a = c.buffers.As<float>(Buf(c, 0));
  auto b = c.buffers.As<float>(Buf(c, 1));
  auto out = c.buffers.As<float>(Buf(c, 2));
  const auto n = static_cast<size_t>(c.Int(3));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      double s = 0;
      for (size_t k = 0; k < n; ++k)
        s += static_cast<double>(a[i * n + k]) * b[k * n + j];
      out[i * n + j] = static_cast<float>(s);
    }
  }
}

// reduction(in, partial, n): partial[cta] = sum of in[cta*2*B .. cta*2*B + 2*B) within n,
// with B the CTA size.
void Reduction(ReferenceContext& c) {
  auto in = c.buffers.As<int32_t>(Buf(c, 0));
  auto partial = c.buffers.As<int32_t>(Buf(c, 1));
  const auto n = static_cast<size_t>(c.Int(2));
  const size_t per_cta = 2 * c.spec.block.x;
  for (size_t cta = 0; cta < c.spec.grid.x; ++cta) {
    uint32_t s = 0;  // two's-complement wrap, as the kernel's int adds
    for (size_t i = cta * per_cta; i < std::min(n, (cta + 1) * per_cta); ++i)
      s += static_cast<uint32_t>(in[i]);
    partial[cta] = static_cast<int32_t>(s);
  }
}

// scalarProd(out, a, b, vectors, len): out[v] = dot(a[v*len..], b[v*len..]).
void ScalarProd(ReferenceContext& c) {
  auto out = c.buffers.As<float>(Buf(c, 0));
  auto a = c.buffers.As<float>(Buf(c, 1));
  auto b = c.buffers.As<float>(Buf(c, 2));
  const auto vectors = static_cast<size_t>(c.Int(3));
  const auto len = static_cast<size_t>(c.Int(4));
  for (size_t v = 0; v < vectors; ++v) {
    double s = 0;
    for (size_t i = 0; i < len; ++i)
      s += static_cast<double>(a[v * len + i]) * b[v * len + i];
    out[v] = static_cast<float>(s);
  }
}

// histogram(data, hist, n): hist[data[i] & 255] += 1 for i < n.
void Histogram(ReferenceContext& c) {
  auto data = c.buffers.As<uint32_t>(Buf(c, 0));
  auto hist = c.buffers.As<uint32_t>(Buf(c, 1));
  const auto n = static_cast<size_t>(c.Int(2));
  for (size_t i = 0; i < n; ++i)
    ++hist[data[i] & 255];
}

// convolutionSeparable(out, in, filter, w, h): rows then columns with a 2R+1 tap filter
// (out = sum_k f[R-k] * rows(x, y+k), rows(x, y) = sum_j f[R-j] * in(x+j, y)), zero outside.
void ConvolutionSeparable(ReferenceContext& c) {
  auto out = c.buffers.As<float>(Buf(c, 0));
  auto in = c.buffers.As<float>(Buf(c, 1));
  auto f = c.buffers.As<float>(Buf(c, 2));
  const auto w = static_cast<int>(c.Int(3));
  const auto h = static_cast<int>(c.Int(4));
  const int r = static_cast<int>(f.size() / 2);
  auto at = [&](int x, int y) -> double {
    return (x >= 0 && x < w && y >= 0 && y < h) ? in[static_cast<size_t>(y * w + x)] : 0.0;
  };
  auto rows = [&](int x, int y) {
    double s = 0;
    for (int k = -r; k <= r; ++k)
      s += f[static_cast<size_t>(r - k)] * at(x + k, y);
    return s;
  };
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      double s = 0;
      for (int k = -r; k <= r; ++k)
        s += f[static_cast<size_t>(r - k)] * rows(x, y + k);
      out[static_cast<size_t>(y * w + x)] = static_cast<float>(s);
    }
  }
}

// transpose(out, in, w, h): out[x][y] = in[y][x], in is h x w.
void Transpose(ReferenceContext& c) {
  auto out = c.buffers.As<float>(Buf(c, 0));
  auto in = c.buffers.As<float>(Buf(c, 1));
  const auto w = static_cast<size_t>(c.Int(2));
  const auto h = static_cast<size_t>(c.Int(3));
  for (size_t y = 0; y < h; ++y) {
    for (size_t x = 0; x < w; ++x)
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
  auto call = c.buffers.As<float>(Buf(c, 0));
  auto put = c.buffers.As<float>(Buf(c, 1));
  auto price = c.buffers.As<float>(Buf(c, 2));
  auto strike = c.buffers.As<float>(Buf(c, 3));
  auto years = c.buffers.As<float>(Buf(c, 4));
  const double r = c.Float(5), v = c.Float(6);
  const auto n = static_cast<size_t>(c.Int(7));
  for (size_t i = 0; i < n; ++i) {
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
  auto out = c.buffers.As<float>(Buf(c, 0));
  auto temp = c.buffers.As<float>(Buf(c, 1));
  auto power = c.buffers.As<float>(Buf(c, 2));
  const auto w = static_cast<int>(c.Int(3));
  const auto h = static_cast<int>(c.Int(4));
  const double cap = c.Float(5), rx = c.Float(6), ry = c.Float(7), rz = c.Float(8),
               amb = c.Float(9);
  auto t = [&](int x, int y) -> double {
    x = std::clamp(x, 0, w - 1);
    y = std::clamp(y, 0, h - 1);
    return temp[static_cast<size_t>(y * w + x)];
  };
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const double ct = t(x, y);
      const double delta =
          (power[static_cast<size_t>(y * w + x)] + (t(x + 1, y) + t(x - 1, y) - 2 * ct) * rx +
           (t(x, y + 1) + t(x, y - 1) - 2 * ct) * ry + (amb - ct) * rz) /
          cap;
      out[static_cast<size_t>(y * w + x)] = static_cast<float>(ct + delta);
    }
  }
}

// bfs(cost, row_offsets, cols, nodes, source): breadth-first distances from source, -1 for
// unreachable nodes.
void Bfs(ReferenceContext& c) {
  auto cost = c.buffers.As<int32_t>(Buf(c, 0));
  auto rows = c.buffers.As<uint32_t>(Buf(c, 1));
  auto cols = c.buffers.As<uint32_t>(Buf(c, 2));
  const auto nodes = static_cast<size_t>(c.Int(3));
  const auto source = static_cast<size_t>(c.Int(4));
  for (size_t i = 0; i < nodes; ++i)
    cost[i] = -1;
  std::queue<size_t> q;
  cost[source] = 0;
  q.push(source);
  while (!q.empty()) {
    const size_t u = q.front();
    q.pop();
    for (uint32_t e = rows[u]; e < rows[u + 1]; ++e) {
      const uint32_t v = cols[e];
      if (cost[v] < 0) {
        cost[v] = cost[u] + 1;
        q.push(v);
      }
    }
  }
}

// nbody(acc, pos, n, eps2): acc_i = sum_j m_j d_ij / (|d_ij|^2 + eps2)^(3/2), pos = (x, y, z, m).
void Nbody(ReferenceContext& c) {
  auto acc = c.buffers.As<float>(Buf(c, 0));
  auto pos = c.buffers.As<float>(Buf(c, 1));
  const auto n = static_cast<size_t>(c.Int(2));
  const double eps2 = c.Float(3);
  for (size_t i = 0; i < n; ++i) {
    double a[3] = {0, 0, 0};
    for (size_t j = 0; j < n; ++j) {
      double d[3];
      double d2 = eps2;
      for (size_t k = 0; k < 3; ++k) {
        d[k] = static_cast<double>(pos[4 * j + k]) - pos[4 * i + k];
        d2 += d[k] * d[k];
      }
      const double inv = 1.0 / std::sqrt(d2);
      const double s = pos[4 * j + 3] * inv * inv * inv;
      for (size_t k = 0; k < 3; ++k)
        a[k] += d[k] * s;
    }
    for (size_t k = 0; k < 3; ++k)
      acc[3 * i + k] = static_cast<float>(a[k]);
  }
}

// bitonicSort(keys): each CTA's 2 * blockDim.x consecutive keys sorted ascending.
void BitonicSort(ReferenceContext& c) {
  auto keys = c.buffers.As<uint32_t>(Buf(c, 0));
  const size_t chunk = 2 * c.spec.block.x;
  for (size_t cta = 0; cta < c.spec.grid.x; ++cta)
    std::sort(keys.begin() + static_cast<std::ptrdiff_t>(cta * chunk),
              keys.begin() + static_cast<std::ptrdiff_t>((cta + 1) * chunk));
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
