// Formal properties of the physical-register availability vectors (gen/structures/
// availability_vectors/availability_vectors_spec.h), proven from the RTL's own invariant
// assertions I1-I3 (availability_vectors_gen.cc):
//   free-count          I1: in every bank the free counter plus the allocated registers of the
//                       vector equals the registers per bank;
//   grant-free-powered  I2: a grant takes a free row of a powered subarray (find-first-free
//                       searches the powered subarrays only);
//   gated-holds-none    I3: a gated subarray holds no allocated register (gating never loses a
//                       live value).
// Inputs are free but for the interface contract C1: a release names an allocated register of
// its bank, in range, and no id twice in one cycle. Whether the named row is allocated is the
// requester's knowledge (it was granted that id); the harness states it over the vectors, probed
// from the DUT. C1's own RTL assertion is that assumption restated, so it is not a property.
// K = 5 cycles lets the base case reach a wake-up, a grant, a release and the check after it.
#include <fmt/format.h>

#include "gen/structures/availability_vectors/availability_vectors_spec.h"
#include "gen/vlog/expr.h"
#include "verif/formal/family.h"

namespace gpurf::formal {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

Harness ContractHarness(const StructureSpec& spec, const GeneratedStructure& rtl,
                        const std::string& property, const std::string& what) {
  const AvailabilityVectorsSpec& s = SpecAs<AvailabilityVectorsSpec>(spec);
  const int P = s.regs_per_bank;
  HarnessBuilder b(rtl, property, {fmt::format("{}: {}", rtl.top, what)});
  b.Comment("Each bank's vector (1: free), probed from the DUT.");
  for (int k = 0; k < s.banks; ++k)
    b.AddProbe(fmt::format("f_avail{}", k), MsbOf(P), fmt::format("gen_banks[{}].avail_q", k),
               fmt::format("bank {}'s vector", k));
  b.Blank();
  auto id = [&](const std::string& p) {
    return PartSelect("rel_id_i", p + "*" + Int(s.id_bits), Int(s.id_bits));
  };
  auto row = [&](const std::string& p) {
    return PartSelect("rel_id_i", p + "*" + Int(s.id_bits) + " + " + Int(s.bank_bits),
                      Int(s.row_bits));
  };
  auto bank = [&](const std::string& p) {
    return PartSelect("rel_id_i", p + "*" + Int(s.id_bits), Int(s.bank_bits));
  };
  Body per_port;
  if ((1 << s.row_bits) != P)
    per_port.push_back(
        Assume(BinOp("!rel_valid_i[p]", "||", BinOp(Cast("32", row("p")), "<", Int(P)))));
  for (int k = 0; k < s.banks; ++k) {
    per_port.push_back(
        Assume(BinOp("!(rel_valid_i[p] && " + Eq(Cast("32", bank("p")), Int(k)) + ")", "||",
                     fmt::format("!f_avail{}[{}]", k, row("p")))));
  }
  per_port.push_back(ForLoop("q", Int(s.release_ports),
                             {Assume(BinOp("!(q < p && rel_valid_i[p] && rel_valid_i[q])", "||",
                                           BinOp(id("p"), "!=", id("q"))))}));
  b.Comment(
      "Interface contract C1: a release names an allocated register (in range), and no id is\n"
      "named by two ports in one cycle.");
  b.Add(
      MakeItem(Always{AlwaysKind::kComb, "", "", {ForLoop("p", Int(s.release_ports), per_port)}}));
  b.Comment("The property is the RTL's own assertions (GPURF_ASSERTIONS).");
  return b.Finish();
}

PropertyDef Def(const std::string& name, const std::string& summary, int depth,
                std::vector<std::string> checks) {
  return {name, summary, depth, std::move(checks),
          [name, summary](const StructureSpec& s, const GeneratedStructure& g) {
            return ContractHarness(s, g, name, summary);
          }};
}

}  // namespace

namespace {

Family AvailabilityVectorsFamily() {
  Family f;
  f.kinds = {"availability-vectors"};
  f.properties = [](const StructureSpec&) {
    return std::vector<PropertyDef>{
        Def("free-count",
            "I1: in every bank the free counter plus the allocated registers equals the "
            "registers per bank",
            5, {"I1 violated"}),
        Def("grant-free-powered", "I2: a grant takes a free row of a powered subarray", 5,
            {"I2 violated"}),
        Def("gated-holds-none",
            "I3: a gated subarray holds no allocated register (gating never loses a live value)", 5,
            {"I3 violated"}),
    };
  };
  return f;
}

}  // namespace

GPURF_REGISTER(Family, availability_vectors, "availability-vectors", AvailabilityVectorsFamily())

}  // namespace gpurf::formal
