// The renaming table's transactor in the RTL loop (transactor.h), for the renaming hierarchy
// (renaming_transactions.h). Each transaction of the renaming system is one request, or one per
// three sources, held until the RTL has served all of it (the table serves one entry per bank
// and cycle; the RTL cycles it waits on bank conflicts are counted, and conflict_cycles_o must
// count the same):
//   - lookup: an instruction request with the renamed sources (the pir bit as src_release_i);
//     each source must answer the system's mapping (src_mapped_o, src_phys_o) and every released
//     mapping must leave on its bank's free port, once;
//   - destination: an instruction request with only the destination; dst_alloc_o must be the
//     system's map-on-first-write and dst_phys_o its physical register;
//   - release: a release request with the pbr list (rel_mask_i), or the exit request when the
//     warp exits; the free ports must return exactly the system's released ids.
// The table runs with exempt_i = 0 and table register numbers (the rank among the compiler's
// renamed registers): the renaming system maps the registers it does not rename through the
// availability vectors like the others, not at the fixed ids warp*N + r of the table's exempt
// path (docs/renaming-table.md, "RTL in the loop").
#include <fmt/format.h>

#include <algorithm>

#include "base/registry.h"
#include "gen/structures/renaming_table/renaming_table_ports.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/renaming_transactions.h"

namespace gpurf::harness {
namespace {

using P = RenamingTablePort;
using S = RenamingTableSpec;

class RenamingTableTransactor : public RtlTransactor {
 public:
  RenamingTableTransactor(const RtlStructure& s, RtlDut dut, RtlLoopContext& ctx)
      : RtlTransactor(std::move(dut), ctx), spec_(SpecAs<RenamingTableSpec>(s.spec)) {}

  bool Transaction(const StructureTransaction& t) override {
    if (const auto* l = t.As<RtLookup>()) {
      for (size_t base = 0; base < l->srcs.size(); base += S::kSources)
        Lookup(l->warp, l->srcs, base);
      return true;
    }
    if (const auto* d = t.As<RtDestination>()) {
      Destination(*d);
      return true;
    }
    if (const auto* r = t.As<RtRelease>()) {
      Release(*r);
      return true;
    }
    return false;
  }

 private:
  std::string Where(uint32_t warp) const {
    return ctx_.inst() != ~0U ? ctx_.Where(warp, ctx_.inst()) : fmt::format("warp {}", warp);
  }

  void CheckReg(RtlDut& r, uint32_t warp, int reg) {
    if (reg < 0 || reg >= spec_.window || reg >= spec_.regs)
      ctx_.Fail(r, fmt::format("{}: table register {} is outside the table's {} entries per warp "
                               "(the compiler renamed more registers than the table holds)",
                               Where(warp), reg, spec_.window));
    if (static_cast<int>(warp) >= spec_.warps)
      ctx_.Fail(
          r, fmt::format("{}: warp slot {} beyond the table's {}", Where(warp), warp, spec_.warps));
  }

  // Offers a request (inputs set by `set`) and checks it is accepted: req_ready_o high and the
  // conflict counter the transactor's.
  template <class F>
  void Offer(RtlDut& r, uint32_t warp, int op, F&& set) {
    r.IdleOutOfReset(P::kRstN);
    r.in[P::kReqValid] = Bits(1, 1);
    r.in[P::kReqOp].set(0, 2, static_cast<uint64_t>(op));
    r.in[P::kReqWarp].set(0, spec_.warp_bits, warp);
    set();
    ctx_.Eval(r);
    if (!r.out[P::kReqReady].bit(0))
      ctx_.Fail(r, fmt::format("{}: req_ready_o is low for a new request (an earlier request "
                               "still pending, the system has none)",
                               Where(warp)));
    const uint64_t cc = r.out[P::kConflictCycles].get(0, 32);
    if (cc != (conflicts_ & 0xffffffffU))
      ctx_.Fail(r, fmt::format("{}: conflict_cycles_o is {}, the transactor counted {} cycles of "
                               "pending instruction requests",
                               Where(warp), cc, conflicts_));
  }

  // The next cycle of a request already accepted: the request inputs low.
  void Continue(RtlDut& r) {
    ctx_.Clock(r);
    r.IdleOutOfReset(P::kRstN);
    ctx_.Eval(r);
  }

  // Checks the free ports of this cycle against `frees` (ids still to be released), removing
  // what they show.
  void Frees(RtlDut& r, uint32_t warp, std::vector<int>& frees) {
    for (int b = 0; b < spec_.banks; ++b) {
      if (!r.out[P::kFreeValid].bit(b))
        continue;
      const int id =
          static_cast<int>(r.out[P::kFreePhys].get(b * spec_.phys_bits, spec_.phys_bits));
      const auto it = std::find(frees.begin(), frees.end(), id);
      if (it == frees.end())
        ctx_.Fail(r, fmt::format("{}: free_valid_o[{}] releases physical register {}, the system "
                                 "releases {}",
                                 Where(warp), b, id, List(frees)));
      frees.erase(it);
    }
  }

  static std::string List(const std::vector<int>& v) {
    if (v.empty())
      return "none now";
    std::string s;
    for (int x : v)
      s += (s.empty() ? "" : ", ") + std::to_string(x);
    return s;
  }

  int Limit() const { return 2 * spec_.window + 4; }

  void Lookup(uint32_t warp, const std::vector<RtSource>& srcs, size_t base) {
    RtlDut& r = dut_;
    const size_t n = std::min<size_t>(S::kSources, srcs.size() - base);
    std::vector<int> frees;
    for (size_t k = 0; k < n; ++k) {
      CheckReg(r, warp, srcs[base + k].reg);
      if (srcs[base + k].release && srcs[base + k].phys >= 0)
        frees.push_back(srcs[base + k].phys);
    }
    Offer(r, warp, S::kInstr, [&] {
      for (size_t k = 0; k < n; ++k) {
        const int ik = static_cast<int>(k);
        r.in[P::kSrcValid].set_bit(ik, true);
        r.in[P::kSrcReg].set(ik * spec_.reg_bits, spec_.reg_bits,
                             static_cast<uint64_t>(srcs[base + k].reg));
        r.in[P::kSrcRelease].set_bit(ik, srcs[base + k].release);
      }
    });
    std::vector<bool> served(n, false);
    for (int cyc = 0;; ++cyc) {
      for (size_t k = 0; k < n; ++k) {
        const int ik = static_cast<int>(k);
        if (!r.out[P::kSrcServed].bit(ik))
          continue;
        if (served[k])
          ctx_.Fail(r, fmt::format("{}: source {} (table R{}) served twice", Where(warp), k,
                                   srcs[base + k].reg));
        served[k] = true;
        const RtSource& s = srcs[base + k];
        const bool mapped = r.out[P::kSrcMapped].bit(ik);
        const int phys =
            static_cast<int>(r.out[P::kSrcPhys].get(ik * spec_.phys_bits, spec_.phys_bits));
        if (mapped != (s.phys >= 0) || (mapped && phys != s.phys))
          ctx_.Fail(r, fmt::format("{}: lookup of table R{} (source {}): src_mapped_o {} "
                                   "src_phys_o {}, the system {}",
                                   Where(warp), s.reg, k, mapped ? 1 : 0, phys,
                                   s.phys >= 0 ? fmt::format("maps it to {}", s.phys)
                                               : std::string("holds no mapping")));
      }
      Frees(r, warp, frees);
      if (std::all_of(served.begin(), served.end(), [](bool b) { return b; }) && frees.empty())
        break;
      if (cyc >= Limit())
        ctx_.Fail(r, fmt::format("{}: lookup not served after {} cycles (releases owed: {})",
                                 Where(warp), cyc + 1, List(frees)));
      ++conflicts_;
      Continue(r);
    }
    ctx_.Clock(r);
    ++lookups_;
  }

  void Destination(const RtDestination& d) {
    RtlDut& r = dut_;
    CheckReg(r, d.warp, d.reg);
    Offer(r, d.warp, S::kInstr, [&] {
      r.in[P::kDstValid] = Bits(1, 1);
      r.in[P::kDstReg].set(0, spec_.reg_bits, static_cast<uint64_t>(d.reg));
      r.in[P::kDstPhys].set(0, spec_.phys_bits, static_cast<uint64_t>(d.phys));
    });
    for (int cyc = 0; !r.out[P::kDstServed].bit(0); ++cyc) {
      if (cyc >= Limit())
        ctx_.Fail(r, fmt::format("{}: destination table R{} not served after {} cycles",
                                 Where(d.warp), d.reg, cyc + 1));
      ++conflicts_;
      Continue(r);
    }
    const bool alloc = r.out[P::kDstAlloc].bit(0);
    const int phys = static_cast<int>(r.out[P::kDstPhysOut].get(0, spec_.phys_bits));
    if (alloc != d.alloc || phys != d.phys)
      ctx_.Fail(r,
                fmt::format("{}: destination table R{}: dst_alloc_o {} dst_phys_o {}, the system "
                            "{} {}",
                            Where(d.warp), d.reg, alloc ? 1 : 0, phys,
                            d.alloc ? "maps it (first write) to" : "keeps its mapping", d.phys));
    if (r.out[P::kFreeValid].any())
      ctx_.Fail(r, fmt::format("{}: destination table R{}: free_valid_o is {}, a destination "
                               "releases nothing",
                               Where(d.warp), d.reg, r.out[P::kFreeValid].hex()));
    ctx_.Clock(r);
    allocs_ += d.alloc ? 1 : 0;
  }

  void Release(const RtRelease& rel) {
    RtlDut& r = dut_;
    std::vector<int> frees;
    for (const auto& [reg, phys] : rel.regs) {
      CheckReg(r, rel.warp, reg);
      frees.push_back(phys);
    }
    Offer(r, rel.warp, rel.exit ? S::kExit : S::kRelease, [&] {
      if (!rel.exit) {
        for (const auto& [reg, phys] : rel.regs)
          r.in[P::kRelMask].set_bit(reg, true);
      }
    });
    for (int cyc = 0;; ++cyc) {
      Frees(r, rel.warp, frees);
      if (frees.empty())
        break;
      if (cyc >= Limit())
        ctx_.Fail(
            r, fmt::format("{}: {} request: physical registers {} not released after {} "
                           "cycles",
                           Where(rel.warp), rel.exit ? "exit" : "release", List(frees), cyc + 1));
      Continue(r);
    }
    ctx_.Clock(r);
    releases_ += rel.regs.size();
  }

  RenamingTableSpec spec_;
  uint64_t conflicts_ = 0, lookups_ = 0, allocs_ = 0, releases_ = 0;
};

}  // namespace

GPURF_REGISTER(RtlTransactorKind, renaming_table, "renaming-table",
               (RtlTransactorKind{
                   .register_home = false,
                   .warp_slots = [](const StructureSpec&) { return 0; },
                   .kernel_problem = nullptr,
                   .make = [](const RtlStructure& s, RtlDut dut,
                              RtlLoopContext& ctx) -> std::unique_ptr<RtlTransactor> {
                     return std::make_unique<RenamingTableTransactor>(s, std::move(dut), ctx);
                   },
               }))

}  // namespace gpurf::harness
