// The live-register vector cache (gen/structures/live_vector_cache) in the characterization
// layer: its activity driver.
//
// The driver runs the golden model (models/live_vector_cache_model.h) on the inputs it drives
// and counts what the structure did. It plays the memory: a request is taken at once and
// answered two cycles later (the memory's real latency, `fetch_latency`, is idle time of the
// cache, which the fit attributes to the idle baseline; shortening it gives the fit more fills
// per measured cycle). The register transfer always takes the decoder's group. Components, each
// with what one access means:
//   read          vector-cache access: one lookup accepted (line read, tag compare, the hit or
//                 miss counter);
//   write         line fill: one memory response written into its line (valid, tag, vector)
//                 and loaded into the decoder;
//   index_decode  one group of register indices taken from the decoder (the priority encoders
//                 over the vector left, the vector's bits cleared).
// Warm-up fills every line: the lower half with random vectors, the upper half with full
// vectors (every register live). The sets:
//   reads         lookups of the lower half's PCs: hits, a few groups each;
//   writes        lookups of PCs with new tags: misses, fills and decodes of random vectors;
//   mixed         lookups of either, or of the upper half;
//   long-vectors  lookups of the upper half's PCs: hits that decode every register (the decoder
//                 apart from the lookup).
#include <fmt/format.h>

#include <optional>
#include <stdexcept>

#include "gen/structures/live_vector_cache/live_vector_cache_ports.h"
#include "gen/structures/live_vector_cache/live_vector_cache_spec.h"
#include "models/live_vector_cache_model.h"
#include "synth/activity_driver.h"
#include "synth/level_table.h"

namespace gpurf {
namespace {

using P = LiveVectorCachePort;

constexpr size_t kDecodeComponent = 2;
constexpr const char* kLongVectorsSet = "long-vectors";
constexpr uint64_t kMemoryCycles = 2;

class LiveVectorCacheDriver final : public ActivityDriver {
 public:
  explicit LiveVectorCacheDriver(const GeneratedStructure& g)
      : g_(g), spec_(SpecOf<LiveVectorCacheSpec>(g)) {
    in_ = out_ = def_ = LiveVectorCachePortTable(spec_).ZeroValues();
    model_.emplace(spec_);
  }

  void Reset(DriveValues& v) override {
    for (auto& b : in_)
      b.clear();
    model_.emplace(spec_);
    pending_ = false;
    fresh_tag_ = 1;
    warm_line_ = 0;
    cycle_ = 0;
    CopyInputs(g_.ports, in_, v);
  }

  // Each line: a lookup, a request, two cycles of memory, a fill and up to V decode cycles.
  uint64_t WarmupCycles() const override {
    return static_cast<uint64_t>(spec_.entries) *
               (static_cast<uint64_t>(spec_.vector_bits / spec_.decode_width) + 8) +
           4;
  }
  void Warmup(uint64_t cycle, ActivityRng& rng, DriveValues& v) override {
    Idle();
    if (cycle >= 2 && warm_line_ < spec_.entries && !model_->job()) {
      Lookup(Pc(warm_line_, 0));
      ++warm_line_;
    }
    AccessCounts ignored(3);
    Cycle(v, ignored, rng, /*full=*/warm_line_ > spec_.entries / 2);
  }

  void Drive(const StimulusSet& set, ActivityRng& rng, DriveValues& v,
             AccessCounts& counts) override {
    Idle();
    const int half = std::max(1, spec_.entries / 2);
    if (set != kIdleSet && !model_->job()) {
      const int line = static_cast<int>(rng() % static_cast<uint64_t>(half));
      if (set == kReadsSet) {
        Lookup(Pc(line, 0));
      } else if (set == kWritesSet) {
        Lookup(Pc(line, fresh_tag_++));
      } else if (set == kLongVectorsSet) {
        Lookup(Pc(std::min(spec_.entries - 1, half + line), 0));
      } else if (set == kMixedSet) {
        const uint64_t r = rng() % 3;
        Lookup(r == 0   ? Pc(line, 0)
               : r == 1 ? Pc(line, fresh_tag_++)
                        : Pc(std::min(spec_.entries - 1, half + line), 0));
      }
    }
    Cycle(v, counts, rng, /*full=*/false);
  }

  std::vector<StimulusSet> ExtraSets() const override { return {kLongVectorsSet}; }

  std::vector<AccessComponent> Components() const override {
    return {
        {"read", "vector-cache access: one lookup (line read, tag compare, hit/miss count)", ""},
        {"write", "line fill: one memory response written into its line and the decoder", ""},
        {"index_decode", "one group of register indices taken from the decoder", ""}};
  }

 private:
  // The PC of `line` with tag `tag` (tags wrap within the tag field; tag 0 is the warm one).
  uint64_t Pc(int line, uint64_t tag) const {
    const uint64_t t = spec_.tag_bits >= 63 ? tag : tag % (1ULL << spec_.tag_bits);
    return (t << (spec_.align_bits + spec_.index_bits)) |
           (static_cast<uint64_t>(line) << spec_.align_bits);
  }

  void Idle() {
    in_[P::kRstN] = Bits(1, 1);
    in_[P::kLkValid] = Bits(1, 0);
    in_[P::kMemRespValid] = Bits(1, 0);
    in_[P::kMemReqReady] = Bits(1, 1);
    in_[P::kDecReady] = Bits(1, 1);
  }

  void Lookup(uint64_t pc) {
    in_[P::kLkValid] = Bits(1, 1);
    in_[P::kLkPc].set(0, spec_.pc_bits, pc);
  }

  void Cycle(DriveValues& v, AccessCounts& counts, ActivityRng& rng, bool full) {
    if (pending_ && cycle_ >= resp_at_) {
      pending_ = false;
      in_[P::kMemRespValid] = Bits(1, 1);
      Bits& d = in_[P::kMemRespVector];
      if (full) {
        d.fill_ones();
      } else {
        for (int w = 0; w < d.num_words(); ++w)
          d.data()[w] = rng() & rng();  // a quarter of the registers live
        d.canonicalize();
      }
    }
    model_->Outputs(in_, out_, def_);
    if (in_[P::kLkValid].bit(0) && out_[P::kLkReady].bit(0))
      ++counts[kReadComponent];
    if (in_[P::kMemRespValid].bit(0))
      ++counts[kWriteComponent];
    if (out_[P::kDecValid].bit(0))
      ++counts[kDecodeComponent];
    if (out_[P::kMemReqValid].bit(0)) {
      pending_ = true;
      resp_at_ = cycle_ + kMemoryCycles;
    }
    model_->Clock(in_);
    if (!model_->Failure().empty())
      throw std::logic_error(g_.top +
                             ": live-vector-cache driver broke the model: " + model_->Failure());
    ++cycle_;
    CopyInputs(g_.ports, in_, v);
  }

  const GeneratedStructure g_;
  const LiveVectorCacheSpec spec_;
  std::optional<LiveVectorCacheModel> model_;
  PortValues in_, out_, def_;
  bool pending_ = false;
  uint64_t resp_at_ = 0, cycle_ = 0, fresh_tag_ = 1;
  int warm_line_ = 0;
};

// The per-level table: the whole module's gate-level row (read and write as declared) and the
// row of its own component.
void LiveVectorCacheRows(const ModuleCharacterization& r, std::vector<LevelRow>& out) {
  out.push_back(GateLevelRow(r, "live-vector cache (lines, tags, decoder)"));
  out.push_back(ComponentLevelRow(r, "register index decoder", "index_decode"));
}

}  // namespace

GPURF_REGISTER(LevelRowsFamily, live_vector_cache_rows, "live-vector-cache",
               LevelRowsFamily{LiveVectorCacheRows})
GPURF_REGISTER(ActivityFamily, live_vector_cache, "live-vector-cache",
               DriverFamily<LiveVectorCacheDriver>("live-vector-cache-driver-v1"))

}  // namespace gpurf
