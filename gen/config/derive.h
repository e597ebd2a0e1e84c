// From the checked sections of a design file to the design point. The YAML reader
// (yaml_loader.h) checks every key, type and range of each section; DeriveDesign does the rest:
// the cross-field checks (a rejection points at the YAML field that decided the value), the
// derived values (lane clusters, registers per thread, banks per cluster), the hierarchy's
// levels, and the structures of the design point: the MRF of one lane cluster, the structures
// the registered hierarchy derives (gen/config/hierarchy.h), the register-file system top and
// the warp scheduler. It never names a hierarchy.
#pragma once

#include <map>
#include <string>

#include "gen/config/design_spec.h"
#include "gen/params/param.h"

namespace gpurf {

// The sections of design_schema.h, read and range-checked, and where each starts in the file
// (line 1 for a section the file leaves out: its defaults are located there).
struct CheckedSections {
  std::map<std::string, ParamSet> sections;
  std::map<std::string, SourceLoc> loc;
};

// Throws InputError (via ParamSet::Reject) for a combination the design cannot have. The extra
// standalone structures of the file are the reader's to add.
DesignSpec DeriveDesign(const CheckedSections& in, const std::string& file_name);

// The design `d` derived again for an SM of `warps` warps of which `active_warps` are scheduled
// at once (e.g. one register-file partition of a GPU whose SM has several schedulers): every
// structure sized for that SM (active-warp slots, warp counts), the rest as the file says. `d`
// itself when its SM is already that one. Throws InputError located at the design's `sm`
// section, saying which SM was asked, when the design cannot be derived for it.
DesignSpec DesignForSm(const DesignSpec& d, int warps, int active_warps);

}  // namespace gpurf
