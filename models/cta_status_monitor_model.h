// Golden model of FineReg's CTA status monitor and switch decision (Oh et al., MICRO 2018,
// sections IV-A, V-B, V-E, Table IV), written from the paper's semantics as the spec states them
// (gen/structures/cta_status_monitor/cta_status_monitor_spec.h), not from the RTL.
//
// The model keeps per slot where the CTA's context and registers are (named enums, not codes)
// and the live registers it saved in the PCRF. On a stall it follows the paper's procedure:
// find a pending CTA that is ready to resume, preferring one whose registers never left the
// ACRF; count the PCRF's room as the free entries plus those the chosen CTA's restore frees;
// switch if the stalled CTA's live registers fit; with nobody to resume, launch a new CTA if
// they fit; otherwise keep the stalled CTA. Failure() reports a broken contract.
#pragma once

#include <string>
#include <vector>

#include "gen/structures/cta_status_monitor/cta_status_monitor_ports.h"
#include "gen/structures/cta_status_monitor/cta_status_monitor_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

class CtaStatusMonitorModel : public CycleModel, public CtaStatusMonitorPort {
 public:
  enum class Context { kNotLaunched = 0, kSharedMemory = 1, kPipeline = 2 };
  enum class Registers { kNotLaunched = 0, kPcrf = 1, kAcrf = 2 };
  struct Cta {
    Context context = Context::kNotLaunched;
    Registers registers = Registers::kNotLaunched;
    int saved_live = 0;  // live registers in the PCRF
    bool active() const { return context == Context::kPipeline && registers == Registers::kAcrf; }
  };
  struct Decision {
    CtaDecision kind = CtaDecision::kNone;
    int cta = 0;           // resumed CTA or launch slot
    bool restore = false;  // the resumed CTA's registers come from the PCRF
    int avail = 0;
  };

  explicit CtaStatusMonitorModel(const CtaStatusMonitorSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override { return failure_; }

  void Reset();
  const Cta& cta(int c) const { return ctas_[static_cast<size_t>(c)]; }
  // The decision for this cycle's inputs.
  Decision Decide(const PortValues& in) const;

 private:
  const CtaStatusMonitorSpec spec_;
  std::vector<Cta> ctas_;
  std::string failure_;
};

}  // namespace gpurf
