#include "synth/characterize_fit.h"

#include <fmt/format.h>

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
  // Least squares over `used`: normal equations A^T A x = A^T y, Gaussian elimination with
  // partial pivoting; columns scaled to unit norm so that counts of different size condition
  // alike.
  auto solve = [&](const std::vector<size_t>& cols) {
    const size_t m = cols.size();
    std::vector<double> norm(m, 0.0);
    for (size_t a = 0; a < m; ++a) {
      for (const auto& row : counts)
        norm[a] += row[cols[a]] * row[cols[a]];
      norm[a] = std::sqrt(norm[a]);
    }
    std::vector<std::vector<double>> ata(m, std::vector<double>(m + 1, 0.0));
    for (size_t k = 0; k < counts.size(); ++k)
      for (size_t a = 0; a < m; ++a) {
        const double va = counts[k][cols[a]] / norm[a];
        for (size_t b = 0; b < m; ++b)
          ata[a][b] += va * counts[k][cols[b]] / norm[b];
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
    std::fill(f.energy.begin(), f.energy.end(), 0.0);
    for (size_t a = 0; a < m; ++a)
      f.energy[cols[a]] = ata[a][m] / ata[a][a] / norm[a];
  };
  // An access cannot take negative energy: a component the unconstrained fit makes negative
  // (the sets barely separate it, and noise or a correlated component pulls it below zero) is
  // held at 0 and the rest refitted, one component at a time, most negative first (the
  // active-set method of non-negative least squares, enough for a handful of components).
  for (;;) {
    solve(used);
    size_t worst = used.size();
    for (size_t a = 0; a < used.size(); ++a)
      if (f.energy[used[a]] < 0 &&
          (worst == used.size() || f.energy[used[a]] < f.energy[used[worst]]))
        worst = a;
    if (worst == used.size())
      break;
    f.held_at_zero.push_back(used[worst]);
    used.erase(used.begin() + static_cast<std::ptrdiff_t>(worst));
  }
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
  for (size_t c : fit.held_at_zero)
    r.notes.push_back(fmt::format(
        "the least-squares fit made the '{}' energy negative: held at 0 pJ and the other "
        "components refitted (the stimulus sets do not separate it well; see the residual)",
        c < r.components.size() ? r.components[c].name : std::to_string(c)));
}

}  // namespace gpurf
