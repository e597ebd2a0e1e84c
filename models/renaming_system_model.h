// Golden model of the renaming register-file system top (gen/structures/renaming_system/
// renaming_system_spec.h), cycle-accurate at the top's ports.
//
// Two layers. The timing of each sub-structure (the renaming table's bank scheduling, the
// availability vectors' allocation and wake-up, the flag cache, the throttle's decisions, the
// MRF's bank arbitration) is that of its own golden model, each written from its paper section;
// the model drives them through their port vectors as the contract's glue says (the request gate,
// the rename stage, the spares, the release routing). Independently of those models, the system
// layer keeps the paper's state (Jeon 5-8): the map from (warp, architected register) to the
// physical register, the free registers of each bank, the spare held by the rename stage, the
// value of each physical and architected register, and checks every cycle the system invariants
// S1-S5 of the spec against it (and the sub-models' answers against it: a first write maps, a
// later one keeps; a source answers its mapping; a freed id is the mapping the release names).
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gen/structures/renaming_system/renaming_system_ports.h"
#include "gen/structures/renaming_system/renaming_system_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

class RenamingSystemModel : public CycleModel, public RenamingSystemPort {
 public:
  explicit RenamingSystemModel(const RenamingSystemSpec& spec);
  ~RenamingSystemModel() override;

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override { return failure_; }

  // Activity of the run (tests and reports).
  struct Stats {
    uint64_t instrs = 0, releases = 0, exits = 0, maps = 0, frees = 0, dispatched = 0, results = 0,
             flag_misses = 0, throttled_cycles = 0, operands_checked = 0, max_mapped = 0,
             throttle_refusals = 0,  // an offered first write refused by the throttle
        issue_holds = 0;             // an offered instr of a CTA the throttle holds (issue_ok_o)
  };
  const Stats& stats() const { return stats_; }

 private:
  struct Sub;  // the sub-models and their port vectors
  struct Entry {
    bool busy = false;
    uint64_t tag = 0;
    int warp = 0;
    std::array<bool, 3> src_valid{};
    bool dst_valid = false;
    int dst_phys = 0;
    std::array<std::optional<uint64_t>, 3> expected;  // S5: the architected value at rename
  };
  struct Stage {
    bool valid = false;
    uint64_t tag = 0;
    int warp = 0;
    std::array<bool, 3> src_valid{};
    std::array<int, 3> src_reg{};
    std::array<int, 3> src_phys{};
    bool dst_valid = false;
    int dst_reg = 0;
    int dst_phys = 0;
  };
  // Everything this cycle computes from the inputs and the state.
  struct Cycle;
  Cycle Evaluate(const PortValues& in);
  void Fail(const std::string& what);
  void ResetState();
  int CtaOf(int warp) const { return spec_.CtaOf(warp); }

  const RenamingSystemSpec spec_;
  std::unique_ptr<Sub> sub_;

  // Glue state (the contract's registers).
  Stage stage_;
  std::vector<bool> spare_valid_;
  std::vector<int> spare_id_;  // vector id
  int warp_q_ = 0;
  int dst_bank_q_ = 0;
  bool dst_ren_q_ = false;
  std::vector<Entry> entries_;

  // System layer (the paper's state).
  std::map<std::pair<int, int>, int> map_;    // (warp, renamed register) -> physical register
  std::map<int, std::pair<int, int>> owner_;  // physical -> (warp, register), renamed only
  std::vector<std::set<int>> free_;           // per bank: free vector ids
  std::map<int, uint64_t> phys_value_;        // physical register -> last value written (64 LSBs)
  std::map<std::pair<int, int>, uint64_t> arch_value_;  // (warp, register) -> last value
  std::set<int> released_warps_;                        // warps exited since (S3 bookkeeping)

  Stats stats_;
  std::string failure_;
};

}  // namespace gpurf
