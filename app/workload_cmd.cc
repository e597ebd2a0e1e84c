#include "app/workload_cmd.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "base/diag.h"
#include "base/fs.h"
#include "sim/ptx/ptx_parser.h"
#include "sim/workload/launch.h"

namespace gpurf {

// `gpurf workload list|show|run`: the PTX workload corpus (sim/workload): parse, allocate
// registers, execute functionally and check against the C++ reference.

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

}  // namespace gpurf
