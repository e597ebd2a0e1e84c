// The CTA status monitor's golden model against hand-worked decisions of FineReg (sections
// IV-A, V-B, V-E, Fig. 6, Table IV): the encoding, a switch with a pending CTA whose registers
// stayed in the ACRF preferred over one in the PCRF, the room counted with the entries a restore
// frees, a launch when nobody is ready and the PCRF has room (Fig. 6a), a keep when the live
// registers do not fit (the "rare situation"), stalls of CTAs that are not active, the set port
// winning over a decision, and the stimulus's coverage of every decision.
#include <gtest/gtest.h>

#include <set>

#include "verif/stimulus/cta_status_monitor_stimulus.h"
#include "verif/tests/finereg_rmu_test_util.h"

namespace gpurf {
namespace {

using P = CtaStatusMonitorPort;
using Driver = test::ModelDriver<CtaStatusMonitorModel, CtaStatusMonitorSpec>;

Driver Make(int ctas = 8, int entries = 64) {
  const CtaStatusMonitorSpec s = test::MakeCsmSpec(ctas, entries);
  return Driver(s, CtaStatusMonitorPortTable(s).ZeroValues());
}

void Set(Driver& d, int cta, int ctx, int reg, int live = 0) {
  d.in[P::kSetValid] = Bits(1, 1);
  d.in[P::kSetCta].set(0, d.in[P::kSetCta].width(), static_cast<uint64_t>(cta));
  d.in[P::kSetCtx] = Bits(2, static_cast<uint64_t>(ctx));
  d.in[P::kSetReg] = Bits(2, static_cast<uint64_t>(reg));
  d.in[P::kSetLive].set(0, d.in[P::kSetLive].width(), static_cast<uint64_t>(live));
  d.Step();
  d.in[P::kSetValid] = Bits(1, 0);
}

void Stall(Driver& d, int cta, int live, int free) {
  d.in[P::kStallValid] = Bits(1, 1);
  d.in[P::kStallCta].set(0, d.in[P::kStallCta].width(), static_cast<uint64_t>(cta));
  d.in[P::kStallLive].set(0, d.in[P::kStallLive].width(), static_cast<uint64_t>(live));
  d.in[P::kFree].set(0, d.in[P::kFree].width(), static_cast<uint64_t>(free));
  d.Eval();
}

TEST(CtaStatusMonitorSpec, PaperDefaults) {
  const CtaStatusMonitorSpec s = test::MakeCsmSpec();
  EXPECT_EQ(s.ctas, 128);
  EXPECT_EQ(s.cta_bits, 7);
  EXPECT_EQ(s.count_bits, 11);
  EXPECT_EQ(s.slot_bits, 8);
}

TEST(CtaStatusMonitorModel, EncodingAndCounts) {
  Driver d = Make();
  Set(d, 0, 2, 2);     // active
  Set(d, 1, 1, 2);     // context in shared memory, registers in the ACRF
  Set(d, 2, 1, 1, 9);  // pending in the PCRF with 9 live registers
  d.in[P::kQCta] = Bits(3, 2);
  d.Eval();
  EXPECT_EQ(d.Out(P::kQCtx), 1U);
  EXPECT_EQ(d.Out(P::kQReg), 1U);
  EXPECT_EQ(d.Out(P::kQLive), 9U);
  EXPECT_EQ(d.Out(P::kActiveCount), 1U);
  EXPECT_EQ(d.Out(P::kPendingCount), 2U);
  EXPECT_EQ(d.Out(P::kDecKind), 0U);  // no stall
}

// Section V-B: a ready CTA with context 1 and registers 2 is preferred over one with both 1,
// whatever their numbers.
TEST(CtaStatusMonitorModel, ClassAPreferredOverClassB) {
  Driver d = Make();
  Set(d, 5, 2, 2);
  Set(d, 1, 1, 1, 4);
  Set(d, 6, 1, 2);
  d.in[P::kReady] = Bits(8, (1U << 1) | (1U << 6));
  Stall(d, 5, 3, 3);
  EXPECT_EQ(d.Out(P::kDecKind), 2U);
  EXPECT_EQ(d.Out(P::kDecSel), 6U);
  EXPECT_EQ(d.Out(P::kDecRestore), 0U);
  EXPECT_EQ(d.Out(P::kDecAvail), 3U);  // class A frees nothing in the PCRF
  d.Step();
  EXPECT_TRUE(d.model().cta(6).active());
  EXPECT_EQ(d.model().cta(5).context, CtaStatusMonitorModel::Context::kSharedMemory);
  EXPECT_EQ(d.model().cta(5).registers, CtaStatusMonitorModel::Registers::kPcrf);
  EXPECT_EQ(d.model().cta(5).saved_live, 3);
}

// Section V-E: the room is the free entries plus the entries the restored CTA frees; the
// stalled CTA fits at equality and not one above.
TEST(CtaStatusMonitorModel, RoomCountsTheEntriesARestoreFrees) {
  Driver d = Make();
  Set(d, 0, 2, 2);
  Set(d, 3, 1, 1, 10);
  Set(d, 4, 1, 1, 20);
  d.in[P::kReady] = Bits(8, (1U << 3) | (1U << 4));
  Stall(d, 0, 12, 2);  // CTA 3 is selected (lowest of class B): 2 + 10 = 12
  EXPECT_EQ(d.Out(P::kDecKind), 2U);
  EXPECT_EQ(d.Out(P::kDecSel), 3U);
  EXPECT_EQ(d.Out(P::kDecRestore), 1U);
  EXPECT_EQ(d.Out(P::kDecAvail), 12U);
  Stall(d, 0, 13, 2);  // does not fit; CTA 4 would have room but is not the one selected
  EXPECT_EQ(d.Out(P::kDecKind), 1U);
  EXPECT_EQ(d.Out(P::kDecSel), 0U);
}

// Fig. 6(a): nobody ready, the PCRF has room and the kernel has CTAs left: a new CTA is
// launched into the lowest free slot; without CTAs left or without room, the CTA stays.
TEST(CtaStatusMonitorModel, LaunchWhenNobodyIsReady) {
  Driver d = Make();
  Set(d, 0, 2, 2);
  Set(d, 1, 1, 1, 4);  // pending, not ready
  d.in[P::kCanLaunch] = Bits(1, 1);
  Stall(d, 0, 5, 5);
  EXPECT_EQ(d.Out(P::kDecKind), 3U);
  EXPECT_EQ(d.Out(P::kDecSel), 2U);
  d.in[P::kCanLaunch] = Bits(1, 0);
  Stall(d, 0, 5, 5);
  EXPECT_EQ(d.Out(P::kDecKind), 1U);
  d.in[P::kCanLaunch] = Bits(1, 1);
  Stall(d, 0, 6, 5);
  EXPECT_EQ(d.Out(P::kDecKind), 1U);
  Stall(d, 0, 5, 5);
  d.Step();
  EXPECT_TRUE(d.model().cta(2).active());
  EXPECT_FALSE(d.model().cta(0).active());
}

TEST(CtaStatusMonitorModel, StallOfAnInactiveCtaHasNoDecision) {
  Driver d = Make();
  Set(d, 1, 1, 2);
  Stall(d, 1, 0, 64);
  EXPECT_EQ(d.Out(P::kDecKind), 0U);
  EXPECT_EQ(d.Out(P::kDecAvail), 0U);
  Stall(d, 7, 0, 64);  // not launched
  EXPECT_EQ(d.Out(P::kDecKind), 0U);
}

// The set port writes after the decision: finishing the CTA being resumed wins.
TEST(CtaStatusMonitorModel, SetPortWinsOverTheDecision) {
  Driver d = Make();
  Set(d, 0, 2, 2);
  Set(d, 1, 1, 2);
  d.in[P::kReady] = Bits(8, 1U << 1);
  d.in[P::kSetValid] = Bits(1, 1);
  d.in[P::kSetCta] = Bits(3, 1);
  d.in[P::kSetCtx] = Bits(2, 0);
  d.in[P::kSetReg] = Bits(2, 0);
  Stall(d, 0, 0, 0);
  EXPECT_EQ(d.Out(P::kDecKind), 2U);
  d.Step();
  EXPECT_EQ(d.model().cta(1).context, CtaStatusMonitorModel::Context::kNotLaunched);
  EXPECT_EQ(d.model().cta(0).registers, CtaStatusMonitorModel::Registers::kPcrf);
}

TEST(CtaStatusMonitorModel, InconsistentSetBreaksTheContract) {
  Driver d = Make();
  Set(d, 0, 2, 1);  // context in the pipeline with registers in the PCRF
  EXPECT_NE(d.model().Failure().find("contract"), std::string::npos);
}

// Every decision kind, class A and class B switches, and every phase happen, on a small and on
// the paper's configuration.
TEST(CtaStatusMonitorStimulus, CoversEveryDecision) {
  for (const CtaStatusMonitorSpec& s : {test::MakeCsmSpec(5, 13), test::MakeCsmSpec()}) {
    CtaStatusMonitorModel model(s);
    CtaStatusMonitorStimulus stim(s, 5);
    PortValues in = CtaStatusMonitorPortTable(s).ZeroValues(), out = in, def = in;
    std::set<std::string> phases;
    std::set<int> kinds;
    int restores = 0, class_a = 0;
    for (uint64_t c = 0; c < 40000; ++c) {
      stim.Next(c, in);
      model.Outputs(in, out, def);
      const int k = static_cast<int>(out[P::kDecKind].get(0, 2));
      kinds.insert(k);
      if (k == 2)
        (out[P::kDecRestore].bit(0) ? restores : class_a)++;
      model.Clock(in);
      ASSERT_EQ(model.Failure(), "") << "cycle " << c;
      phases.insert(stim.Phase());
    }
    EXPECT_EQ(kinds.size(), 4U) << s.module_name;
    EXPECT_GT(restores, 20) << s.module_name;
    EXPECT_GT(class_a, 20) << s.module_name;
    EXPECT_GE(phases.size(), 8U);
  }
}

}  // namespace
}  // namespace gpurf
