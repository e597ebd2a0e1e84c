#include "verif/formal/formal.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <regex>
#include <sstream>

#include "base/diag.h"
#include "gen/rtl_primitives.h"
#include "gen/vlog/ast.h"
#include "verif/formal/family.h"
#include "verif/harness/verilator_build.h"

namespace gpurf {

using formal::Family;
using formal::Harness;
using formal::PropertyDef;

namespace {

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

std::string Tail(const std::string& log, size_t lines) {
  const auto all = SplitLines(log);
  std::string out;
  for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i)
    out += all[i] + "\n";
  return out;
}

// An RTL assertion as written: `GPURF_ASSERT(cond, ("%m: message", args)) (rtl/gpurf_assert.svh),
// possibly over several lines.
struct RtlAssertion {
  size_t begin = 0;  // offset of the macro name
  size_t end = 0;    // one past the closing parenthesis
  std::string message;
};

// The assertions of a file, in order. The invocation ends at the parenthesis that closes the
// macro's argument list (strings skipped); the message is its first string literal.
std::vector<RtlAssertion> FindRtlAssertions(const std::string& text) {
  std::vector<RtlAssertion> out;
  const std::string macro = std::string(vlog::kAssertMacro) + "(";
  for (size_t at = text.find(macro); at != std::string::npos; at = text.find(macro, at + 1)) {
    RtlAssertion a;
    a.begin = at;
    int depth = 0;
    bool in_string = false;
    size_t i = at + macro.size() - 1;
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (in_string) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          in_string = false;
        continue;
      }
      if (c == '"') {
        in_string = true;
        if (a.message.empty()) {
          const size_t q = text.find('"', i + 1);
          a.message = text.substr(i + 1, q == std::string::npos ? q : q - i - 1);
        }
      } else if (c == '(') {
        ++depth;
      } else if (c == ')' && --depth == 0) {
        break;
      }
    }
    a.end = std::min(i + 1, text.size());
    at = a.end - 1;
    out.push_back(std::move(a));
  }
  return out;
}

// The RTL as the formal flow reads it. Every RTL check is the `GPURF_ASSERT macro, which
// expands to `assert (cond);` when the flow defines GPURF_FORMAL (Yosys 0.23 does not read
// action blocks). An assertion that is part of this proof stays as written; one that is not
// is blanked (every character but line breaks becomes a space), so line numbers are unchanged
// and failures point into the generated files as written.
struct FormalView {
  std::vector<GeneratedFile> files;
  std::vector<std::string> unmatched;  // rtl_checks fragments that selected nothing
  int kept = 0;
};

FormalView MakeFormalView(const GeneratedStructure& rtl, const std::vector<std::string>& checks) {
  FormalView v;
  std::vector<bool> used(checks.size(), false);
  for (const GeneratedFile& f : rtl.files) {
    GeneratedFile g = f;
    for (const RtlAssertion& a : FindRtlAssertions(f.contents)) {
      bool keep = false;
      for (size_t i = 0; i < checks.size(); ++i) {
        if (!a.message.empty() && a.message.find(checks[i]) != std::string::npos) {
          keep = true;
          used[i] = true;
        }
      }
      if (keep) {
        ++v.kept;
        continue;
      }
      for (size_t i = a.begin; i < a.end; ++i)
        if (g.contents[i] != '\n')
          g.contents[i] = ' ';
    }
    v.files.push_back(std::move(g));
  }
  for (size_t i = 0; i < checks.size(); ++i)
    if (!used[i])
      v.unmatched.push_back(checks[i]);
  return v;
}

bool HasClockGate(const GeneratedStructure& rtl) {
  for (const auto& f : rtl.files)
    if (f.module == "gpurf_clock_gate")
      return true;
  return false;
}

struct SolverRun {
  int rc = 0;
  bool timed_out = false;
  std::string log;
  double seconds = 0;
  std::string status;              // PASSED / FAILED / other
  int last_step = -1;              // last "step N" the solver reported
  std::vector<std::string> locs;   // "file:line" of failed assertions
  bool assumptions_unsat = false;  // --presat found contradicting assumptions
};

SolverRun RunSmtbmc(const fs::path& dir, const std::string& args, int timeout_s) {
  SolverRun r;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string cmd =
      fmt::format("cd {} && timeout --kill-after=10 {} yosys-smtbmc -s z3 --unroll {} model.smt2",
                  ShellQuote(dir.string()), timeout_s, args);
  spdlog::debug("{}", cmd);
  r.rc = RunCommand(cmd, &r.log);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.timed_out = r.rc == 124 || r.rc == 137 || r.rc == 128 + 9;
  static const std::regex step_re(R"((?:in step|induction in step) (\d+))");
  // The source attribute of a flattened cell is "instance src|cell src": the last part names the
  // assertion itself, as file:line.col-line.col. Yosys starts the range after the previous
  // statement, so the assertion is on the range's last line.
  static const std::regex fail_re(
      R"(Assert failed in \S+: (?:\S*\|)?([^\s:|]+):(\d+)\.\d+(?:-(\d+)\.\d+)?)");
  static const std::regex status_re(R"(Status: (\S+))");
  std::string text = r.log;
  for (char& c : text)
    if (c == '\r')
      c = '\n';
  for (const std::string& line : SplitLines(text)) {
    std::smatch m;
    if (std::regex_search(line, m, step_re))
      r.last_step = std::stoi(m[1]);
    if (std::regex_search(line, m, fail_re)) {
      const std::string loc =
          fmt::format("{}:{}", m[1].str(), m[3].matched ? m[3].str() : m[2].str());
      if (std::find(r.locs.begin(), r.locs.end(), loc) == r.locs.end())
        r.locs.push_back(loc);
    }
    if (std::regex_search(line, m, status_re))
      r.status = m[1];
    if (line.find("Assumptions are unsatisfiable") != std::string::npos)
      r.assumptions_unsat = true;
  }
  return r;
}

// The unbounded step by ABC's PDR on `dir`/pdr.ys's AIGER model (constraints folded in, every
// assertion ORed into one property): status PASSED (proven for every reachable state), FAILED (a
// reachable state violates an assertion; PDR's frame in last_step) or other (timeout, tool error).
SolverRun RunPdr(const fs::path& dir, int timeout_s) {
  SolverRun r;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string cmd = fmt::format(
      "cd {} && yosys -q -l pdr.log -s pdr.ys && timeout --kill-after=10 {} yosys-abc -c "
      "'read_aiger model.aig; fold; orpos; pdr -T {}'",
      ShellQuote(dir.string()), timeout_s, timeout_s);
  spdlog::debug("{}", cmd);
  r.rc = RunCommand(cmd, &r.log);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.timed_out = r.rc == 124 || r.rc == 137 || r.rc == 128 + 9 ||
                r.log.find("Reached timeout") != std::string::npos;
  static const std::regex cex_re(R"(was asserted in frame (\d+))");
  std::smatch m;
  if (r.log.find("Property proved") != std::string::npos) {
    r.status = "PASSED";
  } else if (std::regex_search(r.log, m, cex_re)) {
    r.status = "FAILED";
    r.last_step = std::stoi(m[1]);
  }
  return r;
}

// The file `name` of the RTL as written, else of the work folder (the harness).
std::string SourceText(const GeneratedStructure& rtl, const fs::path& dir,
                       const std::string& name) {
  for (const GeneratedFile& f : rtl.files)
    if (f.name == name)
      return f.contents;
  return fs::exists(dir / name) ? ReadFile(dir / name) : std::string();
}

// Yosys locates an assertion by the last line of its statement; a `GPURF_ASSERT invocation may
// span several lines. The location of the statement that ends on `loc`'s line is its first line.
std::string AssertionStart(const GeneratedStructure& rtl, const fs::path& dir,
                           const std::string& loc) {
  const size_t colon = loc.rfind(':');
  if (colon == std::string::npos)
    return loc;
  const std::string name = loc.substr(0, colon);
  const int line = std::stoi(loc.substr(colon + 1));
  const std::string text = SourceText(rtl, dir, name);
  for (const RtlAssertion& a : FindRtlAssertions(text)) {
    const int first = 1 + static_cast<int>(std::count(text.begin(), text.begin() + a.begin, '\n'));
    const int last =
        first + static_cast<int>(std::count(text.begin() + a.begin, text.begin() + a.end, '\n'));
    if (line >= first && line <= last)
      return fmt::format("{}:{}", name, first);
  }
  return loc;
}

// The source statement at `loc` ("file:line"): from the generated file as written (an RTL
// assertion with its message, its continuation lines joined) or else from the work folder (the
// harness), trimmed.
std::string SourceLine(const GeneratedStructure& rtl, const fs::path& dir, const std::string& loc) {
  const size_t colon = loc.rfind(':');
  if (colon == std::string::npos)
    return {};
  const std::string name = loc.substr(0, colon);
  const int line = std::stoi(loc.substr(colon + 1));
  const std::string text = SourceText(rtl, dir, name);
  for (const RtlAssertion& a : FindRtlAssertions(text)) {
    const int first = 1 + static_cast<int>(std::count(text.begin(), text.begin() + a.begin, '\n'));
    if (first != line)
      continue;
    std::string joined;
    for (const std::string& part : SplitLines(text.substr(a.begin, a.end - a.begin))) {
      const size_t b = part.find_first_not_of(' ');
      if (b != std::string::npos)
        joined += (joined.empty() ? "" : " ") + part.substr(b);
    }
    return joined;
  }
  const auto lines = SplitLines(text);
  if (line < 1 || line > static_cast<int>(lines.size()))
    return {};
  std::string s = lines[static_cast<size_t>(line - 1)];
  const size_t b = s.find_first_not_of(' ');
  return b == std::string::npos ? std::string() : s.substr(b);
}

void CopyEvidence(const fs::path& work, const fs::path& dest, const std::vector<std::string>& names,
                  const std::string& vcd) {
  fs::create_directories(dest);
  for (const std::string& n : names)
    if (fs::exists(work / n))
      fs::copy_file(work / n, dest / n, fs::copy_options::overwrite_existing);
  if (!vcd.empty() && fs::exists(work / vcd))
    fs::copy_file(work / vcd, dest / vcd, fs::copy_options::overwrite_existing);
}

ProofResult ProveOne(const StructureSpec& spec, const GeneratedStructure& rtl, const PropertyDef& p,
                     const ProveOptions& opt) {
  ProofResult r;
  r.top = rtl.top;
  r.kind = rtl.kind;
  r.property = p.name;
  r.depth = opt.depth > 0 ? opt.depth : p.depth;
  const bool gated = HasClockGate(rtl);
  // One cycle is one step (two with clk2fflogic), plus one: a clocked assertion reports in the
  // step after the edge that samples it.
  r.steps = gated ? 2 * r.depth + 1 : r.depth + 1;

  const FormalView view = MakeFormalView(rtl, p.rtl_checks);
  if (!view.unmatched.empty()) {
    r.status = ProofResult::Status::kUnknown;
    r.reason =
        fmt::format("the RTL has no assertion with the message '{}' that this property consists of",
                    view.unmatched.front());
    return r;
  }
  const Harness h = p.harness(spec, rtl);

  const TempDir work("gpurf-prove");
  std::vector<std::string> names;
  std::string files;
  for (const GeneratedFile& f : view.files) {
    WriteFile(work.path() / f.name, f.contents);
    names.push_back(f.name);
    if (!IsRtlHeader(f.name))  // `included, found through -I.
      files += " " + f.name;
  }
  WriteFile(work.path() / h.file_name, h.text);
  names.push_back(h.file_name);
  files += " " + h.file_name;

  std::string connects;
  for (const auto& pr : h.probes)
    connects += fmt::format("connect -nomap -set {} \\u_dut.{}\n", pr.net, pr.dut_path);
  const std::string script = fmt::format(
      "# gpurf prove: {} / {} (K = {} cycles, {} solver steps)\n"
      "read_verilog -sv -formal -DGPURF_ASSERTIONS -DGPURF_FORMAL -I.{}\n"
      "hierarchy -check -top {}\n"
      "proc\n"
      "flatten\n"
      "hierarchy -top {}\n"
      "cd {}\n"
      "{}"
      "cd ..\n"
      "prep -top {}\n"
      "{}"
      "async2sync\n"
      "dffunmap\n"
      "write_smt2 -wires model.smt2\n",
      rtl.top, p.name, r.depth, r.steps, files, h.module, h.module, h.module, connects, h.module,
      gated ? "clk2fflogic\n" : "");
  WriteFile(work.path() / "prove.ys", script);
  names.push_back("prove.ys");
  const std::string bmc_args = fmt::format("--presat -t {} --dump-vcd trace.vcd", r.steps);
  const std::string ind_args = fmt::format("-i -t {} --dump-vcd induction.vcd", r.steps);
  std::string unbounded = fmt::format("yosys-smtbmc -s z3 --unroll {} model.smt2\n", ind_args);
  if (p.pdr) {
    // The same model as an and-inverter graph: flip-flops without an initial value get a free
    // one (-zinit), assertions become bad-state outputs and assumptions constraints.
    const std::string front = script.substr(0, script.find("write_smt2"));
    WriteFile(work.path() / "pdr.ys",
              front +
                  "memory_map\nopt -full -nosdff -nodffe\ntechmap\ndffunmap\nsimplemap\n"
                  "dfflegalize -cell $_DFF_P_ 01\nopt -fast -nosdff -nodffe\nabc -g AND\n"
                  "opt_clean\nwrite_aiger -zinit model.aig\n");
    names.push_back("pdr.ys");
    unbounded = "yosys -q -s pdr.ys\nyosys-abc -c 'read_aiger model.aig; fold; orpos; pdr'\n";
  }
  WriteFile(work.path() / "run.sh",
            fmt::format("#!/bin/sh\n# Reproduces the proof in this folder.\nset -e\n"
                        "yosys -q -s prove.ys\n"
                        "yosys-smtbmc -s z3 --unroll {}\n{}",
                        bmc_args + " model.smt2", unbounded));
  names.push_back("run.sh");

  std::string ylog;
  const int yrc = RunCommand(
      fmt::format("cd {} && yosys -q -l yosys.log -s prove.ys", ShellQuote(work.path().string())),
      &ylog);
  const std::string full_log =
      fs::exists(work.path() / "yosys.log") ? ReadFile(work.path() / "yosys.log") : ylog;
  if (yrc != 0 || !fs::exists(work.path() / "model.smt2")) {
    throw ToolError(fmt::format("yosys failed on the formal model of {} / {} (exit {}):\n{}",
                                rtl.top, p.name, yrc, Tail(full_log, 20)));
  }
  // An undriven net is a free variable to the solver: a probe that did not connect (or a
  // harness typo) must not silently change what is proven.
  for (const std::string& line : SplitLines(full_log)) {
    if (line.find("is used but has no driver") != std::string::npos) {
      throw ToolError(fmt::format("formal model of {} / {}: {}", rtl.top, p.name, line));
    }
  }

  const auto evidence = [&](const std::string& vcd) {
    if (opt.trace_dir.empty())
      return fs::path();
    const fs::path dest = opt.trace_dir / rtl.top / p.name;
    CopyEvidence(work.path(), dest, names, vcd);
    return vcd.empty() ? fs::path() : dest / vcd;
  };

  // The base case and the induction step are independent solver runs: run them side by side.
  auto induction = std::async(std::launch::async, [&] {
    return p.pdr ? RunPdr(work.path(), opt.timeout_seconds)
                 : RunSmtbmc(work.path(), ind_args, opt.timeout_seconds);
  });
  const SolverRun bmc = RunSmtbmc(work.path(), bmc_args, opt.timeout_seconds);
  const SolverRun ind = induction.get();
  r.bmc_seconds = bmc.seconds;
  if (bmc.timed_out) {
    r.status = ProofResult::Status::kUnknown;
    r.reason = fmt::format("base case timed out after {} s", opt.timeout_seconds);
    evidence("");
    return r;
  }
  if (bmc.assumptions_unsat) {
    r.status = ProofResult::Status::kUnknown;
    r.reason =
        fmt::format("the assumptions contradict each other by step {} (the proof would be vacuous)",
                    bmc.last_step);
    evidence("");
    return r;
  }
  if (bmc.status == "FAILED") {
    r.status = ProofResult::Status::kFailed;
    r.fail_step = bmc.last_step;
    for (const auto& loc : bmc.locs)
      r.assertions.push_back(AssertionStart(rtl, work.path(), loc));
    for (const auto& loc : r.assertions)
      r.assertion_text.push_back(SourceLine(rtl, work.path(), loc));
    r.trace = evidence("trace.vcd");
    return r;
  }
  if (bmc.status != "PASSED") {
    throw ToolError(fmt::format("yosys-smtbmc (base case) on {} / {} exited {}:\n{}", rtl.top,
                                p.name, bmc.rc, Tail(bmc.log, 15)));
  }

  r.induction_seconds = ind.seconds;
  if (ind.timed_out) {
    r.status = ProofResult::Status::kUnknown;
    r.reason = fmt::format("base case passed; induction timed out after {} s", opt.timeout_seconds);
    evidence("");
    return r;
  }
  if (ind.status == "PASSED") {
    r.status = ProofResult::Status::kProven;
    evidence("");  // the proof's inputs, to rerun it by hand (run.sh)
    return r;
  }
  if (ind.status != "FAILED") {
    throw ToolError(fmt::format("{} on {} / {} exited {}:\n{}",
                                p.pdr ? "yosys-abc (pdr)" : "yosys-smtbmc (induction)", rtl.top,
                                p.name, ind.rc, Tail(ind.log, 15)));
  }
  if (p.pdr) {
    // A reachable violation the base case did not reach within K.
    r.status = ProofResult::Status::kUnknown;
    r.reason = fmt::format(
        "base case passed for {} steps, but PDR reaches a violation (frame {}): raise --depth "
        "to get its trace",
        r.steps, ind.last_step);
    evidence("");
    return r;
  }
  r.status = ProofResult::Status::kUnknown;
  for (const auto& loc : ind.locs)
    r.assertions.push_back(AssertionStart(rtl, work.path(), loc));
  for (const auto& loc : r.assertions)
    r.assertion_text.push_back(SourceLine(rtl, work.path(), loc));
  r.reason = fmt::format(
      "base case passed for {} steps, but the property is not {}-inductive as stated (induction "
      "fails at {}); it may still hold: strengthen it or raise --depth",
      r.steps, r.depth, r.assertions.empty() ? std::string("an assertion") : r.assertions.front());
  r.trace = evidence("induction.vcd");
  return r;
}

}  // namespace

std::string ProofResult::StatusText() const {
  switch (status) {
    case Status::kProven:
      return "PROVEN";
    case Status::kFailed:
      return "FAILED";
    case Status::kUnknown:
      break;
  }
  return "UNKNOWN";
}

std::string ProofResult::Summary() const {
  const std::string head = fmt::format("{:<7} {} {}", StatusText(), top, property);
  const std::string times =
      induction_seconds > 0
          ? fmt::format("base case {:.1f} s, induction {:.1f} s", bmc_seconds, induction_seconds)
          : fmt::format("base case {:.1f} s", bmc_seconds);
  switch (status) {
    case Status::kProven:
      return fmt::format("{}: K = {} cycles ({} steps), {}", head, depth, steps, times);
    case Status::kFailed: {
      std::string where;
      for (size_t i = 0; i < assertions.size(); ++i) {
        where += fmt::format("{}assertion {}", i ? "; " : "", assertions[i]);
        if (i < assertion_text.size() && !assertion_text[i].empty())
          where += fmt::format(" `{}`", assertion_text[i]);
      }
      return fmt::format("{} at step {}: {}{}", head, fail_step,
                         where.empty() ? "an assertion" : where,
                         trace.empty() ? "" : fmt::format("; counterexample {}", trace.string()));
    }
    case Status::kUnknown:
      break;
  }
  return fmt::format("{}: {}{}", head, reason,
                     trace.empty() ? ""
                                   : fmt::format("; induction trace (may start in an unreachable "
                                                 "state) {}",
                                                 trace.string()));
}

bool HasFormalProperties(const std::string& kind) {
  return formal::FindFamily(kind) != nullptr;
}

std::vector<FormalPropertyInfo> FormalProperties(const StructureSpec& spec) {
  std::vector<FormalPropertyInfo> out;
  const Family* f = formal::FindFamily(KindName(spec));
  if (f == nullptr)
    return out;
  for (const PropertyDef& p : f->properties(spec))
    out.push_back({p.name, p.summary, p.depth, p.rtl_checks});
  return out;
}

std::vector<std::string> AllFormalPropertyNames() {
  // Every family's property names, from a default spec of each kind.
  std::vector<std::string> names;
  for (const StructureKind& k : StructureKinds()) {
    const Family* f = formal::FindFamily(k.name);
    if (f == nullptr)
      continue;
    const StructureSpec spec = k.make_spec(ParamSet(k.params));
    for (const PropertyDef& p : f->properties(spec))
      if (std::find(names.begin(), names.end(), p.name) == names.end())
        names.push_back(p.name);
  }
  return names;
}

void CheckFormalTools() {
  static const std::string missing = [] {
    for (const char* tool : {"yosys", "yosys-smtbmc", "yosys-abc", "z3", "timeout"}) {
      std::string out;
      if (RunCommand(fmt::format("command -v {}", tool), &out) != 0)
        return std::string(tool);
    }
    return std::string();
  }();
  if (!missing.empty()) {
    throw ToolError(fmt::format(
        "{} not found on PATH: run scripts/setup.sh (gpurf prove needs the Debian packages "
        "'yosys' (with yosys-smtbmc and yosys-abc) and 'z3')",
        missing));
  }
}

std::vector<ProofResult> ProveStructure(const StructureSpec& spec, const GeneratedStructure& rtl,
                                        const ProveOptions& opt) {
  CheckFormalTools();
  std::vector<ProofResult> out;
  const Family* f = formal::FindFamily(rtl.kind);
  if (f == nullptr)
    return out;
  for (const PropertyDef& p : f->properties(spec)) {
    if (!opt.property.empty() && opt.property != p.name)
      continue;
    spdlog::info("proving {} / {} ...", rtl.top, p.name);
    out.push_back(ProveOne(spec, rtl, p, opt));
  }
  return out;
}

}  // namespace gpurf
