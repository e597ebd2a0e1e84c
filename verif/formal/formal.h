// Formal proofs of the generated structures' invariants with Yosys' own formal flow (Debian 12
// has no SymbiYosys; its engine, yosys-smtbmc, comes with the yosys package):
//
//   read_verilog -sv -formal -DGPURF_ASSERTIONS <RTL> <harness>; flatten; (probe connects);
//   prep; [clk2fflogic]; async2sync; dffunmap; write_smt2
//   yosys-smtbmc -s z3 --unroll --presat -t N    (base case: bounded model check from reset)
//   yosys-smtbmc -s z3 --unroll -i -t N          (induction step)
//
// A property is PROVEN only when both pass: no trace from reset violates an assertion within N
// steps, and any N consecutive steps that satisfy every assertion (and assumption) are followed
// by a step that satisfies them too (k-induction). A base-case failure is a real counterexample
// (FAILED, with the assertion's source line, the step and a VCD). An induction failure alone is
// UNKNOWN: the property may hold but is not K-inductive as stated (strengthen it with an
// auxiliary assertion, or raise the depth). Timeouts are UNKNOWN too. Nothing else is PROVEN.
//
// Properties come from the RTL's own GPURF_ASSERTIONS checks (`assert (cond) else $error(...)`,
// selected by their message) and from a per-kind harness module generated here (inputs left
// free except for the interface contract's `assume`s, auxiliary shadow state, `(* anyconst *)`
// choices and further assertions). See verif/formal/README.md.
#pragma once

#include <string>
#include <vector>

#include "base/fs.h"
#include "gen/output/artifact.h"
#include "gen/structures/registry.h"

namespace gpurf {

// What `gpurf prove --list` shows of one property of one structure.
struct FormalPropertyInfo {
  std::string name;                     // "no-duplicate-tag"
  std::string summary;                  // the invariant in words
  int depth = 0;                        // K in clock cycles (base case and induction)
  std::vector<std::string> rtl_checks;  // messages of the RTL assertions it proves or relies on
};

struct ProveOptions {
  int depth = 0;              // 0: each property's own K; else this K (clock cycles) for every one
  std::string property;       // "": every property; else only this one
  int timeout_seconds = 600;  // per solver run; exceeded = UNKNOWN
  // "": keep nothing; else trace_dir/<top>/<property>/ receives each proof's inputs (formal-view
  // RTL, harness, prove.ys, run.sh) and, unless it was proven, the trace (trace.vcd for a
  // counterexample, induction.vcd for a failed induction step).
  fs::path trace_dir;
};

struct ProofResult {
  enum class Status { kProven, kFailed, kUnknown };

  std::string top;
  std::string kind;
  std::string property;
  Status status = Status::kUnknown;
  int depth = 0;       // K in clock cycles
  int steps = 0;       // solver steps (2 per cycle with a gated clock)
  int fail_step = -1;  // kFailed: the solver step at which the assertion failed
  // kFailed: the violated assertions as "file:line" and the source line itself.
  std::vector<std::string> assertions;
  std::vector<std::string> assertion_text;
  std::string reason;  // kUnknown: why (induction failed, timeout)
  fs::path trace;      // kFailed: the counterexample VCD (in trace_dir), or empty
  double bmc_seconds = 0;
  double induction_seconds = 0;

  bool proven() const { return status == Status::kProven; }
  bool failed() const { return status == Status::kFailed; }
  std::string StatusText() const;  // PROVEN / FAILED / UNKNOWN
  std::string Summary() const;     // one line, as `gpurf prove` prints it
};

// Kinds that have formal properties, and their properties for one structure.
bool HasFormalProperties(const std::string& kind);
std::vector<FormalPropertyInfo> FormalProperties(const StructureSpec& spec);

// Names of every property of every kind (for error messages).
std::vector<std::string> AllFormalPropertyNames();

// Throws ToolError when yosys, yosys-smtbmc or z3 is missing.
void CheckFormalTools();

// Proves the properties of one structure (`rtl` must be the RTL generated from `spec`, possibly
// mutated by a test). Works in a temporary folder that is removed; counterexample traces (with
// the formal view of the RTL and the harness they refer to) go to opt.trace_dir. Throws
// ToolError when a tool fails (not when a property fails).
std::vector<ProofResult> ProveStructure(const StructureSpec& spec, const GeneratedStructure& rtl,
                                        const ProveOptions& opt);

}  // namespace gpurf
