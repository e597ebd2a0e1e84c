// Golden model of the flip-flop array against cycles worked out by hand from the port contract:
// write-then-read timing for each read mode, the highest write port winning a collision,
// write-to-read bypass, the read register's reset, and "undefined until written".
#include "models/flop_array_model.h"

#include <gtest/gtest.h>

#include "gen/structures/flop_array/flop_array_spec.h"
#include "verif/tests/test_util.h"

namespace gpurf {
namespace {

using P = FlopArrayModel::Port;

class ModelDriver {
 public:
  explicit ModelDriver(const FlopArraySpec& s) : s_(s), model_(s) {
    for (int w : {1, 1, s.write_ports, s.write_ports * s.addr_width, s.write_ports * s.width,
                  s.read_ports * s.addr_width, s.read_ports * s.width}) {
      in_.emplace_back(w);
      out_.emplace_back(w);
      def_.emplace_back(w);
    }
    in_[P::kRstN] = Bits(1, 1);
  }
  void Write(int port, uint64_t addr, uint64_t data) {
    in_[P::kWe].set_bit(port, true);
    in_[P::kWaddr].set(port * s_.addr_width, s_.addr_width, addr);
    in_[P::kWdata].set(port * s_.width, std::min(64, s_.width), data);
  }
  void Read(int port, uint64_t addr) {
    in_[P::kRaddr].set(port * s_.addr_width, s_.addr_width, addr);
  }
  void Reset(bool active) { in_[P::kRstN] = Bits(1, active ? 0 : 1); }
  // Evaluates this cycle's outputs, then clocks; clears write enables for the next cycle.
  void Cycle() {
    for (auto& d : def_)
      d.clear();
    model_.Outputs(in_, out_, def_);
    model_.Clock(in_);
    in_[P::kWe].clear();
  }
  // Outputs of the current cycle without clocking.
  void Peek() {
    for (auto& d : def_)
      d.clear();
    model_.Outputs(in_, out_, def_);
  }
  uint64_t Data(int port) const {
    return out_[P::kRdata].get(port * s_.width, std::min(64, s_.width));
  }
  bool Defined(int port) const { return def_[P::kRdata].bit(port * s_.width); }

 private:
  FlopArraySpec s_;
  FlopArrayModel model_;
  PortValues in_, out_, def_;
};

TEST(FlopArrayModel, CombReadSeesOldDataInWriteCycleAndNewDataAfter) {
  ModelDriver d(test::MakeSpec({8, 16, 2, 1, false, false, true}));
  d.Read(0, 3);
  d.Peek();
  EXPECT_FALSE(d.Defined(0)) << "never-written entry must be undefined";
  d.Write(0, 3, 0xabcd);
  d.Peek();
  EXPECT_FALSE(d.Defined(0)) << "without bypass a same-cycle write is not visible";
  d.Cycle();
  d.Peek();
  ASSERT_TRUE(d.Defined(0));
  EXPECT_EQ(d.Data(0), 0xabcdu);
}

TEST(FlopArrayModel, BypassForwardsSameCycleWrite) {
  ModelDriver d(test::MakeSpec({8, 16, 1, 2, false, true, true}));
  d.Write(0, 5, 0x1111);
  d.Cycle();
  d.Read(0, 5);
  d.Write(1, 5, 0x2222);
  d.Peek();
  ASSERT_TRUE(d.Defined(0));
  EXPECT_EQ(d.Data(0), 0x2222u);
}

TEST(FlopArrayModel, HighestWritePortWinsCollision) {
  ModelDriver d(test::MakeSpec({4, 8, 1, 3, false, false, true}));
  d.Write(0, 2, 0x11);
  d.Write(1, 2, 0x22);
  d.Write(2, 2, 0x33);
  d.Cycle();
  d.Read(0, 2);
  d.Peek();
  EXPECT_EQ(d.Data(0), 0x33u);
  // Collision of ports 0 and 1 only: port 1 wins.
  d.Write(0, 2, 0x44);
  d.Write(1, 2, 0x55);
  d.Cycle();
  d.Peek();
  EXPECT_EQ(d.Data(0), 0x55u);
}

TEST(FlopArrayModel, RegisteredReadHasOneCycleLatency) {
  ModelDriver d(test::MakeSpec({8, 16, 1, 1, true, false, true}));
  d.Write(0, 1, 0x77);
  d.Cycle();  // edge 0: entry 1 := 0x77
  d.Read(0, 1);
  d.Write(0, 1, 0x88);
  d.Cycle();  // edge 1: rdata_q := entry 1 before the write (0x77); entry 1 := 0x88
  d.Peek();
  ASSERT_TRUE(d.Defined(0));
  EXPECT_EQ(d.Data(0), 0x77u);
  d.Cycle();  // edge 2: rdata_q := 0x88
  d.Peek();
  EXPECT_EQ(d.Data(0), 0x88u);
}

TEST(FlopArrayModel, RegisteredBypassSeesWriteOfSameEdge) {
  ModelDriver d(test::MakeSpec({8, 16, 1, 1, true, true, true}));
  d.Read(0, 6);
  d.Write(0, 6, 0x99);
  d.Cycle();
  d.Peek();
  ASSERT_TRUE(d.Defined(0));
  EXPECT_EQ(d.Data(0), 0x99u);
}

TEST(FlopArrayModel, ResetClearsReadRegisterButNotStorage) {
  ModelDriver d(test::MakeSpec({4, 8, 1, 1, true, false, true}));
  d.Write(0, 0, 0x5a);
  d.Cycle();
  d.Read(0, 0);
  d.Cycle();
  d.Peek();
  EXPECT_EQ(d.Data(0), 0x5au);
  d.Reset(true);
  d.Peek();  // asynchronous: zero at once
  ASSERT_TRUE(d.Defined(0));
  EXPECT_EQ(d.Data(0), 0u);
  d.Cycle();
  d.Reset(false);
  d.Cycle();
  d.Peek();
  EXPECT_EQ(d.Data(0), 0x5au) << "storage must survive reset";
}

TEST(FlopArrayModel, OutOfRangeReadIsUndefinedAndWriteIsDropped) {
  ModelDriver d(test::MakeSpec({5, 8, 1, 1, false, false, true}));
  d.Write(0, 7, 0x12);  // misuse: no entry 7
  d.Cycle();
  d.Read(0, 7);
  d.Peek();
  EXPECT_FALSE(d.Defined(0));
  for (int a = 0; a < 5; ++a) {
    d.Read(0, a);
    d.Peek();
    EXPECT_FALSE(d.Defined(0)) << "entry " << a << " must still be unwritten";
  }
}

TEST(FlopArrayModel, WideRowsRoundTripEveryBit) {
  const FlopArraySpec s = test::MakeSpec({3, 200, 2, 1, false, false, false});
  FlopArrayModel m(s);
  PortValues in, out, def;
  for (int w : {1, 1, 1, s.addr_width, s.width, 2 * s.addr_width, 2 * s.width}) {
    in.emplace_back(w);
    out.emplace_back(w);
    def.emplace_back(w);
  }
  in[P::kRstN] = Bits(1, 1);
  Bits pattern(200);
  for (int i = 0; i < 200; i += 3)
    pattern.set_bit(i, true);
  in[P::kWe] = Bits(1, 1);
  in[P::kWaddr].set(0, s.addr_width, 2);
  in[P::kWdata] = pattern;
  m.Outputs(in, out, def);
  m.Clock(in);
  in[P::kWe].clear();
  in[P::kRaddr].set(s.addr_width, s.addr_width, 2);  // read port 1
  m.Outputs(in, out, def);
  EXPECT_EQ(out[P::kRdata].slice(200, 200), pattern);
  Bits all(200);
  all.fill_ones();
  EXPECT_EQ(def[P::kRdata].slice(200, 200), all);
  EXPECT_EQ(def[P::kRdata].slice(0, 200), Bits(200)) << "port 0 reads unwritten entry 0";
}

}  // namespace
}  // namespace gpurf
