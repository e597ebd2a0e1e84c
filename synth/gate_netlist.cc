#include "synth/gate_netlist.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "base/diag.h"

namespace gpurf {

int GateCell::InputNet(const std::string& pin) const {
  for (const auto& [p, n] : inputs)
    if (p == pin)
      return n;
  return kConst0;
}

const GatePort* GateNetlist::FindPort(const std::string& name) const {
  for (const auto& p : ports)
    if (p.name == name)
      return &p;
  return nullptr;
}

GateNetlist ReadYosysJsonNetlist(const fs::path& json, const std::string& top,
                                 const LibertyLibrary& lib) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(ReadFile(json));
  } catch (const std::exception& e) {
    throw ToolError(
        fmt::format("cannot read the Yosys JSON netlist {}: {}", json.string(), e.what()));
  }
  if (!j.contains("modules") || !j["modules"].contains(top))
    throw ToolError(fmt::format("{} has no module {}", json.string(), top));
  const auto& m = j["modules"][top];

  GateNetlist nl;
  nl.top = top;
  std::unordered_map<long long, int> index;  // Yosys bit number -> net index
  const auto bit = [&](const nlohmann::json& b) -> int {
    if (b.is_string()) {
      const std::string s = b.get<std::string>();
      return s == "1" ? kConst1 : kConst0;  // "0", "x", "z": constant 0 in two-state simulation
    }
    const long long id = b.get<long long>();
    auto [it, fresh] = index.try_emplace(id, static_cast<int>(nl.nets.size()));
    if (fresh)
      nl.nets.emplace_back();
    return it->second;
  };

  for (const auto& [name, p] : m["ports"].items()) {
    GatePort port;
    port.name = name;
    const std::string dir = p["direction"].get<std::string>();
    if (dir != "input" && dir != "output")
      throw ToolError(fmt::format("{}: port {} is {}; only input and output ports are supported",
                                  top, name, dir));
    port.dir = dir == "input" ? PortDir::kInput : PortDir::kOutput;
    for (const auto& b : p["bits"]) {
      const int n = bit(b);
      port.bits.push_back(n);
      if (n >= 0) {
        if (port.dir == PortDir::kInput)
          nl.nets[static_cast<size_t>(n)].primary_input = true;
        else
          ++nl.nets[static_cast<size_t>(n)].output_ports;
      }
    }
    nl.ports.push_back(std::move(port));
  }

  std::vector<std::string> unknown;
  for (const auto& [name, c] : m["cells"].items()) {
    GateCell cell;
    cell.name = name;
    cell.type = c["type"].get<std::string>();
    cell.lib = lib.Find(cell.type);
    if (cell.lib == nullptr) {
      unknown.push_back(cell.type);
      continue;
    }
    const int ci = static_cast<int>(nl.cells.size());
    for (const auto& [pin, bits] : c["connections"].items()) {
      const LibertyPin* lp = cell.lib->FindPin(pin);
      if (lp == nullptr || bits.size() != 1)
        throw ToolError(
            fmt::format("{}: cell {} ({}) connects pin {} that the library cell does "
                        "not have as a single-bit pin",
                        top, name, cell.type, pin));
      const int n = bit(bits[0]);
      if (lp->direction == "output") {
        if (n < 0)
          continue;
        GateNet& net = nl.nets[static_cast<size_t>(n)];
        if (net.driver_cell >= 0 || net.primary_input)
          throw ToolError(fmt::format("{}: net {} has two drivers", top, n));
        net.driver_cell = ci;
        net.driver_pin = pin;
        cell.outputs.emplace_back(pin, n);
      } else if (lp->direction == "input") {
        cell.inputs.emplace_back(pin, n);
        if (n >= 0)
          nl.nets[static_cast<size_t>(n)].loads.push_back({ci, pin});
      } else {
        throw ToolError(
            fmt::format("{}: cell {} pin {} has direction '{}'; gate-level "
                        "characterization supports input and output pins",
                        top, cell.type, pin, lp->direction));
      }
    }
    nl.cells.push_back(std::move(cell));
  }
  if (!unknown.empty())
    throw ToolError(fmt::format("{}: cells not in the library {}: {}", top, lib.path.string(),
                                fmt::join(unknown, ", ")));

  // Readable names: the first non-hidden Yosys name of each bit.
  for (const auto& [name, nn] : m["netnames"].items()) {
    const bool hidden = nn.value("hide_name", 0) != 0;
    const auto& bits = nn["bits"];
    for (size_t i = 0; i < bits.size(); ++i) {
      if (bits[i].is_string())
        continue;
      const auto it = index.find(bits[i].get<long long>());
      if (it == index.end())
        continue;
      std::string& n = nl.nets[static_cast<size_t>(it->second)].name;
      const std::string full = bits.size() == 1 ? name : fmt::format("{}[{}]", name, i);
      if (n.empty() || (!hidden && n.starts_with("$")))
        n = full;
    }
  }
  for (size_t i = 0; i < nl.nets.size(); ++i)
    if (nl.nets[i].name.empty())
      nl.nets[i].name = fmt::format("net{}", i);
  return nl;
}

}  // namespace gpurf
