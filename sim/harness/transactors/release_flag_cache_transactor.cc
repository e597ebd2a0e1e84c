// The release flag cache's transactor in the RTL loop (transactor.h), for the renaming hierarchy
// (renaming_transactions.h): the fetch of a pir meta instruction probes the cache; the RTL must
// hit or miss as the renaming system's cache does, a hit must answer the pir's release flags, and
// a miss is followed by the fill (the decoded pir) in the next RTL cycle. The hit and miss
// counters must count the same.
//
// Addressing. The system's cache is direct-mapped by pir group number (group g in entry
// g mod E); the RTL indexes by the pir's PC. The transactor gives group g the word address
// a = (g div E) * 2^IndexBits + (g mod E), whose entry is g mod E and whose tag is g div E, so
// two groups share an entry, and evict each other, exactly when the system's do.
#include <fmt/format.h>

#include "base/registry.h"
#include "gen/structures/release_flag_cache/release_flag_cache_ports.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/renaming_transactions.h"

namespace gpurf::harness {
namespace {

using P = ReleaseFlagCachePort;

class ReleaseFlagCacheTransactor : public RtlTransactor {
 public:
  ReleaseFlagCacheTransactor(const RtlStructure& s, RtlDut dut, RtlLoopContext& ctx)
      : RtlTransactor(std::move(dut), ctx), spec_(SpecAs<ReleaseFlagCacheSpec>(s.spec)) {}

  bool Transaction(const StructureTransaction& t) override {
    const auto* f = t.As<FcLookup>();
    if (f == nullptr)
      return false;
    Lookup(*f);
    return true;
  }

 private:
  uint64_t PcOf(RtlDut& r, int group) {
    const auto e = static_cast<uint64_t>(spec_.entries);
    const auto g = static_cast<uint64_t>(group);
    const uint64_t a = ((g / e) << spec_.index_bits) | (g % e);
    if (spec_.addr_bits < 64 && a >> spec_.addr_bits != 0)
      ctx_.Fail(r, fmt::format("{}: pir group {} needs word address {:#x}, more than the {} "
                               "address bits of the cache's PCs",
                               ctx_.Where(), group, a, spec_.addr_bits));
    return a << spec_.offset_bits;
  }

  void Lookup(const FcLookup& f) {
    RtlDut& r = dut_;
    const uint64_t pc = PcOf(r, f.group);
    const uint64_t payload_mask =
        spec_.payload_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << spec_.payload_bits) - 1;
    const uint64_t flags = f.flags & payload_mask;
    r.IdleOutOfReset(P::kRstN);
    r.in[P::kLkValid] = Bits(1, 1);
    r.in[P::kLkPc].set(0, spec_.pc_bits, pc);
    ctx_.Eval(r);
    const bool hit = r.out[P::kLkHit].bit(0), miss = r.out[P::kLkMiss].bit(0);
    if (hit != f.hit || miss == f.hit)
      ctx_.Fail(r, fmt::format("{}: lookup of pir group {} (PC {:#x}): lk_hit_o {} lk_miss_o {}, "
                               "the system's cache {}",
                               ctx_.Where(), f.group, pc, hit ? 1 : 0, miss ? 1 : 0,
                               f.hit ? "hits" : "misses"));
    if (hit) {
      const uint64_t got = r.out[P::kLkFlags].get(0, spec_.payload_bits);
      if (got != flags)
        ctx_.Fail(r, fmt::format("{}: lookup of pir group {} (PC {:#x}): lk_flags_o is {:#x}, the "
                                 "pir's release flags are {:#x}",
                                 ctx_.Where(), f.group, pc, got, flags));
    }
    ++(hit ? hits_ : misses_);
    ctx_.Clock(r);
    if (!hit) {
      r.IdleOutOfReset(P::kRstN);
      r.in[P::kFillValid] = Bits(1, 1);
      r.in[P::kFillPc].set(0, spec_.pc_bits, pc);
      r.in[P::kFillFlags].set(0, spec_.payload_bits, flags);
      ctx_.Eval(r);
      ctx_.Clock(r);
    }
    r.IdleOutOfReset(P::kRstN);
    ctx_.Eval(r);
    const uint64_t h = r.out[P::kHitCount].get(0, 32), m = r.out[P::kMissCount].get(0, 32);
    if (h != (hits_ & 0xffffffffU) || m != (misses_ & 0xffffffffU))
      ctx_.Fail(r, fmt::format("{}: hit_count_o {} miss_count_o {}, the system's cache had {} hits "
                               "and {} misses",
                               ctx_.Where(), h, m, hits_, misses_));
  }

  ReleaseFlagCacheSpec spec_;
  uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace

GPURF_REGISTER(RtlTransactorKind, release_flag_cache, "release-flag-cache",
               (RtlTransactorKind{
                   .register_home = false,
                   .warp_slots = [](const StructureSpec&) { return 0; },
                   .kernel_problem = nullptr,
                   .make = [](const RtlStructure& s, RtlDut dut,
                              RtlLoopContext& ctx) -> std::unique_ptr<RtlTransactor> {
                     return std::make_unique<ReleaseFlagCacheTransactor>(s, std::move(dut), ctx);
                   },
               }))

}  // namespace gpurf::harness
