// YAML front end for design points: parse -> check every key, type and range of each section
// of the schema (design_schema.h) -> derive the design point (derive.h) -> add the extra
// standalone structures -> DesignSpec. Every rejection is an InputError with file:line:column,
// field path, value and what is allowed; unknown keys get a "did you mean" suggestion.
#pragma once

#include <string>

#include "gen/config/design_schema.h"
#include "gen/config/design_spec.h"

namespace gpurf {

// Loads and validates `path`. Throws InputError on any problem with the file, including a
// file that cannot be opened (bad input: the CLI exits 2).
DesignSpec LoadDesign(const std::string& path);
// Same, from text already in memory; `file_name` is used in messages.
DesignSpec LoadDesignFromString(const std::string& text, const std::string& file_name);

}  // namespace gpurf
