// Golden model of the register renaming table of GPU register file virtualization (Jeon et al.,
// MICRO 2015, section 7.1), written from the paper's semantics as the spec states them
// (gen/structures/renaming_table/renaming_table_spec.h), not from the RTL.
//
// RenameMap is the mapping itself: one map per warp from architected register to physical
// register, filled on a register's first write and emptied by releases (pir after a read, pbr
// lists, warp exit), with the exempt registers computed (warp*N + r), never stored.
// RenamingTableModel adds the request handshake and the bank scheduling of the lookups and
// adapts it to the lockstep harness's ports. Both report the first violated invariant or
// contract through Failure():
//   I1 no physical register mapped twice (an allocation takes an id that is in range, outside
//      the exempt blocks and mapped nowhere);
//   I2 a released mapping is never read before it is rewritten (the lookup answers unmapped);
//   I3 every freed id was mapped and is freed once (a release erases a held mapping);
//   C1 every operand is exempt or in the renamed window; C2 warps*N <= physical registers;
//   C3 a request names a warp slot below warps.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gen/structures/renaming_table/renaming_table_ports.h"
#include "gen/structures/renaming_table/renaming_table_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

class RenameMap {
 public:
  explicit RenameMap(const RenamingTableSpec& spec);
  void Reset();

  struct Lookup {
    bool mapped = false;
    int phys = 0;
  };
  // The mapping of register r of warp w under N exempt registers (exempt: w*N + r).
  Lookup Find(int warp, int r, int n) const;
  // Map-on-first-write: the existing mapping, or `free_phys` when r has none (alloc = true).
  Lookup Write(int warp, int r, int n, int free_phys, bool* alloc);
  // Releases r's mapping; returns the freed id, or -1 when r held none (exempt, unmapped).
  int Release(int warp, int r, int n);
  // The renamed registers of warp w that hold a mapping, ascending.
  std::vector<int> Mapped(int warp) const;
  size_t size() const;  // mappings held in all warps

  const std::string& failure() const { return failure_; }
  void Fail(const std::string& what) {
    if (failure_.empty())
      failure_ = what;
  }

 private:
  const RenamingTableSpec spec_;
  std::vector<std::map<int, int>> warps_;  // per warp: architected register -> physical id
  std::multiset<int> held_;                // every mapped physical id
  std::string failure_;
};

// Port-level model: handshake, bank scheduling, response and free ports. Every output bit is
// defined every cycle.
class RenamingTableModel : public CycleModel, public RenamingTablePort {
 public:
  explicit RenamingTableModel(const RenamingTableSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override;

  const RenameMap& map() const { return map_; }
  uint64_t conflict_cycles() const { return conflict_cycles_; }
  bool Ready() const;

 private:
  struct Request {
    int op = RenamingTableSpec::kInstr;
    int warp = 0;
    int bad_warp = -1;                           // an offered warp slot >= Wp (C3), or -1
    bool src[RenamingTableSpec::kSources] = {};  // pending
    int src_reg[RenamingTableSpec::kSources] = {};
    bool src_release[RenamingTableSpec::kSources] = {};
    bool dst = false;  // pending
    int dst_reg = 0;
    int dst_phys = 0;
    std::set<int> release;  // release/exit: pending registers
  };
  // What this cycle does: who is served, what they answer, what changes at the edge.
  struct Plan {
    bool src_served[RenamingTableSpec::kSources] = {};
    RenameMap::Lookup src[RenamingTableSpec::kSources];
    bool dst_served = false;
    bool dst_alloc = false;
    int dst_phys = 0;
    std::vector<int> release_regs;  // registers whose mappings are released at the edge
    std::vector<int> free_phys;     // per bank: released id, -1 none
  };
  Request Current(const PortValues& in) const;
  Plan MakePlan(const Request& r, int n) const;
  int BankOf(int reg, int n) const { return spec_.BankOfEntry(reg - n); }

  const RenamingTableSpec spec_;
  RenameMap map_;
  Request pending_;
  bool busy_ = false;
  uint64_t conflict_cycles_ = 0;
  std::string failure_;
};

}  // namespace gpurf
