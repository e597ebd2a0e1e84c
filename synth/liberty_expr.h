// Liberty Boolean function expressions (`function : "(!(A B))"`, `clocked_on : "CLK"`,
// `clear : "(!R)"`), parsed into a small tree and printed as a Verilog expression. This is how
// gate-level simulation models are built from the library itself (see gate_sim.h).
//
// Grammar (Liberty reference, as OpenSTA reads it; tightest first): `!x` and `x'` (not),
// `^` (xor), `&`, `*` or juxtaposition (and), `|` or `+` (or); `0`, `1`, pin and state names,
// parentheses.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpurf {

struct LibertyExpr {
  enum class Op { kName, kZero, kOne, kNot, kAnd, kOr, kXor } op = Op::kZero;
  std::string name;  // kName
  std::vector<std::unique_ptr<LibertyExpr>> args;

  // Every name the expression reads.
  void Names(std::vector<std::string>& out) const;
  // A Verilog expression; `rename` maps each name to a Verilog operand.
  std::string Verilog(const std::function<std::string(const std::string&)>& rename) const;
};

// Parses `text`; throws InputError naming `what` (e.g. "cell NAND2X1 pin Y function").
std::unique_ptr<LibertyExpr> ParseLibertyExpr(const std::string& text, const std::string& what);

}  // namespace gpurf
