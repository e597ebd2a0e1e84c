// libFuzzer target: the PTX front end (sim/ptx/ptx_parser.h) and what `gpurf workload` and
// `gpurf compile` do next with every parsed kernel: vector grouping, liveness, linear-scan
// register allocation with and without spilling (sim/ptx/regalloc.h) and the CFG with
// immediate post-dominators (sim/kernel/kernel.h).
#include <cstddef>
#include <cstdint>

#include "sim/ptx/ptx_parser.h"
#include "sim/ptx/regalloc.h"
#include "verif/fuzz/fuzz_contract.h"

namespace ptx = gpurf::sim::ptx;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = gpurf::fuzz::AsText(data, size);
  ptx::PtxModule module;
  bool parsed = false;
  gpurf::fuzz::ParsesOrRejects("ParsePtx", [&] {
    module = ptx::ParsePtx(text, "fuzz.ptx");
    parsed = true;
  });
  if (!parsed)
    return 0;
  for (const auto& entry : module.entries) {
    // The default budget, and the smallest one, which forces spilling.
    for (const int max_regs : {63, 16}) {
      gpurf::fuzz::ParsesOrRejects("CompileKernel", [&] {
        ptx::AllocOptions opt;
        opt.max_regs = max_regs;
        const ptx::CompiledKernel ck = ptx::CompileKernel(module, entry.name, opt);
        (void)ck.kernel.regs_per_thread;
      });
    }
  }
  return 0;
}
