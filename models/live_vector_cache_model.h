// Golden model of FineReg's live-register vector cache and register index decoder (Oh et al.,
// MICRO 2018, section V-C, Fig. 10), written from the paper's semantics as the spec states them
// (gen/structures/live_vector_cache/live_vector_cache_spec.h), not from the RTL.
//
// The model keeps the cache as a map from line to {PC tag, vector} and the lookup in service as
// a job: its PC, whether the memory has taken its request, and, once its vector is known, the
// list of live register indices still to hand out (ascending). It never keeps a bit vector of
// what is left: a group is the front of the list. Every output is compared every cycle;
// Failure() reports the contract (a memory response with no request outstanding).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "gen/structures/live_vector_cache/live_vector_cache_ports.h"
#include "gen/structures/live_vector_cache/live_vector_cache_spec.h"
#include "models/cycle_model.h"

namespace gpurf {

class LiveVectorCacheModel : public CycleModel, public LiveVectorCachePort {
 public:
  struct Line {
    uint64_t tag = 0;
    Bits vector;
  };
  struct Job {
    uint64_t pc = 0;
    bool requested = false;  // the memory took the request
    bool decoding = false;   // the vector is known
    std::deque<int> left;    // live registers still to hand out, ascending
    int live = 0;            // the vector's live count
  };

  explicit LiveVectorCacheModel(const LiveVectorCacheSpec& spec);

  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override;
  void Clock(const PortValues& in) override;
  std::string Failure() const override { return failure_; }

  void Reset();
  const std::optional<Job>& job() const { return job_; }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  // Whether `pc` would hit now.
  bool Hits(uint64_t pc) const;

 private:
  void StartDecode(const Bits& vector);

  const LiveVectorCacheSpec spec_;
  std::vector<std::optional<Line>> lines_;
  std::optional<Job> job_;
  uint64_t hits_ = 0, misses_ = 0;
  std::string failure_;
};

}  // namespace gpurf
