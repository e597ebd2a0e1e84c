#include "gen/config/yaml_loader.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "base/fs.h"
#include "base/hash.h"
#include "gen/config/derive.h"
#include "gen/config/design_schema.h"

namespace gpurf {

namespace {

// ------------------------------------------------------------------------------ YAML helpers

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  SourceLoc Loc(const YAML::Node& n) const {
    const YAML::Mark m = n.Mark();
    if (m.is_null())
      return {file_, 0, 0};
    return {file_, m.line + 1, m.column + 1};
  }
  SourceLoc Loc(const YAML::Mark& m) const { return {file_, m.line + 1, m.column + 1}; }
  // Where the value of `key` is: an empty value has no text of its own and yaml-cpp marks it at
  // the next token (often a later line), so it is reported at its key.
  SourceLoc ValueLoc(const YAML::Node& key, const YAML::Node& value) const {
    return value.IsNull() ? Loc(key) : Loc(value);
  }
  // ValueLoc of every key of the mapping `n`.
  std::map<std::string, SourceLoc> ValueLocs(const YAML::Node& n) const {
    std::map<std::string, SourceLoc> locs;
    for (const auto& kv : n) {
      if (kv.first.IsScalar())
        locs.emplace(kv.first.Scalar(), ValueLoc(kv.first, kv.second));
    }
    return locs;
  }

  static std::string Describe(const YAML::Node& n) {
    switch (n.Type()) {
      case YAML::NodeType::Map:
        return "a mapping";
      case YAML::NodeType::Sequence:
        return "a list";
      case YAML::NodeType::Null:
        return "nothing";
      case YAML::NodeType::Scalar:
        return "'" + n.Scalar() + "'";
      default:
        return "an undefined value";
    }
  }

  // Checks that `n` is a mapping whose keys are unique and in `allowed`.
  void CheckMap(const YAML::Node& n, const std::string& path,
                const std::vector<std::string>& allowed, const SourceLoc* at = nullptr) const {
    if (!n.IsMap()) {
      throw InputError(at ? *at : Loc(n), path, "",
                       "expected a mapping of keys to values, got " + Describe(n),
                       "keys: " + fmt::format("{}", fmt::join(allowed, ", ")));
    }
    std::set<std::string> seen;
    for (const auto& kv : n) {
      const YAML::Node& key = kv.first;
      if (!key.IsScalar()) {
        throw InputError(Loc(key), path, "", "keys must be plain names",
                         fmt::format("{}", fmt::join(allowed, ", ")));
      }
      const std::string k = key.Scalar();
      const std::string field = path.empty() ? k : path + "." + k;
      if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
        std::string problem = "unknown key";
        if (auto s = ClosestMatchIn(k, allowed))
          problem += fmt::format(" (did you mean '{}'?)", *s);
        throw InputError(Loc(key), field, k, problem, fmt::format("{}", fmt::join(allowed, ", ")));
      }
      if (!seen.insert(k).second) {
        throw InputError(Loc(key), field, k, "duplicate key", "each key at most once");
      }
    }
  }

  // The scalar text of `n` for `field`, or an InputError saying what was found instead.
  std::string Scalar(const YAML::Node& n, const std::string& field, const ParamDesc& d,
                     const SourceLoc* at = nullptr) const {
    if (!n.IsScalar()) {
      throw InputError(at ? *at : Loc(n), field, "", "expected a single value, got " + Describe(n),
                       d.allowed());
    }
    return n.Scalar();
  }

  // Reads the known fields of a section into `set`.
  void ReadFields(const YAML::Node& n, const std::string& path, ParamSet& set,
                  const SourceLoc& at) const {
    std::vector<std::string> keys;
    for (const auto& d : set.descs())
      keys.push_back(d.name);
    CheckMap(n, path, keys, &at);
    for (const auto& kv : n) {
      const std::string k = kv.first.Scalar();
      const ParamDesc* d = set.Find(k);
      const SourceLoc vl = ValueLoc(kv.first, kv.second);
      set.Set(k, Scalar(kv.second, path + "." + k, *d, &vl), vl, path + "." + k);
    }
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

bool IsIdentifier(const std::string& s) {
  static const std::regex re("[a-z][a-z0-9_]{0,47}");
  return std::regex_match(s, re);
}

// Flattens the `gpu:` mapping `n` (nested mappings give dotted paths: `sm: {warps: 48}` is
// `sm.warps`) into `g`; only the shape is checked here, the paths and values by the GPU
// configuration (sim/harness/gpu.h).
void ReadGpu(const Reader& rd, const YAML::Node& n, const std::string& prefix, const SourceLoc& at,
             GpuSection& g, std::set<std::string>& seen) {
  const std::string where = prefix.empty() ? "gpu" : "gpu." + prefix;
  const std::string allowed =
      "preset: <name>, then fields of the GPU configuration (`gpurf gpu show <preset>`), "
      "nested or dotted: `sm: {warps: 48}` or `sm.warps: 48`";
  if (!n.IsMap()) {
    throw InputError(at, where, "",
                     "expected a mapping of fields to values, got " + Reader::Describe(n), allowed);
  }
  for (const auto& kv : n) {
    if (!kv.first.IsScalar() || kv.first.Scalar().empty())
      throw InputError(rd.Loc(kv.first), where, "", "keys must be plain names", allowed);
    const std::string path = prefix.empty() ? kv.first.Scalar() : prefix + "." + kv.first.Scalar();
    const SourceLoc vl = rd.ValueLoc(kv.first, kv.second);
    if (kv.second.IsMap()) {
      ReadGpu(rd, kv.second, path, vl, g, seen);
      continue;
    }
    if (!kv.second.IsScalar()) {
      throw InputError(vl, "gpu." + path, "",
                       "expected a single value, got " + Reader::Describe(kv.second), allowed);
    }
    if (!seen.insert(path).second) {
      throw InputError(rd.Loc(kv.first), "gpu." + path, kv.first.Scalar(),
                       "set twice (nested and dotted forms name the same field)",
                       "each field at most once");
    }
    if (path == "preset") {
      g.preset = kv.second.Scalar();
      g.preset_given = true;
      g.loc = vl;
    } else {
      g.overrides.push_back({path, kv.second.Scalar(), vl});
    }
  }
}

DesignStructure Planned(const std::string& name, const std::string& kind, int count,
                        const std::string& role, const SourceLoc& loc) {
  DesignStructure s;
  s.name = name;
  s.kind = kind;
  s.count = count;
  s.role = role;
  s.loc = loc;
  s.skip_reason =
      fmt::format("structure kind '{}' is not implemented yet; described but not generated", kind);
  return s;
}

}  // namespace

DesignSpec LoadDesign(const std::string& path) {
  return LoadDesignFromString(ReadInputFile(path, "design file", kMaxYamlBytes), path);
}

DesignSpec LoadDesignFromString(const std::string& text, const std::string& file_name) {
  Reader rd(file_name);
  YAML::Node root;
  try {
    if (const int line = SecondYamlDocumentLine(text); line > 0)
      throw InputError(SourceLoc{file_name, line, 1}, "", "---",
                       "a second YAML document (after '---'): a design file holds one design",
                       "one YAML document");
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError(rd.Loc(e.mark), "", "", "malformed YAML: " + e.msg,
                     "YAML 1.2 mappings and lists");
  }
  if (root.IsNull()) {
    throw InputError(
        SourceLoc{file_name, 1, 1}, "", "", "the design file is empty",
        "a mapping with the sections design, sm, mrf, hierarchy, storage, scheduler, compiler, "
        "gpu, structures");
  }

  std::vector<std::string> top_keys;
  for (const auto& s : DesignSections())
    top_keys.push_back(s.key);
  top_keys.push_back("gpu");
  top_keys.push_back("structures");
  rd.CheckMap(root, "", top_keys);
  const std::map<std::string, SourceLoc> top_locs = rd.ValueLocs(root);

  CheckedSections ld;
  for (const auto& sec : DesignSections()) {
    ParamSet set(sec.fields);
    if (root[sec.key]) {
      ld.loc[sec.key] = top_locs.at(sec.key);
      rd.ReadFields(root[sec.key], sec.key, set, ld.loc[sec.key]);
    } else {
      ld.loc[sec.key] = SourceLoc{file_name, 1, 1};
    }
    set.LocateDefaults(ld.loc[sec.key], sec.key);
    ld.sections.emplace(sec.key, std::move(set));
  }
  // The design point: cross-field checks, derived values and the structures they imply.
  DesignSpec d = DeriveDesign(ld, file_name);

  // --- The GPU it runs on in the SM harness (checked there: sim/harness/gpu.h).
  d.gpu.loc = SourceLoc{file_name, 1, 1};
  if (root["gpu"]) {
    d.gpu.loc = top_locs.at("gpu");
    std::set<std::string> seen;
    ReadGpu(rd, root["gpu"], "", top_locs.at("gpu"), d.gpu, seen);
  }

  // --- Extra standalone structures.
  if (root["structures"]) {
    const YAML::Node list = root["structures"];
    if (!list.IsSequence()) {
      throw InputError(top_locs.at("structures"), "structures", "",
                       "expected a list, got " + Reader::Describe(list),
                       "a list of mappings with name, kind and the kind's parameters");
    }
    std::vector<std::string> kinds;
    for (const auto& k : StructureKinds())
      kinds.push_back(k.name);
    for (const auto& k : PlannedStructureKinds())
      kinds.push_back(k.name);
    // A set, not a scan of d.structures per entry: that was quadratic (a 1 MB list took 10 s).
    std::set<std::string> used_names;
    for (const auto& s : d.structures)
      used_names.insert(s.name);
    for (size_t i = 0; i < list.size(); ++i) {
      const YAML::Node e = list[i];
      const std::string path = fmt::format("structures[{}]", i);
      if (!e.IsMap()) {
        throw InputError(rd.Loc(e), path, "", "expected a mapping, got " + Reader::Describe(e),
                         "name, kind, count and the kind's parameters");
      }
      ParamSet head({StringParam("name", "x", 48, "instance name"),
                     EnumParam("kind", kinds, kinds.front(), "structure kind"),
                     IntParam("count", 1, 4096, 1, "identical copies")});
      for (const char* req : {"name", "kind"}) {
        if (!e[req]) {
          throw InputError(rd.Loc(e), path + "." + req, "", "missing required key",
                           head.Find(req)->allowed());
        }
      }
      const std::map<std::string, SourceLoc> at = rd.ValueLocs(e);
      for (const char* k : {"name", "kind", "count"}) {
        if (!e[k])
          continue;
        const SourceLoc& vl = at.at(k);
        head.Set(k, rd.Scalar(e[k], path + "." + k, *head.Find(k), &vl), vl, path + "." + k);
      }
      const std::string name = head.Str("name");
      if (!IsIdentifier(name)) {
        head.Reject("name", "not a valid instance name",
                    "lower-case letter, then letters, digits or '_' (max 48)");
      }
      if (!used_names.insert(name).second)
        head.Reject("name", "this name is already used in the design", "a unique name");
      const std::string kind = head.Enum("kind");
      const StructureKind* sk = FindStructureKind(kind);
      if (sk == nullptr) {
        d.structures.push_back(
            Planned(name, kind, head.IntAsInt("count"), "user-described structure", rd.Loc(e)));
        continue;
      }
      ParamSet p(sk->params);
      std::vector<std::string> keys = {"name", "kind", "count"};
      for (const auto& pd : sk->params)
        keys.push_back(pd.name);
      rd.CheckMap(e, path, keys);
      for (const auto& kv : e) {
        const std::string k = kv.first.Scalar();
        if (k == "name" || k == "kind" || k == "count")
          continue;
        const SourceLoc vl = rd.ValueLoc(kv.first, kv.second);
        p.Set(k, rd.Scalar(kv.second, path + "." + k, *p.Find(k), &vl), vl, path + "." + k);
      }
      DesignStructure s;
      s.name = name;
      s.kind = kind;
      s.count = head.IntAsInt("count");
      s.role = "user-described structure";
      s.loc = rd.Loc(e);
      s.spec = sk->make_spec(p);
      d.structures.push_back(std::move(s));
    }
  }

  d.config_hash = HashHex(d.ToJson().dump(), 6);
  return d;
}

}  // namespace gpurf
