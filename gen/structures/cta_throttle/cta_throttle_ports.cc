#include "gen/structures/cta_throttle/cta_throttle_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable CtaThrottlePortTable(const CtaThrottleSpec& s) {
  using P = CtaThrottlePort;
  using vlog::Msb;
  const PortDir in = PortDir::kInput, out = PortDir::kOutput;
  const int n = s.slots, b = s.banks, a = s.alloc_ports, r = s.release_ports;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kLaunchValid, "launch_valid_i", in, 1, "", 1, "launch_valid",
       "CTA launch: a CTA is placed in a free slot", "CTA launch"},
      {P::kLaunchSlot, "launch_slot_i", in, s.slot_bits, Msb("SlotBits"), 1, "launch_slot",
       "CTA launch: the slot", "slot launched"},
      {P::kLaunchNeed, "launch_need_i", in, b * s.need_bits, "NumBanks*NeedBits-1", b,
       "launch_need",
       "CTA launch: per bank, the registers static allocation would reserve (C, its worst case)",
       "C of bank b at [b*NeedBits +: NeedBits]"},
      {P::kExitValid, "exit_valid_i", in, 1, "", 1, "exit_valid",
       "CTA exit: the slot is freed (it holds no register)", "CTA exit"},
      {P::kExitSlot, "exit_slot_i", in, s.slot_bits, Msb("SlotBits"), 1, "exit_slot",
       "CTA exit: the slot", "slot freed"},
      {P::kAllocValid, "alloc_valid_i", in, a, Msb("NumAllocPorts"), a, "allocate_valid",
       "per allocation port: one register of the warp's group is to be mapped",
       "allocation port a maps a register"},
      {P::kAllocBank, "alloc_bank_i", in, a * s.bank_bits, "NumAllocPorts*BankBits-1", a,
       "allocate_bank", "per allocation port: the bank of the register",
       "bank of port a at [a*BankBits +: BankBits]"},
      {P::kAllocSlot, "alloc_slot_i", in, s.slot_bits, Msb("SlotBits"), 1, "allocate_slot",
       "the CTA slot of the allocating warp", "CTA of the group"},
      {P::kRelValid, "rel_valid_i", in, r, Msb("NumRelPorts"), r, "release_valid",
       "per release port: one register of a CTA is returned (release, warp exit or spill)",
       "release port p returns a register"},
      {P::kRelSlot, "rel_slot_i", in, r * s.slot_bits, "NumRelPorts*SlotBits-1", r, "release_slot",
       "per release port: the CTA slot that held it", "slot of port p at [p*SlotBits +: SlotBits]"},
      {P::kRelBank, "rel_bank_i", in, r * s.bank_bits, "NumRelPorts*BankBits-1", r, "release_bank",
       "per release port: the bank of the register", "bank of port p at [p*BankBits +: BankBits]"},
      {P::kAllocGrant, "alloc_grant_o", out, 1, "", 1, "allocate_grant",
       "the allocation group is granted this cycle (all of it)", "group granted"},
      {P::kSpill, "spill_o", out, b * s.spill_bits, "NumBanks*SpillBits-1", b, "spill",
       "per bank: mapped registers the harness must spill (release this cycle) for the grant",
       "spills of bank b at [b*SpillBits +: SpillBits]"},
      {P::kIssueOk, "issue_ok_o", out, n, Msb("NumSlots"), n, "issue_ok",
       "per CTA slot: its warps may issue this cycle", "slot i may issue"},
      {P::kThrottle, "throttle_o", out, 1, "", 1, "throttle",
       "free registers below every alive CTA's balance counter: only the reserved CTA issues",
       "throttle on"},
      {P::kReservedValid, "reserved_valid_o", out, 1, "", 1, "reserved_valid",
       "a CTA is reserved (some CTA is alive)", "a CTA is reserved"},
      {P::kReserved, "reserved_o", out, s.slot_bits, Msb("SlotBits"), 1, "reserved",
       "the reserved CTA: the one that may always finish (0 when none)", "reserved slot"},
      {P::kSpillMode, "spill_mode_o", out, 1, "", 1, "spill_mode",
       "a launched CTA needs more registers in a bank than the bank has (spill fallback on)",
       "spill fallback on"},
      {P::kFreeCount, "free_count_o", out, b * s.count_bits, "NumBanks*CountBits-1", b,
       "free_count", "per bank: free physical registers",
       "free count of bank b at [b*CountBits +: CountBits]"},
  });
}

}  // namespace gpurf
