// Prints the structural Verilog model as text in gpurf's one house style: two-space indent,
// aligned parameter and port columns, `begin : label` on every generate block, named port
// connections, one module per file. Printing is a pure function of the tree.
#pragma once

#include <string>

#include "gen/vlog/ast.h"

namespace gpurf::vlog {

std::string Print(const Module& m);
std::string Print(const SourceFile& f);  // banner + module + trailing newline

}  // namespace gpurf::vlog
