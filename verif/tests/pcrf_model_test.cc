// The PCRF's golden model against hand-worked cycles of FineReg's save and restore (Fig. 11):
// chains in save order through the lowest free entries, the walk's timing (HopCycles per
// entry, pipelined or not), the end bit, the pointer table and the free-space monitor, a full
// PCRF refusing appends, interleaved chains of several CTAs, a restore and an append of the
// same CTA in one cycle, backpressure, reset mid-walk and the contract on CTA slots; and the
// stimulus's coverage of every corner it promises.
#include <gtest/gtest.h>

#include <set>

#include "verif/stimulus/pcrf_stimulus.h"
#include "verif/tests/pcrf_test_util.h"

namespace gpurf {
namespace {

using P = PcrfPort;
using test::PcrfDriver;

PcrfSpec Small(int hop = 4, bool pipelined = true, int entries = 8) {
  return test::MakePcrfSpec(
      {.entries = entries, .row_bytes = 8, .ctas = 4, .hop_cycles = hop, .pipelined = pipelined});
}

TEST(PcrfModel, ResetStateAndPaperDefaults) {
  const PcrfSpec paper = test::MakePcrfSpec({});
  EXPECT_EQ(paper.entry_bits, 10);  // the paper's 10-bit next pointer
  EXPECT_EQ(paper.warp_bits, 5);
  EXPECT_EQ(paper.reg_bits, 6);
  EXPECT_EQ(paper.tag_bits, 23);  // 1 + 1 + 10 + 5 + 6 (the paper states 21)
  EXPECT_EQ(paper.count_bits, 11);
  PcrfDriver d(Small());
  d.Eval();
  EXPECT_EQ(d.Out(P::kAppReady), 1U);
  EXPECT_EQ(d.Out(P::kAppEntry), 0U);
  EXPECT_EQ(d.Out(P::kRsReady), 1U);
  EXPECT_EQ(d.Out(P::kFreeCount), 8U);
  EXPECT_EQ(d.Out(P::kOutValid), 0U);
  EXPECT_EQ(d.def[P::kOutData].any(), false);  // the SRAM latch is undefined before any read
  d.in[P::kRstN] = Bits(1, 0);
  d.Eval();
  EXPECT_EQ(d.Out(P::kFreeCount), 0U);  // every output zero in reset
  EXPECT_EQ(d.Out(P::kAppReady), 0U);
}

// Fig. 11: CTA 0 saves three registers, which take entries 0, 1, 2; the walk returns them in
// save order, HopCycles - 1 cycles after each issue, the last with the end bit.
TEST(PcrfModel, ChainSaveAndPipelinedRestore) {
  PcrfDriver d(Small(4, true));
  const int regs[3][2] = {{0, 5}, {3, 1}, {31, 63}};
  for (int i = 0; i < 3; ++i) {
    d.Append(0, regs[i][0], regs[i][1], 0x1000 + i);
    d.Eval();
    EXPECT_EQ(d.Out(P::kAppEntry), static_cast<uint64_t>(i));
    d.Step();
  }
  d.Query(0);
  d.Eval();
  EXPECT_EQ(d.Out(P::kQCount), 3U);
  EXPECT_EQ(d.Out(P::kQHeadValid), 1U);
  EXPECT_EQ(d.Out(P::kQHead), 0U);
  EXPECT_EQ(d.Out(P::kFreeCount), 5U);
  // Restore accepted in cycle t = 0; issues in cycles 1, 2, 3; outputs in 1+3, 2+3, 3+3.
  d.Restore(0);
  d.Eval();
  EXPECT_EQ(d.Out(P::kRsReady), 1U);
  d.Step();  // cycle 0
  d.Eval();
  EXPECT_EQ(d.Out(P::kQCount), 0U);  // the line is empty as soon as the walk has the chain
  EXPECT_EQ(d.Out(P::kQHeadValid), 0U);
  EXPECT_EQ(d.Out(P::kRsReady), 0U);  // the walker is issuing
  for (int cycle = 1; cycle <= 6; ++cycle) {
    d.Eval();
    const int i = cycle - 4;
    if (i >= 0) {
      ASSERT_EQ(d.Out(P::kOutValid), 1U) << cycle;
      EXPECT_EQ(d.Out(P::kOutCta), 0U);
      EXPECT_EQ(d.Out(P::kOutWarp), static_cast<uint64_t>(regs[i][0]));
      EXPECT_EQ(d.Out(P::kOutReg), static_cast<uint64_t>(regs[i][1]));
      EXPECT_EQ(d.Out(P::kOutEntry), static_cast<uint64_t>(i));
      EXPECT_EQ(d.Out(P::kOutData), 0x1000U + static_cast<uint64_t>(i));
      EXPECT_EQ(d.Out(P::kOutLast), i == 2 ? 1U : 0U);
      EXPECT_TRUE(d.def[P::kOutData].any());
      // An entry is freed as it enters the last stage.
      EXPECT_EQ(d.Out(P::kFreeCount), 5U + static_cast<uint64_t>(i) + 1);
    } else {
      EXPECT_EQ(d.Out(P::kOutValid), 0U) << cycle;
    }
    EXPECT_EQ(d.Out(P::kRsReady), cycle >= 4 ? 1U : 0U) << cycle;
    d.Step();
  }
  d.Eval();
  EXPECT_EQ(d.Out(P::kOutValid), 0U);
  EXPECT_EQ(d.Out(P::kFreeCount), 8U);
  EXPECT_EQ(d.model().Failure(), "");
}

// Without pipelining one entry per HopCycles: outputs 5 cycles apart with HopCycles = 5.
TEST(PcrfModel, UnpipelinedWalkTakesHopCyclesPerEntry) {
  PcrfDriver d(Small(5, false));
  for (int i = 0; i < 3; ++i) {
    d.Append(2, i, i, 7 * i);
    d.Step();
  }
  d.Restore(2);
  d.Step();  // cycle 0
  std::vector<int> seen;
  for (int cycle = 1; cycle <= 20; ++cycle) {
    d.Eval();
    if (d.Out(P::kOutValid))
      seen.push_back(cycle);
    d.Step();
  }
  EXPECT_EQ(seen, (std::vector<int>{5, 10, 15}));  // issue 1 -> out 1+4, next issue 6, ...
}

// Chains of several CTAs interleave in the entries; freed entries are reused lowest first.
TEST(PcrfModel, InterleavedChainsAndLowestFreeReuse) {
  PcrfDriver d(Small());
  d.Append(1, 0, 0, 10);  // entry 0
  d.Step();
  d.Append(3, 0, 1, 30);  // entry 1
  d.Step();
  d.Append(1, 1, 0, 11);  // entry 2
  d.Step();
  d.Append(3, 1, 1, 31);  // entry 3
  d.Step();
  d.Restore(1);
  d.Step();
  std::vector<uint64_t> entries, data;
  for (int c = 0; c < 8; ++c) {
    d.Eval();
    if (d.Out(P::kOutValid)) {
      entries.push_back(d.Out(P::kOutEntry));
      data.push_back(d.Out(P::kOutData));
      EXPECT_EQ(d.Out(P::kOutCta), 1U);
    }
    d.Step();
  }
  EXPECT_EQ(entries, (std::vector<uint64_t>{0, 2}));
  EXPECT_EQ(data, (std::vector<uint64_t>{10, 11}));
  d.Append(0, 0, 0, 1);
  d.Eval();
  EXPECT_EQ(d.Out(P::kAppEntry), 0U);  // entry 0 again
  d.Step();
  d.Query(3);
  d.Eval();
  EXPECT_EQ(d.Out(P::kQCount), 2U);
  EXPECT_EQ(d.Out(P::kQHead), 1U);
  EXPECT_EQ(d.Out(P::kAppEntry), 2U);
}

TEST(PcrfModel, FullPcrfRefusesAppends) {
  PcrfDriver d(Small(4, true, 4));
  for (int i = 0; i < 4; ++i) {
    d.Append(i % 2, 0, i, i);
    d.Step();
  }
  d.Append(0, 0, 9, 99);
  d.Eval();
  EXPECT_EQ(d.Out(P::kAppReady), 0U);
  EXPECT_EQ(d.Out(P::kAppEntry), 0U);
  EXPECT_EQ(d.Out(P::kFreeCount), 0U);
  d.Step();  // refused: nothing changes
  d.Query(0);
  d.Eval();
  EXPECT_EQ(d.Out(P::kQCount), 2U);
  EXPECT_EQ(d.model().Failure(), "");
}

// A restore and an append of the same CTA in one cycle: the walk takes the two saved
// registers, the appended one starts a new chain.
TEST(PcrfModel, SameCycleRestoreAndAppendOfOneCta) {
  PcrfDriver d(Small());
  d.Append(2, 0, 0, 1);
  d.Step();
  d.Append(2, 0, 1, 2);
  d.Step();
  d.Append(2, 0, 2, 3);
  d.Restore(2);
  d.Step();
  d.Query(2);
  d.Eval();
  EXPECT_EQ(d.Out(P::kQCount), 1U);
  EXPECT_EQ(d.Out(P::kQHead), 2U);
  int outs = 0;
  for (int c = 0; c < 8; ++c) {
    d.Eval();
    if (d.Out(P::kOutValid)) {
      ++outs;
      EXPECT_LE(d.Out(P::kOutData), 2U);
      EXPECT_EQ(d.Out(P::kOutLast), d.Out(P::kOutData) == 2U ? 1U : 0U);
    }
    d.Step();
  }
  EXPECT_EQ(outs, 2);
}

// The consumer not ready holds the output and stalls the pipeline; the entry in the last stage
// is already free and can be taken by an append.
TEST(PcrfModel, BackpressureHoldsTheOutput) {
  PcrfDriver d(Small(4, true, 4));
  for (int i = 0; i < 4; ++i) {
    d.Append(0, 0, i, 100 + i);
    d.Step();
  }
  d.Restore(0);
  d.Step();
  d.in[P::kOutReady] = Bits(1, 0);
  for (int c = 0; c < 10; ++c)
    d.Step();
  d.Eval();
  EXPECT_EQ(d.Out(P::kOutValid), 1U);
  EXPECT_EQ(d.Out(P::kOutData), 100U);
  EXPECT_EQ(d.Out(P::kFreeCount), 1U);  // only the first entry was freed
  EXPECT_EQ(d.Out(P::kAppEntry), 0U);
  d.Append(1, 0, 0, 7);
  d.Step();  // entry 0 reused while its old register waits at the output
  d.in[P::kOutReady] = Bits(1, 1);
  std::vector<uint64_t> data;
  for (int c = 0; c < 8; ++c) {
    d.Eval();
    if (d.Out(P::kOutValid))
      data.push_back(d.Out(P::kOutData));
    d.Step();
  }
  EXPECT_EQ(data, (std::vector<uint64_t>{100, 101, 102, 103}));
  EXPECT_EQ(d.model().Failure(), "");
}

TEST(PcrfModel, ResetMidWalkEmptiesEverything) {
  PcrfDriver d(Small());
  for (int i = 0; i < 5; ++i) {
    d.Append(0, 0, i, i);
    d.Step();
  }
  d.Restore(0);
  d.Step();
  d.Step();
  d.in[P::kRstN] = Bits(1, 0);
  d.Step();
  d.in[P::kRstN] = Bits(1, 1);
  d.Eval();
  EXPECT_EQ(d.Out(P::kFreeCount), 8U);
  EXPECT_EQ(d.Out(P::kRsReady), 1U);
  EXPECT_EQ(d.Out(P::kOutValid), 0U);
}

TEST(PcrfModel, CtaSlotOutOfRangeIsAContractFailure) {
  const PcrfSpec spec = test::MakePcrfSpec({.entries = 8, .row_bytes = 8, .ctas = 3});
  PcrfDriver d(spec);
  d.Append(3, 0, 0, 0);
  d.Step();
  EXPECT_NE(d.model().Failure().find("contract: append CTA 3 >= 3"), std::string::npos)
      << d.model().Failure();
}

// The stimulus reaches what it promises on a small PCRF: full with appends refused, empty
// after holding registers, restores while saving, many CTAs holding chains at once, the
// output stalled, and every phase.
TEST(PcrfStimulusCoverage, ReachesEveryCorner) {
  const PcrfSpec spec = test::MakePcrfSpec({.entries = 16, .row_bytes = 8, .ctas = 8});
  PcrfStimulus stim(spec, 5);
  PcrfDriver d(spec);
  int refused = 0, emptied = 0, swaps = 0, stalls = 0, max_ctas = 0, restores = 0;
  bool was_nonempty = false;
  std::set<std::string> phases;
  for (uint64_t c = 0; c < 60000; ++c) {
    stim.Next(c, d.in);
    phases.insert(stim.Phase());
    d.Eval();
    const bool rst = d.in[P::kRstN].bit(0);
    if (rst && d.in[P::kAppValid].bit(0) && !d.Out(P::kAppReady))
      ++refused;
    if (rst && d.in[P::kAppValid].bit(0) && d.Out(P::kAppReady) && d.model().walking())
      ++swaps;
    if (rst && d.in[P::kRsValid].bit(0) && d.Out(P::kRsReady) &&
        !d.model().Chain(static_cast<int>(d.in[P::kRsCta].get(0, spec.cta_bits))).empty())
      ++restores;
    if (d.Out(P::kOutValid) && !d.in[P::kOutReady].bit(0))
      ++stalls;
    const int free = static_cast<int>(d.Out(P::kFreeCount));
    if (rst && free < spec.entries)
      was_nonempty = true;
    if (rst && free == spec.entries && was_nonempty) {
      ++emptied;
      was_nonempty = false;
    }
    int holding = 0;
    for (int cta = 0; cta < spec.ctas; ++cta)
      holding += d.model().Chain(cta).empty() ? 0 : 1;
    max_ctas = std::max(max_ctas, holding);
    d.model().Clock(d.in);
    ASSERT_EQ(d.model().Failure(), "") << c;
  }
  EXPECT_GT(refused, 100);
  EXPECT_GT(emptied, 5);
  EXPECT_GT(swaps, 500);
  EXPECT_GT(restores, 200);
  EXPECT_GT(stalls, 500);
  EXPECT_EQ(max_ctas, spec.ctas);
  for (const char* p :
       {"reset", "fill", "drain", "swap", "many-ctas", "backpressure", "idle", "reset-pulse"})
    EXPECT_TRUE(phases.count(p)) << p;
}

}  // namespace
}  // namespace gpurf
