#include "gen/structures/renaming_table/renaming_table_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable RenamingTablePortTable(const RenamingTableSpec& s) {
  using P = RenamingTablePort;
  using vlog::Msb;
  const int n = RenamingTableSpec::kSources, pb = s.phys_bits, b = s.banks;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kExempt, "exempt_i", PortDir::kInput, s.exempt_bits, "ExemptBits-1", 1, "exempt_count",
       "N: the kernel's renaming-exempt registers (stable while a mapping is valid)",
       "N: registers below N map to warp*N + r, unrenamed"},
      {P::kReqValid, "req_valid_i", PortDir::kInput, 1, "", 1, "request_valid",
       "a request (instruction, pbr release or warp exit) is offered", "request offered"},
      {P::kReqOp, "req_op_i", PortDir::kInput, 2, "1", 1, "request_op",
       "0 instruction, 1 release (pbr list), 2 warp exit", "0 instr, 1 release, 2 exit"},
      {P::kReqWarp, "req_warp_i", PortDir::kInput, s.warp_bits, "WarpBits-1", 1, "request_warp",
       "warp slot of the request", "warp slot"},
      {P::kSrcValid, "src_valid_i", PortDir::kInput, n, Msb("NumSrc"), n, "source_valid",
       "per source operand: present", "source p is an operand"},
      {P::kSrcReg, "src_reg_i", PortDir::kInput, n * s.reg_bits, "NumSrc*RegBits-1", n,
       "source_register", "per source operand: architected register",
       "register of source p at [p*RegBits +: RegBits]"},
      {P::kSrcRelease, "src_release_i", PortDir::kInput, n, Msb("NumSrc"), n, "source_release",
       "per source operand: pir bit, the value is dead after this read",
       "pir: release source p's mapping after the read"},
      {P::kDstValid, "dst_valid_i", PortDir::kInput, 1, "", 1, "destination_valid",
       "the instruction writes a destination", "destination present"},
      {P::kDstReg, "dst_reg_i", PortDir::kInput, s.reg_bits, "RegBits-1", 1, "destination_register",
       "architected destination register", "destination register"},
      {P::kDstPhys, "dst_phys_i", PortDir::kInput, pb, "PhysBits-1", 1, "destination_free_phys",
       "a free physical id, mapped if the destination has no mapping",
       "free physical id for map-on-first-write"},
      {P::kRelMask, "rel_mask_i", PortDir::kInput, s.regs, Msb("NumRegs"), s.regs, "release_mask",
       "release request: register r of the warp is released (pbr list)",
       "pbr list: bit r releases register r"},
      {P::kReqReady, "req_ready_o", PortDir::kOutput, 1, "", 1, "request_ready",
       "nothing of an earlier request pending: a request is accepted",
       "no earlier request pending"},
      {P::kSrcServed, "src_served_o", PortDir::kOutput, n, Msb("NumSrc"), n, "source_served",
       "per source: looked up this cycle", "source p answered this cycle"},
      {P::kSrcMapped, "src_mapped_o", PortDir::kOutput, n, Msb("NumSrc"), n, "source_mapped",
       "per source: the register holds a mapping (low: read of a released or unwritten register)",
       "source p has a mapping"},
      {P::kSrcPhys, "src_phys_o", PortDir::kOutput, n * pb, "NumSrc*PhysBits-1", n, "source_phys",
       "per source: its physical register (0 if not mapped)",
       "physical id of source p at [p*PhysBits +: PhysBits]"},
      {P::kDstServed, "dst_served_o", PortDir::kOutput, 1, "", 1, "destination_served",
       "the destination was looked up this cycle", "destination answered this cycle"},
      {P::kDstAlloc, "dst_alloc_o", PortDir::kOutput, 1, "", 1, "destination_allocated",
       "the destination was mapped to dst_phys_i (the id is consumed)",
       "map-on-first-write took dst_phys_i"},
      {P::kDstPhysOut, "dst_phys_o", PortDir::kOutput, pb, "PhysBits-1", 1, "destination_phys",
       "the destination's physical register", "destination's physical id"},
      {P::kFreeValid, "free_valid_o", PortDir::kOutput, b, Msb("NumBanks"), b, "free_valid",
       "per bank: a mapping was released this cycle", "bank b released a mapping"},
      {P::kFreePhys, "free_phys_o", PortDir::kOutput, b * pb, "NumBanks*PhysBits-1", b, "free_phys",
       "per bank: the released physical id (to the availability vectors)",
       "released id of bank b at [b*PhysBits +: PhysBits]"},
      {P::kConflictCycles, "conflict_cycles_o", PortDir::kOutput, 32, Msb("32"), 1,
       "conflict_cycles", "cycles an instruction waited on bank conflicts since reset",
       "bank-conflict serialization cycles (wraps)"},
  });
}

}  // namespace gpurf
