// SRAM bank model: per-access read and write energy, leakage and area of a one-read, one-write
// SRAM macro (an MRF bank, gpurf_sram_1r1w_macro), estimated from published points and scaled
// to other depths and widths by a stated law, and to other technology nodes by multipliers the
// caller supplies (the characterization flow's technology scaling plugs in there).
//
// Published points (all 40 nm, one 4 KB bank of 256 x 128 bits, 1R1W):
//   Gebhart et al., TOCS 2012, Table V: MRF read 8 pJ, write 11 pJ per 128-bit access;
//     MRF bank area 38000 um^2 (commercial memory compiler, 0.9 V, 1 GHz).
//   Jeon et al., MICRO 2015, Table 2: register bank 4 KB, 4.68 pJ per access, 2.8 mW leakage
//     per bank (CACTI 5.3, 0.96 V).
// A basis takes energy from one paper and fills the figures it lacks from the other (Gebhart
// gives no leakage, Jeon no area); every figure names its source.
//
// Scaling law from the reference (D0 = 256 rows, W0 = 128 bits, C0 = D0 x W0 bits) to D x W:
//   energy per access  E = E0 x (W / W0) x sqrt(D / D0)
//     Each accessed bit has its own bit line pair, sense amplifier or write driver, so energy is
//     linear in the word width; the bit-line and word-line/decoder lengths of an array kept
//     near square grow with the square root of its rows, so at a fixed width the energy grows
//     with sqrt(capacity), the trend CACTI shows for per-access energy of small macros
//     (Muralimanohar et al., CACTI 6.0) and the rule of thumb of Horowitz (ISSCC 2014).
//   leakage            P = P0 x C / C0        (bit cells dominate the leaking devices)
//   area               A = A0 x (0.50 x C / C0 + 0.25 x W / W0 + 0.25 x D / D0)
//     Bit cells plus periphery: the array efficiency of a small compiled macro is about half
//     (assumed 50% at the 4 KB reference); the other half is split between the column periphery
//     (sense amplifiers, write drivers, I/O: linear in W) and the row periphery (decoder and
//     word-line drivers: linear in D).
// Outside roughly 1..64 KB and 16..512 bits per row the law is an extrapolation; the report
// says so (`extrapolated`).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpurf {

struct SramShape {
  int depth = 256;  // rows
  int width = 128;  // bits per row
  long long bits() const { return static_cast<long long>(depth) * width; }
};

// One published measurement. A missing figure is negative.
struct SramPoint {
  std::string source;    // "gebhart-tocs2012-table5"
  std::string citation;  // human-readable
  double node_nm = 40;
  SramShape shape;
  double read_pj = -1;
  double write_pj = -1;
  double leakage_mw = -1;
  double area_um2 = -1;
};
const std::vector<SramPoint>& PublishedSramPoints();

// Which published point sets the per-access energies.
enum class SramBasis { kGebhart, kJeon };
const char* SramBasisName(SramBasis b);

// Multipliers from the model's reference node (40 nm) to a target node. Reference() is the
// identity; the characterization flow builds others from its technology scaling.
struct NodeScaling {
  std::string name = "40nm";
  double node_nm = 40;
  double energy = 1;
  double area = 1;
  double leakage = 1;
  std::string source = "reference node of the published points";
  static NodeScaling Reference() { return NodeScaling{}; }
};

struct SramFigures {
  SramShape shape;
  SramBasis basis = SramBasis::kGebhart;
  NodeScaling node;
  double read_pj = 0;     // per access of one row
  double write_pj = 0;    // per access of one row
  double leakage_mw = 0;  // static power of the macro
  double area_um2 = 0;
  std::string read_source, write_source, leakage_source, area_source;
  bool extrapolated = false;  // outside the range where the scaling law is a fair guess

  nlohmann::ordered_json Json() const;
};

// Estimate for one bank; throws std::invalid_argument for a non-positive shape or scaling.
SramFigures EstimateSram(const SramShape& shape, SramBasis basis = SramBasis::kGebhart,
                         const NodeScaling& node = NodeScaling::Reference());

// The same figures carried to another node (multiplies energies, leakage and area).
SramFigures ScaleSram(const SramFigures& at_reference, const NodeScaling& node);

// Report for `banks` identical banks: the per-bank figures, the law, and the totals
// (leakage and area summed; energies stay per access).
nlohmann::ordered_json SramBanksJson(const SramFigures& per_bank, int banks);

// One paragraph stating the scaling law, for reports.
std::string SramScalingLaw();

}  // namespace gpurf
