#include "energy/gebhart.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <stdexcept>
#include <utility>

namespace gpurf::energy::gebhart {

namespace {

constexpr char kTableV[] = "Gebhart TOCS 2012 Table V (40 nm)";

// Table V: {name, read pJ, write pJ, private mm, shared mm}; the L1's energies come from Table IV
// by its size (TableIv), so its row holds the distances only.
struct TableVRow {
  const char* name;
  double read_pj, write_pj, private_mm, shared_mm;
};
constexpr std::array<TableVRow, 3> kLevels = {{
    {"MRF", 8.0, 11.0, 1.0, 1.0},
    {"L1", 0.0, 0.0, 0.2, 0.4},
    {"L0", 0.7, 2.0, 0.05, 0.0},  // private datapath only
}};
constexpr size_t kSized = 1;    // the row of kLevels whose energies are Table IV's
constexpr size_t kTagBase = 2;  // the row whose read energy the tag estimate scales

// Table IV: 3R1W flip-flop arrays at 40 nm, 128-bit accesses, by total rows (entries per thread
// x active warps). The table's figures depend only on that product (4 x 6 and 6 x 4 agree, as
// do 4 x 8 and 8 x 4), so it is a function of rows: {rows, read, write}.
struct TableIvPoint {
  double rows, read_pj, write_pj;
};
constexpr std::array<TableIvPoint, 6> kTableIv = {{{16, 1.2, 3.8},
                                                   {24, 1.2, 4.4},
                                                   {32, 1.9, 6.1},
                                                   {36, 1.7, 5.4},
                                                   {48, 2.2, 6.7},
                                                   {64, 3.4, 10.9}}};

// Piecewise-linear in rows between the table's points, clamped outside them.
std::pair<double, double> TableIv(double rows) {
  if (rows <= kTableIv.front().rows)
    return {kTableIv.front().read_pj, kTableIv.front().write_pj};
  if (rows >= kTableIv.back().rows)
    return {kTableIv.back().read_pj, kTableIv.back().write_pj};
  for (size_t i = 1; i < kTableIv.size(); ++i) {
    if (rows <= kTableIv[i].rows) {
      const TableIvPoint& lo = kTableIv[i - 1];
      const TableIvPoint& hi = kTableIv[i];
      const double t = (rows - lo.rows) / (hi.rows - lo.rows);
      return {lo.read_pj + t * (hi.read_pj - lo.read_pj),
              lo.write_pj + t * (hi.write_pj - lo.write_pj)};
    }
  }
  return {kTableIv.back().read_pj, kTableIv.back().write_pj};
}

}  // namespace

std::vector<std::string> LevelNames() {
  std::vector<std::string> names;
  for (const auto& row : kLevels)
    names.emplace_back(row.name);
  return names;
}

LevelEnergy Level(const std::string& name, int l1_entries_per_thread, int active_warps) {
  for (size_t i = 0; i < kLevels.size(); ++i) {
    const TableVRow& row = kLevels[i];
    if (name != row.name)
      continue;
    LevelEnergy e;
    e.name = row.name;
    e.mm = {row.private_mm, row.shared_mm};
    if (i != kSized) {
      e.read_pj = row.read_pj;
      e.write_pj = row.write_pj;
      e.source = kTableV;
      return e;
    }
    const double rows = static_cast<double>(l1_entries_per_thread) * active_warps;
    const bool clamped = rows < kTableIv.front().rows || rows > kTableIv.back().rows;
    std::tie(e.read_pj, e.write_pj) = TableIv(rows);
    e.source = fmt::format(
        "Gebhart TOCS 2012 Table IV (40 nm) at {} rows ({} entries/thread x {} warps){}", rows,
        l1_entries_per_thread, active_warps, clamped ? ", clamped to the table's 16..64 rows" : "");
    return e;
  }
  throw std::invalid_argument(fmt::format("Gebhart's figures have no level '{}' (they have {})",
                                          name, fmt::join(LevelNames(), ", ")));
}

ComponentEnergy TagCheckEstimate(int entries) {
  const int tag_bits = entries * (7 + 1);
  ComponentEnergy c;
  c.name = "tag checks";
  c.label = "tags";
  c.pj = kLevels[kTagBase].read_pj * tag_bits / 128.0;
  c.source = fmt::format(
      "estimate: {} read energy x {} compared tag bits ({} entries x (6-bit id + valid + dirty)) "
      "/ 128 data bits; Gebhart gives no tag figure",
      kLevels[kTagBase].name, tag_bits, entries);
  return c;
}

}  // namespace gpurf::energy::gebhart
