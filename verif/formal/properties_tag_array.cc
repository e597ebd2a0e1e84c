// Formal properties of the cache-emulated register file's tag array (gen/structures/tag_array/
// tag_array_spec.h), proven from the RTL's own invariant assertions I1-I4 (tag_array_gen.cc):
//   one-line-per-tag          I1: at most one line per (set, tag) is not inactive; it relies on
//                             the auxiliary RTL assertion over every stored set (the per-lookup
//                             check sees only the set a lookup changes);
//   reg-never-victim-of-load  I2 (lru-prioritized only): a reg line is never the victim of a
//                             load (lru-fair allows it by design, so it has no such property);
//   dirty-written-back-once   I3: a dirty line is reported as a dirty victim (its write-back)
//                             when its way is reused, and a reported write-back was dirty;
//   fig6-transitions          I4: every state change of a line is a Fig. 6 transition; it relies
//                             on the auxiliary RTL assertion that a reg line holds a reg-mem
//                             address and a cache or dirty line a memory one (else a store could
//                             hit a reg line and make it dirty).
// K = 4 cycles lets the base case fill both ways of a set and evict one (three lookups and the
// check after them). Inputs are free but for the interface contract: a memory lookup of an accepted
// request does not address the reg-mem space (the top of the address space). Every property also
// selects the RTL's contract assertion as an auxiliary one: it is implied by the assumption for the
// accepted lookups and, in the induction step, rules out latched lookups that break the contract.
#include <fmt/format.h>

#include "gen/structures/tag_array/tag_array_spec.h"
#include "gen/vlog/expr.h"
#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

const char kContract[] = "contract violated: a memory lookup addresses the reg-mem space";

Harness ContractHarness(const StructureSpec& spec, const GeneratedStructure& rtl,
                        const std::string& property, const std::string& what) {
  const TagArraySpec& s = SpecAs<TagArraySpec>(spec);
  HarnessBuilder b(rtl, property, {fmt::format("{}: {}", rtl.top, what)});
  // The top PrefixBits bits of lookup p's byte address.
  const std::string prefix =
      PartSelect("lk_addr_i", "p*" + Int(s.addr_width) + " + " + Int(s.addr_width - s.prefix_bits),
                 Int(s.prefix_bits));
  b.Comment(
      "Interface contract: a memory lookup (load, store) of an accepted request does not address\n"
      "the reg-mem space (all-ones prefix).");
  b.Add(MakeItem(Always{
      AlwaysKind::kComb,
      "",
      "",
      {ForLoop("p", Int(s.lookups),
               {Assume(BinOp("!(req_valid_i && req_ready_o && lk_valid_i[p] && lk_op_i[p*2 + 1])",
                             "||", BinOp(prefix, "!=", "'1")))})}}));
  b.Comment("The property is the RTL's own assertions (GPURF_ASSERTIONS).");
  return b.Finish();
}

PropertyDef Def(const std::string& name, const std::string& summary, int depth,
                std::vector<std::string> checks) {
  checks.push_back(kContract);
  return {name, summary, depth, std::move(checks),
          [name, summary](const StructureSpec& s, const GeneratedStructure& g) {
            return ContractHarness(s, g, name, summary);
          }};
}

}  // namespace

namespace {

Family TagArrayFamily() {
  Family f;
  f.kinds = {"tag-array"};
  f.properties = [](const StructureSpec& spec) {
    std::vector<PropertyDef> ps;
    ps.push_back(Def("one-line-per-tag",
                     "I1: at most one line per (set, tag) is not inactive (with the auxiliary "
                     "check of every stored set)",
                     4, {"I1 violated"}));
    if (SpecAs<TagArraySpec>(spec).prioritized()) {
      ps.push_back(Def("reg-never-victim-of-load",
                       "I2 (lru-prioritized): a reg line is never the victim of a load", 4,
                       {"I2 violated"}));
    }
    ps.push_back(Def("dirty-written-back-once",
                     "I3: a dirty line is reported as a dirty victim (written back) when its way "
                     "is reused, and only a dirty line is",
                     4, {"I3 violated"}));
    ps.push_back(Def("fig6-transitions",
                     "I4: every line state change is a Fig. 6 transition (with the auxiliary "
                     "check that reg lines hold reg-mem addresses and cache lines memory ones)",
                     4, {"I4 violated", "line space violated"}));
    return ps;
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, tag_array, "tag-array", TagArrayFamily())

}  // namespace gpurf::formal
