#include "gen/structures/cerf_system/cerf_system_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable CerfSystemPortTable(const CerfSystemSpec& s) {
  using P = CerfSystemPort;
  using vlog::Msb;
  const int n = s.lookups(), aw = s.tags.addr_width, d = s.data_width;
  const auto in = PortDir::kInput;
  const auto out = PortDir::kOutput;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kReqValid, "req_valid_i", in, 1, "", 1, "request_valid",
       "an instruction's lookups are offered", "request (one instruction's lookups) offered"},
      {P::kReqReady, "req_ready_o", out, 1, "", 1, "request_ready",
       "tag array ready and no refill outstanding", "a request is accepted"},
      {P::kLkValid, "lk_valid_i", in, n, Msb("NumLookups"), n, "lookup_valid",
       "per lookup: present in the request", "lookup p is part of the request"},
      {P::kLkOp, "lk_op_i", in, 2 * n, "NumLookups*2-1", n, "lookup_op",
       "per lookup: 0 read-reg, 1 write-reg, 2 load, 3 store", "op of lookup p at [p*2 +: 2]"},
      {P::kLkLast, "lk_last_i", in, n, Msb("NumLookups"), n, "lookup_last_use",
       "per lookup: read-reg is the register's last use", "liveness bit of a source"},
      {P::kLkWarp, "lk_warp_i", in, n * s.tags.warp_bits, "NumLookups*WarpBits-1", n, "lookup_warp",
       "per lookup: warp of a register op", "warp of register lookup p"},
      {P::kLkReg, "lk_reg_i", in, n * s.tags.reg_bits, "NumLookups*RegBits-1", n, "lookup_reg",
       "per lookup: register of a register op", "register of register lookup p"},
      {P::kLkAddr, "lk_addr_i", in, n * aw, "NumLookups*AddrWidth-1", n, "lookup_address",
       "per lookup: byte address of a memory op", "address of memory lookup p"},
      {P::kLkData, "lk_data_i", in, n * d, "NumLookups*DataWidth-1", n, "lookup_data",
       "per lookup: write-reg or store data", "data of a write-reg or store lookup"},
      {P::kRdValid, "rd_valid_o", out, n, Msb("NumLookups"), n, "read_valid",
       "per lookup: read-reg or load data this cycle", "rd_data_o[p] holds lookup p's value"},
      {P::kRdData, "rd_data_o", out, n * d, "NumLookups*DataWidth-1", n, "read_data",
       "per lookup: the register or line value", "value of a read-reg or load lookup"},
      {P::kMemRdValid, "mem_rd_valid_o", out, n, Msb("NumLookups"), n, "l2_read_valid",
       "per lookup: a load missed, read the line from L2 (id p)", "L2 read of lookup p"},
      {P::kMemRdAddr, "mem_rd_addr_o", out, n * aw, "NumLookups*AddrWidth-1", n, "l2_read_address",
       "per lookup: line address of the L2 read", "line address of the L2 read"},
      {P::kMemWrValid, "mem_wr_valid_o", out, n, Msb("NumLookups"), n, "l2_write_valid",
       "per lookup: dirty write-back or store miss to L2", "L2 write of lookup p"},
      {P::kMemWrAddr, "mem_wr_addr_o", out, n * aw, "NumLookups*AddrWidth-1", n, "l2_write_address",
       "per lookup: line address written", "line address of the L2 write"},
      {P::kMemWrData, "mem_wr_data_o", out, n * d, "NumLookups*DataWidth-1", n, "l2_write_data",
       "per lookup: line data written", "line data of the L2 write"},
      {P::kMemRspValid, "mem_rsp_valid_i", in, 1, "", 1, "l2_response_valid", "an L2 read returns",
       "L2 response"},
      {P::kMemRspId, "mem_rsp_id_i", in, s.id_bits, Msb("IdBits"), 1, "l2_response_id",
       "lookup whose read returns", "id (lookup) of the L2 response"},
      {P::kMemRspData, "mem_rsp_data_i", in, d, Msb("DataWidth"), 1, "l2_response_data", "the line",
       "line data of the L2 response"},
      {P::kSpillValid, "spill_valid_o", out, n, Msb("NumLookups"), n, "spill_valid",
       "per lookup: a reg line evicted to local memory", "spill of lookup p's victim"},
      {P::kSpillAddr, "spill_addr_o", out, n * aw, "NumLookups*AddrWidth-1", n, "spill_address",
       "per lookup: reg-mem address of the spilled register", "reg-mem address spilled"},
      {P::kSpillData, "spill_data_o", out, n * d, "NumLookups*DataWidth-1", n, "spill_data",
       "per lookup: the spilled register", "value spilled"},
      {P::kFillValid, "fill_valid_o", out, n, Msb("NumLookups"), n, "fill_valid",
       "per lookup: read a spilled register back (id p)", "fill of lookup p"},
      {P::kFillAddr, "fill_addr_o", out, n * aw, "NumLookups*AddrWidth-1", n, "fill_address",
       "per lookup: reg-mem address filled", "reg-mem address of the fill"},
      {P::kFillRspValid, "fill_rsp_valid_i", in, 1, "", 1, "fill_response_valid", "a fill returns",
       "fill response"},
      {P::kFillRspId, "fill_rsp_id_i", in, s.id_bits, Msb("IdBits"), 1, "fill_response_id",
       "lookup whose fill returns", "id (lookup) of the fill response"},
      {P::kFillRspData, "fill_rsp_data_i", in, d, Msb("DataWidth"), 1, "fill_response_data",
       "the register", "register value of the fill response"},
      {P::kConflictCycles, "conflict_cycles_o", out, 32, Msb("32"), 1, "conflict_cycles",
       "bank-conflict serialization cycles since reset", "the tag array's counter (wraps)"},
  });
}

}  // namespace gpurf
