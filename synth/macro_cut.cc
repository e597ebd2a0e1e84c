#include "synth/macro_cut.h"

#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "base/diag.h"

namespace gpurf {

MacroCut CutSramMacros(const GeneratedStructure& g, const fs::path& netlist_json,
                       const fs::path& out_json) {
  std::set<std::string> types;
  if (g.derived.is_object() && g.derived.contains("sram_macros"))
    for (const auto& m : g.derived["sram_macros"])
      types.insert(m.value("module", ""));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(ReadFile(netlist_json));
  } catch (const std::exception& e) {
    throw ToolError(
        fmt::format("cannot read the Yosys JSON netlist {}: {}", netlist_json.string(), e.what()));
  }
  if (!j.contains("modules") || !j["modules"].contains(g.top))
    throw ToolError(fmt::format("{} has no module {}", netlist_json.string(), g.top));
  auto& m = j["modules"][g.top];

  MacroCut cut;
  cut.rtl = g;
  nlohmann::json kept = nlohmann::json::object();
  int position = 0;
  for (auto& [name, c] : m["cells"].items()) {
    const std::string type = c.value("type", "");
    if (types.count(type) == 0) {
      kept[name] = c;
      continue;
    }
    int bank = position++;
    const size_t at = name.find("gen_banks[");
    if (at != std::string::npos)
      std::sscanf(name.c_str() + at, "gen_banks[%d]", &bank);
    for (const auto& [pin, bits] : c["connections"].items()) {
      if (pin == "clk_i")
        continue;
      std::string dir;
      if (c.contains("port_directions") && c["port_directions"].contains(pin))
        dir = c["port_directions"][pin].get<std::string>();
      else if (pin.ends_with("_o"))
        dir = "output";
      else if (pin.ends_with("_i"))
        dir = "input";
      if (dir != "input" && dir != "output")
        throw ToolError(
            fmt::format("{}: pin {} of SRAM macro {} has direction '{}'", g.top, pin, name, dir));
      const std::string port = fmt::format("sram_b{}_{}", bank, pin);
      const bool macro_output = dir == "output";
      m["ports"][port] = {{"direction", macro_output ? "input" : "output"}, {"bits", bits}};
      PortInfo p;
      p.name = port;
      p.dir = macro_output ? PortDir::kInput : PortDir::kOutput;
      p.width = static_cast<int>(bits.size());
      p.count = 1;
      p.role = macro_output ? (pin == "rdata_o" ? "sram_rdata" : "sram_in") : "sram_out";
      p.description =
          fmt::format("pin {} of the SRAM macro of bank {} (cut for simulation)", pin, bank);
      cut.rtl.ports.push_back(p);
    }
    ++cut.macros;
  }
  m["cells"] = kept;
  WriteFile(out_json, j.dump() + "\n");
  return cut;
}

}  // namespace gpurf
