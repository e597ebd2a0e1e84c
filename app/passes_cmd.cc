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
#include "sim/passes/rsp_alloc.h"
#include "sim/passes/value_usage.h"
#include "sim/ptx/ptx_parser.h"
#include "sim/sm/gpu_config.h"
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
  cmd->add_option("--rsp-bytes", a.rsp_bytes,
                  "hybrid register cache / scratchpad (Bailey): RSP capacity per SM in bytes "
                  "(e.g. 4096); shows the RSP allocation per operand instead of the design's "
                  "hierarchy (--config not needed)")
      ->check(CLI::Range(128, 1 << 20));
  cmd->add_option("--gpu", a.rsp_gpu,
                  "with --rsp-bytes: GPU preset whose active warps and schedulers size the RSP")
      ->capture_default_str();
  cmd->add_option("--active-warps", a.rsp_active_warps,
                  "with --rsp-bytes: active warps per SM sharing the RSP (default: the preset's)")
      ->check(CLI::Range(1, 1024));
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

namespace {

std::string RspReg(const sim::RegOperand& o) {
  if (o.count == 1)
    return fmt::format("R{}", o.first);
  return fmt::format("R{}:{}", o.first, o.first + o.count - 1);
}

std::string RspSlots(const std::array<uint8_t, 4>& slots, int count) {
  std::string s = "RSP.";
  for (int j = 0; j < count; ++j)
    s += fmt::format("{}{}", j ? "," : "", slots[static_cast<size_t>(j)]);
  return s;
}

// The kernel's code with each operand's RSP allocation, and a summary with static counts (and
// dynamic ones weighted by the warp instructions of `run`, when given).
std::string RspListing(const sim::Kernel& k, const sp::Strands& st, const sp::RspAllocation& a,
                       const sim::KernelRun* run) {
  std::vector<double> weight(k.code.size(), 0.0);
  if (run) {
    for (const auto& w : run->warps) {
      for (const auto& d : w.insts)
        weight[d.inst] += 1;
    }
  }
  const sp::RspStats& s = a.stats;
  auto pct = [](double n, double d) { return d > 0 ? 100.0 * n / d : 0.0; };
  std::string out;
  out += fmt::format(
      "kernel {}: {} instructions, {} strands; RSP {} B/SM, {} active warps/SM, {} B/register: "
      "{} entries per warp\n",
      k.name, k.code.size(), st.strands.size(), a.config.rsp_bytes, a.config.active_warps,
      a.config.register_bytes, a.entries);
  out += fmt::format(
      "  RSP ranges: {} ({} write, of which {} live-out; {} read), {} reduced, {} regenerated; "
      "candidates {} maximal, {} reductions, {} regenerated; static savings {:.1f} pJ\n",
      a.ranges.size(), s.write_ranges, s.live_out_ranges, s.read_ranges, s.reduced_ranges,
      s.regenerated_ranges, s.candidates, s.reductions, s.regenerated, s.savings_pj);
  out += fmt::format(
      "  static: operand reads {}, from the RSP {} ({:.1f}%), fills {}; result writes {}, to the "
      "RSP {} ({:.1f}%), write-backs {} (writes elided {:.1f}%)\n",
      s.operand_reads, s.rsp_reads, pct(s.rsp_reads, s.operand_reads), s.fills, s.result_writes,
      s.rsp_writes, pct(s.rsp_writes, s.result_writes), s.writebacks,
      pct(s.rsp_writes - s.writebacks, s.result_writes));
  if (run) {
    double reads = 0, rsp_reads = 0, writes = 0, rsp_writes = 0, wbs = 0;
    for (size_t i = 0; i < k.code.size(); ++i) {
      const sim::Instruction& in = k.code[i];
      for (size_t sl = 0; sl < in.srcs.size(); ++sl) {
        reads += weight[i] * in.srcs[sl].count;
        rsp_reads += a.insts[i].srcs[sl].rsp ? weight[i] * in.srcs[sl].count : 0;
      }
      for (size_t d = 0; d < in.dsts.size(); ++d) {
        writes += weight[i] * in.dsts[d].count;
        rsp_writes += a.insts[i].dsts[d].rsp ? weight[i] * in.dsts[d].count : 0;
      }
      for (const auto& wb : a.insts[i].writebacks)
        wbs += weight[i] * wb.group.count;
    }
    out += fmt::format(
        "  dynamic (warp instructions): operand reads from the RSP {:.1f}%, result writes to the "
        "RSP {:.1f}%, writes elided (RSP writes - write-backs) {:.1f}%\n",
        pct(rsp_reads, reads), pct(rsp_writes, writes), pct(rsp_writes - wbs, writes));
  }
  out += fmt::format("  {:>5} {:>6}  instruction\n", "index", "pc");
  for (uint32_t i = 0; i < k.code.size(); ++i) {
    const sim::Instruction& in = k.code[i];
    const uint32_t sn = st.strand_of[i];
    if (st.strands[sn].first == i)
      out += fmt::format("  ---- strand {} ({}) ----\n", sn,
                         sp::StrandStartName(st.strands[sn].reason));
    std::vector<std::string> dsts, srcs;
    for (size_t d = 0; d < in.dsts.size(); ++d) {
      const sp::RspResult& r = a.insts[i].dsts[d];
      dsts.push_back(RspReg(in.dsts[d]) + ">" +
                     (r.rsp ? RspSlots(r.slots, in.dsts[d].count) : std::string("RC")));
    }
    for (size_t sl = 0; sl < in.srcs.size(); ++sl) {
      const sp::RspOperand& o = a.insts[i].srcs[sl];
      std::string t = RspReg(in.srcs[sl]) + "@";
      t += o.rsp ? RspSlots(o.slots, in.srcs[sl].count) : std::string("RC");
      if (o.fill)
        t += ">" + RspSlots(o.slots, in.srcs[sl].count);
      srcs.push_back(t);
    }
    std::string guard;
    if (in.guard != sim::kNoPred)
      guard =
          in.guard == 0xfe ? "@P? " : fmt::format("@{}P{} ", in.guard_negated ? "!" : "", in.guard);
    std::string line = fmt::format("{}{:5} {:6x}  {}{}", st.ends_strand[i] ? "|" : " ", i, in.pc,
                                   guard, in.opcode);
    if (!dsts.empty())
      line += fmt::format("  {}", fmt::join(dsts, " "));
    if (!srcs.empty())
      line += fmt::format(" <- {}", fmt::join(srcs, " "));
    if (in.op_class == sim::OpClass::kBranch)
      line += in.target >= 0 ? fmt::format(" -> {}", in.target) : " -> exit";
    for (const auto& wb : a.insts[i].writebacks)
      line += fmt::format("  ; wb {}<{}", RspReg(wb.group), RspSlots(wb.slots, wb.group.count));
    out += line + "\n";
  }
  return out;
}

int RunCompileRsp(const CompileArgs& a) {
  const sim::GpuConfig* gpu = sim::FindGpuPreset(a.rsp_gpu);
  if (gpu == nullptr)
    throw InputError({}, "--gpu", a.rsp_gpu, "unknown GPU preset",
                     fmt::format("{}", fmt::join(sim::GpuPresetNames(), ", ")));
  sp::RspConfig cfg;
  cfg.rsp_bytes = a.rsp_bytes;
  cfg.active_warps = a.rsp_active_warps > 0 ? a.rsp_active_warps : gpu->sm.active_warps;
  if (!a.config.empty())
    throw InputError({}, "--config", a.config,
                     "--rsp-bytes shows the hybrid RC/RSP allocation, not a design's hierarchy",
                     "either --config or --rsp-bytes");
  const int entries = cfg.EntriesPerWarp();
  if (entries > 255)
    throw InputError({}, "--rsp-bytes", std::to_string(a.rsp_bytes),
                     fmt::format("{} RSP entries per warp; the RSP name space has 8 bits", entries),
                     fmt::format("at most {}", 255 * cfg.register_bytes * cfg.active_warps));
  if (entries < 1)
    throw InputError({}, "--rsp-bytes", std::to_string(a.rsp_bytes),
                     fmt::format("less than one {}-byte register per active warp ({} active warps)",
                                 cfg.register_bytes, cfg.active_warps),
                     fmt::format("at least {}", cfg.register_bytes * cfg.active_warps));
  // The RSP is priced as the L1 ORF of its rows: entries x active warps of one scheduler.
  const int per_scheduler = std::max(1, cfg.active_warps / std::max(1, gpu->sm.schedulers));
  sp::RegisterFileEnergies e = sp::GebhartEnergies(entries, per_scheduler);
  if (!a.energies.empty())
    e = sp::LoadRegisterFileEnergies(a.energies, e);
  const WorkloadKernels w = LoadWorkloadKernels(a.workload, a.record, {a.max_regs, true});
  CheckFilter(w, a.kernel, a.workload);
  bool failed = false;
  fmt::print(
      "hybrid RC/RSP (Bailey): RSP priced as an L1 ORF of {} rows: read {:.2f} pJ, write {:.2f} "
      "pJ against MRF {:.2f} / {:.2f} pJ (with wires)\n",
      entries * per_scheduler, e.Read(sp::RfLevel::kL1, false), e.Write(sp::RfLevel::kL1, false),
      e.Read(sp::RfLevel::kMrf, false), e.Write(sp::RfLevel::kMrf, false));
  fmt::print(
      "legend: | ends a strand; R2@RSP.1 = read from RSP entry 1 of the warp; R2@RC = read through "
      "the register cache (the MRF on a miss); R2@RC>RSP.1 = that read also fills RSP entry 1 "
      "(read allocation); R3>RSP.0 = result written to RSP entry 0 only; R3>RC = result to the RC "
      "(write-allocate); ; wb R3<RSP.0 = live-out: entry 0 written back to the RC after the "
      "instruction\n");
  for (const auto& item : w.kernels) {
    const sim::Kernel& k = *item.kernel;
    if (!Selected(k, a.kernel))
      continue;
    const sp::Liveness live = sp::ComputeLiveness(k);
    const sp::Strands st = sp::FormStrands(k, live);
    const sp::RspAllocation alloc = sp::AllocateRsp(k, live, st, cfg, e);
    const std::vector<std::string> bad = sp::CheckRspAllocation(k, live, st, alloc);
    fmt::print("\n{}{}", LaunchHeader(item), RspListing(k, st, alloc, item.run));
    if (!bad.empty()) {
      // The allocator's bug, shown rather than hidden: exit 1 like any failed check.
      for (const auto& b : bad)
        fmt::print(stderr, "gpurf: error: RSP allocation of kernel {}: {}\n", k.name, b);
      failed = true;
    }
  }
  return failed ? kExitCheckFailed : kExitOk;
}

}  // namespace

int RunCompile(const CompileArgs& a) {
  if (a.rsp_bytes > 0)
    return RunCompileRsp(a);
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
