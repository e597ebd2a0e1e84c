// Internal interface of the formal flow: what a structure family contributes (its properties,
// each with the RTL assertions it proves and a generated harness), and the harness builder they
// share. A new family (e.g. the Jeon renaming tables) adds one properties_<family>.cc that
// registers its Family entry (base/registry.h); see verif/formal/README.md.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gen/output/artifact.h"
#include "gen/structures/registry.h"
#include "gen/vlog/ast.h"

namespace gpurf::formal {

// A harness net driven, after flattening, by an internal signal of the DUT (a "probe"): how a
// harness states an auxiliary invariant over state the ports do not show. `dut_path` is the
// flattened name below the instance, e.g. "gen_rows[2].row_q" (Yosys: u_dut.gen_rows[2].row_q).
struct Probe {
  std::string net;
  std::string dut_path;
};

// The formal-only top module: instantiates the DUT as u_dut and holds the property's
// assumptions, auxiliary state and assertions.
struct Harness {
  std::string module;
  std::string file_name;
  std::string text;
  std::vector<Probe> probes;
};

struct PropertyDef {
  std::string name;
  std::string summary;
  int depth = 0;  // K in clock cycles
  // The RTL's own GPURF_ASSERTIONS checks this property consists of (and the auxiliary ones it
  // relies on for induction), selected by a fragment of their $error message. Every fragment must
  // match at least one assertion of the RTL; the other RTL assertions are left out of this proof.
  std::vector<std::string> rtl_checks;
  std::function<Harness(const StructureSpec&, const GeneratedStructure&)> harness;
  // The unbounded step: false, k-induction at K (yosys-smtbmc -i); true, ABC's PDR (IC3) on the
  // same model as an AIGER file (`pdr.ys`), for a property that is inductive only with an
  // invariant the solver struggles to use at K (the base case at K still gives the FAILED traces).
  bool pdr = false;
};

struct Family {
  std::vector<std::string> kinds;  // structure kinds it covers
  std::function<std::vector<PropertyDef>(const StructureSpec&)> properties;
};

// The registered family covering structure `kind`, or nullptr.
const Family* FindFamily(const std::string& kind);

// Builds a harness module around the DUT: every DUT input but the clock becomes a free input of
// the harness (same name and width), every output a net of the same name; the clock is
// generated (clk_i toggles at every solver step of the global clock), and the reset is asserted
// in the first step (f_init). Per-property items are added with Add().
class HarnessBuilder {
 public:
  HarnessBuilder(const GeneratedStructure& dut, const std::string& property,
                 std::vector<std::string> doc);

  void Add(vlog::Item item);
  void Comment(const std::string& text);
  void Blank();
  // Declares `logic [msb:0] net` driven by the DUT's internal signal `dut_path`.
  void AddProbe(const std::string& net, const std::string& msb, const std::string& dut_path,
                const std::string& comment);
  Harness Finish();

 private:
  const GeneratedStructure& dut_;
  std::string property_;
  vlog::Module m_;
  std::vector<Probe> probes_;
  std::vector<vlog::Item> body_;
};

// A property that assumes nothing about the inputs: its harness holds only the DUT, every input
// free in every cycle, and the comment "No assumptions: <free_inputs>" (which inputs those are,
// in the family's words); the property is the RTL's own assertions selected by `rtl_checks`.
PropertyDef AssumptionFreeProperty(const std::string& name, const std::string& summary, int depth,
                                   std::vector<std::string> rtl_checks,
                                   const std::string& free_inputs);

// "[msb:0]" width expression for a number of bits ("" for one bit).
std::string MsbOf(int bits);

}  // namespace gpurf::formal
