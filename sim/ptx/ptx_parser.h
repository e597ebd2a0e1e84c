// PTX parser: the subset of PTX (ISA 7.x-9.x) that nvcc emits for ordinary kernels, decoded
// into PtxModule / PtxFunction / PtxInst (sim/ptx/ptx_ir.h).
//
// Accepted: .version/.target/.address_size, .visible/.weak .entry with scalar and byte-array
// params and performance directives (.maxntid, .reqntid, ...), .reg declarations (vectors
// %r<N> and plain lists), .shared and .local arrays with .align, labels, guards (@p, @!p), and
// the instructions listed in docs of PtxOpcodes(). Debug directives (.loc, .file, .pragma) are
// read and ignored. Anything else (an unknown opcode or modifier, a malformed or mistyped
// operand, an undeclared register, .func/call, module-scope variables) raises InputError with
// file:line:column; nothing is silently skipped.
#pragma once

#include <string>

#include "sim/ptx/ptx_ir.h"

namespace gpurf::sim::ptx {

// Parses PTX text; `file` names it in error messages.
PtxModule ParsePtx(const std::string& text, const std::string& file);
// Reads and parses a file (InputError when it cannot be read).
PtxModule LoadPtx(const std::string& path);

// The supported instruction names, for error messages and documentation.
const char* PtxOpcodes();

}  // namespace gpurf::sim::ptx
