// The availability vectors' transactor in the RTL loop (transactor.h), for the renaming
// hierarchy (renaming_transactions.h): every allocation the renaming system makes is offered on
// the bank's allocation request and held until the RTL grants it; the RTL must grant the row the
// system chose, after the wake-up latency exactly when the system woke a gated subarray (0 stall
// cycles otherwise), and never answer "no free register". Every release goes on release port 0.
// Before each, the bank's free count must be the system's.
#include <fmt/format.h>

#include "base/registry.h"
#include "gen/structures/availability_vectors/availability_vectors_ports.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/renaming_transactions.h"

namespace gpurf::harness {
namespace {

using P = AvailabilityVectorsPort;

class AvailabilityVectorsTransactor : public RtlTransactor {
 public:
  AvailabilityVectorsTransactor(const RtlStructure& s, RtlDut dut, RtlLoopContext& ctx)
      : RtlTransactor(std::move(dut), ctx), spec_(SpecAs<AvailabilityVectorsSpec>(s.spec)) {}

  bool Transaction(const StructureTransaction& t) override {
    if (const auto* a = t.As<AvAllocate>()) {
      Allocate(*a);
      return true;
    }
    if (const auto* r = t.As<AvRelease>()) {
      Release(*r);
      return true;
    }
    return false;
  }

 private:
  void CheckBank(RtlDut& r, int bank, int free_before, const char* what) {
    if (bank < 0 || bank >= spec_.banks)
      ctx_.Fail(r, fmt::format("{}: {} in bank {}, the structure has banks 0..{}", ctx_.Where(),
                               what, bank, spec_.banks - 1));
    const int got =
        static_cast<int>(r.out[P::kFreeCount].get(bank * spec_.count_bits, spec_.count_bits));
    if (got != free_before)
      ctx_.Fail(r, fmt::format("{}: {} in bank {}: free_count_o[{}] is {}, the system has {} free "
                               "registers",
                               ctx_.Where(), what, bank, bank, got, free_before));
  }

  void Allocate(const AvAllocate& a) {
    RtlDut& r = dut_;
    r.IdleOutOfReset(P::kRstN);
    r.in[P::kAllocReq].set_bit(a.bank, true);
    const int want_stall = a.wake ? spec_.wake_cycles : 0;
    const int want_id = spec_.Id(a.bank, a.row);
    for (int n = 0;; ++n) {
      ctx_.Eval(r);
      if (n == 0)
        CheckBank(r, a.bank, a.free_before, "allocation");
      if (r.out[P::kAllocNone].bit(a.bank))
        ctx_.Fail(r, fmt::format("{}: allocation in bank {}: alloc_none_o[{}] is 1, the system "
                                 "maps row {} ({} free)",
                                 ctx_.Where(), a.bank, a.bank, a.row, a.free_before));
      if (r.out[P::kAllocGrant].bit(a.bank)) {
        const int id =
            static_cast<int>(r.out[P::kAllocId].get(a.bank * spec_.id_bits, spec_.id_bits));
        if (id != want_id)
          ctx_.Fail(r,
                    fmt::format("{}: allocation in bank {}: alloc_id_o[{}] is {} (row {}), the "
                                "system maps id {} (row {})",
                                ctx_.Where(), a.bank, a.bank, id, spec_.RowOf(id), want_id, a.row));
        if (n != want_stall)
          ctx_.Fail(r, fmt::format("{}: allocation in bank {}: granted after {} stall cycles, the "
                                   "system {} ({} cycles)",
                                   ctx_.Where(), a.bank, n,
                                   a.wake ? "wakes a gated subarray" : "maps in a powered one",
                                   want_stall));
        ctx_.Clock(r);
        stall_cycles_ += static_cast<uint64_t>(n);
        return;
      }
      if (n >= want_stall)
        ctx_.Fail(r, fmt::format("{}: allocation in bank {}: no grant after {} cycles, the system "
                                 "maps row {} after {} ({})",
                                 ctx_.Where(), a.bank, n + 1, a.row, want_stall,
                                 a.wake ? "wake-up" : "no wake-up"));
      ctx_.Clock(r);
    }
  }

  void Release(const AvRelease& a) {
    RtlDut& r = dut_;
    r.IdleOutOfReset(P::kRstN);
    r.in[P::kRelValid].set_bit(0, true);
    r.in[P::kRelId].set(0, spec_.id_bits, static_cast<uint64_t>(spec_.Id(a.bank, a.row)));
    ctx_.Eval(r);
    CheckBank(r, a.bank, a.free_before, "release");
    ctx_.Clock(r);
  }

  AvailabilityVectorsSpec spec_;
  uint64_t stall_cycles_ = 0;
};

}  // namespace

GPURF_REGISTER(RtlTransactorKind, availability_vectors, "availability-vectors",
               (RtlTransactorKind{
                   .register_home = false,
                   .warp_slots = [](const StructureSpec&) { return 0; },
                   .kernel_problem = nullptr,
                   .make = [](const RtlStructure& s, RtlDut dut,
                              RtlLoopContext& ctx) -> std::unique_ptr<RtlTransactor> {
                     return std::make_unique<AvailabilityVectorsTransactor>(s, std::move(dut), ctx);
                   },
               }))

}  // namespace gpurf::harness
