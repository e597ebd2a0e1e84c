// RTL in the loop at system granularity (`gpurf sim/energy ... --rtl-top`): the SM harness
// drives the ONE register-file system top of the design point (the `rf_system` structure,
// gen/structures/rf_system/rf_system_spec.h: the MRF of one lane cluster composed with the
// design's hierarchy behind one request interface) cycle by cycle through that interface, alone
// (--rtl --rtl-top) or with its golden model `RfSystemCycleModel` (models/rf_system_model.h)
// on the same ports, every output compared every cycle (--lockstep --rtl-top).
//
// How it fits. As in rtl_loop.h, the C++ models' register-file system (rf_systems.h) keeps the
// SM timing and the access counts; RtlTopSystem wraps it, collects the structure transactions it
// makes for each pipeline event (StructureListener) and turns them into requests of the top:
//   - issue: one request per three source registers of the instruction (the top's operand slots
//     A, B, C), in the order the system reads them. SW ORF: each operand at the level and entry
//     of the compiler's allocation (an ORF operand in the slot of its source operand, which is
//     also the bank of a split L0); HW RFC: the registers the RFC model looked up with its
//     liveness hint on `issue_src_dead_i` (the top does its own tag check); MRF only: registers.
//   - results: MRF only: every result register; SW ORF: one request per register with the
//     allocation's targets (`res_mrf_i`, `res_orf_i` / `res_orf_l0_i` / entry); a result of a warp
//     that lost its slot keeps only its MRF part; HW RFC: through the RFC (`res_long_i` for
//     long-latency results, `res_no_l0_i`), or `res_mrf_i` for a warp without a slot.
//   - SW ORF fills: the value of a source read from the MRF written to its ORF entry after the
//     issue (`res_orf_i` without `res_mrf_i`).
//   - deschedules: SW ORF the warp's slot (lowest free one on activation), HW RFC the slot the
//     RFC model flushed, held on `fl_valid_i` until `fl_ready_o`.
// The dispatch is always taken (`disp_ready_i` high); every dispatched instruction is matched to
// its issue by tag and each operand row is compared with the value the instruction read. A result
// that would write an MRF register still read by an instruction in flight waits until that
// instruction has dispatched (the top's write-after-read rule). The RTL is clocked only while it
// has something to do, so its cycle count differs from the SM's.
//
// Decisions. The top shows its decisions in its counters only, so they are compared with the
// C++ models' decisions: the counters updated at the accepting edge (tag checks and hits, L1 / L0
// reads and writes) in every cycle, the others (MRF reads and writes, RFC write-backs) whenever
// the top has gone quiet (after each deschedule and at the end).
//
// Data, value checks, toggles and divergence reports: as in rtl_loop.h (rows are lanes 0..3 of
// the kernel's recorded values). Toggles are counted on the top's data ports: each dispatched
// operand row at the level that supplied it (its slot's port), each result row at every level
// it is written to.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gen/structures/rf_system/rf_system_spec.h"
#include "sim/harness/rtl_loop.h"

namespace gpurf::harness {

// Builds the Verilator model of the design's rf_system top. Throws InputError when the design's
// top cannot run in the loop (named field), std::runtime_error when it has none, ToolError when
// the build fails.
RtlStructure PrepareRtlTop(const DesignSpec& d, const sim::SmConfig& sm, const BuildOptions& build);

// The register-file system with the rf_system top in the loop (see the file comment). `inner`
// does the timing and counting; `top` comes from PrepareRtlTop. Call Finish() after RunSm.
class RtlTopSystem : public sim::RegisterFileSystem, public StructureListener {
 public:
  RtlTopSystem(const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm, RfSystem& inner,
               const RtlStructure& top, const RtlLoopOptions& opt);
  ~RtlTopSystem() override;

  // sim::RegisterFileSystem
  bool CanIssue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  int Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Activate(uint64_t cycle, uint32_t warp) override;
  void Deactivate(uint64_t cycle, uint32_t warp) override;
  void Tick(uint64_t cycle) override;
  void Launch(uint64_t cycle, uint32_t warp, const sim::WarpStream& stream) override;
  bool Busy() const override { return inner_.Busy() || !flights_.empty(); }

  // Drains the top (every issued instruction dispatched and checked), compares its counters and
  // finishes the inner system.
  void Finish();
  const DataActivity& activity() const { return act_; }
  bool has_values() const { return rows_->has_values(); }

  // StructureListener (collected, then driven into the top after the inner system's event)
  void MrfRead(uint32_t warp, const std::vector<int>& regs) override;
  void MrfWrite(uint32_t warp, int reg) override;
  void RfcRead(const std::vector<RfcCache::Operand>& ops,
               const std::vector<RfcCache::ReadResult>& res) override;
  void RfcWrite(int slot, int reg, bool bypass, bool not_l0,
                const RfcCache::WriteResult& res) override;
  void RfcFlush(uint32_t warp, int slot, int entries) override;
  void OrfRead(sim::passes::RfLevel level, int src, int reg, int entry) override;
  void OrfWrite(sim::passes::RfLevel level, int reg, int entry, bool fill) override;

 private:
  using Expect = RowExpect;
  // One source register of an issue: its level (RfSystemSpec::SrcLevel), L1 entry, dead hint,
  // the operand slot it must take (-1: any).
  struct Src {
    int reg = 0, level = 0, entry = 0, slot = -1;
    bool dead = false;
  };
  // An issued request until its dispatch.
  struct Flight {
    uint64_t tag = 0;
    uint32_t warp = 0, inst = 0;
    std::array<bool, 3> valid{};
    std::array<int, 3> reg{}, level{};
    std::array<Expect, 3> expect;
  };
  // A result request (or an SW ORF fill).
  struct Result {
    int reg = 0, slot = 0;
    bool mrf = false, orf = false, orf_l0 = false, lng = false, no_l0 = false, fill = false;
    int entry = 0;
    std::optional<int> mrf_also;  // HW RFC: the register the RFC writes back to the MRF
  };
  // Event counts the top's counters must show (before truncation to counter_width).
  struct Counts {
    uint64_t mrf_reads = 0, mrf_writes = 0, l1_reads = 0, l0_reads = 0, l1_writes = 0,
             l0_writes = 0, tag_checks = 0, tag_hits = 0, writebacks = 0;
  };

  void Enter(uint64_t cycle, uint32_t warp, const sim::DynInst* d);
  [[noreturn]] void Fail(const std::string& what) const;
  std::string Where(uint32_t warp, uint32_t inst) const;

  // Register rows: rows_ (as RtlLoopSystem).
  void CheckValue(const std::string& signal, const Expect& e, const Bits& actual, uint32_t warp,
                  uint32_t inst);
  void Toggle(ActivityLevel l, Bits& last, const Bits& now);

  // The top, one RTL cycle: inputs as set (rst_ni high, disp_ready_i high), Eval, the dispatch
  // checked, the prompt counters compared, the edge. Returns the outputs of the cycle.
  const PortValues& Step();
  void Idle();  // every request input low
  void CheckCounters(bool all);
  bool CountersMatch(bool all, std::string* diff) const;
  void Settle();  // quiet cycles until every counter matches (or a divergence)
  void Drain();   // cycles until no request is in flight
  bool ReadsInFlight(uint32_t warp, int reg) const;

  void DriveIssue(uint32_t warp, int slot, const std::vector<Src>& srcs);
  void DriveResult(uint32_t warp, const Result& r);
  void DriveFlush(uint32_t warp, int slot, int entries);
  void DriveResults(uint32_t warp);  // results_ collected during the inner event

  const sim::Kernel& k_;
  RfSystem& inner_;
  RtlLoopOptions opt_;
  RfSystemSpec spec_;
  const GeneratedStructure* rtl_ = nullptr;
  std::unique_ptr<StructureBackend> be_;
  PortValues in_, out_;
  uint64_t rtl_cycles_ = 0;
  int width_ = 0, lanes_ = 0;
  uint64_t counter_mask_ = 0;

  // Context.
  uint64_t cycle_ = 0;
  uint32_t warp_ = 0;
  const sim::DynInst* dyn_ = nullptr;
  uint32_t ctx_warp_ = 0, ctx_inst_ = ~0U;

  std::optional<RegisterRows> rows_;  // cluster 0, by warp context and register

  // Transactions collected during one inner event.
  std::vector<int> ev_mrf_reads_;
  std::vector<RfcCache::Operand> ev_rfc_ops_;
  std::vector<RfcCache::ReadResult> ev_rfc_res_;
  struct OrfRd {
    int level, src, reg, entry;
  };
  std::vector<OrfRd> ev_orf_reads_;
  std::vector<Result> results_;
  struct FlushEv {
    uint32_t warp;
    int slot, entries;
  };
  std::optional<FlushEv> ev_flush_;

  // Requests in flight (issue order), the next tag.
  std::vector<Flight> flights_;
  uint64_t next_tag_ = 0, tag_mask_ = 0;

  // SW ORF slots (lowest free on activation), by warp context.
  std::vector<int> orf_slot_of_;
  std::vector<bool> orf_slot_free_;

  Counts want_;
  // Last row on each data port: dispatch slots 0..2 and the result port, per level.
  std::array<std::array<Bits, 4>, kNumActivityLevels> last_;
  DataActivity act_;
};

}  // namespace gpurf::harness
