// The hand-written primitives of rtl/ (clock gate, ...), embedded in the gpurf binary at build
// time so every output folder is self-contained and gpurf runs without the source tree.
#pragma once

#include <string>
#include <string_view>

namespace gpurf {

// Contents of rtl/<file_name>; throws std::out_of_range for an unknown primitive.
std::string_view RtlPrimitive(const std::string& file_name);

}  // namespace gpurf
