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
#include "gen/config/hierarchy.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "gen/structures/rf_system/rf_system_spec.h"

namespace gpurf {

namespace {

// ------------------------------------------------------------------------------ the schema

struct Section {
  std::string key;
  std::string help;
  std::vector<ParamDesc> fields;
};

// hierarchy.kind: one value per registered hierarchy (gen/config/hierarchies/).
ParamDesc HierarchyKindParam() {
  std::vector<std::string> names;
  std::vector<std::string> help;
  for (const HierarchyKind& h : HierarchyKinds()) {
    names.push_back(h.name);
    help.push_back(fmt::format("{}: {}", h.name, h.summary));
  }
  return EnumParam("kind", names, "sw-orf", fmt::format("{}", fmt::join(help, "; ")));
}

const std::vector<Section>& Sections() {
  static const std::vector<Section> sections = {
      {"design",
       "identification of the design point",
       {StringParam("name", "design", 64, "short name used in reports"),
        StringParam("description", "-", 200, "one line of free text")}},
      {"sm",
       "streaming multiprocessor organisation (Gebhart Table I)",
       {IntParam("lanes", 1, 64, 32, "SIMT width = threads per warp"),
        IntParam("lane_cluster", 1, 32, 4,
                 "lanes per cluster; a register-file row holds one register of each"),
        IntParam("warps", 1, 64, 32, "resident warps"),
        IntParam("active_warps", 1, 64, 8, "warps the two-level scheduler keeps active")}},
      {"mrf",
       "banked main register file",
       {IntParam("banks", 1, 64, 32, "SRAM banks"),
        IntParam("entries", 16, 4096, 256, "rows per bank"),
        IntParam("width", 32, 1024, 128, "bits per row, must be lane_cluster x 32"),
        IntParam("capacity_kb", 1, 4096, 128, "optional cross-check of banks x entries x width"),
        IntParam("collectors", 1, 8, 4, "operand collectors per lane cluster"),
        EnumParam("interleave", {"register", "warp-swizzled"}, "register",
                  "register -> bank mapping: reg mod banks (paper), or (warp + reg) mod banks"),
        EnumParam("wb_policy", {"write-priority", "read-priority"}, "write-priority",
                  "who waits when a write-back and a read hit one bank row in one cycle"),
        EnumParam("bank_impl", {"macro", "flops"}, "macro",
                  "SRAM banks as hard macros (black boxes in synthesis) or flip-flop arrays")}},
      {"hierarchy",
       "register-file hierarchy in front of the MRF",
       {HierarchyKindParam(),
        IntParam("levels", 1, 3, 3,
                 "levels including the MRF: 1, 2 (MRF + L1) or 3 (MRF + L1 + L0)"),
        IntParam("l1_entries_per_thread", 1, 8, 3, "L1 ORF/RFC entries per thread"),
        IntParam("l0_entries_per_thread", 1, 1, 1, "L0 entries per thread"),
        BoolParam("l0_split", true,
                  "split L0 into one single-entry bank per operand slot (A, B, C)"),
        EnumParam("replacement", {"fifo", "lru"}, "lru", "hw-rfc replacement policy")}},
      {"storage",
       "flip-flop array options for every ORF/RFC level",
       {EnumParam("read_mode", {"comb", "reg"}, "comb", "combinational or registered reads"),
        BoolParam("bypass", false, "write-to-read bypass"),
        BoolParam("clock_gate", true, "per-row clock gating")}},
      {"scheduler",
       "warp scheduler",
       {EnumParam("kind", {"single-level", "two-level"}, "two-level", "scheduler organisation"),
        EnumParam("inner_policy", {"greedy", "round-robin"}, "round-robin",
                  "policy among active warps")}},
  };
  return sections;
}

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

// ------------------------------------------------------------------------------ building

struct Loaded {
  std::map<std::string, ParamSet> sections;
  std::map<std::string, SourceLoc> section_loc;
};

// The MRF of one lane cluster (Gebhart Figure 1(c): each cluster of lane_cluster lanes owns
// banks / clusters of the banks; the clusters run in lockstep, so one collector unit per
// cluster sees every bank conflict): its parameters traced to the YAML fields that decided them.
DesignStructure MrfFor(const DesignSpec& d, const ParamSet& mrf, const ParamSet& sm,
                       const SourceLoc& loc) {
  ParamSet p(MrfSpec::ParamDescs());
  auto from = [&](const std::string& key, const std::string& text, const ParamValue& v) {
    p.Set(key, text, v.loc, v.field + " (-> mrf." + key + ")");
  };
  from("banks", std::to_string(d.mrf.banks_per_cluster), mrf.Get("banks"));
  from("rows", std::to_string(d.mrf.entries), mrf.Get("entries"));
  from("width", std::to_string(d.mrf.width), mrf.Get("width"));
  from("warps", std::to_string(d.sm.warps), sm.Get("warps"));
  from("regs", std::to_string(d.mrf.registers_per_thread), mrf.Get("entries"));
  for (const char* k : {"collectors", "interleave", "wb_policy", "bank_impl"}) {
    const ParamValue& v = mrf.Get(k);
    p.Set(k, v.s, v.loc, v.field.empty() ? std::string("mrf.") + k : v.field);
  }
  DesignStructure s;
  s.name = "mrf";
  s.kind = "mrf";
  s.count = d.sm.clusters;
  s.role = fmt::format(
      "MRF of one lane cluster: {} banks x {} rows x {} bits, {} operand collectors, {} warps x "
      "{} registers",
      d.mrf.banks_per_cluster, d.mrf.entries, d.mrf.width, mrf.IntAsInt("collectors"), d.sm.warps,
      d.mrf.registers_per_thread);
  s.loc = loc;
  s.spec = MrfSpec::FromParams(p);
  return s;
}

// The register-file system top of one lane cluster: the MRF with the design's hierarchy behind
// one request interface (gen/structures/rf_system/rf_system_spec.h), every value traced to the
// YAML field that decided it. A combination the system cannot compose is listed as skipped.
DesignStructure RfSystemFor(const HierarchyKind& h, const HierarchyInputs& in) {
  const DesignSpec& d = in.design;
  const ParamSet& hier = in.hierarchy;
  const ParamSet& sm = in.sm;
  const ParamSet& mrf = in.mrf;
  const ParamSet& storage = in.storage;
  DesignStructure s;
  s.name = "rf_system";
  s.kind = "rf-system";
  s.count = d.sm.clusters;
  s.loc = in.loc;
  if (std::string why = h.system_skip_reason(in); !why.empty()) {
    s.role = "register-file system top of one lane cluster";
    s.skip_reason = std::move(why);
    return s;
  }
  ParamSet p(RfSystemSpec::ParamDescs());
  auto set = [&](const std::string& key, const std::string& text, const ParamValue& from) {
    p.Set(key, text, from.loc, from.field + " (-> rf_system." + key + ")");
  };
  set("hierarchy", d.hierarchy.kind, hier.Get("kind"));
  set("levels", std::to_string(d.hierarchy.levels), hier.Get("levels"));
  set("l1_entries", std::to_string(d.hierarchy.l1_entries_per_thread),
      hier.Get("l1_entries_per_thread"));
  set("l0_entries", std::to_string(d.hierarchy.l0_entries_per_thread),
      hier.Get("l0_entries_per_thread"));
  set("l0_split", d.hierarchy.l0_split ? "true" : "false", hier.Get("l0_split"));
  set("replacement", d.hierarchy.replacement, hier.Get("replacement"));
  set("warps", std::to_string(d.sm.warps), sm.Get("warps"));
  set("active_warps", std::to_string(d.sm.active_warps), sm.Get("active_warps"));
  set("banks", std::to_string(d.mrf.banks_per_cluster), mrf.Get("banks"));
  set("rows", std::to_string(d.mrf.entries), mrf.Get("entries"));
  set("regs", std::to_string(d.mrf.registers_per_thread), mrf.Get("entries"));
  set("width", std::to_string(d.mrf.width), mrf.Get("width"));
  for (const char* k : {"collectors", "interleave", "wb_policy", "bank_impl"})
    set(k, mrf.Get(k).s, mrf.Get(k));
  for (const char* k : {"read_mode", "bypass", "clock_gate"})
    set(k, storage.Get(k).s, storage.Get(k));
  s.spec = RfSystemSpec::FromParams(p);
  s.role = "register-file system top of one lane cluster: " +
           SpecAs<RfSystemSpec>(*s.spec).Description();
  return s;
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

std::vector<const DesignStructure*> DesignSpec::Implemented() const {
  std::vector<const DesignStructure*> v;
  for (const auto& s : structures) {
    if (s.implemented())
      v.push_back(&s);
  }
  return v;
}

std::vector<const DesignStructure*> DesignSpec::Skipped() const {
  std::vector<const DesignStructure*> v;
  for (const auto& s : structures) {
    if (!s.implemented())
      v.push_back(&s);
  }
  return v;
}

nlohmann::ordered_json DesignSpec::ToJson() const {
  nlohmann::ordered_json j;
  j["name"] = name;
  j["description"] = description;
  j["sm"] = {{"lanes", sm.lanes},
             {"lane_cluster", sm.lane_cluster},
             {"warps", sm.warps},
             {"active_warps", sm.active_warps},
             {"clusters", sm.clusters}};
  j["mrf"] = {{"banks", mrf.banks},
              {"banks_per_cluster", mrf.banks_per_cluster},
              {"entries", mrf.entries},
              {"width", mrf.width},
              {"capacity_bytes", mrf.capacity_bytes},
              {"registers_per_thread", mrf.registers_per_thread}};
  j["hierarchy"] = {{"kind", hierarchy.kind},
                    {"levels", hierarchy.levels},
                    {"l1_entries_per_thread", hierarchy.l1_entries_per_thread},
                    {"l0_entries_per_thread", hierarchy.l0_entries_per_thread},
                    {"l0_split", hierarchy.l0_split},
                    {"replacement", hierarchy.replacement}};
  j["scheduler"] = scheduler;
  j["inner_policy"] = inner_policy;
  nlohmann::ordered_json st = nlohmann::ordered_json::array();
  for (const auto& s : structures) {
    nlohmann::ordered_json e = {
        {"name", s.name}, {"kind", s.kind}, {"count", s.count}, {"role", s.role}};
    if (s.spec) {
      e["module"] = ModuleName(*s.spec);
      e["config_hash"] = ConfigHash(*s.spec);
      e["parameters"] = Params(*s.spec).ToJson();
    } else {
      e["skipped"] = s.skip_reason;
    }
    st.push_back(e);
  }
  j["structures"] = st;
  return j;
}

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
        "a mapping with the sections design, sm, mrf, hierarchy, storage, scheduler, structures");
  }

  std::vector<std::string> top_keys;
  for (const auto& s : Sections())
    top_keys.push_back(s.key);
  top_keys.push_back("structures");
  rd.CheckMap(root, "", top_keys);
  const std::map<std::string, SourceLoc> top_locs = rd.ValueLocs(root);

  Loaded ld;
  for (const auto& sec : Sections()) {
    ParamSet set(sec.fields);
    if (root[sec.key]) {
      ld.section_loc[sec.key] = top_locs.at(sec.key);
      rd.ReadFields(root[sec.key], sec.key, set, ld.section_loc[sec.key]);
    } else {
      ld.section_loc[sec.key] = SourceLoc{file_name, 1, 1};
    }
    set.LocateDefaults(ld.section_loc[sec.key], sec.key);
    ld.sections.emplace(sec.key, std::move(set));
  }
  const ParamSet& design = ld.sections.at("design");
  const ParamSet& sm = ld.sections.at("sm");
  const ParamSet& mrf = ld.sections.at("mrf");
  const ParamSet& hier = ld.sections.at("hierarchy");
  const ParamSet& storage = ld.sections.at("storage");
  const ParamSet& sched = ld.sections.at("scheduler");

  DesignSpec d;
  d.source = file_name;
  d.name = design.Str("name");
  d.description = design.Str("description");

  // --- SM organisation.
  d.sm.lanes = sm.IntAsInt("lanes");
  d.sm.lane_cluster = sm.IntAsInt("lane_cluster");
  d.sm.warps = sm.IntAsInt("warps");
  d.sm.active_warps = sm.IntAsInt("active_warps");
  d.sm.warp_size = d.sm.lanes;
  if (d.sm.lanes % d.sm.lane_cluster != 0) {
    sm.Reject("lane_cluster", fmt::format("must divide sm.lanes = {}", d.sm.lanes),
              "a divisor of sm.lanes");
  }
  d.sm.clusters = d.sm.lanes / d.sm.lane_cluster;
  if (d.sm.active_warps > d.sm.warps) {
    sm.Reject("active_warps", fmt::format("exceeds sm.warps = {}", d.sm.warps),
              fmt::format("integer 1..{} (sm.warps)", d.sm.warps));
  }

  // --- MRF.
  d.mrf.banks = mrf.IntAsInt("banks");
  d.mrf.entries = mrf.IntAsInt("entries");
  d.mrf.width = mrf.IntAsInt("width");
  if (d.mrf.width != 32 * d.sm.lane_cluster) {
    mrf.Reject("width",
               fmt::format("a row holds one 32-bit register of each of the {} lanes of a cluster",
                           d.sm.lane_cluster),
               fmt::format("{} (32 x sm.lane_cluster)", 32 * d.sm.lane_cluster));
  }
  d.mrf.capacity_bytes = static_cast<long long>(d.mrf.banks) * d.mrf.entries * d.mrf.width / 8;
  if (!mrf.Get("capacity_kb").defaulted && mrf.Int("capacity_kb") * 1024 != d.mrf.capacity_bytes) {
    mrf.Reject(
        "capacity_kb",
        fmt::format("does not match banks x entries x width = {} bytes", d.mrf.capacity_bytes),
        fmt::format("{} (or leave it out)", d.mrf.capacity_bytes / 1024.0));
  }
  const long long thread_regs =
      static_cast<long long>(d.mrf.banks) * d.mrf.entries * d.sm.lane_cluster;
  d.mrf.registers_per_thread =
      static_cast<int>(thread_regs / (static_cast<long long>(d.sm.warps) * d.sm.lanes));
  if (d.mrf.registers_per_thread < 1) {
    mrf.Reject(
        "entries",
        fmt::format(
            "the MRF holds {} thread-registers, fewer than one per thread of {} warps x {} lanes",
            thread_regs, d.sm.warps, d.sm.lanes),
        "banks x entries x lane_cluster >= warps x lanes");
  }
  if (d.mrf.banks % d.sm.clusters != 0) {
    mrf.Reject(
        "banks",
        fmt::format("each of the {} lane clusters owns an equal share of the banks", d.sm.clusters),
        fmt::format("a multiple of {} (sm.lanes / sm.lane_cluster)", d.sm.clusters));
  }
  d.mrf.banks_per_cluster = d.mrf.banks / d.sm.clusters;
  // Every warp owns ceil(regs / banks) rows of each bank of its cluster: keep the registers
  // per thread to what that layout holds (equal to the capacity share when warps divide entries).
  if (d.mrf.entries < d.sm.warps) {
    mrf.Reject("entries",
               fmt::format("every warp owns at least one row of each bank, and there are {} warps",
                           d.sm.warps),
               fmt::format("entries >= {} (sm.warps)", d.sm.warps));
  }
  d.mrf.registers_per_thread =
      std::min(d.mrf.registers_per_thread, d.mrf.banks_per_cluster * (d.mrf.entries / d.sm.warps));

  // --- Hierarchy.
  d.hierarchy.kind = hier.Enum("kind");
  d.hierarchy.levels = hier.IntAsInt("levels");
  d.hierarchy.l1_entries_per_thread = hier.IntAsInt("l1_entries_per_thread");
  d.hierarchy.l0_entries_per_thread = hier.IntAsInt("l0_entries_per_thread");
  d.hierarchy.l0_split = hier.Bool("l0_split");
  d.hierarchy.replacement = hier.Enum("replacement");
  const bool levels_given = !hier.Get("levels").defaulted;
  const HierarchyKind& hk = *FindHierarchyKind(d.hierarchy.kind);  // the enum allows no other
  if (hk.min_levels == hk.max_levels) {
    if (levels_given && d.hierarchy.levels != hk.min_levels) {
      hier.Reject("levels",
                  hk.min_levels == 1
                      ? fmt::format("an {} hierarchy has exactly one level", hk.name)
                      : fmt::format("a {} hierarchy has exactly {} levels", hk.name, hk.min_levels),
                  fmt::format("{} (or leave it out)", hk.min_levels));
    }
    d.hierarchy.levels = hk.min_levels;
  } else if (d.hierarchy.levels < hk.min_levels || d.hierarchy.levels > hk.max_levels) {
    hier.Reject("levels", fmt::format("a {} hierarchy needs the MRF plus at least an L1", hk.name),
                hk.max_levels == hk.min_levels + 1
                    ? fmt::format("{} or {}", hk.min_levels, hk.max_levels)
                    : fmt::format("{} to {}", hk.min_levels, hk.max_levels));
  }

  d.scheduler = sched.Enum("kind");
  d.inner_policy = sched.Enum("inner_policy");

  // --- Structures of the design point.
  const SourceLoc mrf_loc = ld.section_loc.at("mrf");
  const SourceLoc hier_loc = ld.section_loc.at("hierarchy");
  d.structures.push_back(MrfFor(d, mrf, sm, mrf_loc));
  const int aw = d.sm.active_warps;
  const HierarchyInputs hin{d, hier, sm, mrf, storage, hier_loc};
  for (DesignStructure& s : hk.structures(hin))
    d.structures.push_back(std::move(s));
  d.structures.push_back(RfSystemFor(hk, hin));
  if (d.scheduler == "two-level") {
    d.structures.push_back(
        DerivedStructure("warp_scheduler", "warp-scheduler",
                         fmt::format("two-level scheduler, {} of {} warps active, {} inner policy",
                                     aw, d.sm.warps, sched.Enum("inner_policy")),
                         1,
                         {{"warps", std::to_string(d.sm.warps), &sm.Get("warps")},
                          {"active", std::to_string(aw), &sm.Get("active_warps")},
                          {"inner_policy", sched.Enum("inner_policy"), &sched.Get("inner_policy")}},
                         ld.section_loc.at("scheduler")));
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

std::string DesignSchemaReference() {
  std::string s;
  for (const auto& sec : Sections()) {
    s += fmt::format("{}:  # {}\n", sec.key, sec.help);
    for (const auto& f : sec.fields) {
      s += fmt::format("  {:<22} {:<14} # {}; {}\n", f.name + ":", f.default_value, f.help,
                       f.allowed());
    }
  }
  s += "structures:  # extra standalone structures, a list of mappings\n";
  s += "  - name: <identifier>   kind: <structure kind>   count: <copies, default 1>   <kind "
       "parameters...>\n";
  return s;
}

}  // namespace gpurf
