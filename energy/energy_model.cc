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

// Gebhart TOCS 2012 Table IV: 3R1W flip-flop arrays at 40 nm, 128-bit accesses.
// Rows: entries per thread 4, 6, 8; columns: active warps 4, 6, 8; {read pJ, write pJ}.
constexpr std::array<int, 3> kTableAxis = {4, 6, 8};
constexpr double kTableIvRead[3][3] = {{1.2, 1.2, 1.9}, {1.2, 1.7, 2.2}, {1.9, 2.2, 3.4}};
constexpr double kTableIvWrite[3][3] = {{3.8, 4.4, 6.1}, {4.4, 5.4, 6.7}, {6.1, 6.7, 10.9}};

// Position of v on the axis as (index of the lower point, fraction towards the next), clamped.
std::pair<int, double> AxisPos(double v) {
  v = std::clamp(v, 4.0, 8.0);
  const int i = v >= 6.0 ? 1 : 0;
  return {i, (v - kTableAxis[static_cast<size_t>(i)]) / 2.0};
}

double Bilinear(const double (&t)[3][3], double entries, double warps) {
  const auto [r, fr] = AxisPos(entries);
  const auto [c, fc] = AxisPos(warps);
  const int r1 = std::min(r + 1, 2);
  const int c1 = std::min(c + 1, 2);
  const double top = t[r][c] * (1 - fc) + t[r][c1] * fc;
  const double bot = t[r1][c] * (1 - fc) + t[r1][c1] * fc;
  return top * (1 - fr) + bot * fr;
}

}  // namespace

Energies Energies::GebhartDefaults(int l1_entries_per_thread, int active_warps,
                                   int rfc_entries_per_slot) {
  Energies e;
  e.at(Level::kMrf) = {8.0, 11.0, 0.0, "Gebhart TOCS 2012 Table V (40 nm)"};
  e.at(Level::kL0) = {0.7, 2.0, 0.0, "Gebhart TOCS 2012 Table V (40 nm)"};
  const bool clamped = l1_entries_per_thread < 4 || l1_entries_per_thread > 8 || active_warps < 4 ||
                       active_warps > 8;
  e.at(Level::kL1) = {
      Bilinear(kTableIvRead, l1_entries_per_thread, active_warps),
      Bilinear(kTableIvWrite, l1_entries_per_thread, active_warps), 0.0,
      fmt::format("Gebhart TOCS 2012 Table IV (40 nm), {} entries/thread x {} warps{}",
                  l1_entries_per_thread, active_warps,
                  clamped ? ", clamped to the table's 4..8 range" : " (bilinear)")};
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
    uint64_t reads = 0;
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
