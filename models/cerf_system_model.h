// Golden model of the cerf-system top (Jing et al., sections III-A..III-C, Figs. 4-6), cycle
// accurate at the top's ports, written from the contract in
// gen/structures/cerf_system/cerf_system_spec.h, not from the RTL.
//
// The cache semantics are the tag-array model's TagArray (models/tag_array_model.h: a
// set-associative store of lines in the four Fig. 6 states, true LRU, lru-fair and
// lru-prioritized, which checks I1-I4 on every access). This model adds the tagging stage's
// request handshake and bank serialization, the data of every line, the refill MSHR and the
// external ports, and it keeps the architectural values (what a program sees) apart from the
// lines: the last value written to every (warp, reg) and every memory line's value (the last
// store, write-back, or the first value L2 returned for it). After every cycle it checks, besides
// the tag array's invariants:
//   D1 a register read (hit or fill) returns the last value written to that (warp, reg);
//   D2 a load (hit or refill) returns memory's value of the line;
//   D3 a dirty line is written back (or a register spilled) with the line's current value, so
//      local memory and L2 hold what the program wrote;
//   and the harness contract (a request's lookups in different sets, responses to outstanding
//   ids only).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gen/structures/cerf_system/cerf_system_ports.h"
#include "gen/structures/cerf_system/cerf_system_spec.h"
#include "models/cycle_model.h"
#include "models/tag_array_model.h"

namespace gpurf {

class CerfSystemModel : public CycleModel, public CerfSystemPort {
 public:
  explicit CerfSystemModel(const CerfSystemSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override;

  const TagArray& tags() const { return tags_; }
  // Events since construction (for tests and reports).
  uint64_t spills() const { return spills_; }
  uint64_t fills() const { return fills_; }
  uint64_t write_backs() const { return write_backs_; }
  uint64_t l2_reads() const { return l2_reads_; }

 private:
  using Op = TagArraySpec::Op;
  struct Lookup {
    bool valid = false;
    Op op = TagArraySpec::kReadReg;
    bool last = false;
    uint64_t addr = 0;  // line address after re-indexing
    Bits data;          // write-reg / store data
  };
  struct Refill {
    bool valid = false;
    bool l2 = false;     // on the L2 port (load) or the fill port (register)
    bool alloc = false;  // the tags allocated a line: the response writes it
    int row = 0;
    uint64_t addr = 0;
  };
  // One cycle: the outputs (when `out`, with their defined bits), and with `commit` the state
  // after the rising edge.
  void Step(const PortValues& in, PortValues* out, PortValues* defined, bool commit);
  std::vector<Lookup> Current(const PortValues& in) const;
  bool Busy() const;
  void Fail(const std::string& what);
  void CheckValue(const char* what, uint64_t addr, const Bits& got, bool reg);

  const CerfSystemSpec spec_;
  const TagArraySpec& ts_;
  TagArray tags_;
  std::vector<Lookup> pending_;
  std::vector<Refill> mshr_;
  std::vector<Bits> lines_;
  std::vector<bool> line_defined_;
  uint64_t conflict_cycles_ = 0;
  // Architectural values: registers by reg-mem line address, memory by line address.
  std::map<uint64_t, Bits> arch_;
  std::string failure_;
  uint64_t spills_ = 0, fills_ = 0, write_backs_ = 0, l2_reads_ = 0;
};

}  // namespace gpurf
