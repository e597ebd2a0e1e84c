// The hybrid-rc golden model against hand-worked cases on a tiny geometry (2 sets x 2 ways, 2
// RSP slots): the register-to-set mapping, parameter rejections, write-allocate with LRU victims
// written back, liveness invalidation without write-back, reads seeing the start of the cycle,
// same-cycle conflicts between the two instructions, fills and live-outs in each organization,
// and the contract checks (RSP miss, a transfer under parallel-lifetime). Then the stimulus
// coverage: every corner the model distinguishes is reached by gpurf verify's stimulus.
#include "models/hybrid_rc_model.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/diag.h"
#include "verif/stimulus/hybrid_rc_stimulus.h"
#include "verif/tests/hybrid_rc_test_util.h"

namespace gpurf {
namespace {

using S = HybridRcSpec;
using test::TinyHybridSpec;

// One cycle's inputs, built by hand.
struct Cycle {
  explicit Cycle(const HybridRcSpec& s) {
    in.reads.resize(S::kReadPorts);
    in.writes.resize(S::kWritePorts);
    for (auto& w : in.writes)
      w.data = Bits(s.width);
    in.xf.data = Bits(s.width);
    width = s.width;
  }
  Cycle& Rc(int p, int warp, int reg, bool last = false) {
    in.reads[p] = {true, false, last, 0, warp, reg};
    return *this;
  }
  Cycle& Rsp(int p, int slot) {
    in.reads[p] = {true, true, false, slot, 0, 0};
    return *this;
  }
  Cycle& WriteRc(int q, int warp, int reg, uint64_t v) {
    in.writes[q] = {true, false, 0, warp, reg, Bits(width, v)};
    return *this;
  }
  Cycle& WriteRsp(int q, int slot, uint64_t v) {
    in.writes[q] = {true, true, slot, 0, 0, Bits(width, v)};
    return *this;
  }
  Cycle& Fill(int slot, int warp, int reg, uint64_t mrf) {
    in.xf = {true, S::kFill, slot, warp, reg, Bits(width, mrf)};
    return *this;
  }
  Cycle& LiveOut(int slot, int warp, int reg) {
    in.xf = {true, S::kLiveOut, slot, warp, reg, Bits(width)};
    return *this;
  }
  HybridRc::Inputs in;
  int width = 0;
};

uint64_t Val(const Bits& b) {
  return b.get(0, b.width());
}

TEST(HybridRcSpec, PaperDefaultPerScheduler) {
  const HybridRcSpec s = test::MakeHybridSpec({});
  EXPECT_EQ(s.rc_lines, 16);  // 2 KB of 128-byte lines: 4 warp registers x 4 active warps
  EXPECT_EQ(s.sets, 8);
  EXPECT_EQ(s.rsp_slots, 8);  // 1 KB: 2 registers per active warp
  EXPECT_EQ(s.tag_width, 4 + 8 - 3);
  EXPECT_EQ(s.rc_storage.read_ports, 9);
  EXPECT_EQ(s.rc_storage.write_ports, 3);
  EXPECT_EQ(s.rsp_storage.read_ports, 7);
}

TEST(HybridRcSpec, SetAndTagRoundTrip) {
  const HybridRcSpec s = test::MakeHybridSpec({.warps = 8, .reg_bits = 5});
  for (int w = 0; w < s.warps; ++w) {
    for (int r = 0; r < (1 << s.reg_bits); ++r) {
      const int set = s.SetOf(w, r);
      EXPECT_EQ(set, (r ^ w) % s.sets);
      EXPECT_EQ(s.WarpOf(s.TagOf(w, r)), w);
      EXPECT_EQ(s.RegOf(set, s.TagOf(w, r)), r);
    }
  }
  // The warp bits spread register 0 of consecutive warps over the sets.
  EXPECT_NE(s.SetOf(0, 0), s.SetOf(1, 0));
}

TEST(HybridRcSpec, RejectsWhatItCannotBuild) {
  auto rejects = [](const test::HybridShape& shape, const std::string& field) {
    try {
      test::MakeHybridSpec(shape);
      ADD_FAILURE() << field << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  rejects({.rc_bytes = 1000}, "rc_bytes");                // not whole lines
  rejects({.rc_bytes = 640}, "rc_bytes");                 // 5 lines: not whole 2-way sets
  rejects({.rc_bytes = 0, .rsp_bytes = 0}, "rsp_bytes");  // neither an RC nor an RSP
  rejects({.rc_bytes = 0, .organization = "parallel-evict"}, "organization");
  rejects({.rc_bytes = 256}, "rc_bytes");                  // 1 set
  rejects({.rsp_bytes = 200}, "rsp_bytes");                // not whole slots
  rejects({.rsp_bytes = 128}, "rsp_bytes");                // 1 slot
  rejects({.ways = 3}, "ways");                            // not a power of two
  rejects({.warps = 12}, "warps");                         // not a power of two
  rejects({.rc_bytes = 4096, .reg_bits = 4}, "reg_bits");  // 16 sets: no tag bit left
  rejects({.line_bytes = 96}, "line_bytes");
}

// A number of sets that is not a power of two (3): the set is (r ^ w) mod 3, the tag the whole
// register; set and tag still name the register back.
TEST(HybridRcSpec, NonPowerOfTwoSetsRoundTrip) {
  const HybridRcSpec s = test::MakeHybridSpec({.rc_bytes = 768, .warps = 4, .reg_bits = 4});
  EXPECT_EQ(s.sets, 3);
  EXPECT_FALSE(s.sets_pow2);
  EXPECT_EQ(s.tag_width, 2 + 4);
  for (int w = 0; w < s.warps; ++w) {
    for (int r = 0; r < (1 << s.reg_bits); ++r) {
      const int set = s.SetOf(w, r);
      EXPECT_EQ(set, (r ^ w) % 3);
      EXPECT_EQ(s.WarpOf(s.TagOf(w, r)), w);
      EXPECT_EQ(s.RegOf(set, s.TagOf(w, r)), r);
    }
  }
}

// RSP only: every RC read misses; an RC write and a live-out go to the MRF at once, on their
// channels, with their values; a fill takes the MRF's value.
TEST(HybridRcModel, RspOnlyPassesRcTrafficToTheMrf) {
  const HybridRcSpec s = test::MakeHybridSpec({0, 256, 128, 2, 2, 3, 8, "hierarchical"});
  HybridRc m(s);
  HybridRc::Outputs o = m.Step(Cycle(s).WriteRc(1, 1, 5, 0x55).WriteRsp(0, 0, 0x33).in);
  EXPECT_FALSE(o.wb[0].valid);
  ASSERT_TRUE(o.wb[1].valid);
  EXPECT_EQ(o.wb[1].warp, 1);
  EXPECT_EQ(o.wb[1].reg, 5);
  EXPECT_EQ(Val(o.wb[1].data), 0x55U);
  o = m.Step(Cycle(s).Rc(0, 1, 5).Rsp(1, 0).LiveOut(0, 0, 7).in);
  EXPECT_FALSE(o.hit[0]);  // nothing is cached
  EXPECT_TRUE(o.hit[1]);
  EXPECT_EQ(Val(o.data[1]), 0x33U);
  EXPECT_FALSE(o.xf_hit);
  ASSERT_TRUE(o.wb[2].valid);
  EXPECT_EQ(o.wb[2].reg, 7);
  EXPECT_EQ(Val(o.wb[2].data), 0x33U);
  o = m.Step(Cycle(s).Fill(1, 0, 3, 0x77).in);
  EXPECT_FALSE(o.wb[2].valid);
  o = m.Step(Cycle(s).Rsp(0, 1).in);
  EXPECT_EQ(Val(o.data[0]), 0x77U);
  EXPECT_TRUE(m.failure().empty()) << m.failure();
}

// RC only: an RSP read or a transfer breaks the contract (I4: there is no slot).
TEST(HybridRcModel, RcOnlyRspAccessIsAnRspMiss) {
  const HybridRcSpec s = test::MakeHybridSpec({768, 0, 128, 2, 2, 3, 8, "hierarchical"});
  {
    HybridRc m(s);
    m.Step(Cycle(s).WriteRc(0, 0, 4, 1).in);
    EXPECT_TRUE(m.failure().empty()) << m.failure();
    m.Step(Cycle(s).Rsp(2, 0).in);
    EXPECT_NE(m.failure().find("I4 violated"), std::string::npos) << m.failure();
  }
  HybridRc m(s);
  m.Step(Cycle(s).Fill(0, 0, 4, 1).in);
  EXPECT_NE(m.failure().find("I4 violated"), std::string::npos) << m.failure();
}

TEST(HybridRcModel, WriteAllocateLruVictimIsWrittenBack) {
  const HybridRcSpec s = TinyHybridSpec("hierarchical");
  HybridRc m(s);
  // Set 0 holds (0,0) and (0,2); reading (0,0) makes (0,2) the LRU; (0,4) evicts it.
  m.Step(Cycle(s).WriteRc(0, 0, 0, 0x10).WriteRc(1, 0, 2, 0x12).in);
  EXPECT_EQ(m.SetContents(0), (std::vector<std::pair<int, int>>{{0, 2}, {0, 0}}));
  HybridRc::Outputs o = m.Step(Cycle(s).Rc(0, 0, 0).Rc(4, 0, 1).in);
  EXPECT_TRUE(o.hit[0]);
  EXPECT_EQ(Val(o.data[0]), 0x10U);
  EXPECT_FALSE(o.hit[4]);  // (0,1) was never written: a miss the MRF serves
  o = m.Step(Cycle(s).WriteRc(0, 0, 4, 0x14).in);
  ASSERT_TRUE(o.wb[0].valid);
  EXPECT_EQ(o.wb[0].warp, 0);
  EXPECT_EQ(o.wb[0].reg, 2);
  EXPECT_EQ(Val(o.wb[0].data), 0x12U);
  EXPECT_FALSE(m.Holds(0, 2));
  // A write that hits overwrites in place: no victim.
  o = m.Step(Cycle(s).WriteRc(1, 0, 0, 0x20).in);
  EXPECT_FALSE(o.wb[1].valid);
  EXPECT_EQ(Val(*m.RcValue(0, 0)), 0x20U);
  EXPECT_EQ(m.failure(), "");
}

TEST(HybridRcModel, LastUseInvalidatesWithoutWriteBack) {
  const HybridRcSpec s = TinyHybridSpec("hierarchical");
  HybridRc m(s);
  m.Step(Cycle(s).WriteRc(0, 0, 0, 0x10).WriteRc(1, 0, 2, 0x12).in);
  // Two reads of (0,0), one with the hint: both hit, the line dies once.
  HybridRc::Outputs o = m.Step(Cycle(s).Rc(0, 0, 0, true).Rc(1, 0, 0).in);
  EXPECT_TRUE(o.hit[0] && o.hit[1]);
  EXPECT_FALSE(m.Holds(0, 0));
  EXPECT_EQ(m.dead_kills, 1U);
  // The freed way takes the next write: nothing is evicted, (0,0) is never written back.
  o = m.Step(Cycle(s).WriteRc(0, 0, 4, 0x14).in);
  EXPECT_FALSE(o.wb[0].valid);
  o = m.Step(Cycle(s).WriteRc(0, 0, 6, 0x16).in);
  ASSERT_TRUE(o.wb[0].valid);
  EXPECT_EQ(o.wb[0].reg, 2);  // the LRU of {(0,4), (0,2)}
}

TEST(HybridRcModel, ReadsSeeTheStartOfTheCycle) {
  const HybridRcSpec s = TinyHybridSpec("hierarchical");
  HybridRc m(s);
  HybridRc::Outputs o = m.Step(Cycle(s).WriteRc(0, 1, 3, 0x33).Rc(0, 1, 3).in);
  EXPECT_FALSE(o.hit[0]);  // written this cycle, not yet there
  m.Step(Cycle(s).WriteRsp(0, 1, 0x51).in);
  o = m.Step(Cycle(s).WriteRsp(0, 1, 0x52).Rsp(2, 1).Rc(3, 1, 3).WriteRc(1, 1, 3, 0x34).in);
  EXPECT_EQ(Val(o.data[2]), 0x51U);
  EXPECT_EQ(Val(o.data[3]), 0x33U);
  EXPECT_EQ(Val(*m.RspValue(1)), 0x52U);
  EXPECT_EQ(Val(*m.RcValue(1, 3)), 0x34U);
}

TEST(HybridRcModel, TwoInstructionsInOneSet) {
  const HybridRcSpec s = TinyHybridSpec("hierarchical");
  HybridRc m(s);
  m.Step(Cycle(s).WriteRc(0, 0, 0, 0xA0).WriteRc(1, 0, 2, 0xA2).in);  // set 0: (0,2) MRU
  // Write 0 evicts the LRU (0,0); write 1 then evicts (0,2), not write 0's line.
  HybridRc::Outputs o = m.Step(Cycle(s).WriteRc(0, 1, 1, 0xB1).WriteRc(1, 1, 3, 0xB3).in);
  ASSERT_TRUE(o.wb[0].valid && o.wb[1].valid);
  EXPECT_EQ(o.wb[0].reg, 0);
  EXPECT_EQ(Val(o.wb[0].data), 0xA0U);
  EXPECT_EQ(o.wb[1].reg, 2);
  EXPECT_EQ(m.SetContents(0), (std::vector<std::pair<int, int>>{{1, 3}, {1, 1}}));
  // Both instructions write one register: one line, the younger instruction's value.
  // (1,5) is in set 0 too: write 0 evicts the LRU (1,1), write 1 hits write 0's line.
  o = m.Step(Cycle(s).WriteRc(0, 1, 5, 0xC0).WriteRc(1, 1, 5, 0xC1).in);
  ASSERT_TRUE(o.wb[0].valid);
  EXPECT_EQ(o.wb[0].reg, 1);
  EXPECT_FALSE(o.wb[1].valid);
  EXPECT_EQ(Val(*m.RcValue(1, 5)), 0xC1U);
  // Reads touch in port order: the last read port's register is the most recent.
  m.Step(Cycle(s).Rc(0, 1, 5).Rc(5, 1, 3).in);
  EXPECT_EQ(m.SetContents(0).front(), (std::pair<int, int>{1, 3}));
}

TEST(HybridRcModel, HierarchicalTransfersGoThroughTheRc) {
  const HybridRcSpec s = TinyHybridSpec("hierarchical");
  HybridRc m(s);
  m.Step(Cycle(s).WriteRc(0, 0, 1, 0x11).in);
  // Fill of a register the RC holds: the RC's (newer) value, not the MRF's; the line stays.
  HybridRc::Outputs o = m.Step(Cycle(s).Fill(0, 0, 1, 0xEE).in);
  EXPECT_TRUE(o.xf_hit);
  EXPECT_EQ(Val(*m.RspValue(0)), 0x11U);
  EXPECT_TRUE(m.Holds(0, 1));
  // Fill of one it does not hold: the MRF's value; no read allocation.
  o = m.Step(Cycle(s).Fill(1, 1, 6, 0xEF).in);
  EXPECT_FALSE(o.xf_hit);
  EXPECT_EQ(Val(*m.RspValue(1)), 0xEFU);
  EXPECT_FALSE(m.Holds(1, 6));
  // Live-out: the slot's value becomes a dirty RC line, written back only when evicted.
  m.Step(Cycle(s).WriteRsp(0, 1, 0x77).in);
  o = m.Step(Cycle(s).LiveOut(1, 1, 6).in);
  EXPECT_FALSE(o.wb[2].valid);
  EXPECT_EQ(Val(*m.RcValue(1, 6)), 0x77U);
  // A live-out into a full set evicts its LRU on channel 2. Set 1: (0,1) and (1,6).
  o = m.Step(Cycle(s).LiveOut(1, 0, 3).in);
  ASSERT_TRUE(o.wb[2].valid);
  EXPECT_EQ(o.wb[2].warp, 0);
  EXPECT_EQ(o.wb[2].reg, 1);
  EXPECT_EQ(Val(o.wb[2].data), 0x11U);
  // A write evicting the line the live-out wrote this cycle sends the live-out's value.
  m.Step(Cycle(s).WriteRc(0, 1, 6, 0x66).in);  // set 1: (1,6) MRU, (0,3) LRU
  m.Step(Cycle(s).WriteRsp(0, 0, 0x99).in);
  o = m.Step(Cycle(s).LiveOut(0, 0, 3).WriteRc(0, 0, 7, 0x07).WriteRc(1, 1, 0, 0x10).in);
  ASSERT_TRUE(o.wb[1].valid);
  EXPECT_EQ(o.wb[1].reg, 3);
  EXPECT_EQ(Val(o.wb[1].data), 0x99U);
  EXPECT_EQ(m.failure(), "");
}

TEST(HybridRcModel, ParallelEvictKeepsNoCopyInTheRc) {
  const HybridRcSpec s = TinyHybridSpec("parallel-evict");
  HybridRc m(s);
  m.Step(Cycle(s).WriteRc(0, 0, 1, 0x11).WriteRc(1, 1, 2, 0x12).in);
  // Fill of a held register: written back and given up, the RSP takes its value.
  HybridRc::Outputs o = m.Step(Cycle(s).Fill(0, 0, 1, 0xEE).in);
  EXPECT_TRUE(o.xf_hit);
  ASSERT_TRUE(o.wb[2].valid);
  EXPECT_EQ(Val(o.wb[2].data), 0x11U);
  EXPECT_EQ(Val(*m.RspValue(0)), 0x11U);
  EXPECT_FALSE(m.Holds(0, 1));
  // Live-out: straight to the MRF; the RC's older copy is dropped without write-back.
  m.Step(Cycle(s).WriteRsp(0, 1, 0x55).in);
  o = m.Step(Cycle(s).LiveOut(1, 1, 2).in);
  ASSERT_TRUE(o.wb[2].valid);
  EXPECT_EQ(o.wb[2].reg, 2);
  EXPECT_EQ(Val(o.wb[2].data), 0x55U);
  EXPECT_FALSE(m.Holds(1, 2));
  EXPECT_EQ(m.failure(), "");
}

TEST(HybridRcModel, ContractViolationsFail) {
  {
    const HybridRcSpec s = TinyHybridSpec("hierarchical");
    HybridRc m(s);
    m.Step(Cycle(s).Rsp(0, 1).in);
    EXPECT_NE(m.failure().find("I4 violated"), std::string::npos) << m.failure();
  }
  {
    const HybridRcSpec s = TinyHybridSpec("hierarchical");
    HybridRc m(s);
    m.Step(Cycle(s).LiveOut(0, 0, 0).in);
    EXPECT_NE(m.failure().find("live-out of RSP slot 0"), std::string::npos) << m.failure();
  }
  {
    const HybridRcSpec s = TinyHybridSpec("parallel-lifetime");
    HybridRc m(s);
    m.Step(Cycle(s).Fill(0, 0, 0, 1).in);
    EXPECT_NE(m.failure().find("parallel-lifetime"), std::string::npos) << m.failure();
  }
}

// gpurf verify's stimulus reaches every corner the model distinguishes, in each organization.
TEST(HybridRcStimulus, ReachesEveryCorner) {
  for (const char* org : {"hierarchical", "parallel-evict", "parallel-lifetime"}) {
    SCOPED_TRACE(org);
    const HybridRcSpec s = test::MakeHybridSpec({.organization = org});
    HybridRcCycleModel m(s);
    HybridRcStimulus stim(s, 5);
    PortValues in, out, def;
    for (int p = 0; p < HybridRcPort::kNumPorts; ++p) {
      const int w = HybridRcPortTable(s)[p].width;
      in.emplace_back(w);
      out.emplace_back(w);
      def.emplace_back(w);
    }
    uint64_t same_set_writes = 0, same_set_evictions = 0, xf_wb = 0, resets = 0;
    std::set<std::string> phases;
    for (uint64_t c = 0; c < 50000; ++c) {
      stim.Next(c, in);
      phases.insert(stim.Phase());
      m.Outputs(in, out, def);
      const HybridRc::Inputs x = m.Decode(in);
      if (!in[HybridRcPort::kRstN].bit(0)) {
        ++resets;
      } else if (x.writes[0].valid && x.writes[1].valid && !x.writes[0].rsp && !x.writes[1].rsp &&
                 s.SetOf(x.writes[0].warp, x.writes[0].reg) ==
                     s.SetOf(x.writes[1].warp, x.writes[1].reg)) {
        ++same_set_writes;
        if (out[HybridRcPort::kWbValid].bit(0) && out[HybridRcPort::kWbValid].bit(1))
          ++same_set_evictions;
      }
      if (out[HybridRcPort::kWbValid].bit(2))
        ++xf_wb;
      m.Clock(in);
      ASSERT_EQ(m.Failure(), "") << "cycle " << c;
    }
    const HybridRc& r = m.rc();
    EXPECT_GT(r.rsp_reads, 250U);
    EXPECT_GT(r.rsp_writes, 250U);
    EXPECT_GT(r.rc_read_hits, 250U);
    EXPECT_GT(r.rc_read_misses, 250U);
    EXPECT_GT(r.rc_write_hits, 250U);
    EXPECT_GT(r.evictions, 250U);  // full sets, dirty victims written back
    EXPECT_GT(r.dead_kills, 250U);
    EXPECT_GT(same_set_writes, 125U);
    EXPECT_GT(same_set_evictions, 12U);
    EXPECT_GT(resets, 3U);
    EXPECT_EQ(phases.size(), 8U);
    if (s.transfers()) {
      EXPECT_GT(r.fills, 250U);
      EXPECT_GT(r.fill_hits, 50U);
      EXPECT_GT(r.fills - r.fill_hits, 50U);
      EXPECT_GT(r.live_outs, 250U);
      EXPECT_GT(xf_wb, 125U);  // live-out victims, or parallel-evict's transfers
    } else {
      EXPECT_EQ(r.fills + r.live_outs, 0U);
    }
  }
}

}  // namespace
}  // namespace gpurf
