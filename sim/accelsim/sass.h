// SASS opcode knowledge the Accel-Sim importer needs: which unit an opcode uses (sim::OpClass),
// whether its result arrives after a long-latency operation, and how many 32-bit registers each
// traced register operand spans. Covers Kepler through Hopper SASS (binary versions 30..90).
//
// The tracer prints the full opcode with its modifiers ("LDG.E.128.SYS", "IMAD.WIDE.U32"); the
// unit is decided by the base opcode (text before the first '.'), the operand widths by the
// modifiers.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "sim/kernel/kernel.h"

namespace gpurf::sim::accelsim {

// What the importer needs to know about one base opcode.
struct SassOpInfo {
  OpClass op_class = OpClass::kAlu;
  bool load = false;          // memory/texture read whose result is a register
  bool store = false;         // memory write: traced sources are [address, data...]
  bool atomic = false;        // read-modify-write: [address, data...] sources, optional result
  bool call = false;          // CALL/JCAL: control returns to the next instruction
  bool ret = false;           // RET: returns to a call site (modelled as leaving the kernel)
  bool indirect = false;      // BRX/JMX: target from a register
  bool reconverge = false;    // SYNC/BSYNC/WARPSYNC...: may widen the active mask
  bool wide_address = false;  // global/generic address: a 64-bit register pair when extended
};

// Looks up the base opcode of `opcode` ("LDG" for "LDG.E.128"). nullopt for an unknown opcode.
std::optional<SassOpInfo> LookupSassOpcode(std::string_view opcode);

// Register counts of the traced operands of one instruction, decided from the opcode modifiers:
// `dst_regs[i]` for each traced destination, `src_regs[i]` for each traced source. Memory data
// operands take the access width (.64 -> 2, .128 -> 4); global/generic addresses are pairs when
// the access is extended (.E, or any global access from Volta on, binary version >= 70); double
// precision and conversions from or to 64-bit types take pairs; IMAD.WIDE writes a pair and reads
// a pair as its third source; any other opcode with a .64 or .128 modifier takes that width for
// every operand.
struct OperandWidths {
  std::vector<uint8_t> dst_regs;
  std::vector<uint8_t> src_regs;
};
OperandWidths SassOperandWidths(std::string_view opcode, const SassOpInfo& info, int num_dsts,
                                int num_srcs, int binary_version);

// Every base opcode of the table, sorted.
std::vector<std::string_view> SassOpcodeNames();

}  // namespace gpurf::sim::accelsim
