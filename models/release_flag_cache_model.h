// Golden model of the release flag cache of GPU register file virtualization (Jeon et al.,
// MICRO 2015, section 7.2), written from the semantics the spec states
// (gen/structures/release_flag_cache/release_flag_cache_spec.h), not from the RTL: each entry
// holds the whole word address of the pir it caches (no tag split), and a lookup hits when the
// PC's entry holds that address. It reports the first violated invariant through Failure():
//   F1 a hit is an entry that is valid and holds the lookup's PC (answers its payload);
//   F2 hits + misses = lookups;
//   F3 after a flush no entry is valid.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gen/structures/release_flag_cache/release_flag_cache_ports.h"
#include "gen/structures/release_flag_cache/release_flag_cache_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

class ReleaseFlagCacheModel : public CycleModel, public ReleaseFlagCachePort {
 public:
  explicit ReleaseFlagCacheModel(const ReleaseFlagCacheSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override { return failure_; }

  // Whether `pc` is cached now, and its payload.
  bool Holds(uint64_t pc) const;
  uint64_t Payload(uint64_t pc) const;
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  uint64_t flushes() const { return flushes_; }
  int valid_entries() const;

 private:
  struct Entry {
    bool valid = false;
    uint64_t addr = 0;  // word address of the cached pir
    uint64_t flags = 0;
  };
  void Fail(const std::string& what) {
    if (failure_.empty())
      failure_ = what;
  }

  const ReleaseFlagCacheSpec spec_;
  std::vector<Entry> entries_;
  uint64_t hits_ = 0, misses_ = 0, lookups_ = 0, flushes_ = 0;
  std::string failure_;
};

}  // namespace gpurf
