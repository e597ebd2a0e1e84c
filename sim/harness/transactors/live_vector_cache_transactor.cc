// The live-register vector cache's transactor in the RTL loop (transactor.h), for the finereg
// hierarchy (finereg_transactions.h; Oh et al., MICRO 2018, section V-C, Fig. 10): every lookup
// the FineReg system makes for a stalled warp's PC becomes the RTL's lookup, and the RTL must
// decide as the system did.
//   - Lookup: lk_valid_i with the PC; lk_ready_o must be high (the unit is idle between lookups)
//     and lk_hit_o the system's hit or miss.
//   - Miss: the RTL must then request the vector (mem_req_valid_o with the same PC); the
//     transactor takes the request and answers at once with the instruction's live-register
//     vector (the memory latency is the system's vector_miss_cycles, timed there: the RTL is
//     clocked only when it has something to do).
//   - Decode: the register index decoder's groups are taken until dec_last_o; the indices must be
//     the vector's set bits in ascending order -- the registers the save moves for the warp --
//     and dec_live_o the vector's live count. hit_count_o and miss_count_o must count the
//     lookups the loop made.
// PCs. The system's cache is indexed by the instruction (8-byte instructions, finereg_system.h);
// the RTL gets PC = instruction index << align_bits, so line and tag are the system's as long as
// the kernel's instructions fit the PC's bits (checked).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bit>
#include <stdexcept>
#include <vector>

#include "base/registry.h"
#include "gen/structures/live_vector_cache/live_vector_cache_ports.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/finereg_transactions.h"

namespace gpurf::harness {
namespace {

using P = LiveVectorCachePort;

std::string KernelProblem(const StructureSpec& s, const sim::Kernel& k, const sim::SmConfig&) {
  const LiveVectorCacheSpec& c = SpecAs<LiveVectorCacheSpec>(s);
  const int pc_bits = c.pc_bits - c.align_bits;
  if (pc_bits < 63 && k.code.size() > (1ULL << pc_bits))
    return fmt::format("kernel {} has {} instructions, the live-vector-cache's {}-bit PCs name {}",
                       k.name, k.code.size(), c.pc_bits, 1ULL << pc_bits);
  return {};
}

class LiveVectorCacheTransactor : public RtlTransactor {
 public:
  LiveVectorCacheTransactor(const RtlStructure& s, RtlDut dut, RtlLoopContext& ctx)
      : RtlTransactor(std::move(dut), ctx), spec_(SpecAs<LiveVectorCacheSpec>(s.spec)) {
    if (const std::string p = KernelProblem(s.spec, ctx.kernel(), ctx.sm()); !p.empty())
      throw std::runtime_error("RTL in the loop: " + p);
  }

  bool Transaction(const StructureTransaction& t) override {
    const auto* l = t.As<LvcLookup>();
    if (l == nullptr)
      return false;
    Lookup(*l);
    return true;
  }

 private:
  void Lookup(const LvcLookup& l) {
    RtlDut& r = dut_;
    ctx_.Blame(l.warp, l.inst);
    const std::string where = ctx_.Where(l.warp, l.inst);
    const uint64_t pc = static_cast<uint64_t>(l.inst) << spec_.align_bits;
    if (spec_.vector_bits < 64 && (l.vector >> spec_.vector_bits) != 0)
      ctx_.Fail(r, fmt::format("{}: live-register vector {:#x} has registers beyond the "
                               "live-vector-cache's {} bits",
                               where, l.vector, spec_.vector_bits));
    r.IdleOutOfReset(P::kRstN);
    r.in[P::kLkValid] = Bits(1, 1);
    r.in[P::kLkPc].set(0, spec_.pc_bits, pc);
    ctx_.Eval(r);
    if (!r.out[P::kLkReady].bit(0))
      ctx_.Fail(r,
                fmt::format("{}: lookup of PC {:#x}: lk_ready_o is 0 between lookups", where, pc));
    const bool hit = r.out[P::kLkHit].bit(0);
    if (hit != l.hit)
      ctx_.Fail(r, fmt::format("{}: lookup of PC {:#x} (line {}): lk_hit_o is {}, the system's "
                               "vector cache {}",
                               where, pc, spec_.Index(pc), hit ? 1 : 0, l.hit ? "hits" : "misses"));
    ctx_.Clock(r);
    (l.hit ? hits_ : misses_) += 1;
    ++ctx_.activity().vector_lookups;
    if (!l.hit)
      Fill(r, l, pc, where);
    Decode(r, l, where);
    r.IdleOutOfReset(P::kRstN);
    ctx_.Eval(r);
    const uint64_t h = r.out[P::kHitCount].get(0, 32), m = r.out[P::kMissCount].get(0, 32);
    if (h != (hits_ & 0xffffffffULL) || m != (misses_ & 0xffffffffULL))
      ctx_.Fail(r, fmt::format("{}: after the lookup of PC {:#x}: hit_count_o {} miss_count_o {}, "
                               "the loop made {} hits and {} misses",
                               where, pc, h, m, hits_, misses_));
  }

  // The miss's request, taken in its first cycle, and the vector's response in the next.
  void Fill(RtlDut& r, const LvcLookup& l, uint64_t pc, const std::string& where) {
    r.IdleOutOfReset(P::kRstN);
    r.in[P::kMemReqReady] = Bits(1, 1);
    ctx_.Eval(r);
    if (!r.out[P::kMemReqValid].bit(0) || r.out[P::kMemReqPc].get(0, spec_.pc_bits) != pc)
      ctx_.Fail(r, fmt::format("{}: after the miss of PC {:#x}: mem_req_valid_o {} mem_req_pc_o "
                               "{:#x}, the vector of PC {:#x} must be requested",
                               where, pc, r.out[P::kMemReqValid].bit(0) ? 1 : 0,
                               r.out[P::kMemReqPc].get(0, spec_.pc_bits), pc));
    ctx_.Clock(r);
    r.IdleOutOfReset(P::kRstN);
    r.in[P::kMemRespValid] = Bits(1, 1);
    r.in[P::kMemRespVector].set(0, std::min(64, spec_.vector_bits), l.vector);
    ctx_.Eval(r);
    if (r.out[P::kDecValid].bit(0))
      ctx_.Fail(
          r, fmt::format("{}: miss of PC {:#x}: dec_valid_o before the vector arrived", where, pc));
    ctx_.Clock(r);
  }

  // The decoder's groups until the last: the vector's registers, ascending.
  void Decode(RtlDut& r, const LvcLookup& l, const std::string& where) {
    std::vector<int> want, got;
    for (int b = 0; b < 64; ++b) {
      if ((l.vector >> b) & 1)
        want.push_back(b);
    }
    const int live = std::popcount(l.vector);
    // A group per cycle; an empty vector gives one empty group.
    const size_t bound = want.size() + 2;
    bool last = false;
    for (size_t c = 0; c < bound && !last; ++c) {
      r.IdleOutOfReset(P::kRstN);
      r.in[P::kDecReady] = Bits(1, 1);
      ctx_.Eval(r);
      if (!r.out[P::kDecValid].bit(0))
        ctx_.Fail(r, fmt::format("{}: decode of vector {:#x}: dec_valid_o is 0 after {} of its {} "
                                 "registers",
                                 where, l.vector, got.size(), want.size()));
      const int n = static_cast<int>(r.out[P::kDecCount].get(0, spec_.cnt_bits));
      for (int i = 0; i < n && i < spec_.decode_width; ++i)
        got.push_back(static_cast<int>(r.out[P::kDecIdx].get(i * spec_.reg_bits, spec_.reg_bits)));
      const int dl = static_cast<int>(r.out[P::kDecLive].get(0, spec_.live_bits));
      if (dl != live)
        ctx_.Fail(r, fmt::format("{}: decode of vector {:#x}: dec_live_o is {}, the vector has {} "
                                 "live registers",
                                 where, l.vector, dl, live));
      last = r.out[P::kDecLast].bit(0);
      ctx_.Clock(r);
    }
    if (!last || got != want)
      ctx_.Fail(r, fmt::format("{}: decode of vector {:#x}: the decoder gave registers [{}]{}, "
                               "the save moves [{}]",
                               where, l.vector, fmt::join(got, ", "),
                               last ? "" : " without dec_last_o", fmt::join(want, ", ")));
  }

  LiveVectorCacheSpec spec_;
  uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace

GPURF_REGISTER(RtlTransactorKind, live_vector_cache, "live-vector-cache",
               (RtlTransactorKind{
                   .register_home = false,
                   .warp_slots = [](const StructureSpec&) { return 0; },
                   .kernel_problem = KernelProblem,
                   .make = [](const RtlStructure& s, RtlDut dut,
                              RtlLoopContext& ctx) -> std::unique_ptr<RtlTransactor> {
                     return std::make_unique<LiveVectorCacheTransactor>(s, std::move(dut), ctx);
                   },
               }))

}  // namespace gpurf::harness
