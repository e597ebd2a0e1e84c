#include "app/passes_cmd.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>

#include "base/diag.h"
#include "base/fs.h"
#include "gen/config/yaml_loader.h"
#include "sim/accelsim/trace_import.h"
#include "sim/harness/hierarchy.h"
#include "sim/passes/analysis.h"
#include "sim/passes/value_usage.h"
#include "sim/ptx/ptx_parser.h"
#include "sim/workload/launch.h"

namespace gpurf {

namespace sp = sim::passes;

void AddRecordLimitOption(CLI::App* cmd, RecordLimit& limit) {
  cmd->add_option("--max-record-mb", limit.mb,
                  fmt::format("memory a PTX workload's functional run may record (instruction "
                              "stream and register values), in MiB (default {})",
                              sim::ExecOptions::kDefaultMaxRecordedBytes >> 20))
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 20));
}

void AddMaxRegsOption(CLI::App* cmd, int& max_regs) {
  cmd->add_option("--max-regs", max_regs,
                  "architected registers per thread when compiling PTX (spills beyond)")
      ->check(CLI::Range(16, 255))
      ->capture_default_str();
}

namespace {

[[noreturn]] void OutputError(const std::string& path, const std::string& option,
                              const std::string& problem) {
  throw InputError({}, option, path, problem, "a writable file path in an existing folder");
}

}  // namespace

void CheckOutputPath(const std::string& path, const std::string& option) {
  if (path.empty())
    OutputError(path, option, "empty path");
  std::error_code ec;
  const fs::path p(path);
  const fs::file_status st = fs::status(p, ec);
  if (fs::is_directory(st))
    OutputError(path, option, "is a folder, not a file");
  if (fs::exists(st) && !fs::is_regular_file(st))
    return;  // a device or FIFO, written in place
  const fs::path parent = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  if (!fs::is_directory(parent, ec))
    OutputError(path, option, fmt::format("folder '{}' does not exist", parent.string()));
  if (::access(parent.c_str(), W_OK | X_OK) != 0)
    OutputError(path, option,
                fmt::format("cannot create files in folder '{}': {}", parent.string(),
                            std::strerror(errno)));
  if (fs::exists(st) && ::access(p.c_str(), W_OK) != 0)
    OutputError(path, option, fmt::format("the file is not writable: {}", std::strerror(errno)));
}

void WriteOutputFile(const std::string& path, const std::string& text, const std::string& option) {
  CheckOutputPath(path, option);
  const fs::path p(path);
  std::error_code ec;
  if (fs::exists(p, ec) && !fs::is_regular_file(p, ec)) {  // /dev/stdout, a FIFO
    std::ofstream f(p, std::ios::binary);
    if (!f)
      OutputError(path, option, fmt::format("cannot open for writing: {}", std::strerror(errno)));
    f << text;
    f.flush();
    if (!f)
      throw ToolError(fmt::format("{} {}: write failed: {}", option, path, std::strerror(errno)));
    return;
  }
  const fs::path parent = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  static int counter = 0;
  const fs::path tmp =
      parent / fmt::format(".{}.tmp-{}-{}", p.filename().string(), ::getpid(), counter++);
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f)
      OutputError(path, option,
                  fmt::format("cannot create a file in folder '{}': {}", parent.string(),
                              std::strerror(errno)));
    f << text;
    f.close();
    if (!f) {
      const int err = errno;
      fs::remove(tmp, ec);
      throw ToolError(fmt::format("{} {}: write failed: {}", option, path, std::strerror(err)));
    }
  }
  fs::rename(tmp, p, ec);
  if (ec) {
    fs::remove(tmp, ec);
    OutputError(path, option, fmt::format("cannot replace the file: {}", ec.message()));
  }
}

WorkloadKernels LoadWorkloadKernels(const std::string& path, const RecordLimit& limit,
                                    const PtxLoadOptions& ptx) {
  // A PTX workload: a launch file, or the name of a corpus workload. It is executed
  // functionally, so the analyses see its dynamic stream with register values.
  const bool is_launch = path.ends_with(".yaml") || path.ends_with(".yml");
  const bool is_corpus_name =
      !fs::exists(path) && path.find('/') == std::string::npos && !path.ends_with(".ptx");
  if (is_launch || is_corpus_name) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::string launch =
        is_launch ? path : sim::WorkloadLaunchPath(sim::DefaultCorpusDir(), path);
    sim::RunOptions ro;
    ro.alloc.max_regs = ptx.max_regs;
    ro.exec.record_values = ptx.values;
    if (limit.mb > 0)
      ro.exec.max_recorded_bytes = limit.mb << 20;
    auto run = std::shared_ptr<sim::WorkloadRun>(sim::RunWorkload(sim::LoadLaunch(launch), ro));
    WorkloadKernels w;
    w.import_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (const auto& l : run->launches)
      w.kernels.push_back({&l->compiled->kernel, &l->run, l->label});
    w.owner = run;
    return w;
  }
  {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st))
      throw InputError(SourceLoc{path, 0, 0}, "workload", path,
                       "not a regular file or folder (a device, FIFO or socket)",
                       "a launch.yaml, a corpus workload name, or an Accel-Sim trace folder, "
                       "kernelslist.g or .traceg file");
  }
  if (path.ends_with(".ptx")) {
    if (!ptx.allow_ptx_alone)
      throw InputError(SourceLoc{path, 0, 0}, "workload", path,
                       "a PTX file alone has no launch configuration to execute (gpurf compile "
                       "and gpurf workload show take a PTX file alone)",
                       "its launch.yaml, a corpus workload name (gpurf workload list), or an "
                       "Accel-Sim trace folder, kernelslist.g or .traceg file");
    // Static: every kernel of the module, compiled, no run.
    const auto t0 = std::chrono::steady_clock::now();
    const sim::ptx::PtxModule module = sim::ptx::LoadPtx(path);
    sim::ptx::AllocOptions ao;
    ao.max_regs = ptx.max_regs;
    auto compiled = std::make_shared<std::vector<sim::ptx::CompiledKernel>>();
    compiled->reserve(module.entries.size());
    for (const auto& e : module.entries)
      compiled->push_back(sim::ptx::CompileKernel(module, e.name, ao));
    WorkloadKernels w;
    w.import_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (const auto& ck : *compiled)
      w.kernels.push_back({&ck.kernel, nullptr, ""});
    w.owner = compiled;
    return w;
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto trace = std::make_shared<sim::accelsim::TraceWorkload>(sim::accelsim::ImportTrace(path));
  WorkloadKernels w;
  w.import_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  w.bytes = trace->bytes;
  for (const auto& k : trace->kernels)
    w.kernels.push_back({k.kernel.get(), &k.run, ""});
  w.owner = trace;
  return w;
}

namespace {

sp::PassOptions OptionsFor(const std::string& config, const std::string& energies,
                           std::string* note) {
  sp::PassOptions o;
  int active_warps = 8;
  if (!config.empty()) {
    const DesignSpec d = LoadDesign(config);
    active_warps = d.sm.active_warps;
    o = harness::PassOptionsFor(d);
    o.release.resident_warps = d.sm.warps;
    if (note != nullptr)
      *note = harness::HarnessHierarchyOf(d).compiler_note(d);
  }
  o.energies = sp::DefaultEnergies(o, active_warps);
  if (!energies.empty())
    o.energies = sp::LoadRegisterFileEnergies(energies, o.energies);
  return o;
}

bool Selected(const sim::Kernel& k, const std::string& filter) {
  return filter.empty() || k.name.find(filter) != std::string::npos;
}

// A --kernel filter that selects nothing is a mistake, not an empty report.
void CheckFilter(const WorkloadKernels& w, const std::string& filter, const std::string& workload) {
  if (filter.empty())
    return;
  std::vector<std::string> names;
  for (const auto& item : w.kernels) {
    if (Selected(*item.kernel, filter))
      return;
    names.push_back(item.kernel->name);
  }
  throw InputError(
      {}, "--kernel", filter,
      fmt::format("no kernel of workload {} has a name containing this text", workload),
      names.empty() ? std::string("(the workload has no kernels)")
                    : fmt::format("a part of {}", fmt::join(names, ", ")));
}

// Which launch an item is, and whether its counts are dynamic.
std::string LaunchHeader(const WorkloadKernels::Item& item) {
  std::string h;
  if (!item.launch.empty())
    h += fmt::format("launch {} (kernel {})\n", item.launch, item.kernel->name);
  if (item.run == nullptr)
    h += "static counts: no launch given, every instruction counted once\n";
  return h;
}

}  // namespace

CLI::App* AddWorkloadAnalyzeCommand(CLI::App* workload, AnalyzeArgs& a) {
  CLI::App* cmd = workload->add_subcommand(
      "analyze", "value usage, strands and ORF allocation of a workload's kernels");
  cmd->add_option("workload", a.workload,
                  "launch.yaml, corpus workload name, Accel-Sim trace folder (kernelslist.g + "
                  "kernel-N.traceg), kernelslist.g or .traceg file")
      ->required();
  cmd->add_option("--config", a.config,
                  "design .yaml whose hierarchy to allocate for (default: 3 levels, 3 L1 "
                  "entries, split L0)");
  cmd->add_option("--energies", a.energies,
                  "per-access energies JSON (default: Gebhart TOCS 2012 Tables IV/V)");
  cmd->add_option("--csv", a.csv, "write the value-usage table as CSV to this file ('-' = stdout)");
  cmd->add_option("--kernel", a.kernel, "only kernels whose name contains this text");
  AddMaxRegsOption(cmd, a.max_regs);
  AddRecordLimitOption(cmd, a.record);
  return cmd;
}

CLI::App* AddCompileCommand(CLI::App& app, CompileArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "compile", "print a kernel annotated for a design: strands, ORF levels, release flags");
  cmd->add_option("kernel", a.workload,
                  "PTX file (static: no launch needed), launch.yaml, corpus workload name, "
                  "Accel-Sim trace folder, kernelslist.g or .traceg file")
      ->required();
  cmd->add_option("--config", a.config,
                  "design .yaml (hierarchy kind, levels, L1 entries, L0 split); required but "
                  "for a PTX file alone (default: 3 levels, 3 L1 entries, split L0)");
  cmd->add_option("--energies", a.energies, "per-access energies JSON");
  cmd->add_option("--kernel", a.kernel, "only kernels whose name contains this text");
  AddMaxRegsOption(cmd, a.max_regs);
  AddRecordLimitOption(cmd, a.record);
  return cmd;
}

int RunWorkloadAnalyze(const AnalyzeArgs& a) {
  const sp::PassOptions opt = OptionsFor(a.config, a.energies, nullptr);
  if (!a.csv.empty() && a.csv != "-")
    CheckOutputPath(a.csv, "--csv");
  // Value usage needs a run: a PTX file alone is for compile and workload show.
  const WorkloadKernels w = LoadWorkloadKernels(a.workload, a.record, {a.max_regs, false});
  CheckFilter(w, a.kernel, a.workload);
  fmt::print("workload {}: {} kernel(s), {:.2f} MB imported in {:.3f} s\n", a.workload,
             w.kernels.size(), static_cast<double>(w.bytes) / 1e6, w.import_seconds);
  std::vector<sp::ValueUsage> usage;
  for (const auto& item : w.kernels) {
    if (!Selected(*item.kernel, a.kernel))
      continue;
    if (item.run)
      usage.push_back(sp::CharacterizeValueUsage(*item.run));
  }
  if (!usage.empty())
    fmt::print("\nValue usage (Gebhart Figs. 2-3)\n{}", sp::ValueUsageTable(usage));
  for (const auto& item : w.kernels) {
    const sim::Kernel& k = *item.kernel;
    if (!Selected(k, a.kernel))
      continue;
    const sp::KernelAnalysis an = sp::AnalyzeKernel(k, opt);
    const sp::AccessCounts c = sp::CountAccesses(k, an.alloc, opt.energies, item.run);
    fmt::print("\n{}{}", LaunchHeader(item), sp::AnalysisSummary(k, an, c, opt));
    if (item.run) {
      fmt::print("  {} warps, {} warp instructions, {} thread instructions (dynamic counts)\n",
                 item.run->warps.size(), item.run->WarpInstructions(),
                 item.run->ThreadInstructions());
    }
    fmt::print("{}\n",
               sp::AllocationSweep(k, opt, item.run, /*default_energies=*/a.energies.empty()));
  }
  if (!a.csv.empty()) {
    const std::string csv = sp::ValueUsageCsv(usage);
    if (a.csv == "-") {
      fmt::print("\n{}", csv);
    } else {
      WriteOutputFile(a.csv, csv, "--csv");
      fmt::print("\nvalue-usage CSV written to {}\n", a.csv);
    }
  }
  return kExitOk;
}

int RunCompile(const CompileArgs& a) {
  // A PTX file alone is annotated for the default hierarchy; anything else names its design.
  if (a.config.empty() && !a.workload.ends_with(".ptx"))
    throw InputError({}, "--config", "",
                     "--config is required (only a PTX file alone defaults to 3 levels, 3 L1 "
                     "entries, split L0)",
                     "a design .yaml");
  std::string note;
  const sp::PassOptions opt = OptionsFor(a.config, a.energies, &note);
  const WorkloadKernels w = LoadWorkloadKernels(a.workload, a.record, {a.max_regs, true});
  CheckFilter(w, a.kernel, a.workload);
  if (!note.empty())
    fmt::print("note: {}\n", note);
  fmt::print(
      "legend: | ends a strand; R2@L1.0 = read from L1 entry 0, @L0.B = L0 bank of slot B, "
      ">L1.1 = MRF read that also fills L1 entry 1; R3>MRF+L1.2 = result written to the MRF and "
      "L1 entry 2; * = last use (warp level); ^ = released (Jeon pir); live = FineReg vector\n");
  for (const auto& item : w.kernels) {
    const sim::Kernel& k = *item.kernel;
    if (!Selected(k, a.kernel))
      continue;
    const sp::KernelAnalysis an = sp::AnalyzeKernel(k, opt);
    const sp::AccessCounts c = sp::CountAccesses(k, an.alloc, opt.energies, item.run);
    fmt::print("\n{}{}", LaunchHeader(item), sp::AnalysisSummary(k, an, c, opt));
    if (item.run)
      fmt::print("  {} warps, {} warp instructions, {} thread instructions (dynamic counts)\n",
                 item.run->warps.size(), item.run->WarpInstructions(),
                 item.run->ThreadInstructions());
    fmt::print("{}", sp::AnnotatedListing(k, an));
  }
  return kExitOk;
}

}  // namespace gpurf
