#include "synth/power.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <map>
#include <regex>
#include <sstream>

#include "gen/util/diag.h"

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

  // The netlist with our numbering: instances c<i>, nets n<k>, ports joined by assigns.
  std::string v = fmt::format("module {} (", nl.top);
  for (size_t i = 0; i < nl.ports.size(); ++i)
    v += (i ? ", " : "") + nl.ports[i].name;
  v += ");\n";
  for (const auto& p : nl.ports) {
    v += fmt::format("  {} [{}:0] {};\n", p.dir == PortDir::kInput ? "input" : "output",
                     p.bits.size() - 1, p.name);
  }
  for (size_t n = 0; n < nl.nets.size(); ++n)
    v += fmt::format("  wire n{};\n", n);
  const auto operand = [](int n) {
    return n == kConst0   ? std::string("1'b0")
           : n == kConst1 ? std::string("1'b1")
                          : fmt::format("n{}", n);
  };
  for (const auto& p : nl.ports)
    for (size_t b = 0; b < p.bits.size(); ++b) {
      if (p.dir == PortDir::kInput && p.bits[b] >= 0)
        v += fmt::format("  assign n{} = {}[{}];\n", p.bits[b], p.name, b);
      else if (p.dir == PortDir::kOutput)
        v += fmt::format("  assign {}[{}] = {};\n", p.name, b, operand(p.bits[b]));
    }
  for (size_t c = 0; c < nl.cells.size(); ++c) {
    const GateCell& cell = nl.cells[c];
    std::vector<std::string> conns;
    for (const auto& [pin, n] : cell.inputs)
      conns.push_back(fmt::format(".{}({})", pin, operand(n)));
    for (const auto& [pin, n] : cell.outputs)
      conns.push_back(fmt::format(".{}({})", pin, operand(n)));
    v += fmt::format("  {} c{} ({});\n", cell.type, c, fmt::join(conns, ", "));
  }
  v += "endmodule\n";
  WriteFile(work / "sta_power_netlist.v", v);

  const double period = run.period_ns;
  std::string s = fmt::format(
      "# gpurf characterize: OpenSTA power of the {} stimulus set, same activity, loads, slews\n"
      "read_liberty {{{}}}\n"
      "read_verilog sta_power_netlist.v\n"
      "link_design {}\n",
      StimulusSetName(run.set), lib.path.string(), nl.top);
  const double slew_lib = opt.slew_ns / lib.time_unit_ns.value_or(1);
  // A virtual clock with zero input delay on every input (clk_i included, as data): every pin
  // then has an arrival of one clock, so OpenSTA 2.0.17 reads every activity below per clock
  // period. A real clock on clk_i would make OpenSTA price every pin of its network (the gated
  // row clocks too) at a fixed 2 transitions per cycle, ignoring clock gating, and leave pins
  // without a clock at its default activity.
  s += fmt::format("create_clock -name vclk -period {}\n", period);
  s += "set_input_delay 0 -clock vclk [all_inputs]\n";
  s += fmt::format("set_input_transition {} [all_inputs]\n", slew_lib);
  s += fmt::format("set_assigned_transition {} [get_pins */*]\n", slew_lib);
  // Wire load: the same per-fanout estimate, grouped by fanout.
  std::map<int, std::vector<size_t>> by_fanout;
  for (size_t n = 0; n < nl.nets.size(); ++n) {
    const int fo = static_cast<int>(nl.nets[n].loads.size()) + nl.nets[n].output_ports;
    if (fo > 0)
      by_fanout[fo].push_back(n);
  }
  const double cap_unit = lib.capacitive_unit_pf.value_or(1);
  for (const auto& [fo, ns] : by_fanout) {
    std::string names;
    for (const size_t n : ns)
      names += fmt::format(" n{}", n);
    s += fmt::format("set_load {} [get_nets {{{}}}]\n", fo * opt.wire_cap_per_fanout_pf / cap_unit,
                     names);
  }
  // Activities in transitions per clock period, duty = fraction of time high, on the input ports
  // and on every cell output pin. OpenSTA 2.0.17 honours the input ports; its activity
  // propagation then re-derives combinational outputs (and load pins) from the cell functions
  // with its independence model (Boolean difference of the input densities and duties), so the
  // annotations of internal nets are not all used: the difference it reports measures that
  // propagation model as much as our pricing (see synth/README.md).
  const double cycles = static_cast<double>(run.cycles);
  for (const auto& p : nl.ports) {
    if (p.dir != PortDir::kInput)
      continue;
    for (size_t b = 0; b < p.bits.size(); ++b) {
      const int n = p.bits[b];
      if (n < 0)
        continue;
      s += fmt::format(
          "set_power_activity -input_ports [get_ports {{{}[{}]}}] -activity {:.9g} "
          "-duty {:.6f}\n",
          p.name, b, static_cast<double>(run.toggles(n)) / cycles,
          std::clamp(run.duty(n), 0.0, 1.0));
    }
  }
  s += "proc gpurf_act {pin act duty} { sta::set_power_pin_activity [get_pins $pin] $act $duty }\n";
  for (size_t c = 0; c < nl.cells.size(); ++c) {
    const auto annotate = [&](const std::string& pin, int n) {
      if (n < 0)
        return;
      s += fmt::format("gpurf_act c{}/{} {:.9g} {:.6f}\n", c, pin,
                       static_cast<double>(run.toggles(n)) / cycles,
                       std::clamp(run.duty(n), 0.0, 1.0));
    };
    for (const auto& [pin, n] : nl.cells[c].outputs)
      annotate(pin, n);
  }
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
