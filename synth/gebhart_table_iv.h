// Gebhart et al. Table IV (40 nm, 3R1W, 128-bit flip-flop arrays) and the comparison of
// `gpurf characterize --gebhart-table-iv` with it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "synth/characterize.h"

namespace gpurf {

// Area um^2, read pJ, write pJ by entries per thread (4, 6, 8) and active warps (4, 6, 8).
struct GebhartCell {
  int entries_per_thread, warps;
  double area_um2, read_pj, write_pj;
};
const std::vector<GebhartCell>& GebhartTableIv();
// The side-by-side table (Markdown) of our scaled figures against the paper's, with ratios and
// the monotonicity verdict; `by_entries` maps total entries (e * w) to our characterization.
struct GebhartComparison {
  std::string markdown;
  bool monotonic = false;
  std::vector<std::string> violations;
};
GebhartComparison CompareWithGebhart(
    const std::function<const ModuleCharacterization*(int entries)>& by_entries);

}  // namespace gpurf
