// Cutting black-boxed SRAM macros out of a mapped netlist for gate-level characterization.
//
// A structure synthesized with SRAM macros (the MRF with bank_impl: macro; manifest
// derived.sram_macros) keeps each bank as one cell the Liberty library does not define, so the
// netlist cannot be simulated as it is. The cut removes every macro cell from the Yosys JSON
// netlist and turns its pins into ports of the module: the macro's outputs (read data) become
// inputs `sram_b<k>_<pin>` (role "sram_rdata" for rdata_o, "sram_in" otherwise) that the activity
// driver plays, the macro's inputs become outputs `sram_b<k>_<pin>` (role "sram_out"); the clock
// pin is dropped (the clock net stays a primary input). k is the bank index from the instance
// name (`gen_banks[k]`), else the cell's position among the macros.
//
// What the gate-level figures then cover: the logic around the banks (collectors, arbitration,
// operand buffers, dispatch), with the nets the banks drive counted as driven from outside (not
// in the dynamic energy, like every input port) and the nets that drive the banks loaded by one
// fanout of wire but no pin capacitance. The banks' own per-access energy comes from the SRAM
// model (sram_model.h) and is added per bank access by the characterization (characterize.h).
#pragma once

#include "base/fs.h"
#include "gen/output/artifact.h"

namespace gpurf {

struct MacroCut {
  GeneratedStructure rtl;  // `g` with the macro pins as extra ports (after the manifest's)
  int macros = 0;          // cells removed
};

// Reads `netlist_json` (module g.top), writes the cut netlist to `out_json`. ToolError when the
// netlist is unreadable or a macro pin has an unknown direction.
MacroCut CutSramMacros(const GeneratedStructure& g, const fs::path& netlist_json,
                       const fs::path& out_json);

}  // namespace gpurf
