// libFuzzer target: the workload launch-file reader (sim/workload/launch.h, LoadLaunchFromString):
// YAML, required keys, grid and block shapes, buffers with their types, counts and initializers,
// parameters, the reference name and the output checks. The launch file pretends to live in a
// scratch folder holding an empty `kernel.ptx`, so seeds naming `ptx: kernel.ptx` get past the
// PTX-file check to everything after it.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/workload/launch.h"
#include "verif/fuzz/fuzz_contract.h"

namespace {

std::filesystem::path g_dir;

void RemoveScratch() {
  std::error_code ec;
  std::filesystem::remove_all(g_dir, ec);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "gpurf-launch-fuzz-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    std::perror("launch_fuzz: mkdtemp");
    std::abort();
  }
  g_dir = tmpl;
  std::ofstream(g_dir / "kernel.ptx").flush();
  std::atexit(RemoveScratch);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = gpurf::fuzz::AsText(data, size);
  gpurf::fuzz::ParsesOrRejects("LoadLaunchFromString", [&] {
    const gpurf::sim::LaunchSpec s =
        gpurf::sim::LoadLaunchFromString(text, (g_dir / "launch.yaml").string());
    (void)s.block.count();
  });
  return 0;
}
