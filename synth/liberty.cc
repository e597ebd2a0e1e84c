#include "synth/liberty.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>

#include "base/diag.h"
#include "base/fs.h"

namespace gpurf {
namespace {

// ------------------------------------------------------------------------------- tokenizer

struct Token {
  enum Kind { kWord, kString, kPunct, kEnd } kind = kEnd;
  std::string text;
  int line = 0;
  size_t pos = 0;  // offset of its first character (for the column in messages)
};

class Lexer {
 public:
  Lexer(const std::string& text, std::string origin) : s_(text), origin_(std::move(origin)) {}

  Token Next() {
    SkipSpace();
    Token t;
    t.line = line_;
    t.pos = pos_;
    if (pos_ >= s_.size())
      return t;
    const char c = s_[pos_];
    if (c == '"') {
      ++pos_;
      t.kind = Token::kString;
      while (pos_ < s_.size() && s_[pos_] != '"') {
        if (s_[pos_] == '\\' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '\n') {
          pos_ += 2;
          ++line_;
          continue;
        }
        if (s_[pos_] == '\n')
          ++line_;
        t.text += s_[pos_++];
      }
      if (pos_ >= s_.size())
        Fail(t.pos, "unterminated string");
      ++pos_;
      return t;
    }
    if (std::string_view("(){}:;,").find(c) != std::string_view::npos) {
      ++pos_;
      t.kind = Token::kPunct;
      t.text = std::string(1, c);
      return t;
    }
    t.kind = Token::kWord;
    while (pos_ < s_.size()) {
      const char d = s_[pos_];
      if (std::isspace(static_cast<unsigned char>(d)) ||
          std::string_view("(){}:;,\"").find(d) != std::string_view::npos)
        break;
      if (d == '\\' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '\n' || s_[pos_ + 1] == '\r'))
        break;
      if (d == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*')
        break;
      t.text += d;
      ++pos_;
    }
    return t;
  }

  // Bad input at offset `pos` of the text: file:line:column.
  [[noreturn]] void Fail(size_t pos, const std::string& problem) const {
    pos = std::min(pos, s_.size());
    const auto begin = s_.begin();
    const auto at = begin + static_cast<long>(pos);
    const int line = 1 + static_cast<int>(std::count(begin, at, '\n'));
    const size_t nl = s_.rfind('\n', pos == 0 ? std::string::npos : pos - 1);
    const int column =
        static_cast<int>(nl == std::string::npos || pos == 0 ? pos : pos - nl - 1) + 1;
    throw InputError({origin_, line, column}, "liberty", "", problem, "a Liberty (.lib) file");
  }
  size_t pos() const { return pos_; }

 private:
  void SkipSpace() {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '\\' && pos_ + 1 < s_.size() &&
                 (s_[pos_ + 1] == '\n' || s_[pos_ + 1] == '\r')) {
        ++pos_;  // line continuation
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
        const size_t end = s_.find("*/", pos_ + 2);
        if (end == std::string::npos)
          Fail(pos_, "unterminated comment");
        line_ += static_cast<int>(std::count(s_.begin() + static_cast<long>(pos_),
                                             s_.begin() + static_cast<long>(end), '\n'));
        pos_ = end + 2;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
        while (pos_ < s_.size() && s_[pos_] != '\n')
          ++pos_;
      } else {
        break;
      }
    }
  }

  const std::string& s_;
  std::string origin_;
  size_t pos_ = 0;
  int line_ = 1;
};

// ---------------------------------------------------------------------------- syntax tree

struct Group {
  std::string type;                                        // "cell", "pin", "ff", ...
  std::vector<std::string> args;                           // cell (NAME) -> {"NAME"}
  std::vector<std::pair<std::string, std::string>> attrs;  // simple attributes
  std::vector<std::unique_ptr<Group>> children;

  std::optional<std::string> Attr(const std::string& key) const {
    for (const auto& [k, v] : attrs)
      if (k == key)
        return v;
    return std::nullopt;
  }
};

class Parser {
 public:
  Parser(const std::string& text, const std::string& origin) : lex_(text, origin) { Advance(); }

  std::unique_ptr<Group> ParseTop() {
    const size_t start = tok_.pos;
    if (tok_.kind != Token::kWord)
      lex_.Fail(tok_.pos, "expected 'library (name) {'");
    auto g = ParseStatementGroup();
    if (!g || g->type != "library")
      lex_.Fail(start, "expected a top-level 'library (name) { ... }' group");
    if (tok_.kind != Token::kEnd)
      lex_.Fail(tok_.pos, fmt::format("unexpected '{}' after the library group", tok_.text));
    return g;
  }

 private:
  void Advance() { tok_ = lex_.Next(); }
  bool IsPunct(char c) const { return tok_.kind == Token::kPunct && tok_.text[0] == c; }
  void Expect(char c) {
    if (!IsPunct(c))
      lex_.Fail(tok_.pos, fmt::format("expected '{}' but found '{}'", c,
                                      tok_.kind == Token::kEnd ? "end of file" : tok_.text));
    Advance();
  }

  // Parses one statement starting at a word. Returns a group for `name (args) { ... }`,
  // nullptr after storing a simple attribute into `parent` (or ignoring a complex one).
  std::unique_ptr<Group> ParseStatementGroup(Group* parent = nullptr) {
    const std::string name = tok_.text;
    const int line = tok_.line;
    const size_t at = tok_.pos;
    Advance();
    if (IsPunct(':')) {
      Advance();
      std::string value;
      while (tok_.kind != Token::kEnd && !IsPunct(';') && !IsPunct('}')) {
        if (tok_.line != line && !value.empty())
          break;  // a missing ';' at the end of the line
        if (!value.empty())
          value += ' ';
        value += tok_.text;
        Advance();
      }
      if (IsPunct(';'))
        Advance();
      if (parent != nullptr)
        parent->attrs.emplace_back(name, value);
      return nullptr;
    }
    if (!IsPunct('('))
      lex_.Fail(at, fmt::format("expected ':' or '(' after '{}'", name));
    Advance();
    auto g = std::make_unique<Group>();
    g->type = name;
    while (!IsPunct(')')) {
      if (tok_.kind == Token::kEnd)
        lex_.Fail(at, fmt::format("unterminated argument list of '{}'", name));
      if (!IsPunct(','))
        g->args.push_back(tok_.text);
      Advance();
    }
    Advance();
    if (IsPunct('{')) {
      // Real libraries nest a handful of levels (library, cell, pin, internal_power, table);
      // the cap keeps a malicious file from overflowing the stack.
      if (++depth_ > kMaxGroupDepth)
        lex_.Fail(at, fmt::format("groups nested more than {} deep", kMaxGroupDepth));
      Advance();
      while (!IsPunct('}')) {
        if (tok_.kind == Token::kEnd)
          lex_.Fail(at, fmt::format("group '{}' opened here is never closed", name));
        if (IsPunct(';')) {
          Advance();
          continue;
        }
        if (tok_.kind != Token::kWord)
          lex_.Fail(tok_.pos, fmt::format("unexpected '{}'", tok_.text));
        if (auto child = ParseStatementGroup(g.get()))
          g->children.push_back(std::move(child));
      }
      Advance();
      --depth_;
      return g;
    }
    if (IsPunct(';'))
      Advance();
    // A complex attribute, `name (a, b);`: its arguments joined by commas
    // (`capacitive_load_unit (1, pf)` -> "1,pf", `values ("1, 2", "3, 4")` -> "1, 2,3, 4").
    if (parent != nullptr && !g->args.empty()) {
      std::string joined;
      for (size_t i = 0; i < g->args.size(); ++i)
        joined += (i ? "," : "") + g->args[i];
      parent->attrs.emplace_back(name, joined);
    }
    return nullptr;
  }

  static constexpr int kMaxGroupDepth = 64;
  Lexer lex_;
  Token tok_;
  int depth_ = 0;
};

bool HasDescendant(const Group& g, const std::string& type) {
  for (const auto& c : g.children)
    if (c->type == type || HasDescendant(*c, type))
      return true;
  return false;
}

std::vector<double> Numbers(const std::string& text, const std::string& origin, int line,
                            const std::string& what) {
  std::vector<double> out;
  std::string cur;
  const auto flush = [&]() {
    if (cur.empty())
      return;
    try {
      size_t used = 0;
      out.push_back(std::stod(cur, &used));
      if (used != cur.size())
        throw std::invalid_argument(cur);
    } catch (const std::exception&) {
      throw InputError({origin, line, 0}, what, cur, "not a number", "comma-separated numbers");
    }
    cur.clear();
  };
  for (const char c : text) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c)))
      flush();
    else
      cur += c;
  }
  flush();
  return out;
}

struct Template {
  LibertyTable::Var var1 = LibertyTable::Var::kNone, var2 = LibertyTable::Var::kNone;
  std::vector<double> index1, index2;
};

LibertyTable::Var TableVar(const std::string& v) {
  if (v.empty())
    return LibertyTable::Var::kNone;
  if (v == "input_transition_time" || v == "input_net_transition")
    return LibertyTable::Var::kInputSlew;
  if (v == "total_output_net_capacitance")
    return LibertyTable::Var::kOutputLoad;
  return LibertyTable::Var::kOther;
}

using Templates = std::map<std::string, Template>;

LibertyTable ReadTable(const Group& g, const Templates& templates, const std::string& origin,
                       const std::string& what) {
  LibertyTable t;
  const std::string tmpl = g.args.empty() ? "" : g.args.front();
  if (const auto it = templates.find(tmpl); it != templates.end()) {
    t.var1 = it->second.var1;
    t.var2 = it->second.var2;
    t.index1 = it->second.index1;
    t.index2 = it->second.index2;
  } else if (tmpl != "scalar" && !tmpl.empty()) {
    throw InputError({origin, 0, 0}, what, tmpl, "unknown table template",
                     "a lu_table_template / power_lut_template declared in the library");
  }
  if (auto a = g.Attr("index_1"))
    t.index1 = Numbers(*a, origin, 0, what + " index_1");
  if (auto a = g.Attr("index_2"))
    t.index2 = Numbers(*a, origin, 0, what + " index_2");
  if (auto a = g.Attr("values"))
    t.values = Numbers(*a, origin, 0, what + " values");
  if (tmpl == "scalar" || tmpl.empty()) {
    t.var1 = t.var2 = LibertyTable::Var::kNone;
    t.index1.clear();
    t.index2.clear();
  }
  const size_t n1 = std::max<size_t>(1, t.index1.size()), n2 = std::max<size_t>(1, t.index2.size());
  if (t.values.size() != n1 * n2)
    throw InputError({origin, 0, 0}, what + " values", std::to_string(t.values.size()),
                     fmt::format("wrong number of table values for a {}x{} table", n1, n2),
                     fmt::format("{} values", n1 * n2));
  return t;
}

LibertyCell ReadCell(const Group& g, const Templates& templates, const std::string& origin) {
  LibertyCell cell;
  cell.name = g.args.empty() ? "" : g.args.front();
  if (auto a = g.Attr("area")) {
    try {
      cell.area = std::stod(*a);
      cell.has_area = true;
    } catch (const std::exception&) {
      throw InputError({origin, 0, 0}, "cell " + cell.name + " area", *a, "not a number");
    }
  }
  const auto number = [&](const std::string& text, const std::string& what) {
    const auto v = Numbers(text, origin, 0, "cell " + cell.name + " " + what);
    if (v.size() != 1)
      throw InputError({origin, 0, 0}, "cell " + cell.name + " " + what, text, "not a number");
    return v.front();
  };
  if (auto a = g.Attr("cell_leakage_power")) {
    cell.has_leakage_power = true;
    cell.leakage_power = number(*a, "cell_leakage_power");
  }
  double group_leak = 0;
  int group_leak_n = 0;
  for (const auto& c : g.children) {
    if (c->type == "ff" || c->type == "ff_bank") {
      cell.is_ff = true;
      cell.state_vars = c->args;
      cell.ff_clocked_on = c->Attr("clocked_on").value_or("");
      cell.ff_next_state = c->Attr("next_state").value_or("");
    } else if (c->type == "latch" || c->type == "latch_bank") {
      cell.is_latch = true;
      cell.state_vars = c->args;
      cell.latch_data_in = c->Attr("data_in").value_or("");
      cell.latch_enable = c->Attr("enable").value_or("");
    } else if (c->type == "leakage_power") {
      cell.has_leakage_power = true;
      if (auto v = c->Attr("value")) {
        group_leak += number(*v, "leakage_power value");
        ++group_leak_n;
      }
    } else if (c->type == "pin" || c->type == "bus") {
      for (const auto& n : c->args) {
        LibertyPin p;
        p.name = n;
        p.direction = c->Attr("direction").value_or("");
        p.function = c->Attr("function").value_or("");
        p.three_state = c->Attr("three_state").value_or("");
        if (auto cap = c->Attr("capacitance"))
          p.capacitance = number(*cap, "pin " + n + " capacitance");
        for (const auto& ip : c->children) {
          if (ip->type != "internal_power")
            continue;
          LibertyInternalPower pw;
          pw.related_pin = ip->Attr("related_pin").value_or("");
          pw.when = ip->Attr("when").value_or("");
          for (const auto& t : ip->children) {
            const std::string what = fmt::format("cell {} pin {} {}", cell.name, n, t->type);
            if (t->type == "rise_power")
              pw.rise = ReadTable(*t, templates, origin, what);
            else if (t->type == "fall_power")
              pw.fall = ReadTable(*t, templates, origin, what);
            else if (t->type == "power")
              pw.rise = pw.fall = ReadTable(*t, templates, origin, what);
          }
          p.internal_power.push_back(std::move(pw));
        }
        cell.pins.push_back(p);
      }
      if (HasDescendant(*c, "internal_power"))
        cell.has_internal_power = true;
    } else if (c->type == "internal_power") {
      cell.has_internal_power = true;
    }
  }
  for (const auto& c : g.children) {
    if (c->type == "ff" || c->type == "ff_bank" || c->type == "latch" || c->type == "latch_bank") {
      cell.clear = c->Attr("clear").value_or("");
      cell.preset = c->Attr("preset").value_or("");
      cell.clear_preset_var1 = c->Attr("clear_preset_var1").value_or("");
    }
  }
  if (!g.Attr("cell_leakage_power") && group_leak_n > 0)
    cell.leakage_power = group_leak / group_leak_n;
  return cell;
}

// "1ns" -> (1, "ns"); "10ps" -> (10, "ps").
std::optional<double> UnitScale(const std::string& text,
                                const std::map<std::string, double>& suffixes) {
  std::string t;
  for (const char c : text)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '"')
      t += c;
  size_t i = 0;
  while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.'))
    ++i;
  // The multiplier must be a whole finite number: "." or "1.2.3" or 400 digits make the unit
  // unusable (nullopt), as an unknown suffix does; std::stod threw on them.
  double mult = 1.0;
  if (i > 0) {
    const auto [end, ec] = std::from_chars(t.data(), t.data() + i, mult);
    if (ec != std::errc() || end != t.data() + i || !std::isfinite(mult))
      return std::nullopt;
  }
  std::string suffix = t.substr(i);
  std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const auto it = suffixes.find(suffix);
  if (it == suffixes.end())
    return std::nullopt;
  return mult * it->second;
}

}  // namespace

double LibertyTable::Lookup(double slew, double load) const {
  const auto arg = [&](Var v) { return v == Var::kInputSlew ? slew : load; };
  // Position of x on an axis: the segment [i, i+1] to interpolate or extrapolate on, and the
  // fraction along it.
  const auto locate = [](const std::vector<double>& axis, double x, size_t& i, double& f) {
    if (axis.size() < 2) {
      i = 0;
      f = 0;
      return;
    }
    i = 0;
    while (i + 2 < axis.size() && x > axis[i + 1])
      ++i;
    const double span = axis[i + 1] - axis[i];
    f = span == 0 ? 0 : (x - axis[i]) / span;
  };
  const size_t n2 = std::max<size_t>(1, index2.size());
  const auto at = [&](size_t a, size_t b) { return values[a * n2 + b]; };
  if (values.empty())
    return 0;
  size_t i = 0, j = 0;
  double fi = 0, fj = 0;
  locate(index1, arg(var1), i, fi);
  locate(index2, arg(var2), j, fj);
  const size_t i1 = index1.size() < 2 ? i : i + 1;
  const size_t j1 = index2.size() < 2 ? j : j + 1;
  const double a = at(i, j) + (at(i, j1) - at(i, j)) * fj;
  const double b = at(i1, j) + (at(i1, j1) - at(i1, j)) * fj;
  return a + (b - a) * fi;
}

double LibertyLibrary::EnergyUnitPj() const {
  if (!capacitive_unit_pf)
    throw InputError({path.string(), 0, 0}, "capacitive_load_unit", capacitive_load_unit,
                     "the library declares no usable capacitive_load_unit",
                     "capacitive_load_unit (1, pf) or (1, ff)");
  if (!voltage_unit_v)
    throw InputError({path.string(), 0, 0}, "voltage_unit", voltage_unit,
                     "the library declares no usable voltage_unit", "e.g. voltage_unit : \"1V\"");
  return *capacitive_unit_pf * *voltage_unit_v * *voltage_unit_v;
}

const LibertyPin* LibertyCell::FindPin(const std::string& pin) const {
  for (const auto& p : pins)
    if (p.name == pin)
      return &p;
  return nullptr;
}

const LibertyCell* LibertyLibrary::Find(const std::string& cell) const {
  const auto it = cells.find(cell);
  return it == cells.end() ? nullptr : &it->second;
}

const LibertyCell* LibertyLibrary::SmallestFlipFlop() const {
  const LibertyCell* best = nullptr;
  for (const auto& [n, c] : cells)
    if (c.is_ff && c.area > 0 && (best == nullptr || c.area < best->area))
      best = &c;
  return best;
}

std::vector<std::string> LibertyLibrary::Warnings() const {
  std::vector<std::string> w;
  for (const auto& [n, c] : cells) {
    if (!c.has_area)
      w.push_back(fmt::format("cell {} declares no area", n));
    else if (c.area <= 0)
      w.push_back(fmt::format("cell {} declares area {}", n, c.area));
    if (!c.has_internal_power && !c.has_leakage_power)
      w.push_back(fmt::format("cell {} has no power data (internal_power, leakage_power)", n));
    else if (!c.has_internal_power)
      w.push_back(fmt::format("cell {} has no internal_power data", n));
    else if (!c.has_leakage_power)
      w.push_back(fmt::format("cell {} has no leakage power data", n));
  }
  return w;
}

LibertyLibrary ParseLiberty(const std::string& text, const std::string& origin) {
  Parser p(text, origin);
  const auto top = p.ParseTop();
  LibertyLibrary lib;
  lib.name = top->args.empty() ? "" : top->args.front();
  lib.time_unit = top->Attr("time_unit").value_or("");
  lib.voltage_unit = top->Attr("voltage_unit").value_or("");
  lib.leakage_power_unit = top->Attr("leakage_power_unit").value_or("");
  lib.capacitive_load_unit = top->Attr("capacitive_load_unit").value_or("");
  lib.time_unit_ns = UnitScale(
      lib.time_unit, {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}, {"ps", 1e-3}, {"fs", 1e-6}});
  lib.voltage_unit_v = UnitScale(lib.voltage_unit, {{"v", 1}, {"mv", 1e-3}});
  lib.leakage_power_unit_w =
      UnitScale(lib.leakage_power_unit,
                {{"w", 1}, {"mw", 1e-3}, {"uw", 1e-6}, {"nw", 1e-9}, {"pw", 1e-12}, {"fw", 1e-15}});
  // A unit that is given but not understood is an error now, not a surprise in a later step.
  for (const auto& [attr, given, ok] :
       {std::tuple{"time_unit", lib.time_unit, lib.time_unit_ns.has_value()},
        std::tuple{"voltage_unit", lib.voltage_unit, lib.voltage_unit_v.has_value()},
        std::tuple{"leakage_power_unit", lib.leakage_power_unit,
                   lib.leakage_power_unit_w.has_value()}}) {
    if (!given.empty() && !ok)
      throw InputError({origin, 0, 0}, attr, given, "unknown unit",
                       "a number and a unit such as \"1ns\", \"1V\", \"1nW\"");
  }
  if (!lib.capacitive_load_unit.empty()) {
    // "1,pf": a multiplier and a unit.
    const size_t comma = lib.capacitive_load_unit.find(',');
    if (comma != std::string::npos) {
      const auto unit = UnitScale(lib.capacitive_load_unit.substr(comma + 1),
                                  {{"pf", 1}, {"ff", 1e-3}, {"nf", 1e3}});
      try {
        if (unit)
          lib.capacitive_unit_pf = std::stod(lib.capacitive_load_unit.substr(0, comma)) * *unit;
      } catch (const std::exception&) {
      }
    }
  }
  if (auto v = top->Attr("nom_voltage")) {
    try {
      lib.nom_voltage = std::stod(*v);
    } catch (const std::exception&) {
      throw InputError({origin, 0, 0}, "nom_voltage", *v, "not a number");
    }
  }
  Templates templates;
  for (const auto& c : top->children) {
    if ((c->type != "lu_table_template" && c->type != "power_lut_template") || c->args.empty())
      continue;
    Template t;
    t.var1 = TableVar(c->Attr("variable_1").value_or(""));
    t.var2 = TableVar(c->Attr("variable_2").value_or(""));
    if (auto a = c->Attr("index_1"))
      t.index1 = Numbers(*a, origin, 0, "template " + c->args.front() + " index_1");
    if (auto a = c->Attr("index_2"))
      t.index2 = Numbers(*a, origin, 0, "template " + c->args.front() + " index_2");
    templates[c->args.front()] = std::move(t);
  }
  for (const auto& c : top->children) {
    if (c->type != "cell")
      continue;
    LibertyCell cell = ReadCell(*c, templates, origin);
    lib.cells[cell.name] = std::move(cell);
  }
  if (lib.cells.empty())
    throw InputError({origin, 0, 0}, "liberty", "", "the library defines no cells",
                     "a Liberty (.lib) file with cell groups");
  return lib;
}

LibertyLibrary LoadLiberty(const fs::path& path) {
  std::string text = ReadInputFile(path, "--liberty", kMaxLibertyBytes);
  LibertyLibrary lib = ParseLiberty(text, path.string());
  lib.path = fs::absolute(path);
  lib.contents = std::move(text);
  return lib;
}

fs::path DefaultLibertyPath() {
  return "/usr/share/qflow/tech/osu018/osu018_stdcells.lib";
}

}  // namespace gpurf
