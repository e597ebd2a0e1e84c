#include "gen/vlog/printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <sstream>

namespace gpurf::vlog {

namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

std::vector<std::string> SplitLines(const std::string& s) {
  std::vector<std::string> out;
  std::string line;
  std::istringstream in(s);
  while (std::getline(in, line))
    out.push_back(line);
  if (out.empty())
    out.emplace_back();
  return out;
}

std::string Range(const std::string& msb) {
  return msb.empty() ? "" : "[" + msb + ":0]";
}

// Every generated line fits in this many columns (comments and long expressions are wrapped);
// only a single token longer than the rest of its line, such as a long string literal, can
// exceed it.
constexpr size_t kMaxColumns = 100;

// Tokens a line of an expression may start with when it continues the previous one: binary
// and ternary operators (the break goes before them, so the operator leads the new line).
bool IsOperatorToken(const std::string& t) {
  static const char* const kOps[] = {"&&", "||", "|",  "&",  "^",   "?",  ":", "+",
                                     "-",  "*",  "/",  "%",  "==",  "!=", "<", ">",
                                     "<=", ">=", "<<", ">>", "===", "!=="};
  for (const char* op : kOps)
    if (t == op)
      return true;
  return false;
}

// Where an expression may be broken: a space outside string literals that follows a comma or
// precedes an operator token; `depth` is the bracket nesting there (fewer is better).
struct BreakPoint {
  size_t pos;
  int depth;
};

std::vector<BreakPoint> BreakPoints(const std::string& e) {
  std::vector<BreakPoint> out;
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < e.size(); ++i) {
    const char c = e[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ' ' && i > 0 && i + 1 < e.size()) {
      const size_t end = e.find(' ', i + 1);
      const std::string next = e.substr(i + 1, end == std::string::npos ? end : end - i - 1);
      if (e[i - 1] == ',' || IsOperatorToken(next))
        out.push_back({i, depth});
    }
  }
  return out;
}

// A piece of a broken expression and the bracket depth of the break before it.
struct Piece {
  std::string text;
  int depth = 0;
};

// Splits `text` into lines: the first starts at column `first_col`, the others at `cont_col`
// plus the depth of their break (a break inside parentheses is indented by one more column per
// level); the last is followed by `tail_len` characters. Breaks go at the shallowest break point
// that fills the line best; a piece with no break point that fits is left long.
std::vector<Piece> SplitExpr(const std::string& text, size_t first_col, size_t cont_col,
                             size_t tail_len) {
  std::vector<Piece> lines;
  int depth = 0;
  const std::vector<BreakPoint> breaks = BreakPoints(text);
  size_t start = 0;
  size_t col = first_col;
  while (col + (text.size() - start) + tail_len > kMaxColumns) {
    const BreakPoint* best = nullptr;
    for (const BreakPoint& b : breaks) {
      if (b.pos <= start || col + (b.pos - start) > kMaxColumns)
        continue;
      if (best == nullptr || b.depth < best->depth || (b.depth == best->depth && b.pos > best->pos))
        best = &b;
    }
    if (best == nullptr) {  // nothing fits: break at the first point, if any
      for (const BreakPoint& b : breaks) {
        if (b.pos > start) {
          best = &b;
          break;
        }
      }
    }
    if (best == nullptr)
      break;
    lines.push_back({text.substr(start, best->pos - start), depth});
    start = best->pos + 1;
    depth = best->depth;
    col = cont_col + static_cast<size_t>(depth);
  }
  lines.push_back({text.substr(start), depth});
  return lines;
}

// A line must not start with a word that Verilator reads as a metacomment ("// verilator ...").
bool IsMetaCommentWord(std::string w) {
  for (char& c : w)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return w == "verilator" || w == "synopsys" || w == "cadence" || w == "pragma" || w == "ambit" ||
         w == "lint_off" || w == "lint_on" || w == "coverage_off" || w == "coverage_on";
}

// Words of `text` filled into lines of at most `width` characters.
std::vector<std::string> FillWords(const std::string& text, size_t width) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;)
    words.push_back(w);
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& w : words) {
    if (!line.empty() && line.size() + 1 + w.size() > width && !IsMetaCommentWord(w)) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  if (!line.empty() || lines.empty())
    lines.push_back(line);
  return lines;
}

// A comment line's text wrapped to fit after `col` columns ("// " included); leading spaces
// (indented comment text) are kept on the first line and repeated on continuations.
std::vector<std::string> WrapCommentText(const std::string& text, size_t col) {
  if (col + 3 + text.size() <= kMaxColumns)
    return {text};
  const size_t lead = text.find_first_not_of(' ');
  if (lead == std::string::npos)
    return {text};
  const std::string pad(lead, ' ');
  const size_t width = kMaxColumns > col + 3 + lead + 20 ? kMaxColumns - col - 3 - lead : 20;
  std::vector<std::string> out;
  for (const std::string& l : FillWords(text.substr(lead), width))
    out.push_back(pad + l);
  return out;
}

class Printer {
 public:
  std::string Take() { return std::move(out_); }

  void Line(int indent, const std::string& text) {
    if (text.empty()) {
      out_ += "\n";
      return;
    }
    out_.append(static_cast<size_t>(indent) * 2, ' ');
    out_ += text;
    out_ += "\n";
  }

  void CommentLines(int indent, const std::string& text) {
    for (const auto& l : SplitLines(text)) {
      for (const auto& w : WrapCommentText(l, static_cast<size_t>(indent) * 2))
        Line(indent, w.empty() ? "//" : "// " + w);
    }
  }

  // head + expr + tail on one line when it fits, else `expr` broken at its break points with
  // continuation lines at `cont` extra columns after the indent.
  void Wrapped(int indent, const std::string& head, const std::string& expr,
               const std::string& tail, size_t cont) {
    const size_t col = static_cast<size_t>(indent) * 2;
    const std::vector<Piece> parts = SplitExpr(expr, col + head.size(), col + cont, tail.size());
    for (size_t i = 0; i < parts.size(); ++i) {
      std::string text =
          (i == 0 ? head : std::string(cont + static_cast<size_t>(parts[i].depth), ' ')) +
          parts[i].text;
      if (i + 1 == parts.size())
        text += tail;
      Line(indent, text);
    }
  }

  // A declaration with a trailing comment aligned at `comment_col` (0: right after it): the
  // comment wraps at that column, or goes above the declaration when too little room is left.
  void DeclWithComment(int indent, const std::string& decl, const std::string& comment,
                       size_t comment_col) {
    if (comment.empty()) {
      Line(indent, decl);
      return;
    }
    const size_t col = static_cast<size_t>(indent) * 2;
    const std::string padded = Pad(decl, std::max(comment_col, decl.size() + 1));
    if (col + padded.size() + 3 + comment.size() <= kMaxColumns) {
      Line(indent, padded + "// " + comment);
      return;
    }
    if (col + padded.size() + 3 + 16 <= kMaxColumns) {
      const auto lines = FillWords(comment, kMaxColumns - col - padded.size() - 3);
      for (size_t i = 0; i < lines.size(); ++i)
        Line(indent, (i == 0 ? padded : std::string(padded.size(), ' ')) + "// " + lines[i]);
      return;
    }
    CommentLines(indent, comment);
    Line(indent, decl);
  }

  void PrintModule(const Module& m) {
    for (const auto& d : m.doc)
      CommentLines(0, d);
    PrintHeader(m);
    Line(0, "");
    PrintItems(1, m.items);
    Line(0, "");
    Line(0, "endmodule");
  }

  void PrintHeader(const Module& m) {
    if (m.params.empty()) {
      Line(0, fmt::format("module {} (", m.name));
    } else {
      Line(0, fmt::format("module {} #(", m.name));
      size_t w_name = 0;
      for (const auto& p : m.params)
        w_name = std::max(w_name, p.name.size());
      for (size_t i = 0; i < m.params.size(); ++i) {
        const Param& p = m.params[i];
        const std::string text =
            fmt::format("{} int {:<{}} = {}{}", p.local ? "localparam" : "parameter ", p.name,
                        w_name, p.value, i + 1 < m.params.size() ? "," : "");
        DeclWithComment(1, text, p.comment, ParamColumn(m));
      }
      Line(0, ") (");
    }
    size_t w_range = 0, w_name = 0;
    for (const auto& p : m.ports) {
      w_range = std::max(w_range, Range(p.width).size());
      w_name = std::max(w_name, p.name.size());
    }
    std::vector<std::string> lines;
    size_t w_line = 0;
    for (size_t i = 0; i < m.ports.size(); ++i) {
      const Port& p = m.ports[i];
      std::string text =
          fmt::format("{} logic {:<{}} {}{}", p.dir == Dir::kInput ? "input " : "output",
                      Range(p.width), w_range, p.name, i + 1 < m.ports.size() ? "," : "");
      if (w_range == 0) {
        text = fmt::format("{} logic {}{}", p.dir == Dir::kInput ? "input " : "output", p.name,
                           i + 1 < m.ports.size() ? "," : "");
      }
      w_line = std::max(w_line, text.size());
      lines.push_back(std::move(text));
    }
    for (size_t i = 0; i < m.ports.size(); ++i)
      DeclWithComment(1, lines[i], m.ports[i].comment, w_line + 1);
    Line(0, ");");
  }

  static size_t ParamColumn(const Module& m) {
    size_t w_name = 0, w_val = 0;
    for (const auto& p : m.params) {
      w_name = std::max(w_name, p.name.size());
      w_val = std::max(w_val, p.value.size());
    }
    return 10 + 5 + w_name + 3 + w_val + 2;
  }

  static std::string Pad(std::string s, size_t col) {
    if (s.size() < col)
      s.append(col - s.size(), ' ');
    return s;
  }

  void PrintItems(int indent, const Items& items) {
    for (size_t i = 0; i < items.size();) {
      // Consecutive declarations share aligned columns.
      if (std::holds_alternative<Net>(items[i].node)) {
        size_t j = i;
        while (j < items.size() && std::holds_alternative<Net>(items[j].node))
          ++j;
        PrintNets(indent, items, i, j);
        i = j;
        continue;
      }
      if (std::holds_alternative<LocalParam>(items[i].node)) {
        size_t j = i;
        while (j < items.size() && std::holds_alternative<LocalParam>(items[j].node))
          ++j;
        PrintLocalParams(indent, items, i, j);
        i = j;
        continue;
      }
      PrintItem(indent, items[i]);
      ++i;
    }
  }

  void PrintNets(int indent, const Items& items, size_t b, size_t e) {
    size_t w_range = 0, w_decl = 0;
    for (size_t i = b; i < e; ++i)
      w_range = std::max(w_range, Range(std::get<Net>(items[i].node).width).size());
    std::vector<std::string> decls;
    for (size_t i = b; i < e; ++i) {
      const Net& n = std::get<Net>(items[i].node);
      std::string d = w_range ? fmt::format("logic {:<{}} {}", Range(n.width), w_range, n.name)
                              : fmt::format("logic {}", n.name);
      if (!n.unpacked.empty())
        d += " [" + n.unpacked + "]";
      d += ";";
      w_decl = std::max(w_decl, d.size());
      decls.push_back(std::move(d));
    }
    for (size_t i = b; i < e; ++i) {
      const Net& n = std::get<Net>(items[i].node);
      if (!n.attribute.empty())
        Line(indent, "(* " + n.attribute + " *)");
      DeclWithComment(indent, decls[i - b], n.comment, w_decl + 1);
    }
  }

  void PrintLocalParams(int indent, const Items& items, size_t b, size_t e) {
    size_t w_name = 0, w_decl = 0;
    for (size_t i = b; i < e; ++i)
      w_name = std::max(w_name, std::get<LocalParam>(items[i].node).name.size());
    std::vector<std::string> decls;
    for (size_t i = b; i < e; ++i) {
      const LocalParam& p = std::get<LocalParam>(items[i].node);
      decls.push_back(fmt::format("localparam int {:<{}} = {};", p.name, w_name, p.value));
      w_decl = std::max(w_decl, decls.back().size());
    }
    for (size_t i = b; i < e; ++i) {
      const LocalParam& p = std::get<LocalParam>(items[i].node);
      DeclWithComment(indent, decls[i - b], p.comment, w_decl + 1);
    }
  }

  void PrintItem(int indent, const Item& item) {
    std::visit(Overloaded{
                   [&](const CommentItem& c) { CommentLines(indent, c.text); },
                   [&](const BlankLine&) { Line(0, ""); },
                   [&](const LocalParam&) {},
                   [&](const Net&) {},
                   [&](const ContinuousAssign& a) {
                     Wrapped(indent, fmt::format("assign {} = ", a.lhs), a.rhs, ";", 4);
                   },
                   [&](const Always& a) {
                     std::string head;
                     switch (a.kind) {
                       case AlwaysKind::kFF:
                         head = fmt::format("always_ff @({}) begin", a.sensitivity);
                         break;
                       case AlwaysKind::kComb:
                         head = "always_comb begin";
                         break;
                       case AlwaysKind::kLatch:
                         head = "always_latch begin";
                         break;
                       case AlwaysKind::kPlain:
                         head = fmt::format("always @({}) begin", a.sensitivity);
                         break;
                     }
                     if (!a.label.empty())
                       head += " : " + a.label;
                     Line(indent, head);
                     PrintBody(indent + 1, a.body);
                     Line(indent, "end");
                   },
                   [&](const Initial& in) {
                     Line(indent,
                          in.label.empty() ? "initial begin" : "initial begin : " + in.label);
                     PrintBody(indent + 1, in.body);
                     Line(indent, "end");
                   },
                   [&](const Instance& inst) { PrintInstance(indent, inst); },
                   [&](const GenerateFor& g) {
                     Line(indent, fmt::format("for (genvar {0} = 0; {0} < {1}; {0}++) begin : {2}",
                                              g.genvar, g.limit, g.label));
                     PrintItems(indent + 1, g.items);
                     Line(indent, "end");
                   },
                   [&](const GenerateIf& g) {
                     Line(indent, fmt::format("if ({}) begin : {}", g.cond, g.label));
                     PrintItems(indent + 1, g.items);
                     if (!g.else_label.empty()) {
                       Line(indent, fmt::format("end else begin : {}", g.else_label));
                       PrintItems(indent + 1, g.else_items);
                     }
                     Line(indent, "end");
                   },
                   [&](const Function& f) {
                     if (!f.comment.empty())
                       CommentLines(indent, f.comment);
                     std::vector<std::string> args;
                     for (const auto& a : f.args)
                       args.push_back("int unsigned " + a);
                     Line(indent, fmt::format("function automatic int unsigned {}({});", f.name,
                                              fmt::join(args, ", ")));
                     Wrapped(indent + 1, f.name + " = ", f.expr, ";", 4);
                     Line(indent, "endfunction");
                   },
                   [&](const Ifdef& d) {
                     Line(indent, "`ifdef " + d.macro);
                     PrintItems(indent, d.items);
                     Line(indent, "`endif  // " + d.macro);
                   },
               },
               item.node);
  }

  void PrintInstance(int indent, const Instance& inst) {
    std::string head = inst.module;
    std::vector<std::string> ps;
    for (const auto& [n, v] : inst.params)
      ps.push_back(fmt::format(".{}({})", n, v));
    if (!ps.empty())
      head += fmt::format(" #({})", fmt::join(ps, ", "));
    const std::string first = fmt::format("{} {} (", head, inst.name);
    if (static_cast<size_t>(indent) * 2 + first.size() <= kMaxColumns) {
      Line(indent, first);
    } else {  // one parameter per line
      Line(indent, inst.module + " #(");
      for (size_t i = 0; i < ps.size(); ++i)
        Line(indent + 1, ps[i] + (i + 1 < ps.size() ? "," : ""));
      Line(indent, fmt::format(") {} (", inst.name));
    }
    size_t w = 0;
    for (const auto& p : inst.ports)
      w = std::max(w, p.first.size());
    for (size_t i = 0; i < inst.ports.size(); ++i) {
      const std::string port_head = fmt::format(".{:<{}} (", inst.ports[i].first, w);
      Wrapped(indent + 1, port_head, inst.ports[i].second, i + 1 < inst.ports.size() ? ")," : ")",
              port_head.size());
    }
    Line(indent, ");");
  }

  void PrintBody(int indent, const Body& body) {
    for (const auto& s : body)
      PrintStmt(indent, s);
  }

  void PrintStmt(int indent, const Stmt& s) {
    std::visit(Overloaded{
                   [&](const Assign& a) {
                     Wrapped(indent, fmt::format("{} {} ", a.lhs, a.nonblocking ? "<=" : "="),
                             a.rhs, ";", 4);
                   },
                   [&](const If& i) { PrintIf(indent, i, false); },
                   [&](const For& f) {
                     Line(indent,
                          fmt::format("for (int {0} = 0; {0} < {1}; {0}++) begin", f.var, f.limit));
                     PrintBody(indent + 1, f.body);
                     Line(indent, "end");
                   },
                   [&](const Call& c) {
                     if (c.args.empty())
                       Line(indent, c.name + ";");
                     else
                       Wrapped(indent, c.name + "(", fmt::format("{}", fmt::join(c.args, ", ")),
                               ");", c.name.size() + 1);
                   },
                   [&](const Comment& c) { CommentLines(indent, c.text); },
                   [&](const Check& c) {
                     const char* kw = c.kind == Check::Kind::kAssume ? "assume" : "assert";
                     if (c.error.empty()) {
                       Wrapped(indent, fmt::format("{} (", kw), c.cond, ");", 4);
                     } else {
                       const std::string head = std::string(kAssertMacro) + "(";
                       Wrapped(indent, head,
                               fmt::format("{}, ({})", c.cond, fmt::join(c.error, ", ")), ")",
                               head.size());
                     }
                   },
               },
               s.node);
  }

  void PrintIf(int indent, const If& i, bool chained) {
    if (chained) {
      // Replace the previous branch's "end" line with "end else if (...) begin".
      out_.resize(out_.size() - (static_cast<size_t>(indent) * 2 + 4));
      Wrapped(indent, "end else if (", i.cond, ") begin", 4);
    } else {
      Wrapped(indent, "if (", i.cond, ") begin", 4);
    }
    PrintBody(indent + 1, i.then_body);
    if (i.else_body.empty()) {
      Line(indent, "end");
    } else if (i.else_body.size() == 1 && std::holds_alternative<If>(i.else_body[0].node)) {
      Line(indent, "end");
      PrintIf(indent, std::get<If>(i.else_body[0].node), true);
    } else {
      Line(indent, "end else begin");
      PrintBody(indent + 1, i.else_body);
      Line(indent, "end");
    }
  }

 private:
  std::string out_;
};

}  // namespace

std::string Print(const Module& m) {
  Printer p;
  p.PrintModule(m);
  return p.Take();
}

std::string Print(const SourceFile& f) {
  std::string out;
  for (const auto& b : f.banner) {
    for (const auto& w : WrapCommentText(b, 0))
      out += w.empty() ? "//\n" : "// " + w + "\n";
  }
  if (!f.banner.empty())
    out += "\n";
  for (const auto& inc : f.includes)
    out += fmt::format("`include \"{}\"\n", inc);
  if (!f.includes.empty())
    out += "\n";
  out += Print(f.module);
  return out;
}

}  // namespace gpurf::vlog
