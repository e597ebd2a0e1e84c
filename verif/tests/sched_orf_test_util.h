// Helpers shared by the warp-scheduler and ORF tests: specs from compact shapes, and a model
// that compares nothing (for runs whose only check is an RTL assertion).
#pragma once

#include <fmt/format.h>

#include <string>

#include "gen/params/param.h"
#include "gen/structures/orf/orf_spec.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"
#include "models/cycle_model.h"

namespace gpurf::test {

struct SchedShape {
  int warps, active;
  bool greedy;

  std::string Name() const {
    return fmt::format("w{}_a{}_{}", warps, active, greedy ? "greedy" : "rr");
  }
};

inline WarpSchedulerSpec MakeSchedSpec(const SchedShape& s) {
  ParamSet p(WarpSchedulerSpec::ParamDescs());
  p.Set("warps", std::to_string(s.warps), {}, "warps");
  p.Set("active", std::to_string(s.active), {}, "active");
  p.Set("inner_policy", s.greedy ? "greedy" : "round-robin", {}, "inner_policy");
  return WarpSchedulerSpec::FromParams(p);
}

struct OrfShape {
  int level;               // 0 or 1
  int entries_per_thread;  // L1 only
  int active_warps, width;
  bool split;  // L0 only
  bool registered, bypass, clock_gate;

  std::string Name() const {
    std::string n = level == 1 ? fmt::format("l1_e{}", entries_per_thread)
                               : std::string(split ? "l0_split" : "l0_unified");
    return n + fmt::format("_a{}_w{}_{}{}{}", active_warps, width, registered ? "reg" : "comb",
                           bypass ? "_bypass" : "", clock_gate ? "_cg" : "_nocg");
  }
};

inline OrfSpec MakeOrfSpec(const OrfShape& s) {
  ParamSet p(s.level == 1 ? OrfSpec::L1ParamDescs() : OrfSpec::L0ParamDescs());
  if (s.level == 1) {
    p.Set("entries_per_thread", std::to_string(s.entries_per_thread), {}, "entries_per_thread");
  } else {
    p.Set("split", s.split ? "true" : "false", {}, "split");
  }
  p.Set("active_warps", std::to_string(s.active_warps), {}, "active_warps");
  p.Set("width", std::to_string(s.width), {}, "width");
  p.Set("read_mode", s.registered ? "reg" : "comb", {}, "read_mode");
  p.Set("bypass", s.bypass ? "true" : "false", {}, "bypass");
  p.Set("clock_gate", s.clock_gate ? "true" : "false", {}, "clock_gate");
  return s.level == 1 ? OrfSpec::FromL1Params(p) : OrfSpec::FromL0Params(p);
}

// Compares nothing: every output bit is undefined. Used when a test's only check is an RTL
// assertion, so that a mutation's first output difference does not stop the run before it.
class NoCompareModel : public CycleModel {
 public:
  void Outputs(const PortValues&, PortValues&, PortValues&) override {}
  void Clock(const PortValues&) override {}
};

}  // namespace gpurf::test
