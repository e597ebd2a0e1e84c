// Technology scaling of area and energy between CMOS nodes with the factors of
//   A. Stillmaker and B. Baas, "Scaling equations for the accurate prediction of CMOS device
//   performance from 180 nm to 7 nm", Integration, the VLSI Journal 58 (2017) 74-81,
// as summarized in DESIGN.md (relative to 45 nm; energy from their a*V^2+b*V+c fits at nominal
// supply): energy 30.6x at 180 nm, 7.3x at 130 nm, 3.7x at 90 nm, 1.95x at 65 nm, 1 at 45 nm,
// 0.53x at 32 nm; area 19x, 6.4x, 2.8x, 1.5x, 1, 0.46x.
// Nodes between table entries (40 nm, the node of the Gebhart papers, lies between 45 and
// 32 nm) are interpolated log-log (a power law in the feature size between the two neighbours):
// 40 nm gives energy 0.803x and area 0.764x of 45 nm. Nodes outside 180..32 nm are refused.
// Timing and leakage are not scaled (the table has no leakage factors; leakage grows, not
// shrinks, at smaller nodes, so scaling it with the dynamic-energy factor would mislead).
#pragma once

#include <optional>
#include <string>

#include "synth/liberty.h"

namespace gpurf {

struct ScalingFactors {
  int from_nm = 0, to_nm = 0;
  double area = 1, energy = 1;  // multiply a figure at from_nm to get it at to_nm
  std::string source;           // citation and method, for reports
};

// Factors relative to 45 nm at `nm`; InputError outside 32..180 nm.
double StillmakerBaasEnergy(int nm);
double StillmakerBaasArea(int nm);
ScalingFactors StillmakerBaasScaling(int from_nm, int to_nm);

// The node of a library guessed from its name or file name (osu018 -> 180, ...45nm/...45 ->
// 45, sky130 -> 130); nullopt when nothing recognizable is there.
std::optional<int> GuessLibraryNodeNm(const LibertyLibrary& lib);

}  // namespace gpurf
