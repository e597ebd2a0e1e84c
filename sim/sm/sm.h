// Cycle-accurate timing model of one streaming multiprocessor, after Gebhart et al., TOCS 2012,
// Table I: 32-wide SIMT, in-order single issue per cycle, a scoreboard per warp, fixed
// latencies per unit class, shared-unit throughputs, CTAs launched while registers, warps,
// shared memory and CTA slots allow, and a pluggable warp scheduler and register-file system.
//
// The model replays the per-warp dynamic streams of a KernelRun (from functional execution or
// an Accel-Sim trace): control flow is already resolved, so the SM decides only *when* each
// warp instruction issues and completes.
//
// One cycle:
//   1. results whose latency elapsed are written back (scoreboard cleared, register file told);
//   2. the scheduler picks at most one issuable warp: its next instruction's sources and
//      destinations are not pending in the scoreboard, its unit can accept a warp instruction,
//      it is not waiting at a barrier, and the register-file system can take the operands;
//   3. the picked warp issues; its results become visible after the unit latency plus the
//      register-file system's operand delay (bank conflicts, tag-check stage).
//
// Two-level scheduling (Gebhart et al., section 3) is the scheduler's golden model itself,
// gpurf::WarpScheduler (models/warp_scheduler_model.h), the model the scheduler RTL is
// verified against: every cycle the SM gives it each warp's valid (instructions left, not at a
// barrier), ready (issuable as in step 2) and suspend bits and the wake bits of waiting warps,
// and applies its decision (issue, deactivation, activations) at the cycle's edge. A warp is
// suspended when it issues the end of a strand: the instruction before one at which it must
// wait for its long-latency results (the compiler's mark, SmOptions::long_wait, or without marks
// a dependence on a result in flight), a barrier it must wait at, or its last instruction. It
// wakes when its long-latency results landed (all of them with the marks: the strand analysis
// assumes the wait drains them) or the barrier released.
//
// SM harness v2 (several SMs, sub-cores, dual issue, a memory hierarchy, CTA lifecycle):
//   - Schedulers: warp w belongs to scheduler w % schedulers; each scheduler picks among its own
//     warps (loose round-robin, greedy-then-oldest, or its own two-level WarpScheduler with
//     active_warps / schedulers active slots) and has its own shared units. With issue_width 2
//     a scheduler that issued an instruction may issue the same warp's next instruction in the
//     same cycle when it is independent of the first, needs a different (free) unit and is not
//     a branch, barrier or exit (GPGPU-Sim's dual issue per warp).
//   - Register-file partitions: SmConfig::rf_partitions systems (1: one register file shared by
//     all schedulers; == schedulers: one per sub-core as on Maxwell and later), warp w in
//     partition w % partitions under the local id w / partitions.
//   - CTA lifecycle: the register-file systems see CTA launches and finishes, CTAs whose every
//     live warp waits for long-latency results, first writes of registers (allocation) and
//     releases (the compiler's pir/pbr flags), and may refuse a launch, an allocation or an
//     issue; a CTA may launch beyond the static register limit when they admit it.
//   - Memory: with a MemorySystem (sim/mem/memory.h) global, local, shared, constant and
//     texture accesses take the time the hierarchy computes from the stream's per-lane
//     addresses; a refused access (no free MSHR) is retried. Without one (ideal memory) they
//     take the fixed latencies below.
//   - Several SMs run in lockstep, one cycle at a time (skipping cycles where none has work),
//     sharing the L2 and DRAM; CTAs go to SMs round-robin as GPGPU-Sim issues them.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/kernel/kernel.h"

namespace gpurf::sim {

// Warp selection policy of each scheduler.
enum class WarpPolicy : uint8_t {
  kLooseRoundRobin,  // the next issuable warp after the last one that issued
  kGto,              // greedy-then-oldest: the last warp while it can issue, else the oldest
  kTwoLevel,         // Gebhart's two-level scheduler (active set + pending set)
};
const char* WarpPolicyName(WarpPolicy p);

struct SmConfig {
  int lanes = 32;         // SIMT width
  int warps = 32;         // resident warp contexts
  int active_warps = 32;  // warps the schedulers choose from, all schedulers together
                          // (two-level: fewer than warps)
  int schedulers = 1;     // warp schedulers (sub-cores); warp w is scheduler w % schedulers'
  int rf_partitions = 1;  // register-file systems: 1 (shared) or schedulers (per sub-core)
  int issue_width = 1;    // instructions one scheduler issues per cycle (dual issue: 2)
  WarpPolicy policy = WarpPolicy::kTwoLevel;
  int cta_slots = 8;           // resident CTAs
  uint32_t registers = 32768;  // 32-bit registers per SM (128 KB)
  // Static allocation gives every thread its registers rounded up to a multiple of this
  // (GPGPU-Sim and Accel-Sim round to 4 when they admit a CTA).
  uint32_t register_alloc_unit = 1;
  uint32_t shared_bytes = 49152;  // shared memory per SM
  // Latencies in cycles (Table I), by unit class.
  int lat_alu = 8;
  int lat_sfu = 20;
  int lat_shared = 20;
  int lat_texture = 400;
  int lat_dram = 400;  // global and local memory
  int lat_const = 8;   // constant/parameter cache hits, like an ALU operation
  int lat_branch = 1;
  // Warp instructions a shared unit accepts per cycle, as lanes per cycle: an SFU doing 8
  // operations per cycle is busy lanes/8 = 4 cycles per warp instruction.
  int sfu_lanes_per_cycle = 8;
  int tex_lanes_per_cycle = 4;
  int mem_lanes_per_cycle = 32;  // load/store unit: one warp instruction per cycle

  int Latency(OpClass c) const;
  // Cycles a unit is busy with one warp instruction (1 for fully pipelined units).
  int Occupancy(OpClass c) const;
};

// A CTA as the register-file system sees it at its lifecycle events.
struct CtaInfo {
  int sm = 0;
  uint32_t cta = 0;   // linear CTA id in the grid
  uint32_t slot = 0;  // CTA slot on the SM
  uint32_t threads = 0;
  uint32_t regs_per_thread = 0;
  uint64_t static_registers = 0;  // what static allocation reserves: warps x lanes x regs/thread
  bool static_fit = true;         // static allocation has room for it now
  const std::vector<uint32_t>* warps = nullptr;  // its warps (SM warp ids)
};

// The register-file system as seen by the pipeline. Implementations: the C++ models of the
// hierarchies (MRF only, HW RFC, SW ORF), the Verilated RTL of the same design point, or both in
// lockstep. Warp ids are SM-wide (0..warps-1); slots are active-scheduler slots.
class RegisterFileSystem {
 public:
  virtual ~RegisterFileSystem() = default;
  // Can the operands of `d` (warp `warp`) be accepted this cycle (a free operand collector)?
  virtual bool CanIssue(uint64_t cycle, uint32_t warp, const DynInst& d) = 0;
  // The instruction issues: returns the extra cycles its operands take to arrive (bank
  // conflicts, tag check stage), 0 when they arrive in the issue cycle.
  virtual int Issue(uint64_t cycle, uint32_t warp, const DynInst& d) = 0;
  // The results of `d` are written back in `cycle`.
  virtual void Writeback(uint64_t cycle, uint32_t warp, const DynInst& d) = 0;
  // Two-level scheduling events: the warp enters / leaves the active set.
  virtual void Activate(uint64_t cycle, uint32_t warp) = 0;
  virtual void Deactivate(uint64_t cycle, uint32_t warp) = 0;
  // Called once per cycle after issue, for structures with internal timing.
  virtual void Tick(uint64_t /*cycle*/) {}
  // Warp context `warp` starts executing `stream` (its CTA was launched). Systems that need the
  // register values of the kernel (RTL in the loop) keep the stream; others ignore it.
  virtual void Launch(uint64_t /*cycle*/, uint32_t /*warp*/, const WarpStream& /*stream*/) {}
  // Whether Tick() has work to do (queued operands, busy collectors). When no warp can issue,
  // the SM skips ahead to its next event and ticks the system only while it is busy. Default:
  // always busy (ticked every cycle).
  virtual bool Busy() const { return true; }

  // CTA lifecycle. Every partition of the SM sees every CTA event (warp ids SM-wide in
  // CtaInfo::warps). AdmitCta may refuse a launch or admit one static allocation would not
  // (default: static allocation decides); the others only inform.
  virtual bool AdmitCta(uint64_t /*cycle*/, const CtaInfo& c) { return c.static_fit; }
  virtual void CtaLaunched(uint64_t /*cycle*/, const CtaInfo& /*c*/) {}
  virtual void CtaFinished(uint64_t /*cycle*/, const CtaInfo& /*c*/) {}
  // Every live warp of the CTA waits for long-latency results (or at a barrier for such
  // warps), once per episode; CtaResumed when one of its warps issues again. Only delivered
  // when WantsCtaStalls().
  virtual bool WantsCtaStalls() const { return false; }
  virtual void CtaStalled(uint64_t /*cycle*/, const CtaInfo& /*c*/) {}
  virtual void CtaResumed(uint64_t /*cycle*/, const CtaInfo& /*c*/) {}
  // Registers (only when WantsRegisterEvents(); `warp` is the partition's local id): an
  // instruction whose destination registers `regs` have not been written since the warp
  // launched or released them asks CanAllocate (no side effects; false refuses the issue this
  // cycle), then Allocate for each at issue. Release after the read that the compiler flagged
  // (pir) and at reconvergence points (pbr), and for every allocated register when the warp
  // finishes.
  // CTA switching (FineReg, Oh et al. MICRO 2018): a system whose ResidentCtaLimit() is
  // positive keeps up to that many CTAs resident (also bounded by shared memory), beyond the
  // scheduling limit of CTA slots and warp contexts; the SM then gives a resident CTA's warps
  // contexts of their own and lets them issue only while CtaRunnable(slot) (asked after every
  // CTA event and every Tick). The system keeps the runnable CTAs within the scheduling limit.
  virtual int ResidentCtaLimit() const { return 0; }
  virtual bool CtaRunnable(uint32_t /*slot*/) const { return true; }

  virtual bool WantsRegisterEvents() const { return false; }
  virtual bool CanAllocate(uint64_t /*cycle*/, uint32_t /*warp*/,
                           const std::vector<uint16_t>& /*regs*/) {
    return true;
  }
  virtual void Allocate(uint64_t /*cycle*/, uint32_t /*warp*/, uint16_t /*reg*/) {}
  virtual void Release(uint64_t /*cycle*/, uint32_t /*warp*/, uint16_t /*reg*/) {}
};

// Warp selection among the active warps, and activation of pending ones.
class SchedulerPolicy {
 public:
  virtual ~SchedulerPolicy() = default;
  virtual std::string Name() const = 0;
  // Returns the warp to issue from `issuable` (SM warp ids, ascending), or -1. `last` is the
  // warp that issued in the previous cycle (-1 if none).
  virtual int Pick(const std::vector<uint32_t>& issuable, int last) = 0;
  // Whether the policy keeps issuing from one warp while it can (the two-level scheduler's inner
  // selection follows this: greedy or round-robin).
  virtual bool IsGreedy() const { return false; }
  // Whether the SM orders `issuable` by age (oldest first) rather than by warp id before
  // calling Pick.
  virtual bool OldestFirst() const { return false; }
};

// Round-robin from the warp after the last one that issued.
class RoundRobinPolicy : public SchedulerPolicy {
 public:
  explicit RoundRobinPolicy(uint32_t warps) : warps_(warps) {}
  std::string Name() const override { return "round-robin"; }
  int Pick(const std::vector<uint32_t>& issuable, int last) override;

 private:
  uint32_t warps_;
};

// Greedy-then-oldest (GPGPU-Sim's GTO): the last warp while it can issue, else the issuable
// warp launched first (its CTA launched first, then the lower warp of the CTA).
class GtoPolicy : public SchedulerPolicy {
 public:
  std::string Name() const override { return "gto"; }
  int Pick(const std::vector<uint32_t>& issuable, int last) override;
  bool IsGreedy() const override { return true; }
  bool OldestFirst() const override { return true; }
};

// Greedy: keep issuing from the last warp while it can, else round-robin.
class GreedyPolicy : public SchedulerPolicy {
 public:
  explicit GreedyPolicy(uint32_t warps) : rr_(warps) {}
  std::string Name() const override { return "greedy"; }
  int Pick(const std::vector<uint32_t>& issuable, int last) override;
  bool IsGreedy() const override { return true; }

 private:
  RoundRobinPolicy rr_;
};

struct SmStats {
  uint64_t cycles = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t ctas = 0;
  uint64_t idle_cycles = 0;        // no warp could issue
  uint64_t scoreboard_stalls = 0;  // cycles where some active warp waited on the scoreboard
  uint64_t unit_stalls = 0;        // ... waited for a busy shared unit
  uint64_t rf_stalls = 0;          // ... waited for the register-file system
  uint64_t activations = 0;        // two-level: warps moved into the active set
  uint64_t deactivations = 0;
  uint64_t operand_delay_cycles = 0;  // sum of RegisterFileSystem::Issue delays
  // Two-level with SmOptions::long_wait: deschedules for a long-latency dependence at an
  // instruction the strand analysis did not mark (0 when the analysis is sound).
  uint64_t unplanned_waits = 0;
  uint64_t dual_issues = 0;             // cycles a scheduler issued a second instruction
  uint64_t alloc_stalls = 0;            // ... some warp's register allocation was refused
  uint64_t mem_stalls = 0;              // memory accesses refused (no free MSHR), retried
  uint64_t cta_refusals = 0;            // CTA launches the register-file system refused
  uint64_t cta_stalls = 0;              // CtaStalled events
  uint64_t max_resident_ctas = 0;       // most CTAs resident at once
  std::array<uint64_t, 10> by_class{};  // warp instructions per OpClass

  void Add(const SmStats& o);  // sums (cycles: the maximum, as SMs run in parallel)

  double Ipc() const {
    return cycles ? static_cast<double>(warp_instructions) / static_cast<double>(cycles) : 0.0;
  }
};

struct SmOptions {
  bool two_level = false;  // two-level scheduling: cfg.active_warps active (at most 64 warps)
  // Two-level: per static instruction of the kernel, whether the warp must wait for all its
  // long-latency results before issuing it (passes::Strands::waits, the compiler's strand-end
  // marks). The warp is then descheduled after the instruction before it and woken when all its
  // long-latency results have landed, so a strand never loses its ORF values to a deschedule.
  // Null: deschedule when the next instruction depends on a long-latency result in flight and
  // wake when that result lands.
  const std::vector<uint8_t>* long_wait = nullptr;
  // Register release points (Jeon's pir/pbr), for systems that want register events: per
  // instruction, per source operand slot, whether the read releases it; and per instruction
  // the registers released when a warp reaches it (reconvergence points). Null: released only
  // when the warp finishes.
  const std::vector<std::vector<uint8_t>>* release_after_read = nullptr;
  const std::vector<std::vector<uint16_t>>* release_at = nullptr;
  uint64_t max_cycles = 2'000'000'000;
  // Progress watchdog: a run in which no SM issues a warp instruction for this many cycles while
  // work is left (warps resident or CTAs waiting) is stopped as a deadlock, with the state of
  // every SM, instead of spinning until max_cycles. The longest legitimate gap is a few memory
  // round trips (thousands of cycles).
  uint64_t max_idle_cycles = 1'000'000;
};

namespace mem {
class MemorySystem;
}

// The whole GPU's statistics: one SmStats per SM and their sum (cycles: the GPU's).
struct GpuStats {
  std::vector<SmStats> sms;
  SmStats total;
  double Ipc() const { return total.Ipc(); }
};

// Why one CTA of `run` cannot be resident on the SM (its warps, registers or shared memory per
// CTA exceed the SM's), e.g. "kernel bfs does not fit one CTA on the SM: 8 warps/CTA (SM 4),
// ..."; empty when it fits.
std::string CtaFitProblem(const KernelRun& run, const SmConfig& cfg);

// The most warps of `run` resident on one SM at once under static register allocation (resident
// CTAs x warps per CTA). A CTA's warps take the lowest free warp contexts, so no warp id of the
// run reaches this count (with several register-file partitions, warp w is local warp
// w / partitions of partition w % partitions). 0 when one CTA does not fit.
uint64_t MaxLiveWarps(const KernelRun& run, const SmConfig& cfg);
// The same as if the kernel had `regs_per_thread` registers per thread (a compile budget: how many
// warps a recompiled kernel would keep resident).
uint64_t MaxLiveWarps(const KernelRun& run, const SmConfig& cfg, int regs_per_thread);

// Registers per thread that static allocation gives `k` on an SM of `cfg`: the kernel's (at least
// one) rounded up to sm.register_alloc_unit (a unit of 0 counts as 1).
int AllocatedRegsPerThread(const Kernel& k, const SmConfig& cfg);

// The registers (32-bit) that `run`'s resident CTAs hold on one SM of `sms` under static
// allocation: resident CTAs x registers per CTA (lanes x registers per thread rounded up to
// sm.register_alloc_unit, per warp). Resident CTAs: the occupancy MaxLiveWarps uses (CTA slots,
// warps, shared memory, registers), and no more than the SM's share of the grid, ceil(CTAs /
// sms) (RunGpu hands out CTAs round-robin, so a grid that fits at once never puts more on one
// SM). What a unified memory's register file is given at launch. 0 when one CTA does not fit.
uint64_t ResidentRegisters(const KernelRun& run, const SmConfig& cfg, int sms);

// Runs `run` on one SM. `rf` may be null (ideal register file: no operand delay). Throws
// std::runtime_error when the kernel cannot fit one CTA on the SM, the run exceeds max_cycles,
// or no warp instruction issues for max_idle_cycles (a deadlock of the register-file system).
SmStats RunSm(const KernelRun& run, const SmConfig& cfg, SchedulerPolicy& policy,
              RegisterFileSystem* rf, const SmOptions& opt = {});

// Runs `run` on rf.size() SMs sharing `memory` (null: ideal memory). rf[s] holds SM s's
// register-file partitions (cfg.rf_partitions of them; entries may be null: ideal). CTAs are
// distributed round-robin at the start and then to the SM whose slot frees. `memory` must
// have been built for at least rf.size() SMs.
GpuStats RunGpu(const KernelRun& run, const SmConfig& cfg, SchedulerPolicy& policy,
                const std::vector<std::vector<RegisterFileSystem*>>& rf, mem::MemorySystem* memory,
                const SmOptions& opt = {});

}  // namespace gpurf::sim
