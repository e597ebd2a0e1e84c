#include "synth/power.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "base/diag.h"

namespace gpurf {
namespace {

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (const char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

double Mean(const std::vector<double>& v) {
  double s = 0;
  for (const double x : v)
    s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

std::vector<std::string> Words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w)
    out.push_back(w);
  return out;
}

}  // namespace

EnergyModel BuildEnergyModel(const GateNetlist& nl, const LibertyLibrary& lib,
                             const EnergyOptions& opt) {
  EnergyModel m;
  m.energy_unit_pj = lib.EnergyUnitPj();
  if (!lib.nom_voltage)
    throw InputError({lib.path.string(), 0, 0}, "nom_voltage", "",
                     "the library declares no nom_voltage", "nom_voltage : <supply in volts>");
  if (!lib.time_unit_ns)
    throw InputError({lib.path.string(), 0, 0}, "time_unit", lib.time_unit,
                     "the library declares no usable time_unit", "e.g. time_unit : \"1ns\"");
  m.vdd_v = *lib.nom_voltage * *lib.voltage_unit_v;
  const double cap_unit = *lib.capacitive_unit_pf;
  const double slew = opt.slew_ns / *lib.time_unit_ns;  // library time units

  const size_t nets = nl.nets.size();
  m.cap_pf.assign(nets, 0);
  m.in_rise_pj.assign(nets, 0);
  m.in_fall_pj.assign(nets, 0);
  m.arcs.resize(nets);
  for (size_t n = 0; n < nets; ++n) {
    const GateNet& net = nl.nets[n];
    const int fanout = static_cast<int>(net.loads.size()) + net.output_ports;
    double c = fanout * opt.wire_cap_per_fanout_pf;
    for (const auto& l : net.loads) {
      const LibertyCell& lc = *nl.cells[static_cast<size_t>(l.cell)].lib;
      const LibertyPin* p = lc.FindPin(l.pin);
      c += p->capacitance * cap_unit;
      // The load pin's own internal power (no related pin, or related to itself).
      for (const auto& pw : p->internal_power) {
        if (!pw.related_pin.empty() && pw.related_pin != l.pin)
          continue;
        const auto& rise = pw.rise ? pw.rise : pw.fall;
        const auto& fall = pw.fall ? pw.fall : pw.rise;
        if (rise)
          m.in_rise_pj[n] += rise->Lookup(slew, 0) * m.energy_unit_pj;
        if (fall)
          m.in_fall_pj[n] += fall->Lookup(slew, 0) * m.energy_unit_pj;
      }
    }
    m.cap_pf[n] = c;
  }
  // Output arcs, at each output net's load.
  for (const auto& cell : nl.cells) {
    const LibertyCell& lc = *cell.lib;
    m.leakage_w += lc.leakage_power;
    for (const auto& [pin, net] : cell.outputs) {
      const LibertyPin* p = lc.FindPin(pin);
      const double load = m.cap_pf[static_cast<size_t>(net)] / cap_unit;
      // Groups of one related pin (different `when`) are averaged.
      std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> by_pin;
      for (const auto& pw : p->internal_power) {
        for (const auto& t : {pw.rise, pw.fall})
          if (t && (t->var1 == LibertyTable::Var::kOther || t->var2 == LibertyTable::Var::kOther))
            throw InputError({lib.path.string(), 0, 0},
                             fmt::format("cell {} pin {} internal_power", lc.name, pin), "",
                             "table axis other than input transition and output capacitance",
                             "input_transition_time / total_output_net_capacitance");
        const auto& rise = pw.rise ? pw.rise : pw.fall;
        const auto& fall = pw.fall ? pw.fall : pw.rise;
        const std::vector<std::string> related =
            pw.related_pin.empty() ? std::vector<std::string>{""} : Words(pw.related_pin);
        for (const auto& rp : related) {
          auto& e = by_pin[rp];
          e.first.push_back(rise ? rise->Lookup(slew, load) * m.energy_unit_pj : 0);
          e.second.push_back(fall ? fall->Lookup(slew, load) * m.energy_unit_pj : 0);
        }
      }
      OutputArcs& a = m.arcs[static_cast<size_t>(net)];
      for (const auto& [rp, e] : by_pin) {
        a.from.push_back(rp.empty() ? kConst0 : cell.InputNet(rp));
        a.rise_pj.push_back(Mean(e.first));
        a.fall_pj.push_back(Mean(e.second));
      }
    }
  }
  bool any_leak = false;
  for (const auto& cell : nl.cells)
    any_leak |= cell.lib->leakage_power != 0;
  if (any_leak && !lib.leakage_power_unit_w)
    throw InputError({lib.path.string(), 0, 0}, "leakage_power_unit", lib.leakage_power_unit,
                     "the library declares leakage but no usable leakage_power_unit",
                     "e.g. leakage_power_unit : \"1nW\"");
  m.leakage_w *= lib.leakage_power_unit_w.value_or(0);
  return m;
}

RunEnergy PriceRun(const ToggleRun& run, const GateNetlist& nl, const EnergyModel& m) {
  RunEnergy e;
  e.time_ns = static_cast<double>(run.cycles) * run.period_ns;
  e.internal_pj = run.output_internal_pj;
  const double half_v2 = 0.5 * m.vdd_v * m.vdd_v;
  for (size_t n = 0; n < nl.nets.size(); ++n) {
    const double r = static_cast<double>(run.rises[n]), f = static_cast<double>(run.falls[n]);
    if (r + f == 0)
      continue;
    e.internal_pj += r * m.in_rise_pj[n] + f * m.in_fall_pj[n];
    const double sw = (r + f) * half_v2 * m.cap_pf[n];
    if (nl.nets[n].driver_cell >= 0)
      e.switching_pj += sw;
    else
      e.input_port_switching_pj += sw;
  }
  e.leakage_pj = m.leakage_w * e.time_ns * 1e3;  // W x ns = 1e-9 J = 1e3 pJ
  return e;
}

bool ParseStaPowerTotal(const std::string& log, double& internal, double& switching,
                        double& leakage) {
  static const std::regex re(
      R"(^Total\s+([-0-9.eE+]+)\s+([-0-9.eE+]+)\s+([-0-9.eE+]+)\s+([-0-9.eE+]+))");
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch mm;
    if (std::regex_search(line, mm, re)) {
      internal = std::stod(mm[1].str());
      switching = std::stod(mm[2].str());
      leakage = std::stod(mm[3].str());
      return true;
    }
  }
  return false;
}

namespace {

// A Liberty group found by the scanner: `type (args) { body }`, body = [body_begin, body_end).
struct TextGroup {
  std::string type, args;
  size_t begin = 0, body_begin = 0, body_end = 0;
};

// Skips a comment or string at `i` (returns the index after it), or returns `i`.
size_t SkipLexical(const std::string& t, size_t i) {
  if (t.compare(i, 2, "/*") == 0) {
    const size_t e = t.find("*/", i + 2);
    return e == std::string::npos ? t.size() : e + 2;
  }
  if (t[i] == '"') {
    for (size_t k = i + 1; k < t.size(); ++k) {
      if (t[k] == '\\')
        ++k;
      else if (t[k] == '"')
        return k + 1;
    }
    return t.size();
  }
  return i;
}

// The groups directly inside [begin, end) of `t`.
std::vector<TextGroup> ChildGroups(const std::string& t, size_t begin, size_t end) {
  std::vector<TextGroup> out;
  size_t i = begin;
  while (i < end) {
    const size_t j = SkipLexical(t, i);
    if (j != i) {
      i = j;
      continue;
    }
    if (!(std::isalpha(static_cast<unsigned char>(t[i])) || t[i] == '_')) {
      ++i;
      continue;
    }
    size_t k = i;
    while (k < end && (std::isalnum(static_cast<unsigned char>(t[k])) || t[k] == '_'))
      ++k;
    const std::string word = t.substr(i, k - i);
    size_t m = k;
    while (m < end && std::isspace(static_cast<unsigned char>(t[m])))
      ++m;
    if (m >= end || t[m] != '(') {
      // An attribute or a bare word: skip to the end of the statement.
      while (k < end && t[k] != ';' && t[k] != '\n' && t[k] != '{') {
        const size_t s2 = SkipLexical(t, k);
        k = s2 != k ? s2 : k + 1;
      }
      // Past the ';' (or newline); a '{' without a group header is stepped over, and its
      // contents scanned as if at this level.
      i = k + 1;
      continue;
    }
    size_t close = m + 1;
    while (close < end && t[close] != ')') {
      const size_t s2 = SkipLexical(t, close);
      close = s2 != close ? s2 : close + 1;
    }
    std::string args = t.substr(m + 1, close - m - 1);
    size_t b = close + 1;
    while (b < end && std::isspace(static_cast<unsigned char>(t[b])))
      ++b;
    if (b >= end || t[b] != '{') {  // complex attribute `name (...);`
      i = close + 1;
      continue;
    }
    int depth = 0;
    size_t e = b;
    for (; e < end; ++e) {
      const size_t s2 = SkipLexical(t, e);
      if (s2 != e) {
        e = s2 - 1;
        continue;
      }
      if (t[e] == '{')
        ++depth;
      else if (t[e] == '}' && --depth == 0)
        break;
    }
    std::erase(args, '"');
    while (!args.empty() && std::isspace(static_cast<unsigned char>(args.back())))
      args.pop_back();
    while (!args.empty() && std::isspace(static_cast<unsigned char>(args.front())))
      args.erase(args.begin());
    out.push_back({word, args, i, b + 1, e});
    i = e + 1;
  }
  return out;
}

// Span [begin, end) of the statement `name : value ;` directly in [begin, end) (not in child
// groups), or nullopt.
std::optional<std::pair<size_t, size_t>> FindAttribute(const std::string& t, size_t begin,
                                                       size_t end, const std::string& name) {
  const auto kids = ChildGroups(t, begin, end);
  size_t i = begin;
  for (size_t g = 0; g <= kids.size(); ++g) {
    const size_t stop = g < kids.size() ? kids[g].begin : end;
    for (size_t k = i; k < stop;) {
      const size_t s2 = SkipLexical(t, k);
      if (s2 != k) {
        k = s2;
        continue;
      }
      const bool at_word =
          t.compare(k, name.size(), name) == 0 &&
          (k == 0 || !(std::isalnum(static_cast<unsigned char>(t[k - 1])) || t[k - 1] == '_'));
      if (at_word) {
        size_t m = k + name.size();
        while (m < stop && (t[m] == ' ' || t[m] == '\t'))
          ++m;
        if (m < stop && t[m] == ':') {
          size_t e = m + 1;
          while (e < stop && t[e] != ';' && t[e] != '\n') {
            const size_t s3 = SkipLexical(t, e);
            e = s3 != e ? s3 : e + 1;
          }
          return std::make_pair(k, e < stop && t[e] == ';' ? e + 1 : e);
        }
      }
      ++k;
    }
    if (g < kids.size())
      i = kids[g].body_end + 1;
  }
  return std::nullopt;
}

struct TextEdit {
  size_t pos, len;
  std::string text;
};

}  // namespace

std::string CrossCheckLiberty(const LibertyLibrary& lib, const std::set<std::string>& cells) {
  const std::string& t = lib.contents;
  const auto top = ChildGroups(t, 0, t.size());
  const TextGroup* library = nullptr;
  for (const auto& g : top)
    if (g.type == "library")
      library = &g;
  if (library == nullptr)
    throw ToolError(lib.path.string() + ": no library group found for the OpenSTA cross-check");
  std::vector<TextEdit> edits;
  std::set<std::string> done;
  for (const auto& cg : ChildGroups(t, library->body_begin, library->body_end)) {
    if (cg.type != "cell" || !cells.contains(cg.args) || done.contains(cg.args))
      continue;
    done.insert(cg.args);
    const LibertyCell& lc = *lib.Find(cg.args);
    std::vector<std::string> pseudo;
    const auto kids = ChildGroups(t, cg.body_begin, cg.body_end);
    for (const auto& k : kids) {
      const char* attr = k.type == "ff" ? "next_state" : k.type == "latch" ? "data_in" : nullptr;
      if (attr == nullptr)
        continue;
      const auto a = FindAttribute(t, k.body_begin, k.body_end, attr);
      if (!a)
        throw ToolError(fmt::format("cell {}: {} group without {}", lc.name, k.type, attr));
      edits.push_back({a->first, a->second - a->first, fmt::format("{} : \"GPURF_N\";", attr)});
      pseudo.push_back("GPURF_N");
    }
    for (const auto& k : kids) {
      if (k.type != "pin")
        continue;
      const LibertyPin* p = lc.FindPin(k.args);
      if (p == nullptr || p->direction != "output")
        continue;
      if (!lc.sequential()) {
        const auto f = FindAttribute(t, k.body_begin, k.body_end, "function");
        if (!f)
          throw ToolError(fmt::format("cell {} pin {}: no function", lc.name, p->name));
        edits.push_back(
            {f->first, f->second - f->first, fmt::format("function : \"GPURF_F_{}\";", p->name)});
        pseudo.push_back("GPURF_F_" + p->name);
      }
      size_t index = 0;
      for (const auto& ip : ChildGroups(t, k.body_begin, k.body_end)) {
        if (ip.type != "internal_power")
          continue;
        const std::string w = fmt::format("GPURF_W_{}_{}", p->name, index++);
        pseudo.push_back(w);
        const std::string stmt = fmt::format("when : \"{}\";", w);
        if (const auto old = FindAttribute(t, ip.body_begin, ip.body_end, "when"))
          edits.push_back({old->first, old->second - old->first, stmt});
        else
          edits.push_back({ip.body_begin, 0, " " + stmt});
      }
      if (index != p->internal_power.size())
        throw ToolError(fmt::format("cell {} pin {}: {} internal_power groups in the text, {} read",
                                    lc.name, p->name, index, p->internal_power.size()));
    }
    std::string decl;
    for (const auto& n : pseudo)
      decl += fmt::format(" pin ({}) {{ direction : input; capacitance : 0; }}", n);
    edits.push_back({cg.body_begin, 0, decl});
  }
  for (const auto& c : cells)
    if (!done.contains(c))
      throw ToolError(
          fmt::format("{}: cell {} not found in the library text", lib.path.string(), c));
  std::sort(edits.begin(), edits.end(),
            [](const TextEdit& a, const TextEdit& b) { return a.pos > b.pos; });
  std::string out = t;
  for (const auto& e : edits)
    out.replace(e.pos, e.len, e.text);
  return out;
}

StaPowerCheck CrossCheckWithOpenSta(const GateNetlist& nl, const LibertyLibrary& lib,
                                    const EnergyModel& m, const EnergyOptions& opt,
                                    const ToggleRun& run, const fs::path& work) {
  const auto t0 = std::chrono::steady_clock::now();
  StaPowerCheck chk;
  const RunEnergy ours = PriceRun(run, nl, m);
  const double secs = ours.time_ns * 1e-9;
  chk.ours_internal_w = ours.internal_pj * 1e-12 / secs;
  chk.ours_switching_w = ours.switching_pj * 1e-12 / secs;
  chk.ours_leakage_w = ours.leakage_pj * 1e-12 / secs;

  const double cycles = static_cast<double>(run.cycles);
  const auto activity = [&](int n) -> std::pair<double, double> {
    if (n == kConst0)
      return {0, 0};
    if (n == kConst1)
      return {0, 1};
    return {static_cast<double>(run.toggles(n)) / cycles, std::clamp(run.duty(n), 0.0, 1.0)};
  };
  // Input ports of the cut netlist: one per net (shared by every pin it fed, and by the pseudo
  // function pin of its driver), two constants, and one per quantized `when` duty (OpenSTA 2.0.17
  // spends time quadratic in the number of ports on set_input_delay, so ports are shared).
  // Output ports: one per cell output, grouped by load.
  constexpr double kDutySteps = 8192;  // `when` duty resolution; a share is at most 1/2
  std::map<std::string, std::pair<double, double>> in_ports;  // name -> (activity, duty)
  std::set<std::string> clocked;  // ports with an arrival from the virtual clock
  std::map<double, std::vector<std::string>> by_load;
  std::vector<std::string> outputs, instances;
  std::set<std::string> used;
  const double cap_unit = lib.capacitive_unit_pf.value_or(1);
  const auto net_port = [&](int n) {
    const std::string name = n == kConst0   ? std::string("gpurf_const0")
                             : n == kConst1 ? std::string("gpurf_const1")
                                            : fmt::format("n{}", n);
    in_ports.emplace(name, activity(n));
    return name;
  };
  for (size_t c = 0; c < nl.cells.size(); ++c) {
    const GateCell& cell = nl.cells[c];
    const LibertyCell& lc = *cell.lib;
    used.insert(lc.name);
    std::vector<std::string> conns;
    std::string clock_port;  // one port of this instance that carries the virtual clock
    for (const auto& [pin, n] : cell.inputs)
      conns.push_back(fmt::format(".{}({})", pin, net_port(n)));
    bool state_fed = false, has_when = false;
    for (const auto& [pin, n] : cell.outputs) {
      const LibertyPin* p = lc.FindPin(pin);
      if (lc.sequential()) {
        // OpenSTA 2.0.17 gives a register output the activity of its data input: the pseudo
        // data pin carries the output's own simulated activity (and the state's duty).
        if (!state_fed) {
          const bool inverted = lc.state_vars.size() > 1 && p->function == lc.state_vars[1];
          if (!inverted && (lc.state_vars.empty() || p->function != lc.state_vars[0])) {
            chk.reason = fmt::format("cell {} output {} is not its state variable ({})", lc.name,
                                     pin, p->function);
            return chk;
          }
          std::string port = net_port(n);
          if (inverted) {
            port = fmt::format("c{}_gpurf_state", c);
            const auto a = activity(n);
            in_ports.emplace(port, std::make_pair(a.first, 1 - a.second));
          }
          conns.push_back(fmt::format(".GPURF_N({})", port));
          clock_port = port;
          state_fed = true;
        }
      } else {
        clock_port = net_port(n);
        conns.push_back(fmt::format(".GPURF_F_{}({})", pin, clock_port));
      }
      // Each internal_power group's `when` duty: the share of the output's toggles our pricing
      // attributed to its related pin, halved (OpenSTA 2.0.17 adds the rise and the fall
      // energy of a group for every transition), split among the groups of that pin.
      const OutputArcs& arcs = m.arcs[static_cast<size_t>(n)];
      const std::vector<double> none;
      const std::vector<double>& share = static_cast<size_t>(n) < run.arc_share.size()
                                             ? run.arc_share[static_cast<size_t>(n)]
                                             : none;
      const double toggles = static_cast<double>(run.toggles(n));
      for (size_t g = 0; g < p->internal_power.size(); ++g) {
        const std::string& rp = p->internal_power[g].related_pin;
        if (rp.find_first_of(" \t,") != std::string::npos) {
          chk.reason = fmt::format("cell {} pin {}: internal_power related to several pins ({})",
                                   lc.name, pin, rp);
          return chk;
        }
        const int from = rp.empty() ? kConst0 : cell.InputNet(rp);
        size_t same = 0;
        for (const auto& q : p->internal_power)
          same += q.related_pin == rp ? 1 : 0;
        double w = 0;
        for (size_t i = 0; i < arcs.from.size() && i < share.size(); ++i)
          if (arcs.from[i] == from && toggles > 0)
            w = share[i] / toggles;
        const long step =
            std::lround(std::clamp(w / 2 / static_cast<double>(same), 0.0, 1.0) * kDutySteps);
        const std::string port = fmt::format("gpurf_when_{}", step);
        in_ports.emplace(port, std::make_pair(0.0, static_cast<double>(step) / kDutySteps));
        conns.push_back(fmt::format(".GPURF_W_{}_{}({})", pin, g, port));
        clocked.insert(port);
        has_when = true;
      }
      const std::string port = fmt::format("c{}_{}", c, pin);
      outputs.push_back(port);
      by_load[m.cap_pf[static_cast<size_t>(n)] / cap_unit].push_back(port);
      conns.push_back(fmt::format(".{}({})", pin, port));
    }
    // Every instance needs a pin reached by the virtual clock, or OpenSTA replaces its
    // activities by the default: the `when` ports are clocked, else one port of the cell.
    if (!has_when && !clock_port.empty())
      clocked.insert(clock_port);
    else if (!has_when && !cell.inputs.empty())
      clocked.insert(net_port(cell.inputs.front().second));
    instances.push_back(fmt::format("  {} c{} ({});\n", lc.name, c, fmt::join(conns, ", ")));
  }
  std::string lib_text;
  try {
    lib_text = CrossCheckLiberty(lib, used);
  } catch (const ToolError& e) {
    chk.reason = e.what();
    return chk;
  }
  WriteFile(work / "sta_power.lib", lib_text);

  std::string v = "module gpurf_sta_power_cut (\n";
  for (const auto& [name, a] : in_ports)
    v += fmt::format("  {},\n", name);
  for (size_t i = 0; i < outputs.size(); ++i)
    v += fmt::format("  {}{}\n", outputs[i], i + 1 < outputs.size() ? "," : "");
  v += ");\n";
  for (const auto& [name, a] : in_ports)
    v += fmt::format("  input {};\n", name);
  for (const auto& p : outputs)
    v += fmt::format("  output {};\n", p);
  for (const auto& i : instances)
    v += i;
  v += "endmodule\n";
  WriteFile(work / "sta_power_netlist.v", v);

  const double period = run.period_ns;
  const double slew_lib = opt.slew_ns / lib.time_unit_ns.value_or(1);
  std::string s = fmt::format(
      "# gpurf characterize: OpenSTA report_power of the {} stimulus set on the netlist cut at\n"
      "# every cell pin, with our per-pin activities, loads and slew (see synth/power.h)\n"
      "read_liberty sta_power.lib\n"
      "read_verilog sta_power_netlist.v\n"
      "link_design gpurf_sta_power_cut\n"
      "create_clock -name vclk -period {}\n"
      "set_input_transition {} [all_inputs]\n",
      run.set, period, slew_lib);
  // Ports are looked up once, by name, in a dict: OpenSTA 2.0.17's get_ports scans every port
  // for each name (quadratic in a netlist of 50k ports), and the set_load / set_power_activity
  // procedures call it; their per-port commands are called directly instead.
  s += "set_input_delay 0 -clock vclk [get_ports gpurf_when_*]\n";
  std::string extra;
  for (const auto& p : clocked)
    if (!p.starts_with("gpurf_when_"))
      extra += " " + p;
  if (!extra.empty())
    s += "set_input_delay 0 -clock vclk [get_ports {" + extra + "}]\n";
  s += "set gpurf_port [dict create]\n"
       "foreach p [get_ports *] { dict set gpurf_port [get_name $p] $p }\n"
       "proc gpurf_load {cap names} {\n"
       "  set c [sta::capacitance_ui_sta $cap]\n"
       "  foreach n $names { sta::set_port_pin_cap [dict get $::gpurf_port $n] rise_fall all $c }\n"
       "}\n"
       "proc gpurf_activity {activity duty names} {\n"
       "  foreach n $names {\n"
       "    sta::set_power_input_port_activity [dict get $::gpurf_port $n] $activity $duty\n"
       "  }\n"
       "}\n";
  const auto lines = [&](const std::vector<std::string>& names, const std::string& head) {
    for (size_t i = 0; i < names.size(); i += 1000) {
      s += head + " {";
      for (size_t k = i; k < std::min(names.size(), i + 1000); ++k)
        s += " " + names[k];
      s += "}\n";
    }
  };
  for (const auto& [load, ports] : by_load)
    lines(ports, fmt::format("gpurf_load {:.9g}", load));
  std::map<std::pair<double, double>, std::vector<std::string>> by_activity;
  for (const auto& [name, a] : in_ports)
    by_activity[a].push_back(name);
  for (const auto& [a, ports] : by_activity)
    lines(ports, fmt::format("gpurf_activity {:.9g} {:.9g}", a.first, a.second));
  s += "report_power -digits 8\nexit\n";
  WriteFile(work / "sta_power.tcl", s);

  if (RunCommand("command -v sta", nullptr) != 0) {
    chk.reason = "sta (OpenSTA) not found on PATH";
    return chk;
  }
  std::string log;
  const int rc = RunCommand(fmt::format("cd {} && sta -no_init -no_splash -exit sta_power.tcl",
                                        ShellQuote(work.string())),
                            &log);
  WriteFile(work / "sta_power.log", log);
  chk.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rc != 0 ||
      !ParseStaPowerTotal(log, chk.sta_internal_w, chk.sta_switching_w, chk.sta_leakage_w)) {
    const size_t cut = log.size() > 1500 ? log.size() - 1500 : 0;
    chk.reason = fmt::format("OpenSTA report_power failed (exit {}): {}", rc, log.substr(cut));
    return chk;
  }
  chk.available = true;
  const double sta_dyn = chk.sta_internal_w + chk.sta_switching_w;
  const double our_dyn = chk.ours_internal_w + chk.ours_switching_w;
  chk.dynamic_diff = sta_dyn > 0 ? (our_dyn - sta_dyn) / sta_dyn : 0;
  return chk;
}

}  // namespace gpurf
