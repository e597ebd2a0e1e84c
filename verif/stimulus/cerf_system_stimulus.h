// Stimulus for the cerf-system top: a GPU core's instructions and the memory behind the top.
// Each request is one instruction: register sources (read-reg, some with the last-use bit)
// and a destination (write-reg), or one memory request (load or store, line-granular data),
// with its lookups in different sets (the top's contract). Registers are read only while they
// hold a value the program wrote (written and not yet dead), so that every read has an
// architectural value to be checked against.
//
// The stimulus is reactive: it plays L2 and local memory. Every L2 write and spill the top
// emits is stored; every L2 read and fill is answered after a random latency (1..4 cycles, or
// up to 40 in long-latency phases) with the stored line, or, for a line never written, a value
// derived from its address (memory's initial contents). At most one response per port per
// cycle, responses of one port in any order.
//
// Phases, after a reset, in a seeded random order (each 64..512 cycles):
//   alu          register instructions only (fills and register-register replacement)
//   memory       loads and stores over few sets (cache, dirty, write-backs, store misses)
//   contention   registers and memory lines in the same few sets (spills, refills, policies)
//   conflicts    every lookup of a request in the same bank (serialization)
//   slow-memory  mixed traffic with long L2 latencies
//   idle         no request
//   reset-pulse  one cycle of reset mid-run (outstanding responses are dropped)
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gen/structures/cerf_system/cerf_system_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class CerfSystemStimulus : public Stimulus {
 public:
  CerfSystemStimulus(const CerfSystemSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

  enum class PhaseKind {
    kReset,
    kAlu,
    kMemory,
    kContention,
    kConflicts,
    kSlow,
    kIdle,
    kResetPulse
  };

 private:
  struct Lookup {
    int op = 0;
    bool last = false;
    int warp = 0, reg = 0;
    uint64_t addr = 0;  // memory byte address, or the register's reg-mem line address
    Bits data;
  };
  struct Response {
    uint64_t due = 0;
    int id = 0;
    uint64_t addr = 0;
  };
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  void PickPhase();
  void NewRequest();
  bool AddReg(int op, bool last, std::set<int>& sets);
  bool AddMem(int op, std::set<int>& sets);
  uint64_t MemAddress();
  Bits RandomData();
  Bits MemoryValue(uint64_t line);
  void Respond(uint64_t cycle, std::vector<Response>& q, int valid, int id, int data,
               PortValues& in);

  const CerfSystemSpec spec_;
  const TagArraySpec& ts_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  int focus_bank_ = 0;
  std::vector<int> focus_sets_;
  std::vector<Lookup> req_;  // the request offered until it is accepted (empty: none)
  bool offered_ = false;
  std::set<std::pair<int, int>> live_;  // (warp, reg) holding a value the program wrote
  std::map<uint64_t, Bits> memory_;     // L2 and local memory, by line address
  std::vector<Response> l2_q_, fill_q_;
};

}  // namespace gpurf
