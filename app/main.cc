// gpurf: command-line entry point. One binary, one subcommand per step of the flow.
//
// Exit codes: 0 ok; 1 a check failed (lint finding, RTL/model mismatch, assertion);
// 2 bad input or usage; 3 a tool or the environment failed (Verilator missing, disk full).

#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "app/harness_cmd.h"
#include "app/passes_cmd.h"
#include "app/prove_cmd.h"
#include "app/target.h"
#include "base/diag.h"
#include "base/fs.h"
#include "base/process.h"
#include "gen/config/hierarchy.h"
#include "gen/config/yaml_loader.h"
#include "gen/output/artifact.h"
#include "gen/output/design_writer.h"
#include "sim/ptx/ptx_parser.h"
#include "sim/workload/launch.h"
#include "synth/characterize.h"
#include "synth/characterize_report.h"
#include "synth/gebhart_table_iv.h"
#include "synth/liberty.h"
#include "synth/synth.h"
#include "verif/lint/lint.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

constexpr int kExitToolError = 3;

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

void MarkFlowStep(const fs::path& dir, const std::string& step) {
  WriteFile(dir / kFlowIncomplete,
            fmt::format("This folder holds an incomplete gpurf flow: it stopped (killed, or a tool "
                        "failed) during step {}.\nRun the same `gpurf flow` command again to "
                        "complete it.\n",
                        step));
}

int CmdGen(const Target& t, const std::string& out_dir, bool flow = false) {
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

int LintAll(const std::vector<TargetStructure>& structures, const fs::path& work) {
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
std::vector<ModuleSynthResult> Synthesize(const std::vector<TargetStructure>& structures,
                                          const std::string& liberty, const SynthOptions& opt) {
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
void WriteSynthesis(const fs::path& dir, const std::vector<ModuleSynthResult>& results) {
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

LibertyLibrary LoadLibraryWithWarnings(const std::string& liberty) {
  const LibertyLibrary lib =
      LoadLiberty(liberty.empty() ? DefaultLibertyPath() : fs::path(liberty));
  for (const auto& w : lib.Warnings())
    spdlog::warn("{}: {}", lib.path.string(), w);
  return lib;
}

std::vector<ModuleCharacterization> Characterize(const std::vector<TargetStructure>& structures,
                                                 const LibertyLibrary& lib,
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

void WriteCharacterization(const fs::path& dir, const std::vector<ModuleCharacterization>& rs,
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
std::string EnergiesFromCharacterization(const std::vector<ModuleCharacterization>& rs,
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

// -------------------------------------------------------------------------------- workload
// `gpurf workload list|show|run`: the PTX workload corpus (sim/workload): parse, allocate
// registers, execute functionally and check against the C++ reference.

struct WorkloadArgs {
  std::string name;
  std::string corpus_dir;
  int max_regs = 63;
  RecordLimit record;  // --max-record-mb of `run`
  CLI::App* list = nullptr;
  CLI::App* show = nullptr;
  CLI::App* run = nullptr;
};

CLI::App* AddWorkloadCommand(CLI::App& app, WorkloadArgs& a) {
  CLI::App* w = app.add_subcommand("workload", "the PTX workload corpus: list, show, run");
  w->require_subcommand(1);
  const std::string corpus_help =
      "corpus folder (default $GPURF_HOME/workloads/corpus, else the source tree's: " +
      sim::DefaultCorpusDir() + ")";
  a.list = w->add_subcommand("list", "list the corpus workloads");
  a.show = w->add_subcommand(
      "show", "the kernel after register allocation: registers, blocks, annotated code");
  a.run = w->add_subcommand(
      "run", "execute functionally, check the outputs against the C++ reference, print counts");
  for (CLI::App* c : {a.list, a.show, a.run})
    c->add_option("--corpus-dir", a.corpus_dir, corpus_help);
  for (CLI::App* c : {a.show, a.run}) {
    c->add_option("workload", a.name, "workload name (see workload list)")->required();
    c->add_option("--max-regs", a.max_regs,
                  "architected registers available per thread (spills beyond)")
        ->check(CLI::Range(16, 255))
        ->capture_default_str();
  }
  AddRecordLimitOption(a.run, a.record);
  return w;
}

std::string RegText(const sim::RegOperand& r) {
  return r.count == 1 ? fmt::format("R{}", r.first)
                      : fmt::format("R{}:{}", r.first, r.first + r.count - 1);
}

std::string InstText(const sim::Instruction& in) {
  std::vector<std::string> d, s;
  for (const auto& r : in.dsts)
    d.push_back(RegText(r));
  for (uint8_t p : in.pred_dsts)
    d.push_back(fmt::format("P{}", p));
  for (const auto& r : in.srcs)
    s.push_back(RegText(r));
  for (uint8_t p : in.pred_srcs)
    s.push_back(fmt::format("P{}", p));
  std::string g =
      in.guard == sim::kNoPred ? "" : fmt::format("@{}P{} ", in.guard_negated ? "!" : "", in.guard);
  std::string t = fmt::format("{}{}", g, in.opcode);
  if (!d.empty() || !s.empty())
    t += fmt::format(" {} <- {}", fmt::join(d, ","), fmt::join(s, ","));
  if (in.target >= 0)
    t += fmt::format(" -> {}", in.target);
  return t;
}

int CmdWorkload(const WorkloadArgs& a) {
  const std::string corpus = a.corpus_dir.empty() ? sim::DefaultCorpusDir() : a.corpus_dir;
  if (a.list->parsed()) {
    for (const auto& n : sim::ListWorkloads(corpus)) {
      const sim::LaunchSpec s = sim::LoadLaunch((fs::path(corpus) / n / "launch.yaml").string());
      fmt::print("{:<22} grid {}x{}x{} block {}x{}x{}  {}\n", n, s.grid.x, s.grid.y, s.grid.z,
                 s.block.x, s.block.y, s.block.z, s.description);
    }
    return kExitOk;
  }
  const sim::LaunchSpec spec = sim::LoadLaunch(sim::WorkloadLaunchPath(corpus, a.name));
  sim::RunOptions opt;
  opt.alloc.max_regs = a.max_regs;
  if (a.record.mb > 0)
    opt.exec.max_recorded_bytes = a.record.mb << 20;
  if (a.show->parsed()) {
    const sim::ptx::CompiledKernel ck =
        sim::ptx::CompileKernel(sim::ptx::LoadPtx(spec.ptx), spec.kernel, opt.alloc);
    const sim::Kernel& k = ck.kernel;
    fmt::print("workload {}: kernel {} from {}\n", spec.name, k.name, k.source);
    fmt::print("  launch: grid {}x{}x{}, block {}x{}x{}\n", spec.grid.x, spec.grid.y, spec.grid.z,
               spec.block.x, spec.block.y, spec.block.z);
    fmt::print(
        "  registers per thread: {} (of {}; {} PTX values, {} spilled, {} spill instructions), "
        "predicates: {}\n",
        k.regs_per_thread, a.max_regs, ck.stats.virtual_regs, ck.stats.spilled_values,
        ck.stats.spill_instructions, k.pred_regs);
    fmt::print("  shared memory: {} bytes per CTA, local memory: {} bytes per thread\n",
               k.shared_bytes, k.local_bytes);
    fmt::print("  {} instructions in {} basic blocks\n", k.code.size(), k.blocks.size());
    for (uint32_t b = 0; b < k.blocks.size(); ++b) {
      const sim::BasicBlock& bb = k.blocks[b];
      std::vector<std::string> succ;
      for (uint32_t x : bb.succs)
        succ.push_back(x == sim::kExitBlock ? "exit" : fmt::format("B{}", x));
      fmt::print("B{}: [{}..{}) succs {} ipdom {}\n", b, bb.first, bb.end, fmt::join(succ, ","),
                 bb.ipdom == sim::kExitBlock ? "exit" : fmt::format("B{}", bb.ipdom));
      for (uint32_t i = bb.first; i < bb.end; ++i) {
        const sim::Instruction& in = k.code[i];
        fmt::print("  {:4}  {:<7}{:<3} {}\n", i, sim::OpClassName(in.op_class),
                   in.long_latency ? "LL" : "", InstText(in));
      }
    }
    return kExitOk;
  }
  const auto r = sim::RunWorkload(spec, opt);
  const sim::Kernel& k = r->compiled.kernel;
  const uint64_t ti = r->run.ThreadInstructions();
  for (const auto& o : r->outputs) {
    if (o.mismatches == 0)
      fmt::print("  output {}: {} elements match the reference (max relative error {:.3g})\n",
                 o.buffer, o.elements, o.max_error);
    else
      fmt::print("  output {}: {} of {} elements differ from the reference; first {}\n", o.buffer,
                 o.mismatches, o.elements, o.first_mismatch);
  }
  fmt::print(
      "{} {}: {} warps, {} warp instructions, {} thread instructions, {} registers per thread "
      "({} spilled values), {:.3f} CPU s ({:.1f} M thread-instructions/s)\n",
      r->passed() ? "PASS" : "FAIL", spec.name, r->run.warps.size(), r->run.WarpInstructions(), ti,
      k.regs_per_thread, r->compiled.stats.spilled_values, r->exec_seconds,
      r->exec_seconds > 0 ? static_cast<double>(ti) / r->exec_seconds / 1e6 : 0.0);
  return r->passed() ? kExitOk : kExitCheckFailed;
}

// CLI11's own parse errors ("Value abc not in range 1 to 64", "--workload is required", "At Most
// 1 required but received 2") in gpurf's format: the flag, the problem, the value given and what
// is allowed, as InputError prints them.
std::string CliErrorMessage(const CLI::ParseError& e, const std::vector<std::string>& commands) {
  const std::string msg = e.what();
  if (msg.starts_with("A subcommand is required"))
    return InputError({}, "subcommand", "", "required but not given",
                      fmt::format("{}", fmt::join(commands, ", ")))
        .what();
  std::smatch m;
  // Returns the text by value: what() of the temporary InputError dies with it.
  const auto format = [](const std::string& field, const std::string& value,
                         const std::string& problem, const std::string& allowed) -> std::string {
    return InputError({}, field, value, problem, allowed).what();
  };
  if (std::regex_match(msg, m, std::regex(R"(^(\S+): Value (.*) not in range (.*) to (.*)$)")))
    return format(m[1], m[2],
                  std::regex_match(m[2].str(), std::regex(R"(^[-+]?[0-9.eE+-]+$)"))
                      ? "out of range"
                      : "not a number",
                  fmt::format("{} to {}", m[3].str(), m[4].str()));
  if (std::regex_match(msg, m, std::regex(R"(^(.+) is required$)")))
    return format(m[1], "", "required but not given", "");
  if (std::regex_match(msg, m, std::regex(R"(^(\S+): At Most (\d+) required but received (\d+)$)")))
    return format(m[1], "", fmt::format("given {} times", m[3].str()),
                  fmt::format("at most {}", m[2].str()));
  if (std::regex_match(msg, m, std::regex(R"(^Could not convert: (\S+) = (.*)$)")))
    return format(m[1], m[2], "not a valid value", "see --help");
  if (std::regex_match(msg, m,
                       std::regex(R"(^The following arguments? (?:was|were) not expected: (.*)$)")))
    return format("arguments", m[1], "unexpected", "see --help");
  if (std::regex_match(msg, m, std::regex(R"(^(-\S+): (.*)$)")))
    return format(m[1], "", m[2], "");
  return format("", "", msg, "");
}

// Unsigned options: CLI11 converts "-1" to 2^64 - 1 without a word; reject the sign instead.
// Also rejects values beyond 2^64 - 1, which CLI11 would silently saturate.
const CLI::Validator kNonNegative(
    [](std::string& v) -> std::string {
      uint64_t x = 0;
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
      return ec == std::errc() && end == v.data() + v.size()
                 ? std::string()
                 : fmt::format("Value {} not in range 0 to 18446744073709551615", v);
    },
    "NONNEGATIVE");

void AddVerifyOptions(CLI::App* cmd, VerifyOptions& v, std::string& cache, std::string& waves) {
  cmd->add_option("--cycles", v.cycles, "cycles to simulate per structure")
      ->check(CLI::Range(uint64_t{1}, uint64_t{10000000000ULL}))
      ->capture_default_str();
  cmd->add_option("--seed", v.seed, "stimulus seed")->check(kNonNegative)->capture_default_str();
  cmd->add_option("-j,--jobs", v.build.jobs, "parallel compile jobs for Verilator builds")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--cache-dir", cache,
                  "cache of built Verilator models (default $GPURF_CACHE_DIR or ~/.cache/gpurf)");
  cmd->add_option("--waveform-dir", waves, "where a failing run leaves its VCD")
      ->capture_default_str();
}

int Main(int argc, char** argv) {
  // Children in their own process groups, temporaries removed and children stopped when gpurf
  // is interrupted or killed (base/process.h). First, before any thread exists.
  StartProcessGuardian();
  // Results go to stdout, logs to stderr: line-buffer stdout so the two interleave in order when
  // both are redirected to one file (CI logs).
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  CLI::App app{"gpurf: GPU register-file architecture research tool (generate, lint, verify)",
               "gpurf"};
  app.set_version_flag("--version", std::string("gpurf ") + GeneratorVersion());
  app.require_subcommand(1);
  bool verbose = false, quiet = false;
  app.add_flag("-v,--verbose", verbose, "more log output (debug)");
  app.add_flag("-q,--quiet", quiet, "only warnings and errors");

  std::string target, out_dir, keep, cache, waves = ".";
  bool list = false;
  VerifyOptions vopt;
  const std::string target_help = "structure kind (see gen --list) or design .yaml file";
  const std::string footer =
      "Structure parameters follow the kind as --name value, e.g.\n"
      "  gpurf gen flop-array --entries 48 --width 128 --read-ports 3 --write-ports 1 -o out/";

  CLI::App* gen = app.add_subcommand("gen", "generate Verilog, filelist.f and manifest.json");
  gen->add_option("target", target, target_help);
  gen->add_option("-o,--output", out_dir, "output folder (written atomically)");
  gen->add_flag("--list", list, "list structure kinds and their parameters");
  gen->allow_extras();
  gen->footer(footer);

  CLI::App* lint =
      app.add_subcommand("lint", "lint generated RTL with Verilator, Yosys and Icarus");
  lint->add_option("target", target, target_help)->required();
  lint->add_option("--keep", keep, "keep the linted RTL in this folder");
  lint->allow_extras();
  lint->footer(footer);

  CLI::App* verify =
      app.add_subcommand("verify", "verify generated RTL against its golden model with Verilator");
  verify->add_option("target", target, target_help)->required();
  AddVerifyOptions(verify, vopt, cache, waves);
  verify->allow_extras();
  verify->footer(footer);

  CLI::App* flow =
      app.add_subcommand("flow",
                         "the main flow on a design point: generate -> lint -> verify -> "
                         "synthesize -> characterize -> simulate the corpus and report energy");
  flow->add_option("target", target, "design .yaml file or structure kind")->required();
  flow->add_option("-o,--output", out_dir, "output folder for the generated RTL")->required();
  AddVerifyOptions(flow, vopt, cache, waves);
  flow->allow_extras();

  std::string liberty, synth_out;
  SynthOptions sopt;
  CLI::App* synth = app.add_subcommand(
      "synth", "synthesize generated RTL with Yosys onto a Liberty library; area and timing");
  synth->add_option("target", target, target_help)->required();
  synth->add_option("--liberty", liberty,
                    "Liberty library (default " + DefaultLibertyPath().string() + ")");
  synth->add_option("-j,--jobs", sopt.jobs, "modules synthesized in parallel")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  synth->add_option("-o,--output", synth_out,
                    "output folder: netlists, logs, synthesis.{json,csv,md} (written atomically); "
                    "without it the table is printed");
  synth->add_option("--cache-dir", cache,
                    "cache of synthesized modules (default $GPURF_CACHE_DIR or ~/.cache/gpurf)");
  synth->allow_extras();
  synth->footer(footer);

  // Workloads: the PTX corpus (list/show/run) and trace/kernel analysis (app/passes_cmd.h).
  WorkloadArgs wargs;
  CLI::App* workload = AddWorkloadCommand(app, wargs);
  AnalyzeArgs analyze_args;
  CLI::App* analyze = AddWorkloadAnalyzeCommand(workload, analyze_args);
  CompileArgs compile_args;
  CLI::App* compile = AddCompileCommand(app, compile_args);
  std::string char_out;
  std::string char_target;
  bool gebhart = false, no_scale = false, no_sta = false;
  int library_node = 0;
  CharacterizeOptions copt;
  CLI::App* characterize = app.add_subcommand(
      "characterize",
      "per-access energy from gate-level switching (Verilator on the mapped netlist), area, "
      "fmax, OpenSTA power cross-check, scaled to a target node");
  characterize->add_option("target", char_target, target_help);
  characterize->add_option("--liberty", liberty,
                           "Liberty library (default " + DefaultLibertyPath().string() + ")");
  characterize->add_option("-j,--jobs", copt.synth.jobs, "modules processed in parallel")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  characterize
      ->add_option("--accesses", copt.cycles,
                   "cycles per stimulus set (reads: every read port reads every cycle)")
      ->check(CLI::Range(uint64_t{10}, uint64_t{100000000}))
      ->capture_default_str();
  characterize->add_option("--seed", copt.seed, "stimulus seed")
      ->check(kNonNegative)
      ->capture_default_str();
  characterize->add_flag("--no-scale", no_scale, "report at the library's node only");
  characterize
      ->add_option("--target-node", copt.target_node_nm,
                   "node to scale to, nm (Stillmaker & Baas 2017)")
      ->check(CLI::Range(32, 180))
      ->capture_default_str();
  characterize
      ->add_option("--library-node", library_node,
                   "the library's node, nm (default: from its name, osu018 = 180)")
      ->check(CLI::Range(32, 180));
  characterize
      ->add_option("--slew", copt.energy.slew_ns,
                   "input slew at which internal-power tables are read, ns")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  characterize
      ->add_option("--wire-cap-per-fanout", copt.energy.wire_cap_per_fanout_pf,
                   "wire-load estimate per fanout, pF")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  characterize->add_flag("--no-sta-check", no_sta, "skip the OpenSTA report_power cross-check");
  characterize->add_flag("--gebhart-table-iv", gebhart,
                         "characterize the nine 3R1W 128-bit arrays of Gebhart Table IV and "
                         "print them next to the paper's (exit 1 if not monotonic)");
  characterize->add_option("-o,--output", char_out,
                           "output folder: characterization.{json,csv,md} (written atomically); "
                           "without it the table is printed");
  characterize->add_option("--cache-dir", cache,
                           "cache (default $GPURF_CACHE_DIR or ~/.cache/gpurf)");
  characterize->allow_extras();
  characterize->footer(footer);
  // Register files in the SM harness (app/harness_cmd.h).
  HarnessArgs sim_args, energy_args;
  CLI::App* sim_cmd = AddSimCommand(app, sim_args);
  CLI::App* energy_cmd = AddEnergyCommand(app, energy_args);
  ProveArgs prove_args;
  CLI::App* prove_cmd = AddProveCommand(app, prove_args);

  const std::vector<std::string> names = {"gen",    "lint",         "verify",  "flow",
                                          "synth",  "workload",     "compile", "sim",
                                          "energy", "characterize", "prove"};
  // CLI11 reports a mistyped subcommand only as "a subcommand is required"; name it instead.
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.starts_with("-"))
      continue;
    if (std::find(names.begin(), names.end(), a) == names.end()) {
      std::string msg = fmt::format("gpurf: error: unknown subcommand '{}'", a);
      if (auto s = ClosestMatchIn(a, names))
        msg += fmt::format(" (did you mean '{}'?)", *s);
      fmt::print(stderr, "{}; allowed: {}\nRun with --help for more information.\n", msg,
                 fmt::join(names, ", "));
      return kExitBadInput;
    }
    break;
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "gpurf: {}\nRun with --help for more information.\n",
               CliErrorMessage(e, names));
    return kExitBadInput;
  }

  auto logger = spdlog::stderr_color_mt("gpurf");
  logger->set_pattern("%^%l%$: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(verbose ? spdlog::level::debug
                    : quiet ? spdlog::level::warn
                            : spdlog::level::info);
  if (!cache.empty()) {
    vopt.build.cache_dir = cache;
    sopt.cache_dir = cache;
    copt.synth.cache_dir = cache;
  }
  copt.scale = !no_scale;
  copt.sta_check = !no_sta;
  if (library_node > 0)
    copt.library_node_nm = library_node;
  vopt.waveform_dir = waves;

  try {
    if (gen->parsed()) {
      if (list) {
        fmt::print("{}\nDesign files (YAML):\n{}", ListStructures(), DesignSchemaReference());
        return kExitOk;
      }
      const Target t = ResolveTarget(target, gen->remaining());
      if (out_dir.empty())
        throw InputError({}, "-o", "", "missing output folder", "-o DIR");
      return CmdGen(t, out_dir);
    }
    if (lint->parsed())
      return CmdLint(ResolveTarget(target, lint->remaining()), keep);
    if (verify->parsed()) {
      const Target t = ResolveTarget(target, verify->remaining());
      ReportSkipped(t);
      return VerifyAll(t.Generate(), vopt);
    }
    if (flow->parsed()) {
      copt.synth.cache_dir = sopt.cache_dir;
      copt.synth.jobs = sopt.jobs;
      return CmdFlow(ResolveTarget(target, flow->remaining()), out_dir, vopt, copt);
    }
    if (characterize->parsed())
      return CmdCharacterize(char_target, characterize->remaining(), gebhart, liberty, char_out,
                             copt);
    if (synth->parsed())
      return CmdSynth(ResolveTarget(target, synth->remaining()), liberty, synth_out, sopt);
    if (analyze->parsed())
      return RunWorkloadAnalyze(analyze_args);
    if (compile->parsed())
      return RunCompile(compile_args);
    if (sim_cmd->parsed())
      return RunSimCommand(sim_args);
    if (energy_cmd->parsed())
      return RunEnergyCommand(energy_args);
    if (prove_cmd->parsed())
      return RunProveCommand(prove_cmd, prove_args);
    if (workload->parsed())
      return CmdWorkload(wargs);
  } catch (const InputError& e) {
    fmt::print(stderr, "gpurf: {}\n", e.what());
    return kExitBadInput;
  } catch (const ToolError& e) {
    fmt::print(stderr, "gpurf: {}\n", e.what());
    return kExitToolError;
  } catch (const fs::filesystem_error& e) {
    fmt::print(stderr, "gpurf: {}\n", e.what());
    return kExitToolError;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr,
               "gpurf: error: out of memory (an input too large for this machine; the limits are "
               "in the README)\n");
    return kExitToolError;
  } catch (const std::exception& e) {
    // A defect of gpurf's, reported as one rather than as a crash.
    fmt::print(stderr, "gpurf: internal error: {} (please report it)\n", e.what());
    return kExitToolError;
  }
  return kExitBadInput;
}

}  // namespace
}  // namespace gpurf

int main(int argc, char** argv) {
  return gpurf::Main(argc, argv);
}
