#include "sim/harness/gpu.h"

#include <fmt/format.h>

#include <map>

#include "base/diag.h"

namespace gpurf::harness {

namespace {

std::string PresetList() {
  return fmt::format("{}", fmt::join(sim::GpuPresetNames(), ", "));
}

// Who set a field last: where, under which name (the YAML path or the flag) and to what.
struct Setter {
  SourceLoc loc;
  std::string field;
  std::string value;
  int order = 0;
};

// A command-line flag as a setter (no file location).
Setter Flag(std::string flag, std::string value, int order) {
  Setter s;
  s.field = std::move(flag);
  s.value = std::move(value);
  s.order = order;
  return s;
}

}  // namespace

uint32_t DesignRegisters(const DesignSpec& d) {
  return static_cast<uint32_t>(static_cast<long long>(d.mrf.banks) * d.mrf.entries * d.mrf.width /
                               32);
}

void CheckGpuCliOptions(const GpuCliOptions& cli) {
  if (!cli.preset.empty() && sim::FindGpuPreset(cli.preset) == nullptr) {
    std::string problem = "unknown GPU preset";
    if (auto s = ClosestMatchIn(cli.preset, sim::GpuPresetNames()))
      problem += fmt::format(" (did you mean '{}'?)", *s);
    throw InputError({}, "--gpu", cli.preset, problem, PresetList());
  }
  if (!cli.memory.empty() && cli.memory != "ideal" && cli.memory != "hierarchy")
    throw InputError({}, "--memory", cli.memory, "not a memory model", "ideal, hierarchy");
  if (cli.sms < 0 || cli.sms > 1024)
    throw InputError({}, "--sms", std::to_string(cli.sms), "out of range", "1..1024");
}

sim::GpuConfig ResolveGpu(const DesignSpec& d, const GpuCliOptions& cli) {
  CheckGpuCliOptions(cli);
  const bool cli_preset = !cli.preset.empty();
  const std::string name = cli_preset ? cli.preset : d.gpu.preset;
  const sim::GpuConfig* preset = sim::FindGpuPreset(name);
  if (preset == nullptr) {
    std::string problem = "unknown GPU preset";
    if (auto s = ClosestMatchIn(name, sim::GpuPresetNames()))
      problem += fmt::format(" (did you mean '{}'?)", *s);
    throw InputError(d.gpu.loc, "gpu.preset", name, problem, PresetList());
  }
  sim::GpuConfig g = *preset;
  Setter preset_setter = Flag(cli_preset ? "--gpu" : "gpu.preset", name, 0);
  if (!cli_preset)
    preset_setter.loc = d.gpu.loc;
  std::map<std::string, Setter> set_by;
  int order = 0;

  // 2. The SM the design's register file was built for.
  g.sm.lanes = d.sm.lanes;
  for (const auto& [field, loc] : d.sm.given) {
    const std::string path = "sm." + field;
    if (sim::FindGpuField(path) == nullptr)
      continue;  // lane_cluster: the register file's, not the GPU's
    const std::string value = std::to_string(field == "lanes"   ? d.sm.lanes
                                             : field == "warps" ? d.sm.warps
                                                                : d.sm.active_warps);
    sim::SetGpuField(g, path, value);  // range-checked by the loader already
    set_by[path] = {loc, path, value, ++order};
  }

  // 3. The gpu: section.
  std::vector<std::string> paths = {"preset"};
  for (const auto& f : sim::GpuFields())
    paths.push_back(f.path);
  for (const auto& o : d.gpu.overrides) {
    const std::string field = "gpu." + o.path;
    if (o.path == "sm.lanes") {
      throw InputError(o.loc, field, o.value, "the SIMT width is the design's, not the GPU's",
                       "sm.lanes in the design's sm: section");
    }
    const sim::GpuField* f = sim::FindGpuField(o.path);
    if (f == nullptr) {
      std::string problem = "unknown GPU field";
      if (auto s = ClosestMatchIn(o.path, paths))
        problem += fmt::format(" (did you mean '{}'?)", *s);
      throw InputError(o.loc, field, o.value, problem,
                       "preset and the fields of `gpurf gpu show <preset>`");
    }
    if (auto it = set_by.find(o.path);
        it != set_by.end() && it->second.field == o.path && it->second.value != o.value) {
      throw InputError(o.loc, field, o.value,
                       fmt::format("disagrees with {} = {} at {}", it->second.field,
                                   it->second.value, it->second.loc.str()),
                       "one value: set it in one place");
    }
    if (!sim::SetGpuField(g, o.path, o.value))
      throw InputError(o.loc, field, o.value, "not an allowed value", f->allowed);
    set_by[o.path] = {o.loc, field, o.value, ++order};
  }

  // 4. The command line.
  if (cli.sms > 0) {
    g.sms = cli.sms;
    set_by["sms"] = Flag("--sms", std::to_string(cli.sms), ++order);
  }
  if (!cli.memory.empty()) {
    g.mem.ideal = cli.memory == "ideal";
    set_by["memory"] = Flag("--memory", cli.memory, ++order);
  }

  // The SM's register capacity (what limits resident CTAs) is the GPU's when a preset is named
  // or gpu.sm.registers is written, otherwise the design's MRF capacity: the implicit
  // fermi-gebhart runs every design as it was built. Either way the register-file models use
  // the design's MRF organisation (banks, width, collectors) in each partition.
  if (!cli_preset && !d.gpu.preset_given && set_by.find("sm.registers") == set_by.end())
    g.sm.registers = DesignRegisters(d);

  if (const std::string p = sim::GpuConfigProblem(g); !p.empty()) {
    // At the setter of the field the problem is about, else of the last field it names.
    const std::string first = p.substr(0, p.find(' '));
    const Setter* at = nullptr;
    if (auto it = set_by.find(first); it != set_by.end()) {
      at = &it->second;
    } else {
      for (const auto& [path, s] : set_by) {
        if (p.find(path) != std::string::npos && (at == nullptr || s.order > at->order))
          at = &s;
      }
    }
    if (at == nullptr)
      at = &preset_setter;
    throw InputError(
        at->loc, at->field, at->value,
        fmt::format("inconsistent GPU configuration ({}): {}", name, p),
        "a consistent configuration (`gpurf gpu show " + name + "` lists the preset's values)");
  }
  return g;
}

}  // namespace gpurf::harness
