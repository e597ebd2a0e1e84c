#include "gen/structures/tag_array/tag_array_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable TagArrayPortTable(const TagArraySpec& s) {
  using P = TagArrayPort;
  using vlog::Msb;
  const int n = s.lookups, aw = s.addr_width;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kReqValid, "req_valid_i", PortDir::kInput, 1, "", 1, "request_valid",
       "an instruction's lookups are offered", "request (one instruction's lookups) offered"},
      {P::kLkValid, "lk_valid_i", PortDir::kInput, n, Msb("NumLookups"), n, "lookup_valid",
       "per lookup: present in the request", "lookup p is part of the request"},
      {P::kLkOp, "lk_op_i", PortDir::kInput, 2 * n, "NumLookups*2-1", n, "lookup_op",
       "per lookup: 0 read-reg, 1 write-reg, 2 load, 3 store",
       "op of lookup p at [p*2 +: 2]: read-reg, write-reg, load, store"},
      {P::kLkLast, "lk_last_i", PortDir::kInput, n, Msb("NumLookups"), n, "lookup_last_use",
       "per lookup: read-reg is the register's last use", "liveness bit: last use of the source"},
      {P::kLkWarp, "lk_warp_i", PortDir::kInput, n * s.warp_bits, "NumLookups*WarpBits-1", n,
       "lookup_warp", "per lookup: warp of a register op",
       "warp of register lookup p at [p*WarpBits +: WarpBits]"},
      {P::kLkReg, "lk_reg_i", PortDir::kInput, n * s.reg_bits, "NumLookups*RegBits-1", n,
       "lookup_reg", "per lookup: register of a register op",
       "register of register lookup p at [p*RegBits +: RegBits]"},
      {P::kLkAddr, "lk_addr_i", PortDir::kInput, n * aw, "NumLookups*AddrWidth-1", n,
       "lookup_address", "per lookup: byte address of a memory op",
       "address of memory lookup p at [p*AddrWidth +: AddrWidth]"},
      {P::kReqReady, "req_ready_o", PortDir::kOutput, 1, "", 1, "request_ready",
       "no lookup pending: a request is accepted", "no lookup of an earlier request pending"},
      {P::kRspValid, "rsp_valid_o", PortDir::kOutput, n, Msb("NumLookups"), n, "response_valid",
       "per lookup: served this cycle", "lookup p is served this cycle"},
      {P::kRspAddr, "rsp_addr_o", PortDir::kOutput, n * aw, "NumLookups*AddrWidth-1", n,
       "response_address", "per lookup: line address looked up (after re-indexing)",
       "line address of lookup p (reg-mem address for registers)"},
      {P::kRspHit, "rsp_hit_o", PortDir::kOutput, n, Msb("NumLookups"), n, "response_hit",
       "per lookup: hit", "lookup p hits"},
      {P::kRspWay, "rsp_way_o", PortDir::kOutput, n * s.way_bits, "NumLookups*WayBits-1", n,
       "response_way", "per lookup: way hit or filled",
       "way hit or filled at [p*WayBits +: WayBits]"},
      {P::kRspState, "rsp_state_o", PortDir::kOutput, 2 * n, "NumLookups*2-1", n, "response_state",
       "per lookup: line state before (inactive on a miss)", "state of the hit line before"},
      {P::kRspNext, "rsp_next_o", PortDir::kOutput, 2 * n, "NumLookups*2-1", n,
       "response_next_state", "per lookup: state of the hit or filled line after",
       "state of the hit or filled line after"},
      {P::kRspVictimValid, "rsp_victim_valid_o", PortDir::kOutput, n, Msb("NumLookups"), n,
       "victim_valid", "per lookup: a line was replaced", "the fill replaced a line"},
      {P::kRspVictimState, "rsp_victim_state_o", PortDir::kOutput, 2 * n, "NumLookups*2-1", n,
       "victim_state", "per lookup: the victim's state (dirty: write-back, reg: spill)",
       "victim's state (dirty: write-back, reg: spill)"},
      {P::kRspVictimAddr, "rsp_victim_addr_o", PortDir::kOutput, n * aw, "NumLookups*AddrWidth-1",
       n, "victim_address", "per lookup: the victim's line address", "victim's line address"},
      {P::kConflictCycles, "conflict_cycles_o", PortDir::kOutput, 32, Msb("32"), 1,
       "conflict_cycles", "bank-conflict serialization cycles since reset",
       "cycles spent serializing bank conflicts (wraps)"},
  });
}

}  // namespace gpurf
