// FineReg's register management unit in the RTL loop (issue 16; the pcrf and live-vector-cache
// transactors), label "rtl", on configs/examples/finereg.yaml with a 8 KB PCRF (64 entries: its
// Verilator model builds in seconds; the example's 1024-entry point takes minutes and runs in
// the soak corpus run):
//   - lockstep under a switching kernel: zero divergence, every restored entry walked out of the
//     PCRF RTL with the row saved, every vector-cache lookup compared, and the timing, counts and
//     FineReg statistics the models-only run's;
//   - the CTA status monitor's pick among several ready pending CTAs (the system numbers and
//     orders its CTAs as the monitor does) compared as it is, such decisions counted;
//   - mutations: a golden model with a flipped output bit of the pcrf (restored row, pointer
//     table count, free count) or of the vector cache (hit), or a status monitor model that
//     resumes another ready CTA, stops the run with SM cycle, structure, signal, expected and
//     actual value;
//   - corrupted expectations: transactions that disagree with what the RTL does (another free
//     entry, another free count, a chain restored in another order, a hit on an empty cache,
//     another live vector) are each reported by the structure's transactor.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/registry.h"
#include "gen/config/yaml_loader.h"
#include "gen/structures/cta_status_monitor/cta_status_monitor_ports.h"
#include "gen/structures/live_vector_cache/live_vector_cache_ports.h"
#include "gen/structures/pcrf/pcrf_ports.h"
#include "gen/structures/pcrf/pcrf_spec.h"
#include "models/registry.h"
#include "sim/harness/driver.h"
#include "sim/harness/tests/rtl_test_points.h"
#include "sim/harness/transactor.h"
#include "sim/harness/transactors/finereg_transactions.h"

namespace gpurf::harness {
namespace {

using rtl_points::ExpectMentions;
using rtl_points::Extra;
using rtl_points::FineRegSmallPcrf;
using rtl_points::FlipBit;
using rtl_points::Kernel;
using rtl_points::OneSm;
using rtl_points::Options;

// `kernel` on one SM with the 64-entry PCRF in lockstep (zero divergence, nothing skipped) with
// the models-only run's timing, counts and FineReg statistics.
void LockstepBesideModels(const std::string& kernel, DesignResult& rtl) {
  const DesignSpec d = FineRegSmallPcrf();
  const WorkloadKernel& wk = Kernel(kernel);
  const DesignResult models = RunDesign(d, {wk}, OneSm(RfMode::kModels));
  ASSERT_NO_THROW(rtl = RunDesign(d, {wk}, OneSm(RfMode::kLockstep)));
  ASSERT_TRUE(rtl.rtl_skipped.empty()) << rtl.rtl_skipped.front().reason;
  EXPECT_EQ(rtl.cycles, models.cycles);
  EXPECT_EQ(rtl.counts.events, models.counts.events);
  ASSERT_EQ(rtl.kernels.size(), 1u);
  EXPECT_EQ(rtl.kernels[0].rf.extra, models.kernels[0].rf.extra);
}

TEST(FineRegLoop, PcrfAndVectorCacheInLockstepWithTheModelsTiming) {
  DesignResult rtl;
  LockstepBesideModels("reduction", rtl);
  if (HasFatalFailure())
    return;
  const RfStats& s = rtl.kernels[0].rf;
  // Every restored entry came out of the PCRF RTL, every lookup went through the vector cache.
  EXPECT_GT(Extra(s, "restored entries"), 0u);
  EXPECT_EQ(rtl.activity.restored_rows, Extra(s, "restored entries"));
  EXPECT_EQ(rtl.activity.vector_lookups, Extra(s, "vector lookups"));
  EXPECT_GT(Extra(s, "vector misses"), 0u);
  EXPECT_LT(Extra(s, "vector misses"), Extra(s, "vector lookups"));  // hits too
  // Most restored rows are compared with the kernel's values, not only with the row saved.
  EXPECT_LT(rtl.activity.restored_superseded, rtl.activity.restored_rows / 2);
  // Every stall got the monitor's decision (switches, and stalls kept or without a candidate,
  // decided again while they last).
  EXPECT_GE(rtl.activity.status_decisions,
            Extra(s, "switches") + Extra(s, "switches kept (no PCRF room)"));
}

// Watches the pcrf's data ports from the golden model's side in lockstep: every row appended
// (app_valid_i with app_ready_o at an edge) and walked out (out_valid_o with out_ready_i), and
// the bits of the followed lanes (the low `bits`) that differ from the previous row on the same
// port: a count independent of the transactor's, kept in `seen` (the model ends with the run).
class PcrfPortWatch : public CycleModel {
 public:
  struct Seen {
    uint64_t rows = 0, toggles = 0;
  };
  PcrfPortWatch(std::unique_ptr<CycleModel> m, int bits, std::shared_ptr<Seen> seen)
      : m_(std::move(m)), bits_(bits), seen_(std::move(seen)) {}
  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override {
    m_->Outputs(in, out, defined);
    out_ = out;
  }
  void Clock(const PortValues& in) override {
    if (in[PcrfPort::kAppValid].bit(0) && out_[PcrfPort::kAppReady].bit(0))
      Count(last_app_, in[PcrfPort::kAppData]);
    if (out_[PcrfPort::kOutValid].bit(0) && in[PcrfPort::kOutReady].bit(0))
      Count(last_out_, out_[PcrfPort::kOutData]);
    m_->Clock(in);
  }
  std::string Failure() const override { return m_->Failure(); }

 private:
  void Count(std::vector<bool>& last, const Bits& row) {
    last.resize(static_cast<size_t>(bits_), false);
    for (int b = 0; b < bits_; ++b) {
      const bool v = row.bit(b);
      seen_->toggles += v != last[static_cast<size_t>(b)] ? 1 : 0;
      last[static_cast<size_t>(b)] = v;
    }
    ++seen_->rows;
  }
  std::unique_ptr<CycleModel> m_;
  int bits_;
  std::shared_ptr<Seen> seen_;
  PortValues out_;
  std::vector<bool> last_app_, last_out_;
};

// The PCRF's appended and walked rows are counted at its data-activity level (the toggles of the
// lane cluster's bits, equal to the count watched on the ports) and rescale its tag+row writes
// and chain hops in the data-dependent energy.
TEST(FineRegLoop, PcrfRowTogglesAreCountedAndRescaleItsEnergy) {
  const DesignSpec d = FineRegSmallPcrf();
  const WorkloadKernel& wk = Kernel("reduction");
  DriverOptions o = OneSm(RfMode::kLockstep);
  auto watch = std::make_shared<PcrfPortWatch::Seen>();
  int pcrfs = 0;
  o.rtl.make_model = [&](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
    if (s.kind() != "pcrf")
      return MakeModel(s);
    ++pcrfs;
    return std::make_unique<PcrfPortWatch>(MakeModel(s), 128, watch);  // 4 lanes x 32 bits
  };
  DesignResult r;
  ASSERT_NO_THROW(r = RunDesign(d, {wk}, o));
  ASSERT_EQ(pcrfs, 1);
  ASSERT_EQ(r.energies.row_bits, 128);
  const RfStats& s = r.kernels.at(0).rf;
  const auto& p = r.activity.pcrf;
  // Every append and every walked row, 128 bits each.
  EXPECT_EQ(
      p.transfers,
      r.counts.events.at(static_cast<size_t>(r.energies.ComponentIndex("PCRF tag+row writes"))) +
          Extra(s, "restored entries"));
  EXPECT_EQ(p.transfers, watch->rows);
  EXPECT_EQ(p.bits, 128 * p.transfers);
  EXPECT_GT(p.toggles, 0u);
  EXPECT_EQ(p.toggles, watch->toggles);
  // Kernel values toggle fewer bits than uniform random data: the PCRF's row energy falls by
  // the activity / 0.5, its pointer updates and the other events keep theirs.
  EXPECT_LT(p.Activity(), 0.5);
  for (const char* n : DataActivity::kPcrfRowComponents) {
    const double uniform = r.energy.FindComponent(n)->pj, data = r.data_energy.FindComponent(n)->pj;
    EXPECT_GT(uniform, 0.0) << n;
    EXPECT_LT(data, uniform) << n;
    EXPECT_NEAR(data, uniform * p.Activity() / 0.5, 1e-6 * uniform) << n;
  }
  EXPECT_DOUBLE_EQ(r.data_energy.FindComponent("PCRF pointer updates")->pj,
                   r.energy.FindComponent("PCRF pointer updates")->pj);
}

// spmv on one SM with the 64-entry PCRF keeps several pending CTAs ready at once: the monitor
// picks among them (ready_i shows the whole candidate set) as the system does, zero divergence,
// with the models-only run's timing.
TEST(FineRegLoop, MonitorPicksAmongSeveralReadyCtasAsTheSystem) {
  DesignResult rtl;
  LockstepBesideModels("spmv", rtl);
  if (HasFatalFailure())
    return;
  EXPECT_GT(Extra(rtl.kernels[0].rf, "restores"), 0u);
  EXPECT_GT(rtl.activity.status_multi_ready, 0u);
  EXPECT_LE(rtl.activity.status_multi_ready, rtl.activity.status_decisions);
}

// Regression: the loop derives the design again for the warps each kernel keeps resident, which
// changed the pcrf's `regs` with the MRF's registers per thread, so the whole-corpus run built a
// new multi-minute Verilator model of the 1024-entry PCRF per kernel shape. The loop's pcrf
// names 256 registers whatever the design says: one model.
TEST(FineRegLoop, OnePcrfModelForEveryRegisterCount) {
  const RtlPartitionSpec* ps = Registry<RtlPartitionSpec>::Get().Find("pcrf");
  ASSERT_NE(ps, nullptr);
  std::string module;
  for (int regs : {24, 63, 128}) {
    ParamSet p(PcrfSpec::ParamDescs());
    p.Set("regs", std::to_string(regs), {}, "test");
    const StructureSpec s = ps->adapt(PcrfSpec::FromParams(p), sim::SmConfig{});
    EXPECT_EQ(SpecAs<PcrfSpec>(s).regs, 256);
    if (module.empty())
      module = s.module_name();
    EXPECT_EQ(s.module_name(), module) << regs;
  }
}

// Lockstep with the golden model of `kind` replaced by `broken(its model)`: the report names the
// structure and the signal.
void ExpectMutationReported(
    const std::string& kernel, const std::string& kind,
    const std::function<std::unique_ptr<CycleModel>(std::unique_ptr<CycleModel>)>& broken,
    std::initializer_list<const char*> parts) {
  const DesignSpec d = FineRegSmallPcrf();
  DriverOptions o = OneSm(RfMode::kLockstep);
  o.rtl.make_model = [=](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
    if (s.kind() == kind)
      return broken(MakeModel(s));
    return MakeModel(s);
  };
  try {
    RunDesign(d, {Kernel(kernel)}, o);
    ADD_FAILURE() << "the broken golden model of " << kind << " was not caught";
  } catch (const RtlDivergence& e) {
    const std::string named = "kernel " + kernel;
    ExpectMentions(e.what(), parts);
    ExpectMentions(e.what(), {"divergence at SM cycle", "RTL cycle", "RTL and golden model differ",
                              "expected", "actual", named.c_str()});
  }
}

// The golden model of `kind` with bit `bit` of output `port` flipped (its `nth` defined value).
void ExpectFlipReported(const std::string& kind, int port, int bit, int nth,
                        std::initializer_list<const char*> parts) {
  ExpectMutationReported(
      "reduction", kind,
      [=](std::unique_ptr<CycleModel> m) -> std::unique_ptr<CycleModel> {
        return std::make_unique<FlipBit>(std::move(m), port, bit, nth);
      },
      parts);
}

// A status monitor model that, on a switch with several ready candidates, resumes the highest-
// numbered ready CTA other than its pick (the oldest-first or any other tie-break would differ
// from the RTL's priority encoder the same way).
class OtherReadyPick : public CycleModel {
 public:
  explicit OtherReadyPick(std::unique_ptr<CycleModel> m) : m_(std::move(m)) {}
  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override {
    using P = CtaStatusMonitorPort;
    m_->Outputs(in, out, defined);
    if (out[P::kDecKind].get(0, 2) != static_cast<uint64_t>(CtaDecision::kSwitch))
      return;
    Bits& sel = out[P::kDecSel];
    const int pick = static_cast<int>(sel.get(0, sel.width()));
    const Bits& ready = in[P::kReady];
    for (int c = ready.width() - 1; c >= 0; --c) {
      if (ready.bit(c) && c != pick) {
        sel.set(0, sel.width(), static_cast<uint64_t>(c));
        return;
      }
    }
  }
  void Clock(const PortValues& in) override { m_->Clock(in); }

 private:
  std::unique_ptr<CycleModel> m_;
};

TEST(FineRegLoopMutation, FlippedRestoredRowIsReported) {
  ExpectFlipReported("pcrf", PcrfPort::kOutData, 7, 3, {"in pcrf", "signal out_data_o"});
}

TEST(FineRegLoopMutation, FlippedPointerTableCountIsReported) {
  ExpectFlipReported("pcrf", PcrfPort::kQCount, 0, 20, {"in pcrf", "signal q_count_o"});
}

TEST(FineRegLoopMutation, FlippedFreeCountIsReported) {
  ExpectFlipReported("pcrf", PcrfPort::kFreeCount, 1, 30, {"in pcrf", "signal free_count_o"});
}

TEST(FineRegLoopMutation, FlippedSwitchDecisionIsReported) {
  ExpectFlipReported("cta-status-monitor", CtaStatusMonitorPort::kDecKind, 0, 3,
                     {"in cta_status_monitor", "signal dec_kind_o"});
}

TEST(FineRegLoopMutation, AnotherReadyCtaPickedIsReported) {
  // spmv: decisions with several ready CTAs (reduction has none).
  ExpectMutationReported("spmv", "cta-status-monitor",
                         [](std::unique_ptr<CycleModel> m) -> std::unique_ptr<CycleModel> {
                           return std::make_unique<OtherReadyPick>(std::move(m));
                         },
                         {"in cta_status_monitor", "signal dec_sel_o"});
}

TEST(FineRegLoopMutation, FlippedVectorCacheHitIsReported) {
  ExpectFlipReported("live-vector-cache", LiveVectorCachePort::kLkHit, 0, 4,
                     {"in live_vector_cache", "signal lk_hit_o"});
}

class FineRegCorruptedExpectation : public testing::Test {
 protected:
  void SetUp() override {
    bool two_level = false;
    sm_ = SmConfigFor(d_, OneSm(RfMode::kRtl), two_level);
    // The design's MRF as declared lays out 32 warps (the loop derives it per kernel).
    sm_.warps = 32;
    sm_.active_warps = 32;
    structures_ = PrepareRtl(d_, sm_, BuildOptions{});
    inner_ = std::make_unique<rtl_points::SilentSystem>(*Kernel("vectorAdd").kernel, sm_);
    loop_ = std::make_unique<RtlLoopSystem>(d_, *Kernel("vectorAdd").kernel, sm_, *inner_,
                                            structures_, Options(RfMode::kRtl).rtl);
  }
  std::string Report(const StructureTransaction& t) { return rtl_points::DivergenceOf(*loop_, t); }

  DesignSpec d_ = FineRegSmallPcrf();
  sim::SmConfig sm_;
  std::vector<RtlStructure> structures_;
  std::unique_ptr<rtl_points::SilentSystem> inner_;
  std::unique_ptr<RtlLoopSystem> loop_;
};

TEST_F(FineRegCorruptedExpectation, PcrfReportsAnotherFreeEntry) {
  // The first save takes entry 0; the second takes entry 1, the system claims entry 5.
  EXPECT_EQ(Report(PcrfAppend(3, 0, 0, 1, 0, 0, 1, 63)), "");
  ExpectMentions(Report(PcrfAppend(3, 1, 1, 2, 5, 0, 2, 62)),
                 {"in pcrf", "app_entry_o is 1", "the system takes entry 5 (the lowest free)"});
}

TEST_F(FineRegCorruptedExpectation, PcrfReportsThePointerTableAndFreeCount) {
  ExpectMentions(Report(PcrfAppend(2, 0, 0, 1, 0, 0, 1, 60)),
                 {"free_count_o is 63", "the system has 60 free PCRF entries"});
}

TEST_F(FineRegCorruptedExpectation, PcrfReportsAChainCountItDoesNotHave) {
  ExpectMentions(Report(PcrfAppend(2, 0, 0, 1, 0, 0, 2, 63)),
                 {"q_count_o of CTA slot 2 is 1", "the system's chain has 2 entries"});
}

TEST_F(FineRegCorruptedExpectation, PcrfReportsARestoreInAnotherOrder) {
  EXPECT_EQ(Report(PcrfAppend(2, 0, 0, 1, 0, 0, 1, 63)), "");
  EXPECT_EQ(Report(PcrfAppend(2, 1, 1, 4, 1, 0, 2, 62)), "");
  const std::vector<PcrfChainEntry> reversed = {{1, 1, 4, 1}, {0, 0, 1, 0}};
  ExpectMentions(Report(PcrfRestore(2, reversed, 64)),
                 {"in pcrf", "restored entry 0 of the chain is CTA slot 2 warp id 0 r1 entry 0",
                  "the system restores CTA slot 2 warp id 1 r4 entry 1"});
}

TEST_F(FineRegCorruptedExpectation, PcrfRestoresInSaveOrder) {
  EXPECT_EQ(Report(PcrfAppend(2, 0, 0, 1, 0, 0, 1, 63)), "");
  EXPECT_EQ(Report(PcrfAppend(5, 0, 0, 3, 1, 1, 1, 62)), "");
  EXPECT_EQ(Report(PcrfAppend(2, 1, 1, 4, 2, 0, 2, 61)), "");
  const std::vector<PcrfChainEntry> chain = {{0, 0, 1, 0}, {1, 1, 4, 2}};
  EXPECT_EQ(Report(PcrfRestore(2, chain, 63)), "");
  // The freed entries are found again, lowest first.
  EXPECT_EQ(Report(PcrfAppend(7, 2, 0, 0, 0, 0, 1, 62)), "");
  ExpectMentions(Report(PcrfRestore(5, {}, 62)),
                 {"restore of CTA slot 5 (0 entries)",
                  "out_valid_o with entry 1 after the 0 entries of the system's chain"});
}

TEST_F(FineRegCorruptedExpectation, VectorCacheReportsAHitOnAnEmptyCache) {
  ExpectMentions(Report(LvcLookup(0, 7, true, 0x6)),
                 {"in live_vector_cache", "lk_hit_o is 0", "the system's vector cache hits"});
}

TEST_F(FineRegCorruptedExpectation, VectorCacheDecodesTheVectorItHolds) {
  // A miss fills line 7 with registers 1 and 2; a hit must decode those, not another vector.
  EXPECT_EQ(Report(LvcLookup(0, 7, false, 0x6)), "");
  EXPECT_EQ(Report(LvcLookup(1, 7, true, 0x6)), "");
  ExpectMentions(Report(LvcLookup(1, 7, true, 0x1)),
                 {"dec_live_o is 2", "the vector has 1 live registers"});
}

TEST_F(FineRegCorruptedExpectation, VectorCacheReportsAConflictMissAsAMiss) {
  EXPECT_EQ(Report(LvcLookup(0, 7, false, 0x6)), "");
  // Instruction 39 shares line 7 (32 lines): a miss that replaces it, so 7 misses again.
  EXPECT_EQ(Report(LvcLookup(2, 39, false, 0x0)), "");
  ExpectMentions(Report(LvcLookup(1, 7, true, 0x6)),
                 {"lookup of PC 0x38 (line 7): lk_hit_o is 0", "the system's vector cache hits"});
}

// The CTA status monitor (128 slots, 64 PCRF entries here).
TEST_F(FineRegCorruptedExpectation, MonitorReportsAPendingCtaItDoesNotHave) {
  EXPECT_EQ(Report(CsmSet(0, 2, 2, {1, 0})), "");
  // CTA 1 was never switched out: the monitor has no candidate and keeps CTA 0.
  ExpectMentions(Report(CsmDecision(0, 3, 64, 1, true, 2, true, {1, 1}, {1}, false)),
                 {"in cta_status_monitor",
                  "stall of CTA slot 0 (3 live registers, 64 free, ready CTA slots [1])",
                  "dec_kind_o is 1", "the system switches to a pending CTA (candidate CTA slot 1"});
}

TEST_F(FineRegCorruptedExpectation, MonitorFollowsTheSystemsSwitches) {
  EXPECT_EQ(Report(CsmSet(0, 2, 2, {1, 0})), "");
  // A start of a waiting CTA: the RTL launches into slot 1, the lowest not launched.
  EXPECT_EQ(Report(CsmDecision(0, 2, 64, 1, false, 0, true, {1, 1}, {}, true)), "");
  // CTA 1 stalls; CTA 0 (2 saved registers) resumes: room 62 + 2.
  EXPECT_EQ(Report(CsmDecision(1, 4, 62, 0, true, 2, true, {1, 1}, {0}, false)), "");
  // CTA 0 stalls with 70 live registers: no room beside CTA 1's 4 saved ones (60 + 4), kept.
  EXPECT_EQ(Report(CsmDecision(0, 70, 60, 1, true, 4, false, {1, 1}, {1}, false)), "");
  // The system claims a switch with room 61: the RTL counts 64.
  ExpectMentions(Report(CsmDecision(0, 2, 60, 1, true, 1, true, {1, 1}, {1}, false)),
                 {"dec_avail_o is 64", "the system counts 61 PCRF entries of room"});
}

// Regression of the lockstep gap: the transactor used to rewrite a start's slot to the system's.
TEST_F(FineRegCorruptedExpectation, MonitorReportsAStartInAnotherSlot) {
  EXPECT_EQ(Report(CsmSet(0, 2, 2, {1, 0})), "");
  ExpectMentions(Report(CsmDecision(0, 2, 64, 5, false, 0, true, {1, 1}, {}, true)),
                 {"dec_sel_o 1 dec_restore_o 0", "the system starts a waiting CTA in slot 5"});
}

// Regression of the lockstep gap: the transactor used to show the RTL only the system's pick as
// ready; with every ready CTA shown, a pick other than the lowest-numbered is reported.
TEST_F(FineRegCorruptedExpectation, MonitorReportsAPickOtherThanTheLowestReadySlot) {
  EXPECT_EQ(Report(CsmSet(0, 2, 2, {1, 0})), "");
  EXPECT_EQ(Report(CsmSet(1, 2, 2, {2, 0})), "");
  EXPECT_EQ(Report(CsmSet(2, 2, 2, {3, 0})), "");
  // CTAs 1 and 2 stall with 2 live registers each; new CTAs start in slots 3 and 4.
  EXPECT_EQ(Report(CsmDecision(1, 2, 64, 3, false, 0, true, {3, 1}, {}, true)), "");
  EXPECT_EQ(Report(CsmDecision(2, 2, 62, 4, false, 0, true, {3, 2}, {}, true)), "");
  // Both are ready when CTA 0 stalls: the monitor resumes slot 1, the system claims slot 2.
  ExpectMentions(Report(CsmDecision(0, 1, 60, 2, true, 2, true, {3, 2}, {1, 2}, false)),
                 {"ready CTA slots [1, 2]", "dec_sel_o 1 dec_restore_o 1",
                  "the system resumes CTA slot 2 from the PCRF"});
}

TEST_F(FineRegCorruptedExpectation, MonitorReportsTheCounts) {
  ExpectMentions(Report(CsmSet(0, 2, 2, {2, 0})),
                 {"after the start or resume of CTA slot 0: active_count_o 1 pending_count_o 0",
                  "the system has 2 CTAs active and 0 pending"});
}

// `gpurf energy --rtl` on a finereg design reports the PCRF's row toggles beside the levels' and
// its data-dependent row energy below the uniform-random one, in the table and the JSON.
class FineRegRtlCli : public rtl_points::RtlCliFixture {
 protected:
  FineRegRtlCli() : RtlCliFixture("gpurf_finereg_rtl_cli_") {}
};

TEST_F(FineRegRtlCli, EnergyReportsThePcrfToggles) {
  const std::string design = Write("finereg_small.yaml", rtl_points::FineRegSmallPcrfText());
  const std::string json = (dir_ / "r.json").string();
  const test::CliResult r =
      Run(fmt::format("energy {} -w reduction --sms 1 --rtl --json {}", design, json));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("  PCRF  "), std::string::npos) << r.out;
  std::ifstream jf(json);
  const nlohmann::json j = nlohmann::json::parse(jf);
  const auto& p = j.at("designs").at(0).at("rtl").at("levels").at("PCRF");
  EXPECT_GT(p.at("toggles").get<uint64_t>(), 0u);
  EXPECT_EQ(p.at("bits").get<uint64_t>(), 128 * p.at("transfers").get<uint64_t>());
  EXPECT_GT(p.at("uniform_access_pj").get<double>(), 0.0);
  EXPECT_NEAR(p.at("data_access_pj").get<double>(),
              p.at("uniform_access_pj").get<double>() * p.at("activity").get<double>() / 0.5,
              1e-6 * p.at("uniform_access_pj").get<double>());
}

}  // namespace
}  // namespace gpurf::harness
