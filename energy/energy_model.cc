#include "energy/energy_model.h"

#include <fmt/format.h>

#include <stdexcept>

namespace gpurf::energy {

namespace {

template <class T>
int IndexOf(const std::vector<T>& v, const std::string& name, const char* what) {
  std::string known;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i].name == name)
      return static_cast<int>(i);
    known += (known.empty() ? "" : ", ") + v[i].name;
  }
  throw std::invalid_argument(fmt::format("the energies have no {} '{}' (they have: {})", what,
                                          name, known.empty() ? "none" : known));
}

template <class T>
const T* Find(const std::vector<T>& v, const std::string& name) {
  for (const auto& x : v) {
    if (x.name == name)
      return &x;
  }
  return nullptr;
}

}  // namespace

int Energies::LevelIndex(const std::string& name) const {
  return IndexOf(levels, name, "level");
}

int Energies::ComponentIndex(const std::string& name) const {
  return IndexOf(components, name, "component");
}

void Energies::ScaleRows(int new_row_bits) {
  const double scale = static_cast<double>(new_row_bits) / row_bits;
  for (auto& l : levels) {
    l.read_pj *= scale;
    l.write_pj *= scale;
    if (l.fill_pj >= 0)
      l.fill_pj *= scale;
    if (l.drain_pj >= 0)
      l.drain_pj *= scale;
  }
  for (auto& c : components) {
    if (c.per_row)
      c.pj *= scale;
  }
  row_bits = new_row_bits;
}

AccessCounts& AccessCounts::operator+=(const AccessCounts& o) {
  if (o.levels.empty() && o.events.empty()) {
    cycles += o.cycles;
    return *this;
  }
  if (levels.empty() && events.empty()) {
    levels.resize(o.levels.size());
    events.resize(o.events.size(), 0);
  }
  if (levels.size() != o.levels.size() || events.size() != o.events.size())
    throw std::invalid_argument("adding access counts of energies with other levels");
  for (size_t l = 0; l < levels.size(); ++l) {
    for (int u = 0; u < kNumUnits; ++u) {
      levels[l].reads[u] += o.levels[l].reads[u];
      levels[l].writes[u] += o.levels[l].writes[u];
    }
    levels[l].writebacks += o.levels[l].writebacks;
    levels[l].fills += o.levels[l].fills;
    levels[l].drains += o.levels[l].drains;
  }
  for (size_t c = 0; c < events.size(); ++c)
    events[c] += o.events[c];
  cycles += o.cycles;
  return *this;
}

const LevelBreakdown* Breakdown::FindLevel(const std::string& name) const {
  return Find(levels, name);
}
const ComponentBreakdown* Breakdown::FindComponent(const std::string& name) const {
  return Find(components, name);
}

double Breakdown::access_pj() const {
  double s = 0;
  for (const auto& l : levels)
    s += l.access_pj;
  return s;
}
double Breakdown::wire_pj() const {
  double s = 0;
  for (const auto& l : levels)
    s += l.wire_pj;
  return s;
}
double Breakdown::leakage_pj() const {
  double s = 0;
  for (const auto& l : levels)
    s += l.leakage_pj;
  return s;
}
double Breakdown::components_pj() const {
  double s = 0;
  for (const auto& c : components)
    s += c.pj;
  return s;
}
double Breakdown::total_pj() const {
  return access_pj() + wire_pj() + leakage_pj() + components_pj();
}

Breakdown& Breakdown::operator+=(const Breakdown& o) {
  if (o.levels.empty() && o.components.empty())
    return *this;
  if (levels.empty() && components.empty()) {
    for (const auto& l : o.levels)
      levels.push_back({l.name, 0, 0, 0, l.activity});
    for (const auto& c : o.components)
      components.push_back({c.name, c.label, 0});
  }
  if (levels.size() != o.levels.size() || components.size() != o.components.size())
    throw std::invalid_argument("adding energy breakdowns of other levels");
  for (size_t l = 0; l < levels.size(); ++l) {
    levels[l].access_pj += o.levels[l].access_pj;
    levels[l].wire_pj += o.levels[l].wire_pj;
    levels[l].leakage_pj += o.levels[l].leakage_pj;
  }
  for (size_t c = 0; c < components.size(); ++c)
    components[c].pj += o.components[c].pj;
  return *this;
}

nlohmann::ordered_json Breakdown::ToJson() const {
  nlohmann::ordered_json j;
  j["levels"] = nlohmann::ordered_json::object();
  for (const auto& l : levels) {
    j["levels"][l.name] = {
        {"access_pj", l.access_pj}, {"wire_pj", l.wire_pj}, {"leakage_pj", l.leakage_pj}};
  }
  j["components"] = nlohmann::ordered_json::object();
  for (const auto& c : components)
    j["components"][c.name] = {{"pj", c.pj}};
  j["access_pj"] = access_pj();
  j["wire_pj"] = wire_pj();
  j["leakage_pj"] = leakage_pj();
  j["total_pj"] = total_pj();
  return j;
}

Breakdown Evaluate(const AccessCounts& counts, const Energies& e, const SmGeometry& sm) {
  if (sm.lanes <= 0 || sm.cluster_lanes <= 0 || sm.lanes % sm.cluster_lanes != 0) {
    throw std::invalid_argument(fmt::format(
        "SM geometry: {} lanes do not split into clusters of {}", sm.lanes, sm.cluster_lanes));
  }
  if (e.row_bits != 32 * sm.cluster_lanes) {
    throw std::invalid_argument(
        fmt::format("per-access energies are for {}-bit rows, the SM's rows are {} bits",
                    e.row_bits, 32 * sm.cluster_lanes));
  }
  if (counts.levels.size() != e.levels.size() || counts.events.size() != e.components.size()) {
    throw std::invalid_argument(fmt::format(
        "counts of {} levels and {} components for energies of {} levels and {} components",
        counts.levels.size(), counts.events.size(), e.levels.size(), e.components.size()));
  }
  const double rows = sm.RowsPerWarpOperand();
  const double words = sm.lanes;  // 32-bit words per warp operand
  Breakdown b;
  for (size_t li = 0; li < e.levels.size(); ++li) {
    const LevelCounts& c = counts.levels[li];
    const LevelEnergy& le = e.levels[li];
    LevelBreakdown out;
    out.name = le.name;
    out.activity = le.activity.empty() ? le.name : le.activity;
    uint64_t reads = 0;
    uint64_t writes = c.writebacks;
    for (int ui = 0; ui < kNumUnits; ++ui) {
      reads += c.reads[ui];
      writes += c.writes[ui];
      const uint64_t moved = c.reads[ui] + c.writes[ui];
      const double mm = le.mm[static_cast<size_t>(ui)];
      if (moved > 0 && mm <= 0.0) {
        throw std::invalid_argument(fmt::format(
            "{} {} operands of the {} are not reachable in the wire model", moved,
            static_cast<Unit>(ui) == Unit::kPrivate ? "private-datapath" : "shared-unit", le.name));
      }
      out.wire_pj += static_cast<double>(moved) * words * mm * e.pj_per_mm_word;
    }
    out.wire_pj += static_cast<double>(c.writebacks) * words * e.writeback_mm * e.pj_per_mm_word;
    const double fill_pj = le.fill_pj >= 0 ? le.fill_pj : le.write_pj;
    const double drain_pj = le.drain_pj >= 0 ? le.drain_pj : le.read_pj;
    out.access_pj =
        (static_cast<double>(reads) * le.read_pj + static_cast<double>(writes) * le.write_pj +
         static_cast<double>(c.fills) * fill_pj + static_cast<double>(c.drains) * drain_pj) *
        rows;
    if (counts.cycles > 0 && sm.clock_ghz > 0) {
      // mW x ns = pJ.
      out.leakage_pj = le.leakage_mw * static_cast<double>(counts.cycles) / sm.clock_ghz;
    }
    b.levels.push_back(std::move(out));
  }
  for (size_t ci = 0; ci < e.components.size(); ++ci) {
    const ComponentEnergy& ce = e.components[ci];
    double pj = ce.pj;
    if (ce.leakage_mw > 0 && sm.clock_ghz > 0)
      pj += ce.leakage_mw / sm.clock_ghz;  // mW x ns = pJ per event-cycle
    b.components.push_back({ce.name, ce.label, static_cast<double>(counts.events[ci]) * pj});
  }
  return b;
}

}  // namespace gpurf::energy
