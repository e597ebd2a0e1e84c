// A register-file design point: the one immutable, validated object that every generator,
// model and report reads. Built from YAML (yaml_loader.h) or, for a single structure, from
// flags. All derived values are computed once, here.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gen/params/param.h"
#include "gen/structures/registry.h"

namespace gpurf {

// One structure of a design point: generated when its kind is implemented, otherwise listed
// with the reason it is skipped.
struct DesignStructure {
  std::string name;                   // instance name, unique in the design: "orf_l1", "mrf"
  std::string kind;                   // "flop-array", "mrf", ...
  int count = 1;                      // identical copies in the design (e.g. per lane cluster)
  std::string role;                   // what it is for, one line
  SourceLoc loc;                      // where the YAML describes it
  std::optional<StructureSpec> spec;  // set when the kind is implemented
  std::string skip_reason;            // set when it is not

  bool implemented() const { return spec.has_value(); }
};

struct SmConfig {
  int lanes = 32;
  int lane_cluster = 4;  // lanes per cluster; a register row holds one register of each
  int warps = 32;
  int active_warps = 8;
  int warp_size = 32;
  // Derived.
  int clusters = 8;
  // Bytes of one warp register: one 32-bit register of each lane (a physical register of the
  // renaming, a FineReg ACRF/PCRF row, a cerf line).
  int WarpRegisterBytes() const { return 4 * lanes; }
  // The fields the file writes (lanes, warps, active_warps...), with their values' locations: a
  // GPU preset supplies the others (sim/harness/gpu.h).
  std::map<std::string, SourceLoc> given;
};

struct MrfConfig {
  int banks = 32;
  int entries = 256;  // rows per bank
  int width = 128;    // bits per row
  // Derived.
  long long capacity_bytes = 0;
  int registers_per_thread = 0;
  int banks_per_cluster = 0;  // banks of one lane cluster (banks / clusters): one MRF structure
};

struct HierarchyConfig {
  std::string kind;  // mrf-only | sw-orf | hw-rfc
  int levels = 3;    // 1 (MRF only), 2 (MRF + L1), 3 (MRF + L1 + L0)
  int l1_entries_per_thread = 3;
  int l0_entries_per_thread = 1;
  bool l0_split = true;
  std::string replacement;  // hw-rfc: fifo | lru; cerf: lru-fair | lru-prioritized
  // hybrid (Bailey et al.): bytes per SM of the register cache and the register scratchpad, and
  // how the RSP's transfers reach the MRF (hierarchical | parallel-evict | parallel-lifetime).
  int rc_bytes = 0;
  int rsp_bytes = 0;
  std::string organization;
  // cerf (Jing et al.): integrated memory bytes per SM, ways, tag banks, reg-mem prefix (-1: all
  // ones).
  int cerf_bytes = 0;
  int ways = 4;
  int tag_banks = 4;
  long long address_prefix = -1;
};

// One field the `gpu:` section sets: its dotted path ("sm.warps", "l1d.bytes", "memory"), the
// value as written and where. The paths and values are checked against the GPU configuration
// (sim/harness/gpu.h), which gen/ does not know.
struct GpuOverride {
  std::string path;
  std::string value;
  SourceLoc loc;
};

// The `gpu:` section: the GPU the design runs on in the SM harness, a preset and overrides in
// file order. It does not change the generated RTL (nor config_hash).
struct GpuSection {
  std::string preset = "fermi-gebhart";
  bool preset_given = false;  // the file names the preset (`gpu.preset`)
  SourceLoc loc;              // the preset's value; else the section; else the file's start
  std::vector<GpuOverride> overrides;
};

struct CheckedSections;  // derive.h

class DesignSpec {
 public:
  std::string name;
  std::string description;
  std::string source;       // file it came from
  std::string config_hash;  // over the canonical form of every value
  SmConfig sm;
  MrfConfig mrf;
  HierarchyConfig hierarchy;
  std::string scheduler;     // single-level | two-level
  std::string inner_policy;  // two-level inner selection: greedy | round-robin
  std::vector<DesignStructure> structures;
  GpuSection gpu;
  // The checked sections it was derived from (DeriveDesign), so that the design can be derived
  // again for another SM (DesignForSm, derive.h).
  std::shared_ptr<const CheckedSections> sections;

  std::vector<const DesignStructure*> Implemented() const;
  std::vector<const DesignStructure*> Skipped() const;
  nlohmann::ordered_json ToJson() const;
};

}  // namespace gpurf
