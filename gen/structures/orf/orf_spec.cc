#include "gen/structures/orf/orf_spec.h"

#include <fmt/format.h>

#include "base/hash.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"

namespace gpurf {

namespace {

std::vector<ParamDesc> StorageDescs() {
  return {
      EnumParam("read_mode", {"comb", "reg"}, "comb",
                "flop-array reads: comb (same cycle) or reg (one cycle of latency)"),
      BoolParam("bypass", false, "forward a same-cycle write to reads of that entry"),
      BoolParam("clock_gate", true, "gate each row's clock with its write enable"),
  };
}

OrfSpec Finish(OrfSpec s, const ParamSet& p) {
  s.params = p;
  s.active_warps = p.IntAsInt("active_warps");
  s.width = p.IntAsInt("width");
  const int rows = s.active_warps * s.entries_per_thread;
  const long long bits = static_cast<long long>(rows) * s.width * s.banks;
  if (static_cast<long long>(rows) * s.width > 256 * 1024) {
    p.Reject("width",
             fmt::format("{} rows x {} bits = {} bits is larger than a flop array should be", rows,
                         s.width, bits),
             "rows (active_warps x entries per thread) x width <= 262144 bits");
  }
  s.slot_width = IndexWidth(s.active_warps);
  s.entry_width = IndexWidth(s.entries);

  // The storage bank: a generated flop array, each option traced back to the ORF parameter.
  ParamSet f(FlopArraySpec::ParamDescs());
  auto set = [&](const std::string& key, const std::string& text, const std::string& from) {
    const ParamValue& v = p.Get(from);
    f.Set(key, text, v.loc, v.field.empty() ? from : v.field);
  };
  set("entries", std::to_string(rows), "active_warps");
  set("width", std::to_string(s.width), "width");
  set("read_ports", s.split ? "1" : std::to_string(OrfSpec::kReadPorts), "active_warps");
  set("write_ports", "1", "active_warps");
  for (const char* k : {"read_mode", "bypass", "clock_gate"})
    set(k, p.Get(k).s, k);
  s.storage = FlopArraySpec::FromParams(f);

  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  if (s.level == OrfSpec::Level::kL1) {
    s.module_name = fmt::format("rf_orf_l1_{}e{}a_{}_{}", s.entries_per_thread, s.active_warps,
                                s.width, s.config_hash);
  } else {
    s.module_name = fmt::format("rf_orf_l0{}_{}a_{}_{}", s.split ? "s" : "u", s.active_warps,
                                s.width, s.config_hash);
  }
  return s;
}

}  // namespace

const std::vector<ParamDesc>& OrfSpec::L1ParamDescs() {
  static const std::vector<ParamDesc> descs = [] {
    std::vector<ParamDesc> d = {
        IntParam("entries_per_thread", 1, 8, 3, "L1 entries per thread (Gebhart: 3-6)"),
        IntParam("active_warps", 1, 64, 8, "active-warp slots A of the two-level scheduler"),
        IntParam("width", 1, 1024, 128, "bits per row (128 = 4 lanes x 32 bit)"),
    };
    for (auto& x : StorageDescs())
      d.push_back(std::move(x));
    return d;
  }();
  return descs;
}

const std::vector<ParamDesc>& OrfSpec::L0ParamDescs() {
  static const std::vector<ParamDesc> descs = [] {
    std::vector<ParamDesc> d = {
        IntParam("active_warps", 1, 64, 8, "active-warp slots A of the two-level scheduler"),
        IntParam("width", 1, 1024, 128, "bits per row (128 = 4 lanes x 32 bit)"),
        BoolParam("split", true,
                  "three single-entry banks, one per operand slot A/B/C (else one 3R1W entry)"),
    };
    for (auto& x : StorageDescs())
      d.push_back(std::move(x));
    return d;
  }();
  return descs;
}

OrfSpec OrfSpec::FromL1Params(const ParamSet& p) {
  OrfSpec s;
  s.level = Level::kL1;
  s.kind = "orf-l1";
  s.entries_per_thread = p.IntAsInt("entries_per_thread");
  s.entries = s.entries_per_thread;
  s.banks = 1;
  return Finish(std::move(s), p);
}

OrfSpec OrfSpec::FromL0Params(const ParamSet& p) {
  OrfSpec s;
  s.level = Level::kL0;
  s.kind = "orf-l0";
  s.entries_per_thread = 1;
  s.split = p.Bool("split");
  s.entries = s.split ? kReadPorts : 1;
  s.banks = s.split ? kReadPorts : 1;
  return Finish(std::move(s), p);
}

}  // namespace gpurf
