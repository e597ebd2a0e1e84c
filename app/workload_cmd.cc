#include "app/workload_cmd.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "base/diag.h"
#include "base/fs.h"
#include "base/hash.h"
#include "sim/ptx/ptx_parser.h"
#include "sim/workload/launch.h"

namespace gpurf {

// `gpurf workload list|show|run`: the PTX workload corpus (sim/workload): parse, allocate
// registers, execute functionally and check against the C++ reference.

CLI::App* AddWorkloadCommand(CLI::App& app, WorkloadArgs& a) {
  CLI::App* w = app.add_subcommand("workload", "PTX workloads: list, show, run, analyze");
  w->require_subcommand(1);
  const std::string corpus_help =
      "corpus folder (default $GPURF_HOME/workloads/corpus, else the source tree's: " +
      sim::DefaultCorpusDir() + ")";
  a.list = w->add_subcommand(
      "list",
      "list the corpus workloads: per kernel registers, CTAs, threads, shared memory, "
      "occupancy and what limits it");
  a.show = w->add_subcommand(
      "show", "the kernel after register allocation: registers, blocks, annotated code");
  a.run = w->add_subcommand("run",
                            "execute functionally, check the outputs against the C++ reference "
                            "(or report them without one), print counts");
  for (CLI::App* c : {a.list, a.show, a.run})
    c->add_option("--corpus-dir", a.corpus_dir, corpus_help);
  a.show
      ->add_option("workload", a.name,
                   "corpus workload name (see workload list), launch.yaml, or a PTX file alone")
      ->required();
  a.run->add_option("workload", a.name, "corpus workload name (see workload list) or launch.yaml")
      ->required();
  for (CLI::App* c : {a.list, a.show, a.run}) {
    c->add_option("--max-regs", a.max_regs,
                  "architected registers available per thread (spills beyond)")
        ->check(CLI::Range(16, 255))
        ->capture_default_str();
  }
  a.show->add_option("--kernel", a.kernel, "only kernels whose name contains this text");
  a.run->add_option("--dump", a.dump,
                    "write each output buffer to DIR as NAME.bin (raw little-endian) and NAME.csv "
                    "(2D buffers one row per line)");
  a.list->add_option("--sm-warps", a.sm.warps, "resident warps per SM")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  a.list->add_option("--sm-registers", a.sm.registers, "32-bit registers per SM")
      ->check(CLI::Range(uint64_t{32}, uint64_t{1} << 24))
      ->capture_default_str();
  a.list->add_option("--sm-cta-slots", a.sm.cta_slots, "resident CTAs per SM")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  a.list->add_option("--sm-shared-bytes", a.sm.shared_bytes, "shared memory per SM, bytes")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 30))
      ->capture_default_str();
  a.list
      ->add_option("--sm-register-granularity", a.sm.register_granularity,
                   "registers are allocated per warp in multiples of this (1: none, as the SM "
                   "model)")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  AddRecordLimitOption(a.run, a.record);
  return w;
}

static std::string RegText(const sim::RegOperand& r) {
  return r.count == 1 ? fmt::format("R{}", r.first)
                      : fmt::format("R{}:{}", r.first, r.first + r.count - 1);
}

static std::string InstText(const sim::Instruction& in) {
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

namespace {

std::string Dims(const sim::Dim3& d) {
  return fmt::format("{}x{}x{}", d.x, d.y, d.z);
}

// A corpus name, or a path to a launch file (anything with a '/' or a .yaml/.yml ending).
std::string LaunchPathOf(const std::string& arg, const std::string& corpus) {
  const bool is_path =
      arg.find('/') != std::string::npos || arg.ends_with(".yaml") || arg.ends_with(".yml");
  return is_path ? arg : sim::WorkloadLaunchPath(corpus, arg);
}

void ShowKernel(const sim::ptx::CompiledKernel& ck, int max_regs) {
  const sim::Kernel& k = ck.kernel;
  fmt::print(
      "  registers per thread: {} (of {}; {} PTX values, {} spilled, {} spill instructions), "
      "predicates: {}\n",
      k.regs_per_thread, max_regs, ck.stats.virtual_regs, ck.stats.spilled_values,
      ck.stats.spill_instructions, k.pred_regs);
  fmt::print("  shared memory: {} bytes per CTA (static), local memory: {} bytes per thread\n",
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
}

int CmdShow(const WorkloadArgs& a, const std::string& corpus) {
  sim::ptx::AllocOptions ao;
  ao.max_regs = a.max_regs;
  if (a.name.ends_with(".ptx")) {  // a PTX file alone: static, every kernel (or --kernel's)
    const sim::ptx::PtxModule m = sim::ptx::LoadPtx(a.name);
    std::vector<std::string> names;
    size_t shown = 0;
    for (const auto& e : m.entries) {
      names.push_back(e.name);
      if (!a.kernel.empty() && e.name.find(a.kernel) == std::string::npos)
        continue;
      const sim::ptx::CompiledKernel ck = sim::ptx::CompileKernel(m, e.name, ao);
      fmt::print("{}kernel {} from {} (no launch: static)\n", shown ? "\n" : "", e.name, a.name);
      ShowKernel(ck, a.max_regs);
      ++shown;
    }
    if (shown == 0)
      throw InputError({}, "--kernel", a.kernel,
                       fmt::format("no kernel of {} has a name containing this text", a.name),
                       fmt::format("a part of {}", fmt::join(names, ", ")));
    return kExitOk;
  }
  const sim::LaunchSpec spec = sim::LoadLaunch(LaunchPathOf(a.name, corpus));
  const sim::ptx::PtxModule m = sim::ptx::LoadPtx(spec.ptx);
  std::vector<std::string> done, names;
  for (size_t i = 0; i < spec.launches.size(); ++i) {
    const sim::LaunchStep& st = spec.launches[i];
    names.push_back(st.kernel);
    if (!a.kernel.empty() && st.kernel.find(a.kernel) == std::string::npos)
      continue;
    if (std::find(done.begin(), done.end(), st.kernel) != done.end())
      continue;
    done.push_back(st.kernel);
    const sim::ptx::CompiledKernel ck = sim::ptx::CompileKernel(m, st.kernel, ao);
    fmt::print("{}workload {}: kernel {} from {}\n", done.size() > 1 ? "\n" : "", spec.name,
               st.kernel, ck.kernel.source);
    for (size_t j = 0; j < spec.launches.size(); ++j) {
      const sim::LaunchStep& l = spec.launches[j];
      if (l.kernel != st.kernel)
        continue;
      std::string extra;
      if (l.dynamic_shared_bytes > 0)
        extra += fmt::format(", {} dynamic shared bytes", l.dynamic_shared_bytes);
      if (l.repeat > 1)
        extra += fmt::format(", repeated {} times", l.repeat);
      fmt::print("  launch{}: grid {}, block {}{}\n",
                 spec.launches.size() > 1 ? fmt::format(" {}", j + 1) : "", Dims(l.grid),
                 Dims(l.block), extra);
    }
    ShowKernel(ck, a.max_regs);
  }
  if (done.empty())
    throw InputError(
        {}, "--kernel", a.kernel,
        fmt::format("no kernel of workload {} has a name containing this text", spec.name),
        fmt::format("a part of {}", fmt::join(names, ", ")));
  return kExitOk;
}

int CmdList(const WorkloadArgs& a, const std::string& corpus) {
  sim::ptx::AllocOptions ao;
  ao.max_regs = a.max_regs;
  fmt::print(
      "SM: {} warps, {} registers, {} CTA slots, {} shared bytes{}\n", a.sm.warps, a.sm.registers,
      a.sm.cta_slots, a.sm.shared_bytes,
      a.sm.register_granularity > 1
          ? fmt::format(", registers allocated per warp in units of {}", a.sm.register_granularity)
          : "");
  fmt::print("{:<22} {:<24} {:>4} {:>8} {:>7} {:>7} {:>9} {:>5}  {:<20} {}\n", "workload", "kernel",
             "regs", "CTAs", "thr/CTA", "shared", "CTAs/SM", "occ", "limited by", "description");
  for (const auto& n : sim::ListWorkloads(corpus)) {
    const sim::LaunchSpec s = sim::LoadLaunch((fs::path(corpus) / n / "launch.yaml").string());
    const sim::ptx::PtxModule m = sim::ptx::LoadPtx(s.ptx);
    std::map<std::string, sim::ptx::CompiledKernel> compiled;
    for (size_t i = 0; i < s.launches.size(); ++i) {
      const sim::LaunchStep& st = s.launches[i];
      auto it = compiled.find(st.kernel);
      if (it == compiled.end())
        it = compiled.emplace(st.kernel, sim::ptx::CompileKernel(m, st.kernel, ao)).first;
      const sim::Kernel& k = it->second.kernel;
      const uint32_t shared = sim::SharedBytesWithDynamic(k.shared_bytes, st.dynamic_shared_bytes);
      const sim::OccupancyResult o = sim::ComputeOccupancy(
          {static_cast<uint32_t>(k.regs_per_thread), st.block.count(), shared}, a.sm);
      std::string kname = st.kernel;
      if (st.repeat > 1)
        kname += fmt::format(" x{}", st.repeat);
      fmt::print("{:<22} {:<24} {:>4} {:>8} {:>7} {:>7} {:>9} {:>4.0f}%  {:<20} {}\n",
                 i == 0 ? n : "", kname, k.regs_per_thread, st.grid.count(), st.block.count(),
                 shared, o.resident_ctas, 100.0 * o.occupancy,
                 o.resident_ctas == 0 ? "does not fit: " + o.LimiterText() : o.LimiterText(),
                 i == 0 ? s.description : "");
    }
  }
  return kExitOk;
}

// The buffers a run reports: the outputs the launch file names, else every buffer.
std::vector<std::string> ReportedBuffers(const sim::LaunchSpec& spec) {
  std::vector<std::string> names;
  for (const auto& o : spec.outputs)
    names.push_back(o.buffer);
  if (names.empty()) {
    for (const auto& b : spec.buffers)
      names.push_back(b.name);
  }
  return names;
}

std::string BufferCsv(const sim::BufferSpec& b, const std::vector<uint8_t>& bytes) {
  // The last dimension is a row; 1-D buffers one value per line.
  const uint64_t row = b.shape.size() >= 2 ? b.shape.back() : 1;
  std::string out;
  for (uint64_t i = 0; i < b.count; ++i) {
    out += sim::ElementText(bytes, b.type, i);
    out += (i + 1) % row == 0 ? '\n' : ',';
  }
  return out;
}

void Dump(const sim::WorkloadRun& r, const std::string& dir) {
  StagingDir stage{fs::path(dir)};
  for (const auto& name : ReportedBuffers(r.spec)) {
    const sim::BufferSpec& b = *r.spec.Buffer(name);
    const auto& bytes = r.final_buffers.Get(name).bytes;
    WriteFile(stage.path() / (name + ".bin"), std::string(bytes.begin(), bytes.end()));
    WriteFile(stage.path() / (name + ".csv"), BufferCsv(b, bytes));
  }
  stage.Commit();
}

}  // namespace

int CmdWorkload(const WorkloadArgs& a) {
  const std::string corpus = a.corpus_dir.empty() ? sim::DefaultCorpusDir() : a.corpus_dir;
  if (a.list->parsed())
    return CmdList(a, corpus);
  if (a.show->parsed())
    return CmdShow(a, corpus);
  const sim::LaunchSpec spec = sim::LoadLaunch(LaunchPathOf(a.name, corpus));
  sim::RunOptions opt;
  opt.alloc.max_regs = a.max_regs;
  opt.exec.record_addresses = false;  // only the timing model (sim, energy) reads them
  if (a.record.mb > 0)
    opt.exec.max_recorded_bytes = a.record.mb << 20;
  const auto r = sim::RunWorkload(spec, opt);
  if (r->launches.size() > 1) {
    for (const auto& l : r->launches) {
      const sim::LaunchStep& st = spec.launches[l->step];
      fmt::print(
          "  launch {} {}: grid {}, block {}: {} warps, {} warp instructions, {} thread "
          "instructions\n",
          l->label, st.kernel, Dims(st.grid), Dims(st.block), l->run.warps.size(),
          l->run.WarpInstructions(), l->run.ThreadInstructions());
    }
  }
  for (const auto& o : r->outputs) {
    if (o.mismatches == 0)
      fmt::print("  output {}: {} elements match the reference (max relative error {:.3g})\n",
                 o.buffer, o.elements, o.max_error);
    else
      fmt::print("  output {}: {} of {} elements differ from the reference; first {}\n", o.buffer,
                 o.mismatches, o.elements, o.first_mismatch);
  }
  if (spec.reference.empty()) {
    // Nothing to compare with: what a user checks by hand or with their own tools.
    for (const auto& name : ReportedBuffers(spec)) {
      const sim::BufferSpec& b = *spec.Buffer(name);
      const auto& bytes = r->final_buffers.Get(name).bytes;
      std::vector<std::string> first;
      for (uint64_t i = 0; i < std::min<uint64_t>(b.count, 8); ++i)
        first.push_back(sim::ElementText(bytes, b.type, i));
      fmt::print(
          "  output {} ({} x {}): fnv1a64 {:016x}, first values {}{}\n", name, b.count,
          sim::ptx::TypeName(b.type),
          Fnv1a64(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())),
          fmt::join(first, " "), b.count > 8 ? " ..." : "");
    }
  }
  if (!a.dump.empty()) {
    Dump(*r, a.dump);
    fmt::print("  output buffers written to {}\n", a.dump);
  }
  uint64_t ti = 0, wi = 0, warps = 0;
  int regs = 0;
  uint64_t spilled = 0;
  for (const auto& l : r->launches) {
    ti += l->run.ThreadInstructions();
    wi += l->run.WarpInstructions();
    warps += l->run.warps.size();
    regs = std::max(regs, l->compiled->kernel.regs_per_thread);
    spilled = std::max<uint64_t>(spilled, l->compiled->stats.spilled_values);
  }
  const char* verdict = spec.reference.empty() ? "DONE" : r->passed() ? "PASS" : "FAIL";
  fmt::print(
      "{} {}: {}{} warps, {} warp instructions, {} thread instructions, {} registers per thread "
      "({} spilled values), {:.3f} CPU s ({:.1f} M thread-instructions/s)\n",
      verdict, spec.name,
      r->launches.size() > 1 ? fmt::format("{} launches, ", r->launches.size()) : "", warps, wi, ti,
      regs, spilled, r->exec_seconds,
      r->exec_seconds > 0 ? static_cast<double>(ti) / r->exec_seconds / 1e6 : 0.0);
  return r->passed() ? kExitOk : kExitCheckFailed;
}

}  // namespace gpurf
