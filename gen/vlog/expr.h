// Expression helpers: the few expression shapes generated code needs, spelled one way.
#pragma once

#include <string>
#include <vector>

namespace gpurf::vlog {

// name[lsb +: width]
std::string PartSelect(const std::string& name, const std::string& lsb, const std::string& width);
// name[index]
std::string Index(const std::string& name, const std::string& index);
// "(a) op (b)" without redundant parentheses for simple operands
std::string BinOp(const std::string& a, const std::string& op, const std::string& b);
// "a == b"
std::string Eq(const std::string& a, const std::string& b);
// "a && b && c"
std::string And(const std::vector<std::string>& terms);
// "|{a, b, c}" (reduction OR of a concatenation), or the term itself when there is one
std::string OrReduce(const std::vector<std::string>& terms);
// Sized literal W'(value): a cast so the expression width matches `width_expr`
std::string Cast(const std::string& width_expr, const std::string& value);
// Decimal integer literal
std::string Int(long long v);
// "Name-1" style MSB expression for a width expression
std::string Msb(const std::string& width_expr);
// SystemVerilog string literal with escapes
std::string Quote(const std::string& s);

}  // namespace gpurf::vlog
