// gpurf gen, lint, verify, synth, characterize and flow: the structure commands, on one target
// (a design point or a single structure), and the flow that chains them.
#include "app/structure_cmds.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/harness_cmd.h"
#include "base/diag.h"
#include "base/fs.h"
#include "base/process.h"
#include "gen/config/hierarchy.h"
#include "gen/output/artifact.h"
#include "gen/output/design_writer.h"
#include "synth/characterize.h"
#include "synth/characterize_report.h"
#include "synth/gebhart_table_iv.h"
#include "synth/liberty.h"
#include "synth/synth.h"
#include "verif/lint/lint.h"

namespace gpurf {

void ReportSkipped(const Target& t) {
  if (!t.design)
    return;
  for (const DesignStructure* s : t.design->Skipped()) {
    spdlog::warn("{}: skipping '{}' ({}): {}", s->loc.str(), s->name, s->role, s->skip_reason);
  }
}

// ------------------------------------------------------------------------------------- gen

// The file that marks a flow's output folder as incomplete until every step has run: written
// with the RTL, removed (and the folder's marker resealed) at the end. A flow killed or failed
// with a tool error leaves it, saying which step was running.
constexpr const char* kFlowIncomplete = "FLOW-INCOMPLETE.txt";

static void MarkFlowStep(const fs::path& dir, const std::string& step) {
  WriteFile(dir / kFlowIncomplete,
            fmt::format("This folder holds an incomplete gpurf flow: it stopped (killed, or a tool "
                        "failed) during step {}.\nRun the same `gpurf flow` command again to "
                        "complete it.\n",
                        step));
}

int CmdGen(const Target& t, const std::string& out_dir, bool flow) {
  StagingDir stage(out_dir);
  if (flow)
    MarkFlowStep(stage.path(), "[1/6] generate");
  if (t.single) {
    const auto gs = t.Generate();
    WriteStructure(stage.path(), gs.front().rtl);
    stage.Commit();
    fmt::print("generated {} ({} files) in {}\n", gs.front().rtl.top, gs.front().rtl.files.size(),
               stage.dest().string());
    return kExitOk;
  }
  ReportSkipped(t);
  const GeneratedDesign g = GenerateDesign(*t.design);
  WriteDesign(stage.path(), g);
  stage.Commit();
  for (const auto& [d, gs] : g.structures) {
    fmt::print("generated {:<10} x{:<3} {} in {}/{}\n", d->name, d->count, gs.top,
               stage.dest().string(), d->name);
  }
  fmt::print(
      "design '{}' (config {}): {} structures generated, {} skipped, manifest {}/manifest.json\n",
      t.design->name, t.design->config_hash, g.structures.size(), t.design->Skipped().size(),
      stage.dest().string());
  return kExitOk;
}

// ------------------------------------------------------------------------------------ lint

static int LintAll(const std::vector<TargetStructure>& structures, const fs::path& work) {
  int failed = 0;
  for (const auto& ts : structures) {
    const fs::path dir = work / ts.rtl.top;
    fs::create_directories(dir);
    WriteStructure(dir, ts.rtl);
    const LintReport rep = LintStructure(ts.rtl, dir);
    for (const auto& f : rep.findings) {
      if (f.waived) {
        spdlog::info("{} [{} {}] waived ({}): {}", rep.top, f.tool, f.view, f.reason, f.message);
      } else {
        fmt::print("{} [{} {}]: {}\n", rep.top, f.tool, f.view, f.message);
      }
    }
    if (rep.clean()) {
      fmt::print("LINT CLEAN {}: {} tool runs, 0 warnings{}\n", rep.top, rep.tools_run.size(),
                 rep.findings.empty() ? "" : fmt::format(", {} waived", rep.findings.size()));
    } else {
      fmt::print("LINT FAIL {}: {} finding(s)\n", rep.top, rep.unwaived());
      ++failed;
    }
  }
  return failed == 0 ? kExitOk : kExitCheckFailed;
}

int CmdLint(const Target& t, const std::string& keep) {
  ReportSkipped(t);
  const auto structures = t.Generate();
  if (!keep.empty()) {
    StagingDir stage(keep);
    const int rc = LintAll(structures, stage.path());
    stage.Commit();
    return rc;
  }
  const TempDir work("gpurf-lint");
  return LintAll(structures, work.path());
}

// ---------------------------------------------------------------------------------- verify

int VerifyAll(const std::vector<TargetStructure>& structures, const VerifyOptions& opt) {
  int failed = 0;
  for (const auto& ts : structures) {
    const VerifyResult r = VerifyStructure(ts.spec, ts.rtl, opt);
    fmt::print("{}\n", r.Summary());
    if (!r.passed())
      ++failed;
  }
  return failed == 0 ? kExitOk : kExitCheckFailed;
}

// ----------------------------------------------------------------------------------- synth

// Synthesizes every unique module of `structures`; warnings (library, zero-area cells, timing)
// go to the log.
static std::vector<ModuleSynthResult> Synthesize(const std::vector<TargetStructure>& structures,
                                                 const std::string& liberty,
                                                 const SynthOptions& opt) {
  const LibertyLibrary lib =
      LoadLiberty(liberty.empty() ? DefaultLibertyPath() : fs::path(liberty));
  for (const auto& w : lib.Warnings())
    spdlog::warn("{}: {}", lib.path.string(), w);
  std::vector<const GeneratedStructure*> gs;
  for (const auto& ts : structures)
    gs.push_back(&ts.rtl);
  auto results = SynthesizeAll(gs, lib, opt);
  for (const auto& r : results) {
    for (const auto& n : r.notes)
      spdlog::warn("{}: {}", r.top, n);
    if (!r.timing.available)
      spdlog::warn("{}: timing unavailable: {}", r.top, r.timing.reason);
  }
  return results;
}

// Writes the synthesis reports atomically into `dir` and prints one line per module.
static void WriteSynthesis(const fs::path& dir, const std::vector<ModuleSynthResult>& results) {
  StagingDir stage(dir);
  WriteSynthesisOutputs(stage.path(), results);
  stage.Commit();
  for (const auto& r : results) {
    fmt::print("SYNTH {}: {:.2f} {} ({} cells{}), {}{}\n", r.top, r.total_area, r.area_unit,
               r.cell_count(),
               r.macro_area > 0 ? fmt::format("; SRAM macros {:.0f} {} from the SRAM model",
                                              r.macro_area, r.area_unit)
                                : "",
               r.timing.available ? fmt::format("critical path {:.3f} ns, fmax {:.1f} MHz",
                                                r.timing.critical_path_ns, r.timing.fmax_mhz)
                                  : "timing unavailable",
               r.from_cache ? " (cached)" : "");
  }
  fmt::print("synthesis reports in {}/synthesis.{{json,csv,md}}\n", stage.dest().string());
}

int CmdSynth(const Target& t, const std::string& liberty, const std::string& out_dir,
             const SynthOptions& opt) {
  ReportSkipped(t);
  const auto results = Synthesize(t.Generate(), liberty, opt);
  if (out_dir.empty()) {
    fmt::print("{}", SynthesisMarkdown(results));
  } else {
    WriteSynthesis(out_dir, results);
  }
  return kExitOk;
}

// ---------------------------------------------------------------------------- characterize

static LibertyLibrary LoadLibraryWithWarnings(const std::string& liberty) {
  const LibertyLibrary lib =
      LoadLiberty(liberty.empty() ? DefaultLibertyPath() : fs::path(liberty));
  for (const auto& w : lib.Warnings())
    spdlog::warn("{}: {}", lib.path.string(), w);
  return lib;
}

static std::vector<ModuleCharacterization> Characterize(
    const std::vector<TargetStructure>& structures, const LibertyLibrary& lib,
    const CharacterizeOptions& opt) {
  // Kinds without an activity driver (synth/activity_driver.h) are reported and left out, not
  // failed.
  std::vector<const GeneratedStructure*> gs;
  for (const auto& ts : structures) {
    if (HasActivityDriver(ts.rtl.kind)) {
      gs.push_back(&ts.rtl);
    } else {
      fmt::print("CHAR {}: skipped, no switching-activity driver for kind '{}' yet\n", ts.rtl.top,
                 ts.rtl.kind);
    }
  }
  if (gs.empty())
    return {};
  auto results = CharacterizeAll(gs, lib, opt);
  for (const auto& r : results) {
    for (const auto& n : r.synth.notes)
      spdlog::warn("{}: {}", r.top(), n);
    for (const auto& n : r.notes)
      spdlog::warn("{}: {}", r.top(), n);
  }
  return results;
}

static void WriteCharacterization(const fs::path& dir,
                                  const std::vector<ModuleCharacterization>& rs,
                                  const CharacterizeOptions& opt) {
  StagingDir stage(dir);
  WriteCharacterizationOutputs(stage.path(), rs, opt);
  stage.Commit();
  for (const auto& r : rs) {
    // The family's own components (beyond read and write) by name, and black-boxed SRAM banks.
    std::string more;
    for (size_t c = kWriteComponent + 1; c < r.components.size(); ++c)
      if (r.components[c].e_pj != 0)
        more += fmt::format(", E_{} {:.3f} pJ", r.components[c].name, r.components[c].e_pj);
    if (!r.synth.macros.empty())
      more += fmt::format(" (+ SRAM bank {:.3f} / {:.3f} pJ per access)", r.macro_e_read_pj,
                          r.macro_e_write_pj);
    fmt::print(
        "CHAR {}: area {:.0f} um^2, E_read {:.3f} pJ, E_write {:.3f} pJ, idle {:.3f} "
        "pJ/cycle, leakage {:.3f} uW{}{}{}\n",
        r.top(), r.synth.total_area, r.e_read_pj(), r.e_write_pj(), r.idle_pj_per_cycle,
        r.leakage_w * 1e6, more,
        r.sta.available ? fmt::format(", OpenSTA dynamic {:+.1f}%", 100 * r.sta.dynamic_diff) : "",
        r.from_cache ? " (cached)" : "");
  }
  fmt::print("characterization reports in {}/characterization.{{json,csv,md}}\n",
             stage.dest().string());
}

int CmdCharacterize(const std::string& target, const std::vector<std::string>& extras, bool gebhart,
                    const std::string& liberty, const std::string& out_dir,
                    const CharacterizeOptions& opt) {
  const LibertyLibrary lib = LoadLibraryWithWarnings(liberty);
  std::vector<TargetStructure> structures;
  if (gebhart) {
    if (!target.empty())
      throw InputError({}, "--gebhart-table-iv", target,
                       "takes no target: it characterizes its own nine arrays",
                       "gpurf characterize --gebhart-table-iv [options]");
    std::vector<int> entries;
    for (const auto& c : GebhartTableIv())
      if (std::find(entries.begin(), entries.end(), c.entries_per_thread * c.warps) ==
          entries.end())
        entries.push_back(c.entries_per_thread * c.warps);
    std::sort(entries.begin(), entries.end());
    for (const int e : entries) {
      const Target t =
          ResolveTarget("flop-array", {"--entries", std::to_string(e), "--width", "128",
                                       "--read-ports", "3", "--write-ports", "1"});
      auto gs = t.Generate();
      structures.push_back(std::move(gs.front()));
    }
  } else {
    if (target.empty())
      throw InputError({}, "target", "", "missing target",
                       "a structure kind with its flags, a design .yaml, or --gebhart-table-iv");
    const Target t = ResolveTarget(target, extras);
    ReportSkipped(t);
    structures = t.Generate();
  }
  const auto results = Characterize(structures, lib, opt);
  if (results.empty())
    throw ToolError(
        "none of the target's structures can be characterized yet (kinds with an "
        "activity driver: see synth/activity_driver.h)");
  if (out_dir.empty())
    fmt::print("{}", CharacterizationMarkdown(results));
  else
    WriteCharacterization(out_dir, results, opt);
  if (gebhart) {
    const auto cmp = CompareWithGebhart([&](int e) -> const ModuleCharacterization* {
      for (const auto& r : results)
        if (r.synth.parameters.contains("entries") && r.synth.parameters["entries"] == e)
          return &r;
      return nullptr;
    });
    fmt::print("\nGebhart et al. Table IV side by side ({}):\n\n{}",
               opt.scale ? fmt::format("ours scaled to {} nm", opt.target_node_nm)
                         : "ours at the library node, unscaled",
               cmp.markdown);
    return cmp.monotonic ? kExitOk : kExitCheckFailed;
  }
  return kExitOk;
}

// ------------------------------------------------------------------------------------ flow

// Per-access energies of the design's levels from its characterization, in the format of
// sim/passes/rf_energies.h, as the design's hierarchy maps them (HierarchyKind::energy_sources,
// gen/config/hierarchy.h): each section from named access components of a design structure's
// module, scaled to the target node unless --no-scale, and written only when every field is
// positive. Levels without a characterized structure keep Gebhart's published figures. Returns
// "" when nothing was characterized.
static std::string EnergiesFromCharacterization(const std::vector<ModuleCharacterization>& rs,
                                                const DesignSpec& design,
                                                const CharacterizeOptions& copt) {
  const HierarchyKind* hierarchy = FindHierarchyKind(design.hierarchy.kind);
  if (hierarchy == nullptr || !hierarchy->energy_sources)
    return "";
  const std::vector<EnergySource> sources = hierarchy->energy_sources(design);
  nlohmann::ordered_json out;
  std::string used;
  for (const auto& r : rs) {
    for (const EnergySource& src : sources) {
      if (src.instance != r.synth.instance || (src.needs_macros && r.synth.macros.empty()))
        continue;
      nlohmann::ordered_json section;
      bool positive = true;
      for (const EnergyField& f : src.fields) {
        const EnergyComponent* c = r.Component(f.component);
        double v = c == nullptr ? 0 : copt.scale ? c->scaled_e_pj : c->e_pj;
        if (f.macro == EnergyField::Macro::kRead)
          v += copt.scale ? r.scaled_macro_e_read_pj : r.macro_e_read_pj;
        else if (f.macro == EnergyField::Macro::kWrite)
          v += copt.scale ? r.scaled_macro_e_write_pj : r.macro_e_write_pj;
        positive = positive && v > 0;
        section[f.field] = v;
      }
      if (!positive)
        continue;
      out[src.section] = std::move(section);
      used += fmt::format("{}{} = {}", used.empty() ? "" : ", ", src.section, r.top());
    }
  }
  if (used.empty())
    return "";
  out["source"] =
      fmt::format("gpurf characterize ({}; {})", used,
                  copt.scale ? fmt::format("scaled to {} nm", copt.target_node_nm) : "unscaled");
  return out.dump(2) + "\n";
}

int CmdFlow(const Target& t, const std::string& out_dir, const VerifyOptions& vopt,
            const CharacterizeOptions& copt) {
  const SynthOptions& sopt = copt.synth;
  fmt::print("[1/6] generate\n");
  if (const int rc = CmdGen(t, out_dir, /*flow=*/true); rc != kExitOk)
    return rc;
  // Each step updates the incomplete marker (and the folder's seal, so that the file stays
  // gpurf's own) before it starts.
  const auto step = [&](const std::string& what) {
    MarkFlowStep(out_dir, what);
    WriteSeal(out_dir, kOutputMarker);
    fmt::print("{}\n", what);
  };
  const auto structures = t.Generate();
  step(fmt::format("[2/6] lint ({} unique modules)", structures.size()));
  const int lint_rc = LintAll(structures, TempDir("gpurf-flow").path());
  step(fmt::format("[3/6] verify ({} cycles per module, seed {})", vopt.cycles, vopt.seed));
  const int verify_rc = VerifyAll(structures, vopt);
  step(fmt::format("[4/6] synthesize onto {}", DefaultLibertyPath().string()));
  const fs::path synth_dir = fs::path(out_dir) / "synthesis";
  WriteSynthesis(synth_dir, Synthesize(structures, "", sopt));
  step(fmt::format("[5/6] characterize (gate-level switching, {} cycles per stimulus set)",
                   copt.cycles));
  const fs::path char_dir = fs::path(out_dir) / "characterization";
  const auto chars = Characterize(structures, LoadLiberty(DefaultLibertyPath()), copt);
  if (chars.empty())
    fmt::print("characterization: no structure of this target has an activity driver yet\n");
  else
    WriteCharacterization(char_dir, chars, copt);

  int energy_rc = kExitOk;
  const fs::path energy_dir = fs::path(out_dir) / "energy";
  if (!t.design) {
    fmt::print(
        "[6/6] energy: skipped, a single structure has no register-file hierarchy to simulate "
        "(give a design .yaml)\n");
  } else {
    step("[6/6] simulate the workload corpus and report register-file energy");
    StagingDir stage(energy_dir);
    HarnessArgs ha;
    ha.designs = {t.design->source};
    ha.workloads = {"all"};
    const std::string energies = EnergiesFromCharacterization(chars, *t.design, copt);
    if (!energies.empty()) {
      ha.energies = (stage.path() / "rf_energies.json").string();
      WriteFile(ha.energies, energies);
    }
    ha.md = (stage.path() / "energy.md").string();
    ha.svg = (stage.path() / "energy.svg").string();
    ha.csv = (stage.path() / "energy.csv").string();
    ha.json = (stage.path() / "energy.json").string();
    ha.title = fmt::format("{}: register-file energy over the corpus", t.design->name);
    energy_rc = RunEnergyCommand(ha);
    nlohmann::ordered_json manifest;
    manifest["generator"] = "gpurf flow (energy step)";
    manifest["design"] = t.design->name;
    manifest["workloads"] = "all corpus workloads";
    manifest["energies"] =
        energies.empty() ? "Gebhart TOCS 2012 Tables IV and V" : "rf_energies.json";
    manifest["files"] = {"energy.md", "energy.svg", "energy.csv", "energy.json"};
    WriteFile(stage.path() / "manifest.json", manifest.dump(2) + "\n");
    if (energy_rc == kExitOk) {
      stage.Commit();
      fmt::print("energy reports in {}/energy.{{md,svg,csv,json}}\n", energy_dir.string());
    }
  }
  // Every step ran: the folder is complete (whatever the checks found).
  fs::remove(fs::path(out_dir) / kFlowIncomplete);
  WriteSeal(out_dir, kOutputMarker);
  const bool ok = lint_rc == kExitOk && verify_rc == kExitOk && energy_rc == kExitOk;
  // Name only the reports that exist.
  std::vector<std::string> reports;
  for (const fs::path& r :
       {synth_dir / "synthesis.md", char_dir / "characterization.md", energy_dir / "energy.md"})
    if (fs::exists(r))
      reports.push_back(r.string());
  fmt::print("flow {}: RTL in {}, lint {}, verify {}, energy {}; reports: {}\n",
             ok ? "PASSED" : "FAILED", out_dir, lint_rc == kExitOk ? "clean" : "FAILED",
             verify_rc == kExitOk ? "passed" : "FAILED",
             !t.design              ? "skipped"
             : energy_rc == kExitOk ? "reported"
                                    : "FAILED",
             reports.empty() ? "none" : fmt::format("{}", fmt::join(reports, ", ")));
  return ok ? kExitOk : kExitCheckFailed;
}

}  // namespace gpurf
