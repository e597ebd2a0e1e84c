// The MRF golden model (MrfCore) against cycles computed by hand from Gebhart section 2.1 and
// the contract in mrf_spec.h: the interleavings, conflict-free and serialized operand reads
// with their exact dispatch cycles, oldest-first bank arbitration across collectors, the two
// write-back policies on a same-row collision, read-after-write through the banks, issue
// stalls, counters and reset. Then the model's own invariant checks firing on deliberately
// broken variants of the model (one per invariant).
#include "models/mrf_model.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "gen/structures/mrf/mrf_spec.h"

namespace gpurf {
namespace {

MrfSpec Spec(const std::map<std::string, std::string>& values) {
  ParamSet p(MrfSpec::ParamDescs());
  for (const auto& [k, v] : values)
    p.Set(k, v, {}, "--" + k);
  return MrfSpec::FromParams(p);
}

// 4 banks x 16 rows x 16 bits, 4 warps x 8 registers, 2 collectors.
MrfSpec Small(const std::string& policy = "write-priority",
              const std::string& interleave = "register") {
  return Spec({{"banks", "4"},
               {"rows", "16"},
               {"width", "16"},
               {"warps", "4"},
               {"regs", "8"},
               {"collectors", "2"},
               {"wb_policy", policy},
               {"interleave", interleave}});
}

MrfIssue Issue(int warp, std::initializer_list<int> regs, uint64_t tag = 0) {
  MrfIssue i;
  i.valid = true;
  i.tag = tag;
  i.warp = warp;
  int s = 0;
  for (int r : regs) {
    i.src_valid[s] = true;
    i.src_reg[s] = r;
    ++s;
  }
  return i;
}

MrfWriteBack Wb(const MrfSpec& spec, int warp, int reg, uint64_t value) {
  MrfWriteBack w;
  w.valid = true;
  w.warp = warp;
  w.reg = reg;
  w.data = Bits(spec.width, value);
  return w;
}

MrfWriteBack NoWb(const MrfSpec& spec) {
  MrfWriteBack w;
  w.data = Bits(spec.width);
  return w;
}

// Writes value 100*warp + reg into every register, one write-back per cycle.
void Fill(MrfCore& core) {
  const MrfSpec& s = core.spec();
  for (int w = 0; w < s.warps; ++w) {
    for (int r = 0; r < s.regs; ++r)
      core.Step(MrfIssue{}, Wb(s, w, r, 100 * w + r), false, false);
  }
}

// Steps with no new requests until an instruction is presented; returns the cycles waited.
int CyclesToDispatch(MrfCore& core, MrfDispatch* out = nullptr, int limit = 50) {
  const MrfWriteBack none = NoWb(core.spec());
  for (int c = 0; c < limit; ++c) {
    const auto v = core.Evaluate(MrfIssue{}, none, false);
    if (v.disp.valid) {
      if (out != nullptr)
        *out = v.disp;
      core.Step(MrfIssue{}, none, true, false);
      return c;
    }
    core.Step(MrfIssue{}, none, true, false);
  }
  return -1;
}

TEST(MrfModel, InterleavingsAreOneToOneAndFollowTheDocumentedFormula) {
  for (const char* il : {"register", "warp-swizzled"}) {
    const MrfSpec s =
        Spec({{"banks", "3"}, {"rows", "20"}, {"warps", "4"}, {"regs", "7"}, {"interleave", il}});
    const MrfCore core(s);
    std::set<std::pair<int, int>> seen;
    for (int w = 0; w < s.warps; ++w) {
      for (int r = 0; r < s.regs; ++r) {
        const auto l = core.Locate(w, r);
        EXPECT_TRUE(seen.insert({l.bank, l.row}).second) << il << " w" << w << " r" << r;
        EXPECT_LT(l.row, s.rows);
        // Agrees with the spec's statement used by the generator's documentation.
        EXPECT_EQ(l.bank, s.BankOf(w, r));
        EXPECT_EQ(l.row, s.RowOf(w, r));
      }
    }
  }
  // Hand-computed: 3 banks, 7 regs -> 3 rows per warp.
  const MrfCore reg(Spec({{"banks", "3"}, {"rows", "20"}, {"warps", "4"}, {"regs", "7"}}));
  EXPECT_EQ(reg.Locate(2, 5).bank, 2);  // 5 mod 3
  EXPECT_EQ(reg.Locate(2, 5).row, 7);   // 2*3 + 5 div 3
  const MrfCore swz(Spec({{"banks", "3"},
                          {"rows", "20"},
                          {"warps", "4"},
                          {"regs", "7"},
                          {"interleave", "warp-swizzled"}}));
  EXPECT_EQ(swz.Locate(2, 5).bank, 1);  // (2 + 5) mod 3
  EXPECT_EQ(swz.Locate(2, 5).row, 7);
}

TEST(MrfModel, ConflictFreeInstructionDispatchesThreeCyclesAfterIssue) {
  const MrfSpec s = Small();
  MrfCore core(s);
  Fill(core);
  const auto v0 = core.Evaluate(Issue(1, {0, 1, 2}, 7), NoWb(s), false);
  ASSERT_TRUE(v0.issue_ready);
  EXPECT_EQ(v0.alloc, 0);
  core.Step(Issue(1, {0, 1, 2}, 7), NoWb(s), true, false);  // cycle t: accepted
  MrfDispatch d;
  // t+1: three reads in banks 0, 1, 2; t+2: data arrives; t+3: dispatch.
  EXPECT_EQ(CyclesToDispatch(core, &d), 2);
  EXPECT_EQ(d.tag, 7u);
  EXPECT_EQ(d.warp, 1);
  for (int k = 0; k < 3; ++k) {
    EXPECT_TRUE(d.src_valid[k]);
    EXPECT_TRUE(d.defined[k]);
    EXPECT_EQ(d.data[k].get(0, 16), 100u + k);
  }
  EXPECT_EQ(core.counters().reads, 3u);
  EXPECT_EQ(core.counters().conflicts, 0u);
  EXPECT_EQ(core.counters().dispatched, 1u);
}

TEST(MrfModel, OperandsInOneBankSerialize) {
  const MrfSpec s = Small();
  MrfCore core(s);
  Fill(core);
  core.Step(Issue(2, {0, 4, 0}), NoWb(s), true, false);  // regs 0, 4, 0: all bank 0
  MrfDispatch d;
  EXPECT_EQ(CyclesToDispatch(core, &d), 4);  // reads in t+1, t+2, t+3
  EXPECT_EQ(d.data[0].get(0, 16), 200u);
  EXPECT_EQ(d.data[1].get(0, 16), 204u);
  EXPECT_EQ(d.data[2].get(0, 16), 200u);
  EXPECT_EQ(core.counters().reads, 3u);
  EXPECT_EQ(core.counters().conflicts, 2u + 1u);  // 2 wait in t+1, 1 in t+2
}

TEST(MrfModel, OlderInstructionWinsTheBankAndDispatchesFirst) {
  const MrfSpec s = Small();
  MrfCore core(s);
  Fill(core);
  core.Step(Issue(0, {1}, 1), NoWb(s), true, false);  // collector 0, bank 1
  // The next cycle: collector 0 reads bank 1; a second instruction (collector 1) arrives.
  core.Step(Issue(3, {5, 1}, 2), NoWb(s), true, false);
  // Collector 1's slots both need bank 1: slot A in the next cycle, B after it.
  MrfDispatch d;
  EXPECT_EQ(CyclesToDispatch(core, &d), 1);  // collector 0: read in t+1, dispatched in t+3
  EXPECT_EQ(d.tag, 1u);
  EXPECT_EQ(CyclesToDispatch(core, &d), 1);  // collector 1: reads in t+2 and t+3
  EXPECT_EQ(d.tag, 2u);
  EXPECT_EQ(d.data[0].get(0, 16), 305u);
  EXPECT_EQ(d.data[1].get(0, 16), 301u);
}

TEST(MrfModel, CollisionWithWriteBackFollowsThePolicy) {
  for (const bool write_first : {true, false}) {
    const MrfSpec s = Small(write_first ? "write-priority" : "read-priority");
    MrfCore core(s);
    Fill(core);
    core.Step(Issue(1, {2}), NoWb(s), false, false);
    // The read of (1, 2) and a write-back of (1, 2) in the same cycle.
    const MrfWriteBack wb = Wb(s, 1, 2, 0xBEEF);
    const auto v = core.Evaluate(MrfIssue{}, wb, false);
    if (write_first) {
      EXPECT_TRUE(v.wb_ready);
      EXPECT_TRUE(v.grants.empty());  // the read waits a cycle and sees the new value
    } else {
      EXPECT_FALSE(v.wb_ready);  // the write waits; the read sees the old value
      EXPECT_EQ(v.grants.size(), 1u);
    }
    core.Step(MrfIssue{}, wb, false, false);
    if (!write_first)
      core.Step(MrfIssue{}, wb, false, false);  // the write-back is offered again and taken
    MrfDispatch d;
    ASSERT_GE(CyclesToDispatch(core, &d), 0);
    EXPECT_EQ(d.data[0].get(0, 16), write_first ? 0xBEEFu : 102u);
    EXPECT_EQ(core.counters().conflicts, write_first ? 1u : 0u);
    EXPECT_EQ(core.counters().wb_stalls, write_first ? 0u : 1u);
    EXPECT_EQ(*core.Register(1, 2), Bits(16, 0xBEEF));
  }
}

TEST(MrfModel, FullCollectorsStallIssueAndResetClearsThemButNotTheBanks) {
  const MrfSpec s = Small();
  MrfCore core(s);
  Fill(core);
  const uint64_t writes = core.counters().writes;
  EXPECT_EQ(writes, 32u);
  core.Step(Issue(0, {0}), NoWb(s), false, false);
  core.Step(Issue(0, {1}), NoWb(s), false, false);
  EXPECT_EQ(core.BusyCollectors(), 2);
  const auto v = core.Evaluate(Issue(0, {2}), NoWb(s), false);
  EXPECT_FALSE(v.issue_ready);
  core.Step(Issue(0, {2}), NoWb(s), false, false);
  EXPECT_EQ(core.counters().issue_stalls, 1u);
  // In reset nothing is accepted and every collector frees; the counters clear.
  const auto r = core.Evaluate(Issue(0, {2}), Wb(s, 0, 0, 1), true);
  EXPECT_FALSE(r.issue_ready);
  EXPECT_FALSE(r.wb_ready);
  EXPECT_FALSE(r.disp.valid);
  core.Step(Issue(0, {2}), Wb(s, 0, 0, 1), false, true);
  EXPECT_EQ(core.BusyCollectors(), 0);
  EXPECT_EQ(core.counters().writes, 0u);
  EXPECT_EQ(*core.Register(0, 0), Bits(16, 0));  // the reset-cycle write-back was not taken
  EXPECT_EQ(*core.Register(3, 7), Bits(16, 307));
}

TEST(MrfModel, InstructionWithoutSourcesDispatchesNextCycleAndUnwrittenDataIsUndefined) {
  const MrfSpec s = Small();
  MrfCore core(s);
  MrfIssue i = Issue(0, {}, 5);
  core.Step(i, NoWb(s), false, false);
  MrfDispatch d;
  EXPECT_EQ(CyclesToDispatch(core, &d), 0);
  EXPECT_EQ(d.tag, 5u);
  core.Step(Issue(0, {3}), NoWb(s), false, false);
  EXPECT_EQ(CyclesToDispatch(core, &d), 2);
  EXPECT_TRUE(d.src_valid[0]);
  EXPECT_FALSE(d.defined[0]);  // register never written
}

// Each invariant of the model fires when the model is deliberately broken.
struct FaultCase {
  MrfCore::Fault fault;
  std::initializer_list<int> regs;  // of the one instruction (warp 1)
  bool collide;                     // write the first source's register while it is read
  const char* message;
};

TEST(MrfModel, InvariantChecksFireOnABrokenModel) {
  const FaultCase cases[] = {
      {MrfCore::Fault::kTwoReadsPerBank, {2, 6}, false, "serves two reads in one cycle"},
      {MrfCore::Fault::kReadWriteSameRow, {2}, true, "read and written in one cycle"},
      {MrfCore::Fault::kDispatchEarly, {2}, false, "dispatched before its slot"},
  };
  for (const auto& fc : cases) {
    const MrfSpec s = Small();
    MrfCore core(s);
    Fill(core);
    core.InjectFault(fc.fault);
    const MrfIssue issue = Issue(1, fc.regs);
    // The same cycles are fine for the correct model.
    MrfCore good(s);
    Fill(good);
    good.Step(issue, NoWb(s), true, false);
    good.Step(MrfIssue{}, fc.collide ? Wb(s, 1, 2, 9) : NoWb(s), true, false);
    for (int c = 0; c < 5; ++c)
      good.Step(MrfIssue{}, NoWb(s), true, false);
    try {
      core.Step(issue, NoWb(s), true, false);
      core.Step(MrfIssue{}, fc.collide ? Wb(s, 1, 2, 9) : NoWb(s), true, false);
      for (int c = 0; c < 5; ++c)
        core.Step(MrfIssue{}, NoWb(s), true, false);
      ADD_FAILURE() << "fault " << static_cast<int>(fc.fault) << " went unnoticed";
    } catch (const std::logic_error& e) {
      EXPECT_NE(std::string(e.what()).find(fc.message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace gpurf
