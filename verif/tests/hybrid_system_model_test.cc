// The hybrid-system golden model (models/hybrid_system_model.h): hand-worked cycles of the
// contract (an RC hit dispatches the cycle after its issue; a miss reaches the MRF one cycle
// after the RC lookup; results evict through the write-back FIFO; a fill takes the newest
// value), the model against the registered stimulus alone (every kind of traffic reached, no
// violation), and one planted bug per system invariant, each caught by its own check.
#include "models/hybrid_system_model.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gen/structures/hybrid_system/hybrid_system_ports.h"
#include "gen/structures/hybrid_system/hybrid_system_spec.h"
#include "verif/stimulus/hybrid_system_stimulus.h"

namespace gpurf {
namespace {

using P = HybridSystemPort;

HybridSystemSpec MakeSpec(const std::string& organization = "hierarchical") {
  ParamSet p(HybridSystemSpec::ParamDescs());
  p.Set("organization", organization, {}, "organization");
  return HybridSystemSpec::FromParams(p);
}

struct Harness {
  explicit Harness(const HybridSystemSpec& s)
      : spec(s), model(s), in(HybridSystemPortTable(s).ZeroValues()), out(in), def(in) {}
  void Idle() {
    for (Bits& b : in)
      b.clear();
    in[P::kRstN].set_bit(0, true);
    in[P::kDispReady].set_bit(0, true);
  }
  void Cycle() {
    model.Outputs(in, out, def);
    model.Clock(in);
    ASSERT_EQ(model.Failure(), "");
  }
  void Result(int q, int warp, int reg, uint64_t v) {
    in[P::kResValid].set_bit(q, true);
    in[P::kResWarp].set(q * spec.warp_width, spec.warp_width, static_cast<uint64_t>(warp));
    in[P::kResReg].set(q * spec.reg_width, spec.reg_width, static_cast<uint64_t>(reg));
    in[P::kResData].set(q * spec.width, spec.width, v);
  }
  void Issue(int warp, int reg, uint64_t tag) {
    in[P::kIssueValid].set_bit(0, true);
    in[P::kIssueTag].set(0, spec.tag_width, tag);
    in[P::kIssueWarp].set(0, spec.warp_width, static_cast<uint64_t>(warp));
    in[P::kIssueSrcValid].set_bit(0, true);
    in[P::kIssueSrcReg].set(0, spec.reg_width, static_cast<uint64_t>(reg));
  }
  // Cycles until lane 0 dispatches (outputs of the cycle), at most `limit`.
  int UntilDispatch(int limit) {
    for (int c = 0; c < limit; ++c) {
      model.Outputs(in, out, def);
      if (out[P::kDispValid].bit(0))
        return c;
      model.Clock(in);
      EXPECT_EQ(model.Failure(), "");
    }
    return -1;
  }
  const HybridSystemSpec spec;
  HybridSystemModel model;
  PortValues in, out, def;
};

TEST(HybridSystemSpec, DefaultComposesTheSubStructures) {
  const HybridSystemSpec s = MakeSpec();
  EXPECT_EQ(s.kind, "hybrid-system");
  EXPECT_EQ(s.rc.rc_lines, 8);
  EXPECT_EQ(s.rc.rsp_slots, 8);
  EXPECT_EQ(s.mrf.regs, 16);
  EXPECT_EQ(s.mrf.warps, 4);
  EXPECT_EQ(s.mrf.tag_width, 3);  // 4 queue entries and the fill's read
  EXPECT_EQ(s.mrf.wb_policy, MrfSpec::WbPolicy::kWritePriority);
}

TEST(HybridSystemSpec, RejectsNonPowerOfTwoQueues) {
  ParamSet p(HybridSystemSpec::ParamDescs());
  p.Set("queue", "3", {}, "--queue");
  EXPECT_THROW(HybridSystemSpec::FromParams(p), InputError);
  ParamSet q(HybridSystemSpec::ParamDescs());
  q.Set("wbq", "6", {}, "--wbq");
  EXPECT_THROW(HybridSystemSpec::FromParams(q), InputError);
}

// A hit dispatches in the cycle after its issue; a miss (the value was evicted to the MRF)
// pays the MRF's collector path behind one extra cycle of RC lookup: MRF issue at t+1, bank
// read t+2, operand captured at the end of t+3, MRF dispatch in t+4 into the queue, dispatch t+5.
TEST(HybridSystemModel, MissCostsTheMrfPathBehindTheLookup) {
  Harness h(MakeSpec());
  h.Idle();
  h.Result(0, 0, 1, 0x11);
  h.Cycle();
  h.Idle();
  h.Issue(0, 1, 7);
  h.Cycle();  // the issue cycle: an RC hit
  h.Idle();
  EXPECT_EQ(h.UntilDispatch(10), 0);
  EXPECT_EQ(h.out[P::kDispData].get(0, h.spec.width), 0x11U);
  EXPECT_EQ(h.out[P::kDispTag].get(0, h.spec.tag_width), 7U);
  h.Cycle();
  // Evict r1 of warp 0: three more registers of its set (2 ways).
  const int set = h.spec.rc.SetOf(0, 1);
  int written = 0;
  for (int r = 2; r < 16 && written < 3; ++r) {
    if (h.spec.rc.SetOf(0, r) != set)
      continue;
    h.Idle();
    h.Result(0, 0, r, 0x20U + static_cast<uint64_t>(r));
    h.Cycle();
    ++written;
  }
  for (int i = 0; i < 6; ++i) {  // the write-back FIFO drains into the MRF
    h.Idle();
    h.Cycle();
  }
  EXPECT_TRUE(h.out[P::kFlReady].bit(0));
  h.Idle();
  h.Issue(0, 1, 9);
  h.Cycle();
  h.Idle();
  EXPECT_EQ(h.UntilDispatch(20), 4);
  EXPECT_EQ(h.out[P::kDispData].get(0, h.spec.width), 0x11U);
  EXPECT_EQ(h.model.rc_misses, 1U);
}

struct RunStats {
  std::string failure;
  uint64_t cycles = 0;
};

RunStats RunWithStimulus(HybridSystemModel& m, const HybridSystemSpec& s, uint64_t cycles,
                         uint64_t seed) {
  HybridSystemStimulus stim(s, seed);
  PortValues in = HybridSystemPortTable(s).ZeroValues(), out = in, def = in;
  RunStats r;
  for (uint64_t c = 0; c < cycles; ++c) {
    stim.Next(c, in);
    m.Outputs(in, out, def);
    m.Clock(in);
    stim.Observe(c, out);
    r.cycles = c + 1;
    if (!m.Failure().empty()) {
      r.failure = m.Failure();
      break;
    }
  }
  return r;
}

TEST(HybridSystemModel, StimulusReachesEveryCornerWithoutViolation) {
  for (const char* org : {"hierarchical", "parallel-evict", "parallel-lifetime"}) {
    const HybridSystemSpec s = MakeSpec(org);
    HybridSystemModel m(s);
    const RunStats r = RunWithStimulus(m, s, 200000, 5);
    EXPECT_EQ(r.failure, "") << org << " at cycle " << r.cycles;
    EXPECT_GT(m.dispatched, 50000U) << org;
    EXPECT_GT(m.rc_hits, 10000U) << org;
    EXPECT_GT(m.rc_misses, 10000U) << org;
    EXPECT_GT(m.rsp_reads, 10000U) << org;
    EXPECT_GT(m.mrf_writes, 10000U) << org;
    EXPECT_GT(m.checked_operands, 100000U) << org;
    if (std::string(org) != "parallel-lifetime") {
      EXPECT_GT(m.fills, 1000U) << org;
      EXPECT_GT(m.live_outs, 1000U) << org;
    } else {
      EXPECT_EQ(m.fills + m.live_outs, 0U);
    }
  }
}

// I3: the transfer port must stay busy until the fill has written its slot. A harness that reads
// the slot as soon as the port is free again is correct against the right model (it reads the
// register's value) and is caught by I3 when the model frees the port too early.
TEST(HybridSystemModel, FillReadyEarlyLetsThePipelineMissInTheRsp) {
  for (bool fault : {false, true}) {
    Harness h(MakeSpec());
    if (fault)
      h.model.InjectFault(HybridSystemModel::Fault::kFillReadyEarly);
    h.Idle();
    h.Result(0, 1, 3, 0x5a);
    h.Cycle();
    h.Idle();
    h.in[P::kXfValid].set_bit(0, true);  // fill slot 2 <- r3 of warp 1
    h.in[P::kXfSlot].set(0, h.spec.slot_width, 2);
    h.in[P::kXfWarp].set(0, h.spec.warp_width, 1);
    h.in[P::kXfReg].set(0, h.spec.reg_width, 3);
    h.Cycle();
    int waited = 0;
    for (;; ++waited) {
      h.Idle();
      h.model.Outputs(h.in, h.out, h.def);
      if (h.out[P::kXfReady].bit(0) || waited > 20)
        break;
      h.model.Clock(h.in);
    }
    h.in[P::kIssueValid].set_bit(0, true);
    h.in[P::kIssueWarp].set(0, h.spec.warp_width, 1);
    h.in[P::kIssueSrcValid].set_bit(0, true);
    h.in[P::kIssueSrcRsp].set_bit(0, true);
    h.in[P::kIssueSrcSlot].set(0, h.spec.slot_width, 2);
    h.model.Outputs(h.in, h.out, h.def);
    h.model.Clock(h.in);
    if (fault) {
      EXPECT_EQ(waited, 0);
      EXPECT_EQ(h.model.Failure().substr(0, 2), "I3") << h.model.Failure();
    } else {
      EXPECT_GE(waited, 4);  // the MRF read of the register, then the slot write
      EXPECT_EQ(h.model.Failure(), "");
      h.Idle();
      EXPECT_EQ(h.UntilDispatch(4), 0);
      EXPECT_EQ(h.out[P::kDispData].get(0, h.spec.width), 0x5aU);
    }
  }
}

// One planted bug per invariant; each is caught by its own check.
TEST(HybridSystemModel, EachInvariantCatchesItsMutation) {
  const struct {
    HybridSystemModel::Fault fault;
    const char* check;
  } cases[] = {
      {HybridSystemModel::Fault::kNoSnoop, "I1"},
      {HybridSystemModel::Fault::kDropWriteBack, "I2"},
      {HybridSystemModel::Fault::kSwapOperands, "I4"},
  };
  const HybridSystemSpec s = MakeSpec();
  for (const auto& c : cases) {
    HybridSystemModel m(s);
    m.InjectFault(c.fault);
    const RunStats r = RunWithStimulus(m, s, 500000, 5);
    EXPECT_EQ(r.failure.substr(0, 2), c.check) << r.failure;
  }
}

}  // namespace
}  // namespace gpurf
