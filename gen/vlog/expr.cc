#include "gen/vlog/expr.h"

#include <fmt/format.h>

#include <cctype>

namespace gpurf::vlog {

namespace {
// An operand needs parentheses when it has a space outside brackets, parentheses and braces
// (i.e. a top-level operator: "a == b", "a && b"); names, selects, casts and literals do not.
bool IsSimple(const std::string& e) {
  int depth = 0;
  for (char c : e) {
    if (c == '[' || c == '(' || c == '{')
      ++depth;
    if (c == ']' || c == ')' || c == '}')
      --depth;
    if (depth == 0 && (c == ' ' || c == '?'))
      return false;
  }
  return true;
}
std::string Paren(const std::string& e) {
  return IsSimple(e) ? e : "(" + e + ")";
}
}  // namespace

std::string PartSelect(const std::string& name, const std::string& lsb, const std::string& width) {
  return fmt::format("{}[{} +: {}]", name, lsb, width);
}

std::string Index(const std::string& name, const std::string& index) {
  return fmt::format("{}[{}]", name, index);
}

std::string BinOp(const std::string& a, const std::string& op, const std::string& b) {
  return fmt::format("{} {} {}", Paren(a), op, Paren(b));
}

std::string Eq(const std::string& a, const std::string& b) {
  return BinOp(a, "==", b);
}

std::string And(const std::vector<std::string>& terms) {
  std::string s;
  for (size_t i = 0; i < terms.size(); ++i) {
    if (i)
      s += " && ";
    s += Paren(terms[i]);
  }
  return s;
}

std::string OrReduce(const std::vector<std::string>& terms) {
  if (terms.size() == 1)
    return terms[0];
  return fmt::format("|{{{}}}", fmt::join(terms, ", "));
}

std::string Cast(const std::string& width_expr, const std::string& value) {
  return fmt::format("{}'({})", Paren(width_expr), value);
}

std::string Int(long long v) {
  return std::to_string(v);
}

std::string Msb(const std::string& width_expr) {
  return width_expr + "-1";
}

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

}  // namespace gpurf::vlog
