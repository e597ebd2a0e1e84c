#include "verif/stimulus/tag_array_stimulus.h"

#include "gen/structures/tag_array/tag_array_ports.h"
#include "verif/stimulus/registry.h"

namespace gpurf {

using P = TagArrayPort;

TagArrayStimulus::TagArrayStimulus(const TagArraySpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed) {}

std::string TagArrayStimulus::Phase() const {
  switch (phase_) {
    case PhaseKind::kReset:
      return "reset";
    case PhaseKind::kAlu:
      return "alu";
    case PhaseKind::kMemory:
      return "memory";
    case PhaseKind::kContention:
      return "contention";
    case PhaseKind::kConflicts:
      return "conflicts";
    case PhaseKind::kMixed:
      return "mixed";
    case PhaseKind::kIdle:
      return "idle";
    case PhaseKind::kResetPulse:
      return "reset-pulse";
  }
  return "?";
}

void TagArrayStimulus::PickPhase() {
  static const PhaseKind kPhases[] = {
      PhaseKind::kAlu,   PhaseKind::kMemory,    PhaseKind::kContention, PhaseKind::kConflicts,
      PhaseKind::kMixed, PhaseKind::kMixed,     PhaseKind::kAlu,        PhaseKind::kMemory,
      PhaseKind::kIdle,  PhaseKind::kResetPulse};
  phase_ = kPhases[std::uniform_int_distribution<size_t>(0, std::size(kPhases) - 1)(rng_)];
  phase_left_ =
      phase_ == PhaseKind::kResetPulse ? 1 : std::uniform_int_distribution<uint64_t>(64, 512)(rng_);
  focus_bank_ = Uniform(0, spec_.banks - 1);
  focus_sets_.clear();
  const int n = Uniform(1, 3);
  for (int i = 0; i < n; ++i)
    focus_sets_.push_back(Uniform(0, spec_.sets - 1));
}

uint64_t TagArrayStimulus::MemAddress() {
  // A tag from a small pool (so that lines are hit again), a set from the phase's focus sets
  // (or any set), any byte offset; never in the reg-mem space.
  const int set = (phase_ == PhaseKind::kMixed && Chance(0.5))
                      ? Uniform(0, spec_.sets - 1)
                      : focus_sets_[Uniform(0, static_cast<int>(focus_sets_.size()) - 1)];
  const uint64_t tag_mask =
      (spec_.tag_width >= 64) ? ~uint64_t{0} : (uint64_t{1} << spec_.tag_width) - 1;
  uint64_t tag = static_cast<uint64_t>(Uniform(0, 2 * spec_.ways + 1));
  if (Chance(0.05))
    tag = rng_() & tag_mask;
  uint64_t addr =
      spec_.LineAddress(set, tag & tag_mask) | (rng_() & ((uint64_t{1} << spec_.offset_bits) - 1));
  if (spec_.InRegSpace(addr))
    addr &= ~(uint64_t{1} << (spec_.addr_width - 1));  // clear the prefix's top bit
  return addr;
}

void TagArrayStimulus::RegOp(int port, int op, bool last, PortValues& in) {
  // Registers of a few warps, so that they hit, die and come back; in contention the register
  // whose line lands in a focus set.
  int warp = Uniform(0, std::min(spec_.warps, 4) - 1);
  int reg = Uniform(0, std::min(spec_.regs, 16) - 1);
  if (phase_ == PhaseKind::kContention || phase_ == PhaseKind::kConflicts) {
    warp = Uniform(0, spec_.warps - 1);
    reg = Uniform(0, spec_.regs - 1);
    const int low = spec_.warp_bits + spec_.reg_bits;
    const uint64_t want = phase_ == PhaseKind::kContention ? static_cast<uint64_t>(focus_sets_[0])
                                                           : static_cast<uint64_t>(focus_bank_);
    const int bits = phase_ == PhaseKind::kContention ? std::min(spec_.set_bits, low)
                                                      : std::min(spec_.bank_bits, low);
    uint64_t ra = (static_cast<uint64_t>(warp) << spec_.reg_bits) | static_cast<uint64_t>(reg);
    ra = (ra & ~((uint64_t{1} << bits) - 1)) | (want & ((uint64_t{1} << bits) - 1));
    warp = static_cast<int>(ra >> spec_.reg_bits);
    reg = static_cast<int>(ra & ((uint64_t{1} << spec_.reg_bits) - 1));
  }
  in[P::kLkValid].set_bit(port, true);
  in[P::kLkOp].set(2 * port, 2, static_cast<uint64_t>(op));
  in[P::kLkLast].set_bit(port, last);
  in[P::kLkWarp].set(port * spec_.warp_bits, spec_.warp_bits, static_cast<uint64_t>(warp));
  in[P::kLkReg].set(port * spec_.reg_bits, spec_.reg_bits, static_cast<uint64_t>(reg));
}

void TagArrayStimulus::MemOp(int port, int op, PortValues& in) {
  uint64_t addr = MemAddress();
  if (phase_ == PhaseKind::kConflicts) {
    addr = (addr & ~(static_cast<uint64_t>(spec_.banks - 1) << spec_.offset_bits)) |
           (static_cast<uint64_t>(focus_bank_) << spec_.offset_bits);
    if (spec_.InRegSpace(addr))
      addr &= ~(uint64_t{1} << (spec_.addr_width - 1));
  }
  in[P::kLkValid].set_bit(port, true);
  in[P::kLkOp].set(2 * port, 2, static_cast<uint64_t>(op));
  in[P::kLkAddr].set(port * spec_.addr_width, spec_.addr_width, addr);
}

void TagArrayStimulus::Next(uint64_t /*cycle*/, PortValues& in) {
  if (phase_left_ == 0)
    PickPhase();
  --phase_left_;
  const bool reset = phase_ == PhaseKind::kReset || phase_ == PhaseKind::kResetPulse;
  in[P::kRstN] = Bits(1, reset ? 0 : 1);
  for (int p = P::kReqValid; p <= P::kLkAddr; ++p)
    in[p].clear();
  // Junk in the fields of absent lookups: they must be ignored.
  in[P::kLkOp].set(0, 2 * spec_.lookups, rng_());
  in[P::kLkLast].set(0, spec_.lookups, rng_());
  if (phase_ == PhaseKind::kIdle || reset || Chance(0.1))
    return;
  in[P::kReqValid] = Bits(1, 1);
  const int n = spec_.lookups;
  double p_mem = 0.0;
  switch (phase_) {
    case PhaseKind::kMemory:
      p_mem = 1.0;
      break;
    case PhaseKind::kContention:
    case PhaseKind::kConflicts:
      p_mem = 0.5;
      break;
    case PhaseKind::kMixed:
      p_mem = 0.4;
      break;
    default:
      break;
  }
  if (phase_ == PhaseKind::kMixed && Chance(0.5)) {
    for (int p = 0; p < n; ++p) {
      if (!Chance(0.7))
        continue;
      const int op = Uniform(0, 3);
      if (op >= TagArraySpec::kLoad)
        MemOp(p, op, in);
      else
        RegOp(p, op, Chance(0.3), in);
    }
    return;
  }
  if (Chance(p_mem)) {  // one memory request
    MemOp(0, Chance(0.35) ? TagArraySpec::kStore : TagArraySpec::kLoad, in);
    return;
  }
  // An ALU instruction: sources on the first ports, the destination on the last.
  const int sources = n == 1 ? 0 : n - 1;
  for (int p = 0; p < sources; ++p) {
    if (Chance(0.75))
      RegOp(p, TagArraySpec::kReadReg, Chance(0.2), in);
  }
  if (n == 1 ? Chance(0.5) : Chance(0.9))
    RegOp(n - 1, TagArraySpec::kWriteReg, false, in);
  else if (n == 1)
    RegOp(0, TagArraySpec::kReadReg, Chance(0.2), in);
}

GPURF_REGISTER(StimulusFamily, tag_array, "tag-array",
               StimulusFamily{
                   [](const StructureSpec& s, uint64_t seed) -> std::unique_ptr<Stimulus> {
                     return std::make_unique<TagArrayStimulus>(SpecAs<TagArraySpec>(s), seed);
                   }})

}  // namespace gpurf
