// What a generator produces for one structure, independent of where it is written: the
// Verilog files in dependency order, the top module, parameters and the port list with roles.
// manifest.json and filelist.f are rendered from this, never from the Verilog text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/fs.h"

namespace gpurf {

enum class PortDir { kInput, kOutput };

struct PortInfo {
  std::string name;
  PortDir dir = PortDir::kInput;
  int width = 1;     // total bits of the flat vector
  int count = 1;     // logical ports packed into it (read ports, write ports)
  std::string role;  // clock, reset_n, write_enable, write_address, write_data, ...
  std::string description;

  int slice_width() const { return width / count; }
};

struct GeneratedFile {
  std::string name;    // file name inside the output folder
  std::string module;  // module it defines
  std::string contents;
  bool primitive = false;  // copied from rtl/ rather than generated
};

struct GeneratedStructure {
  std::string kind;      // "flop-array"
  std::string instance;  // role in a design point ("orf_l1"), or the kind for flags
  std::string top;       // top module name
  std::string config_hash;
  std::vector<GeneratedFile> files;  // dependency order, top last
  nlohmann::ordered_json parameters;
  nlohmann::ordered_json derived;
  std::vector<PortInfo> ports;
  std::string regenerate;  // the gpurf command that regenerates it

  const PortInfo* FindPort(const std::string& name) const;
  nlohmann::ordered_json ManifestJson() const;
  std::string Filelist() const;
};

// Writes the files, filelist.f, manifest.json and the FuseSoC core <top>.core (fusesoc.h) of `g`
// into the existing folder `dir`.
void WriteStructure(const fs::path& dir, const GeneratedStructure& g);

// The comment banner every generated file starts with.
std::vector<std::string> Banner(const std::string& kind, const std::string& config_hash,
                                const std::string& regenerate);

std::string GeneratorVersion();

}  // namespace gpurf
