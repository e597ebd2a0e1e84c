// RTL in the loop: the SM harness drives the Verilated RTL of a design point's register-file
// structures (the MRF of one lane cluster, the hardware RFC, the software ORF levels) cycle by
// cycle with the kernel's own register values, alone (`gpurf sim --rtl`) or beside each
// structure's cycle-level golden model, compared on every output every cycle (`--lockstep`).
//
// How it fits. The register-file system of the design (rf_systems.h: MRF only, HW RFC, SW ORF)
// keeps the SM timing (the operand delays it predicts) and the access counts. RtlLoopSystem wraps
// it: it forwards every pipeline event, listens to every structure transaction the system makes
// (StructureListener: MRF operand reads and result writes, RFC lookups / writes / flushes, ORF
// reads / writes / fills) and hands each to the transactor of its structure, which drives it,
// with data, into that structure's StructureBackend. The transactors are per structure kind,
// registered by name (transactor.h; sim/harness/transactors/<kind>_transactor.cc); this file
// names no kind. Today's transactors:
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
// data, RFC write, lookup and write-back data, ORF write and read data, the PCRF's appended and
// walked rows) is compared with the previous row on the same logical port (the bus holds its
// last value between transfers); the differing bits are toggles, counted per hierarchy level
// (the PCRF's apart, its energies being events: DataActivity::pcrf). DataActivity turns them into
// an activity factor; with uniformly random data half the bits toggle, which is what the
// characterized per-access energies assume (synth/ stimulus), so the data-dependent access
// energy of a level is its uniform-random access energy x activity / 0.5.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "energy/energy_model.h"
#include "gen/config/design_spec.h"
#include "gen/output/artifact.h"
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
    // Row `now` crossed the port whose previous row is `last` (zero at first): counts it and
    // its toggles, and makes it the port's last row.
    void Transfer(Bits& last, const Bits& now);
  };
  std::array<Level, kNumActivityLevels> level{};
  // FineReg's PCRF (pcrf transactor): the rows appended (app_data_i) and walked out
  // (out_data_o), each against the previous row on its port, over the bits that hold the lane
  // cluster's kernel values (the row's other lanes are the loop's pattern, not data). The PCRF
  // is priced by events, not as a level: DataDependent rescales kPcrfRowComponents by it.
  Level pcrf;
  uint64_t value_checks = 0;  // rows compared with the kernel's values (all equal, or a stop)
  uint64_t rtl_cycles = 0;    // clock edges of all structures
  // Result writes a structure dropped because their warp was descheduled before they arrived
  // (SW ORF: the warp's ORF was invalidated at the strand end and the slot may be another
  // warp's).
  uint64_t dropped_result_writes = 0;
  // FineReg's register management unit (pcrf and live-vector-cache transactors): rows a PCRF
  // walk returned, each equal to the row appended (`restored_superseded` of them for registers a
  // result landed in while the CTA was switched out: not compared with the kernel's value), and
  // vector-cache lookups whose hit or miss and decoded registers were the system's, and the CTA
  // status monitor's decisions.
  uint64_t restored_rows = 0;
  uint64_t restored_superseded = 0;
  uint64_t vector_lookups = 0;
  uint64_t status_decisions = 0;    // CTA status monitor stall decisions equal to the system's
  uint64_t status_multi_ready = 0;  // of them, with more than one ready candidate (ready_i)

  // The finereg hierarchy's components that are one PCRF row access each (its tag+row writes
  // and chain hops, sim/harness/hierarchies/finereg_system.cc), rescaled by `pcrf`.
  static constexpr std::array<const char*, 2> kPcrfRowComponents = {"PCRF tag+row writes",
                                                                    "PCRF chain hops"};
  // The name of level `l` (index ActivityLevel), as the energies name it.
  static const char* LevelName(size_t l);
  DataActivity& operator+=(const DataActivity& o);
  // Access energy of `uniform` rescaled by each level's activity (levels without transfers,
  // and levels `uniform` does not have, keep their uniform-random energy). A breakdown level
  // takes the activity of the level its `activity` names (energy::LevelEnergy::activity). With
  // PCRF rows counted, kPcrfRowComponents take the PCRF's activity (std::logic_error when
  // `uniform` lacks one: the loop ran a PCRF whose events are priced under another name).
  energy::Breakdown DataDependent(const energy::Breakdown& uniform) const;
};

// A design's structures built for the loop (Verilator models from the cache or built now).
struct RtlStructure {
  std::string name;  // design instance
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

// Builds the Verilator models of the design's structure that holds the registers (the MRF) and
// of the hierarchy's structures in the loop (HarnessHierarchy::rtl_structures), each of a kind
// with a registered transactor (transactor.h), in that order. Throws InputError when the design
// cannot run with the RTL in the loop (named field), ToolError when a build fails.
std::vector<RtlStructure> PrepareRtl(const DesignSpec& d, const sim::SmConfig& sm,
                                     const BuildOptions& build);

class RtlLoopContext;
class RtlTransactor;

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
  bool Busy() const override;
  // CTA and register events go to the inner system (the renaming system maps and releases
  // registers on them, cerf frees a finished CTA's tag-array lines, and each reports its
  // structure transactions from there).
  bool AdmitCta(uint64_t cycle, const sim::CtaInfo& c) override;
  void CtaLaunched(uint64_t cycle, const sim::CtaInfo& c) override;
  void CtaFinished(uint64_t cycle, const sim::CtaInfo& c) override;
  bool WantsCtaStalls() const override;
  void CtaStalled(uint64_t cycle, const sim::CtaInfo& c) override;
  void CtaResumed(uint64_t cycle, const sim::CtaInfo& c) override;
  // CTA switching (FineReg): the resident-CTA limit and which CTAs may run are the inner
  // system's.
  int ResidentCtaLimit() const override;
  bool CtaRunnable(uint32_t slot) const override;
  bool WantsRegisterEvents() const override;
  bool CanAllocate(uint64_t cycle, uint32_t warp, const std::vector<uint16_t>& regs) override;
  void Allocate(uint64_t cycle, uint32_t warp, uint16_t reg) override;
  void Release(uint64_t cycle, uint32_t warp, uint16_t reg) override;

  // Drains every structure (every queued read dispatched and checked) and finishes the inner
  // system.
  void Finish();
  const DataActivity& activity() const;
  bool has_values() const;

  // StructureListener: the transaction goes to the transactor whose structure it is.
  void Transaction(const StructureTransaction& t) override;

 private:
  RfSystem& inner_;
  std::unique_ptr<RtlLoopContext> ctx_;
  // One per structure, in the order of `structures` (the register home first).
  std::vector<std::unique_ptr<RtlTransactor>> transactors_;
};

}  // namespace gpurf::harness
