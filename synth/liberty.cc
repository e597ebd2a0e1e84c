#include "synth/liberty.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <sstream>

#include "gen/util/diag.h"

namespace gpurf {
namespace {

// ------------------------------------------------------------------------------- tokenizer

struct Token {
  enum Kind { kWord, kString, kPunct, kEnd } kind = kEnd;
  std::string text;
  int line = 0;
};

class Lexer {
 public:
  Lexer(const std::string& text, std::string origin) : s_(text), origin_(std::move(origin)) {}

  Token Next() {
    SkipSpace();
    Token t;
    t.line = line_;
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
        Fail(t.line, "unterminated string");
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

  [[noreturn]] void Fail(int line, const std::string& problem) const {
    throw InputError({origin_, line, 0}, "liberty", "", problem, "a Liberty (.lib) file");
  }

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
          Fail(line_, "unterminated comment");
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
    if (tok_.kind != Token::kWord)
      lex_.Fail(tok_.line, "expected 'library (name) {'");
    auto g = ParseStatementGroup();
    if (!g || g->type != "library")
      lex_.Fail(tok_.line, "expected a top-level 'library (name) { ... }' group");
    return g;
  }

 private:
  void Advance() { tok_ = lex_.Next(); }
  bool IsPunct(char c) const { return tok_.kind == Token::kPunct && tok_.text[0] == c; }
  void Expect(char c) {
    if (!IsPunct(c))
      lex_.Fail(tok_.line, fmt::format("expected '{}' but found '{}'", c,
                                       tok_.kind == Token::kEnd ? "end of file" : tok_.text));
    Advance();
  }

  // Parses one statement starting at a word. Returns a group for `name (args) { ... }`,
  // nullptr after storing a simple attribute into `parent` (or ignoring a complex one).
  std::unique_ptr<Group> ParseStatementGroup(Group* parent = nullptr) {
    const std::string name = tok_.text;
    const int line = tok_.line;
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
      lex_.Fail(line, fmt::format("expected ':' or '(' after '{}'", name));
    Advance();
    auto g = std::make_unique<Group>();
    g->type = name;
    while (!IsPunct(')')) {
      if (tok_.kind == Token::kEnd)
        lex_.Fail(line, fmt::format("unterminated argument list of '{}'", name));
      if (!IsPunct(','))
        g->args.push_back(tok_.text);
      Advance();
    }
    Advance();
    if (IsPunct('{')) {
      Advance();
      while (!IsPunct('}')) {
        if (tok_.kind == Token::kEnd)
          lex_.Fail(line, fmt::format("group '{}' opened here is never closed", name));
        if (IsPunct(';')) {
          Advance();
          continue;
        }
        if (tok_.kind != Token::kWord)
          lex_.Fail(tok_.line, fmt::format("unexpected '{}'", tok_.text));
        if (auto child = ParseStatementGroup(g.get()))
          g->children.push_back(std::move(child));
      }
      Advance();
      return g;
    }
    if (IsPunct(';'))
      Advance();
    // A complex attribute, `name (a, b);`: kept as a childless group.
    if (parent != nullptr && !g->args.empty())
      parent->attrs.emplace_back(name, g->args.front());
    return nullptr;
  }

  Lexer lex_;
  Token tok_;
};

bool HasDescendant(const Group& g, const std::string& type) {
  for (const auto& c : g.children)
    if (c->type == type || HasDescendant(*c, type))
      return true;
  return false;
}

LibertyCell ReadCell(const Group& g, const std::string& origin) {
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
  cell.has_leakage_power = g.Attr("cell_leakage_power").has_value();
  for (const auto& c : g.children) {
    if (c->type == "ff" || c->type == "ff_bank") {
      cell.is_ff = true;
      cell.state_vars = c->args;
    } else if (c->type == "latch" || c->type == "latch_bank") {
      cell.is_latch = true;
      cell.state_vars = c->args;
      cell.latch_data_in = c->Attr("data_in").value_or("");
      cell.latch_enable = c->Attr("enable").value_or("");
    } else if (c->type == "leakage_power") {
      cell.has_leakage_power = true;
    } else if (c->type == "pin" || c->type == "bus") {
      for (const auto& n : c->args) {
        LibertyPin p;
        p.name = n;
        p.direction = c->Attr("direction").value_or("");
        p.function = c->Attr("function").value_or("");
        cell.pins.push_back(p);
      }
      if (HasDescendant(*c, "internal_power"))
        cell.has_internal_power = true;
    } else if (c->type == "internal_power") {
      cell.has_internal_power = true;
    }
  }
  return cell;
}

}  // namespace

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
  for (const auto& c : top->children) {
    if (c->type != "cell")
      continue;
    LibertyCell cell = ReadCell(*c, origin);
    lib.cells[cell.name] = std::move(cell);
  }
  if (lib.cells.empty())
    throw InputError({origin, 0, 0}, "liberty", "", "the library defines no cells",
                     "a Liberty (.lib) file with cell groups");
  return lib;
}

LibertyLibrary LoadLiberty(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw InputError({}, "--liberty", path.string(), "no such Liberty file",
                     "a readable Liberty (.lib) file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError({}, "--liberty", path.string(), "cannot read the Liberty file",
                     "a readable Liberty (.lib) file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad())
    throw InputError({}, "--liberty", path.string(), "cannot read the Liberty file",
                     "a readable Liberty (.lib) file");
  LibertyLibrary lib = ParseLiberty(ss.str(), path.string());
  lib.path = fs::absolute(path);
  lib.contents = ss.str();
  return lib;
}

fs::path DefaultLibertyPath() {
  return "/usr/share/qflow/tech/osu018/osu018_stdcells.lib";
}

}  // namespace gpurf
