// Pieces every structure generator shares: the regenerate command recorded in the banner and
// the manifest, the identity fields of a GeneratedStructure taken from a spec, and the one
// source-file shape of a generated module (banner, `include of the assertion macros, module).
//
// Conventions of the generated SystemVerilog (every emitter follows them):
//
// Parameters. A module's parameter list holds two kinds of values:
//  - `parameter`: overridable. Only a value the module body is written for in general: the
//    RTL is correct for every value its range check allows (flop array Entries/Width/ports, MRF
//    banks/rows/width/warps/registers/collectors/tag and counter widths, warp scheduler
//    NumWarps/NumActive). The constraints the body relies on are asserted in the module's
//    `initial` parameter check.
//  - `localparam`: generator-specialised, or derived. A value the generator built the text
//    around (which levels exist, how many replacement-age bits, which sub-module with which
//    shape is instantiated, whether range checks are needed) is not overridable: the module
//    name carries the configuration hash. Localparams get no range checks (they would be dead).
//  Comments never hard-code an overridable value: they name the parameter ("NumBanks banks").
//  Values of localparams may appear in comments.
//
// Assertions. Every check is an immediate assertion written with the macro of
// rtl/gpurf_assert.svh (vlog::Assert with a message: `GPURF_ASSERT(cond, ("%m: ...", args))`),
// inside `ifdef GPURF_ASSERTIONS: misuse and invariant checks in a clocked
// `always @(posedge clk_i or negedge rst_ni)` block gated by rst_ni, parameter checks in an
// `initial` block. No $error-only checks: the formal flow (verif/formal) proves the same
// assertions, selected by message.
//
// Layout. Lines fit in 100 columns (the printer wraps comments and long expressions). Flat
// port vectors are unpacked once into per-element wires or arrays in generate scopes, and
// index arithmetic on flat state vectors goes through named index functions; packed
// multi-dimensional arrays are not used (Yosys 0.23 rejects them).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gen/output/artifact.h"
#include "gen/params/param.h"
#include "gen/vlog/ast.h"

namespace gpurf {

// "gpurf gen <kind> --flag value ... -o DIR" from a structure's checked parameters, in
// declaration order; parameters for which `omit` returns true (ones that do not apply to this
// configuration) are left out.
std::string RegenerateCommand(const std::string& kind, const ParamSet& params,
                              const std::function<bool(const ParamDesc&)>& omit = {});

// A GeneratedStructure with the spec's identity filled in (kind, instance = kind, top module,
// config hash, parameters, regenerate command); the generator adds files, ports and `derived`.
template <typename Spec>
GeneratedStructure NewGeneratedStructure(const Spec& s, std::string regenerate) {
  GeneratedStructure g;
  g.kind = s.kind;
  g.instance = s.kind;
  g.top = s.module_name;
  g.config_hash = s.config_hash;
  g.regenerate = std::move(regenerate);
  g.parameters = s.params.ToJson();
  return g;
}

// The rtl/ primitive `file_name` as a file of a structure (module: the file's stem, or "" for a
// header).
GeneratedFile PrimitiveFile(const std::string& file_name);

// rtl/gpurf_assert.svh, which every generated module includes: the first file of a structure.
GeneratedFile AssertHeaderFile();

// The generated file of module `m`: banner, `include "gpurf_assert.svh", the module.
vlog::SourceFile ModuleSource(const std::string& kind, const std::string& config_hash,
                              const std::string& regenerate, vlog::Module m);

// Shorthands for the module-body items the emitters build (gen/vlog), in namespace emit so that a
// generator opts in with using-declarations.
namespace emit {
// A net (`logic`), an unpacked array when `unpacked` is given (kept as memory: "mem2reg").
vlog::Item Decl(std::string name, std::string msb, std::string comment, std::string unpacked = "");
vlog::Item Assign(std::string lhs, std::string rhs);
vlog::Item Comb(std::string label, vlog::Body body);
// always_ff on clk_i with the active-low asynchronous reset rst_ni: `reset`, else `run`.
vlog::Item Ff(std::string label, vlog::Body reset, vlog::Body run);
// always_ff on clk_i without reset (storage that needs none).
vlog::Item FfNoReset(std::string label, vlog::Body body);
}  // namespace emit

}  // namespace gpurf
