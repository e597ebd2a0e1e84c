#include "models/release_flag_cache_model.h"

#include <fmt/format.h>

#include "models/registry.h"

namespace gpurf {

ReleaseFlagCacheModel::ReleaseFlagCacheModel(const ReleaseFlagCacheSpec& spec)
    : spec_(spec), entries_(static_cast<size_t>(spec.entries)) {}

bool ReleaseFlagCacheModel::Holds(uint64_t pc) const {
  const Entry& e = entries_[spec_.IndexOf(pc)];
  return e.valid && e.addr == spec_.WordAddress(pc);
}

uint64_t ReleaseFlagCacheModel::Payload(uint64_t pc) const {
  return Holds(pc) ? entries_[spec_.IndexOf(pc)].flags : 0;
}

int ReleaseFlagCacheModel::valid_entries() const {
  int n = 0;
  for (const Entry& e : entries_)
    n += e.valid ? 1 : 0;
  return n;
}

void ReleaseFlagCacheModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  for (int p = kLkHit; p < kNumPorts; ++p) {
    out[p].clear();
    defined[p].fill_ones();
  }
  if (!in[kRstN].bit(0))
    return;
  out[kHitCount].set(0, 32, hits_ & 0xffffffffULL);
  out[kMissCount].set(0, 32, misses_ & 0xffffffffULL);
  if (!in[kLkValid].bit(0))
    return;
  const uint64_t pc = in[kLkPc].get(0, spec_.pc_bits);
  const bool hit = Holds(pc);
  out[kLkHit].set_bit(0, hit);
  out[kLkMiss].set_bit(0, !hit);
  if (hit)
    out[kLkFlags].set(0, spec_.payload_bits, Payload(pc));
}

void ReleaseFlagCacheModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    entries_.assign(entries_.size(), Entry{});
    hits_ = misses_ = lookups_ = 0;
    return;
  }
  if (in[kLkValid].bit(0)) {
    ++lookups_;
    const uint64_t pc = in[kLkPc].get(0, spec_.pc_bits);
    if (Holds(pc)) {
      ++hits_;
      const Entry& e = entries_[spec_.IndexOf(pc)];
      if (!e.valid || e.addr != spec_.WordAddress(pc))
        Fail(fmt::format("F1 violated: a hit of PC {:#x} on an entry that does not hold it", pc));
    } else {
      ++misses_;
    }
  }
  if (hits_ + misses_ != lookups_)
    Fail(fmt::format("F2 violated: {} hits + {} misses != {} lookups", hits_, misses_, lookups_));
  if (in[kFlush].bit(0)) {
    ++flushes_;
    entries_.assign(entries_.size(), Entry{});  // a fill of this cycle is dropped
    if (valid_entries() != 0)
      Fail("F3 violated: an entry valid after a flush");
  } else if (in[kFillValid].bit(0)) {
    const uint64_t pc = in[kFillPc].get(0, spec_.pc_bits);
    Entry& e = entries_[spec_.IndexOf(pc)];
    e = {true, spec_.WordAddress(pc), in[kFillFlags].get(0, spec_.payload_bits)};
  }
}

GPURF_REGISTER(ModelFamily, release_flag_cache, "release-flag-cache",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<ReleaseFlagCacheModel>(SpecAs<ReleaseFlagCacheSpec>(s));
               }})

}  // namespace gpurf
