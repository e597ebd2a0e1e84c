#include "synth/sram_model.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace gpurf {

namespace {

constexpr double kArrayShare = 0.50;   // bit cells at the reference shape
constexpr double kColumnShare = 0.25;  // sense amplifiers, write drivers, I/O
constexpr double kRowShare = 0.25;     // decoder, word-line drivers

const SramPoint& Point(const char* source) {
  for (const auto& p : PublishedSramPoints()) {
    if (p.source == source)
      return p;
  }
  throw std::logic_error(std::string("no published SRAM point ") + source);
}

}  // namespace

const std::vector<SramPoint>& PublishedSramPoints() {
  static const std::vector<SramPoint> points = {
      {"gebhart-tocs2012-table5",
       "Gebhart et al., ACM TOCS 2012, Table V: 4 KB 128-bit MRF bank, 40 nm, commercial memory "
       "compiler",
       40,
       {256, 128},
       8.0,
       11.0,
       -1,
       38000.0},
      {"jeon-micro2015-table2",
       "Jeon et al., MICRO 2015, Table 2: 4 KB register bank, 40 nm, CACTI 5.3, 0.96 V",
       40,
       {256, 128},
       4.68,
       4.68,
       2.8,
       -1},
  };
  return points;
}

const char* SramBasisName(SramBasis b) {
  return b == SramBasis::kGebhart ? "gebhart" : "jeon";
}

std::string SramScalingLaw() {
  return "E = E0 x (W/W0) x sqrt(D/D0) per access; leakage = P0 x C/C0; "
         "area = A0 x (0.50 C/C0 + 0.25 W/W0 + 0.25 D/D0); reference D0 = 256 rows, W0 = 128 "
         "bits, C0 = D0 x W0 (4 KB), 40 nm";
}

SramFigures EstimateSram(const SramShape& shape, SramBasis basis, const NodeScaling& node) {
  if (shape.depth < 1 || shape.width < 1) {
    throw std::invalid_argument(fmt::format(
        "SRAM shape {} x {} must have at least one row and one bit", shape.depth, shape.width));
  }
  const SramPoint& gebhart = Point("gebhart-tocs2012-table5");
  const SramPoint& jeon = Point("jeon-micro2015-table2");
  const SramPoint& energy = basis == SramBasis::kGebhart ? gebhart : jeon;
  const SramShape ref = energy.shape;

  const double w = static_cast<double>(shape.width) / ref.width;
  const double d = static_cast<double>(shape.depth) / ref.depth;
  const double c = static_cast<double>(shape.bits()) / static_cast<double>(ref.bits());
  const double e_scale = w * std::sqrt(d);

  SramFigures f;
  f.shape = shape;
  f.basis = basis;
  f.read_pj = energy.read_pj * e_scale;
  f.write_pj = energy.write_pj * e_scale;
  f.read_source = f.write_source = energy.source;
  f.leakage_mw = jeon.leakage_mw * c;  // the only published leakage
  f.leakage_source = jeon.source;
  f.area_um2 = gebhart.area_um2 * (kArrayShare * c + kColumnShare * w + kRowShare * d);
  f.area_source = gebhart.source;  // the only published area
  const double kb = static_cast<double>(shape.bits()) / 8192.0;
  f.extrapolated = kb < 1 || kb > 64 || shape.width < 16 || shape.width > 512;
  return ScaleSram(f, node);
}

SramFigures ScaleSram(const SramFigures& at_reference, const NodeScaling& node) {
  if (!(node.energy > 0) || !(node.area > 0) || !(node.leakage > 0) || !(node.node_nm > 0)) {
    throw std::invalid_argument(
        fmt::format("node scaling '{}' needs positive multipliers (energy {}, area {}, leakage {})",
                    node.name, node.energy, node.area, node.leakage));
  }
  SramFigures f = at_reference;
  const NodeScaling& from = at_reference.node;
  // Multipliers are relative to the reference node; undo the old ones first.
  f.read_pj = at_reference.read_pj / from.energy * node.energy;
  f.write_pj = at_reference.write_pj / from.energy * node.energy;
  f.leakage_mw = at_reference.leakage_mw / from.leakage * node.leakage;
  f.area_um2 = at_reference.area_um2 / from.area * node.area;
  f.node = node;
  return f;
}

nlohmann::ordered_json SramFigures::Json() const {
  nlohmann::ordered_json j;
  j["depth"] = shape.depth;
  j["width"] = shape.width;
  j["bits"] = shape.bits();
  j["ports"] = "1r1w";
  j["node"] = {{"name", node.name},
               {"node_nm", node.node_nm},
               {"energy_multiplier", node.energy},
               {"area_multiplier", node.area},
               {"leakage_multiplier", node.leakage},
               {"source", node.source}};
  j["basis"] = SramBasisName(basis);
  j["read_pj"] = read_pj;
  j["write_pj"] = write_pj;
  j["leakage_mw"] = leakage_mw;
  j["area_um2"] = area_um2;
  j["sources"] = {{"read", read_source},
                  {"write", write_source},
                  {"leakage", leakage_source},
                  {"area", area_source}};
  j["law"] = SramScalingLaw();
  j["extrapolated"] = extrapolated;
  return j;
}

nlohmann::ordered_json SramBanksJson(const SramFigures& per_bank, int banks) {
  nlohmann::ordered_json j;
  j["banks"] = banks;
  j["per_bank"] = per_bank.Json();
  j["total"] = {{"leakage_mw", per_bank.leakage_mw * banks},
                {"area_um2", per_bank.area_um2 * banks},
                {"bits", per_bank.shape.bits() * banks}};
  return j;
}

}  // namespace gpurf
