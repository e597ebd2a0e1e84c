#include "gen/structures/registry.h"

namespace gpurf {

const std::vector<StructureKind>& StructureKinds() {
  static const std::vector<StructureKind> kinds = {
      {"flop-array", "multi-ported flip-flop register array (storage of ORF/RFC/RSP levels)",
       FlopArraySpec::ParamDescs(),
       [](const ParamSet& p) -> StructureSpec { return FlopArraySpec::FromParams(p); }},
      {"mrf", "banked main register file with operand collectors (Gebhart)", MrfSpec::ParamDescs(),
       [](const ParamSet& p) -> StructureSpec { return MrfSpec::FromParams(p); }},
      {"rfc", "hardware register file cache, 1 or 2 levels, FIFO/LRU, liveness hints (Gebhart)",
       RfcSpec::ParamDescs(),
       [](const ParamSet& p) -> StructureSpec { return RfcSpec::FromParams(p); }},
      {"warp-scheduler",
       "two-level warp scheduler: active/pending warps, greedy or round-robin (Gebhart)",
       WarpSchedulerSpec::ParamDescs(),
       [](const ParamSet& p) -> StructureSpec { return WarpSchedulerSpec::FromParams(p); }},
      {"orf-l1", "software-managed L1 operand register file, 3R1W, active-slot x entry (Gebhart)",
       OrfSpec::L1ParamDescs(),
       [](const ParamSet& p) -> StructureSpec { return OrfSpec::FromL1Params(p); }},
      {"orf-l0",
       "software-managed L0 operand register file, unified or split per operand slot (Gebhart)",
       OrfSpec::L0ParamDescs(),
       [](const ParamSet& p) -> StructureSpec { return OrfSpec::FromL0Params(p); }},
      {"rf-system",
       "register-file system top of one lane cluster: MRF + HW RFC or SW ORF levels (Gebhart)",
       RfSystemSpec::ParamDescs(),
       [](const ParamSet& p) -> StructureSpec { return RfSystemSpec::FromParams(p); }},
  };
  return kinds;
}

const StructureKind* FindStructureKind(const std::string& name) {
  for (const auto& k : StructureKinds()) {
    if (k.name == name)
      return &k;
  }
  return nullptr;
}

const std::vector<PlannedKind>& PlannedStructureKinds() {
  static const std::vector<PlannedKind> kinds = {
      {"renaming-table", "register renaming table (Jeon)"},
      {"pcrf", "pending-CTA register file chains (FineReg)"},
      {"tag-array", "cache-emulated register file tag arrays (Jing)"},
      {"hybrid-rc", "hybrid register cache / scratchpad (Bailey)"},
  };
  return kinds;
}

const std::string& KindName(const StructureSpec& s) {
  return std::visit([](const auto& x) -> const std::string& { return x.kind; }, s);
}
const std::string& ModuleName(const StructureSpec& s) {
  return std::visit([](const auto& x) -> const std::string& { return x.module_name; }, s);
}
const std::string& ConfigHash(const StructureSpec& s) {
  return std::visit([](const auto& x) -> const std::string& { return x.config_hash; }, s);
}
const ParamSet& Params(const StructureSpec& s) {
  return std::visit([](const auto& x) -> const ParamSet& { return x.params; }, s);
}

}  // namespace gpurf
