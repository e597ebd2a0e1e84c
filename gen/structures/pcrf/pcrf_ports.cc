#include "gen/structures/pcrf/pcrf_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable PcrfPortTable(const PcrfSpec& s) {
  using P = PcrfPort;
  using vlog::Msb;
  const PortDir in = PortDir::kInput, out = PortDir::kOutput;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kAppValid, "app_valid_i", in, 1, "", 1, "append_valid",
       "append: save one live register of a warp of a CTA", "append offered"},
      {P::kAppCta, "app_cta_i", in, s.cta_bits, Msb("CtaBits"), 1, "append_cta",
       "append: pending CTA slot whose chain the register joins", "CTA slot of the append"},
      {P::kAppWarp, "app_warp_i", in, s.warp_bits, Msb("WarpBits"), 1, "append_warp",
       "append: warp id within the CTA", "warp id of the saved register"},
      {P::kAppReg, "app_reg_i", in, s.reg_bits, Msb("RegBits"), 1, "append_reg",
       "append: register index", "register index of the saved register"},
      {P::kAppData, "app_data_i", in, s.row_bits, Msb("RowBits"), 1, "append_data",
       "append: the register's row (all lanes)", "row saved"},
      {P::kRsValid, "rs_valid_i", in, 1, "", 1, "restore_valid", "restore: walk the chain of a CTA",
       "restore offered"},
      {P::kRsCta, "rs_cta_i", in, s.cta_bits, Msb("CtaBits"), 1, "restore_cta",
       "restore: the CTA slot whose chain is walked", "CTA slot to restore"},
      {P::kOutReady, "out_ready_i", in, 1, "", 1, "out_ready",
       "restored register accepted (the walk pipeline stalls while low)",
       "restored register taken"},
      {P::kQCta, "q_cta_i", in, s.cta_bits, Msb("CtaBits"), 1, "query_cta",
       "query: the CTA slot whose pointer-table line is shown", "CTA slot queried"},
      {P::kAppReady, "app_ready_o", out, 1, "", 1, "append_ready",
       "an entry is free: an append is accepted", "some entry free"},
      {P::kAppEntry, "app_entry_o", out, s.entry_bits, Msb("EntryBits"), 1, "append_entry",
       "find-next-free: the lowest free entry, the one an append takes (0 when full)",
       "entry the append takes"},
      {P::kRsReady, "rs_ready_o", out, 1, "", 1, "restore_ready",
       "no walk issuing: a restore is accepted", "walker idle"},
      {P::kOutValid, "out_valid_o", out, 1, "", 1, "out_valid", "a restored register is returned",
       "restored register valid"},
      {P::kOutCta, "out_cta_o", out, s.cta_bits, Msb("CtaBits"), 1, "out_cta",
       "restored register: its CTA slot", "CTA slot of the restored register"},
      {P::kOutWarp, "out_warp_o", out, s.warp_bits, Msb("WarpBits"), 1, "out_warp",
       "restored register: warp id", "warp id of the restored register"},
      {P::kOutReg, "out_reg_o", out, s.reg_bits, Msb("RegBits"), 1, "out_reg",
       "restored register: register index", "register index of the restored register"},
      {P::kOutEntry, "out_entry_o", out, s.entry_bits, Msb("EntryBits"), 1, "out_entry",
       "restored register: the entry it was in (now free)", "entry the register was in"},
      {P::kOutLast, "out_last_o", out, 1, "", 1, "out_last",
       "restored register: end bit, the last of its CTA's chain", "end of the chain"},
      {P::kOutData, "out_data_o", out, s.row_bits, Msb("RowBits"), 1, "out_data",
       "restored register: the row saved (undefined while out_valid_o is low)", "row restored"},
      {P::kQCount, "q_count_o", out, s.count_bits, Msb("CountBits"), 1, "query_count",
       "query: live registers saved for CTA q_cta_i", "live count of the queried CTA"},
      {P::kQHeadValid, "q_head_valid_o", out, 1, "", 1, "query_head_valid",
       "query: CTA q_cta_i has a chain", "head pointer valid"},
      {P::kQHead, "q_head_o", out, s.entry_bits, Msb("EntryBits"), 1, "query_head",
       "query: head entry of CTA q_cta_i's chain (0 when not valid)", "head pointer"},
      {P::kFreeCount, "free_count_o", out, s.count_bits, Msb("CountBits"), 1, "free_count",
       "free-space monitor: free entries", "free entries"},
  });
}

}  // namespace gpurf
