#include "verif/lint/lint.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <regex>
#include <sstream>

#include "base/diag.h"
#include "gen/rtl_primitives.h"
#include "verif/harness/verilator_build.h"
#include "verif/lint/waivers_text.h"

namespace gpurf {

namespace {

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos)
    return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string Quote(const std::string& s) {
  return "'" + s + "'";
}

// The three lint tools are on PATH; checked once per process.
void CheckTools() {
  static const std::string missing = [] {
    for (const char* tool : {"verilator", "yosys", "iverilog"}) {
      std::string out;
      if (RunCommand(fmt::format("command -v {}", tool), &out) != 0)
        return std::string(tool);
    }
    return std::string();
  }();
  if (!missing.empty()) {
    throw ToolError(
        fmt::format("{} not found on PATH: run scripts/setup.sh (needed for lint)", missing));
  }
}

}  // namespace

int LintReport::unwaived() const {
  int n = 0;
  for (const auto& f : findings)
    n += f.waived ? 0 : 1;
  return n;
}

std::vector<LintWaiver> ParseWaivers(const std::string& text, const std::string& file_name) {
  std::vector<LintWaiver> ws;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string t = Trim(line);
    if (t.empty() || t[0] == '#')
      continue;
    const auto a = t.find('|');
    const auto b = a == std::string::npos ? a : t.find('|', a + 1);
    if (b == std::string::npos) {
      throw InputError({file_name, n, 1}, "waiver", t, "expected three fields separated by '|'",
                       "tool | regex | reason");
    }
    LintWaiver w{Trim(t.substr(0, a)), Trim(t.substr(a + 1, b - a - 1)), Trim(t.substr(b + 1))};
    if (w.tool != "verilator" && w.tool != "yosys" && w.tool != "iverilog") {
      throw InputError({file_name, n, 1}, "waiver.tool", w.tool, "unknown tool",
                       "verilator, yosys, iverilog");
    }
    if (w.reason.empty())
      throw InputError({file_name, n, 1}, "waiver.reason", "", "a waiver needs a reason", "text");
    try {
      std::regex re(w.pattern);
    } catch (const std::regex_error& e) {
      throw InputError({file_name, n, 1}, "waiver.regex", w.pattern, "invalid regular expression",
                       "ECMAScript regex");
    }
    ws.push_back(std::move(w));
  }
  return ws;
}

const std::vector<LintWaiver>& BuiltinWaivers() {
  static const std::vector<LintWaiver> ws =
      ParseWaivers(std::string(kLintWaiversText), "verif/lint/waivers.txt");
  return ws;
}

LintReport LintStructure(const GeneratedStructure& g, const fs::path& dir) {
  CheckTools();
  LintReport rep;
  rep.top = g.top;
  std::string files;
  std::string yosys_files;
  // Headers (gpurf_assert.svh) are found through the include path, the folder of the files.
  for (const auto& f : g.files) {
    if (IsRtlHeader(f.name))
      continue;
    files += " " + Quote((dir / f.name).string());
    yosys_files += " " + (dir / f.name).string();
  }
  const std::string incdir = Quote("-I" + dir.string());

  auto add = [&](const std::string& tool, const std::string& view, const std::string& msg) {
    LintFinding f{tool, view, Trim(msg), false, {}};
    for (const auto& w : BuiltinWaivers()) {
      if (w.tool == tool && std::regex_search(f.message, std::regex(w.pattern))) {
        f.waived = true;
        f.reason = w.reason;
        break;
      }
    }
    rep.findings.push_back(std::move(f));
  };

  for (const bool assertions : {true, false}) {
    const std::string view = assertions ? "assertions" : "synthesis";
    const std::string def_vl = assertions ? " +define+GPURF_ASSERTIONS" : "";
    const std::string def_iv = assertions ? " -DGPURF_ASSERTIONS" : "";

    // Verilator: every %Warning/%Error line is a finding.
    std::string log;
    int rc = RunCommand(fmt::format("verilator --lint-only -Wall --top-module {} {}{}{}", g.top,
                                    incdir, def_vl, files),
                        &log);
    rep.tools_run.push_back("verilator (" + view + ")");
    bool any = false;
    std::istringstream vin(log);
    for (std::string line; std::getline(vin, line);) {
      if (line.starts_with("%Warning") ||
          (line.starts_with("%Error") && !line.starts_with("%Error: Exiting due to"))) {
        add("verilator", view, line);
        any = true;
      }
    }
    if (rc != 0 && !any)
      add("verilator", view, fmt::format("verilator exited with status {}: {}", rc, Trim(log)));

    // Yosys: warnings and errors from parsing, hierarchy, proc and check -assert. Synthesis
    // view only: assertions sit behind the guard so that synthesis never sees them (Yosys's
    // read_verilog does not implement $error in procedural code).
    log.clear();
    if (!assertions) {
      const std::string script =
          fmt::format("read_verilog -sv -I{}{}; hierarchy -check -top {}; proc; check -assert",
                      dir.string(), yosys_files, g.top);
      rc = RunCommand(fmt::format("yosys -q -p {}", Quote(script)), &log);
      rep.tools_run.push_back("yosys (" + view + ")");
      any = false;
      std::istringstream yin(log);
      for (std::string line; std::getline(yin, line);) {
        if (line.find("Warning:") != std::string::npos ||
            line.find("ERROR:") != std::string::npos) {
          add("yosys", view, line);
          any = true;
        }
      }
      if (rc != 0 && !any)
        add("yosys", view, fmt::format("yosys exited with status {}: {}", rc, Trim(log)));
    }

    // Icarus: any diagnostic at all.
    log.clear();
    rc = RunCommand(fmt::format("iverilog -g2012 -Wall -o /dev/null -s {} {}{}{}", g.top, incdir,
                                def_iv, files),
                    &log);
    rep.tools_run.push_back("iverilog (" + view + ")");
    any = false;
    std::istringstream iin(log);
    for (std::string line; std::getline(iin, line);) {
      if (!Trim(line).empty()) {
        add("iverilog", view, line);
        any = true;
      }
    }
    if (rc != 0 && !any)
      add("iverilog", view, fmt::format("iverilog exited with status {}", rc));
  }
  return rep;
}

}  // namespace gpurf
