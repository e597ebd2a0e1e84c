// C++ reference computations of the corpus kernels' outputs, written from each kernel's
// specification (what it computes), not from its PTX. A reference receives the buffers with
// their initial contents and overwrites the output buffers with the expected final contents.
#pragma once

#include <string>
#include <vector>

#include "sim/workload/launch.h"

namespace gpurf::sim {

struct ReferenceContext {
  HostBuffers& buffers;
  const LaunchSpec& spec;

  // Scalar parameter number `index` (0-based position in the launch file's params list).
  int64_t Int(size_t index) const;
  double Float(size_t index) const;
};

using ReferenceFn = void (*)(ReferenceContext&);

// nullptr when there is no reference of that name.
ReferenceFn FindReference(const std::string& name);
std::vector<std::string> ReferenceNames();

}  // namespace gpurf::sim
