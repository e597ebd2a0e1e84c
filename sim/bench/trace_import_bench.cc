// Accel-Sim trace import rate. Builds a large trace from the real vectoradd trace
// (workloads/accelsim/vectoradd): its header with a grid of N thread blocks and its thread block
// repeated N times, written to a temporary file, then imports it (read, tokenize, rebuild code,
// CFG and per-warp streams) several times and reports the best rate in MB/s.
//
//   build/gpurf_trace_import_bench [thread_blocks=4000] [repeats=3]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/accelsim/trace_import.h"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 4000;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  std::ifstream in(GPURF_SOURCE_DIR "/workloads/accelsim/vectoradd/kernel-1.traceg");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string real = ss.str();
  const size_t tb = real.find("#BEGIN_TB");
  std::string header = real.substr(0, tb);
  header.replace(header.find("(1,1,1)"), 7, "(" + std::to_string(blocks) + ",1,1)");
  std::string body = real.substr(tb);
  const size_t id = body.find("thread block = 0,0,0");
  const fs::path path = fs::temp_directory_path() / "gpurf-import-bench.traceg";
  {
    std::ofstream out(path, std::ios::binary);
    out << header;
    for (int b = 0; b < blocks; ++b) {
      out << body.substr(0, id) << "thread block = " << b << ",0,0"
          << body.substr(id + std::string("thread block = 0,0,0").size());
    }
  }
  const double mb = static_cast<double>(fs::file_size(path)) / 1e6;
  double best = 1e30;
  uint64_t insts = 0;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto w = gpurf::sim::accelsim::ImportTrace(path.string());
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, s);
    insts = w.kernels[0].run.WarpInstructions();
  }
  fs::remove(path);
  std::printf(
      "trace %.1f MB, %d thread blocks, %llu warp instructions: best of %d imports %.3f s "
      "= %.1f MB/s (%.1f M warp instructions/s)\n",
      mb, blocks, static_cast<unsigned long long>(insts), repeats, best, mb / best,
      static_cast<double>(insts) / best / 1e6);
  return 0;
}
