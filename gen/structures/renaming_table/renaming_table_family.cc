// The generator layer of the renaming-table family: its parameters, spec and emitter, registered
// by name (gen/structures/registry.h).
#include "gen/structures/registry.h"
#include "gen/structures/renaming_table/renaming_table_gen.h"
#include "gen/structures/renaming_table/renaming_table_spec.h"

namespace gpurf {

GPURF_REGISTER(StructureKind, renaming_table, "renaming-table",
               (StructureKind{
                   .name = "renaming-table",
                   .summary = "register renaming table of a virtualized register file (Jeon)",
                   .list_order = 90,
                   .params = RenamingTableSpec::ParamDescs(),
                   .make_spec = [](const ParamSet& p) -> StructureSpec {
                     return RenamingTableSpec::FromParams(p);
                   },
                   .emit =
                       [](const StructureSpec& s) {
                         return EmitRenamingTable(SpecAs<RenamingTableSpec>(s));
                       },
                   .not_applicable = {},
               }))

}  // namespace gpurf
