// The FuseSoC core description (CAPI2) of a generated structure, written beside its RTL as
// <top>.core so that other flows can take the IP: VLNV gpurf:structures:<top>:<gpurf version>,
// one fileset with the structure's files in filelist.f order (gpurf_assert.svh as an include
// file), a default target with the top module. The generated modules are specialized to their
// configuration (the config hash is in their names), so the core has no parameters.
#pragma once

#include <string>

#include "gen/output/artifact.h"

namespace gpurf {

std::string FusesocCoreFileName(const GeneratedStructure& g);  // "<top>.core"
std::string FusesocCore(const GeneratedStructure& g);

}  // namespace gpurf
