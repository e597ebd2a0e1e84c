// Specs and port-level drivers of the golden models of FineReg's register management unit
// structures (live-vector-cache, cta-status-monitor) for the tests.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "gen/structures/cta_status_monitor/cta_status_monitor_ports.h"
#include "gen/structures/cta_status_monitor/cta_status_monitor_spec.h"
#include "gen/structures/live_vector_cache/live_vector_cache_ports.h"
#include "gen/structures/live_vector_cache/live_vector_cache_spec.h"
#include "models/cta_status_monitor_model.h"
#include "models/live_vector_cache_model.h"

namespace gpurf::test {

struct LvcShape {
  int entries = 32, pc_bits = 32, align_bits = 3, vector_bits = 64, decode_width = 1,
      fetch_latency = 200;
};

inline LiveVectorCacheSpec MakeLvcSpec(const LvcShape& s) {
  ParamSet p(LiveVectorCacheSpec::ParamDescs());
  auto set = [&](const char* name, int v) { p.Set(name, std::to_string(v), {}, name); };
  set("entries", s.entries);
  set("pc_bits", s.pc_bits);
  set("align_bits", s.align_bits);
  set("vector_bits", s.vector_bits);
  set("decode_width", s.decode_width);
  set("fetch_latency", s.fetch_latency);
  return LiveVectorCacheSpec::FromParams(p);
}

inline CtaStatusMonitorSpec MakeCsmSpec(int ctas = 128, int pcrf_entries = 1024) {
  ParamSet p(CtaStatusMonitorSpec::ParamDescs());
  p.Set("ctas", std::to_string(ctas), {}, "ctas");
  p.Set("pcrf_entries", std::to_string(pcrf_entries), {}, "pcrf_entries");
  return CtaStatusMonitorSpec::FromParams(p);
}

// Drives a model one cycle at a time through its ports: set `in`, Step() evaluates the
// outputs of the cycle (kept in `out`) and clocks; Eval() only evaluates.
template <typename Model, typename Spec>
class ModelDriver {
 public:
  ModelDriver(const Spec& spec, PortValues zero) : model_(spec) {
    in = out = def = std::move(zero);
    in[1] = Bits(1, 1);  // rst_ni released
  }
  void Eval() { model_.Outputs(in, out, def); }
  void Step() {
    Eval();
    model_.Clock(in);
  }
  uint64_t Out(int port) const { return out[port].get(0, std::min(out[port].width(), 64)); }
  Model& model() { return model_; }
  PortValues in, out, def;

 private:
  Model model_;
};

// Runs a golden model for its outputs (so that a reactive stimulus sees the handshakes it
// answers) but compares nothing: every output bit undefined. For tests whose only check is an
// RTL assertion.
template <typename Model>
class ObserveOnlyModel : public CycleModel {
 public:
  template <typename Spec>
  explicit ObserveOnlyModel(const Spec& spec) : model_(spec) {}
  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override {
    model_.Outputs(in, out, defined);
    for (auto& d : defined)
      d.clear();
  }
  void Clock(const PortValues& in) override { model_.Clock(in); }

 private:
  Model model_;
};

}  // namespace gpurf::test
