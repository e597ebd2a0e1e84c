// The finereg-system golden model on its own (label unit): the derived sub-structure shapes and
// the spec's rejections; one save and one restore cycle by cycle (the contract's timing, the
// free count, the restored value read back through the ACRF); the model under the registered
// stimulus reaches saves, restores and checked reads without a violation; each planted model
// bug trips the invariant it breaks (S1, S2, S4); and contract violations are named.
#include "models/finereg_system_model.h"

#include <gtest/gtest.h>

#include "gen/structures/finereg_system/finereg_system_ports.h"
#include "verif/stimulus/finereg_system_stimulus.h"
#include "verif/tests/finereg_rmu_test_util.h"
#include "verif/tests/finereg_system_test_util.h"

namespace gpurf {
namespace {

using P = FineregSystemPort;
using test::MakeFineregSystemSpec;

PortValues Ports(const FineregSystemSpec& s) {
  PortValues v;
  for (const PortInfo& pi : FineregSystemPortTable(s).Manifest())
    v.emplace_back(pi.width);
  return v;
}

using Driver = test::ModelDriver<FineregSystemModel, FineregSystemSpec>;

TEST(FineregSystemSpec, SubStructuresOfTheDefault) {
  const FineregSystemSpec s = MakeFineregSystemSpec({});
  EXPECT_EQ(s.data_width, 128);  // 16-byte rows
  EXPECT_EQ(s.mrf.width, 128);
  EXPECT_EQ(s.mrf.rows, 8 * 4);  // 8 warps x 16 registers over 4 banks
  EXPECT_EQ(s.mrf.tag_width, 5);
  EXPECT_EQ(s.pcrf.warps, 2);
  EXPECT_EQ(s.pcrf.row_bits, 128);
  EXPECT_EQ(s.live_bits, 32);
  EXPECT_EQ(s.live_idx_bits, 5);
  EXPECT_NE(s.module_name.find("rf_finereg_sys_w8x16_e32x16b_"), std::string::npos);
}

TEST(FineregSystemSpec, RejectsNamingTheField) {
  const std::pair<std::map<std::string, std::string>, std::string> cases[] = {
      {{{"regs", "12"}}, "regs"},
      {{{"cta_warps", "3"}}, "cta_warps"},
      {{{"cta_warps", "16"}, {"warps", "8"}}, "cta_warps"},
      {{{"tag_width", "1"}, {"collectors", "2"}}, "tag_width"},
  };
  for (const auto& [set, field] : cases) {
    try {
      MakeFineregSystemSpec(set);
      ADD_FAILURE() << "accepted " << set.begin()->first << " " << set.begin()->second;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  }
}

// Writes (warp, reg) = value through the pipeline's write-back port (one cycle).
void Write(Driver& d, int warp, int reg, uint64_t value) {
  const FineregSystemSpec s = MakeFineregSystemSpec({});
  d.in[P::kWbValid] = Bits(1, 1);
  d.in[P::kWbWarp] = Bits(s.warp_width, static_cast<uint64_t>(warp));
  d.in[P::kWbReg] = Bits(s.reg_width, static_cast<uint64_t>(reg));
  d.in[P::kWbData] = Bits(s.data_width, value);
  d.Step();
  EXPECT_EQ(d.Out(P::kWbReady), 1u);
  d.in[P::kWbValid] = Bits(1, 0);
}

TEST(FineregSystemModel, SaveAndRestoreCycleByCycle) {
  const FineregSystemSpec s = MakeFineregSystemSpec({});
  Driver d(s, Ports(s));
  Write(d, 2, 3, 0x33);  // CTA in warp slots 2..3: r3 of warp 0, r1 of warp 1
  Write(d, 3, 1, 0x31);
  d.Eval();
  EXPECT_EQ(d.Out(P::kFreeCount), 32u);
  EXPECT_EQ(d.Out(P::kSvReady), 1u);
  // Save into CTA slot 1: live bits 0*16+3 and 1*16+1.
  d.in[P::kSvValid] = Bits(1, 1);
  d.in[P::kSvCta] = Bits(s.pcrf.cta_bits, 1);
  d.in[P::kSvBase] = Bits(s.warp_width, 2);
  Bits live(s.live_bits);
  live.set_bit(3, true);
  live.set_bit(17, true);
  d.in[P::kSvLive] = live;
  d.Step();
  d.in[P::kSvValid] = Bits(1, 0);
  // Per register: read offered (1 cycle, issue_ready_o low), MRF read granted and captured
  // (disp_valid of the RMU's read 3 cycles after the issue), append accepted the cycle after.
  int cycles = 0;
  d.Eval();
  EXPECT_EQ(d.Out(P::kBusy), 1u);
  EXPECT_EQ(d.Out(P::kIssueReady), 0u);  // the save engine's read holds the issue port
  while (d.Out(P::kBusy) == 1u && cycles < 100) {
    EXPECT_EQ(d.Out(P::kSvReady), 0u);
    EXPECT_EQ(d.Out(P::kDispValid), 0u);  // the RMU's reads never reach the pipeline
    d.Step();
    d.Eval();
    ++cycles;
  }
  EXPECT_EQ(cycles, 2 * 5);  // read 1 + MRF 3 + append 1, per register
  EXPECT_EQ(d.Out(P::kFreeCount), 30u);
  d.in[P::kRsCta] = Bits(s.pcrf.cta_bits, 1);
  d.Eval();
  EXPECT_EQ(d.Out(P::kRsCount), 2u);
  // Overwrite the CTA's old slots, then restore it into warp slots 4..5.
  Write(d, 2, 3, 0xdead);
  d.in[P::kRsValid] = Bits(1, 1);
  d.in[P::kRsBase] = Bits(s.warp_width, 4);
  d.Eval();
  EXPECT_EQ(d.Out(P::kRsReady), 1u);
  d.Step();
  d.in[P::kRsValid] = Bits(1, 0);
  cycles = 0;
  d.Eval();
  while (d.Out(P::kBusy) == 1u && cycles < 100) {
    d.Step();
    d.Eval();
    ++cycles;
  }
  // Walk: the first entry at the output hop_cycles - 1 cycles after the issue (the cycle after
  // acceptance), taken, written the next cycle; the second pipelined behind it.
  // Entry 1 issued in cycle 1 (the cycle after acceptance), at the output in cycle 4, taken
  // there and written in cycle 5; entry 2 at the output from cycle 5, taken in 6 (the buffer
  // was full in 5), written in 7: busy for 7 cycles.
  EXPECT_EQ(cycles, 7);
  EXPECT_EQ(d.Out(P::kFreeCount), 32u);
  EXPECT_EQ(d.model().restored_regs, 2u);
  // The restored registers read back through the ACRF: r3 of warp slot 4, r1 of warp slot 5.
  for (const auto& [warp, reg, value] :
       {std::tuple{4, 3, uint64_t{0x33}}, std::tuple{5, 1, uint64_t{0x31}}}) {
    d.in[P::kIssueValid] = Bits(1, 1);
    d.in[P::kIssueTag] = Bits(s.tag_width, 5);
    d.in[P::kIssueWarp] = Bits(s.warp_width, static_cast<uint64_t>(warp));
    d.in[P::kIssueSrcValid] = Bits(3, 1);
    d.in[P::kIssueSrcReg] = Bits(3 * s.reg_width, static_cast<uint64_t>(reg));
    d.in[P::kDispReady] = Bits(1, 1);
    d.Step();
    d.in[P::kIssueValid] = Bits(1, 0);
    int wait = 0;
    d.Eval();
    while (d.Out(P::kDispValid) == 0u && wait++ < 10) {
      d.Step();
      d.Eval();
    }
    ASSERT_EQ(d.Out(P::kDispValid), 1u);
    EXPECT_EQ(d.out[P::kDispData].get(0, 64), value);
    d.Step();
  }
  EXPECT_EQ(d.model().Failure(), "");
  EXPECT_EQ(d.model().checked_operands, 2u);
}

// Drives `model` with the registered stimulus for `cycles`; returns the first failure.
std::string RunModel(const FineregSystemSpec& s, FineregSystemModel& model, uint64_t cycles,
                     uint64_t seed) {
  FineregSystemStimulus stim(s, seed);
  PortValues in = Ports(s), out = Ports(s), def = Ports(s);
  for (uint64_t c = 0; c < cycles; ++c) {
    stim.Next(c, in);
    model.Outputs(in, out, def);
    stim.Observe(c, out);
    model.Clock(in);
    if (!model.Failure().empty())
      return model.Failure();
  }
  return {};
}

TEST(FineregSystemModel, StimulusReachesSwitchingWithoutViolation) {
  for (const auto& shape : {std::map<std::string, std::string>{},
                            {{"entries", "8"}, {"ctas", "2"}, {"pipelined", "false"}},
                            {{"cta_warps", "4"}, {"regs", "8"}, {"wb_policy", "read-priority"}}}) {
    const FineregSystemSpec s = MakeFineregSystemSpec(shape);
    FineregSystemModel model(s);
    EXPECT_EQ(RunModel(s, model, 60000, 3), "");
    EXPECT_GT(model.saves, 200u);
    EXPECT_GT(model.restores, 200u);
    EXPECT_GT(model.saved_regs, 1000u);
    EXPECT_GT(model.restored_regs, 1000u);
    EXPECT_GT(model.checked_operands, 10000u);
  }
}

TEST(FineregSystemModel, PlantedBugsTripTheirInvariant) {
  const std::pair<FineregSystemModel::Fault, std::string> cases[] = {
      {FineregSystemModel::Fault::kRestoreWrongReg, "S1"},
      {FineregSystemModel::Fault::kSkipSecondLive, "S4"},
      {FineregSystemModel::Fault::kOccupiedMiscount, "S2"},
  };
  for (const auto& [fault, name] : cases) {
    const FineregSystemSpec s = MakeFineregSystemSpec({});
    FineregSystemModel model(s);
    model.InjectFault(fault);
    const std::string f = RunModel(s, model, 60000, 5);
    EXPECT_EQ(f.rfind(name + ":", 0), 0u) << name << ": " << f;
  }
}

TEST(FineregSystemModel, ContractViolationsAreNamed) {
  const FineregSystemSpec s = MakeFineregSystemSpec({});
  {  // C1: a CTA of 2 warps at warp slot 7 of 8
    Driver d(s, Ports(s));
    d.in[P::kRsValid] = Bits(1, 1);
    d.in[P::kRsBase] = Bits(s.warp_width, 7);
    d.Step();
    EXPECT_NE(d.model().Failure().find("contract C1"), std::string::npos) << d.model().Failure();
  }
  {  // C2: a live register never written
    Driver d(s, Ports(s));
    d.in[P::kSvValid] = Bits(1, 1);
    d.in[P::kSvLive] = Bits(s.live_bits, 1);
    d.Step();
    EXPECT_NE(d.model().Failure().find("contract C2"), std::string::npos) << d.model().Failure();
  }
}

}  // namespace
}  // namespace gpurf
