#include "gen/structures/finereg_system/finereg_system_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable FineregSystemPortTable(const FineregSystemSpec& s) {
  using P = FineregSystemPort;
  using vlog::Msb;
  const PortDir in = PortDir::kInput, out = PortDir::kOutput;
  const int tw = s.tag_width, ww = s.warp_width, rw = s.reg_width, dw = s.data_width;
  const int cb = s.pcrf.cta_bits, nb = s.pcrf.count_bits;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kIssueValid, "issue_valid_i", in, 1, "", 1, "issue_valid",
       "ACRF: a pipeline instruction offered", "instruction offered"},
      {P::kIssueReady, "issue_ready_o", out, 1, "", 1, "issue_ready",
       "ACRF: a collector is free and the save engine is not reading", "instruction accepted"},
      {P::kIssueTag, "issue_tag_i", in, tw, Msb("TagWidth"), 1, "issue_tag", "instruction tag",
       "instruction tag"},
      {P::kIssueWarp, "issue_warp_i", in, ww, Msb("WarpWidth"), 1, "issue_warp",
       "ACRF warp slot of the instruction", "warp"},
      {P::kIssueSrcValid, "issue_src_valid_i", in, 3, "2", 3, "issue_src_valid", "source s present",
       "source s present"},
      {P::kIssueSrcReg, "issue_src_reg_i", in, 3 * rw, "3*RegWidth-1", 3, "issue_src_reg",
       "register of source s", "register of source s at [s*RegWidth +: RegWidth]"},
      {P::kWbValid, "wb_valid_i", in, 1, "", 1, "wb_valid", "ACRF: a result to write",
       "result offered"},
      {P::kWbReady, "wb_ready_o", out, 1, "", 1, "wb_ready",
       "the result is written (low while the restore engine writes)", "result accepted"},
      {P::kWbWarp, "wb_warp_i", in, ww, Msb("WarpWidth"), 1, "wb_warp", "warp of the result",
       "warp of the result"},
      {P::kWbReg, "wb_reg_i", in, rw, Msb("RegWidth"), 1, "wb_reg", "register of the result",
       "register of the result"},
      {P::kWbData, "wb_data_i", in, dw, Msb("DataWidth"), 1, "wb_data", "the result's row",
       "row written"},
      {P::kDispValid, "disp_valid_o", out, 1, "", 1, "disp_valid",
       "a pipeline instruction with all its operands", "instruction ready"},
      {P::kDispReady, "disp_ready_i", in, 1, "", 1, "disp_ready", "the instruction is taken",
       "instruction taken"},
      {P::kDispTag, "disp_tag_o", out, tw, Msb("TagWidth"), 1, "disp_tag", "its tag", "its tag"},
      {P::kDispWarp, "disp_warp_o", out, ww, Msb("WarpWidth"), 1, "disp_warp", "its warp",
       "its warp"},
      {P::kDispSrcValid, "disp_src_valid_o", out, 3, "2", 3, "disp_src_valid",
       "its source valid bits", "its source valid bits"},
      {P::kDispData, "disp_data_o", out, 3 * dw, "3*DataWidth-1", 3, "disp_data",
       "operand s at [s*DataWidth +: DataWidth]", "operands"},
      {P::kSvValid, "sv_valid_i", in, 1, "", 1, "save_valid",
       "save: move a switched-out CTA's live registers into the PCRF", "save offered"},
      {P::kSvReady, "sv_ready_o", out, 1, "", 1, "save_ready", "no RMU operation in progress",
       "save accepted"},
      {P::kSvCta, "sv_cta_i", in, cb, Msb("CtaBits"), 1, "save_cta",
       "save: pending CTA slot of the pointer table", "CTA slot"},
      {P::kSvBase, "sv_base_i", in, ww, Msb("WarpWidth"), 1, "save_base",
       "save: ACRF warp slot of the CTA's warp 0", "first warp slot"},
      {P::kSvLive, "sv_live_i", in, s.live_bits, Msb("LiveBits"), 1, "save_live",
       "save: live-register vector, bit w*Regs + r for register r of warp w", "live registers"},
      {P::kRsValid, "rs_valid_i", in, 1, "", 1, "restore_valid",
       "restore: move a pending CTA's registers into the ACRF", "restore offered"},
      {P::kRsReady, "rs_ready_o", out, 1, "", 1, "restore_ready",
       "no RMU operation, no save offered, PCRF walker idle", "restore accepted"},
      {P::kRsCta, "rs_cta_i", in, cb, Msb("CtaBits"), 1, "restore_cta",
       "restore: pending CTA slot (also the query of rs_count_o)", "CTA slot"},
      {P::kRsBase, "rs_base_i", in, ww, Msb("WarpWidth"), 1, "restore_base",
       "restore: ACRF warp slot the CTA's warp 0 is written to", "first warp slot"},
      {P::kRsCount, "rs_count_o", out, nb, Msb("CountBits"), 1, "restore_count",
       "live registers saved for CTA rs_cta_i", "registers a restore moves"},
      {P::kBusy, "busy_o", out, 1, "", 1, "busy", "an RMU operation is in progress", "RMU busy"},
      {P::kFreeCount, "free_count_o", out, nb, Msb("CountBits"), 1, "free_count",
       "free PCRF entries (free-space monitor)", "free entries"},
  });
}

}  // namespace gpurf
