#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"

#include <fmt/format.h>

#include "base/hash.h"

namespace gpurf {

int IndexWidth(int n) {
  int w = 1;
  while ((1LL << w) < n)
    ++w;
  return w;
}

const std::vector<ParamDesc>& WarpSchedulerSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("warps", 1, 64, 32, "resident warps W (outer level: active plus pending)"),
      IntParam("active", 1, 64, 8, "active slots A (inner level), at most warps"),
      EnumParam("inner_policy", {"greedy", "round-robin"}, "round-robin",
                "issue policy among active warps"),
  };
  return descs;
}

WarpSchedulerSpec WarpSchedulerSpec::FromParams(const ParamSet& p) {
  WarpSchedulerSpec s;
  s.params = p;
  s.warps = p.IntAsInt("warps");
  s.active = p.IntAsInt("active");
  s.policy = p.Enum("inner_policy") == "greedy" ? InnerPolicy::kGreedy : InnerPolicy::kRoundRobin;
  if (s.active > s.warps) {
    p.Reject("active", fmt::format("exceeds warps = {}", s.warps),
             fmt::format("integer 1..{} (warps)", s.warps));
  }
  s.warp_id_width = IndexWidth(s.warps);
  s.slot_width = IndexWidth(s.active);
  s.kind = "warp-scheduler";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = fmt::format("rf_sched_{}w{}a_{}_{}", s.warps, s.active,
                              s.greedy() ? "greedy" : "rr", s.config_hash);
  return s;
}

}  // namespace gpurf
