#include "verif/stimulus/flop_array_stimulus.h"

#include <algorithm>

#include "gen/structures/flop_array/flop_array_spec.h"
#include "models/flop_array_model.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = FlopArrayModel::Port;

FlopArrayStimulus::FlopArrayStimulus(const FlopArraySpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed) {}

std::string FlopArrayStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kSweep:
      return "sweep";
    case PhaseKind::kRandom:
      return "random";
    case PhaseKind::kCollisions:
      return "collisions";
    case PhaseKind::kBackToBack:
      return "back-to-back";
    case PhaseKind::kRaw:
      return "read-after-write";
    case PhaseKind::kHot:
      return "hot-addresses";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kPatterns:
      return "data-patterns";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

uint64_t FlopArrayStimulus::Addr() {
  return std::uniform_int_distribution<uint64_t>(0, spec_.entries - 1)(rng_);
}

uint64_t FlopArrayStimulus::HotAddr() {
  const uint64_t last = spec_.entries - 1;
  const uint64_t choices[] = {0, last, last / 2, std::min<uint64_t>(1, last),
                              last > 0 ? last - 1 : 0};
  return choices[std::uniform_int_distribution<int>(0, 4)(rng_)];
}

void FlopArrayStimulus::RandomData(Bits& wdata, int port) {
  for (int b = 0; b < spec_.width; b += 64) {
    const int len = std::min(64, spec_.width - b);
    wdata.set(port * spec_.width + b, len, rng_());
  }
}

void FlopArrayStimulus::PatternData(Bits& wdata, int port, uint64_t cycle) {
  Bits v(spec_.width);
  switch (cycle % 3) {
    case 0:
      break;  // all zero
    case 1:
      v.fill_ones();
      break;
    default:
      v.set_bit(static_cast<int>((cycle / 3) % spec_.width), true);
      break;  // walking one
  }
  wdata.set_slice(port * spec_.width, v);
}

void FlopArrayStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {
      PhaseKind::kRandom,   PhaseKind::kCollisions, PhaseKind::kBackToBack,
      PhaseKind::kRaw,      PhaseKind::kHot,        PhaseKind::kIdle,
      PhaseKind::kPatterns, PhaseKind::kRandom,     PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<int>(0, 8)(rng_)];
  phase_left_ =
      phase_ == PhaseKind::kResetPulse ? 1 : std::uniform_int_distribution<uint64_t>(64, 512)(rng_);
  focus_addr_ = Addr();
}

void FlopArrayStimulus::Next(uint64_t /*cycle*/, PortValues& in) {
  if (phase_left_ == 0) {
    if (phase_ == PhaseKind::kReset) {
      phase_ = PhaseKind::kSweep;
      phase_left_ = (spec_.entries + spec_.write_ports - 1) / spec_.write_ports;
    } else {
      PickPhase();
    }
  }
  --phase_left_;
  const int aw = spec_.addr_width;
  const int R = spec_.read_ports, W = spec_.write_ports;
  for (auto* b : {&in[P::kWe], &in[P::kWaddr], &in[P::kWdata], &in[P::kRaddr]})
    b->clear();
  in[P::kRstN] = Bits(1, phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse ? 0 : 1);
  std::uniform_int_distribution<int> coin(0, 1);
  last_written_.resize(static_cast<size_t>(W));
  std::vector<uint64_t> written_now;

  auto write = [&](int w, uint64_t a, bool pattern, uint64_t salt) {
    in[P::kWe].set_bit(w, true);
    in[P::kWaddr].set(w * aw, aw, a);
    if (pattern) {
      PatternData(in[P::kWdata], w, salt);
    } else {
      RandomData(in[P::kWdata], w);
    }
    written_now.push_back(a);
  };

  switch (phase_) {
    case PhaseKind::kReset:
    case PhaseKind::kIdle:
      break;
    case PhaseKind::kSweep:
      for (int w = 0; w < W && sweep_next_ < static_cast<uint64_t>(spec_.entries); ++w)
        write(w, sweep_next_++, false, 0);
      break;
    case PhaseKind::kRandom:
    case PhaseKind::kResetPulse:
      for (int w = 0; w < W; ++w) {
        if (coin(rng_))
          write(w, Addr(), false, 0);
      }
      break;
    case PhaseKind::kCollisions: {
      const uint64_t a = coin(rng_) ? focus_addr_ : Addr();
      for (int w = 0; w < W; ++w) {
        if (W == 1 || coin(rng_) || w == W - 1)
          write(w, a, false, 0);
      }
      break;
    }
    case PhaseKind::kBackToBack:
      write(std::uniform_int_distribution<int>(0, W - 1)(rng_), focus_addr_, false, 0);
      break;
    case PhaseKind::kRaw:
      for (int w = 0; w < W; ++w) {
        if (coin(rng_))
          write(w, HotAddr(), false, 0);
      }
      break;
    case PhaseKind::kHot:
      for (int w = 0; w < W; ++w) {
        if (coin(rng_))
          write(w, HotAddr(), false, 0);
      }
      break;
    case PhaseKind::kPatterns:
      for (int w = 0; w < W; ++w) {
        if (coin(rng_))
          write(w, Addr(), true, rng_());
      }
      break;
  }

  for (int p = 0; p < R; ++p) {
    uint64_t a;
    switch (phase_) {
      case PhaseKind::kBackToBack:
        a = focus_addr_;
        break;
      case PhaseKind::kCollisions:
      case PhaseKind::kRaw:
        if (!written_now.empty() && coin(rng_)) {
          a = written_now[std::uniform_int_distribution<size_t>(0, written_now.size() - 1)(rng_)];
        } else {
          a = last_written_[std::uniform_int_distribution<size_t>(0,
                                                                  last_written_.size() - 1)(rng_)];
        }
        break;
      case PhaseKind::kHot:
        a = HotAddr();
        break;
      default:
        a = Addr();
        break;
    }
    in[P::kRaddr].set(p * aw, aw, a);
  }
  for (int w = 0; w < W; ++w) {
    if (in[P::kWe].bit(w))
      last_written_[w] = in[P::kWaddr].get(w * aw, aw);
  }
}

GPURF_REGISTER(StimulusFamily, flop_array, "flop-array",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<FlopArrayStimulus>(SpecAs<FlopArraySpec>(s), seed);
                   }})

}  // namespace gpurf
