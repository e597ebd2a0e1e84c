// Gebhart et al., TOCS 2012, the published register-file figures at 40 nm, as data: the
// per-access energies of Tables IV and V (per 128-bit row access), the wire distances and wire
// energy of Table V, and an estimate of the tag check of a hardware register file cache, for
// which the paper gives no figure. A hierarchy picks the levels it has from here
// (sim/harness/hierarchy.h); the energy model itself knows no level.
#pragma once

#include <string>
#include <vector>

#include "energy/energy_model.h"

namespace gpurf::energy::gebhart {

constexpr double kWirePjPerMmWord = 1.9;  // Table V, per 32-bit word (300 fF/mm at 0.9 V)

// The names of the levels of Gebhart's comparison, lowest first: "MRF", "L1", "L0".
std::vector<std::string> LevelNames();

// The level `name` of LevelNames() with its figures and their source: read/write energies from
// Table V (MRF 8/11 pJ, L0 0.7/2 pJ) or, for the L1, from Table IV at
// `l1_entries_per_thread` x `active_warps` rows (the table's figures depend only on the row
// count: piecewise-linear between its points 16, 24, 32, 36, 48 and 64 rows, clamped outside
// them, and the source says so); distances from Table V: MRF 1 mm to the private datapath and to
// the shared units, L1 0.2 mm / 0.4 mm, L0 0.05 mm and not wired to the shared units.
// std::invalid_argument for another name.
LevelEnergy Level(const std::string& name, int l1_entries_per_thread, int active_warps);

// One tag check of a hardware register file cache of `entries` entries per warp slot (name
// "tag checks", label "tags"): the L0 read energy scaled by the tag bits compared per lookup
// (entries x (6-bit register id + valid + dirty)) over the 128 data bits of a row; the source
// says it is an estimate.
ComponentEnergy TagCheckEstimate(int entries);

}  // namespace gpurf::energy::gebhart
