// RTL in the loop at system granularity (sim/harness/rtl_top.h, `--rtl-top`), label "rtl": the
// SM harness drives the Verilated rf_system top of small design points through its request
// interface, with the kernels' recorded register values.
//   - Lockstep matrix: 4 corpus kernels x 3 hierarchies (MRF only, HW RFC 1 level, SW ORF 3
//     levels with a split L0): the top against RfSystemCycleModel every cycle, every dispatched
//     operand row compared with the kernel's value, the top's counters with the C++ models'
//     decisions, zero divergence; the timing and counts are those of the C++ models run, and the
//     data ports of every level in use toggle.
//   - Mutations: a golden model with one flipped dispatch-data bit (lockstep), and a corrupted
//     recorded result value (RTL alone), each stop the run with a report naming the SM cycle,
//     warp, instruction (PC, opcode), signal, expected and actual value.
//   - `gpurf sim --lockstep --rtl-top`: output, JSON, and exit 2 for a top with fewer slots than
//     the SM schedules at once.
// The design points are those of rtl_loop_test.cc (8 warps, 4 active, 4 MRF banks of 64 rows per
// lane cluster); the three rf_system builds are cached in the build tree.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "gen/config/yaml_loader.h"
#include "sim/harness/driver.h"
#include "sim/tests/cli_fixture.h"
#include "sim/workload/launch.h"
#include "verif/models/rf_system_model.h"
#include "verif/verify.h"

namespace gpurf::harness {
namespace {

namespace fs = std::filesystem;
using energy::Level;

constexpr const char* kSm =
    "sm:\n  lanes: 32\n  lane_cluster: 4\n  warps: 8\n  active_warps: 4\n"
    "mrf:\n  banks: 32\n  entries: 64\n  width: 128\n";

std::string DesignText(const std::string& hierarchy, const std::string& scheduler = "two-level") {
  return fmt::format("design:\n  name: t\n{}hierarchy:\n{}scheduler:\n  kind: {}\n", kSm, hierarchy,
                     scheduler);
}

const std::map<std::string, std::string>& Hierarchies() {
  static const std::map<std::string, std::string> h = {
      {"mrf_only", "  kind: mrf-only\n"},
      {"hw_rfc_1", "  kind: hw-rfc\n  levels: 2\n  l1_entries_per_thread: 6\n  replacement: lru\n"},
      {"sw_orf_3", "  kind: sw-orf\n  levels: 3\n  l1_entries_per_thread: 3\n  l0_split: true\n"},
  };
  return h;
}

DesignSpec Design(const std::string& name) {
  return LoadDesignFromString(DesignText(Hierarchies().at(name)), name + ".yaml");
}

const WorkloadKernel& Kernel(const std::string& name) {
  static std::map<std::string, std::unique_ptr<sim::WorkloadRun>> runs;
  static std::map<std::string, WorkloadKernel> kernels;
  auto it = kernels.find(name);
  if (it == kernels.end()) {
    runs[name] =
        sim::RunWorkload(sim::LoadLaunch(sim::WorkloadLaunchPath(sim::DefaultCorpusDir(), name)));
    it = kernels.emplace(name, WorkloadKernel{name, &runs[name]->compiled.kernel, &runs[name]->run})
             .first;
  }
  return it->second;
}

DriverOptions Options(RfMode mode, bool top = true) {
  DriverOptions o;
  o.baseline = false;
  o.rtl.mode = mode;
  o.rtl.top = top;
  return o;
}

const char* const kKernels[] = {"vectorAdd", "histogram", "matrixMul", "transpose"};

class TopLockstepMatrix : public testing::TestWithParam<std::string> {};

TEST_P(TopLockstepMatrix, ZeroDivergenceAndTheModelsCounts) {
  const DesignSpec d = Design(GetParam());
  for (const char* kname : kKernels) {
    SCOPED_TRACE(kname);
    const WorkloadKernel& wk = Kernel(kname);
    ASSERT_TRUE(wk.run->warps.front().has_values);
    const DesignResult models = RunDesign(d, {wk}, Options(RfMode::kModels, false));
    DesignResult rtl;
    ASSERT_NO_THROW(rtl = RunDesign(d, {wk}, Options(RfMode::kLockstep)));
    EXPECT_TRUE(rtl.rtl_top);
    // The top changes neither the timing nor the counts of the C++ models.
    EXPECT_EQ(rtl.cycles, models.cycles);
    EXPECT_EQ(rtl.warp_instructions, models.warp_instructions);
    for (int l = 0; l < energy::kNumLevels; ++l) {
      const auto& a = rtl.counts.level[static_cast<size_t>(l)];
      const auto& b = models.counts.level[static_cast<size_t>(l)];
      EXPECT_EQ(a.reads, b.reads) << l;
      EXPECT_EQ(a.writes, b.writes) << l;
      EXPECT_EQ(a.writebacks, b.writebacks) << l;
    }
    EXPECT_EQ(rtl.counts.tag_checks, models.counts.tag_checks);
    // Operand rows were checked against the kernel, and every level in use moved data.
    EXPECT_TRUE(rtl.values);
    EXPECT_GT(rtl.activity.value_checks, rtl.warp_instructions / 2);
    EXPECT_GT(rtl.activity.rtl_cycles, rtl.warp_instructions);
    for (int l = 0; l < energy::kNumLevels; ++l) {
      const auto& c = rtl.counts.level[static_cast<size_t>(l)];
      const auto& a = rtl.activity.level[static_cast<size_t>(l)];
      const uint64_t used = c.reads[0] + c.reads[1] + c.writes[0] + c.writes[1];
      EXPECT_EQ(a.transfers > 0, used > 0) << energy::LevelName(static_cast<Level>(l));
      if (used > 0) {
        EXPECT_GT(a.toggles, 0U) << energy::LevelName(static_cast<Level>(l));
        EXPECT_LT(a.Activity(), 0.5) << "kernel values toggle fewer bits than random data";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Hierarchies, TopLockstepMatrix,
                         testing::Values("mrf_only", "hw_rfc_1", "sw_orf_3"),
                         [](const auto& p) { return p.param; });

// A golden model whose output `port` has bit `bit` flipped in the `nth` cycle where that bit is
// defined (and every cycle after it).
class FlipBit : public CycleModel {
 public:
  FlipBit(std::unique_ptr<CycleModel> m, int port, int bit, int nth)
      : m_(std::move(m)), port_(port), bit_(bit), nth_(nth) {}
  void Outputs(const PortValues& in, PortValues& out, PortValues& defined) override {
    m_->Outputs(in, out, defined);
    if (defined[static_cast<size_t>(port_)].bit(bit_) && ++seen_ >= nth_) {
      Bits& b = out[static_cast<size_t>(port_)];
      b.set_bit(bit_, !b.bit(bit_));
    }
  }
  void Clock(const PortValues& in) override { m_->Clock(in); }
  std::string Failure() const override { return m_->Failure(); }

 private:
  std::unique_ptr<CycleModel> m_;
  int port_, bit_, nth_, seen_ = 0;
};

TEST(RtlTopMutation, FlippedDispatchBitIsReportedInLockstep) {
  const DesignSpec d = Design("sw_orf_3");
  DriverOptions o = Options(RfMode::kLockstep);
  o.rtl.make_model = [](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
    return std::make_unique<FlipBit>(MakeModel(s), RfSystemCycleModel::kDispData, 3, 50);
  };
  try {
    RunDesign(d, {Kernel("histogram")}, o);
    FAIL() << "the flipped bit was not caught";
  } catch (const RtlDivergence& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("divergence at SM cycle"), std::string::npos) << m;
    EXPECT_NE(m.find("in rf_system (rf_sys_"), std::string::npos) << m;
    EXPECT_NE(m.find("kernel histogram"), std::string::npos) << m;
    EXPECT_NE(m.find("warp "), std::string::npos) << m;
    EXPECT_NE(m.find(" at PC 0x"), std::string::npos) << m;
    EXPECT_NE(m.find("RTL and golden model differ"), std::string::npos) << m;
    EXPECT_NE(m.find("signal disp_data_o"), std::string::npos) << m;
    EXPECT_NE(m.find("expected"), std::string::npos) << m;
    EXPECT_NE(m.find("actual"), std::string::npos) << m;
  }
}

TEST(RtlTopMutation, CorruptedKernelValueIsReportedInRtlMode) {
  // The recorded result of the first instruction that writes a register is flipped in lane 0:
  // the top dispatches a row the kernel never read.
  const WorkloadKernel& wk = Kernel("vectorAdd");
  sim::KernelRun run = *wk.run;
  const sim::Kernel& k = *wk.kernel;
  bool corrupted = false;
  for (auto& ws : run.warps) {
    for (const auto& di : ws.insts) {
      const sim::Instruction& in = k.code[di.inst];
      if (corrupted || in.dsts.empty() || (di.active_mask & 1U) == 0)
        continue;
      ws.values[di.values + static_cast<size_t>(in.NumSrcRegs()) * 32] ^= 0x10;
      corrupted = true;
    }
    if (corrupted)
      break;
  }
  ASSERT_TRUE(corrupted);
  try {
    RunDesign(Design("hw_rfc_1"), {{"vectorAdd", &k, &run}}, Options(RfMode::kRtl));
    FAIL() << "the corrupted value was not caught";
  } catch (const RtlDivergence& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("in rf_system"), std::string::npos) << m;
    EXPECT_NE(m.find("disp_data_o operand"), std::string::npos) << m;
    EXPECT_NE(m.find("another row than the register holds for the kernel"), std::string::npos) << m;
  }
}

class RtlTopCli : public test::CliFixture {
 protected:
  RtlTopCli() : CliFixture("gpurf_rtl_top_cli_") {}
  std::string Write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
};

TEST_F(RtlTopCli, LockstepTopPassesAndSaysSo) {
  const std::string d = Write("sw.yaml", DesignText(Hierarchies().at("sw_orf_3")));
  const std::string json = (dir_ / "r.json").string();
  const test::CliResult r =
      Run(fmt::format("sim {} -w transpose --lockstep --rtl-top --json {}", d, json));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("rf_system top in lockstep with its golden model, zero divergence"),
            std::string::npos)
      << r.out;
  const std::string j = test::Slurp(json);
  EXPECT_NE(j.find("\"rf_mode\": \"lockstep\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"rtl_granularity\": \"system\""), std::string::npos) << j;
  // Alone, --rtl-top means --rtl.
  const test::CliResult e = Run(fmt::format("energy {} -w vectorAdd --rtl-top", d));
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.out.find("RTL in the loop (Verilated rf_system top)"), std::string::npos) << e.out;
}

TEST_F(RtlTopCli, TopWithFewerSlotsThanTheSmExitsTwo) {
  const std::string single =
      Write("single.yaml", DesignText(Hierarchies().at("hw_rfc_1"), "single-level"));
  const test::CliResult s = Run(fmt::format("sim {} -w vectorAdd --rtl-top", single));
  EXPECT_EQ(s.code, 2) << s.err;
  EXPECT_NE(s.err.find("scheduler.kind"), std::string::npos) << s.err;
  EXPECT_NE(s.err.find("rf_system top has 4 active-warp slots"), std::string::npos) << s.err;
  EXPECT_NE(s.err.find("single.yaml"), std::string::npos) << s.err;
}

}  // namespace
}  // namespace gpurf::harness
