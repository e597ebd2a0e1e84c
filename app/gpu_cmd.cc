#include "app/gpu_cmd.h"

#include <fmt/format.h>

#include "base/diag.h"
#include "sim/sm/gpu_config.h"

namespace gpurf {

CLI::App* AddGpuCommand(CLI::App& app, GpuArgs& a) {
  CLI::App* gpu = app.add_subcommand(
      "gpu", "GPU presets for a design's gpu: section and --gpu, with every field's source");
  gpu->require_subcommand(1);
  gpu->add_subcommand("list", "the presets, one line each");
  CLI::App* show = gpu->add_subcommand("show", "every field of a preset with its value and source");
  show->add_option("name", a.name, "preset name (see gpu list)")->required();
  return gpu;
}

int RunGpuCommand(CLI::App* gpu, const GpuArgs& a) {
  if (gpu->got_subcommand("list")) {
    fmt::print("{:<16} {:>4} {:>6} {:>6} {:>6} {:>6} {:>8} {:>9}  {}\n", "preset", "SMs", "MHz",
               "warps", "sched", "issue", "RF KB", "memory", "source");
    for (const auto& n : sim::GpuPresetNames()) {
      const sim::GpuConfig& g = *sim::FindGpuPreset(n);
      fmt::print("{:<16} {:>4} {:>6} {:>6} {:>6} {:>6} {:>8} {:>9}  {}\n", n, g.sms, g.core_mhz,
                 g.sm.warps, g.sm.schedulers, g.sm.issue_width, g.sm.registers * 4 / 1024,
                 g.mem.ideal ? "ideal" : "hierarchy", sim::GpuPresetSummary(n));
    }
    return kExitOk;
  }
  const sim::GpuConfig* g = sim::FindGpuPreset(a.name);
  if (g == nullptr) {
    std::string problem = "unknown GPU preset";
    if (auto s = ClosestMatchIn(a.name, sim::GpuPresetNames()))
      problem += fmt::format(" (did you mean '{}'?)", *s);
    throw InputError({}, "gpu show", a.name, problem,
                     fmt::format("{}", fmt::join(sim::GpuPresetNames(), ", ")));
  }
  fmt::print("{}", sim::DescribeGpuPreset(*g));
  return kExitOk;
}

}  // namespace gpurf
