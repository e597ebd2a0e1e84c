// The tag array's transactor in the RTL loop (transactor.h), for the cerf hierarchy (Jing et al.'s
// cache-emulated register file, sim/harness/hierarchies/cerf_system.h). Every lookup the cerf
// system makes in its TagArray (tag_array_transactions.h) is driven, in the system's order, into
// the Verilated tag array as requests of at most NumLookups lookups (one instruction's distinct
// source registers, its result registers, one memory line, a finished warp's registers), and
// every answer of the RTL must be the system's: hit or miss, way, the line's state before and
// after (Fig. 6), whether a line was replaced, the victim's state (reg: a spill, dirty: a
// write-back) and its line address. Bank conflicts: the RTL serves one lookup per bank per cycle;
// the cycles a request takes beyond the first, and the RTL's conflict_cycles_o, must equal the
// serialization this transactor computes from the lookups' banks, and for an instruction's
// operands the operand delay the system charged.
//
// Re-indexing (RGen). The system packs warp registers densely (cerf_rgen.h: register address
// warp x regs + reg, regs = the kernel's registers per thread rounded up to the allocation
// unit, below an all-ones prefix). The transactor computes that address itself from the warp and
// register (an independent implementation; only the system's count of warp contexts, which sets
// the prefix's position, comes with the request) and compares it with the address the system
// looked up. The RTL's own RGen is the concatenation {all-ones prefix, lk_warp_i, lk_reg_i,
// offset}; the transactor drives the bits of the dense register address above the RTL's prefix into
// those two fields (warp field the high part, register field the low part), so the RTL assembles
// the same line address (checked on rsp_addr_o); the multiplication warp x regs is the
// transactor's, the prefix, the field layout and the bank / set / tag split are the RTL's. This
// needs the dense register address to fit WarpBits + RegBits and the prefix to be all ones
// (hierarchy.address_prefix -1; another prefix is refused before the run starts).
//
// Narrower RGen fields. A kernel that keeps fewer warps resident than the SM has runs on RTL
// generated for those warps (driver.cc RtlForResidentWarps), whose RGen fields can be narrower
// than the system's register addresses (packed for all of the SM's warp contexts). The warps in
// use are then below the RTL's warp count, so the bits of a register address between the two
// widths are zero (checked: a lookup where they are not stops the run); the RTL takes them as
// prefix ones. Its register lines then differ from the system's in those bits only, the same for
// every register (the set bits and every other tag bit are equal), so hits, ways, states and
// victims are the same, and the transactor compares rsp_addr_o and rsp_victim_addr_o with the
// system's addresses with those bits set.
//
// Register home. The cerf system's data array is the MRF's banks, and the MRF transactor is the
// home: it holds every register of every warp for the whole run (operand reads, result writes,
// value checks), whether or not the tag array holds the register's line. A spill and its fill
// move the value to the L2 and back unchanged, so the home's row is the value a fill returns; the
// cache lines of the data array (L1D data) are not in the loop (the memory system keeps no data).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <vector>

#include "base/int_math.h"
#include "base/registry.h"
#include "gen/structures/registry.h"
#include "gen/structures/tag_array/tag_array_ports.h"
#include "gen/structures/tag_array/tag_array_spec.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/tag_array_transactions.h"

namespace gpurf::harness {
namespace {

using P = TagArrayPort;
using S = TagArraySpec;

// Bits of the dense register address (at least one).
int RegAddrBits(const sim::Kernel& k, const sim::SmConfig& sm) {
  return IndexBits(static_cast<uint64_t>(sm.warps) *
                   static_cast<uint64_t>(sim::AllocatedRegsPerThread(k, sm)));
}

std::string KernelProblem(const StructureSpec& st, const sim::Kernel& k, const sim::SmConfig& sm) {
  const S& s = SpecAs<S>(st);
  const int ra = RegAddrBits(k, sm);
  if (ra <= s.warp_bits + s.reg_bits)
    return {};
  return fmt::format(
      "kernel {}: {} warps x {} registers need {} register-address bits, the tag array's RGen "
      "fields (lk_warp_i, lk_reg_i) have {}",
      k.name, sm.warps, sim::AllocatedRegsPerThread(k, sm), ra, s.warp_bits + s.reg_bits);
}

const char* OpName(S::Op op) {
  switch (op) {
    case S::kReadReg:
      return "read-reg";
    case S::kWriteReg:
      return "write-reg";
    case S::kLoad:
      return "load";
    case S::kStore:
      return "store";
  }
  return "?";
}

const char* CauseName(TagRequest::Cause c) {
  switch (c) {
    case TagRequest::Cause::kOperands:
      return "operand lookups";
    case TagRequest::Cause::kResults:
      return "result lookups";
    case TagRequest::Cause::kMemory:
      return "memory lookup";
    case TagRequest::Cause::kExitFree:
      return "exit frees";
  }
  return "?";
}

class TagArrayTransactor : public RtlTransactor {
 public:
  TagArrayTransactor(const RtlStructure& st, RtlDut dut, RtlLoopContext& ctx)
      : RtlTransactor(std::move(dut), ctx), s_(SpecAs<S>(st.spec)) {
    if (const std::string p = KernelProblem(st.spec, ctx.kernel(), ctx.sm()); !p.empty())
      throw std::runtime_error("RTL in the loop: " + p);
    regs_ = sim::AllocatedRegsPerThread(ctx.kernel(), ctx.sm());
    off_mask_ = (uint64_t{1} << s_.offset_bits) - 1;
  }

  bool Transaction(const StructureTransaction& t) override {
    const auto* r = t.As<TagRequest>();
    if (r == nullptr)
      return false;
    Request(*r);
    return true;
  }

 private:
  // The dense reg-mem line address of (warp, reg) for `warps` warp contexts, computed here (see
  // the file comment).
  uint64_t RegAddress(int warps, int warp, int reg) const {
    const uint64_t ra =
        static_cast<uint64_t>(warp) * static_cast<uint64_t>(regs_) + static_cast<uint64_t>(reg);
    const int low = s_.offset_bits + RaBits(warps);
    return ((s_.AddrMask() >> low) << low) | (ra << s_.offset_bits);
  }
  int RaBits(int warps) const {
    return IndexBits(static_cast<uint64_t>(warps) * static_cast<uint64_t>(regs_));
  }

  std::string Describe(const TagRequest& t, const TagLookup& l) const {
    if (l.warp >= 0)
      return fmt::format("{} ({} of R{} of warp {}, line {:#x})", CauseName(t.cause), OpName(l.op),
                         l.reg, l.warp, l.addr);
    return fmt::format("{} ({} of line {:#x})", CauseName(t.cause), OpName(l.op), l.addr);
  }

  // Fails when `actual` differs from the system's `expected` on signal `sig` of lookup port `p`.
  void Expect(const TagRequest& t, const TagLookup& l, int p, const char* sig, uint64_t expected,
              uint64_t actual) {
    if (expected == actual)
      return;
    ctx_.Fail(dut_, fmt::format("{}: {}: signal {}[{}]: expected {:#x} (the cerf system's "
                                "tag array), actual {:#x}",
                                Where(t), Describe(t, l), sig, p, expected, actual));
  }

  std::string Where(const TagRequest& t) const {
    if (t.cause == TagRequest::Cause::kMemory)
      return "memory side";
    if (t.cause == TagRequest::Cause::kExitFree)
      return fmt::format("CTA exit of warp {}", t.lookups.front().warp);
    return ctx_.Where();
  }

  void Request(const TagRequest& t) {
    const auto& ls = t.lookups;
    // The re-indexing: the system's register addresses against this transactor's.
    // The system's warp contexts are the SM partition's, which may be more than the RTL's (a
    // kernel that keeps fewer warps resident gets structures generated for those): its register
    // addresses must still fit the RTL's RGen fields.
    if (t.rgen_regs != regs_)
      ctx_.Fail(dut_, fmt::format("{}: {}: the cerf system re-indexes {} registers per warp, the "
                                  "kernel's {} rounded to the allocation unit are {}",
                                  Where(t), CauseName(t.cause), t.rgen_regs,
                                  ctx_.kernel().regs_per_thread, regs_));
    ra_sys_ = RaBits(t.rgen_warps);
    std::vector<int> per_bank(static_cast<size_t>(s_.banks), 0);
    for (const TagLookup& l : ls) {
      if (l.warp >= 0) {
        const uint64_t want = RegAddress(t.rgen_warps, l.warp, l.reg);
        if (want != l.addr)
          ctx_.Fail(dut_, fmt::format("{}: {}: the cerf system re-indexed R{} of warp {} to line "
                                      "{:#x}, the transactor's RGen to {:#x}",
                                      Where(t), Describe(t, l), l.reg, l.warp, l.addr, want));
      }
      ++per_bank[static_cast<size_t>(s_.BankOf(l.addr))];
    }
    if (t.conflict_cycles >= 0) {
      const int want = *std::max_element(per_bank.begin(), per_bank.end()) - 1;
      if (want != t.conflict_cycles)
        ctx_.Fail(dut_, fmt::format("{}: {}: the cerf system charged {} bank-conflict cycles, "
                                    "the lookups' banks serialize {}",
                                    Where(t), CauseName(t.cause), t.conflict_cycles, want));
    }
    const size_t n = static_cast<size_t>(s_.lookups);
    for (size_t base = 0; base < ls.size(); base += n)
      Chunk(t, base, std::min(ls.size(), base + n));
  }

  // The RTL's line address for the system's line address `a` (see "Narrower RGen fields" in the
  // file comment): the same address, unless the system's register-address field is wider than
  // the RTL's fields and `a` is a register line, whose bits between the two widths must then be
  // zero and become the RTL's all-ones prefix bits.
  uint64_t ToRtl(const TagRequest& t, const TagLookup& l, uint64_t a) const {
    const int f = s_.warp_bits + s_.reg_bits;
    if (ra_sys_ <= f)
      return a;
    const int hi = s_.offset_bits + ra_sys_;
    if (hi >= s_.addr_width || (a >> hi) != (s_.AddrMask() >> hi))
      return a;  // not a register line
    const uint64_t mid = ((uint64_t{1} << (ra_sys_ - f)) - 1) << (s_.offset_bits + f);
    if ((a & mid) != 0)
      ctx_.Fail(dut_,
                fmt::format("{}: {}: register line {:#x} of the cerf system's {}-bit "
                            "register addresses does not fit the RTL's {}-bit RGen fields "
                            "(a warp above the {} the RTL was generated for)",
                            Where(t), Describe(t, l), a, ra_sys_, f, uint64_t{1} << s_.warp_bits));
    return a | mid;
  }

  // One request of the RTL: lookups [b, e) of `t`.
  void Chunk(const TagRequest& t, size_t b, size_t e) {
    RtlDut& r = dut_;
    const int aw = s_.addr_width;
    const size_t count = e - b;
    std::vector<int> per_bank(static_cast<size_t>(s_.banks), 0);
    r.IdleOutOfReset(P::kRstN);
    r.in[P::kReqValid] = Bits(1, 1);
    for (size_t k = 0; k < count; ++k) {
      const TagLookup& l = t.lookups[b + k];
      const int ik = static_cast<int>(k);
      ++per_bank[static_cast<size_t>(s_.BankOf(l.addr))];
      r.in[P::kLkValid].set_bit(ik, true);
      r.in[P::kLkOp].set(2 * ik, 2, static_cast<uint64_t>(l.op));
      r.in[P::kLkLast].set_bit(ik, l.last);
      if (l.warp >= 0) {
        // The line-address bits the RTL's RGen takes from lk_warp_i and lk_reg_i.
        const uint64_t field = ToRtl(t, l, l.addr) >> s_.offset_bits;
        r.in[P::kLkReg].set(ik * s_.reg_bits, s_.reg_bits,
                            field & ((uint64_t{1} << s_.reg_bits) - 1));
        r.in[P::kLkWarp].set(ik * s_.warp_bits, s_.warp_bits,
                             (field >> s_.reg_bits) & ((uint64_t{1} << s_.warp_bits) - 1));
      } else {
        r.in[P::kLkAddr].set(ik * aw, aw, l.addr);
      }
    }
    const int serial = *std::max_element(per_bank.begin(), per_bank.end()) - 1;
    std::vector<bool> served(count, false);
    size_t left = count;
    int cycles = 0;
    uint64_t counter_before = 0;
    for (; left > 0; ++cycles) {
      if (cycles > static_cast<int>(count))
        ctx_.Fail(r, fmt::format("{}: {}: {} of {} lookups not served after {} cycles", Where(t),
                                 CauseName(t.cause), left, count, cycles));
      ctx_.Eval(r);
      if (cycles == 0) {
        if (!r.out[P::kReqReady].bit(0))
          ctx_.Fail(r, fmt::format("{}: {}: signal req_ready_o: expected 1 (no lookup pending), "
                                   "actual 0",
                                   Where(t), CauseName(t.cause)));
        counter_before = r.out[P::kConflictCycles].get(0, 32);
      }
      for (size_t k = 0; k < count; ++k) {
        const int ik = static_cast<int>(k);
        if (!r.out[P::kRspValid].bit(ik))
          continue;
        if (served[k])
          ctx_.Fail(r, fmt::format("{}: {}: signal rsp_valid_o[{}]: lookup served twice", Where(t),
                                   Describe(t, t.lookups[b + k]), k));
        served[k] = true;
        --left;
        Check(t, t.lookups[b + k], ik);
      }
      for (size_t k = count; k < static_cast<size_t>(s_.lookups); ++k) {
        if (r.out[P::kRspValid].bit(static_cast<int>(k)))
          ctx_.Fail(r, fmt::format("{}: {}: signal rsp_valid_o[{}]: expected 0 (no lookup "
                                   "offered), actual 1",
                                   Where(t), CauseName(t.cause), k));
      }
      ctx_.Clock(r);
      // The request is latched at acceptance: idle inputs from the next cycle on.
      r.IdleOutOfReset(P::kRstN);
    }
    if (cycles - 1 != serial)
      ctx_.Fail(r, fmt::format("{}: {}: the request took {} cycles, its banks serialize to {}",
                               Where(t), CauseName(t.cause), cycles, serial + 1));
    ctx_.Eval(r);
    const uint64_t counter = r.out[P::kConflictCycles].get(0, 32);
    const uint64_t delta = (counter - counter_before) & 0xffffffffULL;
    if (delta != static_cast<uint64_t>(serial))
      ctx_.Fail(r, fmt::format("{}: {}: signal conflict_cycles_o: expected +{}, actual +{}",
                               Where(t), CauseName(t.cause), serial, delta));
  }

  // The response of lookup port `p` against the system's answer.
  void Check(const TagRequest& t, const TagLookup& l, int p) {
    const RtlDut& r = dut_;
    const int aw = s_.addr_width, wb = s_.way_bits;
    const TagArray::Result& x = l.res;
    const uint64_t line = ToRtl(t, l, l.addr & ~off_mask_ & s_.AddrMask());
    Expect(t, l, p, "rsp_addr_o", line, r.out[P::kRspAddr].get(p * aw, aw));
    Expect(t, l, p, "rsp_hit_o", x.hit ? 1 : 0, r.out[P::kRspHit].bit(p) ? 1 : 0);
    Expect(t, l, p, "rsp_way_o", x.hit || x.filled ? static_cast<uint64_t>(x.way) : 0,
           wb > 0 ? r.out[P::kRspWay].get(p * wb, wb) : 0);
    Expect(t, l, p, "rsp_state_o", static_cast<uint64_t>(x.before),
           r.out[P::kRspState].get(2 * p, 2));
    Expect(t, l, p, "rsp_next_o", static_cast<uint64_t>(x.after), r.out[P::kRspNext].get(2 * p, 2));
    Expect(t, l, p, "rsp_victim_valid_o", x.victim ? 1 : 0,
           r.out[P::kRspVictimValid].bit(p) ? 1 : 0);
    Expect(t, l, p, "rsp_victim_state_o", x.victim ? static_cast<uint64_t>(x.victim_state) : 0,
           r.out[P::kRspVictimState].get(2 * p, 2));
    Expect(t, l, p, "rsp_victim_addr_o", x.victim ? ToRtl(t, l, x.victim_addr) : 0,
           r.out[P::kRspVictimAddr].get(p * aw, aw));
  }

  S s_;
  int regs_ = 0;
  int ra_sys_ = 0;  // bits of the system's register addresses (of the request being driven)
  uint64_t off_mask_ = 0;
};

}  // namespace

GPURF_REGISTER(RtlTransactorKind, tag_array, "tag-array",
               (RtlTransactorKind{
                   .register_home = false,
                   .warp_slots = [](const StructureSpec&) { return 0; },
                   .kernel_problem = KernelProblem,
                   .make = [](const RtlStructure& s, RtlDut dut,
                              RtlLoopContext& ctx) -> std::unique_ptr<RtlTransactor> {
                     return std::make_unique<TagArrayTransactor>(s, std::move(dut), ctx);
                   },
               }))

}  // namespace gpurf::harness
