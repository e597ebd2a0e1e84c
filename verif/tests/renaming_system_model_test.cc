// The renaming-system golden model (label unit):
//   - closed loop with its stimulus: no invariant fails, and the traffic reaches every corner
//     the issue asks for (first writes, releases of all three kinds, flag-cache misses, the
//     throttle, operands checked against the architected values);
//   - hand-driven harness errors the system layer must report: a read of a released register
//     (S3) and a result to a physical register no register maps.
#include "models/renaming_system_model.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "base/diag.h"
#include "gen/structures/renaming_system/renaming_system_ports.h"
#include "verif/stimulus/renaming_system_stimulus.h"
#include "verif/tests/renaming_system_test_util.h"

namespace gpurf {
namespace {

using P = RenamingSystemPort;

// The model in closed loop with the stimulus for `cycles` cycles: no invariant may fail.
RenamingSystemModel::Stats ClosedLoop(const RenamingSystemSpec& spec, uint64_t seed,
                                      uint64_t cycles) {
  RenamingSystemModel model(spec);
  RenamingSystemStimulus stim(spec, seed);
  PortValues in = RenamingSystemPortTable(spec).ZeroValues();
  PortValues out = in, def = in;
  for (uint64_t c = 0; c < cycles; ++c) {
    stim.Next(c, in);
    model.Outputs(in, out, def);
    stim.Observe(c, out);
    model.Clock(in);
    EXPECT_EQ(model.Failure(), "") << "cycle " << c;
    if (!model.Failure().empty())
      break;
  }
  const auto& st = model.stats();
  std::printf(
      "instrs %llu maps %llu frees %llu releases %llu exits %llu flag misses %llu "
      "throttled %llu refusals %llu holds %llu operands %llu dispatched %llu max mapped %llu\n",
      static_cast<unsigned long long>(st.instrs), static_cast<unsigned long long>(st.maps),
      static_cast<unsigned long long>(st.frees), static_cast<unsigned long long>(st.releases),
      static_cast<unsigned long long>(st.exits), static_cast<unsigned long long>(st.flag_misses),
      static_cast<unsigned long long>(st.throttled_cycles),
      static_cast<unsigned long long>(st.throttle_refusals),
      static_cast<unsigned long long>(st.issue_holds),
      static_cast<unsigned long long>(st.operands_checked),
      static_cast<unsigned long long>(st.dispatched),
      static_cast<unsigned long long>(st.max_mapped));
  return st;
}

TEST(RenamingSystemModel, ClosedLoopReachesEveryCorner) {
  const RenamingSystemModel::Stats st = ClosedLoop(test::MakeRenamingSystemSpec({}), 5, 40000);
  EXPECT_GT(st.maps, 500u);
  EXPECT_GT(st.frees, 500u);
  EXPECT_GT(st.releases, 50u);
  EXPECT_GT(st.exits, 10u);
  EXPECT_GT(st.flag_misses, 20u);
  // The throttle refuses registers to CTAs other than the reserved one (its deadlock guard).
  // throttle_o cannot rise with two CTA slots (the reservation moves only at the reserved CTA's
  // exit, and then one CTA is left; docs/renaming-system.md, Limits).
  EXPECT_GT(st.throttle_refusals, 100u);
  EXPECT_EQ(st.throttled_cycles, 0u);
  EXPECT_GT(st.operands_checked, 1000u);
  EXPECT_GT(st.dispatched, 2000u);
}

// With four CTA slots the stimulus's throttle episodes raise throttle_o, and warps of the CTAs
// it holds offer instrs that issue_ok_o refuses (the issue side of S4), while the rest of the
// traffic still flows.
TEST(RenamingSystemModel, ThrottleEpisodesRaiseTheThrottle) {
  const RenamingSystemModel::Stats st =
      ClosedLoop(test::MakeRenamingSystemSpec({{"ctas", 4}}), 7, 40000);
  EXPECT_GT(st.throttled_cycles, 2000u);
  EXPECT_GT(st.issue_holds, 500u);
  EXPECT_GT(st.exits, 10u);
  EXPECT_GT(st.maps, 500u);
  EXPECT_GT(st.operands_checked, 1000u);
}

// Drives the ports by hand.
struct Io {
  explicit Io(const RenamingSystemSpec& s) : spec(s), model(s) {
    in = out = def = RenamingSystemPortTable(s).ZeroValues();
    Cycle();  // in reset
    in[P::kRstN] = Bits(1, 1);
  }
  void Cycle() {
    model.Outputs(in, out, def);
    model.Clock(in);
  }
  void Clear() {
    for (size_t i = 2; i < in.size(); ++i)
      in[i].clear();
  }
  // Offers an instr until it is accepted (at most 40 cycles).
  bool Instr(int warp, int src, int dst) {
    Clear();
    in[P::kReqValid] = Bits(1, 1);
    in[P::kReqWarp].set(0, spec.warp_bits, warp);
    if (src >= 0) {
      in[P::kReqSrcValid].set_bit(0, true);
      in[P::kReqSrcReg].set(0, spec.reg_bits, src);
    }
    if (dst >= 0) {
      in[P::kReqDstValid] = Bits(1, 1);
      in[P::kReqDstReg].set(0, spec.reg_bits, dst);
    }
    return Offer();
  }
  bool Release(int warp, int reg) {
    Clear();
    in[P::kReqValid] = Bits(1, 1);
    in[P::kReqOp].set(0, 2, RenamingSystemSpec::kRelease);
    in[P::kReqWarp].set(0, spec.warp_bits, warp);
    in[P::kReqRelMask].set_bit(reg, true);
    return Offer();
  }
  bool Offer() {
    for (int i = 0; i < 40; ++i) {
      model.Outputs(in, out, def);
      const bool ok = out[P::kReqReady].bit(0);
      model.Clock(in);
      if (ok) {
        Clear();
        for (int k = 0; k < 8; ++k)
          Cycle();
        return true;
      }
    }
    return false;
  }
  void Launch(int slot) {
    Clear();
    in[P::kLaunchValid] = Bits(1, 1);
    in[P::kLaunchSlot].set(0, spec.throttle.slot_bits, slot);
    for (int b = 0; b < spec.banks; ++b)
      in[P::kLaunchNeed].set(b * spec.throttle.need_bits, spec.throttle.need_bits, 5);
    Cycle();
    Clear();
    for (int k = 0; k < 8; ++k)
      Cycle();  // the spares fill (wake-up)
  }
  const RenamingSystemSpec& spec;
  RenamingSystemModel model;
  PortValues in, out, def;
};

TEST(RenamingSystemModel, ReadOfReleasedRegisterIsS3) {
  const RenamingSystemSpec spec = test::MakeRenamingSystemSpec({});
  Io io(spec);
  io.Launch(0);
  ASSERT_TRUE(io.Instr(0, -1, 5));  // first write of r5: maps
  EXPECT_EQ(io.model.Failure(), "");
  EXPECT_EQ(io.model.stats().maps, 1u);
  ASSERT_TRUE(io.Release(0, 5));  // pbr releases r5
  EXPECT_EQ(io.model.stats().frees, 1u);
  EXPECT_EQ(io.model.Failure(), "");
  ASSERT_TRUE(io.Instr(0, 5, -1));  // reads the released r5
  EXPECT_NE(io.model.Failure().find("S3"), std::string::npos) << io.model.Failure();
}

TEST(RenamingSystemModel, ResultToUnmappedPhysicalIsReported) {
  const RenamingSystemSpec spec = test::MakeRenamingSystemSpec({});
  Io io(spec);
  io.Launch(0);
  io.Clear();
  io.in[P::kResValid] = Bits(1, 1);
  io.in[P::kResPhys].set(0, spec.phys_bits, spec.exempt_base + 3);  // renamable, unmapped
  io.Cycle();
  EXPECT_NE(io.model.Failure().find("no register maps"), std::string::npos) << io.model.Failure();
}

TEST(RenamingSystemSpec, BadCombinationsAreInputErrors) {
  EXPECT_THROW(test::MakeRenamingSystemSpec({{"ctas", 3}}), InputError);  // 8 warps
  EXPECT_THROW(test::MakeRenamingSystemSpec({{"exempt", 16}}), InputError);
  EXPECT_THROW(test::MakeRenamingSystemSpec({{"exempt", 1}, {"warps", 6}, {"ctas", 2}}),
               InputError);  // 6 x 1 not a multiple of 4 banks
  EXPECT_THROW(test::MakeRenamingSystemSpec({{"per_bank", 64}}), InputError);  // 16 + 256 > 256
  EXPECT_THROW(test::MakeRenamingSystemSpec({{"table_banks", 3}}), InputError);
  EXPECT_NO_THROW(test::MakeRenamingSystemSpec({{"per_bank", 60}}));
}

}  // namespace
}  // namespace gpurf
