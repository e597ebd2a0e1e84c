// libFuzzer target: the Liberty reader (synth/liberty.h) and, on every library it accepts, what
// synthesis and characterization do next with it: the Boolean functions of pins, flip-flops and
// latches through the expression parser (synth/liberty_expr.h, as gate_sim.cc builds cell
// models), the internal-power table lookups, the energy unit, the warnings and the smallest
// flip-flop.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "synth/liberty.h"
#include "synth/liberty_expr.h"
#include "verif/fuzz/fuzz_contract.h"

namespace {

void Expr(const std::string& text, const std::string& what) {
  if (text.empty())
    return;
  gpurf::fuzz::ParsesOrRejects("ParseLibertyExpr", [&] {
    const auto e = gpurf::ParseLibertyExpr(text, what);
    std::vector<std::string> names;
    e->Names(names);
    (void)e->Verilog([](const std::string& n) { return n; });
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = gpurf::fuzz::AsText(data, size);
  gpurf::LibertyLibrary lib;
  bool parsed = false;
  gpurf::fuzz::ParsesOrRejects("ParseLiberty", [&] {
    lib = gpurf::ParseLiberty(text, "fuzz.lib");
    parsed = true;
  });
  if (!parsed)
    return 0;
  (void)lib.Warnings();
  (void)lib.SmallestFlipFlop();
  gpurf::fuzz::ParsesOrRejects("EnergyUnitPj", [&] { (void)lib.EnergyUnitPj(); });
  for (const auto& [name, cell] : lib.cells) {
    for (const std::string* f : {&cell.ff_clocked_on, &cell.ff_next_state, &cell.latch_data_in,
                                 &cell.latch_enable, &cell.clear, &cell.preset})
      Expr(*f, "cell " + name);
    for (const auto& pin : cell.pins) {
      Expr(pin.function, "cell " + name + " pin " + pin.name + " function");
      Expr(pin.three_state, "cell " + name + " pin " + pin.name + " three_state");
      for (const auto& ip : pin.internal_power) {
        for (const auto* t : {&ip.rise, &ip.fall}) {
          if (*t) {
            (void)(*t)->Lookup(0.1, 0.01);
            (void)(*t)->Lookup(-1e9, 1e9);
          }
        }
      }
    }
  }
  return 0;
}
