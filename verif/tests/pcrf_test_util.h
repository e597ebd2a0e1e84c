// PCRF specs and a port-level driver of its golden model for the tests.
#pragma once

#include <string>

#include "gen/structures/pcrf/pcrf_ports.h"
#include "gen/structures/pcrf/pcrf_spec.h"
#include "models/pcrf_model.h"

namespace gpurf::test {

struct PcrfShape {
  int entries = 1024, row_bytes = 128, ctas = 128, warps = 32, regs = 64, hop_cycles = 4;
  bool pipelined = true;
  bool macro = true;
};

inline PcrfSpec MakePcrfSpec(const PcrfShape& s) {
  ParamSet p(PcrfSpec::ParamDescs());
  auto set = [&](const char* name, const std::string& v) { p.Set(name, v, {}, name); };
  set("entries", std::to_string(s.entries));
  set("row_bytes", std::to_string(s.row_bytes));
  set("ctas", std::to_string(s.ctas));
  set("warps", std::to_string(s.warps));
  set("regs", std::to_string(s.regs));
  set("hop_cycles", std::to_string(s.hop_cycles));
  set("pipelined", s.pipelined ? "true" : "false");
  set("data_impl", s.macro ? "macro" : "flops");
  return PcrfSpec::FromParams(p);
}

// Drives the model one cycle at a time through its ports: set inputs, Step() evaluates the
// outputs of the cycle (kept in out) and clocks.
class PcrfDriver {
 public:
  using P = PcrfPort;
  explicit PcrfDriver(const PcrfSpec& spec) : spec_(spec), model_(spec) {
    in = out = def = PcrfPortTable(spec).ZeroValues();
    in[P::kRstN] = Bits(1, 1);
    in[P::kOutReady] = Bits(1, 1);
  }
  void Idle() {
    in[P::kAppValid] = Bits(1, 0);
    in[P::kRsValid] = Bits(1, 0);
  }
  void Append(int cta, int warp, int reg, uint64_t value) {
    in[P::kAppValid] = Bits(1, 1);
    in[P::kAppCta].set(0, spec_.cta_bits, static_cast<uint64_t>(cta));
    in[P::kAppWarp].set(0, spec_.warp_bits, static_cast<uint64_t>(warp));
    in[P::kAppReg].set(0, spec_.reg_bits, static_cast<uint64_t>(reg));
    in[P::kAppData] = Bits(spec_.row_bits, value);
  }
  void Restore(int cta) {
    in[P::kRsValid] = Bits(1, 1);
    in[P::kRsCta].set(0, spec_.cta_bits, static_cast<uint64_t>(cta));
  }
  void Query(int cta) { in[P::kQCta].set(0, spec_.cta_bits, static_cast<uint64_t>(cta)); }
  // Outputs of this cycle, then the edge; the inputs go back to idle.
  void Step() {
    Eval();
    model_.Clock(in);
    Idle();
  }
  void Eval() { model_.Outputs(in, out, def); }
  uint64_t Out(int port) const { return out[port].get(0, std::min(out[port].width(), 64)); }
  PcrfModel& model() { return model_; }

  PortValues in, out, def;

 private:
  const PcrfSpec spec_;
  PcrfModel model_;
};

}  // namespace gpurf::test
