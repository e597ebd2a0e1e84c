// The structures gpurf can generate: each kind declares its parameters once (ParamDesc) and
// turns a checked ParamSet into its immutable spec. Emitters, golden models, lint and verify all
// take the spec, never raw flags or YAML.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "gen/params/param.h"
#include "gen/structures/flop_array/flop_array_spec.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "gen/structures/orf/orf_spec.h"
#include "gen/structures/rf_system/rf_system_spec.h"
#include "gen/structures/rfc/rfc_spec.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"

namespace gpurf {

// One alternative per implemented structure kind.
using StructureSpec =
    std::variant<FlopArraySpec, MrfSpec, RfcSpec, WarpSchedulerSpec, OrfSpec, RfSystemSpec>;

struct StructureKind {
  std::string name;     // CLI / YAML name: "flop-array"
  std::string summary;  // one line for --list
  std::vector<ParamDesc> params;
  StructureSpec (*make_spec)(const ParamSet&);
};

// Implemented kinds, in --list order.
const std::vector<StructureKind>& StructureKinds();
const StructureKind* FindStructureKind(const std::string& name);

// Kinds a design point may describe that later issues implement: described in YAML, skipped
// by generation with a message naming the kind.
struct PlannedKind {
  std::string name;
  std::string summary;
};
const std::vector<PlannedKind>& PlannedStructureKinds();

// Accessors valid for every StructureSpec alternative.
const std::string& KindName(const StructureSpec& s);
const std::string& ModuleName(const StructureSpec& s);
const std::string& ConfigHash(const StructureSpec& s);
const ParamSet& Params(const StructureSpec& s);

}  // namespace gpurf
