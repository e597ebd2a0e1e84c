// The ORF golden model against hand-computed cycles: write then read (combinational, registered,
// bypass), slot x entry addressing without aliasing, invalidation of one slot (and its priority
// over a same-cycle write), reset, the split L0's bank wiring, and misuse: an enabled read of an
// invalid entry, an out-of-range slot and a split read of another bank are counted and their
// data is undefined.
#include "models/orf_model.h"

#include <gtest/gtest.h>

#include "gen/structures/orf/orf_spec.h"
#include "verif/tests/sched_orf_test_util.h"

namespace gpurf {
namespace {

using Req = OperandRegisterFile::CycleReq;

Bits Row(int width, uint64_t v) {
  return Bits(width, v);
}

Req WriteReq(int slot, int entry, const Bits& data) {
  Req r;
  r.write = true;
  r.write_slot = slot;
  r.write_entry = entry;
  r.write_data = data;
  return r;
}

Req ReadReq(int port, int slot, int entry, bool enable = true) {
  Req r;
  r.reads[port] = {enable, slot, entry};
  return r;
}

TEST(OrfModel, WriteThenReadEverySlotAndEntry) {
  const OrfSpec spec = test::MakeOrfSpec({1, 3, 4, 16, false, false, false, true});
  OperandRegisterFile orf(spec);
  for (int s = 0; s < 4; ++s) {
    for (int e = 0; e < 3; ++e)
      orf.Clock(WriteReq(s, e, Row(16, 100 * s + e)));
  }
  for (int s = 0; s < 4; ++s) {
    for (int e = 0; e < 3; ++e) {
      const auto v = orf.ReadPorts(ReadReq(e, s, e))[e];
      ASSERT_TRUE(v.valid);
      EXPECT_EQ(v.data.get(0, 16), static_cast<uint64_t>(100 * s + e));  // no aliasing
    }
  }
  EXPECT_EQ(orf.writes(), 12U);
  EXPECT_EQ(orf.misuses(), 0U);
}

TEST(OrfModel, InvalidationOfOneSlotMakesItsReadsMisuse) {
  const OrfSpec spec = test::MakeOrfSpec({1, 2, 2, 8, false, false, false, true});
  OperandRegisterFile orf(spec);
  orf.Clock(WriteReq(0, 1, Row(8, 0x11)));
  orf.Clock(WriteReq(1, 1, Row(8, 0x22)));
  Req inv;
  inv.invalidate = true;
  inv.invalidate_slot = 0;
  // The read in the invalidating cycle still sees the value (before the edge).
  inv.reads[2] = {true, 0, 1};
  EXPECT_TRUE(orf.ReadPorts(inv)[2].valid);
  orf.Clock(inv);
  EXPECT_EQ(orf.misuses(), 0U);
  EXPECT_FALSE(orf.ReadPorts(ReadReq(0, 0, 1))[0].valid);  // slot 0: undefined
  EXPECT_TRUE(orf.ReadPorts(ReadReq(0, 1, 1))[0].valid);   // slot 1 keeps its entries
  orf.Clock(ReadReq(0, 0, 1, false));                      // not enabled: no misuse
  EXPECT_EQ(orf.misuses(), 0U);
  orf.Clock(ReadReq(1, 0, 1));
  EXPECT_EQ(orf.misuses(), 1U);
  EXPECT_NE(orf.first_misuse().find("read port 1 reads invalid entry (slot 0, entry 1)"),
            std::string::npos)
      << orf.first_misuse();
  // A new warp in slot 0 writes; an invalidation in the same cycle wins.
  Req both = WriteReq(0, 0, Row(8, 0x33));
  both.invalidate = true;
  both.invalidate_slot = 0;
  orf.Clock(both);
  EXPECT_FALSE(orf.IsValid(0, 0));
  orf.Clock(WriteReq(0, 0, Row(8, 0x44)));
  EXPECT_EQ(orf.Peek(0, 0).data.get(0, 8), 0x44U);
  EXPECT_EQ(orf.invalidations(), 2U);
}

TEST(OrfModel, BypassAndRegisteredReads) {
  // Combinational without bypass: a same-cycle write is not visible.
  OperandRegisterFile comb(test::MakeOrfSpec({1, 1, 2, 8, false, false, false, true}));
  Req r = WriteReq(1, 0, Row(8, 0x5A));
  r.reads[0] = {false, 1, 0};
  EXPECT_FALSE(comb.ReadPorts(r)[0].valid);
  // With bypass it is, and counts as valid.
  OperandRegisterFile byp(test::MakeOrfSpec({1, 1, 2, 8, false, false, true, true}));
  r.reads[0].enable = true;
  EXPECT_TRUE(byp.ReadPorts(r)[0].valid);
  EXPECT_EQ(byp.ReadPorts(r)[0].data.get(0, 8), 0x5AU);
  byp.Clock(r);
  EXPECT_EQ(byp.misuses(), 0U);
  // Registered: the data of a read appears one cycle later; reset value 0, defined.
  OperandRegisterFile reg(test::MakeOrfSpec({1, 1, 2, 8, false, true, false, true}));
  EXPECT_TRUE(reg.ReadPorts({})[1].valid);
  EXPECT_EQ(reg.ReadPorts({})[1].data.get(0, 8), 0U);
  reg.Clock(WriteReq(0, 0, Row(8, 0x77)));
  reg.Clock(ReadReq(1, 0, 0));
  EXPECT_EQ(reg.ReadPorts({})[1].data.get(0, 8), 0x77U);
  reg.Reset();
  EXPECT_FALSE(reg.IsValid(0, 0));
  EXPECT_EQ(reg.ReadPorts({})[1].data.get(0, 8), 0U);
}

TEST(OrfModel, SplitL0PortsReadTheirOwnBank) {
  const OrfSpec spec = test::MakeOrfSpec({0, 1, 3, 8, true, false, false, true});
  EXPECT_EQ(spec.entries, 3);
  OperandRegisterFile orf(spec);
  for (int b = 0; b < 3; ++b)
    orf.Clock(WriteReq(2, b, Row(8, 0xB0 + b)));
  for (int p = 0; p < 3; ++p) {
    // The port reads bank p whatever entry it names.
    const auto v = orf.ReadPorts(ReadReq(p, 2, 0, false))[p];
    ASSERT_TRUE(v.valid);
    EXPECT_EQ(v.data.get(0, 8), static_cast<uint64_t>(0xB0 + p));
  }
  orf.Clock(ReadReq(2, 2, 2));
  EXPECT_EQ(orf.misuses(), 0U);
  orf.Clock(ReadReq(2, 2, 0));  // operand slot C naming bank A
  EXPECT_EQ(orf.misuses(), 1U);
  EXPECT_NE(orf.first_misuse().find("reads only its own bank"), std::string::npos);
}

TEST(OrfModel, OutOfRangeIsMisuse) {
  OperandRegisterFile orf(test::MakeOrfSpec({0, 1, 5, 8, false, false, false, true}));
  orf.Clock(ReadReq(0, 6, 0));
  orf.Clock(WriteReq(0, 1, Row(8, 1)));  // unified L0: entry 0 only
  EXPECT_EQ(orf.misuses(), 2U);
  EXPECT_EQ(orf.writes(), 0U);
}

}  // namespace
}  // namespace gpurf
