#include "synth/liberty_expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "base/diag.h"

namespace gpurf {
namespace {

class ExprParser {
 public:
  ExprParser(const std::string& text, const std::string& what) : s_(text), what_(what) {}

  std::unique_ptr<LibertyExpr> Parse() {
    auto e = Or();
    Skip();
    if (pos_ != s_.size())
      Fail(fmt::format("unexpected '{}' at offset {}", s_[pos_], pos_));
    return e;
  }

 private:
  [[noreturn]] void Fail(const std::string& problem) const {
    throw InputError({}, what_, s_, problem, "a Liberty Boolean function");
  }
  void Skip() {
    while (pos_ < s_.size() &&
           (std::isspace(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '"'))
      ++pos_;
  }
  bool Peek(char c) {
    Skip();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  static bool NameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '[' || c == ']' ||
           c == '.';
  }
  // True when the next token starts an operand (implicit AND by juxtaposition).
  bool StartsOperand() {
    Skip();
    return pos_ < s_.size() && (NameChar(s_[pos_]) || s_[pos_] == '(' || s_[pos_] == '!');
  }
  // Trees are walked recursively (Names, Verilog, destruction), so their depth is capped; a
  // 64-input AND chain is 64 deep.
  static constexpr int kMaxDepth = 256;
  int DepthOf(const LibertyExpr* e) const {
    const auto it = depth_.find(e);
    return it == depth_.end() ? 1 : it->second;
  }
  std::unique_ptr<LibertyExpr> Node(LibertyExpr::Op op, std::unique_ptr<LibertyExpr> a,
                                    std::unique_ptr<LibertyExpr> b = nullptr) {
    auto e = std::make_unique<LibertyExpr>();
    e->op = op;
    const int d = 1 + std::max(DepthOf(a.get()), b ? DepthOf(b.get()) : 0);
    if (d > kMaxDepth)
      Fail(fmt::format("expression nested more than {} deep", kMaxDepth));
    depth_[e.get()] = d;
    e->args.push_back(std::move(a));
    if (b)
      e->args.push_back(std::move(b));
    return e;
  }
  // Parentheses and '!' recurse while parsing without always adding a level to the tree.
  void Enter() {
    if (++nesting_ > kMaxDepth)
      Fail(fmt::format("expression nested more than {} deep", kMaxDepth));
  }
  std::unique_ptr<LibertyExpr> Or() {
    auto e = And();
    while (Peek('|') || Peek('+')) {
      ++pos_;
      e = Node(LibertyExpr::Op::kOr, std::move(e), And());
    }
    return e;
  }
  std::unique_ptr<LibertyExpr> And() {
    auto e = Xor();
    while (true) {
      if (Peek('&') || Peek('*')) {
        ++pos_;
        e = Node(LibertyExpr::Op::kAnd, std::move(e), Xor());
      } else if (StartsOperand()) {
        e = Node(LibertyExpr::Op::kAnd, std::move(e), Xor());
      } else {
        return e;
      }
    }
  }
  std::unique_ptr<LibertyExpr> Xor() {
    auto e = Unary();
    while (Peek('^')) {
      ++pos_;
      e = Node(LibertyExpr::Op::kXor, std::move(e), Unary());
    }
    return e;
  }
  std::unique_ptr<LibertyExpr> Unary() {
    if (Peek('!')) {
      ++pos_;
      Enter();
      auto e = Node(LibertyExpr::Op::kNot, Unary());
      --nesting_;
      return e;
    }
    auto e = Primary();
    while (Peek('\'')) {
      ++pos_;
      e = Node(LibertyExpr::Op::kNot, std::move(e));
    }
    return e;
  }
  std::unique_ptr<LibertyExpr> Primary() {
    Skip();
    if (pos_ >= s_.size())
      Fail("unexpected end of expression");
    if (s_[pos_] == '(') {
      ++pos_;
      Enter();
      auto e = Or();
      if (!Peek(')'))
        Fail("missing ')'");
      ++pos_;
      --nesting_;
      return e;
    }
    std::string name;
    while (pos_ < s_.size() && NameChar(s_[pos_]))
      name += s_[pos_++];
    if (name.empty())
      Fail(fmt::format("unexpected '{}' at offset {}", s_[pos_], pos_));
    auto e = std::make_unique<LibertyExpr>();
    if (name == "0") {
      e->op = LibertyExpr::Op::kZero;
    } else if (name == "1") {
      e->op = LibertyExpr::Op::kOne;
    } else {
      e->op = LibertyExpr::Op::kName;
      e->name = name;
    }
    return e;
  }

  const std::string& s_;
  std::string what_;
  size_t pos_ = 0;
  int nesting_ = 0;
  std::unordered_map<const LibertyExpr*, int> depth_;  // of the operator nodes built so far
};

}  // namespace

void LibertyExpr::Names(std::vector<std::string>& out) const {
  if (op == Op::kName)
    out.push_back(name);
  for (const auto& a : args)
    a->Names(out);
}

std::string LibertyExpr::Verilog(
    const std::function<std::string(const std::string&)>& rename) const {
  switch (op) {
    case Op::kName:
      return rename(name);
    case Op::kZero:
      return "1'b0";
    case Op::kOne:
      return "1'b1";
    case Op::kNot:
      return "~" + args[0]->Verilog(rename);
    case Op::kAnd:
      return "(" + args[0]->Verilog(rename) + " & " + args[1]->Verilog(rename) + ")";
    case Op::kOr:
      return "(" + args[0]->Verilog(rename) + " | " + args[1]->Verilog(rename) + ")";
    case Op::kXor:
      return "(" + args[0]->Verilog(rename) + " ^ " + args[1]->Verilog(rename) + ")";
  }
  return "1'b0";
}

std::unique_ptr<LibertyExpr> ParseLibertyExpr(const std::string& text, const std::string& what) {
  return ExprParser(text, what).Parse();
}

}  // namespace gpurf
