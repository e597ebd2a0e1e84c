// The design points and corpus kernels shared by the RTL-in-the-loop tests (rtl_loop_test.cc:
// the design's structures, rtl_top_test.cc: its rf_system top). The design points are small (8
// warps, 4 active, 4 MRF banks of 64 rows per lane cluster) so the Verilator builds stay short;
// they are cached in the build tree like the verif rtl tests.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "gen/config/yaml_loader.h"
#include "models/cycle_model.h"
#include "sim/harness/driver.h"
#include "sim/tests/cli_fixture.h"
#include "sim/workload/launch.h"

namespace gpurf::harness::rtl_points {

inline constexpr const char* kSm =
    "sm:\n  lanes: 32\n  lane_cluster: 4\n  warps: 8\n  active_warps: 4\n"
    "mrf:\n  banks: 32\n  entries: 64\n  width: 128\n";

// The lockstep kernels: streaming, atomics, shared-memory tiling, and a transpose.
inline constexpr const char* kKernels[] = {"vectorAdd", "histogram", "matrixMul", "transpose"};

inline std::string DesignText(const std::string& hierarchy,
                              const std::string& scheduler = "two-level") {
  return fmt::format("design:\n  name: t\n{}hierarchy:\n{}scheduler:\n  kind: {}\n", kSm, hierarchy,
                     scheduler);
}

inline const std::map<std::string, std::string>& Hierarchies() {
  static const std::map<std::string, std::string> h = {
      {"mrf_only", "  kind: mrf-only\n"},
      {"hw_rfc_1", "  kind: hw-rfc\n  levels: 2\n  l1_entries_per_thread: 6\n  replacement: lru\n"},
      {"hw_rfc_2",
       "  kind: hw-rfc\n  levels: 3\n  l1_entries_per_thread: 6\n  l0_entries_per_thread: 1\n"
       "  replacement: lru\n"},
      {"sw_orf_3", "  kind: sw-orf\n  levels: 3\n  l1_entries_per_thread: 3\n  l0_split: true\n"},
  };
  return h;
}

inline DesignSpec Design(const std::string& name) {
  return LoadDesignFromString(DesignText(Hierarchies().at(name)), name + ".yaml");
}

// Corpus workloads, executed once for the whole test program.
inline const WorkloadKernel& Kernel(const std::string& name) {
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

// RTL in the loop in `mode`, at system granularity (the rf_system top) when `top`.
inline DriverOptions Options(RfMode mode, bool top = false) {
  DriverOptions o;
  o.baseline = false;
  o.rtl.mode = mode;
  o.rtl.top = top;
  return o;
}

// A golden model with one output bit flipped: bit `bit` of port `port`, the `nth` time it is
// defined. Lockstep must report the divergence.
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

 private:
  std::unique_ptr<CycleModel> m_;
  int port_, bit_, nth_, seen_ = 0;
};

// A copy of the run of `wk` whose recorded result of the first instruction writing a register
// (lane 0) is flipped: a later read of it is recorded with the correct value, so the RTL
// delivers a row the kernel never read. Empty warps when no instruction qualifies.
inline sim::KernelRun CorruptFirstResult(const WorkloadKernel& wk) {
  sim::KernelRun run = *wk.run;
  const sim::Kernel& k = *wk.kernel;
  for (auto& ws : run.warps) {
    for (const auto& di : ws.insts) {
      const sim::Instruction& in = k.code[di.inst];
      if (in.dsts.empty() || (di.active_mask & 1U) == 0)
        continue;
      ws.values[di.values + static_cast<size_t>(in.NumSrcRegs()) * 32] ^= 0x10;  // lane 0
      return run;
    }
  }
  run.warps.clear();
  return run;
}

// A register-file system that makes no transactions of its own: a test hands the loop
// transactions directly, as a system with a wrong decision would (corrupted expectations).
class SilentSystem : public RfSystem {
 public:
  SilentSystem(const sim::Kernel& k, const sim::SmConfig& sm) : RfSystem(k, sm, 4, 4) {}

 protected:
  void ReadOperands(uint32_t, const sim::DynInst&, std::vector<int>&) override {}
  bool ReadsMrf(uint32_t, const sim::DynInst&) const override { return false; }
  void WriteResults(uint32_t, const sim::DynInst&) override {}
};

// Hands `t` to `loop` and returns the divergence report (empty: none).
inline std::string DivergenceOf(RtlLoopSystem& loop, const StructureTransaction& t) {
  try {
    loop.Transaction(t);
  } catch (const RtlDivergence& e) {
    return e.what();
  }
  return {};
}

// Each of `parts` occurs in the report `m`.
inline void ExpectMentions(const std::string& m, std::initializer_list<const char*> parts) {
  for (const char* p : parts)
    EXPECT_NE(m.find(p), std::string::npos) << "missing \"" << p << "\" in: " << m;
}

// configs/examples/finereg.yaml with a 64-entry (8 KB) PCRF: its Verilator model builds in
// seconds, the example's 1024-entry PCRF in minutes (that one runs in the soak corpus run).
inline std::string FineRegSmallPcrfText() {
  std::ifstream f(GPURF_SOURCE_DIR "/configs/examples/finereg.yaml");
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text = ss.str();
  const std::string from = "pcrf_bytes: 131072";
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos);
  text.replace(at, from.size(), "pcrf_bytes: 8192");
  return text;
}
inline DesignSpec FineRegSmallPcrf() {
  return LoadDesignFromString(FineRegSmallPcrfText(), "finereg_small.yaml");
}

// Options for one SM (FineReg's figures on one SM keep its pending-CTA pools busy).
inline DriverOptions OneSm(RfMode mode) {
  DriverOptions o = Options(mode);
  o.gpu.sms = 1;
  return o;
}

// A named extra statistic of a kernel's register-file run (a test failure when absent).
inline uint64_t Extra(const RfStats& s, const std::string& name) {
  for (const auto& [n, v] : s.extra) {
    if (n == name)
      return v;
  }
  ADD_FAILURE() << "no statistic " << name;
  return 0;
}

// The CLI fixture with a helper to write design files into the test's folder.
class RtlCliFixture : public gpurf::test::CliFixture {
 protected:
  explicit RtlCliFixture(std::string prefix) : CliFixture(std::move(prefix)) {}
  std::string Write(const std::string& name, const std::string& text) const {
    const std::filesystem::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
};

}  // namespace gpurf::harness::rtl_points
