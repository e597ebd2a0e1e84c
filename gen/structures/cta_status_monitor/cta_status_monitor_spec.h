// Specification of FineReg's CTA status monitor and switch decision (Oh et al., MICRO 2018,
// sections IV-A, V-B, V-E, Table IV): per resident CTA slot a 2-bit context field and a 2-bit
// register field, and the decision taken when an active CTA stalls completely. The RTL
// (cta_status_monitor_gen.cc) and the golden model (models/cta_status_monitor_model.h) are
// written from the contract below; docs/cta-status-monitor.md explains the choices.
//
// Fields (Table IV): context 0 not launched, 1 in shared memory, 2 in the pipeline; register 0
// not launched, 1 in the PCRF, 2 in the ACRF. A CTA is active when both are 2, pending when it
// is launched and not active. Per slot the monitor also keeps the live-register count saved in
// the PCRF (nonzero only while the register field is 1), so that the decision knows how many
// PCRF entries a restore frees.
//
// Ports and cycle semantics (one rising edge per cycle; the decision is combinational on the
// state before the edge and this cycle's inputs):
//  1. Stall: stall_valid_i with stall_cta_i (the CTA all of whose warps stalled) and
//     stall_live_i (its live registers, from the live-register vectors). Only an active CTA
//     gets a decision; for any other dec_kind_o is 0 (none).
//  2. Candidates: a launched CTA c with ready_i[c] (all its warps can issue again) and context
//     field 1. Class A: register field 2 (registers still in the ACRF); class B: register field
//     1 (registers in the PCRF). The selected candidate is the lowest-numbered of class A, or if
//     there is none the lowest-numbered of class B.
//  3. Room: avail = free_i (free PCRF entries) + the selected candidate's saved live count if it
//     is of class B (the entries its restore frees). The stalled CTA fits when stall_live_i <=
//     avail.
//  4. Decision (dec_kind_o): 2 switch if a candidate is selected and the stalled CTA fits
//     (dec_sel_o the candidate, dec_restore_o high for class B: its PCRF chain is walked);
//     else 3 launch if no candidate, the stalled CTA fits, can_launch_i (the kernel has CTAs
//     left) and a slot is not launched (dec_sel_o the lowest such slot); else 1 keep (the
//     stalled CTA stays in the ACRF). dec_avail_o shows avail whenever dec_kind_o is not 0.
//  5. Edge: a switch or launch evicts the stalled CTA (context 1, register 1, live count
//     stall_live_i) and makes dec_sel_o active (2, 2, live 0). Then the set port
//     (set_valid_i, set_cta_i, set_ctx_i, set_reg_i, set_live_i: the CTA switching logic's
//     launches, finishes and context-only swaps) writes its slot, winning over the decision;
//     its live count is set_live_i when set_reg_i is 1, else 0.
//  6. Query (combinational): q_ctx_o, q_reg_o, q_live_o of slot q_cta_i; active_count_o and
//     pending_count_o over all slots.
//  Output fields are zero without their valid and while rst_ni is low; reset makes every slot
//  not launched. Contract: the set port writes one of (0,0), (1,1), (1,2), (2,2); CTA numbers
//  are below the slot count.
//
// Invariants (RTL assertions under GPURF_ASSERTIONS):
//   S1 every field holds 0, 1 or 2 (3 is not an encoding);
//   S2 a context field is 0 exactly when its register field is 0 (launched as a whole);
//   S3 a context in the pipeline has its registers in the ACRF;
//   S4 a saved live count is zero unless the registers are in the PCRF;
//   S5 a switch or launch fits: stall_live_i <= free_i + the restored CTA's saved count;
//   S6 the switch resumes the first candidate (class A before class B, lowest number first), a
//      launch happens only with no candidate, into a slot not launched.
#pragma once

#include <string>
#include <vector>

#include "gen/params/param.h"

namespace gpurf {

struct CtaStatusMonitorSpec {
  int ctas = 0;          // C: resident CTA slots
  int pcrf_entries = 0;  // E: PCRF entries (free counts and live counts are 0..E)

  int cta_bits = 0;    // clog2(C), at least 1
  int count_bits = 0;  // clog2(E + 1)
  int avail_bits = 0;  // count_bits + 1: free + freed
  int slot_bits = 0;   // clog2(C + 1): a count of slots
  std::string kind;    // "cta-status-monitor"
  std::string config_hash;
  std::string module_name;
  ParamSet params;

  static const std::vector<ParamDesc>& ParamDescs();
  static CtaStatusMonitorSpec FromParams(const ParamSet& p);
};

}  // namespace gpurf
