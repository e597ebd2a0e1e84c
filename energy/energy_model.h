// Register-file energy from access counts, after Gebhart et al., TOCS 2012, section 6.3:
//   energy = sum over levels of (reads x E_read + writes x E_write)       (access energy)
//          + sum over levels of operand words moved x distance x E_wire   (wire energy)
//          + sum over event components of events x E_event              (e.g. tag checks)
//          + optional leakage x simulated time (per level: its leakage x counted cycles; per
//            component: leakage per event-cycle, e.g. powered subarray-cycles).
//
// The levels and the event components are named data, not a fixed set: an Energies lists the
// levels of one design's register-file hierarchy ("MRF", "L1", ...) and its per-event
// components ("tag checks", ...), in order, each with its figures and where they come from; the
// hierarchy builds it (sim/harness/hierarchy.h). Counts (AccessCounts) and results (Breakdown)
// are indexed like the Energies they were counted for: a counter resolves the indices it uses
// once by name (Energies::LevelIndex, Energies::ComponentIndex) and counts by index.
//
// Units. Per-access energies are per access of one row of one lane cluster (`row_bits`: 128
// bits = 4 lanes x 32 bits, the unit of Gebhart Tables IV and V and of `gpurf characterize`);
// counts are per warp operand (one register of a whole warp: lanes x 32 bits). A warp operand
// access therefore costs lanes / cluster_lanes row accesses; for the default 32-lane SM, 8. Wire
// energy is per 32-bit word per mm (Table V: 1.9 pJ/mm, from 300 fF/mm at 0.9 V), times the
// words moved (lanes per warp operand) times the distance between the level and the unit that
// uses the operand. Write-backs from an upper level to a lower one (evictions, flushes, copies of
// results) move over `writeback_mm`, which the hierarchy sets (Gebhart's upper levels sit next
// to the private datapath: the MRF's distance to it).
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpurf::energy {

// Where an operand goes to or comes from.
enum class Unit : int { kPrivate = 0, kShared = 1 };
constexpr int kNumUnits = 2;

struct LevelEnergy {
  std::string name;       // "MRF"
  double read_pj = 0;     // per row access
  double write_pj = 0;    // per row access
  double leakage_mw = 0;  // whole level of the SM, 0 when unknown
  std::string source;     // where the figures come from ("Gebhart Table V", "characterization")
  // mm from the level to each unit (index Unit); 0: the unit cannot reach the level, and
  // Evaluate() rejects counts that use it.
  std::array<double, kNumUnits> mm{};
  // Per row access of a fill (a value from a lower level) and of a drain (a value leaving for a
  // lower level) when a characterization prices them apart; < 0: a write / a read.
  double fill_pj = -1;
  double drain_pj = -1;
  // The data-activity level (sim/harness/rtl_loop.h DataActivity: "MRF", "L1", "L0") whose
  // toggles rescale this level's access energy with the RTL in the loop; "": its own name.
  std::string activity = {};
};

// Energy charged per event that is not a level access (a tag lookup, ...).
struct ComponentEnergy {
  std::string name;   // "tag checks": rows and legends of reports
  std::string label;  // "tags": a short column heading
  double pj = 0;      // per event
  std::string source;
  // Leakage: an event that is one cycle of a leaking unit (a powered subarray-cycle) also costs
  // this much power for one clock period: pJ = events x leakage_mw / SmGeometry::clock_ghz.
  // Not scaled by Energies::ScaleRows (leakage is per unit, not per row access).
  double leakage_mw = 0;
  // Whether `pj` is per row access (scaled by Energies::ScaleRows) or per event of a structure
  // whose width does not follow the lane cluster (a PCRF entry holds a whole warp register).
  bool per_row = true;
};

struct Energies {
  std::vector<LevelEnergy> levels;
  std::vector<ComponentEnergy> components;
  int row_bits = 128;           // bits per access the per-access energies refer to
  double pj_per_mm_word = 1.9;  // wire energy per 32-bit word per mm
  double writeback_mm = 1.0;    // an upper level's write-back to a lower level

  // The index of the level / component `name`; std::invalid_argument naming what exists when
  // there is none.
  int LevelIndex(const std::string& name) const;
  int ComponentIndex(const std::string& name) const;
  // Per-access energies of `row_bits` instead of the current row width (a lane cluster of
  // another width): every level's and component's pJ scaled by row_bits / this->row_bits.
  void ScaleRows(int new_row_bits);
};

// Access counts of one level in one kernel run, in warp operands.
struct LevelCounts {
  std::array<uint64_t, kNumUnits> reads{};   // operands read, by the unit that consumes them
  std::array<uint64_t, kNumUnits> writes{};  // results written, by the unit that produced them
  uint64_t writebacks = 0;  // values this level receives from an upper level (wire charged
                            // over Energies::writeback_mm)
  uint64_t fills = 0;       // values this level receives from a lower level (no wire charge
                            // beyond the read of the lower level, which is counted there)
  uint64_t drains = 0;      // reads of this level's values leaving for a lower level
                            // (evictions, flushes): access energy only, the wire is charged
                            // with the lower level's writebacks
};

// Counts indexed like the levels and components of the Energies they are counted for.
struct AccessCounts {
  AccessCounts() = default;
  explicit AccessCounts(const Energies& e)
      : levels(e.levels.size()), events(e.components.size(), 0) {}

  std::vector<LevelCounts> levels;
  std::vector<uint64_t> events;  // per component
  uint64_t cycles = 0;           // for leakage; 0 = do not add leakage

  // Adds `o`, which must be indexed like this (an empty AccessCounts takes o's shape; an empty
  // `o` adds only its cycles).
  AccessCounts& operator+=(const AccessCounts& o);
};

struct SmGeometry {
  int lanes = 32;         // threads per warp
  int cluster_lanes = 4;  // lanes per row
  double clock_ghz = 1.0;

  int RowsPerWarpOperand() const { return lanes / cluster_lanes; }
};

struct LevelBreakdown {
  std::string name;
  double access_pj = 0;
  double wire_pj = 0;
  double leakage_pj = 0;
  std::string activity = {};  // LevelEnergy::activity, its name when that is ""
  double total() const { return access_pj + wire_pj + leakage_pj; }
};

struct ComponentBreakdown {
  std::string name, label;
  double pj = 0;
};

struct Breakdown {
  std::vector<LevelBreakdown> levels;
  std::vector<ComponentBreakdown> components;

  // The level / component `name`, nullptr when the breakdown has none.
  const LevelBreakdown* FindLevel(const std::string& name) const;
  const ComponentBreakdown* FindComponent(const std::string& name) const;
  double access_pj() const;
  double wire_pj() const;
  double leakage_pj() const;
  double components_pj() const;
  double total_pj() const;
  // Adds `o`, which must have the same levels and components in the same order (an empty
  // Breakdown takes o's shape; an empty `o` adds nothing).
  Breakdown& operator+=(const Breakdown& o);
  // {"levels": {name: {access_pj, wire_pj, leakage_pj}}, "components": {name: {pj}},
  //  access_pj, wire_pj, leakage_pj, total_pj}.
  nlohmann::ordered_json ToJson() const;
};

// Throws std::invalid_argument when counts are not indexed like `e`, use a level/unit pair
// the wire model cannot reach (e.g. shared-unit reads from a level only the private datapath
// reaches) or the geometry is inconsistent.
Breakdown Evaluate(const AccessCounts& counts, const Energies& e, const SmGeometry& sm);

}  // namespace gpurf::energy
