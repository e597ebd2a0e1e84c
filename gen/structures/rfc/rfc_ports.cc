#include "gen/structures/rfc/rfc_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable RfcPortTable(const RfcSpec& s) {
  using P = RfcPort;
  using vlog::Msb;
  const int sb = s.slot_bits, rb = s.reg_bits, w = s.width, k = RfcSpec::kOperands;
  const bool two = s.two_levels();
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kLuValid, "lu_valid_i", PortDir::kInput, k, "NumOperands-1", k, "lookup_valid",
       "operand lookup valid", "operand p is looked up"},
      {P::kLuSlot, "lu_slot_i", PortDir::kInput, k * sb, "NumOperands*SlotBits-1", k, "lookup_slot",
       "operand slot", "its slot, [p*SlotBits +: SlotBits]"},
      {P::kLuReg, "lu_reg_i", PortDir::kInput, k * rb, "NumOperands*RegBits-1", k, "lookup_reg",
       "operand register", "its register, [p*RegBits +: RegBits]"},
      {P::kLuLast, "lu_last_i", PortDir::kInput, k, "NumOperands-1", k, "lookup_last",
       "liveness hint: last read", "liveness hint: last read of the value"},
      {P::kLuHit, "lu_hit_o", PortDir::kOutput, k, "NumOperands-1", k, "lookup_hit", "operand hit",
       "operand p hit"},
      {P::kLuL0, "lu_l0_o", PortDir::kOutput, k, "NumOperands-1", k, "lookup_hit_l0",
       "operand hit in L0", "operand p hit in L0", two},
      {P::kLuData, "lu_data_o", PortDir::kOutput, k * w, "NumOperands*Width-1", k, "lookup_data",
       "operand data", "hit data, [p*Width +: Width]"},
      {P::kWrValid, "wr_valid_i", PortDir::kInput, 1, "", 1, "write_valid", "result write",
       "a result to write"},
      {P::kWrSlot, "wr_slot_i", PortDir::kInput, sb, "SlotBits-1", 1, "write_slot", "result slot",
       "its slot"},
      {P::kWrReg, "wr_reg_i", PortDir::kInput, rb, "RegBits-1", 1, "write_reg", "result register",
       "its register"},
      {P::kWrData, "wr_data_i", PortDir::kInput, w, "Width-1", 1, "write_data", "result data",
       "its data"},
      {P::kWrLong, "wr_long_i", PortDir::kInput, 1, "", 1, "write_long_latency",
       "bypass to the MRF", "long-latency result: bypass to the MRF"},
      {P::kWrNoL0, "wr_no_l0_i", PortDir::kInput, 1, "", 1, "write_not_l0", "allocate in L1",
       "not for L0: allocate in L1", two},
      {P::kWrReady, "wr_ready_o", PortDir::kOutput, 1, "", 1, "write_ready", "write accepted",
       "the write is accepted this cycle"},
      {P::kFlValid, "fl_valid_i", PortDir::kInput, 1, "", 1, "flush_valid", "flush request",
       "flush (deschedule) request"},
      {P::kFlSlot, "fl_slot_i", PortDir::kInput, sb, "SlotBits-1", 1, "flush_slot", "slot to flush",
       "slot to flush"},
      {P::kFlBusy, "fl_busy_o", PortDir::kOutput, 1, "", 1, "flush_busy", "flush in progress",
       "flush in progress; requests wait"},
      {P::kFlDone, "fl_done_o", PortDir::kOutput, 1, "", 1, "flush_done", "flush completes",
       "the flush completes this cycle"},
      {P::kWbValid, "wb_valid_o", PortDir::kOutput, 1, "", 1, "writeback_valid", "write-back",
       "write-back to the MRF"},
      {P::kWbSlot, "wb_slot_o", PortDir::kOutput, sb, "SlotBits-1", 1, "writeback_slot", "its slot",
       "its slot"},
      {P::kWbReg, "wb_reg_o", PortDir::kOutput, rb, "RegBits-1", 1, "writeback_reg", "its register",
       "its register"},
      {P::kWbData, "wb_data_o", PortDir::kOutput, w, "Width-1", 1, "writeback_data", "its data",
       "its data"},
      {P::kWbReady, "wb_ready_i", PortDir::kInput, 1, "", 1, "writeback_ready", "MRF takes it",
       "the MRF takes the write-back"},
  });
}

}  // namespace gpurf
