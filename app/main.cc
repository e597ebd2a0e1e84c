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

#include "app/gpu_cmd.h"
#include "app/harness_cmd.h"
#include "app/passes_cmd.h"
#include "app/prove_cmd.h"
#include "app/report_cmd.h"
#include "app/structure_cmds.h"
#include "app/sweep_cmd.h"
#include "app/target.h"
#include "app/workload_cmd.h"
#include "base/diag.h"
#include "base/fs.h"
#include "base/process.h"
#include "gen/config/yaml_loader.h"
#include "synth/characterize.h"
#include "synth/liberty.h"
#include "synth/synth.h"
#include "verif/verify.h"

namespace gpurf {
namespace {

constexpr int kExitToolError = 3;

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
  GpuArgs gpu_args;
  CLI::App* gpu_cmd = AddGpuCommand(app, gpu_args);
  SweepArgs sweep_args;
  CLI::App* sweep_cmd = AddSweepCommand(app, sweep_args);
  ResultsArgs results_args;
  CLI::App* results_cmd = AddResultsCommand(app, results_args);
  SweepTaskArgs sweep_task_args;
  CLI::App* sweep_task_cmd = AddSweepTaskCommand(app, sweep_task_args);
  ReportArgs report_args;
  CLI::App* report_cmd = AddReportCommand(app, report_args);

  const std::vector<std::string> names = {
      "gen",    "lint",         "verify", "flow", "synth", "workload", "compile",    "sim",
      "energy", "characterize", "prove",  "gpu",  "sweep", "results",  "sweep-task", "report"};
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
    if (gpu_cmd->parsed())
      return RunGpuCommand(gpu_cmd, gpu_args);
    if (sweep_cmd->parsed())
      return RunSweepCommand(sweep_args);
    if (results_cmd->parsed())
      return RunResultsCommand(results_args);
    if (sweep_task_cmd->parsed())
      return RunSweepTaskCommand(sweep_task_args);
    if (report_cmd->parsed())
      return RunReportCommand(report_args);
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
