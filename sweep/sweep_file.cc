#include "sweep/sweep_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <regex>
#include <set>
#include <variant>

#include "base/fs.h"
#include "base/hash.h"
#include "gen/config/yaml_loader.h"
#include "gen/output/artifact.h"

namespace gpurf {

namespace {

constexpr size_t kMaxPoints = 100000;
constexpr size_t kMaxAxisValues = 10000;

SourceLoc Loc(const std::string& file, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  if (m.is_null())
    return {file, 0, 0};
  return {file, m.line + 1, m.column + 1};
}

std::string Show(const YAML::Node& n) {
  if (n.IsScalar())
    return n.Scalar();
  if (n.IsNull())
    return "";
  return CanonicalJson(n).dump();
}

std::optional<double> AsNumber(const std::string& s) {
  if (s.empty())
    return std::nullopt;
  double d = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (ec != std::errc() || end != s.data() + s.size())
    return std::nullopt;
  return d;
}

// ------------------------------------------------------------------ constraint expressions
// expr := and ('or' and)*; and := not ('and' not)*; not := 'not' not | cmp;
// cmp := sum (('=='|'!='|'<'|'<='|'>'|'>=') sum)?; sum := prod (('+'|'-') prod)*;
// prod := atom (('*'|'/'|'%') atom)*; atom := number | 'string' | dotted.path | '(' expr ')'.
using Value = std::variant<double, std::string>;

class Expr {
 public:
  Expr(const SweepConstraint& c, const std::function<std::optional<Value>(const std::string&)>& get)
      : c_(c), s_(c.text), get_(get) {}

  bool Evaluate() {
    const Value v = Or();
    Skip();
    if (pos_ != s_.size())
      Fail(fmt::format("unexpected text at character {}", pos_ + 1));
    return Truthy(v);
  }

 private:
  [[noreturn]] void Fail(const std::string& problem) const {
    throw InputError(c_.loc, "constraints", c_.text, problem,
                     "comparisons (== != < <= > >=) of dotted design paths, numbers and 'strings' "
                     "with + - * / %, joined by and, or, not, parentheses");
  }
  void Skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
      ++pos_;
  }
  bool Eat(const std::string& tok) {
    Skip();
    if (s_.compare(pos_, tok.size(), tok) != 0)
      return false;
    const bool word = std::isalpha(static_cast<unsigned char>(tok[0]));
    if (word && pos_ + tok.size() < s_.size() &&
        (std::isalnum(static_cast<unsigned char>(s_[pos_ + tok.size()])) ||
         s_[pos_ + tok.size()] == '_'))
      return false;
    pos_ += tok.size();
    return true;
  }
  static bool Truthy(const Value& v) {
    if (const double* d = std::get_if<double>(&v))
      return *d != 0;
    return !std::get<std::string>(v).empty();
  }
  double Num(const Value& v, const char* op) const {
    if (const double* d = std::get_if<double>(&v))
      return *d;
    Fail(fmt::format("'{}' needs numbers, got the string '{}'", op, std::get<std::string>(v)));
  }
  Value Or() {
    Value v = And();
    while (Eat("or")) {
      const Value r = And();
      v = double(Truthy(v) || Truthy(r));
    }
    return v;
  }
  Value And() {
    Value v = Not();
    while (Eat("and")) {
      const Value r = Not();
      v = double(Truthy(v) && Truthy(r));
    }
    return v;
  }
  Value Not() {
    if (Eat("not"))
      return double(!Truthy(Not()));
    return Cmp();
  }
  Value Cmp() {
    const Value l = Sum();
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
      if (!Eat(op))
        continue;
      const Value r = Sum();
      const std::string o = op;
      if (o == "==" || o == "!=") {
        const bool eq = l.index() == r.index() && l == r;
        return double(o == "==" ? eq : !eq);
      }
      const double a = Num(l, op), b = Num(r, op);
      return double(o == "<=" ? a <= b : o == ">=" ? a >= b : o == "<" ? a < b : a > b);
    }
    return l;
  }
  Value Sum() {
    Value v = Prod();
    for (;;) {
      if (Eat("+"))
        v = Num(v, "+") + Num(Prod(), "+");
      else if (Eat("-"))
        v = Num(v, "-") - Num(Prod(), "-");
      else
        return v;
    }
  }
  Value Prod() {
    Value v = Atom();
    for (;;) {
      if (Eat("*")) {
        v = Num(v, "*") * Num(Atom(), "*");
      } else if (Eat("/")) {
        const double d = Num(Atom(), "/");
        if (d == 0)
          Fail("division by zero");
        v = Num(v, "/") / d;
      } else if (Eat("%")) {
        const double d = Num(Atom(), "%");
        if (d == 0)
          Fail("division by zero");
        v = std::fmod(Num(v, "%"), d);
      } else {
        return v;
      }
    }
  }
  Value Atom() {
    Skip();
    if (pos_ >= s_.size())
      Fail("the expression ends too early");
    const char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      Value v = Or();
      if (!Eat(")"))
        Fail("missing ')'");
      return v;
    }
    if (c == '\'') {
      const size_t end = s_.find('\'', pos_ + 1);
      if (end == std::string::npos)
        Fail("unterminated string");
      std::string str = s_.substr(pos_ + 1, end - pos_ - 1);
      pos_ = end + 1;
      return str;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-') {
      size_t end = pos_ + 1;
      while (
          end < s_.size() &&
          (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '.' || s_[end] == '+' ||
           s_[end] == '-') &&
          !(s_[end] == '-' || s_[end] == '+' ? !(s_[end - 1] == 'e' || s_[end - 1] == 'E') : false))
        ++end;
      const std::string tok = s_.substr(pos_, end - pos_);
      const auto d = AsNumber(tok);
      if (!d)
        Fail(fmt::format("'{}' is not a number", tok));
      pos_ = end;
      return *d;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t end = pos_;
      while (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) ||
                                 s_[end] == '_' || s_[end] == '.'))
        ++end;
      const std::string path = s_.substr(pos_, end - pos_);
      pos_ = end;
      if (path == "true")
        return 1.0;
      if (path == "false")
        return 0.0;
      const auto v = get_(path);
      if (!v)
        Fail(fmt::format("'{}' is not a field of the point's design", path));
      return *v;
    }
    Fail(fmt::format("unexpected '{}' at character {}", c, pos_ + 1));
  }

  const SweepConstraint& c_;
  const std::string& s_;
  const std::function<std::optional<Value>(const std::string&)>& get_;
  size_t pos_ = 0;
};

std::vector<std::string> SplitPath(const std::string& path) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos)
      return parts;
    start = dot + 1;
  }
}

// Sets `path` in the mapping `root` to `value` (creating sections); a part of the path that is
// not a mapping is an InputError at the axis.
void SetPath(YAML::Node root, const SweepAxis& axis, const YAML::Node& value) {
  const auto parts = SplitPath(axis.path);
  YAML::Node cur = root;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node next = cur[parts[i]];
    if (next.IsDefined() && !next.IsNull() && !next.IsMap()) {
      throw InputError(axis.loc, "axes", axis.path,
                       fmt::format("'{}' is a value, not a section, in the base design",
                                   fmt::join(parts.begin(), parts.begin() + i + 1, ".")),
                       "a dotted path to a design field (see gpurf gen --list)");
    }
    if (!next.IsMap())
      cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
    // reset(), not operator=: assigning a yaml-cpp node overwrites the node it refers to.
    YAML::Node child = cur[parts[i]];
    cur.reset(child);
  }
  cur[parts.back()] = YAML::Clone(value);
}

std::optional<Value> GetPath(const YAML::Node& root, const std::string& path) {
  YAML::Node cur = YAML::Clone(root);
  for (const auto& p : SplitPath(path)) {
    if (!cur.IsMap() || !cur[p].IsDefined())
      return std::nullopt;
    YAML::Node child = cur[p];
    cur.reset(child);
  }
  if (!cur.IsScalar())
    return std::nullopt;
  if (const auto d = AsNumber(cur.Scalar()))
    return *d;
  return cur.Scalar();
}

void Flatten(const nlohmann::json& j, const std::string& prefix, nlohmann::json& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items())
      Flatten(v, prefix.empty() ? k : prefix + "." + k, out);
  } else {
    out[prefix] = j;
  }
}

[[noreturn]] void Bad(const SourceLoc& loc, const std::string& field, const std::string& value,
                      const std::string& problem, const std::string& allowed) {
  throw InputError(loc, field, value, problem, allowed);
}

std::vector<std::string> StringList(const std::string& file, const YAML::Node& n,
                                    const std::string& field, const std::string& allowed) {
  std::vector<std::string> out;
  if (n.IsScalar()) {
    out.push_back(n.Scalar());
    return out;
  }
  if (!n.IsSequence() || n.size() == 0)
    Bad(Loc(file, n), field, Show(n), "not a non-empty list", allowed);
  for (const auto& e : n) {
    if (!e.IsScalar() || e.Scalar().empty())
      Bad(Loc(file, e), field, Show(e), "not a name", allowed);
    out.push_back(e.Scalar());
  }
  return out;
}

std::vector<YAML::Node> RangeValues(const std::string& file, const std::string& path,
                                    const YAML::Node& n, std::vector<SourceLoc>& locs) {
  const std::string allowed = "{from: A, to: B, step: S} with numbers A <= B and S > 0";
  for (const auto& kv : n) {
    const std::string k = kv.first.Scalar();
    if (k != "from" && k != "to" && k != "step")
      Bad(Loc(file, kv.first), "axes." + path, k, "unknown key in a range", allowed);
  }
  double v[3] = {0, 0, 1};
  bool integral = true;
  const char* keys[3] = {"from", "to", "step"};
  for (int i = 0; i < 3; ++i) {
    const YAML::Node x = n[keys[i]];
    if (!x.IsDefined()) {
      if (i == 2)
        continue;
      Bad(Loc(file, n), "axes." + path + "." + keys[i], "", "missing", allowed);
    }
    const auto d = x.IsScalar() ? AsNumber(x.Scalar()) : std::nullopt;
    if (!d || !std::isfinite(*d))
      Bad(Loc(file, x), "axes." + path + "." + keys[i], Show(x), "not a number", allowed);
    v[i] = *d;
    integral = integral && std::floor(*d) == *d;
  }
  if (v[2] <= 0)
    Bad(Loc(file, n["step"]), "axes." + path + ".step", Show(n["step"]), "not positive", allowed);
  if (v[0] > v[1])
    Bad(Loc(file, n["to"]), "axes." + path + ".to", Show(n["to"]), "smaller than from", allowed);
  if ((v[1] - v[0]) / v[2] + 1 > double(kMaxAxisValues))
    Bad(Loc(file, n), "axes." + path, Show(n), "too many values",
        fmt::format("at most {} values per axis", kMaxAxisValues));
  std::vector<YAML::Node> out;
  const auto count = static_cast<size_t>(std::floor((v[1] - v[0]) / v[2] + 1e-9)) + 1;
  for (size_t i = 0; i < count; ++i) {
    const double x = v[0] + double(i) * v[2];
    out.emplace_back(integral ? fmt::format("{}", static_cast<int64_t>(x)) : fmt::format("{}", x));
    locs.push_back(Loc(file, n));
  }
  return out;
}

}  // namespace

const std::vector<std::string>& SweepStepNames() {
  static const std::vector<std::string> names = {"generate",     "lint",     "verify", "synthesize",
                                                 "characterize", "simulate", "energy"};
  return names;
}

bool SweepStepPerWorkload(const std::string& step) {
  return step == "simulate" || step == "energy";
}

nlohmann::json CanonicalJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json j = nlohmann::json::object();  // std::map: sorted keys
      for (const auto& kv : node)
        j[kv.first.Scalar()] = CanonicalJson(kv.second);
      return j;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& e : node)
        j.push_back(CanonicalJson(e));
      return j;
    }
    case YAML::NodeType::Scalar: {
      const std::string& s = node.Scalar();
      int64_t i = 0;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
      if (ec == std::errc() && end == s.data() + s.size() && !s.empty())
        return i;
      if (const auto d = AsNumber(s))
        return *d;
      if (s == "true" || s == "false")
        return s == "true";
      return s;
    }
    default:
      return nullptr;
  }
}

std::string PointHash(const YAML::Node& design, const SweepFile& sweep) {
  nlohmann::json key;
  key["design"] = CanonicalJson(design);
  key["workloads"] = sweep.workloads;
  key["verify_cycles"] = sweep.options.verify_cycles;
  key["gpu"] = sweep.options.gpu;
  key["sms"] = sweep.options.sms;
  key["memory"] = sweep.options.memory;
  key["gpurf"] = GeneratorVersion();
  return HashHex(key.dump(), 16);
}

SweepFile LoadSweepFile(const std::string& path) {
  SweepFile sw;
  sw.path = path;
  sw.text = ReadInputFile(path, "sweep file", kMaxYamlBytes);
  const std::string& f = path;
  YAML::Node root;
  try {
    if (const int line = SecondYamlDocumentLine(sw.text); line > 0)
      Bad(SourceLoc{f, line, 1}, "", "---", "a second YAML document: a sweep file holds one sweep",
          "one YAML document");
    root = YAML::Load(sw.text);
  } catch (const YAML::ParserException& e) {
    Bad(SourceLoc{f, e.mark.line + 1, e.mark.column + 1}, "", "", "malformed YAML: " + e.msg,
        "YAML 1.2 mappings and lists");
  }
  const std::vector<std::string> keys = {"sweep",     "base",  "axes",    "constraints",
                                         "workloads", "steps", "options", "slurm"};
  if (!root.IsMap())
    Bad(SourceLoc{f, 1, 1}, "", "", "not a mapping",
        fmt::format("the keys {}", fmt::join(keys, ", ")));
  for (const auto& kv : root) {
    const std::string k = kv.first.Scalar();
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
      std::string problem = "unknown key";
      if (auto s = ClosestMatchIn(k, keys))
        problem += fmt::format(" (did you mean '{}'?)", *s);
      Bad(Loc(f, kv.first), k, k, problem, fmt::format("{}", fmt::join(keys, ", ")));
    }
  }
  // sweep: {name: ...}
  sw.name = fs::path(path).stem().string();
  if (const YAML::Node s = root["sweep"]; s.IsDefined()) {
    if (!s.IsMap())
      Bad(Loc(f, s), "sweep", Show(s), "not a mapping", "name, description");
    for (const auto& kv : s) {
      const std::string k = kv.first.Scalar();
      if (k == "name" && kv.second.IsScalar() && !kv.second.Scalar().empty())
        sw.name = kv.second.Scalar();
      else if (k == "description")
        continue;
      else
        Bad(Loc(f, kv.first), "sweep." + k, Show(kv.second),
            k == "name" ? "not a name" : "unknown key", "name (text), description (text)");
    }
  }
  // base: a design file (relative to the sweep file) or an inline design mapping.
  const YAML::Node base = root["base"];
  if (!base.IsDefined())
    Bad(SourceLoc{f, 1, 1}, "base", "", "missing", "a design .yaml path or a design mapping");
  sw.base_loc = Loc(f, base);
  if (base.IsScalar()) {
    fs::path p = base.Scalar();
    if (p.is_relative())
      p = fs::path(path).parent_path() / p;
    std::string text;
    try {
      text = ReadInputFile(p, "base", kMaxYamlBytes);
    } catch (const InputError& e) {
      Bad(sw.base_loc, "base", base.Scalar(), e.problem(), "a readable design .yaml file");
    }
    LoadDesignFromString(text, p.string());  // the base's own errors at its own lines
    sw.base = YAML::Load(text);
  } else if (base.IsMap()) {
    sw.base = YAML::Clone(base);
  } else {
    Bad(sw.base_loc, "base", Show(base), "not a file name or a mapping",
        "a design .yaml path or a design mapping");
  }
  // axes: {dotted.path: [values] | {from, to, step}}
  const YAML::Node axes = root["axes"];
  if (axes.IsDefined() && !axes.IsNull()) {
    if (!axes.IsMap())
      Bad(Loc(f, axes), "axes", Show(axes), "not a mapping",
          "dotted.design.path: [values] or {from: A, to: B, step: S}");
    std::set<std::string> seen;
    for (const auto& kv : axes) {
      SweepAxis ax;
      ax.path = kv.first.Scalar();
      ax.loc = Loc(f, kv.first);
      const auto parts = SplitPath(ax.path);
      for (const auto& p : parts)
        if (p.empty() || p.find_first_of(" \t[]{}") != std::string::npos)
          Bad(ax.loc, "axes", ax.path, "not a dotted path",
              "section.field, e.g. hierarchy.l1_entries_per_thread");
      if (!seen.insert(ax.path).second)
        Bad(ax.loc, "axes", ax.path, "axis given twice", "each path once");
      const YAML::Node v = kv.second;
      if (v.IsSequence()) {
        if (v.size() == 0)
          Bad(Loc(f, v), "axes." + ax.path, "[]", "an empty list", "at least one value");
        for (const auto& e : v) {
          if (e.IsNull())
            Bad(Loc(f, e), "axes." + ax.path, "", "an empty value", "a value or a mapping");
          ax.values.push_back(e);
          ax.value_locs.push_back(Loc(f, e));
        }
      } else if (v.IsMap() && v["from"].IsDefined()) {
        ax.values = RangeValues(f, ax.path, v, ax.value_locs);
      } else {
        Bad(v.IsNull() ? ax.loc : Loc(f, v), "axes." + ax.path, Show(v),
            "not a list of values or a range", "[v1, v2, ...] or {from: A, to: B, step: S}");
      }
      sw.axes.push_back(std::move(ax));
    }
  }
  // constraints: ["expr", ...]
  if (const YAML::Node c = root["constraints"]; c.IsDefined() && !c.IsNull()) {
    if (!c.IsSequence())
      Bad(Loc(f, c), "constraints", Show(c), "not a list", "a list of expressions");
    for (const auto& e : c) {
      if (!e.IsScalar() || e.Scalar().empty())
        Bad(Loc(f, e), "constraints", Show(e), "not an expression", "an expression as text");
      sw.constraints.push_back({e.Scalar(), Loc(f, e)});
    }
  }
  // workloads
  const YAML::Node w = root["workloads"];
  if (w.IsDefined())
    sw.workloads =
        StringList(f, w, "workloads", "corpus names, launch.yaml paths, Accel-Sim traces, or all");
  else
    sw.workloads = {"all"};
  // steps
  const YAML::Node st = root["steps"];
  if (!st.IsDefined())
    Bad(SourceLoc{f, 1, 1}, "steps", "", "missing",
        fmt::format("a list of {}", fmt::join(SweepStepNames(), ", ")));
  std::set<std::string> steps;
  for (const auto& e : st.IsSequence() ? st : YAML::Node(YAML::NodeType::Sequence)) {
    const std::string s = e.IsScalar() ? e.Scalar() : Show(e);
    const auto& n = SweepStepNames();
    if (std::find(n.begin(), n.end(), s) == n.end()) {
      std::string problem = "unknown step";
      if (auto m = ClosestMatchIn(s, n))
        problem += fmt::format(" (did you mean '{}'?)", *m);
      Bad(Loc(f, e), "steps", s, problem, fmt::format("{}", fmt::join(n, ", ")));
    }
    steps.insert(s);
  }
  if (!st.IsSequence() || steps.empty())
    Bad(Loc(f, st), "steps", Show(st), "not a non-empty list",
        fmt::format("a list of {}", fmt::join(SweepStepNames(), ", ")));
  for (const auto& s : SweepStepNames())
    if (steps.count(s))
      sw.steps.push_back(s);
  // options
  if (const YAML::Node o = root["options"]; o.IsDefined() && !o.IsNull()) {
    const std::string allowed =
        "verify_cycles (1..10000000000), gpu (a preset name), sms "
        "(1..1024), memory (ideal, hierarchy)";
    if (!o.IsMap())
      Bad(Loc(f, o), "options", Show(o), "not a mapping", allowed);
    for (const auto& kv : o) {
      const std::string k = kv.first.Scalar();
      const YAML::Node v = kv.second;
      const std::string val = Show(v);
      const auto num = v.IsScalar() ? AsNumber(val) : std::nullopt;
      if (k == "verify_cycles") {
        if (!num || *num < 1 || *num > 1e10 || std::floor(*num) != *num)
          Bad(Loc(f, v), "options.verify_cycles", val, "not an integer in range", allowed);
        sw.options.verify_cycles = static_cast<uint64_t>(*num);
      } else if (k == "sms") {
        if (!num || *num < 1 || *num > 1024 || std::floor(*num) != *num)
          Bad(Loc(f, v), "options.sms", val, "not an integer in range", allowed);
        sw.options.sms = static_cast<int>(*num);
      } else if (k == "memory") {
        if (val != "ideal" && val != "hierarchy")
          Bad(Loc(f, v), "options.memory", val, "not a memory model", "ideal, hierarchy");
        sw.options.memory = val;
      } else if (k == "gpu") {
        if (!v.IsScalar() || val.empty() ||
            val.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string::npos)
          Bad(Loc(f, v), "options.gpu", val, "not a preset name", "see gpurf gpu list");
        sw.options.gpu = val;
      } else {
        Bad(Loc(f, kv.first), "options." + k, k, "unknown option", allowed);
      }
    }
  }
  // slurm
  if (const YAML::Node o = root["slurm"]; o.IsDefined() && !o.IsNull()) {
    const std::string allowed =
        "partition, account (names), points_per_task (auto or 1..100000), max_running "
        "(0..100000), poll_seconds (0.1..3600), wait_hours (0.001..10000), sbatch_args (a list), "
        "resources (per step: {cpus, mem, time})";
    if (!o.IsMap())
      Bad(Loc(f, o), "slurm", Show(o), "not a mapping", allowed);
    const auto number = [&](const YAML::Node& v, const std::string& field, double lo, double hi,
                            bool integer) {
      const auto num = v.IsScalar() ? AsNumber(v.Scalar()) : std::nullopt;
      if (!num || *num < lo || *num > hi || (integer && std::floor(*num) != *num))
        Bad(Loc(f, v), field, Show(v),
            integer ? "not an integer in range" : "not a number in range",
            fmt::format("{} to {}", lo, hi));
      return *num;
    };
    const auto name = [&](const YAML::Node& v, const std::string& field) {
      const std::string val = Show(v);
      if (!v.IsScalar() || val.empty() ||
          val.find_first_of(" \t\n'\"$`\\;&|<>") != std::string::npos)
        Bad(Loc(f, v), field, val, "not a name", "a Slurm partition or account name");
      return val;
    };
    for (const auto& kv : o) {
      const std::string k = kv.first.Scalar();
      const YAML::Node v = kv.second;
      if (k == "partition") {
        sw.slurm.partition = name(v, "slurm.partition");
      } else if (k == "account") {
        sw.slurm.account = name(v, "slurm.account");
      } else if (k == "points_per_task") {
        sw.slurm.points_per_task =
            v.IsScalar() && v.Scalar() == "auto"
                ? 0
                : static_cast<int>(number(v, "slurm.points_per_task", 1, 100000, true));
      } else if (k == "max_running") {
        sw.slurm.max_running = static_cast<int>(number(v, "slurm.max_running", 0, 100000, true));
      } else if (k == "poll_seconds") {
        sw.slurm.poll_seconds = number(v, "slurm.poll_seconds", 0.1, 3600, false);
      } else if (k == "wait_hours") {
        sw.slurm.wait_hours = number(v, "slurm.wait_hours", 0.001, 10000, false);
      } else if (k == "sbatch_args") {
        sw.slurm.sbatch_args = StringList(f, v, "slurm.sbatch_args", "a list of sbatch arguments");
      } else if (k == "resources") {
        const std::string steps_allowed = fmt::format("{}", fmt::join(SweepStepNames(), ", "));
        if (!v.IsMap())
          Bad(Loc(f, v), "slurm.resources", Show(v), "not a mapping", "step: {cpus, mem, time}");
        for (const auto& s : v) {
          const std::string step = s.first.Scalar();
          const auto& names = SweepStepNames();
          if (std::find(names.begin(), names.end(), step) == names.end())
            Bad(Loc(f, s.first), "slurm.resources." + step, step, "unknown step", steps_allowed);
          if (!s.second.IsMap())
            Bad(Loc(f, s.second), "slurm.resources." + step, Show(s.second), "not a mapping",
                "{cpus: N, mem: 2G, time: MINUTES}");
          SlurmResources r;
          for (const auto& rk : s.second) {
            const std::string key = rk.first.Scalar();
            const std::string field = "slurm.resources." + step + "." + key;
            if (key == "cpus") {
              r.cpus = static_cast<int>(number(rk.second, field, 1, 4096, true));
            } else if (key == "mem") {
              static const std::regex mem_re("^[0-9]+[KMGT]?$");
              const std::string val = Show(rk.second);
              if (!rk.second.IsScalar() || !std::regex_match(val, mem_re))
                Bad(Loc(f, rk.second), field, val, "not a memory size", "e.g. 512M, 2G, 4096");
              r.mem = val;
            } else if (key == "time") {
              r.time_minutes = static_cast<int>(number(rk.second, field, 1, 525600, true));
            } else {
              Bad(Loc(f, rk.first), field, key, "unknown key",
                  "cpus (1..4096), mem (512M, 2G...), time (minutes)");
            }
          }
          sw.slurm.resources[step] = r;
        }
      } else {
        std::string problem = "unknown key";
        const std::vector<std::string> slurm_keys = {
            "partition",    "account",    "points_per_task", "max_running",
            "poll_seconds", "wait_hours", "sbatch_args",     "resources"};
        if (auto s = ClosestMatchIn(k, slurm_keys))
          problem += fmt::format(" (did you mean '{}'?)", *s);
        Bad(Loc(f, kv.first), "slurm." + k, k, problem, allowed);
      }
    }
  }
  return sw;
}

SlurmResources SlurmOptions::For(const std::string& step) const {
  SlurmResources r;
  if (const auto it = resources.find(step); it != resources.end())
    r = it->second;
  if (r.time_minutes == 0) {
    static const std::map<std::string, int> kDefault = {
        {"generate", 10},      {"lint", 10},     {"verify", 60}, {"synthesize", 120},
        {"characterize", 120}, {"simulate", 30}, {"energy", 30}};
    const auto it = kDefault.find(step);
    r.time_minutes = it == kDefault.end() ? 60 : it->second;
  }
  return r;
}

std::vector<SweepPoint> ExpandSweep(const SweepFile& sw) {
  size_t total = 1;
  for (const auto& ax : sw.axes) {
    total *= ax.values.size();
    if (total > kMaxPoints)
      Bad(ax.loc, "axes", ax.path, "the axes span too many points",
          fmt::format("at most {} points", kMaxPoints));
  }
  std::vector<SweepPoint> points;
  std::vector<size_t> idx(sw.axes.size(), 0);
  std::set<std::string> hashes;
  for (size_t n = 0; n < total; ++n) {
    // Combination n: the last axis varies fastest.
    size_t rest = n;
    for (size_t a = sw.axes.size(); a-- > 0;) {
      idx[a] = rest % sw.axes[a].values.size();
      rest /= sw.axes[a].values.size();
    }
    YAML::Node design = YAML::Clone(sw.base);
    SweepPoint pt;
    for (size_t a = 0; a < sw.axes.size(); ++a) {
      SetPath(design, sw.axes[a], sw.axes[a].values[idx[a]]);
      pt.axis_values.emplace_back(sw.axes[a].path, Show(sw.axes[a].values[idx[a]]));
    }
    bool keep = true;
    const std::function<std::optional<Value>(const std::string&)> get = [&](const std::string& p) {
      return GetPath(design, p);
    };
    for (const auto& c : sw.constraints) {
      Expr e(c, get);
      if (!e.Evaluate()) {
        keep = false;
        break;
      }
    }
    if (!keep)
      continue;
    YAML::Emitter out;
    out << design;
    pt.design = std::string(out.c_str()) + "\n";
    try {
      LoadDesignFromString(pt.design, "point design");
    } catch (const InputError& e) {
      // Blame the axis whose path is (or contains, or is inside) the field the loader named.
      const std::string& field = e.field();
      SourceLoc loc = sw.base_loc;
      for (size_t a = 0; a < sw.axes.size(); ++a) {
        const std::string& p = sw.axes[a].path;
        if (field == p || field.starts_with(p + ".") || p.starts_with(field + ".") ||
            (field.empty() && e.value() == sw.axes[a].values[idx[a]].Scalar())) {
          loc = e.problem().starts_with("unknown key") && field == p
                    ? sw.axes[a].loc
                    : sw.axes[a].value_locs[idx[a]];
          break;
        }
      }
      std::string where;
      for (const auto& [p, v] : pt.axis_values)
        where += fmt::format("{}{}={}", where.empty() ? "" : ", ", p, v);
      throw InputError(loc, field, e.value(),
                       e.problem() + (where.empty() ? "" : " (in the point " + where + ")"),
                       e.allowed());
    }
    pt.hash = PointHash(design, sw);
    if (!hashes.insert(pt.hash).second)
      continue;  // two combinations that give one design: run it once
    Flatten(CanonicalJson(design), "", pt.params);
    pt.index = points.size();
    points.push_back(std::move(pt));
  }
  if (points.empty())
    Bad(sw.constraints.empty() ? sw.base_loc : sw.constraints.front().loc, "constraints", "",
        "no point satisfies the constraints", "constraints that keep at least one point");
  return points;
}

}  // namespace gpurf
