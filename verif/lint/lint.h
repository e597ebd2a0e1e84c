// `gpurf lint`: Verilator (--lint-only -Wall), Yosys (read_verilog -sv; hierarchy -check;
// proc; check -assert) and Icarus (-g2012 -Wall) on generated RTL. Verilator and Icarus see both
// the simulation view (GPURF_ASSERTIONS defined) and the synthesis view; Yosys, the synthesis
// view only. Any warning fails, unless a
// waiver in verif/lint/waivers.txt (compiled in) matches it; waived findings are still listed.
#pragma once

#include <string>
#include <vector>

#include "base/fs.h"
#include "gen/output/artifact.h"

namespace gpurf {

struct LintFinding {
  std::string tool;     // verilator | yosys | iverilog
  std::string view;     // "assertions" or "synthesis"
  std::string message;  // first line of the tool's message
  bool waived = false;
  std::string reason;  // of the waiver
};

struct LintReport {
  std::string top;
  std::vector<LintFinding> findings;
  std::vector<std::string> tools_run;  // "verilator (assertions)", ...

  int unwaived() const;
  bool clean() const { return unwaived() == 0; }
};

struct LintWaiver {
  std::string tool;
  std::string pattern;
  std::string reason;
};

// Parses waiver text (the format of verif/lint/waivers.txt); throws InputError naming the line.
std::vector<LintWaiver> ParseWaivers(const std::string& text, const std::string& file_name);
const std::vector<LintWaiver>& BuiltinWaivers();

// Lints the files of `g`, which must already be written to `dir`.
LintReport LintStructure(const GeneratedStructure& g, const fs::path& dir);

}  // namespace gpurf
