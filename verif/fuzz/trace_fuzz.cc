// libFuzzer target: the Accel-Sim trace importer (sim/accelsim/trace_import.h). Every input is
// read both ways: as a kernel-N.traceg (header, thread blocks, warps, instruction lines with
// their address formats, then the static code, branch targets, guards and CFG rebuilt from the
// PCs) and as a kernelslist.g (memcpy commands and kernel trace names; the listed traces are not
// read, the loader records the name). Each text fails fast as the other kind.
#include <cstddef>
#include <cstdint>

#include "sim/accelsim/trace_import.h"
#include "verif/fuzz/fuzz_contract.h"

namespace accelsim = gpurf::sim::accelsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = gpurf::fuzz::AsText(data, size);
  gpurf::fuzz::ParsesOrRejects("ImportKernelTraceText", [&] {
    const accelsim::ImportedKernel k = accelsim::ImportKernelTraceText(text, "fuzz.traceg");
    (void)k.kernel->blocks.size();
  });
  gpurf::fuzz::ParsesOrRejects("ImportKernelsListText", [&] {
    (void)accelsim::ImportKernelsListText(
        text, "fuzz/kernelslist.g",
        [](const std::string&, const gpurf::SourceLoc&, const std::string& listed_as) {
          accelsim::ImportedKernel k;
          k.file = listed_as;
          k.bytes = listed_as.size();
          return k;
        });
  });
  return 0;
}
