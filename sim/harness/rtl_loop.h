// RTL in the loop: the SM harness drives the Verilated RTL of a design point's register-file
// structures (the MRF of one lane cluster, the hardware RFC, the software ORF levels) cycle by
// cycle with the kernel's own register values, alone (`gpurf sim --rtl`) or beside each
// structure's cycle-level golden model, compared on every output every cycle (`--lockstep`).
//
// How it fits. The register-file system of the design (rf_systems.h: MRF only, HW RFC, SW ORF)
// keeps the SM timing (the operand delays it predicts) and the access counts. RtlLoopSystem wraps
// it: it forwards every pipeline event, listens to every structure transaction the system makes
// (StructureListener: MRF operand reads and result writes, RFC lookups / writes / flushes, ORF
// reads / writes / fills) and drives the same transactions, with data, into one
// StructureBackend per structure:
//   - MRF: the registers an instruction reads from the MRF enter the issue port in chunks of
//     three operand slots (the MRF's port contract); result rows and the RFC's write-backs enter
//     the write-back port, all of them before the next chunk is offered (so a read granted later
//     sees every value written before its instruction issued); every dispatch is matched to its
//     chunk by tag and its operand rows are checked against the values the instruction read.
//   - HW RFC: lookups (three per cycle), result writes (long-latency results with wr_long_i),
//     flushes on deschedule; every answer of the RTL must be the model system's: hit or miss,
//     level, the register and number of write-backs; write-backs go on to the MRF's port.
//   - SW ORF: one slot per active warp (lowest free on activation; inv_i on deschedule); the
//     allocation's reads on the read port of their operand slot, its writes and fills.
// The RTL is clocked only when it has something to do, so its cycle count differs from the SM's.
//
// Data. A row is one register of the first lane cluster (lanes 0..width/32-1). When the
// functional run recorded the values (sim::WarpStream::values), results carry the values the
// kernel computed (inactive lanes keep the register's previous value) and every row read from
// a structure is compared with the value the instruction read, on its active lanes ("value
// checks"). Without recorded values (Accel-Sim traces) results are deterministic pseudo-random
// rows and reads are compared with the last row written to the register.
//
// Divergence. Any difference between the RTL and the model system's decisions, between the RTL
// and the golden model (lockstep), a row that differs from the kernel's value, or an RTL
// assertion stops the run with RtlDivergence: SM cycle, structure and its RTL cycle, warp,
// instruction (PC and opcode), signal, expected and actual values.
//
// Data-dependent switching. Every row that crosses a data port (MRF write data and operand
// data, RFC write, lookup and write-back data, ORF write and read data) is compared with the
// previous row on the same logical port (the bus holds its last value between transfers); the
// differing bits are toggles, counted per hierarchy level. DataActivity turns them into an
// activity factor; with uniformly random data half the bits toggle, which is what the
// characterized per-access energies assume (synth/ stimulus), so the data-dependent access
// energy of a level is its uniform-random access energy x activity / 0.5.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "energy/energy_model.h"
#include "gen/config/design_spec.h"
#include "gen/output/artifact.h"
#include "gen/structures/mrf/mrf_spec.h"
#include "gen/structures/rfc/rfc_spec.h"
#include "models/cycle_model.h"
#include "sim/harness/register_rows.h"
#include "sim/harness/rf_systems.h"
#include "verif/harness/dut_abi.h"
#include "verif/harness/verilator_build.h"

namespace gpurf::harness {

// Where the register-file structures come from.
enum class RfMode {
  kModels,    // the C++ models only (rf_systems.h)
  kRtl,       // the Verilated RTL in the loop
  kLockstep,  // the RTL and each structure's golden model, compared every cycle
};
const char* RfModeName(RfMode m);

// A run stopped at a difference; what() is the whole report.
class RtlDivergence : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One structure's ports, driven cycle by cycle: the point where implementations plug in (the
// RTL, a golden model, both in lockstep, later a whole register-file-system top). Ports are
// indexed as in the structure's manifest.
class StructureBackend {
 public:
  virtual ~StructureBackend() = default;
  // The outputs during a cycle with inputs `in` (the clock input is ignored); no state change.
  virtual void Eval(const PortValues& in, PortValues& out) = 0;
  // The rising edge ending that cycle; Eval with the same inputs must come first.
  virtual void Clock(const PortValues& in) = 0;
};

// The Verilated RTL; throws RtlDivergence when an assertion fires at an edge.
std::unique_ptr<StructureBackend> MakeRtlBackend(std::unique_ptr<DutModel> dut,
                                                 const GeneratedStructure& g);
// RTL and golden model on the same inputs; throws RtlDivergence at the first output bit the
// model defines and the RTL shows differently (or a model invariant that fails).
std::unique_ptr<StructureBackend> MakeLockstepBackend(std::unique_ptr<DutModel> dut,
                                                      const GeneratedStructure& g,
                                                      std::unique_ptr<CycleModel> model);

// The register-file levels whose data ports the RTL in the loop drives (DataActivity::level),
// named as the energies' levels (sim/passes/rf_energies.h RfLevelName).
enum class ActivityLevel : int { kMrf = 0, kL1 = 1, kL0 = 2 };
constexpr int kNumActivityLevels = 3;

// Toggles on the data ports, per hierarchy level (ActivityLevel).
struct DataActivity {
  struct Level {
    uint64_t transfers = 0;  // rows that crossed a data port
    uint64_t bits = 0;       // their bits
    uint64_t toggles = 0;    // bits that differ from the previous row on the same port
    double Activity() const { return bits ? static_cast<double>(toggles) / bits : 0.0; }
  };
  std::array<Level, kNumActivityLevels> level{};
  uint64_t value_checks = 0;  // rows compared with the kernel's values (all equal, or a stop)
  uint64_t rtl_cycles = 0;    // clock edges of all structures
  // SW ORF: result writes of warps descheduled before the result arrived (dropped: their ORF
  // was invalidated at the strand end and the slot may be another warp's).
  uint64_t dropped_result_writes = 0;

  // The name of level `l` (index ActivityLevel), as the energies name it.
  static const char* LevelName(size_t l);
  DataActivity& operator+=(const DataActivity& o);
  // Access energy of `uniform` rescaled by each level's activity (levels without transfers,
  // and levels `uniform` does not have, keep their uniform-random energy).
  energy::Breakdown DataDependent(const energy::Breakdown& uniform) const;
};

// A design's structures built for the loop (Verilator models from the cache or built now).
struct RtlStructure {
  std::string name;  // design instance: mrf, rfc, orf_l1, orf_l0
  StructureSpec spec;
  GeneratedStructure rtl;
  BuiltModel built;
};

struct RtlLoopOptions {
  RfMode mode = RfMode::kModels;
  BuildOptions build;
  // The golden model of a structure in lockstep (default: models/registry.h MakeModel); tests give
  // a broken one to show that the comparison catches it.
  std::function<std::unique_ptr<CycleModel>(const StructureSpec&)> make_model;
  uint64_t seed = 1;  // pseudo-random rows when the run has no values
  // Granularity: false drives the design's structures one by one (this file), true the one
  // rf_system top through its request interface (rtl_top.h, `--rtl-top`).
  bool top = false;
};

// Builds the Verilator models of the design's mrf and, by hierarchy, rfc or orf_l1/orf_l0.
// Throws InputError when the design cannot run with the RTL in the loop (named field),
// ToolError when a build fails.
std::vector<RtlStructure> PrepareRtl(const DesignSpec& d, const sim::SmConfig& sm,
                                     const BuildOptions& build);

// The register-file system with the RTL in the loop (see the file comment). `inner` does the
// timing and counting; `structures` come from PrepareRtl. Call Finish() after RunSm.
class RtlLoopSystem : public sim::RegisterFileSystem, public StructureListener {
 public:
  RtlLoopSystem(const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm, RfSystem& inner,
                const std::vector<RtlStructure>& structures, const RtlLoopOptions& opt);
  ~RtlLoopSystem() override;

  // sim::RegisterFileSystem
  bool CanIssue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  int Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) override;
  void Activate(uint64_t cycle, uint32_t warp) override;
  void Deactivate(uint64_t cycle, uint32_t warp) override;
  void Tick(uint64_t cycle) override;
  void Launch(uint64_t cycle, uint32_t warp, const sim::WarpStream& stream) override;
  bool Busy() const override {
    return inner_.Busy() || rfc_wb_owed_ || !mrf_queue_.empty() || !mrf_inflight_.empty() ||
           !mrf_wbq_.empty();
  }

  // Drains the MRF (every queued read dispatched and checked) and finishes the inner system.
  void Finish();
  const DataActivity& activity() const { return act_; }
  bool has_values() const { return rows_->has_values(); }

  // StructureListener
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
  struct Dut;  // one structure: backend, port values, RTL cycle count
  using Expect = RowExpect;
  struct MrfChunk {
    MrfIssue issue;
    std::array<Expect, 3> expect;
    uint32_t warp = 0, inst = 0;
    uint64_t seq = 0;  // issue order
  };
  struct MrfWb {
    uint32_t warp = 0;
    int reg = 0;
    Bits data;
    uint32_t inst = ~0U;  // the instruction whose result it is (~0: a flush)
  };
  struct OrfOp {
    sim::passes::RfLevel level;
    int port, reg, entry;
    bool fill;
  };

  // Context of the pipeline event being forwarded (for reports and values).
  void Enter(uint64_t cycle, uint32_t warp, const sim::DynInst* d);
  [[noreturn]] void Fail(const std::string& structure, uint64_t rtl_cycle,
                         const std::string& what) const;
  std::string Where(uint32_t warp, uint32_t inst) const;

  // Register rows: rows_ (the rows an instruction's results write stay pending until the system
  // writes each register, so an eviction of the old value in between still sees the old row).
  void CheckValue(const std::string& structure, uint64_t rtl_cycle, const std::string& signal,
                  const Expect& e, const Bits& actual, uint32_t warp, uint32_t inst);
  void Toggle(ActivityLevel l, Bits& last, const Bits& now);

  // A backend's Eval / Clock (counting the cycle); a divergence becomes the full report.
  void DutEval(Dut& d);
  void DutClock(Dut& d);

  // Structure transactors.
  void MrfCycle(bool offer_issue);
  void MrfDrainWrites();
  void RfcCycle(Dut& dut);  // rst_ni high, wb_ready_i high, Eval, the owed write-back
  void RfcSettle();         // an idle cycle that transfers an owed write-back
  void OrfRun();
  void OrfInvalidate(int slot);
  Dut* OrfDut(sim::passes::RfLevel l) const;

  const DesignSpec& d_;
  const sim::Kernel& k_;
  RfSystem& inner_;
  RtlLoopOptions opt_;
  int width_ = 0, lanes_ = 0;
  std::unique_ptr<Dut> mrf_, rfc_, orf_l1_, orf_l0_;
  MrfSpec mrf_spec_;
  RfcSpec rfc_spec_;

  // Context.
  uint64_t cycle_ = 0;
  uint32_t warp_ = 0;
  const sim::DynInst* dyn_ = nullptr;
  uint32_t ctx_warp_ = 0, ctx_inst_ = ~0U;  // the instruction a backend report is about

  std::optional<RegisterRows> rows_;  // cluster 0, by warp context and register

  // MRF transactor.
  std::deque<MrfChunk> mrf_queue_;
  std::unordered_map<uint64_t, MrfChunk> mrf_inflight_;
  std::deque<MrfWb> mrf_wbq_;
  uint64_t mrf_next_tag_ = 0, mrf_tag_mask_ = 0, mrf_seq_ = 0;
  std::array<Bits, 3> mrf_last_read_;
  Bits mrf_last_write_;

  // RFC transactor.
  std::vector<uint32_t> rfc_slot_warp_;
  std::array<Bits, 3> rfc_last_lu_;
  Bits rfc_last_wr_, rfc_last_wb_;
  bool rfc_wb_owed_ = false, rfc_wb_bypass_ = false;  // the model's write-back of the last write
  int rfc_wb_slot_ = 0, rfc_wb_reg_ = 0;
  uint32_t rfc_wb_warp_ = 0, rfc_wb_inst_ = 0;
  Expect rfc_wb_expect_;

  // ORF transactor.
  std::vector<int> orf_slot_of_;  // by warp, -1 when inactive
  std::vector<bool> orf_slot_free_;
  std::vector<OrfOp> orf_ops_;
  // Entries written since their slot was last invalidated, [L1, L0][slot * kOrfEntries + entry]:
  // a read of another entry is reported before the RTL's misuse assertion fires.
  static constexpr int kOrfEntries = 8;
  static size_t OrfIndex(int slot, int entry) {
    return static_cast<size_t>(slot) * kOrfEntries + static_cast<size_t>(entry);
  }
  std::array<std::vector<uint8_t>, 2> orf_valid_;
  std::array<Bits, 3> orf_last_rd_l1_, orf_last_rd_l0_;
  Bits orf_last_wr_l1_, orf_last_wr_l0_;

  DataActivity act_;
};

}  // namespace gpurf::harness
