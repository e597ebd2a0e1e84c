// Golden model of the banked set-associative tag array of a cache-emulated register file (Jing
// et al., sections III-B and III-C, Figs. 4 and 6), written from the paper's semantics as the
// spec states them (gen/structures/tag_array/tag_array_spec.h), not from the RTL.
//
// TagArray is the cache itself, one Access() per served lookup: the four line states, Fig. 6's
// transitions, true LRU per set kept as a recency list, and the two replacement policies.
// TagArrayCycleModel adds the request handshake and the bank-conflict serialization and adapts
// it to the lockstep harness's ports. Both check the invariants after every change and report
// the first violation through Failure():
//   I1 at most one line per (set, tag) is not inactive;
//   I2 lru-prioritized: a reg line is never the victim of a load;
//   I3 a dirty line is reported as a dirty victim exactly once, when its way is reused;
//   I4 every state change is a Fig. 6 transition.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/structures/tag_array/tag_array_ports.h"
#include "gen/structures/tag_array/tag_array_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

class TagArray {
 public:
  using State = TagArraySpec::State;
  using Op = TagArraySpec::Op;

  struct Result {
    bool hit = false;
    bool filled = false;  // a miss that allocated a line
    int way = 0;          // way hit or filled
    State before = TagArraySpec::kInactive;
    State after = TagArraySpec::kInactive;
    bool victim = false;  // the fill replaced a line that was not inactive
    State victim_state = TagArraySpec::kInactive;
    uint64_t victim_addr = 0;
  };

  explicit TagArray(const TagArraySpec& spec);
  void Reset();

  // One lookup of line address `addr` (offset bits ignored); `last` is the liveness bit of a
  // read-reg.
  Result Access(Op op, bool last, uint64_t addr);
  // What Access would answer, without changing anything.
  Result Peek(Op op, bool last, uint64_t addr);

  State StateOf(int set, int way) const { return sets_[set].state[way]; }
  uint64_t TagOfLine(int set, int way) const { return sets_[set].tag[way]; }
  // Ways of `set` from most to least recently used.
  const std::vector<int>& Recency(int set) const { return sets_[set].recency; }
  // The first violated invariant, or "".
  const std::string& failure() const { return failure_; }

  // Statistics.
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  uint64_t fills() const { return fills_; }
  uint64_t write_backs() const { return write_backs_; }
  uint64_t spills() const { return spills_; }

  // Whether Fig. 6 (plus replacement, see the spec) has the transition from -> to under `spec`.
  static bool AllowedTransition(const TagArraySpec& spec, State from, State to);

 private:
  struct Set {
    std::vector<State> state;
    std::vector<uint64_t> tag;
    std::vector<int> recency;        // MRU first
    std::vector<bool> written_back;  // I3: the dirty line's write-back was reported
  };
  void Touch(Set& s, int way);
  int ChooseWay(const Set& s, bool for_register) const;  // -1: no allocation
  void Change(int set, int way, State to);
  void Fail(const std::string& what);

  const TagArraySpec spec_;
  std::vector<Set> sets_;
  std::string failure_;
  uint64_t hits_ = 0, misses_ = 0, fills_ = 0, write_backs_ = 0, spills_ = 0;
};

// Port-level model: the request handshake, bank-conflict serialization and the response ports.
// Every output bit is defined every cycle.
class TagArrayCycleModel : public CycleModel, public TagArrayPort {
 public:
  explicit TagArrayCycleModel(const TagArraySpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override;

  const TagArray& array() const { return array_; }
  uint64_t conflict_cycles() const { return conflict_cycles_; }

 private:
  struct Lookup {
    bool valid = false;
    TagArraySpec::Op op = TagArraySpec::kReadReg;
    bool last = false;
    uint64_t addr = 0;  // line address after re-indexing
  };
  // The lookups current this cycle (the latched request, or the offered one when ready).
  std::vector<Lookup> Current(const PortValues& in) const;
  // Which of them are served this cycle: the lowest-numbered one per bank.
  std::vector<bool> Served(const std::vector<Lookup>& cur) const;
  bool Ready() const;

  const TagArraySpec spec_;
  TagArray array_;
  std::vector<Lookup> pending_;
  uint64_t conflict_cycles_ = 0;
  std::string failure_;
};

}  // namespace gpurf
