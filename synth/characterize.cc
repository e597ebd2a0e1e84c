#include "synth/characterize.h"

#include <fmt/format.h>
#include <pthread.h>
#include <spdlog/spdlog.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

#include "base/cache.h"
#include "base/diag.h"
#include "base/hash.h"
#include "synth/gate_netlist.h"
#include "synth/gate_sim.h"
#include "synth/level_table.h"
#include "synth/macro_cut.h"

namespace gpurf {
namespace {

// Bumped whenever the method changes in a way that changes results (invalidates the cache).
constexpr const char* kMethodVersion = "characterize-v2";

constexpr std::array<StimulusSet, 4> kSets = {StimulusSet::kIdle, StimulusSet::kReads,
                                              StimulusSet::kWrites, StimulusSet::kMixed};
// Every set a driver may add (for reading cached results).
constexpr std::array<StimulusSet, 6> kAllSets = {StimulusSet::kIdle,   StimulusSet::kReads,
                                                 StimulusSet::kWrites, StimulusSet::kMixed,
                                                 StimulusSet::kMisses, StimulusSet::kL0Reads};

// Runs `f` on a thread with a 1 GiB stack (address space, committed only as used) and rethrows
// its exception. Verilator puts the temporaries of a large netlist's settle/eval functions on
// the stack: the 48x128 3R1W array's probe concatenation overflows the default 8 MiB.
void RunWithLargeStack(const std::function<void()>& f) {
  struct Call {
    const std::function<void()>* f;
    std::exception_ptr error;
  } call{&f, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t{1} << 30);
  pthread_t t;
  const auto body = [](void* p) -> void* {
    auto* c = static_cast<Call*>(p);
    try {
      (*c->f)();
    } catch (...) {
      c->error = std::current_exception();
    }
    return nullptr;
  };
  const int rc = pthread_create(&t, &attr, body, &call);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    f();  // no thread: run here
    return;
  }
  pthread_join(t, nullptr);
  if (call.error)
    std::rethrow_exception(call.error);
}

void Progress(const CharacterizeOptions& opt, const std::string& line) {
  if (opt.progress)
    opt.progress(line);
  else
    spdlog::info("{}", line);
}

nlohmann::ordered_json EnergyJson(const RunEnergy& e) {
  return {{"internal_pj", e.internal_pj},
          {"switching_pj", e.switching_pj},
          {"input_port_switching_pj", e.input_port_switching_pj},
          {"leakage_pj", e.leakage_pj},
          {"dynamic_pj", e.dynamic_pj()},
          {"time_ns", e.time_ns}};
}

RunEnergy EnergyFromJson(const nlohmann::json& j) {
  RunEnergy e;
  e.internal_pj = j.at("internal_pj").get<double>();
  e.switching_pj = j.at("switching_pj").get<double>();
  e.input_port_switching_pj = j.at("input_port_switching_pj").get<double>();
  e.leakage_pj = j.at("leakage_pj").get<double>();
  e.time_ns = j.at("time_ns").get<double>();
  return e;
}

// The characterization-specific part of a result (what the cache holds).
nlohmann::ordered_json CharPart(const ModuleCharacterization& r) {
  nlohmann::ordered_json j;
  j["method"] = {{"version", kMethodVersion},
                 {"simulation", "Verilator, mapped netlist, cells from Liberty functions"},
                 {"period_ns", r.period_ns},
                 {"slew_ns", r.slew_ns},
                 {"wire_cap_per_fanout_pf", r.wire_cap_per_fanout_pf},
                 {"vdd_v", r.vdd_v},
                 {"seed", r.seed},
                 {"fit", "least squares over reads, writes, mixed after idle subtraction"}};
  j["nets"] = r.nets;
  j["e_read_pj"] = r.e_read_pj;
  j["e_write_pj"] = r.e_write_pj;
  j["idle_pj_per_cycle"] = r.idle_pj_per_cycle;
  j["leakage_w"] = r.leakage_w;
  j["leakage_pj_per_cycle"] = r.leakage_pj_per_cycle;
  j["fit_residual"] = r.fit_residual;
  j["e_tag_pj"] = r.e_tag_pj;
  j["e_l0_read_pj"] = r.e_l0_read_pj;
  j["access_semantics"] = {{"read", r.semantics.read},
                           {"write", r.semantics.write},
                           {"tag_check", r.semantics.tag_check},
                           {"l0_read", r.semantics.l0_read}};
  auto& sets = j["stimulus_sets"] = nlohmann::ordered_json::array();
  for (const auto& s : r.sets) {
    nlohmann::ordered_json sj = {{"set", StimulusSetName(s.set)},
                                 {"cycles", s.cycles},
                                 {"reads", s.accesses.reads},
                                 {"writes", s.accesses.writes}};
    if (s.accesses.tag_checks > 0 || s.accesses.l0_reads > 0) {
      sj["tag_checks"] = s.accesses.tag_checks;
      sj["l0_reads"] = s.accesses.l0_reads;
    }
    sj["energy"] = EnergyJson(s.energy);
    sets.push_back(sj);
  }
  if (r.sta.available) {
    j["opensta_check"] = {{"available", true},
                          {"stimulus_set", "mixed"},
                          {"sta_internal_w", r.sta.sta_internal_w},
                          {"sta_switching_w", r.sta.sta_switching_w},
                          {"sta_leakage_w", r.sta.sta_leakage_w},
                          {"ours_internal_w", r.sta.ours_internal_w},
                          {"ours_switching_w", r.sta.ours_switching_w},
                          {"ours_leakage_w", r.sta.ours_leakage_w},
                          {"dynamic_difference", r.sta.dynamic_diff}};
  } else {
    j["opensta_check"] = {{"available", false}, {"reason", r.sta.reason}};
  }
  j["notes"] = r.notes;
  return j;
}

void LoadCharPart(const nlohmann::json& j, ModuleCharacterization& r) {
  const auto& m = j.at("method");
  r.period_ns = m.at("period_ns").get<double>();
  r.slew_ns = m.at("slew_ns").get<double>();
  r.wire_cap_per_fanout_pf = m.at("wire_cap_per_fanout_pf").get<double>();
  r.vdd_v = m.at("vdd_v").get<double>();
  r.seed = m.at("seed").get<uint64_t>();
  r.nets = j.at("nets").get<int>();
  r.e_read_pj = j.at("e_read_pj").get<double>();
  r.e_write_pj = j.at("e_write_pj").get<double>();
  r.idle_pj_per_cycle = j.at("idle_pj_per_cycle").get<double>();
  r.leakage_w = j.at("leakage_w").get<double>();
  r.leakage_pj_per_cycle = j.at("leakage_pj_per_cycle").get<double>();
  r.fit_residual = j.at("fit_residual").get<double>();
  r.e_tag_pj = j.value("e_tag_pj", 0.0);
  r.e_l0_read_pj = j.value("e_l0_read_pj", 0.0);
  if (j.contains("access_semantics")) {
    const auto& a = j.at("access_semantics");
    r.semantics = {a.value("read", ""), a.value("write", ""), a.value("tag_check", ""),
                   a.value("l0_read", "")};
  }
  for (const auto& s : j.at("stimulus_sets")) {
    StimulusSetResult sr;
    const std::string name = s.at("set").get<std::string>();
    for (const auto set : kAllSets)
      if (name == StimulusSetName(set))
        sr.set = set;
    sr.cycles = s.at("cycles").get<uint64_t>();
    sr.accesses.reads = s.at("reads").get<uint64_t>();
    sr.accesses.writes = s.at("writes").get<uint64_t>();
    sr.accesses.tag_checks = s.value("tag_checks", uint64_t{0});
    sr.accesses.l0_reads = s.value("l0_reads", uint64_t{0});
    sr.energy = EnergyFromJson(s.at("energy"));
    r.sets.push_back(sr);
  }
  const auto& c = j.at("opensta_check");
  r.sta.available = c.at("available").get<bool>();
  if (r.sta.available) {
    r.sta.sta_internal_w = c.at("sta_internal_w").get<double>();
    r.sta.sta_switching_w = c.at("sta_switching_w").get<double>();
    r.sta.sta_leakage_w = c.at("sta_leakage_w").get<double>();
    r.sta.ours_internal_w = c.at("ours_internal_w").get<double>();
    r.sta.ours_switching_w = c.at("ours_switching_w").get<double>();
    r.sta.ours_leakage_w = c.at("ours_leakage_w").get<double>();
    r.sta.dynamic_diff = c.at("dynamic_difference").get<double>();
  } else {
    r.sta.reason = c.at("reason").get<std::string>();
  }
  r.notes = j.at("notes").get<std::vector<std::string>>();
}

void ApplyScaling(ModuleCharacterization& r, const LibertyLibrary& lib,
                  const CharacterizeOptions& opt) {
  if (!opt.scale)
    return;
  const std::optional<int> node =
      opt.library_node_nm ? opt.library_node_nm : GuessLibraryNodeNm(lib);
  if (!node)
    throw InputError({}, "--library-node", lib.name,
                     "cannot tell the library's technology node from its name",
                     "--library-node NM (e.g. 180), or --no-scale");
  r.scaling = StillmakerBaasScaling(*node, opt.target_node_nm);
  r.scaled_area = r.synth.total_area * r.scaling->area;
  r.scaled_e_read_pj = r.e_read_pj * r.scaling->energy;
  r.scaled_e_write_pj = r.e_write_pj * r.scaling->energy;
  r.scaled_idle_pj_per_cycle = r.idle_pj_per_cycle * r.scaling->energy;
  r.scaled_e_tag_pj = r.e_tag_pj * r.scaling->energy;
  r.scaled_e_l0_read_pj = r.e_l0_read_pj * r.scaling->energy;
}

// The SRAM model's per-access energy of the black-boxed banks (one kind of macro per structure:
// the MRF's), carried from the model's node to the library node and to the target node.
void ApplyMacroEnergies(ModuleCharacterization& r, const LibertyLibrary& lib,
                        const CharacterizeOptions& opt) {
  if (r.synth.macros.empty())
    return;
  const SramFigures& f = r.synth.macros.front().figures;
  const int model_nm = static_cast<int>(f.node.node_nm);
  const std::optional<int> node =
      opt.library_node_nm ? opt.library_node_nm : GuessLibraryNodeNm(lib);
  const double to_lib = node ? StillmakerBaasScaling(model_nm, *node).energy : 1.0;
  r.macro_e_read_pj = f.read_pj * to_lib;
  r.macro_e_write_pj = f.write_pj * to_lib;
  const double to_target =
      opt.scale ? StillmakerBaasScaling(model_nm, opt.target_node_nm).energy : to_lib;
  r.scaled_macro_e_read_pj = f.read_pj * to_target;
  r.scaled_macro_e_write_pj = f.write_pj * to_target;
  r.notes.push_back(fmt::format(
      "{} x{} SRAM banks cut out of the gate-level simulation: E_read/E_write are the logic "
      "around them; each bank access adds {:.3f} pJ read / {:.3f} pJ write at {} nm from the "
      "SRAM model ({} basis, {}x{}){}",
      r.synth.macros.front().module, r.synth.macros.front().count, f.read_pj, f.write_pj, model_nm,
      SramBasisName(f.basis), f.shape.depth, f.shape.width,
      node ? fmt::format(", {:.3f} / {:.3f} pJ at the library's {} nm", r.macro_e_read_pj,
                         r.macro_e_write_pj, *node)
           : "; library node unknown, reported at the model's node"));
}

std::string Fmt(double v, int digits = 3) {
  return fmt::format("{:.{}f}", v, digits);
}

std::string ShapeText(const ModuleCharacterization& r) {
  const auto& p = r.synth.parameters;
  if (p.contains("entries") && p.contains("width") && p.contains("read_ports") &&
      p.contains("write_ports"))
    return fmt::format("{}x{} {}R{}W", p["entries"].dump(), p["width"].dump(),
                       p["read_ports"].dump(), p["write_ports"].dump());
  return p.dump();
}

}  // namespace

AccessFit FitAccessEnergies(const std::vector<std::array<double, 3>>& rows) {
  // Normal equations of min sum (r*a + w*b - y)^2.
  double rr = 0, rw = 0, ww = 0, ry = 0, wy = 0, yy = 0;
  for (const auto& [r, w, y] : rows) {
    rr += r * r;
    rw += r * w;
    ww += w * w;
    ry += r * y;
    wy += w * y;
    yy += y * y;
  }
  AccessFit f;
  const double det = rr * ww - rw * rw;
  if (std::abs(det) > 1e-12 * std::max(1.0, rr * ww)) {
    f.e_read = (ry * ww - wy * rw) / det;
    f.e_write = (wy * rr - ry * rw) / det;
  } else if (rr > 0 && ww == 0) {
    f.e_read = ry / rr;  // no writes anywhere (a read-only structure)
  } else if (ww > 0 && rr == 0) {
    f.e_write = wy / ww;
  } else if (rr + ww > 0) {
    throw ToolError("the stimulus sets do not separate reads from writes");
  }
  double res = 0;
  for (const auto& [r, w, y] : rows) {
    const double d = r * f.e_read + w * f.e_write - y;
    res += d * d;
  }
  f.residual = yy > 0 ? std::sqrt(res / yy) : 0;
  return f;
}

ComponentFit FitAccessComponents(const std::vector<std::vector<double>>& counts,
                                 const std::vector<double>& rhs) {
  const size_t n = counts.empty() ? 0 : counts.front().size();
  ComponentFit f;
  f.energy.assign(n, 0.0);
  std::vector<size_t> used;  // components some set exercised
  for (size_t c = 0; c < n; ++c)
    for (const auto& row : counts)
      if (row[c] != 0) {
        used.push_back(c);
        break;
      }
  const size_t m = used.size();
  // Normal equations A^T A x = A^T y over the used components, Gaussian elimination with
  // partial pivoting; columns scaled to unit norm so that counts of different size condition
  // alike.
  std::vector<double> norm(m, 0.0);
  for (size_t a = 0; a < m; ++a) {
    for (const auto& row : counts)
      norm[a] += row[used[a]] * row[used[a]];
    norm[a] = std::sqrt(norm[a]);
  }
  std::vector<std::vector<double>> ata(m, std::vector<double>(m + 1, 0.0));
  for (size_t k = 0; k < counts.size(); ++k)
    for (size_t a = 0; a < m; ++a) {
      const double va = counts[k][used[a]] / norm[a];
      for (size_t b = 0; b < m; ++b)
        ata[a][b] += va * counts[k][used[b]] / norm[b];
      ata[a][m] += va * rhs[k];
    }
  for (size_t col = 0; col < m; ++col) {
    size_t piv = col;
    for (size_t r = col + 1; r < m; ++r)
      if (std::abs(ata[r][col]) > std::abs(ata[piv][col]))
        piv = r;
    if (std::abs(ata[piv][col]) < 1e-9)
      throw ToolError("the stimulus sets do not separate the access components");
    std::swap(ata[piv], ata[col]);
    for (size_t r = 0; r < m; ++r) {
      if (r == col)
        continue;
      const double q = ata[r][col] / ata[col][col];
      for (size_t c = col; c <= m; ++c)
        ata[r][c] -= q * ata[col][c];
    }
  }
  for (size_t a = 0; a < m; ++a)
    f.energy[used[a]] = ata[a][m] / ata[a][a] / norm[a];
  double res = 0, yy = 0;
  for (size_t k = 0; k < counts.size(); ++k) {
    double d = -rhs[k];
    for (size_t c = 0; c < n; ++c)
      d += counts[k][c] * f.energy[c];
    res += d * d;
    yy += rhs[k] * rhs[k];
  }
  f.residual = yy > 0 ? std::sqrt(res / yy) : 0;
  return f;
}

nlohmann::ordered_json ModuleCharacterization::Json() const {
  nlohmann::ordered_json j;
  j["module"] = synth.top;
  j["structure"] = synth.instance;
  j["kind"] = synth.kind;
  j["parameters"] = synth.parameters;
  j["library"] = {{"name", synth.library_name}, {"path", synth.library_path.string()}};
  j["area_unit"] = synth.area_unit;
  j["area"] = synth.total_area;
  j["fmax_mhz"] = synth.timing.available ? nlohmann::ordered_json(synth.timing.fmax_mhz)
                                         : nlohmann::ordered_json(nullptr);
  j["cell_count"] = synth.cell_count();
  const nlohmann::ordered_json part = CharPart(*this);
  for (auto it = part.begin(); it != part.end(); ++it)
    j[it.key()] = it.value();
  if (scaling) {
    j["scaled"] = {{"from_nm", scaling->from_nm},
                   {"to_nm", scaling->to_nm},
                   {"area_factor", scaling->area},
                   {"energy_factor", scaling->energy},
                   {"area", scaled_area},
                   {"e_read_pj", scaled_e_read_pj},
                   {"e_write_pj", scaled_e_write_pj},
                   {"idle_pj_per_cycle", scaled_idle_pj_per_cycle},
                   {"e_tag_pj", scaled_e_tag_pj},
                   {"e_l0_read_pj", scaled_e_l0_read_pj},
                   {"source", scaling->source}};
  } else {
    j["scaled"] = nullptr;
  }
  if (!synth.macros.empty()) {
    // Per bank access: the SRAM model's bank plus the gate-level logic around the banks.
    j["sram_macro"] = {{"module", synth.macros.front().module},
                       {"count", synth.macros.front().count},
                       {"e_read_pj", macro_e_read_pj},
                       {"e_write_pj", macro_e_write_pj},
                       {"scaled_e_read_pj", scaled_macro_e_read_pj},
                       {"scaled_e_write_pj", scaled_macro_e_write_pj},
                       {"total_e_read_pj", e_read_pj + macro_e_read_pj},
                       {"total_e_write_pj", e_write_pj + macro_e_write_pj},
                       {"scaled_total_e_read_pj", scaled_e_read_pj + scaled_macro_e_read_pj},
                       {"scaled_total_e_write_pj", scaled_e_write_pj + scaled_macro_e_write_pj},
                       {"source", "synth/sram_model.h (per bank access)"}};
  }
  j["synthesis"] = synth.Json();
  j["from_cache"] = from_cache;
  return j;
}

ModuleCharacterization CharacterizeModule(const GeneratedStructure& g,
                                          const ModuleSynthResult& synth, const LibertyLibrary& lib,
                                          const CharacterizeOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  ModuleCharacterization r;
  r.synth = synth;
  const fs::path cache_root =
      (opt.synth.cache_dir.empty() ? DefaultCacheDir() : opt.synth.cache_dir) / "characterize";
  std::string key_text = fmt::format(
      "{}\n{}\n{}\nperiod {}\nslew {}\nwire {}\ncycles {}\nseed {}\nsta {}\n", kMethodVersion,
      GeneratorVersion(), synth.work_dir.filename().string(), opt.synth.clock_period_ns,
      opt.energy.slew_ns, opt.energy.wire_cap_per_fanout_pf, opt.cycles, opt.seed, opt.sta_check);
  if (const std::string v = ActivityDriverVersion(g.kind); !v.empty())
    key_text += "driver " + v + "\n";
  const fs::path dir = cache_root / (g.top + "-" + HashHex(key_text, 16));
  if (VerifyCacheEntry(dir, "characterization of " + g.top, {"result.json"})) {
    try {
      LoadCharPart(nlohmann::json::parse(ReadFile(dir / "result.json")), r);
      r.from_cache = true;
      r.semantics = MakeActivityDriver(g)->Semantics();  // today's wording, not the cached one
      ApplyScaling(r, lib, opt);
      ApplyMacroEnergies(r, lib, opt);
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      Progress(opt, fmt::format("characterize {}: from cache", g.top));
      return r;
    } catch (const nlohmann::json::exception& e) {
      spdlog::warn("ignoring unreadable characterization cache {}: {}", dir.string(), e.what());
      r.sets.clear();
      r.notes.clear();
    }
  }

  fs::path json = synth.work_dir / "netlist.json";
  if (!fs::exists(json))
    throw ToolError(fmt::format("{}: the synthesis result {} has no netlist.json", g.top,
                                synth.work_dir.string()));
  // Black-boxed SRAM macros: simulate the logic around them, the driver plays the banks.
  const GeneratedStructure* sim_g = &g;
  std::optional<TempDir> cut_dir;
  MacroCut cut;
  if (!synth.macros.empty()) {
    cut_dir.emplace("gpurf-macro-cut");
    cut = CutSramMacros(g, json, cut_dir->path() / "netlist.json");
    json = cut_dir->path() / "netlist.json";
    sim_g = &cut.rtl;
  }
  const GateNetlist nl = ReadYosysJsonNetlist(json, g.top, lib);
  const EnergyModel model = BuildEnergyModel(nl, lib, opt.energy);
  auto driver = MakeActivityDriver(*sim_g);
  r.semantics = driver->Semantics();
  r.period_ns = opt.synth.clock_period_ns;
  r.slew_ns = opt.energy.slew_ns;
  r.wire_cap_per_fanout_pf = opt.energy.wire_cap_per_fanout_pf;
  r.vdd_v = model.vdd_v;
  r.seed = opt.seed;
  r.nets = static_cast<int>(nl.nets.size());
  r.leakage_w = model.leakage_w;
  r.leakage_pj_per_cycle = model.leakage_w * r.period_ns * 1e3;
  r.notes = model.notes;

  CacheBuild build(cache_root, dir.filename().string());
  const fs::path& tmp = build.path();
  {
    BuildOptions bopt;
    bopt.cache_dir = opt.synth.cache_dir;
    bopt.jobs = std::max(1, opt.build_jobs);
    bopt.trace = false;
    // The gate model runs a few thousand cycles per set: compile time dominates, and -O0 builds
    // a flat netlist of tens of thousands of cells about 10x faster than Verilator's default
    // -Os for its eval code (OPT_FAST, which would override `opt`).
    bopt.opt = "-O0";
    bopt.make_flags = "OPT_FAST=-O0 OPT_SLOW=-O0";
    Progress(opt, fmt::format("characterize {}: building the gate-level simulation ({} cells, {} "
                              "nets) with Verilator",
                              g.top, nl.cells.size(), nl.nets.size()));
    GateSimulator sim(nl, lib, *sim_g, bopt);
    ActivityRng rng(opt.seed);
    ToggleRun mixed;
    RunWithLargeStack([&]() {
      sim.Start(*driver, rng);
      std::vector<StimulusSet> sets(kSets.begin(), kSets.end());
      for (const StimulusSet extra : driver->ExtraSets())
        sets.push_back(extra);
      for (size_t i = 0; i < sets.size(); ++i) {
        const StimulusSet set = sets[i];
        Progress(opt, fmt::format("characterize {}: [{}/{}] {} set, {} cycles", g.top, i + 1,
                                  sets.size(), StimulusSetName(set), opt.cycles));
        ToggleRun run = sim.Run(*driver, set, opt.cycles, r.period_ns, rng, model.arcs);
        StimulusSetResult sr;
        sr.set = set;
        sr.cycles = run.cycles;
        sr.accesses = run.accesses;
        sr.energy = PriceRun(run, nl, model);
        r.sets.push_back(sr);
        if (set == StimulusSet::kMixed)
          mixed = std::move(run);
      }
    });
    const double idle = r.sets[0].energy.dynamic_pj() / static_cast<double>(r.sets[0].cycles);
    r.idle_pj_per_cycle = idle;
    std::vector<std::vector<double>> counts;
    std::vector<double> rhs;
    for (size_t i = 1; i < r.sets.size(); ++i) {
      const auto& s = r.sets[i];
      counts.push_back(
          {static_cast<double>(s.accesses.reads), static_cast<double>(s.accesses.writes),
           static_cast<double>(s.accesses.tag_checks), static_cast<double>(s.accesses.l0_reads)});
      rhs.push_back(s.energy.dynamic_pj() - idle * static_cast<double>(s.cycles));
    }
    const ComponentFit fit = FitAccessComponents(counts, rhs);
    r.e_read_pj = fit.energy[0];
    r.e_write_pj = fit.energy[1];
    r.e_tag_pj = fit.energy[2];
    r.e_l0_read_pj = fit.energy[3];
    r.fit_residual = fit.residual;
    if (opt.sta_check) {
      Progress(opt, fmt::format("characterize {}: OpenSTA power cross-check", g.top));
      r.sta = CrossCheckWithOpenSta(nl, lib, model, opt.energy, mixed, tmp);
      if (!r.sta.available)
        r.notes.push_back("OpenSTA power check unavailable: " + r.sta.reason);
      else if (std::abs(r.sta.dynamic_diff) > opt.sta_tolerance)
        r.notes.push_back(
            fmt::format("dynamic power differs from OpenSTA's by {:+.1f}% (tolerance {:.0f}%)",
                        100 * r.sta.dynamic_diff, 100 * opt.sta_tolerance));
    } else {
      r.sta.reason = "disabled";
    }
    WriteFile(tmp / "result.json", CharPart(r).dump(2) + "\n");
    build.Publish("characterization of " + g.top);
  }
  ApplyScaling(r, lib, opt);
  ApplyMacroEnergies(r, lib, opt);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Progress(opt, fmt::format("characterize {}: E_read {:.3f} pJ, E_write {:.3f} pJ, idle {:.3f} "
                            "pJ/cycle in {:.1f} s",
                            g.top, r.e_read_pj, r.e_write_pj, r.idle_pj_per_cycle, r.seconds));
  return r;
}

std::vector<ModuleCharacterization> CharacterizeAll(
    const std::vector<const GeneratedStructure*>& gs, const LibertyLibrary& lib,
    const CharacterizeOptions& opt) {
  // Fail early, before any tool runs, on a kind without a driver or an unknown node.
  for (const auto* g : gs)
    if (!HasActivityDriver(g->kind))
      throw ToolError(
          fmt::format("{}: no activity driver for structure kind '{}'", g->top, g->kind));
  if (opt.scale && !opt.library_node_nm && !GuessLibraryNodeNm(lib))
    throw InputError({}, "--library-node", lib.name,
                     "cannot tell the library's technology node from its name",
                     "--library-node NM (e.g. 180), or --no-scale");
  lib.EnergyUnitPj();
  const auto synth = SynthesizeAll(gs, lib, opt.synth);
  std::vector<ModuleCharacterization> out(gs.size());
  std::vector<std::exception_ptr> errors(gs.size());
  std::atomic<size_t> next{0};
  const size_t n = std::min<size_t>(gs.size(), static_cast<size_t>(std::max(1, opt.synth.jobs)));
  CharacterizeOptions mopt = opt;
  mopt.build_jobs = std::max(1, opt.synth.jobs / static_cast<int>(std::max<size_t>(1, n)));
  const auto worker = [&]() {
    for (size_t i = next++; i < gs.size(); i = next++) {
      try {
        out[i] = CharacterizeModule(*gs[i], synth[i], lib, mopt);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (size_t t = 1; t < n; ++t)
    threads.emplace_back(worker);
  worker();
  for (auto& t : threads)
    t.join();
  for (const auto& e : errors)
    if (e)
      std::rethrow_exception(e);
  return out;
}

nlohmann::ordered_json CharacterizationJson(const std::vector<ModuleCharacterization>& rs,
                                            const CharacterizeOptions& opt) {
  nlohmann::ordered_json j;
  j["generator"] = "gpurf characterize " + GeneratorVersion();
  j["options"] = {{"cycles_per_set", opt.cycles},
                  {"seed", opt.seed},
                  {"period_ns", opt.synth.clock_period_ns},
                  {"slew_ns", opt.energy.slew_ns},
                  {"wire_cap_per_fanout_pf", opt.energy.wire_cap_per_fanout_pf},
                  {"scale", opt.scale},
                  {"target_node_nm", opt.scale ? nlohmann::ordered_json(opt.target_node_nm)
                                               : nlohmann::ordered_json(nullptr)}};
  auto& mods = j["modules"] = nlohmann::ordered_json::array();
  for (const auto& r : rs)
    mods.push_back(r.Json());
  j["levels"] = LevelsJson(CharacterizationLevels(rs));
  return j;
}

std::string CharacterizationCsv(const std::vector<ModuleCharacterization>& rs) {
  std::string s =
      "module,structure,shape,area_um2,fmax_mhz,e_read_pj,e_write_pj,idle_pj_per_cycle,"
      "leakage_uw,node_nm,scaled_node_nm,scaled_area_um2,scaled_e_read_pj,scaled_e_write_pj,"
      "scaled_idle_pj_per_cycle,sta_dynamic_diff\n";
  for (const auto& r : rs) {
    s += fmt::format(
        "{},{},\"{}\",{:.2f},{},{:.5f},{:.5f},{:.5f},{:.5f},{},{},{},{},{},{},{}\n", r.top(),
        r.synth.instance, ShapeText(r), r.synth.total_area,
        r.synth.timing.available ? Fmt(r.synth.timing.fmax_mhz, 2) : "", r.e_read_pj, r.e_write_pj,
        r.idle_pj_per_cycle, r.leakage_w * 1e6, r.scaling ? std::to_string(r.scaling->from_nm) : "",
        r.scaling ? std::to_string(r.scaling->to_nm) : "", r.scaling ? Fmt(r.scaled_area, 2) : "",
        r.scaling ? Fmt(r.scaled_e_read_pj, 5) : "", r.scaling ? Fmt(r.scaled_e_write_pj, 5) : "",
        r.scaling ? Fmt(r.scaled_idle_pj_per_cycle, 5) : "",
        r.sta.available ? Fmt(r.sta.dynamic_diff, 4) : "");
  }
  return s;
}

std::string CharacterizationMarkdown(const std::vector<ModuleCharacterization>& rs) {
  std::string s =
      "| module | structure | shape | area (um^2) | fmax (MHz) | E_read (pJ) | E_write (pJ) | "
      "idle (pJ/cycle) | leakage (uW) | OpenSTA dyn. diff |";
  const bool scaled = !rs.empty() && rs.front().scaling.has_value();
  if (scaled)
    s += fmt::format(" area @{0} nm | E_read @{0} nm | E_write @{0} nm |",
                     rs.front().scaling->to_nm);
  s += "\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|";
  if (scaled)
    s += "---:|---:|---:|";
  s += "\n";
  std::vector<std::string> notes;
  for (const auto& r : rs) {
    s += fmt::format("| {} | {} | {} | {:.0f} | {} | {:.3f} | {:.3f} | {:.3f} | {:.3f} | {} |",
                     r.top(), r.synth.instance, ShapeText(r), r.synth.total_area,
                     r.synth.timing.available ? Fmt(r.synth.timing.fmax_mhz, 1) : "n/a",
                     r.e_read_pj, r.e_write_pj, r.idle_pj_per_cycle, r.leakage_w * 1e6,
                     r.sta.available ? fmt::format("{:+.1f}%", 100 * r.sta.dynamic_diff) : "n/a");
    if (r.scaling)
      s += fmt::format(" {:.0f} | {:.3f} | {:.3f} |", r.scaled_area, r.scaled_e_read_pj,
                       r.scaled_e_write_pj);
    s += "\n";
    for (const auto& n : r.notes)
      notes.push_back(r.top() + ": " + n);
  }
  if (!rs.empty()) {
    const auto& r = rs.front();
    s += fmt::format(
        "\nLibrary {} at {:.2f} V; energies at the library node per access from gate-level "
        "simulation ({} cycles per stimulus set, reference clock {} ns, internal power read at "
        "{} ns input slew, wire load {} pF per fanout); leakage at the library node.\n",
        r.synth.library_name, r.vdd_v, r.sets.empty() ? 0 : r.sets.front().cycles, r.period_ns,
        r.slew_ns, r.wire_cap_per_fanout_pf);
    if (r.scaling)
      s += "Scaled columns: " + r.scaling->source + ".\n";
  }
  for (const auto& n : notes)
    s += "- " + n + "\n";
  if (!rs.empty()) {
    const auto& sc = rs.front().scaling;
    s += LevelsMarkdown(CharacterizationLevels(rs), sc ? sc->from_nm : 0, sc ? sc->to_nm : 0);
  }
  return s;
}

void WriteCharacterizationOutputs(const fs::path& dir,
                                  const std::vector<ModuleCharacterization>& rs,
                                  const CharacterizeOptions& opt) {
  nlohmann::ordered_json manifest;
  manifest["generator"] = "gpurf characterize " + GeneratorVersion();
  manifest["modules"] = nlohmann::ordered_json::array();
  for (const auto& r : rs)
    manifest["modules"].push_back(r.top());
  WriteFile(dir / "manifest.json", manifest.dump(2) + "\n");
  WriteFile(dir / "characterization.json", CharacterizationJson(rs, opt).dump(2) + "\n");
  WriteFile(dir / "characterization.csv", CharacterizationCsv(rs));
  WriteFile(dir / "characterization_levels.csv", LevelsCsv(CharacterizationLevels(rs)));
  WriteFile(dir / "characterization.md", CharacterizationMarkdown(rs));
}

const std::vector<GebhartCell>& GebhartTableIv() {
  // Gebhart et al. Table IV (DESIGN.md): rows entries/thread, columns 4, 6, 8 active warps.
  static const std::vector<GebhartCell> t = {
      {4, 4, 5100, 1.2, 3.8}, {4, 6, 7400, 1.2, 4.4},  {4, 8, 9600, 1.9, 6.1},
      {6, 4, 7400, 1.2, 4.4}, {6, 6, 10800, 1.7, 5.4}, {6, 8, 14300, 2.2, 6.7},
      {8, 4, 9600, 1.9, 6.1}, {8, 6, 14300, 2.2, 6.7}, {8, 8, 18800, 3.4, 10.9},
  };
  return t;
}

GebhartComparison CompareWithGebhart(
    const std::function<const ModuleCharacterization*(int entries)>& by_entries) {
  GebhartComparison c;
  std::string& s = c.markdown;
  s = "| entries/thread | warps | rows | area ours | area paper | ratio | read pJ ours | read pJ "
      "paper | ratio | write pJ ours | write pJ paper | ratio |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  const auto value = [&](int e, int w, int what) -> std::optional<double> {
    const ModuleCharacterization* r = by_entries(e * w);
    if (r == nullptr)
      return std::nullopt;
    const bool scaled = r->scaling.has_value();
    if (what == 0)
      return scaled ? r->scaled_area : r->synth.total_area;
    if (what == 1)
      return scaled ? r->scaled_e_read_pj : r->e_read_pj;
    return scaled ? r->scaled_e_write_pj : r->e_write_pj;
  };
  for (const auto& g : GebhartTableIv()) {
    const auto a = value(g.entries_per_thread, g.warps, 0);
    const auto rd = value(g.entries_per_thread, g.warps, 1);
    const auto wr = value(g.entries_per_thread, g.warps, 2);
    if (!a) {
      c.violations.push_back(
          fmt::format("no characterization for {} rows", g.entries_per_thread * g.warps));
      continue;
    }
    s += fmt::format(
        "| {} | {} | {} | {:.0f} | {:.0f} | {:.2f} | {:.2f} | {:.1f} | {:.2f} | {:.2f} | {:.1f} | "
        "{:.2f} |\n",
        g.entries_per_thread, g.warps, g.entries_per_thread * g.warps, *a, g.area_um2,
        *a / g.area_um2, *rd, g.read_pj, *rd / g.read_pj, *wr, g.write_pj, *wr / g.write_pj);
  }
  // Monotonicity: along entries at fixed warps and along warps at fixed entries, every figure
  // must not decrease (strictly increase where the row count grows).
  const char* names[] = {"area", "read energy", "write energy"};
  for (int what = 0; what < 3; ++what) {
    for (const int fixed : {4, 6, 8}) {
      for (const auto& [a, b] : std::vector<std::pair<int, int>>{{4, 6}, {6, 8}}) {
        const auto check = [&](int e0, int w0, int e1, int w1) {
          const auto v0 = value(e0, w0, what), v1 = value(e1, w1, what);
          if (v0 && v1 && !(*v1 > *v0))
            c.violations.push_back(
                fmt::format("{} does not grow from {}x{} to {}x{} ({:.4g} -> "
                            "{:.4g})",
                            names[what], e0, w0, e1, w1, *v0, *v1));
        };
        check(a, fixed, b, fixed);  // more entries per thread
        check(fixed, a, fixed, b);  // more warps
      }
    }
  }
  c.monotonic = c.violations.empty();
  s += c.monotonic ? "\nMonotonic in entries per thread and in active warps: yes.\n"
                   : "\nMonotonicity violations:\n";
  for (const auto& v : c.violations)
    s += "- " + v + "\n";
  return c;
}

}  // namespace gpurf
