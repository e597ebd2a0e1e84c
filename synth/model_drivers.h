// Activity drivers for the structures whose ports are handshakes rather than plain read and write
// ports: the banked MRF with its operand collectors, the hardware register file cache and the
// two-level warp scheduler. model_drivers.cc registers them (ActivityFamily, activity_driver.h);
// nothing calls them by name.
//
// The gate-level simulator gives a driver no outputs, so each of these drivers runs the
// structure's golden model (models/) on the inputs it drives, one Evaluate/Clock per cycle.
// The model is proved equal to the RTL on every output every cycle by `gpurf verify`, so it
// tells the driver what the netlist shows (ready, grants, hits, activations) without probing it:
// an offered request is held until the model says it was accepted, and accesses are counted from
// what the structure did, not from what was offered.
//
// What a read and a write are (AccessSemantics, written into the reports):
//   mrf             read  = one operand read: a bank read granted to a collector slot (issue ->
//                           collector -> bank read -> operand buffer -> dispatch); random
//                           (warp, register) operands, so bank conflicts happen at their
//                           natural rate;
//                   write = one accepted write-back (one bank write).
//                   With SRAM macros the driver also plays the banks (see CutSramMacros in
//                   macro_cut.h): the read data of a bank read shows on the cut's
//                   `sram_b<k>_rdata_o` input one cycle after the grant, from the model's
//                   register contents.
//   rfc             read  = one operand lookup that hits in L1 (its data read), beyond the tag
//                           check; l0_read = one that hits in L0 (two levels);
//                   tag_check = one operand lookup (hit or miss: every valid lookup compares
//                           the slot's tags of every level);
//                   write = one accepted result write, with the evictions (L0 -> L1 moves, L1
//                           write-backs to the MRF through the write-back register) it causes at
//                           the natural rate of random registers into a full cache.
//                   Extra sets: `misses` (every port looks up a register the slot does not
//                   hold) and, with two levels, `l0-reads` (L0 hits and misses in equal parts;
//                   `reads` then hits only in L1), so each component has a set of its own.
//   warp-scheduler  read  = one issue (a cycle in which a warp is selected);
//                   write = one activation event (a pending warp moved into a freed slot),
//                           with the deactivation and the wake that go with it in steady state.
#pragma once

#include "synth/activity_driver.h"
