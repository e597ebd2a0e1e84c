#include "verif/stimulus/orf_stimulus.h"

#include <algorithm>

#include "gen/structures/orf/orf_spec.h"
#include "models/orf_model.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = OrfCycleModel::Port;

OrfStimulus::OrfStimulus(const OrfSpec& spec, uint64_t seed)
    : spec_(spec),
      rng_(seed),
      valid_(static_cast<size_t>(spec.active_warps) * spec.entries, false) {}

std::string OrfStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kSweep:
      return "sweep";
    case PhaseKind::kRandom:
      return "random";
    case PhaseKind::kWriteThenRead:
      return "write-then-read";
    case PhaseKind::kDeschedule:
      return "deschedule";
    case PhaseKind::kAllEntries:
      return "all-entries";
    case PhaseKind::kCollisions:
      return "collisions";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kPatterns:
      return "data-patterns";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

void OrfStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {PhaseKind::kRandom,     PhaseKind::kWriteThenRead,
                                      PhaseKind::kDeschedule, PhaseKind::kAllEntries,
                                      PhaseKind::kCollisions, PhaseKind::kIdle,
                                      PhaseKind::kPatterns,   PhaseKind::kRandom,
                                      PhaseKind::kDeschedule, PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  phase_left_ =
      phase_ == PhaseKind::kResetPulse ? 1 : std::uniform_int_distribution<uint64_t>(64, 512)(rng_);
  focus_slot_ = Below(spec_.active_warps);
  walk_next_ = 0;
}

bool OrfStimulus::LiveEntry(int port, int* slot, int* entry) {
  for (int t = 0; t < 8; ++t) {
    const int s = Below(spec_.active_warps);
    const int e = spec_.split ? port : Below(spec_.entries);
    if (Valid(s, e)) {
      *slot = s;
      *entry = e;
      return true;
    }
  }
  return false;
}

void OrfStimulus::Next(uint64_t cycle, PortValues& in) {
  if (phase_left_ == 0) {
    if (phase_ == PhaseKind::kReset) {
      phase_ = PhaseKind::kSweep;
      sweep_next_ = 0;
      phase_left_ = static_cast<uint64_t>(spec_.active_warps) * spec_.entries;
    } else {
      PickPhase();
    }
  }
  --phase_left_;
  const int A = spec_.active_warps, N = spec_.entries, sw = spec_.slot_width,
            ew = spec_.entry_width, DW = spec_.width;
  for (int p = P::kWe; p < P::kNumPorts; ++p) {
    if (p != P::kRdata)
      in[p].clear();
  }
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN] = Bits(1, reset ? 0 : 1);

  // ---- the write and the invalidation of this cycle
  bool we = false, inv = false;
  int ws = 0, wen = 0, is = 0;
  switch (phase_) {
    case PhaseKind::kReset:
    case PhaseKind::kIdle:
    case PhaseKind::kAllEntries:
      break;
    case PhaseKind::kSweep:
      we = true;
      ws = sweep_next_ / N;
      wen = sweep_next_ % N;
      ++sweep_next_;
      break;
    case PhaseKind::kRandom:
    case PhaseKind::kPatterns:
    case PhaseKind::kResetPulse:
      we = Chance(0.6);
      ws = Below(A);
      wen = Below(N);
      inv = Chance(0.03);
      is = Below(A);
      break;
    case PhaseKind::kWriteThenRead:
      we = Chance(0.8);
      ws = Below(A);
      wen = Below(N);
      break;
    case PhaseKind::kDeschedule:
      // A new warp in focus_slot_: invalidate now and then, write its entries, read them back.
      inv = Chance(0.08);
      is = Chance(0.7) ? focus_slot_ : Below(A);
      we = Chance(0.7);
      ws = Chance(0.8) ? focus_slot_ : Below(A);
      wen = Below(N);
      break;
    case PhaseKind::kCollisions:
      we = Chance(0.8);
      ws = focus_slot_;
      wen = Below(N);
      inv = Chance(0.3);
      is = Chance(0.7) ? focus_slot_ : Below(A);
      break;
  }
  if (we) {
    in[P::kWe] = Bits(1, 1);
    in[P::kWslot].set(0, sw, ws);
    in[P::kWentry].set(0, ew, wen);
    if (phase_ == PhaseKind::kPatterns) {
      Bits v(DW);
      switch (cycle % 3) {
        case 0:
          break;
        case 1:
          v.fill_ones();
          break;
        default:
          v.set_bit(static_cast<int>((cycle / 3) % DW), true);
          break;
      }
      in[P::kWdata] = v;
    } else {
      for (int b = 0; b < DW; b += 64)
        in[P::kWdata].set(b, std::min(64, DW - b), rng_());
    }
  }
  if (inv) {
    in[P::kInv] = Bits(1, 1);
    in[P::kInvSlot].set(0, sw, is);
  }

  // ---- the three operand reads
  for (int p = 0; p < OrfSpec::kReadPorts; ++p) {
    int s = Below(A), e = spec_.split ? p : Below(N);
    bool re = false;
    switch (phase_) {
      case PhaseKind::kWriteThenRead:
      case PhaseKind::kCollisions:
        if (Chance(0.5) && last_write_slot_ >= 0 && (!spec_.split || last_write_entry_ == p) &&
            Valid(last_write_slot_, last_write_entry_)) {
          s = last_write_slot_;  // written last cycle
          e = last_write_entry_;
          re = true;
        } else if (we && (!spec_.split || wen == p)) {
          s = ws;  // written this cycle: live only with bypass, or if it was live already
          e = wen;
          re = Valid(s, e) || spec_.bypass();
        } else {
          re = LiveEntry(p, &s, &e);
        }
        break;
      case PhaseKind::kDeschedule:
        if (Chance(0.6)) {
          s = focus_slot_;
          if (!spec_.split)
            e = Below(N);
          re = Valid(s, e);
        } else {
          re = LiveEntry(p, &s, &e);
        }
        break;
      case PhaseKind::kAllEntries: {
        const int k = (walk_next_ + p) % (A * N);
        s = k / N;
        e = spec_.split ? p : k % N;
        re = Valid(s, e);
        break;
      }
      case PhaseKind::kSweep:
        re = Chance(0.7) && LiveEntry(p, &s, &e);
        break;
      default:
        re = Chance(0.8) && LiveEntry(p, &s, &e);
        break;
    }
    if (reset)
      re = false;
    // Reads of this cycle's write see it only with bypass; otherwise they need the old value.
    if (re && we && s == ws && e == wen && !spec_.bypass() && !Valid(s, e))
      re = false;
    in[P::kRe].set_bit(p, re);
    in[P::kRslot].set(p * sw, sw, s);
    in[P::kRentry].set(p * ew, ew, re || !spec_.split ? e : Below(1 << ew));
  }
  if (phase_ == PhaseKind::kAllEntries)
    walk_next_ = (walk_next_ + OrfSpec::kReadPorts) % (A * N);

  // ---- the edge, in the compiler's view
  if (reset) {
    std::fill(valid_.begin(), valid_.end(), false);
    last_write_slot_ = -1;
    return;
  }
  if (we) {
    valid_[static_cast<size_t>(ws) * N + wen] = true;
    last_write_slot_ = ws;
    last_write_entry_ = wen;
  }
  if (inv) {
    for (int e = 0; e < N; ++e)
      valid_[static_cast<size_t>(is) * N + e] = false;
  }
}

GPURF_REGISTER(StimulusFamily, orf_l1, "orf-l1",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<OrfStimulus>(SpecAs<OrfSpec>(s), seed);
                   }})
GPURF_REGISTER(StimulusFamily, orf_l0, "orf-l0",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<OrfStimulus>(SpecAs<OrfSpec>(s), seed);
                   }})

}  // namespace gpurf
