#include "synth/characterize.h"

#include <fmt/format.h>
#include <pthread.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>

#include "base/cache.h"
#include "base/diag.h"
#include "base/parallel.h"
#include "synth/characterize_cache.h"
#include "synth/characterize_fit.h"
#include "synth/characterize_scaling.h"
#include "synth/gate_netlist.h"
#include "synth/gate_sim.h"
#include "synth/macro_cut.h"

namespace gpurf {
namespace {

// Runs `f` on a thread with a 1 GiB stack (address space, committed only as used) and rethrows
// its exception. Verilator puts the temporaries of a large netlist's settle/eval functions on
// the stack: the 48x128 3R1W array's probe concatenation overflows the default 8 MiB.
void RunWithLargeStack(const std::function<void()>& f) {
  struct Call {
    const std::function<void()>* f;
    std::exception_ptr error;
  } call{&f, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t{1} << 30);
  pthread_t t;
  const auto body = [](void* p) -> void* {
    auto* c = static_cast<Call*>(p);
    try {
      (*c->f)();
    } catch (...) {
      c->error = std::current_exception();
    }
    return nullptr;
  };
  const int rc = pthread_create(&t, &attr, body, &call);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    f();  // no thread: run here
    return;
  }
  pthread_join(t, nullptr);
  if (call.error)
    std::rethrow_exception(call.error);
}

void Progress(const CharacterizeOptions& opt, const std::string& line) {
  if (opt.progress)
    opt.progress(line);
  else
    spdlog::info("{}", line);
}

}  // namespace

const EnergyComponent* ModuleCharacterization::Component(std::string_view name) const {
  for (const auto& c : components)
    if (c.name == name)
      return &c;
  return nullptr;
}

double ModuleCharacterization::e_read_pj() const {
  return components.size() > kReadComponent ? components[kReadComponent].e_pj : 0;
}
double ModuleCharacterization::e_write_pj() const {
  return components.size() > kWriteComponent ? components[kWriteComponent].e_pj : 0;
}
double ModuleCharacterization::scaled_e_read_pj() const {
  return components.size() > kReadComponent ? components[kReadComponent].scaled_e_pj : 0;
}
double ModuleCharacterization::scaled_e_write_pj() const {
  return components.size() > kWriteComponent ? components[kWriteComponent].scaled_e_pj : 0;
}

ModuleCharacterization CharacterizeModule(const GeneratedStructure& g,
                                          const ModuleSynthResult& synth, const LibertyLibrary& lib,
                                          const CharacterizeOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  ModuleCharacterization r;
  r.synth = synth;
  const fs::path dir = CharacterizationCacheEntry(g, synth, opt);
  if (VerifyCacheEntry(dir, "characterization of " + g.top, {"result.json"})) {
    try {
      // Today's components and wording, not the cached ones.
      ReadCharacterizationResult(nlohmann::json::parse(ReadFile(dir / "result.json")),
                                 MakeActivityDriver(g)->Components(), r);
      r.from_cache = true;
      ApplyScaling(r, lib, opt);
      ApplyMacroEnergies(r, lib, opt);
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      Progress(opt, fmt::format("characterize {}: from cache", g.top));
      return r;
    } catch (const nlohmann::json::exception& e) {
      spdlog::warn("ignoring unreadable characterization cache {}: {}", dir.string(), e.what());
      r.sets.clear();
      r.notes.clear();
    }
  }

  fs::path json = synth.work_dir / "netlist.json";
  if (!fs::exists(json))
    throw ToolError(fmt::format("{}: the synthesis result {} has no netlist.json", g.top,
                                synth.work_dir.string()));
  // Black-boxed SRAM macros: simulate the logic around them, the driver plays the banks.
  const GeneratedStructure* sim_g = &g;
  std::optional<TempDir> cut_dir;
  MacroCut cut;
  if (!synth.macros.empty()) {
    cut_dir.emplace("gpurf-macro-cut");
    cut = CutSramMacros(g, json, cut_dir->path() / "netlist.json");
    json = cut_dir->path() / "netlist.json";
    sim_g = &cut.rtl;
  }
  const GateNetlist nl = ReadYosysJsonNetlist(json, g.top, lib);
  const EnergyModel model = BuildEnergyModel(nl, lib, opt.energy);
  auto driver = MakeActivityDriver(*sim_g);
  r.components = DeclaredComponents(driver->Components());
  r.period_ns = opt.synth.clock_period_ns;
  r.slew_ns = opt.energy.slew_ns;
  r.wire_cap_per_fanout_pf = opt.energy.wire_cap_per_fanout_pf;
  r.vdd_v = model.vdd_v;
  r.seed = opt.seed;
  r.nets = static_cast<int>(nl.nets.size());
  r.leakage_w = model.leakage_w;
  r.leakage_pj_per_cycle = model.leakage_w * r.period_ns * 1e3;
  r.notes = model.notes;

  CacheBuild build(dir.parent_path(), dir.filename().string());
  const fs::path& tmp = build.path();
  {
    BuildOptions bopt;
    bopt.cache_dir = opt.synth.cache_dir;
    bopt.jobs = std::max(1, opt.build_jobs);
    bopt.trace = false;
    // The gate model runs a few thousand cycles per set: compile time dominates, and -O0 builds
    // a flat netlist of tens of thousands of cells about 10x faster than Verilator's default
    // -Os for its eval code (OPT_FAST, which would override `opt`).
    bopt.opt = "-O0";
    bopt.make_flags = "OPT_FAST=-O0 OPT_SLOW=-O0";
    Progress(opt, fmt::format("characterize {}: building the gate-level simulation ({} cells, {} "
                              "nets) with Verilator",
                              g.top, nl.cells.size(), nl.nets.size()));
    GateSimulator sim(nl, lib, *sim_g, bopt);
    ActivityRng rng(opt.seed);
    ToggleRun mixed;
    RunWithLargeStack([&]() {
      sim.Start(*driver, rng);
      std::vector<StimulusSet> sets = StandardStimulusSets();
      for (const StimulusSet& extra : driver->ExtraSets())
        sets.push_back(extra);
      for (size_t i = 0; i < sets.size(); ++i) {
        const StimulusSet& set = sets[i];
        Progress(opt, fmt::format("characterize {}: [{}/{}] {} set, {} cycles", g.top, i + 1,
                                  sets.size(), set, opt.cycles));
        ToggleRun run = sim.Run(*driver, set, opt.cycles, r.period_ns, rng, model.arcs);
        StimulusSetResult sr;
        sr.set = set;
        sr.cycles = run.cycles;
        sr.accesses = run.accesses;
        sr.energy = PriceRun(run, nl, model);
        r.sets.push_back(sr);
        if (set == kMixedSet)
          mixed = std::move(run);
      }
    });
    FitStimulusSets(r);
    if (opt.sta_check) {
      Progress(opt, fmt::format("characterize {}: OpenSTA power cross-check", g.top));
      r.sta = CrossCheckWithOpenSta(nl, lib, model, opt.energy, mixed, tmp);
      if (!r.sta.available)
        r.notes.push_back("OpenSTA power check unavailable: " + r.sta.reason);
      else if (std::abs(r.sta.dynamic_diff) > opt.sta_tolerance)
        r.notes.push_back(
            fmt::format("dynamic power differs from OpenSTA's by {:+.1f}% (tolerance {:.0f}%)",
                        100 * r.sta.dynamic_diff, 100 * opt.sta_tolerance));
    } else {
      r.sta.reason = "disabled";
    }
    WriteFile(tmp / "result.json", CharacterizationResultJson(r).dump(2) + "\n");
    build.Publish("characterization of " + g.top);
  }
  ApplyScaling(r, lib, opt);
  ApplyMacroEnergies(r, lib, opt);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Progress(opt, fmt::format("characterize {}: E_read {:.3f} pJ, E_write {:.3f} pJ, idle {:.3f} "
                            "pJ/cycle in {:.1f} s",
                            g.top, r.e_read_pj(), r.e_write_pj(), r.idle_pj_per_cycle, r.seconds));
  return r;
}

std::vector<ModuleCharacterization> CharacterizeAll(
    const std::vector<const GeneratedStructure*>& gs, const LibertyLibrary& lib,
    const CharacterizeOptions& opt) {
  // Fail early, before any tool runs, on a kind without a driver or an unknown node.
  for (const auto* g : gs)
    if (!HasActivityDriver(g->kind))
      throw ToolError(
          fmt::format("{}: no activity driver for structure kind '{}'", g->top, g->kind));
  if (opt.scale && !opt.library_node_nm && !GuessLibraryNodeNm(lib))
    throw InputError({}, "--library-node", lib.name,
                     "cannot tell the library's technology node from its name",
                     "--library-node NM (e.g. 180), or --no-scale");
  lib.EnergyUnitPj();
  const auto synth = SynthesizeAll(gs, lib, opt.synth);
  std::vector<ModuleCharacterization> out(gs.size());
  const size_t n = ParallelThreads(gs.size(), opt.synth.jobs);
  CharacterizeOptions mopt = opt;
  mopt.build_jobs = std::max(1, opt.synth.jobs / static_cast<int>(std::max<size_t>(1, n)));
  ParallelFor(gs.size(), opt.synth.jobs,
              [&](size_t i) { out[i] = CharacterizeModule(*gs[i], synth[i], lib, mopt); });
  return out;
}

}  // namespace gpurf
