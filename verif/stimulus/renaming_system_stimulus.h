// Stimulus of `gpurf verify renaming-system`: legal traffic for the renaming register-file system
// top (renaming_system_spec.h). CTAs launch into their slots with worst-case needs that together
// exceed the renamable registers (throttle), their warps issue instrs with first writes (allocation
// pressure), pir release flags from a program larger than the flag cache (misses and fills), pbr
// release lists and warp exits (the three kinds of release); results come back out of order after
// dispatch. With three or more CTA slots it also drives throttle episodes (throttle_o high; see
// Episode below). The stimulus keeps the harness contract: a register is read only when exempt or
// mapped, never while its last writer's result is outstanding, and written only when no in-flight
// instruction still reads it; releases and exits wait for their registers' results.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gen/structures/renaming_system/renaming_system_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class RenamingSystemStimulus : public Stimulus {
 public:
  RenamingSystemStimulus(const RenamingSystemSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

 private:
  struct Warp {
    bool alive = false;
    std::set<int> mapped;        // renamed registers holding a mapping
    std::set<int> busy;          // result outstanding
    std::map<int, int> readers;  // register -> in-flight instructions reading it
    int issued = 0;
  };
  struct Request {
    bool valid = false;
    int op = 0;
    int warp = 0;
    uint64_t tag = 0;
    std::vector<bool> src_valid = std::vector<bool>(3, false);
    std::vector<int> src = std::vector<int>(3, 0);
    bool dst_valid = false;
    int dst = 0;
    bool pir = false;
    int pc_index = 0;
    int idx = 0;
    std::vector<bool> mask;
    int age = 0;
  };
  struct Flight {
    int warp = 0;
    std::vector<int> reads;
    bool dst_valid = false;
    int dst = 0;
  };
  struct Result {
    uint64_t due = 0;
    int phys = 0;
    uint64_t data = 0;
    int warp = 0;
    int reg = 0;
  };
  enum class Cta { kFree, kAlive, kDraining };
  // A throttle episode. The throttle's grant rule keeps the reserved CTA's remaining worst case
  // free, so throttle_o (free < the minimum counter of the alive CTAs) can only rise when the
  // reservation moves: at the exit of the reserved CTA, with two or more CTAs left that both
  // hold registers and need more than is free. The reservation goes to a CTA launched with none
  // alive, so an episode drains every CTA (kDrain: no launches, warps exit once quiet), launches
  // a light CTA (worst case = what its registers need) into an empty SM and then heavy ones
  // (worst case = the whole bank) into the other slots (kLaunch), lets the heavy warps map
  // registers while the light CTA's warps exit early (kRun), and ends at the light CTA's exit,
  // after which the throttle holds every CTA but the new reserved one. Needs Nc >= 3.
  enum class Episode { kNormal, kDrain, kLaunch, kRun };

  int Rand(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  bool Chance(int num, int den) { return Rand(den) < num; }
  bool Readable(const Warp& w, int r) const;
  bool Writable(const Warp& w, int r) const;
  bool ReleaseBit(int pc_index, int idx, int slot) const;
  uint64_t Pc(int pc_index) const;
  void Pick(uint64_t cycle);

  const RenamingSystemSpec spec_;
  std::mt19937_64 rng_;
  std::vector<int> regs_;  // registers the kernel uses: exempt and a window subset per bank
  std::vector<int> need_;  // launch need per bank
  std::vector<Warp> warps_;
  std::vector<Cta> cta_;
  std::vector<int> cta_timer_;
  std::vector<std::vector<bool>> program_;  // pir flags per PC
  std::map<uint64_t, Flight> flights_;
  std::deque<Result> results_;
  uint64_t next_tag_ = 0;
  int pending_fill_ = -1, fill_timer_ = 0;
  Episode episode_ = Episode::kNormal;
  int light_slot_ = -1;      // the episode's light CTA
  uint64_t episode_at_ = 0;  // the cycle of the next episode (when Nc >= 3)

  // What this cycle offered.
  bool reset_ = true;
  Request req_;
  bool res_offered_ = false;
  bool disp_ready_ = false;
  bool launch_ = false, cta_exit_ = false, fill_ = false, launch_light_ = false;
  int launch_slot_ = 0, exit_slot_ = 0;
  bool throttled_ = false;
  uint64_t cycle_ = 0;
};

}  // namespace gpurf
