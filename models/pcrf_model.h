// Golden model of FineReg's pending-CTA register file (Oh et al., MICRO 2018, sections V-C to
// V-E, Fig. 11), written from the paper's semantics as the spec states them
// (gen/structures/pcrf/pcrf_spec.h), not from the RTL.
//
// The model keeps, per pending CTA, the list of its saved registers in save order (warp id,
// register index, the row saved and the PCRF entry it occupies), the set of free entries, the
// list being restored and the registers on their way out. It has no tags, next pointers or
// end bits: the chain of a CTA is its list, the end of a chain its last element, the head its
// first. Every output is compared every cycle; Failure() reports the first violated invariant:
//   I1 free entries + occupied entries = E (occupied: saved, being walked or in flight);
//   I3 an entry is held by at most one saved register (an append never takes a held entry, a
//      walk never frees a free one);
//   contract: CTA slots in range.
// A restored register holds exactly the value saved: out_data_o is compared with the row the
// append delivered.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gen/structures/pcrf/pcrf_ports.h"
#include "gen/structures/pcrf/pcrf_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

class PcrfModel : public CycleModel, public PcrfPort {
 public:
  struct Saved {
    int entry = 0;
    int warp = 0;
    int reg = 0;
    Bits data;
  };
  struct InFlight {
    Saved reg;
    int cta = 0;
    bool last = false;  // the last register of its CTA's chain
  };

  explicit PcrfModel(const PcrfSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override { return failure_; }

  // Direct operations for unit tests and the activity driver (what Clock does on the ports).
  void Reset();
  const std::deque<Saved>& Chain(int cta) const { return chains_[cta]; }
  int free_count() const { return static_cast<int>(free_.size()); }
  bool walking() const { return !walk_.empty(); }
  // The lowest free entry, or -1.
  int NextFree() const { return free_.empty() ? -1 : *free_.begin(); }
  const std::optional<InFlight>& Output() const { return stages_.back(); }

 private:
  void Fail(const std::string& what) {
    if (failure_.empty())
      failure_ = what;
  }
  void CheckAccounting();

  const PcrfSpec spec_;
  std::vector<std::deque<Saved>> chains_;  // per CTA slot, save order
  std::set<int> free_;                     // free entries
  std::vector<bool> held_;                 // per entry: held by a saved register
  std::deque<Saved> walk_;                 // the chain being restored, not yet issued
  int walk_cta_ = 0;
  std::vector<std::optional<InFlight>> stages_;  // walk pipeline, HopCycles - 1 stages
  int live_ = 0;                                 // registers in chains_
  std::string failure_;
};

}  // namespace gpurf
