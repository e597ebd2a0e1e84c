#include "gen/structures/rf_system/rf_system_spec.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/hash.h"
#include "gen/params/sub_params.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"

namespace gpurf {

const std::vector<ParamDesc>& RfSystemSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      EnumParam("hierarchy", {"mrf-only", "hw-rfc", "sw-orf"}, "sw-orf",
                "levels above the MRF: none, hardware RFC, software ORF"),
      IntParam("levels", 1, 3, 3, "levels including the MRF (mrf-only: 1)"),
      IntParam("l1_entries", 1, 8, 3, "L1 entries per thread (RFC L1 or ORF L1)"),
      IntParam("l0_entries", 1, 8, 1, "hw-rfc with 3 levels: RFC L0 entries per thread"),
      BoolParam("l0_split", true, "sw-orf with 3 levels: L0 split into one bank per operand slot"),
      EnumParam("replacement", {"fifo", "lru"}, "lru", "hw-rfc replacement"),
      BoolParam("hints", true, "hw-rfc: honour liveness (dead) hints of the issue"),
      IntParam("warps", 1, 64, 32, "resident warps"),
      IntParam("active_warps", 1, 64, 8, "active-warp slots of the upper levels (hw-rfc: 1..32)"),
      IntParam("banks", 1, 64, 4, "MRF banks of the lane cluster"),
      IntParam("rows", 1, 4096, 256, "rows per MRF bank"),
      IntParam("regs", 1, 256, 32, "architected registers per thread"),
      IntParam("width", 1, 1024, 128, "bits per row (128 = 4 lanes x 32 bit)"),
      IntParam("collectors", 1, 8, 4, "operand collectors (and operand-buffer entries)"),
      EnumParam("interleave", {"register", "warp-swizzled"}, "register",
                "MRF register -> bank mapping (see mrf)"),
      EnumParam("wb_policy", {"write-priority", "read-priority"}, "write-priority",
                "MRF: who waits when a write and a read hit one bank row (hw-rfc: write-priority)"),
      EnumParam("bank_impl", {"macro", "flops"}, "macro", "MRF banks: SRAM macros or flip-flops"),
      EnumParam("read_mode", {"comb", "reg"}, "comb",
                "flop arrays of the ORF levels: comb or reg reads (hw-rfc: comb)"),
      BoolParam("bypass", false, "ORF levels: forward a same-cycle write (hw-rfc: false)"),
      BoolParam("clock_gate", true, "gate each storage row's clock with its write enable"),
      IntParam("tag_width", 1, 32, 8, "bits of the instruction tag carried to dispatch"),
      IntParam("counter_width", 8, 64, 32, "bits of each event counter"),
  };
  return descs;
}

RfSystemSpec RfSystemSpec::FromParams(const ParamSet& p) {
  RfSystemSpec s;
  s.params = p;
  const std::string& h = p.Enum("hierarchy");
  s.hierarchy = h == "mrf-only" ? Hierarchy::kMrfOnly
                : h == "hw-rfc" ? Hierarchy::kHwRfc
                                : Hierarchy::kSwOrf;
  s.levels = p.IntAsInt("levels");
  s.l1_entries = p.IntAsInt("l1_entries");
  s.l0_entries = p.IntAsInt("l0_entries");
  s.l0_split = p.Bool("l0_split");
  s.lru = p.Enum("replacement") == "lru";
  s.hints = p.Bool("hints");
  s.warps = p.IntAsInt("warps");
  s.active_warps = p.IntAsInt("active_warps");
  s.width = p.IntAsInt("width");
  s.tag_width = p.IntAsInt("tag_width");
  s.counter_width = p.IntAsInt("counter_width");

  if (s.hierarchy == Hierarchy::kMrfOnly) {
    if (!p.Get("levels").defaulted && s.levels != 1)
      p.Reject("levels", "an mrf-only system has exactly one level", "1 (or leave it out)");
    s.levels = 1;
  } else if (s.levels < 2) {
    p.Reject("levels", fmt::format("a {} system needs the MRF plus at least an L1", h), "2 or 3");
  }
  if (s.active_warps > s.warps) {
    p.Reject("active_warps",
             fmt::format("{} active slots for {} resident warps", s.active_warps, s.warps),
             fmt::format("1..{} (warps)", s.warps));
  }
  if (s.hw()) {
    if (p.Enum("wb_policy") != "write-priority") {
      p.Reject("wb_policy",
               "with a hw-rfc the RFC's write-back would wait behind a read of its own MRF row, "
               "and that read would return the stale value",
               "write-priority (or leave it out)");
    }
    if (p.Enum("read_mode") != "comb")
      p.Reject("read_mode", "a hw-rfc checks tags and reads data in one cycle", "comb");
    if (p.Bool("bypass"))
      p.Reject("bypass", "a hw-rfc lookup sees the state at the start of the cycle", "false");
  }

  // The MRF of the cluster; its tag is the operand-buffer index the top assigns.
  s.buf_index_width = IndexWidth(p.IntAsInt("collectors"));
  {
    SubParams m(MrfSpec::ParamDescs(), p, "mrf");
    for (const char* k : {"banks", "rows", "width", "warps", "regs", "collectors", "interleave",
                          "wb_policy", "bank_impl", "counter_width"})
      m.Copy(k);
    m.Set("tag_width", std::to_string(s.buf_index_width), "collectors");
    s.mrf = MrfSpec::FromParams(m.params());
  }
  s.warp_width = s.mrf.warp_width;
  s.reg_width = s.mrf.reg_width;
  s.slot_width = IndexWidth(s.active_warps);
  s.entry_width = IndexWidth(std::max(s.l1_entries, 3));

  if (s.hw()) {
    const int per_slot = s.l1_entries + (s.levels == 3 ? s.l0_entries : 0);
    if (per_slot > (1 << s.reg_width)) {
      p.Reject("l1_entries",
               fmt::format("{} RFC entries per slot exceed the {} register ids of {} registers",
                           per_slot, 1 << s.reg_width, p.IntAsInt("regs")),
               fmt::format("at most {} entries per slot in total", 1 << s.reg_width));
    }
    SubParams r(RfcSpec::ParamDescs(), p, "rfc");
    r.Copy("active_warps");
    r.Set("levels", std::to_string(s.levels - 1), "levels");
    r.Set("l1_entries", std::to_string(s.l1_entries), "l1_entries");
    if (s.levels == 3)
      r.Set("l0_entries", std::to_string(s.l0_entries), "l0_entries");
    r.Copy("width");
    r.Set("reg_bits", std::to_string(s.reg_width), "regs");
    r.Copy("replacement");
    r.Copy("clock_gate");
    s.rfc = RfcSpec::FromParams(r.params());
  } else if (s.sw()) {
    SubParams l1(OrfSpec::L1ParamDescs(), p, "orf_l1");
    l1.Set("entries_per_thread", std::to_string(s.l1_entries), "l1_entries");
    for (const char* k : {"active_warps", "width", "read_mode", "bypass", "clock_gate"})
      l1.Copy(k);
    s.orf_l1 = OrfSpec::FromL1Params(l1.params());
    if (s.levels == 3) {
      SubParams l0(OrfSpec::L0ParamDescs(), p, "orf_l0");
      l0.Set("split", s.l0_split ? "true" : "false", "l0_split");
      for (const char* k : {"active_warps", "width", "read_mode", "bypass", "clock_gate"})
        l0.Copy(k);
      s.orf_l0 = OrfSpec::FromL0Params(l0.params());
    }
  }

  s.kind = "rf-system";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  std::string tag = "mrf";
  if (s.hw())
    tag = fmt::format("hw{}{}", s.levels, s.lru ? "l" : "f");
  else if (s.sw())
    tag = fmt::format("sw{}{}", s.levels, s.levels == 3 ? (s.l0_split ? "s" : "u") : "");
  s.module_name = fmt::format("rf_sys_{}_{}b_k{}_a{}_{}", tag, s.mrf.banks, s.mrf.collectors,
                              s.active_warps, s.config_hash);
  return s;
}

const char* RfSystemSpec::HierarchyName() const {
  switch (hierarchy) {
    case Hierarchy::kMrfOnly:
      return "mrf-only";
    case Hierarchy::kHwRfc:
      return "hw-rfc";
    case Hierarchy::kSwOrf:
      return "sw-orf";
  }
  return "";
}

std::string RfSystemSpec::Description() const {
  const std::string mrf_text =
      fmt::format("MRF {} banks x {} rows x {} bits, {} collectors, {} warps x {} registers",
                  mrf.banks, mrf.rows, width, mrf.collectors, warps, mrf.regs);
  switch (hierarchy) {
    case Hierarchy::kMrfOnly:
      return "baseline: " + mrf_text;
    case Hierarchy::kHwRfc:
      return fmt::format("{}-level hardware RFC ({}{} entries/thread, {}, hints {}) over the {}",
                         levels - 1, levels == 3 ? fmt::format("L0 {} + L1 ", l0_entries) : "",
                         l1_entries, lru ? "LRU" : "FIFO", hints ? "on" : "off", mrf_text);
    case Hierarchy::kSwOrf:
      return fmt::format("{}-level software ORF (L1 {} entries/thread{}) over the {}", levels,
                         l1_entries, levels == 3 ? (l0_split ? ", split L0" : ", unified L0") : "",
                         mrf_text);
  }
  return "";
}

}  // namespace gpurf
