// Reactive directed and constrained-random stimulus for the banked MRF, through its port
// contract only. It watches the golden outputs (Stimulus::Observe) to honour the handshakes:
// a write-back that was not accepted is offered again, and it remembers which registers the
// instructions it issued read, to aim write-backs at them.
// Phases (after a reset and a sweep that writes every (warp, register) once, then in a seeded
// random order, a few hundred cycles each):
//   random         - random instructions (0..3 sources), write-backs and dispatch back-pressure
//   one-bank       - every source of an instruction in one bank (reads serialize)
//   same-bank      - every instruction of every collector reads one bank (inter-warp conflicts)
//   wb-contention  - a write-back every cycle aimed at rows that waiting operands read
//   back-to-back   - an instruction every cycle, sources in distinct banks, always dispatched;
//                    results written back and read again right after (read after write)
//   backpressure   - dispatch held off for long stretches: collectors fill, issue stalls
//   no-sources     - instructions without source operands (dispatch without any read)
//   idle           - nothing offered
//   reset          - a reset pulse mid-run (collectors and counters clear, banks keep data)
// Warps and registers of valid requests are always in range (misuse has its own tests); the
// payload of an invalid request is random.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <string>

#include "gen/structures/mrf/mrf_spec.h"
#include "verif/harness/stimulus.h"

namespace gpurf {

class MrfStimulus : public Stimulus {
 public:
  MrfStimulus(const MrfSpec& spec, uint64_t seed);

  void Next(uint64_t cycle, PortValues& in) override;
  std::string Phase() const override;
  void Observe(uint64_t cycle, const PortValues& out) override;

  enum class PhaseKind {
    kReset,
    kSweep,
    kRandom,
    kOneBank,
    kSameBank,
    kWbContention,
    kBackToBack,
    kBackpressure,
    kNoSources,
    kIdle,
    kResetPulse
  };

 private:
  struct Reg {
    int warp = 0;
    int reg = 0;
  };
  void PickPhase();
  int RandWarp();
  int RandReg();
  // A register of `warp` living in `bank` (any register if that bank holds none of its).
  int RegInBank(int warp, int bank);
  int BankOf(int warp, int reg) const;
  void RandomData(Bits& b);

  const MrfSpec spec_;
  std::mt19937_64 rng_;
  PhaseKind phase_ = PhaseKind::kReset;
  uint64_t phase_left_ = 2;
  uint64_t sweep_next_ = 0;
  int focus_bank_ = 0;
  uint64_t next_tag_ = 0;
  // Handshake tracking: what was offered last cycle and whether it was taken.
  bool offered_issue_ = false, offered_wb_ = false, disp_ready_ = false;
  bool wb_pending_ = false;  // last write-back refused: offer it again
  Reg wb_last_;
  Bits wb_last_data_;
  Reg issued_last_[3];
  bool issued_last_valid_[3] = {false, false, false};
  std::deque<Reg> recent_sources_;  // sources of recently accepted instructions
  std::deque<Reg> recent_results_;  // registers written back recently
};

}  // namespace gpurf
