// The hand-written primitives of rtl/ (clock gate, SRAM wrapper, the assertion macro header
// gpurf_assert.svh, ...), embedded in the gpurf binary at build time so every output folder is
// self-contained and gpurf runs without the source tree.
#pragma once

#include <string>
#include <string_view>

namespace gpurf {

// Contents of rtl/<file_name>; throws std::out_of_range for an unknown primitive.
std::string_view RtlPrimitive(const std::string& file_name);

// True for an include file (`.svh`, e.g. gpurf_assert.svh): it is written next to the modules
// that `include it and found through the include path (the folder the files are written to),
// never compiled on its own, so tools get it as -I/+incdir+, not as a source file.
inline bool IsRtlHeader(std::string_view file_name) {
  return file_name.size() > 4 && file_name.substr(file_name.size() - 4) == ".svh";
}

}  // namespace gpurf
