#include "gen/vlog/printer.h"

#include <fmt/format.h>

#include <algorithm>
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
    for (const auto& l : SplitLines(text))
      Line(indent, l.empty() ? "//" : "// " + l);
  }

  void PrintModule(const Module& m) {
    for (const auto& d : m.doc)
      Line(0, d.empty() ? "//" : "// " + d);
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
        std::string text =
            fmt::format("{} int {:<{}} = {}{}", p.local ? "localparam" : "parameter ", p.name,
                        w_name, p.value, i + 1 < m.params.size() ? "," : "");
        if (!p.comment.empty())
          text = Pad(text, ParamColumn(m)) + "// " + p.comment;
        Line(1, text);
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
    for (size_t i = 0; i < m.ports.size(); ++i) {
      std::string text = lines[i];
      if (!m.ports[i].comment.empty())
        text = Pad(text, w_line + 1) + "// " + m.ports[i].comment;
      Line(1, text);
    }
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
      Line(indent,
           n.comment.empty() ? decls[i - b] : Pad(decls[i - b], w_decl + 1) + "// " + n.comment);
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
      Line(indent,
           p.comment.empty() ? decls[i - b] : Pad(decls[i - b], w_decl + 1) + "// " + p.comment);
    }
  }

  void PrintItem(int indent, const Item& item) {
    std::visit(Overloaded{
                   [&](const CommentItem& c) { CommentLines(indent, c.text); },
                   [&](const BlankLine&) { Line(0, ""); },
                   [&](const LocalParam&) {},
                   [&](const Net&) {},
                   [&](const ContinuousAssign& a) {
                     Line(indent, fmt::format("assign {} = {};", a.lhs, a.rhs));
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
    if (!inst.params.empty()) {
      std::vector<std::string> ps;
      for (const auto& [n, v] : inst.params)
        ps.push_back(fmt::format(".{}({})", n, v));
      head += fmt::format(" #({})", fmt::join(ps, ", "));
    }
    Line(indent, fmt::format("{} {} (", head, inst.name));
    size_t w = 0;
    for (const auto& p : inst.ports)
      w = std::max(w, p.first.size());
    for (size_t i = 0; i < inst.ports.size(); ++i) {
      Line(indent + 1, fmt::format(".{:<{}} ({}){}", inst.ports[i].first, w, inst.ports[i].second,
                                   i + 1 < inst.ports.size() ? "," : ""));
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
                     Line(indent,
                          fmt::format("{} {} {};", a.lhs, a.nonblocking ? "<=" : "=", a.rhs));
                   },
                   [&](const If& i) { PrintIf(indent, i, false); },
                   [&](const For& f) {
                     Line(indent,
                          fmt::format("for (int {0} = 0; {0} < {1}; {0}++) begin", f.var, f.limit));
                     PrintBody(indent + 1, f.body);
                     Line(indent, "end");
                   },
                   [&](const Call& c) {
                     Line(indent, c.args.empty()
                                      ? c.name + ";"
                                      : fmt::format("{}({});", c.name, fmt::join(c.args, ", ")));
                   },
                   [&](const Comment& c) { CommentLines(indent, c.text); },
                   [&](const Check& c) {
                     const char* kw = c.kind == Check::Kind::kAssume ? "assume" : "assert";
                     Line(indent, c.error.empty() ? fmt::format("{} ({});", kw, c.cond)
                                                  : fmt::format("{} ({}) else $error({});", kw,
                                                                c.cond, fmt::join(c.error, ", ")));
                   },
               },
               s.node);
  }

  void PrintIf(int indent, const If& i, bool chained) {
    const std::string head = fmt::format("if ({}) begin", i.cond);
    if (chained) {
      out_.resize(out_.size() - 1);  // drop the newline after "end"
      out_ += " else " + head + "\n";
    } else {
      Line(indent, head);
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
  for (const auto& b : f.banner)
    out += b.empty() ? "//\n" : "// " + b + "\n";
  if (!f.banner.empty())
    out += "\n";
  out += Print(f.module);
  return out;
}

}  // namespace gpurf::vlog
