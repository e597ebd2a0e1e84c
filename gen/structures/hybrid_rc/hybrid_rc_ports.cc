#include "gen/structures/hybrid_rc/hybrid_rc_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable HybridRcPortTable(const HybridRcSpec& s) {
  using P = HybridRcPort;
  using vlog::Msb;
  const int r = HybridRcSpec::kReadPorts, w = HybridRcSpec::kWritePorts,
            c = HybridRcSpec::kWbChannels;
  const int sb = s.slot_bits, wb = s.warp_bits, rb = s.reg_bits, dw = s.width;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kRdValid, "rd_valid_i", PortDir::kInput, r, Msb("NumReads"), r, "read_valid",
       "per read: present", "read p present (instruction p/3, source p%3)"},
      {P::kRdRsp, "rd_rsp_i", PortDir::kInput, r, Msb("NumReads"), r, "read_rsp",
       "per read: 1 RSP slot, 0 RC register", "read p names an RSP slot (else an RC register)"},
      {P::kRdSlot, "rd_slot_i", PortDir::kInput, r * sb, "NumReads*SlotBits-1", r, "read_slot",
       "per read: RSP slot", "RSP slot of read p at [p*SlotBits +: SlotBits]"},
      {P::kRdWarp, "rd_warp_i", PortDir::kInput, r * wb, "NumReads*WarpBits-1", r, "read_warp",
       "per read: warp of an RC register", "warp of read p at [p*WarpBits +: WarpBits]"},
      {P::kRdReg, "rd_reg_i", PortDir::kInput, r * rb, "NumReads*RegBits-1", r, "read_reg",
       "per read: RC register", "register of read p at [p*RegBits +: RegBits]"},
      {P::kRdLast, "rd_last_i", PortDir::kInput, r, Msb("NumReads"), r, "read_last_use",
       "per read: liveness hint, last read of the value", "liveness hint: last read of the value"},
      {P::kWrValid, "wr_valid_i", PortDir::kInput, w, Msb("NumWrites"), w, "write_valid",
       "per write: present", "write q present (instruction q's destination)"},
      {P::kWrRsp, "wr_rsp_i", PortDir::kInput, w, Msb("NumWrites"), w, "write_rsp",
       "per write: 1 RSP slot, 0 RC register", "write q names an RSP slot (else an RC register)"},
      {P::kWrSlot, "wr_slot_i", PortDir::kInput, w * sb, "NumWrites*SlotBits-1", w, "write_slot",
       "per write: RSP slot", "RSP slot of write q at [q*SlotBits +: SlotBits]"},
      {P::kWrWarp, "wr_warp_i", PortDir::kInput, w * wb, "NumWrites*WarpBits-1", w, "write_warp",
       "per write: warp of an RC register", "warp of write q at [q*WarpBits +: WarpBits]"},
      {P::kWrReg, "wr_reg_i", PortDir::kInput, w * rb, "NumWrites*RegBits-1", w, "write_reg",
       "per write: RC register", "register of write q at [q*RegBits +: RegBits]"},
      {P::kWrData, "wr_data_i", PortDir::kInput, w * dw, "NumWrites*Width-1", w, "write_data",
       "per write: the value", "value of write q at [q*Width +: Width]"},
      {P::kXfValid, "xf_valid_i", PortDir::kInput, 1, "", 1, "transfer_valid",
       "background RSP transfer present", "RSP transfer (fill or live-out) present"},
      {P::kXfOp, "xf_op_i", PortDir::kInput, 1, "", 1, "transfer_op",
       "0 fill (register -> slot), 1 live-out (slot -> register)",
       "0 fill: slot <- register; 1 live-out: slot -> register"},
      {P::kXfSlot, "xf_slot_i", PortDir::kInput, sb, Msb("SlotBits"), 1, "transfer_slot",
       "the transfer's RSP slot", "RSP slot transferred"},
      {P::kXfWarp, "xf_warp_i", PortDir::kInput, wb, Msb("WarpBits"), 1, "transfer_warp",
       "the transfer's warp", "warp of the register transferred"},
      {P::kXfReg, "xf_reg_i", PortDir::kInput, rb, Msb("RegBits"), 1, "transfer_reg",
       "the transfer's register", "register transferred"},
      {P::kXfData, "xf_data_i", PortDir::kInput, dw, Msb("Width"), 1, "transfer_data",
       "fill: the MRF's value of the register, used on an RC miss",
       "fill: the MRF's value (used when the RC misses)"},
      {P::kRdHit, "rd_hit_o", PortDir::kOutput, r, Msb("NumReads"), r, "read_hit",
       "per read: served here (RSP read, or RC hit); an RC read without it missed",
       "read p served (RSP, or RC hit)"},
      {P::kRdData, "rd_data_o", PortDir::kOutput, r * dw, "NumReads*Width-1", r, "read_data",
       "per read: the value when served, else zero", "value of read p at [p*Width +: Width]"},
      {P::kXfHit, "xf_hit_o", PortDir::kOutput, 1, "", 1, "transfer_hit",
       "the transfer found its register in the RC", "the transfer's register is in the RC"},
      {P::kWbValid, "wb_valid_o", PortDir::kOutput, c, Msb("NumWbChannels"), c, "writeback_valid",
       "per channel: a value goes to the MRF (0-1 the writes' victims, 2 the transfer's)",
       "write-back on channel c (c < 2: write c's victim, 2: transfer)"},
      {P::kWbWarp, "wb_warp_o", PortDir::kOutput, c * wb, "NumWbChannels*WarpBits-1", c,
       "writeback_warp", "per channel: warp written back", "warp at [c*WarpBits +: WarpBits]"},
      {P::kWbReg, "wb_reg_o", PortDir::kOutput, c * rb, "NumWbChannels*RegBits-1", c,
       "writeback_reg", "per channel: register written back", "register at [c*RegBits +: RegBits]"},
      {P::kWbData, "wb_data_o", PortDir::kOutput, c * dw, "NumWbChannels*Width-1", c,
       "writeback_data", "per channel: value written back", "value at [c*Width +: Width]"},
  });
}

}  // namespace gpurf
