// The tag-array golden model against hand-computed cases: the RGen bit fields of the paper's
// geometry, parameter rejections, every Fig. 6 transition, LRU order, both replacement policies
// (a load never takes a register line under lru-prioritized; a register takes a cache line, or
// under every-way-a-register the LRU register line), the dirty line's single write-back, and the
// bank-conflict serialization of the cycle model with its counter.
#include "models/tag_array_model.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "base/diag.h"
#include "gen/structures/tag_array/tag_array_ports.h"
#include "verif/stimulus/tag_array_stimulus.h"
#include "verif/tests/tag_array_test_util.h"

namespace gpurf {
namespace {

using S = TagArraySpec;
using test::SmallTagSpec;

uint64_t Mem(int set, uint64_t tag) {
  return tag << 4 | static_cast<uint64_t>(set) << 2;
}

TEST(TagArraySpec, RGenFieldsOfThePaperGeometry) {
  const TagArraySpec s = test::MakeTagSpec({});
  EXPECT_EQ(s.offset_bits, 7);   // 128-byte lines
  EXPECT_EQ(s.prefix_bits, 15);  // 32 - 7 - 10
  EXPECT_EQ(s.tag_width, 17);    // 32 - 7 - 8
  EXPECT_EQ(s.sets_per_bank, 64);
  // Warp 3, register 5: register address 3*32+5 = 0x65, << 7 = 0x3280, prefix 0x7fff << 17.
  const uint64_t a = s.RegMemAddress(3, 5);
  EXPECT_EQ(a, 0xFFFE3280U);
  EXPECT_EQ(s.BankOf(a), 1);       // 0x65 & 3: the two bits above the offset
  EXPECT_EQ(s.SetOf(a), 0x65);     // bank bits and the 6 set bits of the bank
  EXPECT_EQ(s.SetOf(a) >> 2, 25);  // set 25 of bank 1
  EXPECT_EQ(s.TagOf(a), 0x1FFFCU);
  EXPECT_TRUE(s.InRegSpace(a));
  EXPECT_FALSE(s.InRegSpace(0x7FFE3280U));
  EXPECT_EQ(s.LineAddress(s.SetOf(a), s.TagOf(a)), a);
  // Sequential registers go to sequential banks.
  EXPECT_EQ(s.BankOf(s.RegMemAddress(3, 6)), 2);
  EXPECT_EQ(s.BankOf(s.RegMemAddress(3, 7)), 3);
  EXPECT_EQ(s.BankOf(s.RegMemAddress(3, 8)), 0);
}

TEST(TagArraySpec, RejectsBadParametersWithTheAllowedRange) {
  EXPECT_THROW(test::MakeTagSpec({.ways = 3}), InputError);
  EXPECT_THROW(test::MakeTagSpec({.banks = 4, .sets = 4}), InputError);  // 1 set per bank
  // 16-bit addresses cannot hold a 7-bit offset and a 10-bit register address plus a prefix.
  try {
    test::MakeTagSpec({.addr_width = 16});
    FAIL() << "addr_width 16 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("18..48"), std::string::npos) << e.what();
  }
}

TEST(TagArrayModel, Fig6TransitionsOfOneLine) {
  const TagArraySpec s = SmallTagSpec(2, true);
  TagArray t(s);
  const uint64_t r = s.RegMemAddress(0, 0);  // set 0
  // inactive -> reg: a register write fills the lowest inactive way.
  auto x = t.Access(S::kWriteReg, false, r);
  EXPECT_FALSE(x.hit);
  EXPECT_TRUE(x.filled);
  EXPECT_EQ(x.way, 0);
  EXPECT_EQ(x.after, S::kReg);
  EXPECT_FALSE(x.victim);
  // A live read hits and keeps it; the last use frees it (reg -> inactive).
  x = t.Access(S::kReadReg, false, r);
  EXPECT_TRUE(x.hit);
  EXPECT_EQ(x.before, S::kReg);
  EXPECT_EQ(x.after, S::kReg);
  x = t.Access(S::kReadReg, true, r);
  EXPECT_TRUE(x.hit);
  EXPECT_EQ(x.after, S::kInactive);
  EXPECT_EQ(t.StateOf(0, 0), S::kInactive);
  // A dead register is not brought back.
  x = t.Access(S::kReadReg, true, r);
  EXPECT_FALSE(x.hit);
  EXPECT_FALSE(x.filled);
  // inactive -> cache (load), cache -> dirty (store), dirty stays dirty.
  x = t.Access(S::kLoad, false, Mem(0, 1));
  EXPECT_TRUE(x.filled);
  EXPECT_EQ(x.way, 0);
  EXPECT_EQ(x.after, S::kCache);
  x = t.Access(S::kStore, false, Mem(0, 1) | 3);  // the byte offset does not matter
  EXPECT_TRUE(x.hit);
  EXPECT_EQ(x.before, S::kCache);
  EXPECT_EQ(x.after, S::kDirty);
  x = t.Access(S::kStore, false, Mem(0, 1));
  EXPECT_EQ(x.before, S::kDirty);
  EXPECT_EQ(x.after, S::kDirty);
  // A store miss does not allocate (write-no-allocate).
  x = t.Access(S::kStore, false, Mem(0, 2));
  EXPECT_FALSE(x.hit);
  EXPECT_FALSE(x.filled);
  EXPECT_EQ(t.StateOf(0, 1), S::kInactive);
  EXPECT_EQ(t.failure(), "");
}

TEST(TagArrayModel, LruOrderAndVictim) {
  const TagArraySpec s = SmallTagSpec(4, false);
  TagArray t(s);
  EXPECT_EQ(t.Recency(0), (std::vector<int>{0, 1, 2, 3}));  // after reset
  for (uint64_t tag = 1; tag <= 4; ++tag)
    EXPECT_EQ(t.Access(S::kLoad, false, Mem(0, tag)).way, static_cast<int>(tag - 1));
  EXPECT_EQ(t.Recency(0), (std::vector<int>{3, 2, 1, 0}));
  EXPECT_TRUE(t.Access(S::kLoad, false, Mem(0, 1)).hit);  // way 0 becomes the MRU
  EXPECT_EQ(t.Recency(0), (std::vector<int>{0, 3, 2, 1}));
  const auto x = t.Access(S::kLoad, false, Mem(0, 5));  // evicts way 1 (tag 2)
  EXPECT_EQ(x.way, 1);
  EXPECT_TRUE(x.victim);
  EXPECT_EQ(x.victim_state, S::kCache);
  EXPECT_EQ(x.victim_addr, Mem(0, 2));
  EXPECT_EQ(t.Recency(0), (std::vector<int>{1, 0, 3, 2}));
  // Another set is untouched.
  EXPECT_EQ(t.Recency(1), (std::vector<int>{0, 1, 2, 3}));
}

TEST(TagArrayModel, PrioritizedNeverEvictsARegisterForCacheData) {
  const TagArraySpec s = SmallTagSpec(2, true);
  TagArray t(s);
  t.Access(S::kWriteReg, false, s.RegMemAddress(0, 0));  // set 0 way 0
  t.Access(S::kWriteReg, false, s.RegMemAddress(2, 0));  // set 0 way 1
  const auto x = t.Access(S::kLoad, false, Mem(0, 1));
  EXPECT_FALSE(x.hit);
  EXPECT_FALSE(x.filled);  // not cached: every way holds a register
  EXPECT_FALSE(x.victim);
  EXPECT_EQ(t.StateOf(0, 0), S::kReg);
  EXPECT_EQ(t.StateOf(0, 1), S::kReg);
  // A third register of set 0 takes the LRU register line (way 0): a register spill.
  const auto y = t.Access(S::kWriteReg, false, s.RegMemAddress(4, 0));
  EXPECT_EQ(y.way, 0);
  EXPECT_TRUE(y.victim);
  EXPECT_EQ(y.victim_state, S::kReg);
  EXPECT_EQ(y.victim_addr, s.RegMemAddress(0, 0));
  EXPECT_EQ(t.failure(), "");
}

TEST(TagArrayModel, PrioritizedRegisterTakesACacheLine) {
  const TagArraySpec s = SmallTagSpec(2, true);
  TagArray t(s);
  t.Access(S::kLoad, false, Mem(0, 1));                  // way 0 cache
  t.Access(S::kWriteReg, false, s.RegMemAddress(0, 0));  // way 1 reg (MRU)
  t.Access(S::kReadReg, false, s.RegMemAddress(0, 0));
  // Register (2, 0): no inactive way; the LRU way not holding a register is way 0.
  const auto x = t.Access(S::kWriteReg, false, s.RegMemAddress(2, 0));
  EXPECT_EQ(x.way, 0);
  EXPECT_EQ(x.victim_state, S::kCache);
  EXPECT_EQ(x.after, S::kReg);  // cache -> reg
  // Even when the register line is the LRU one.
  TagArray u(s);
  u.Access(S::kWriteReg, false, s.RegMemAddress(0, 0));  // way 0 reg
  u.Access(S::kLoad, false, Mem(0, 1));                  // way 1 cache (MRU)
  EXPECT_EQ(u.Access(S::kWriteReg, false, s.RegMemAddress(2, 0)).way, 1);
}

TEST(TagArrayModel, FairSpillsTheLruRegisterForCacheData) {
  const TagArraySpec s = SmallTagSpec(2, false);
  TagArray t(s);
  t.Access(S::kWriteReg, false, s.RegMemAddress(0, 0));  // way 0
  t.Access(S::kWriteReg, false, s.RegMemAddress(2, 0));  // way 1
  const auto x = t.Access(S::kLoad, false, Mem(0, 1));
  EXPECT_TRUE(x.filled);
  EXPECT_EQ(x.way, 0);
  EXPECT_EQ(x.victim_state, S::kReg);  // reg -> cache: a spill
  EXPECT_EQ(x.after, S::kCache);
  EXPECT_EQ(t.spills(), 1U);
  // The spilled register is refilled by its next (live) read.
  const auto y = t.Access(S::kReadReg, false, s.RegMemAddress(0, 0));
  EXPECT_FALSE(y.hit);
  EXPECT_TRUE(y.filled);
  EXPECT_EQ(y.way, 1);  // LRU: register (2, 0)
  EXPECT_EQ(t.failure(), "");
}

TEST(TagArrayModel, DirtyLineIsWrittenBackOnceWhenItsWayIsReused) {
  const TagArraySpec s = SmallTagSpec(2, true);
  TagArray t(s);
  t.Access(S::kLoad, false, Mem(0, 1));           // way 0
  t.Access(S::kStore, false, Mem(0, 1));          // dirty
  t.Access(S::kLoad, false, Mem(0, 2));           // way 1
  auto x = t.Access(S::kLoad, false, Mem(0, 3));  // LRU: way 0, dirty
  EXPECT_EQ(x.way, 0);
  EXPECT_TRUE(x.victim);
  EXPECT_EQ(x.victim_state, S::kDirty);
  EXPECT_EQ(x.victim_addr, Mem(0, 1));
  EXPECT_EQ(t.write_backs(), 1U);
  x = t.Access(S::kLoad, false, Mem(0, 4));  // way 1, clean
  EXPECT_EQ(x.victim_state, S::kCache);
  x = t.Access(S::kLoad, false, Mem(0, 5));  // way 0 again: tag 3 was clean
  EXPECT_EQ(x.victim_state, S::kCache);
  EXPECT_EQ(t.write_backs(), 1U);
  EXPECT_EQ(t.failure(), "");
}

TEST(TagArrayModel, TransitionTableIsFig6) {
  const TagArraySpec pri = SmallTagSpec(2, true), fair = SmallTagSpec(2, false);
  EXPECT_TRUE(TagArray::AllowedTransition(pri, S::kInactive, S::kReg));
  EXPECT_TRUE(TagArray::AllowedTransition(pri, S::kInactive, S::kCache));
  EXPECT_FALSE(TagArray::AllowedTransition(pri, S::kInactive, S::kDirty));
  EXPECT_TRUE(TagArray::AllowedTransition(pri, S::kReg, S::kInactive));
  EXPECT_FALSE(TagArray::AllowedTransition(pri, S::kReg, S::kCache));
  EXPECT_TRUE(TagArray::AllowedTransition(fair, S::kReg, S::kCache));
  EXPECT_FALSE(TagArray::AllowedTransition(fair, S::kReg, S::kDirty));
  EXPECT_TRUE(TagArray::AllowedTransition(pri, S::kCache, S::kDirty));
  EXPECT_TRUE(TagArray::AllowedTransition(pri, S::kCache, S::kReg));
  EXPECT_FALSE(TagArray::AllowedTransition(pri, S::kCache, S::kInactive));
  EXPECT_FALSE(TagArray::AllowedTransition(pri, S::kDirty, S::kInactive));
  EXPECT_TRUE(TagArray::AllowedTransition(pri, S::kDirty, S::kCache));
}

// Port-level: ports sized from the port table.
struct Ports {
  explicit Ports(const TagArraySpec& s) {
    in = out = def = TagArrayPortTable(s).ZeroValues();
    in[TagArrayPort::kRstN] = Bits(1, 1);
  }
  PortValues in, out, def;
};

void RegLookup(const TagArraySpec& s, PortValues& in, int p, int op, int warp, int reg) {
  in[TagArrayPort::kLkValid].set_bit(p, true);
  in[TagArrayPort::kLkOp].set(2 * p, 2, static_cast<uint64_t>(op));
  in[TagArrayPort::kLkWarp].set(p * s.warp_bits, s.warp_bits, static_cast<uint64_t>(warp));
  in[TagArrayPort::kLkReg].set(p * s.reg_bits, s.reg_bits, static_cast<uint64_t>(reg));
}

TEST(TagArrayCycleModel, BankConflictsAreSerializedAndCounted) {
  const TagArraySpec s = SmallTagSpec(2, true);
  TagArrayCycleModel m(s);
  Ports io(s);
  auto& in = io.in;
  in[TagArrayPort::kReqValid] = Bits(1, 1);
  RegLookup(s, in, 0, S::kReadReg, 0, 0);   // set 0, bank 0
  RegLookup(s, in, 1, S::kReadReg, 0, 1);   // set 1, bank 1
  RegLookup(s, in, 2, S::kWriteReg, 2, 0);  // set 0, bank 0: waits for lookup 0
  in[TagArrayPort::kLkValid].set_bit(3, true);
  in[TagArrayPort::kLkOp].set(6, 2, S::kLoad);
  in[TagArrayPort::kLkAddr].set(3 * 16, 16, Mem(1, 1));  // bank 1: waits for lookup 1
  m.Outputs(in, io.out, io.def);
  EXPECT_EQ(io.out[TagArrayPort::kReqReady].get(0, 1), 1U);
  EXPECT_EQ(io.out[TagArrayPort::kRspValid].get(0, 4), 0b0011U);
  EXPECT_EQ(io.out[TagArrayPort::kRspAddr].get(16, 16), s.RegMemAddress(0, 1));
  m.Clock(in);
  in[TagArrayPort::kReqValid] = Bits(1, 0);  // the request was latched
  m.Outputs(in, io.out, io.def);
  EXPECT_EQ(io.out[TagArrayPort::kReqReady].get(0, 1), 0U);
  EXPECT_EQ(io.out[TagArrayPort::kRspValid].get(0, 4), 0b1100U);
  EXPECT_EQ(io.out[TagArrayPort::kRspNext].get(4, 2), static_cast<uint64_t>(S::kReg));
  EXPECT_EQ(io.out[TagArrayPort::kRspNext].get(6, 2), static_cast<uint64_t>(S::kCache));
  m.Clock(in);
  m.Outputs(in, io.out, io.def);
  EXPECT_EQ(io.out[TagArrayPort::kReqReady].get(0, 1), 1U);
  EXPECT_EQ(io.out[TagArrayPort::kRspValid].get(0, 4), 0U);
  EXPECT_EQ(io.out[TagArrayPort::kConflictCycles].get(0, 32), 1U);
  // Three lookups in bank 0: three cycles, two of them serialization cycles.
  in[TagArrayPort::kReqValid] = Bits(1, 1);
  in[TagArrayPort::kLkValid].clear();
  RegLookup(s, in, 0, S::kReadReg, 0, 0);
  RegLookup(s, in, 1, S::kReadReg, 2, 0);
  RegLookup(s, in, 2, S::kWriteReg, 4, 0);
  for (int c = 0; c < 3; ++c) {
    m.Outputs(in, io.out, io.def);
    EXPECT_EQ(io.out[TagArrayPort::kRspValid].get(0, 4), 1U << c) << "cycle " << c;
    m.Clock(in);
    in[TagArrayPort::kReqValid] = Bits(1, 0);
  }
  m.Outputs(in, io.out, io.def);
  EXPECT_EQ(io.out[TagArrayPort::kConflictCycles].get(0, 32), 3U);
  EXPECT_EQ(m.Failure(), "");
}

// The stimulus of gpurf verify reaches every transition the policy allows (on hits, fills of
// inactive lines and replacements separately), and bank-conflict serialization: on the paper's
// geometry with either policy, and lru-prioritized with fewer lines than registers, where a
// register must replace a register.
TEST(TagArrayStimulus, ReachesEveryTransitionOfBothPolicies) {
  using T = std::pair<int, int>;
  struct Case {
    test::TagShape shape;
    std::set<T> replaced;  // (victim state, new state) that must occur
  };
  const std::set<T> common = {
      {S::kCache, S::kReg}, {S::kCache, S::kCache}, {S::kDirty, S::kReg}, {S::kDirty, S::kCache}};
  auto with = [&](std::set<T> extra) {
    extra.insert(common.begin(), common.end());
    return extra;
  };
  const Case cases[] = {
      {{.prioritized = true}, common},
      {{.prioritized = false}, with({{S::kReg, S::kCache}, {S::kReg, S::kReg}})},
      {{.banks = 2, .sets = 16, .ways = 2, .prioritized = true}, with({{S::kReg, S::kReg}})},
  };
  for (const Case& k : cases) {
    const TagArraySpec s = test::MakeTagSpec(k.shape);
    TagArrayCycleModel m(s);
    TagArrayStimulus stim(s, 3);
    Ports io(s);
    std::set<T> hits, fills, replaced;
    for (uint64_t c = 0; c < 200000; ++c) {
      stim.Next(c, io.in);
      m.Outputs(io.in, io.out, io.def);
      for (int p = 0; p < s.lookups; ++p) {
        if (!io.out[TagArrayPort::kRspValid].bit(p))
          continue;
        const int next = static_cast<int>(io.out[TagArrayPort::kRspNext].get(2 * p, 2));
        if (io.out[TagArrayPort::kRspHit].bit(p))
          hits.insert({static_cast<int>(io.out[TagArrayPort::kRspState].get(2 * p, 2)), next});
        else if (io.out[TagArrayPort::kRspVictimValid].bit(p))
          replaced.insert(
              {static_cast<int>(io.out[TagArrayPort::kRspVictimState].get(2 * p, 2)), next});
        else if (next != S::kInactive)
          fills.insert({S::kInactive, next});
      }
      m.Clock(io.in);
      ASSERT_EQ(m.Failure(), "") << "cycle " << c;
    }
    const std::string name = s.module_name;
    for (const T& t : std::set<T>{{S::kReg, S::kReg},
                                  {S::kReg, S::kInactive},
                                  {S::kCache, S::kCache},
                                  {S::kCache, S::kDirty},
                                  {S::kDirty, S::kDirty}})
      EXPECT_TRUE(hits.contains(t)) << name << ": hit " << t.first << " -> " << t.second;
    EXPECT_EQ(fills, (std::set<T>{{S::kInactive, S::kReg}, {S::kInactive, S::kCache}})) << name;
    for (const T& t : k.replaced)
      EXPECT_TRUE(replaced.contains(t)) << name << ": replaced " << t.first << " -> " << t.second;
    if (s.prioritized()) {
      EXPECT_FALSE(replaced.contains({S::kReg, S::kCache})) << name;
    }
    EXPECT_GT(m.conflict_cycles(), 1000U) << name;
  }
}

}  // namespace
}  // namespace gpurf
