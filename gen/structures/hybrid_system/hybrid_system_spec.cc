#include "gen/structures/hybrid_system/hybrid_system_spec.h"

#include <fmt/format.h>

#include <bit>

#include "base/hash.h"
#include "base/int_math.h"

namespace gpurf {

const std::vector<ParamDesc>& HybridSystemSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("rc_bytes", 256, 65536, 1024,
               "register-cache capacity of the scheduler in bytes (lines = rc_bytes / line_bytes)"),
      IntParam("rsp_bytes", 128, 65536, 1024, "register-scratchpad capacity in bytes"),
      IntParam("line_bytes", 16, 1024, 128, "bytes of one warp-wide register"),
      IntParam("ways", 2, 8, 2, "RC associativity (Bailey: 2)"),
      EnumParam("organization", {"hierarchical", "parallel-evict", "parallel-lifetime"},
                "hierarchical", "RC / RSP organization of section IV-D (see hybrid-rc)"),
      IntParam("warps", 2, 64, 4, "warps of the scheduler (power of two)"),
      IntParam("reg_bits", 2, 8, 4, "register name width (the MRF holds 2^reg_bits per warp)"),
      IntParam("width", 1, 1024, 32, "data bits per register slice"),
      IntParam("banks", 1, 64, 4, "MRF banks"),
      IntParam("collectors", 1, 8, 4, "MRF operand collectors"),
      EnumParam("bank_impl", {"macro", "flops"}, "macro", "MRF banks: SRAM macros or flip-flops"),
      IntParam("queue", 2, 16, 4, "instruction-queue entries (power of two)"),
      IntParam("wbq", 4, 16, 8,
               "write-back FIFO entries in front of the MRF's write port (power of two)"),
      IntParam("tag_width", 1, 32, 8, "bits of the instruction tag carried to dispatch"),
      BoolParam("clock_gate", true, "gate each storage row's clock with its write enable"),
  };
  return descs;
}

namespace {

// A sub-spec parameter that keeps the location of the system parameter it came from.
void SetFrom(ParamSet& sub, const ParamSet& sys, const std::string& key, const std::string& text,
             const std::string& from, const std::string& prefix) {
  const ParamValue& v = sys.Get(from);
  const std::string field = v.field.empty() ? from : v.field;
  sub.Set(key, text, v.loc, field + " (-> " + prefix + "." + key + ")");
}

}  // namespace

HybridSystemSpec HybridSystemSpec::FromParams(const ParamSet& p) {
  HybridSystemSpec s;
  s.params = p;
  s.queue = p.IntAsInt("queue");
  s.wbq = p.IntAsInt("wbq");
  s.width = p.IntAsInt("width");
  s.tag_width = p.IntAsInt("tag_width");
  if (!std::has_single_bit(static_cast<unsigned>(s.queue)))
    p.Reject("queue", fmt::format("{} is not a power of two", s.queue), "2, 4, 8 or 16");
  if (!std::has_single_bit(static_cast<unsigned>(s.wbq)))
    p.Reject("wbq", fmt::format("{} is not a power of two", s.wbq), "4, 8 or 16");
  {
    ParamSet r(HybridRcSpec::ParamDescs());
    for (const char* k :
         {"rc_bytes", "rsp_bytes", "line_bytes", "ways", "warps", "reg_bits", "width"})
      SetFrom(r, p, k, p.Get(k).s, k, "rc");
    SetFrom(r, p, "organization", p.Enum("organization"), "organization", "rc");
    SetFrom(r, p, "clock_gate", p.Get("clock_gate").s, "clock_gate", "rc");
    s.rc = HybridRcSpec::FromParams(r);
  }
  s.warps = s.rc.warps;
  s.warp_width = s.rc.warp_bits;
  s.reg_width = s.rc.reg_bits;
  s.slot_width = s.rc.slot_bits;
  s.qidx_width = std::countr_zero(static_cast<unsigned>(s.queue));
  s.mrf_tag_width = s.qidx_width + 1;  // queue entries, and the fill's read (tag = queue)
  s.wbq_idx_width = std::countr_zero(static_cast<unsigned>(s.wbq));
  s.wbq_cnt_width = IndexBits(s.wbq + 1);
  {
    const int banks = p.IntAsInt("banks");
    const int regs = 1 << s.reg_width;
    const int rows = s.warps * ((regs + banks - 1) / banks);
    ParamSet m(MrfSpec::ParamDescs());
    SetFrom(m, p, "banks", std::to_string(banks), "banks", "mrf");
    SetFrom(m, p, "rows", std::to_string(rows), "banks", "mrf");
    SetFrom(m, p, "width", std::to_string(s.width), "width", "mrf");
    SetFrom(m, p, "warps", std::to_string(s.warps), "warps", "mrf");
    SetFrom(m, p, "regs", std::to_string(regs), "reg_bits", "mrf");
    SetFrom(m, p, "collectors", p.Get("collectors").s, "collectors", "mrf");
    SetFrom(m, p, "bank_impl", p.Enum("bank_impl"), "bank_impl", "mrf");
    SetFrom(m, p, "tag_width", std::to_string(s.mrf_tag_width), "queue", "mrf");
    s.mrf = MrfSpec::FromParams(m);
  }
  s.kind = "hybrid-system";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  const char* org = s.rc.hierarchical() ? "hier" : (s.rc.parallel_evict() ? "pevict" : "plife");
  s.module_name = fmt::format("rf_hybrid_sys_rc{}_rsp{}_{}_{}b_q{}_{}", s.rc.rc_bytes,
                              s.rc.rsp_bytes, org, s.mrf.banks, s.queue, s.config_hash);
  return s;
}

std::string HybridSystemSpec::Description() const {
  return fmt::format(
      "{} hybrid: RC {} lines {}-way, RSP {} slots, over the MRF {} banks x {} rows x {} bits "
      "({} collectors, {} warps x {} registers); queue {}, write-back FIFO {}",
      HybridRcSpec::OrganizationName(rc.organization), rc.rc_lines, rc.ways, rc.rsp_slots,
      mrf.banks, mrf.rows, width, mrf.collectors, warps, mrf.regs, queue, wbq);
}

}  // namespace gpurf
