#include "synth/characterize_fit.h"

#include <algorithm>
#include <cmath>

#include "base/diag.h"

namespace gpurf {

AccessFit FitAccessEnergies(const std::vector<std::array<double, 3>>& rows) {
  // Normal equations of min sum (r*a + w*b - y)^2.
  double rr = 0, rw = 0, ww = 0, ry = 0, wy = 0, yy = 0;
  for (const auto& [r, w, y] : rows) {
    rr += r * r;
    rw += r * w;
    ww += w * w;
    ry += r * y;
    wy += w * y;
    yy += y * y;
  }
  AccessFit f;
  const double det = rr * ww - rw * rw;
  if (std::abs(det) > 1e-12 * std::max(1.0, rr * ww)) {
    f.e_read = (ry * ww - wy * rw) / det;
    f.e_write = (wy * rr - ry * rw) / det;
  } else if (rr > 0 && ww == 0) {
    f.e_read = ry / rr;  // no writes anywhere (a read-only structure)
  } else if (ww > 0 && rr == 0) {
    f.e_write = wy / ww;
  } else if (rr + ww > 0) {
    throw ToolError("the stimulus sets do not separate reads from writes");
  }
  double res = 0;
  for (const auto& [r, w, y] : rows) {
    const double d = r * f.e_read + w * f.e_write - y;
    res += d * d;
  }
  f.residual = yy > 0 ? std::sqrt(res / yy) : 0;
  return f;
}

ComponentFit FitAccessComponents(const std::vector<std::vector<double>>& counts,
                                 const std::vector<double>& rhs) {
  const size_t n = counts.empty() ? 0 : counts.front().size();
  ComponentFit f;
  f.energy.assign(n, 0.0);
  std::vector<size_t> used;  // components some set exercised
  for (size_t c = 0; c < n; ++c)
    for (const auto& row : counts)
      if (row[c] != 0) {
        used.push_back(c);
        break;
      }
  const size_t m = used.size();
  // Normal equations A^T A x = A^T y over the used components, Gaussian elimination with
  // partial pivoting; columns scaled to unit norm so that counts of different size condition
  // alike.
  std::vector<double> norm(m, 0.0);
  for (size_t a = 0; a < m; ++a) {
    for (const auto& row : counts)
      norm[a] += row[used[a]] * row[used[a]];
    norm[a] = std::sqrt(norm[a]);
  }
  std::vector<std::vector<double>> ata(m, std::vector<double>(m + 1, 0.0));
  for (size_t k = 0; k < counts.size(); ++k)
    for (size_t a = 0; a < m; ++a) {
      const double va = counts[k][used[a]] / norm[a];
      for (size_t b = 0; b < m; ++b)
        ata[a][b] += va * counts[k][used[b]] / norm[b];
      ata[a][m] += va * rhs[k];
    }
  for (size_t col = 0; col < m; ++col) {
    size_t piv = col;
    for (size_t r = col + 1; r < m; ++r)
      if (std::abs(ata[r][col]) > std::abs(ata[piv][col]))
        piv = r;
    if (std::abs(ata[piv][col]) < 1e-9)
      throw ToolError("the stimulus sets do not separate the access components");
    std::swap(ata[piv], ata[col]);
    for (size_t r = 0; r < m; ++r) {
      if (r == col)
        continue;
      const double q = ata[r][col] / ata[col][col];
      for (size_t c = col; c <= m; ++c)
        ata[r][c] -= q * ata[col][c];
    }
  }
  for (size_t a = 0; a < m; ++a)
    f.energy[used[a]] = ata[a][m] / ata[a][a] / norm[a];
  double res = 0, yy = 0;
  for (size_t k = 0; k < counts.size(); ++k) {
    double d = -rhs[k];
    for (size_t c = 0; c < n; ++c)
      d += counts[k][c] * f.energy[c];
    res += d * d;
    yy += rhs[k] * rhs[k];
  }
  f.residual = yy > 0 ? std::sqrt(res / yy) : 0;
  return f;
}

void FitStimulusSets(ModuleCharacterization& r) {
  const double idle = r.sets[0].energy.dynamic_pj() / static_cast<double>(r.sets[0].cycles);
  r.idle_pj_per_cycle = idle;
  std::vector<std::vector<double>> counts;
  std::vector<double> rhs;
  for (size_t i = 1; i < r.sets.size(); ++i) {
    const auto& s = r.sets[i];
    counts.emplace_back(s.accesses.begin(), s.accesses.end());
    rhs.push_back(s.energy.dynamic_pj() - idle * static_cast<double>(s.cycles));
  }
  const ComponentFit fit = FitAccessComponents(counts, rhs);
  for (size_t c = 0; c < r.components.size(); ++c)
    r.components[c].e_pj = fit.energy[c];
  r.fit_residual = fit.residual;
}

}  // namespace gpurf
