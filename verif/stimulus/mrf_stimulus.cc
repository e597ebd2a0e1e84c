#include "verif/stimulus/mrf_stimulus.h"

#include <algorithm>
#include <vector>

#include "gen/structures/mrf/mrf_spec.h"
#include "models/mrf_model.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = MrfModel::Port;

MrfStimulus::MrfStimulus(const MrfSpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed), wb_last_data_(spec.width) {}

std::string MrfStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kSweep:
      return "sweep";
    case PhaseKind::kRandom:
      return "random";
    case PhaseKind::kOneBank:
      return "one-bank";
    case PhaseKind::kSameBank:
      return "same-bank";
    case PhaseKind::kWbContention:
      return "wb-contention";
    case PhaseKind::kBackToBack:
      return "back-to-back";
    case PhaseKind::kBackpressure:
      return "backpressure";
    case PhaseKind::kNoSources:
      return "no-sources";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

int MrfStimulus::RandWarp() {
  return std::uniform_int_distribution<int>(0, spec_.warps - 1)(rng_);
}

int MrfStimulus::RandReg() {
  return std::uniform_int_distribution<int>(0, spec_.regs - 1)(rng_);
}

int MrfStimulus::BankOf(int warp, int reg) const {
  return spec_.BankOf(warp, reg);
}

int MrfStimulus::RegInBank(int warp, int bank) {
  std::vector<int> regs;
  for (int r = 0; r < spec_.regs; ++r) {
    if (BankOf(warp, r) == bank)
      regs.push_back(r);
  }
  if (regs.empty())
    return RandReg();
  return regs[std::uniform_int_distribution<size_t>(0, regs.size() - 1)(rng_)];
}

void MrfStimulus::RandomData(Bits& b) {
  const int pattern = std::uniform_int_distribution<int>(0, 9)(rng_);
  b.clear();
  if (pattern == 0)
    return;  // all zero
  if (pattern == 1) {
    b.fill_ones();
    return;
  }
  for (int i = 0; i < b.width(); i += 64)
    b.set(i, std::min(64, b.width() - i), rng_());
}

void MrfStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {PhaseKind::kRandom,     PhaseKind::kOneBank,
                                      PhaseKind::kSameBank,   PhaseKind::kWbContention,
                                      PhaseKind::kBackToBack, PhaseKind::kBackpressure,
                                      PhaseKind::kNoSources,  PhaseKind::kIdle,
                                      PhaseKind::kRandom,     PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  if (phase_ == PhaseKind::kResetPulse)
    phase_left_ = std::uniform_int_distribution<uint64_t>(1, 2)(rng_);
  else if (phase_ == PhaseKind::kIdle)
    phase_left_ = std::uniform_int_distribution<uint64_t>(4, 40)(rng_);
  else
    phase_left_ = std::uniform_int_distribution<uint64_t>(64, 512)(rng_);
  focus_bank_ = std::uniform_int_distribution<int>(0, spec_.banks - 1)(rng_);
}

void MrfStimulus::Next(uint64_t /*cycle*/, PortValues& in) {
  const uint64_t sweep_total = static_cast<uint64_t>(spec_.warps) * spec_.regs;
  if (phase_ == PhaseKind::kSweep) {
    if (sweep_next_ >= sweep_total)
      PickPhase();
  } else if (phase_left_ == 0) {
    if (phase_ == PhaseKind::kReset)
      phase_ = PhaseKind::kSweep;
    else
      PickPhase();
  }
  if (phase_left_ > 0)
    --phase_left_;
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  if (reset)
    wb_pending_ = false;

  auto coin = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; };
  // Random payload everywhere first: what an invalid request carries must not matter.
  for (int p : {P::kIssueTag, P::kIssueWarp, P::kIssueSrcValid, P::kIssueSrcReg, P::kWbWarp,
                P::kWbReg, P::kWbData}) {
    Bits& b = in[p];
    for (int i = 0; i < b.width(); i += 64)
      b.set(i, std::min(64, b.width() - i), rng_());
  }
  in[P::kRstN] = Bits(1, reset ? 0 : 1);
  in[P::kIssueValid] = Bits(1, 0);
  in[P::kWbValid] = Bits(1, 0);

  // ---- the instruction
  bool issue = false;
  int warp = RandWarp();
  bool valid[3] = {false, false, false};
  int regs[3] = {0, 0, 0};
  auto random_sources = [&](double p) {
    for (int s = 0; s < 3; ++s) {
      valid[s] = coin(p);
      regs[s] = RandReg();
    }
  };
  switch (phase_) {
    case PhaseKind::kRandom:
      issue = coin(0.6);
      random_sources(0.75);
      break;
    case PhaseKind::kOneBank: {
      issue = coin(0.8);
      const int bank = std::uniform_int_distribution<int>(0, spec_.banks - 1)(rng_);
      for (int s = 0; s < 3; ++s) {
        valid[s] = true;
        regs[s] = RegInBank(warp, bank);
      }
      break;
    }
    case PhaseKind::kSameBank:
      issue = coin(0.9);
      for (int s = 0; s < 3; ++s) {
        valid[s] = s == 0 || coin(0.5);
        regs[s] = RegInBank(warp, focus_bank_);
      }
      break;
    case PhaseKind::kWbContention:
      issue = coin(0.7);
      random_sources(0.8);
      break;
    case PhaseKind::kBackToBack: {
      issue = true;
      const int first = std::uniform_int_distribution<int>(0, spec_.banks - 1)(rng_);
      for (int s = 0; s < 3; ++s) {
        valid[s] = true;
        regs[s] = RegInBank(warp, (first + s) % spec_.banks);
      }
      if (!recent_results_.empty() && coin(0.5)) {
        // Read a register written back a cycle or two ago.
        const Reg r = recent_results_.back();
        warp = r.warp;
        for (int s = 0; s < 3; ++s)
          regs[s] = RegInBank(warp, (BankOf(r.warp, r.reg) + s) % spec_.banks);
        regs[0] = r.reg;
      }
      break;
    }
    case PhaseKind::kBackpressure:
      issue = coin(0.9);
      random_sources(0.75);
      break;
    case PhaseKind::kNoSources:
      issue = coin(0.8);
      random_sources(0.0);
      valid[1] = coin(0.2);
      break;
    case PhaseKind::kReset:
    case PhaseKind::kSweep:
    case PhaseKind::kIdle:
    case PhaseKind::kResetPulse:
      break;
  }
  if (issue) {
    in[P::kIssueValid] = Bits(1, 1);
    in[P::kIssueTag].clear();
    in[P::kIssueTag].set(0, spec_.tag_width, next_tag_++);
    in[P::kIssueWarp].clear();
    in[P::kIssueWarp].set(0, spec_.warp_width, static_cast<uint64_t>(warp));
    in[P::kIssueSrcValid].clear();
    for (int s = 0; s < 3; ++s) {
      in[P::kIssueSrcValid].set_bit(s, valid[s]);
      // Invalid slots keep a random register field (in range or not).
      if (valid[s])
        in[P::kIssueSrcReg].set(s * spec_.reg_width, spec_.reg_width,
                                static_cast<uint64_t>(regs[s]));
    }
  }
  offered_issue_ = issue && !reset;
  for (int s = 0; s < 3; ++s) {
    issued_last_[s] = {warp, regs[s]};
    issued_last_valid_[s] = issue && valid[s];
  }

  // ---- the write-back
  bool wb = false;
  Reg target{RandWarp(), RandReg()};
  auto from_sources = [&]() {
    if (!recent_sources_.empty()) {
      target = recent_sources_[std::uniform_int_distribution<size_t>(
          0, recent_sources_.size() - 1)(rng_)];
    }
  };
  switch (phase_) {
    case PhaseKind::kSweep:
      wb = true;
      target = {static_cast<int>(sweep_next_ / spec_.regs),
                static_cast<int>(sweep_next_ % spec_.regs)};
      break;
    case PhaseKind::kRandom:
      wb = coin(0.5);
      if (coin(0.3))
        from_sources();
      break;
    case PhaseKind::kOneBank:
    case PhaseKind::kSameBank:
    case PhaseKind::kNoSources:
      wb = coin(0.3);
      if (coin(0.5))
        from_sources();
      break;
    case PhaseKind::kWbContention:
      wb = true;
      from_sources();
      break;
    case PhaseKind::kBackToBack:
      wb = true;
      if (coin(0.7))
        from_sources();
      break;
    case PhaseKind::kBackpressure:
      wb = coin(0.5);
      break;
    case PhaseKind::kReset:
    case PhaseKind::kIdle:
    case PhaseKind::kResetPulse:
      break;
  }
  if (wb_pending_ && phase_ != PhaseKind::kSweep && coin(0.8)) {
    wb = true;  // offer the refused write-back again (mostly; sometimes it is withdrawn)
    target = wb_last_;
    in[P::kWbData] = wb_last_data_;
  } else if (wb) {
    RandomData(in[P::kWbData]);
  }
  if (wb && !reset) {
    in[P::kWbValid] = Bits(1, 1);
    in[P::kWbWarp].clear();
    in[P::kWbWarp].set(0, spec_.warp_width, static_cast<uint64_t>(target.warp));
    in[P::kWbReg].clear();
    in[P::kWbReg].set(0, spec_.reg_width, static_cast<uint64_t>(target.reg));
    wb_last_ = target;
    wb_last_data_ = in[P::kWbData];
  }
  offered_wb_ = wb && !reset;

  // ---- dispatch back-pressure
  double ready = 0.8;
  switch (phase_) {
    case PhaseKind::kOneBank:
    case PhaseKind::kBackToBack:
      ready = 1.0;
      break;
    case PhaseKind::kBackpressure:
      ready = 0.05;
      break;
    case PhaseKind::kSameBank:
    case PhaseKind::kWbContention:
      ready = 0.9;
      break;
    default:
      break;
  }
  disp_ready_ = coin(ready);
  in[P::kDispReady] = Bits(1, disp_ready_ ? 1 : 0);
}

void MrfStimulus::Observe(uint64_t /*cycle*/, const PortValues& out) {
  if (offered_issue_ && out[P::kIssueReady].bit(0)) {
    for (int s = 0; s < 3; ++s) {
      if (issued_last_valid_[s])
        recent_sources_.push_back(issued_last_[s]);
    }
    while (recent_sources_.size() > 12)
      recent_sources_.pop_front();
  }
  if (offered_wb_) {
    const bool taken = out[P::kWbReady].bit(0);
    wb_pending_ = !taken;
    if (taken) {
      recent_results_.push_back(wb_last_);
      while (recent_results_.size() > 4)
        recent_results_.pop_front();
      if (phase_ == PhaseKind::kSweep)
        ++sweep_next_;
    }
  }
}

GPURF_REGISTER(StimulusFamily, mrf, "mrf",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<MrfStimulus>(SpecAs<MrfSpec>(s), seed);
                   }})

}  // namespace gpurf
