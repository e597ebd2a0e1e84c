#include "gen/structures/orf/orf_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable OrfPortTable(const OrfSpec& s) {
  using P = OrfPort;
  using vlog::Msb;
  const int sw = s.slot_width, ew = s.entry_width, R = OrfSpec::kReadPorts;
  return PortTable({
      ClockPort(P::kClk, "clock; writes and registered reads at its edge"),
      ResetPort(P::kRstN),
      {P::kWe, "we_i", PortDir::kInput, 1, "", 1, "write_enable", "write a result",
       "write a result"},
      {P::kWslot, "wslot_i", PortDir::kInput, sw, Msb("SlotWidth"), 1, "write_slot",
       "active slot of the writing warp", "active slot of the writing warp"},
      {P::kWentry, "wentry_i", PortDir::kInput, ew, Msb("EntryWidth"), 1, "write_entry",
       "entry (split L0: bank) written", s.split ? "bank (operand slot) written" : "entry written"},
      {P::kWdata, "wdata_i", PortDir::kInput, s.width, Msb("Width"), 1, "write_data", "result row",
       "result row"},
      {P::kRe, "re_i", PortDir::kInput, R, Msb("NumReadPorts"), R, "read_enable",
       "per operand slot: read from this level", "operand slot p reads this level"},
      {P::kRslot, "rslot_i", PortDir::kInput, R * sw, "NumReadPorts*SlotWidth-1", R, "read_slot",
       "per operand slot: active slot", "active slot per read port at [p*SlotWidth +: SlotWidth]"},
      {P::kRentry, "rentry_i", PortDir::kInput, R * ew, "NumReadPorts*EntryWidth-1", R,
       "read_entry", "per operand slot: entry",
       "entry per read port at [p*EntryWidth +: EntryWidth]"},
      {P::kRdata, "rdata_o", PortDir::kOutput, R * s.width, "NumReadPorts*Width-1", R, "read_data",
       "per operand slot: row read", "operand rows at [p*Width +: Width]"},
      {P::kInv, "inv_i", PortDir::kInput, 1, "", 1, "invalidate", "warp of a slot descheduled",
       "descheduled warp: invalidate its slot"},
      {P::kInvSlot, "inv_slot_i", PortDir::kInput, sw, Msb("SlotWidth"), 1, "invalidate_slot",
       "slot invalidated", "the slot to invalidate"},
  });
}

}  // namespace gpurf
