#include "synth/characterize_scaling.h"

#include <fmt/format.h>

#include "base/diag.h"

namespace gpurf {

void ApplyScaling(ModuleCharacterization& r, const LibertyLibrary& lib,
                  const CharacterizeOptions& opt) {
  if (!opt.scale)
    return;
  const std::optional<int> node =
      opt.library_node_nm ? opt.library_node_nm : GuessLibraryNodeNm(lib);
  if (!node)
    throw InputError({}, "--library-node", lib.name,
                     "cannot tell the library's technology node from its name",
                     "--library-node NM (e.g. 180), or --no-scale");
  r.scaling = StillmakerBaasScaling(*node, opt.target_node_nm);
  r.scaled_area = r.synth.total_area * r.scaling->area;
  for (auto& c : r.components)
    c.scaled_e_pj = c.e_pj * r.scaling->energy;
  r.scaled_idle_pj_per_cycle = r.idle_pj_per_cycle * r.scaling->energy;
}

void ApplyMacroEnergies(ModuleCharacterization& r, const LibertyLibrary& lib,
                        const CharacterizeOptions& opt) {
  if (r.synth.macros.empty())
    return;
  const SramFigures& f = r.synth.macros.front().figures;
  const int model_nm = static_cast<int>(f.node.node_nm);
  const std::optional<int> node =
      opt.library_node_nm ? opt.library_node_nm : GuessLibraryNodeNm(lib);
  const double to_lib = node ? StillmakerBaasScaling(model_nm, *node).energy : 1.0;
  r.macro_e_read_pj = f.read_pj * to_lib;
  r.macro_e_write_pj = f.write_pj * to_lib;
  const double to_target =
      opt.scale ? StillmakerBaasScaling(model_nm, opt.target_node_nm).energy : to_lib;
  r.scaled_macro_e_read_pj = f.read_pj * to_target;
  r.scaled_macro_e_write_pj = f.write_pj * to_target;
  r.notes.push_back(fmt::format(
      "{} x{} SRAM banks cut out of the gate-level simulation: E_read/E_write are the logic "
      "around them; each bank access adds {:.3f} pJ read / {:.3f} pJ write at {} nm from the "
      "SRAM model ({} basis, {}x{}){}",
      r.synth.macros.front().module, r.synth.macros.front().count, f.read_pj, f.write_pj, model_nm,
      SramBasisName(f.basis), f.shape.depth, f.shape.width,
      node ? fmt::format(", {:.3f} / {:.3f} pJ at the library's {} nm", r.macro_e_read_pj,
                         r.macro_e_write_pj, *node)
           : "; library node unknown, reported at the model's node"));
}

}  // namespace gpurf
