// Formal properties of the register renaming table (gen/structures/renaming_table/
// renaming_table_spec.h), proven from the RTL's own invariant assertions (renaming_table_gen.cc)
// with every input free (neither needs the interface contract: they hold for any request):
//   no-stale-read  I2: a released mapping is never read before it is rewritten: a source
//                  answered as mapped read a valid entry (a released or never-written register
//                  is answered unmapped);
//   free-once      I3: every id on a free port comes from a valid entry (it was mapped), which
//                  is invalidated in that cycle, so an id is freed once.
// I1 (no physical register mapped twice) is not among them: the RTL checks it against the
// contract that the allocated id is free (held by no valid entry), which only a model of the
// id allocator can supply; see verif/formal/README.md.
#include <fmt/format.h>

#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

constexpr const char* kFreeInputs =
    "requests, operands, release masks and exempt_i may take any value in any\ncycle.";

PropertyDef Def(const std::string& name, const std::string& summary, int depth,
                std::vector<std::string> checks) {
  return AssumptionFreeProperty(name, summary, depth, std::move(checks), kFreeInputs);
}

}  // namespace

namespace {

Family RenamingTableFamily() {
  Family f;
  f.kinds = {"renaming-table"};
  f.properties = [](const StructureSpec&) {
    return std::vector<PropertyDef>{
        Def("no-stale-read",
            "I2: a released mapping is never read before it is rewritten (a source answered as "
            "mapped read a valid entry)",
            3, {"I2 violated"}),
        Def("free-once",
            "I3: every id on a free port comes from a valid entry, invalidated in that cycle "
            "(freed once)",
            3, {"I3 violated"}),
    };
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, renaming_table, "renaming-table", RenamingTableFamily())

}  // namespace gpurf::formal
