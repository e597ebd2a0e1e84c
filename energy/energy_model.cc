#include "energy/energy_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace gpurf::energy {

const char* LevelName(Level l) {
  switch (l) {
    case Level::kMrf:
      return "MRF";
    case Level::kL1:
      return "L1";
    case Level::kL0:
      return "L0";
  }
  return "?";
}

namespace {

// Gebhart TOCS 2012 Table IV: 3R1W flip-flop arrays at 40 nm, 128-bit accesses, by total rows
// (entries per thread x active warps). The table's figures depend only on that product (4 x 6
// and 6 x 4 agree, as do 4 x 8 and 8 x 4), so it is a function of rows: {rows, read, write}.
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

Energies Energies::GebhartDefaults(int l1_entries_per_thread, int active_warps,
                                   int rfc_entries_per_slot) {
  Energies e;
  e.at(Level::kMrf) = {8.0, 11.0, 0.0, "Gebhart TOCS 2012 Table V (40 nm)"};
  e.at(Level::kL0) = {0.7, 2.0, 0.0, "Gebhart TOCS 2012 Table V (40 nm)"};
  const double rows = static_cast<double>(l1_entries_per_thread) * active_warps;
  const bool clamped = rows < kTableIv.front().rows || rows > kTableIv.back().rows;
  const auto [l1_read, l1_write] = TableIv(rows);
  e.at(Level::kL1) = {
      l1_read, l1_write, 0.0,
      fmt::format("Gebhart TOCS 2012 Table IV (40 nm) at {} rows ({} entries/thread x {} warps){}",
                  rows, l1_entries_per_thread, active_warps,
                  clamped ? ", clamped to the table's 16..64 rows" : "")};
  const int tag_bits = rfc_entries_per_slot * (7 + 1);
  e.tag_check_pj = e.at(Level::kL0).read_pj * tag_bits / 128.0;
  e.tag_source = fmt::format(
      "estimate: L0 read energy x {} compared tag bits ({} entries x (6-bit id + valid + dirty)) "
      "/ 128 data bits; Gebhart gives no tag figure",
      tag_bits, rfc_entries_per_slot);
  return e;
}

AccessCounts& AccessCounts::operator+=(const AccessCounts& o) {
  for (int l = 0; l < kNumLevels; ++l) {
    for (int u = 0; u < kNumUnits; ++u) {
      level[l].reads[u] += o.level[l].reads[u];
      level[l].writes[u] += o.level[l].writes[u];
    }
    level[l].writebacks += o.level[l].writebacks;
    level[l].fills += o.level[l].fills;
    level[l].drains += o.level[l].drains;
  }
  tag_checks += o.tag_checks;
  cycles += o.cycles;
  return *this;
}

double Breakdown::access_pj() const {
  double s = 0;
  for (const auto& l : level)
    s += l.access_pj;
  return s;
}
double Breakdown::wire_pj() const {
  double s = 0;
  for (const auto& l : level)
    s += l.wire_pj;
  return s;
}
double Breakdown::leakage_pj() const {
  double s = 0;
  for (const auto& l : level)
    s += l.leakage_pj;
  return s;
}
double Breakdown::total_pj() const {
  return access_pj() + wire_pj() + leakage_pj() + tag_pj;
}

nlohmann::ordered_json Breakdown::ToJson() const {
  nlohmann::ordered_json j;
  for (int l = 0; l < kNumLevels; ++l) {
    j["levels"][LevelName(static_cast<Level>(l))] = {{"access_pj", level[l].access_pj},
                                                     {"wire_pj", level[l].wire_pj},
                                                     {"leakage_pj", level[l].leakage_pj}};
  }
  j["tag_pj"] = tag_pj;
  j["access_pj"] = access_pj();
  j["wire_pj"] = wire_pj();
  j["leakage_pj"] = leakage_pj();
  j["total_pj"] = total_pj();
  return j;
}

Breakdown Evaluate(const AccessCounts& counts, const Energies& e, const WireModel& wires,
                   const SmGeometry& sm) {
  if (sm.lanes <= 0 || sm.cluster_lanes <= 0 || sm.lanes % sm.cluster_lanes != 0) {
    throw std::invalid_argument(fmt::format(
        "SM geometry: {} lanes do not split into clusters of {}", sm.lanes, sm.cluster_lanes));
  }
  if (e.row_bits != 32 * sm.cluster_lanes) {
    throw std::invalid_argument(
        fmt::format("per-access energies are for {}-bit rows, the SM's rows are {} bits",
                    e.row_bits, 32 * sm.cluster_lanes));
  }
  const double rows = sm.RowsPerWarpOperand();
  const double words = sm.lanes;  // 32-bit words per warp operand
  Breakdown b;
  for (int li = 0; li < kNumLevels; ++li) {
    const auto l = static_cast<Level>(li);
    const LevelCounts& c = counts.at(l);
    const LevelEnergy& le = e.at(l);
    LevelBreakdown& out = b.level[li];
    uint64_t reads = c.drains;
    uint64_t writes = c.writebacks + c.fills;
    for (int ui = 0; ui < kNumUnits; ++ui) {
      const auto u = static_cast<Unit>(ui);
      reads += c.reads[ui];
      writes += c.writes[ui];
      const uint64_t moved = c.reads[ui] + c.writes[ui];
      if (moved > 0 && wires.distance(l, u) <= 0.0) {
        throw std::invalid_argument(
            fmt::format("{} {} operands of the {} are not reachable in the wire model", moved,
                        u == Unit::kPrivate ? "private-datapath" : "shared-unit", LevelName(l)));
      }
      out.wire_pj +=
          static_cast<double>(moved) * words * wires.distance(l, u) * wires.pj_per_mm_word;
    }
    out.wire_pj +=
        static_cast<double>(c.writebacks) * words * wires.writeback_mm * wires.pj_per_mm_word;
    out.access_pj =
        (static_cast<double>(reads) * le.read_pj + static_cast<double>(writes) * le.write_pj) *
        rows;
    if (counts.cycles > 0 && sm.clock_ghz > 0) {
      // mW x ns = pJ.
      out.leakage_pj = le.leakage_mw * static_cast<double>(counts.cycles) / sm.clock_ghz;
    }
  }
  b.tag_pj = static_cast<double>(counts.tag_checks) * e.tag_check_pj;
  return b;
}

}  // namespace gpurf::energy
