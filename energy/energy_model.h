// Register-file energy from access counts, after Gebhart et al., TOCS 2012, section 6.3:
//   energy = sum over levels of (reads x E_read + writes x E_write)       (access energy)
//          + sum over levels of operand words moved x distance x E_wire   (wire energy)
//          + tag checks x E_tag                                           (HW RFC only)
//          + optional leakage x simulated time.
//
// Units. Per-access energies are per access of one 128-bit row of one lane cluster (4 lanes x
// 32 bits), the unit of Gebhart Tables IV and V and of `gpurf characterize`; counts are per warp
// operand (one register of a whole warp: lanes x 32 bits). A warp operand access therefore costs
// lanes / cluster_lanes row accesses; for the default 32-lane SM, 8. Wire energy is per 32-bit
// word per mm (Table V: 1.9 pJ/mm, from 300 fF/mm at 0.9 V), times the words moved (lanes per
// warp operand) times the distance between the level and the unit that uses the operand.
//
// Distances (Table V): MRF 1 mm to the private datapath and to the shared units; L1 ORF/RFC
// 0.2 mm to the private datapath and 0.4 mm to the shared units; L0 0.05 mm, private datapath
// only. Write-backs from the RFC/ORF to the MRF (evictions, flushes, MRF copies of results) move
// over the MRF's distance to the private datapath, because the upper levels sit next to it.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpurf::energy {

enum class Level : int { kMrf = 0, kL1 = 1, kL0 = 2 };
constexpr int kNumLevels = 3;
const char* LevelName(Level l);

// Where an operand goes to or comes from.
enum class Unit : int { kPrivate = 0, kShared = 1 };
constexpr int kNumUnits = 2;

struct LevelEnergy {
  double read_pj = 0;     // per 128-bit row access
  double write_pj = 0;    // per 128-bit row access
  double leakage_mw = 0;  // whole level of the SM, 0 when unknown
  std::string source;     // where the figures come from ("Gebhart Table V", "characterization")
};

struct Energies {
  std::array<LevelEnergy, kNumLevels> level;
  double tag_check_pj = 0;  // one tag lookup of one operand (HW RFC)
  std::string tag_source;
  int row_bits = 128;  // bits per access the per-access energies refer to

  const LevelEnergy& at(Level l) const { return level[static_cast<int>(l)]; }
  LevelEnergy& at(Level l) { return level[static_cast<int>(l)]; }

  // Gebhart Tables IV and V at 40 nm: MRF 8/11 pJ, L0 0.7/2 pJ, and the L1 of
  // `l1_entries_per_thread` x `active_warps` rows from Table IV, whose figures depend only on
  // the row count: piecewise-linear between its points (16, 24, 32, 36, 48, 64 rows), clamped
  // outside them (and `source` says so). Tag checks: Gebhart gives no figure; the default is
  // the L0 read energy scaled by the tag bits compared per lookup over the 128 data bits of a
  // row (entries x 7 bits of register id + valid), stated in `tag_source`.
  static Energies GebhartDefaults(int l1_entries_per_thread, int active_warps,
                                  int rfc_entries_per_slot = 6);
};

struct WireModel {
  double pj_per_mm_word = 1.9;  // Table V, per 32-bit word
  // mm from each level to each unit; NaN-free: a level a unit cannot reach has distance 0 and
  // Evaluate() rejects counts that use it.
  std::array<std::array<double, kNumUnits>, kNumLevels> mm = {{
      {1.0, 1.0},   // MRF
      {0.2, 0.4},   // L1
      {0.05, 0.0},  // L0: private datapath only
  }};
  double writeback_mm = 1.0;  // upper level -> MRF

  double distance(Level l, Unit u) const { return mm[static_cast<int>(l)][static_cast<int>(u)]; }
  static WireModel GebhartTableV() { return {}; }
};

// Access counts of one kernel run, in warp operands.
struct LevelCounts {
  std::array<uint64_t, kNumUnits> reads{};   // operands read, by the unit that consumes them
  std::array<uint64_t, kNumUnits> writes{};  // results written, by the unit that produced them
  uint64_t writebacks = 0;  // values this level receives from an upper level (MRF only)
  uint64_t fills = 0;       // values this level receives from a lower level (no wire charge
                            // beyond the read of the lower level, which is counted there)
  uint64_t drains = 0;      // reads of this level's values leaving for a lower level
                            // (evictions, flushes): access energy only, the wire is charged
                            // with the lower level's writebacks
};

struct AccessCounts {
  std::array<LevelCounts, kNumLevels> level;
  uint64_t tag_checks = 0;
  uint64_t cycles = 0;  // for leakage; 0 = do not add leakage

  const LevelCounts& at(Level l) const { return level[static_cast<int>(l)]; }
  LevelCounts& at(Level l) { return level[static_cast<int>(l)]; }
  AccessCounts& operator+=(const AccessCounts& o);
};

struct SmGeometry {
  int lanes = 32;         // threads per warp
  int cluster_lanes = 4;  // lanes per 128-bit row
  double clock_ghz = 1.0;

  int RowsPerWarpOperand() const { return lanes / cluster_lanes; }
};

struct LevelBreakdown {
  double access_pj = 0;
  double wire_pj = 0;
  double leakage_pj = 0;
  double total() const { return access_pj + wire_pj + leakage_pj; }
};

struct Breakdown {
  std::array<LevelBreakdown, kNumLevels> level;
  double tag_pj = 0;

  const LevelBreakdown& at(Level l) const { return level[static_cast<int>(l)]; }
  double access_pj() const;
  double wire_pj() const;
  double leakage_pj() const;
  double total_pj() const;
  nlohmann::ordered_json ToJson() const;
};

// Throws std::invalid_argument when counts use a level/unit pair the wire model cannot reach
// (e.g. shared-unit reads from L0) or the geometry is inconsistent.
Breakdown Evaluate(const AccessCounts& counts, const Energies& e, const WireModel& wires,
                   const SmGeometry& sm);

}  // namespace gpurf::energy
