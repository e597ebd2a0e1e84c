#include "app/prove_cmd.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/target.h"
#include "base/diag.h"
#include "base/fs.h"
#include "verif/formal/formal.h"

namespace gpurf {

CLI::App* AddProveCommand(CLI::App& app, ProveArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "prove",
      "formal proofs of the structures' invariants (Yosys + yosys-smtbmc + z3, k-induction)");
  cmd->add_option("target", a.target, "structure kind (see gen --list) or design .yaml file")
      ->required();
  cmd->add_option("--depth", a.depth,
                  "K in clock cycles for the base case and the induction step of every property "
                  "(default: each property's own K)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("-o,--output", a.out_dir,
                  "output folder: counterexample VCDs with the files they refer to, and "
                  "manifest.json (written atomically)");
  cmd->add_option("--property", a.property, "prove only this property");
  cmd->add_option("--timeout", a.timeout, "seconds per solver run; exceeded = UNKNOWN")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  cmd->add_flag("--list", a.list, "list the target's properties (with K) without proving");
  cmd->allow_extras();
  cmd->footer(
      "Structure parameters follow the kind as --name value, e.g.\n"
      "  gpurf prove rfc --active-warps 2 --l1-entries 2 --reg-bits 2 --width 4");
  return cmd;
}

int RunProveCommand(CLI::App* cmd, const ProveArgs& a) {
  const Target t = ResolveTarget(a.target, cmd->remaining());
  if (t.design) {
    for (const DesignStructure* s : t.design->Skipped())
      spdlog::warn("{}: skipping '{}' ({}): {}", s->loc.str(), s->name, s->role, s->skip_reason);
  }
  const std::vector<TargetStructure> structures = t.Generate();

  // Validate --property against what the target has.
  if (!a.property.empty()) {
    std::vector<std::string> names;
    for (const auto& ts : structures)
      for (const auto& p : FormalProperties(ts.spec))
        if (std::find(names.begin(), names.end(), p.name) == names.end())
          names.push_back(p.name);
    if (std::find(names.begin(), names.end(), a.property) == names.end()) {
      std::string problem = "no structure of the target has this property";
      if (auto s = ClosestMatchIn(a.property, names))
        problem += fmt::format(" (did you mean '{}'?)", *s);
      throw InputError({}, "--property", a.property, problem,
                       names.empty() ? std::string("none: the target's kinds have no properties")
                                     : fmt::format("{}", fmt::join(names, ", ")));
    }
  }

  if (a.list) {
    for (const auto& ts : structures) {
      const auto props = FormalProperties(ts.spec);
      if (props.empty()) {
        fmt::print("{} ({}): no formal properties for this kind yet\n", ts.rtl.top, ts.rtl.kind);
        continue;
      }
      fmt::print("{} ({}):\n", ts.rtl.top, ts.rtl.kind);
      for (const auto& p : props) {
        if (!a.property.empty() && p.name != a.property)
          continue;
        fmt::print("  {:<24} K = {:<2} {}\n", p.name, a.depth > 0 ? a.depth : p.depth, p.summary);
      }
    }
    return kExitOk;
  }

  CheckFormalTools();
  ProveOptions opt;
  opt.depth = a.depth;
  opt.property = a.property;
  opt.timeout_seconds = a.timeout;
  std::unique_ptr<StagingDir> stage;
  if (!a.out_dir.empty()) {
    stage = std::make_unique<StagingDir>(a.out_dir);
    opt.trace_dir = stage->path();
  }

  int proven = 0, failed = 0, unknown = 0, skipped = 0;
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& ts : structures) {
    if (!HasFormalProperties(ts.rtl.kind)) {
      fmt::print("SKIPPED {} ({}): no formal properties for this kind yet\n", ts.rtl.top,
                 ts.rtl.kind);
      ++skipped;
      continue;
    }
    for (const ProofResult& r : ProveStructure(ts.spec, ts.rtl, opt)) {
      // Traces are staged; name them where they will be once the folder is committed.
      ProofResult shown = r;
      if (stage && !r.trace.empty())
        shown.trace = stage->dest() / r.trace.lexically_relative(stage->path());
      fmt::print("{}\n", shown.Summary());
      proven += r.proven() ? 1 : 0;
      failed += r.failed() ? 1 : 0;
      unknown += r.status == ProofResult::Status::kUnknown ? 1 : 0;
      nlohmann::ordered_json j = {{"top", r.top},
                                  {"kind", r.kind},
                                  {"property", r.property},
                                  {"status", r.StatusText()},
                                  {"depth", r.depth},
                                  {"steps", r.steps},
                                  {"base_case_seconds", r.bmc_seconds},
                                  {"induction_seconds", r.induction_seconds}};
      if (r.failed()) {
        j["fail_step"] = r.fail_step;
        j["assertions"] = r.assertions;
        j["assertion_text"] = r.assertion_text;
      }
      if (!r.reason.empty())
        j["reason"] = r.reason;
      if (!r.trace.empty() && stage)
        j["trace"] = r.trace.lexically_relative(stage->path()).string();
      results.push_back(std::move(j));
    }
  }
  fmt::print("{} properties: {} proven, {} failed, {} unknown{}\n", proven + failed + unknown,
             proven, failed, unknown,
             skipped ? fmt::format("; {} structure(s) skipped", skipped) : "");
  if (stage) {
    nlohmann::ordered_json m = {{"generator", "gpurf prove"},
                                {"version", GeneratorVersion()},
                                {"target", t.Describe()},
                                {"results", results}};
    WriteFile(stage->path() / "manifest.json", m.dump(2) + "\n");
    stage->Commit();
    if (failed + unknown > 0)
      fmt::print("counterexamples and the files they refer to in {}\n", stage->dest().string());
  } else if (failed > 0) {
    fmt::print("(use -o DIR to keep the counterexample traces)\n");
  }
  return failed + unknown == 0 ? kExitOk : kExitCheckFailed;
}

}  // namespace gpurf
