#include "gen/structures/finereg_system/finereg_system_spec.h"

#include <fmt/format.h>

#include <bit>

#include "base/hash.h"
#include "gen/params/sub_params.h"

namespace gpurf {

const std::vector<ParamDesc>& FineregSystemSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("warps", 2, 64, 8, "ACRF warp slots (FineReg: 64 per SM)"),
      IntParam("cta_warps", 2, 32, 2, "warps per CTA, a power of two (FineReg: up to 32)"),
      IntParam("regs", 2, 256, 16,
               "registers per thread, a power of two: the live vector's bits per warp "
               "(FineReg: 64)"),
      IntParam("row_bytes", 4, 128, 16,
               "bytes of one warp register: an ACRF row, a PCRF row and the RMU buffer "
               "(FineReg: 128)"),
      IntParam("banks", 1, 64, 4, "ACRF (MRF) banks"),
      IntParam("collectors", 1, 8, 2, "ACRF operand collectors"),
      EnumParam("wb_policy", {"write-priority", "read-priority"}, "write-priority",
                "ACRF read / write-back arbitration (see mrf)"),
      EnumParam("bank_impl", {"macro", "flops"}, "macro", "ACRF banks: SRAM macros or flip-flops"),
      IntParam("entries", 4, 4096, 32, "PCRF entries (FineReg: 1024 for 128 KB)"),
      IntParam("ctas", 2, 256, 4, "pending CTA slots of the pointer table (FineReg: 128)"),
      IntParam("hop_cycles", 4, 16, 4, "PCRF cycles per chain entry (FineReg: at least 4)"),
      BoolParam("pipelined", true, "PCRF walks issue one entry per cycle"),
      EnumParam("data_impl", {"macro", "flops"}, "macro",
                "PCRF data array: SRAM macro or flip-flops"),
      IntParam("tag_width", 1, 31, 4, "bits of the pipeline's instruction tag"),
  };
  return descs;
}

FineregSystemSpec FineregSystemSpec::FromParams(const ParamSet& p) {
  FineregSystemSpec s;
  s.params = p;
  s.warps = p.IntAsInt("warps");
  s.cta_warps = p.IntAsInt("cta_warps");
  s.regs = p.IntAsInt("regs");
  s.tag_width = p.IntAsInt("tag_width");
  if (!std::has_single_bit(static_cast<unsigned>(s.cta_warps)))
    p.Reject("cta_warps", fmt::format("{} is not a power of two", s.cta_warps),
             "2, 4, 8, 16 or 32");
  if (!std::has_single_bit(static_cast<unsigned>(s.regs)))
    p.Reject("regs", fmt::format("{} is not a power of two", s.regs), "2, 4, ..., 256");
  if (s.cta_warps > s.warps)
    p.Reject("cta_warps",
             fmt::format("{} warps per CTA exceed the ACRF's {} warps", s.cta_warps, s.warps),
             fmt::format("at most warps ({})", s.warps));
  if ((1LL << s.tag_width) <= p.IntAsInt("collectors"))
    p.Reject("tag_width",
             fmt::format("{} bits cannot name the instructions of {} collectors apart", s.tag_width,
                         p.IntAsInt("collectors")),
             "2^tag_width > collectors");
  const int row_bytes = p.IntAsInt("row_bytes");
  s.data_width = 8 * row_bytes;
  {
    const int banks = p.IntAsInt("banks");
    const int rows = s.warps * ((s.regs + banks - 1) / banks);
    SubParams m(MrfSpec::ParamDescs(), p, "mrf");
    for (const char* k : {"banks", "warps", "regs", "collectors", "wb_policy", "bank_impl"})
      m.Copy(k);
    m.Set("rows", std::to_string(rows), "banks");
    m.Set("width", std::to_string(s.data_width), "row_bytes");
    m.Set("tag_width", std::to_string(s.tag_width + 1), "tag_width");
    s.mrf = MrfSpec::FromParams(m.params());
  }
  {
    SubParams c(PcrfSpec::ParamDescs(), p, "pcrf");
    for (const char* k :
         {"entries", "row_bytes", "ctas", "regs", "hop_cycles", "pipelined", "data_impl"})
      c.Copy(k);
    c.Copy("cta_warps", "warps");
    s.pcrf = PcrfSpec::FromParams(c.params());
  }
  s.warp_width = s.mrf.warp_width;
  s.reg_width = s.mrf.reg_width;
  s.cwarp_width = s.pcrf.warp_bits;
  s.live_bits = s.cta_warps * s.regs;
  s.live_idx_bits = std::countr_zero(static_cast<unsigned>(s.live_bits));
  s.kind = "finereg-system";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = fmt::format("rf_finereg_sys_w{}x{}_e{}x{}b_{}", s.warps, s.regs, s.pcrf.entries,
                              row_bytes, s.config_hash);
  return s;
}

std::string FineregSystemSpec::Description() const {
  return fmt::format(
      "FineReg: ACRF {} warps x {} registers of {} bits (MRF {} banks x {} rows, {} collectors), "
      "PCRF {} entries, {} pending CTA slots, {} warps per CTA, {} cycles per hop{}",
      warps, regs, data_width, mrf.banks, mrf.rows, mrf.collectors, pcrf.entries, pcrf.ctas,
      cta_warps, pcrf.hop_cycles, pcrf.pipelined ? " (pipelined)" : "");
}

}  // namespace gpurf
