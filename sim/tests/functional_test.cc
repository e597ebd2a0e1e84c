// Functional execution: every corpus kernel's outputs equal its C++ reference (with the normal
// register budget and with a 16-register budget that forces spilling, so the allocated code and
// its spill code are checked by their results); determinism (two runs give identical streams);
// SIMT behaviour on hand-written kernels (divergent if/else reconverging at the immediate
// post-dominator with the recorded masks and values, divergent loops, guarded exits, barriers);
// and kernel errors (out-of-range addresses, barriers in divergent code) reported at the PTX
// instruction.

#include "sim/exec/functional.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sim/ptx/ptx_parser.h"
#include "sim/ptx/regalloc.h"
#include "sim/workload/launch.h"

namespace gpurf::sim {
namespace {

const std::string kCorpus = GPURF_SOURCE_DIR "/workloads/corpus";

struct CorpusCase {
  std::string name;
  int budget;
};

void PrintTo(const CorpusCase& c, std::ostream* os) {
  *os << c.name << " with " << c.budget << " registers";
}

class CorpusRun : public testing::TestWithParam<CorpusCase> {};

TEST_P(CorpusRun, OutputsEqualTheReference) {
  const CorpusCase& c = GetParam();
  const LaunchSpec spec = LoadLaunch(WorkloadLaunchPath(kCorpus, c.name));
  RunOptions opt;
  opt.alloc.max_regs = c.budget;
  // Values, not addresses (tested on their own): sgemm at 16 registers spills so much that
  // both together pass the default record limit.
  opt.exec.record_addresses = false;
  const auto r = RunWorkload(spec, opt);
  ASSERT_FALSE(r->outputs.empty());
  for (const auto& o : r->outputs)
    EXPECT_EQ(o.mismatches, 0u) << o.first_mismatch;
  EXPECT_EQ(r->run.warps.size(), spec.grid.count() * ((spec.block.count() + 31) / 32));
  EXPECT_GT(r->run.ThreadInstructions(), 0u);
  EXPECT_EQ(r->run.kernel, &r->compiled.kernel);
  for (const auto& w : r->run.warps) {
    ASSERT_TRUE(w.has_values);
    ASSERT_FALSE(w.insts.empty());
    // The stream's value layout: each instruction's values start where the previous ended.
    size_t expect = 0;
    for (const auto& d : w.insts) {
      ASSERT_EQ(d.values, expect);
      const Instruction& in = r->compiled.kernel.code[d.inst];
      expect += static_cast<size_t>(in.NumSrcRegs() + in.NumDstRegs()) * 32;
    }
    EXPECT_EQ(w.values.size(), expect);
  }
}

std::vector<CorpusCase> Cases() {
  std::vector<CorpusCase> v;
  for (const auto& n : ListWorkloads(kCorpus)) {
    v.push_back({n, 63});
    v.push_back({n, 16});
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusRun, testing::ValuesIn(Cases()),
                         [](const testing::TestParamInfo<CorpusCase>& i) {
                           return i.param.name + "_regs" + std::to_string(i.param.budget);
                         });

TEST(Corpus, HasTheKernelsOfTheIssues) {
  const std::vector<std::string> names = ListWorkloads(kCorpus);
  // The first twelve, the fourteen of issue 14 (section 3), then the three warp-level kernels.
  for (const char* n : {"vectorAdd",      "matrixMul",
                        "reduction",      "scalarProd",
                        "histogram",      "convolutionSeparable",
                        "transpose",      "blackScholes",
                        "hotspot",        "bfs",
                        "nbody",          "bitonicSort",
                        "sgemm",          "kmeans",
                        "monteCarlo",     "srad",
                        "stencil2d",      "spmv",
                        "particleFilter", "nw",
                        "pathfinder",     "backprop",
                        "subHistogram",   "lud",
                        "stencil3d",      "mriQ",
                        "warpReduce",     "warpScan",
                        "warpHistogram"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  EXPECT_GE(names.size(), 29u);
}

TEST(Functional, DeterministicStreams) {
  for (const char* name : {"bfs", "histogram", "bitonicSort"}) {
    SCOPED_TRACE(name);
    const LaunchSpec spec = LoadLaunch(WorkloadLaunchPath(kCorpus, name));
    const auto a = RunWorkload(spec);
    const auto b = RunWorkload(spec);
    ASSERT_EQ(a->run.warps.size(), b->run.warps.size());
    for (size_t w = 0; w < a->run.warps.size(); ++w) {
      const auto& x = a->run.warps[w];
      const auto& y = b->run.warps[w];
      ASSERT_EQ(x.insts.size(), y.insts.size());
      for (size_t i = 0; i < x.insts.size(); ++i) {
        ASSERT_EQ(x.insts[i].inst, y.insts[i].inst);
        ASSERT_EQ(x.insts[i].active_mask, y.insts[i].active_mask);
      }
      ASSERT_EQ(x.values, y.values);
    }
    EXPECT_EQ(a->final_buffers.all().begin()->second.bytes,
              b->final_buffers.all().begin()->second.bytes);
  }
}

// --------------------------------------------------------------------- hand-written kernels

const char* kHead = ".version 9.0\n.target sm_80\n.address_size 64\n";

struct Small {
  ptx::CompiledKernel ck;
  KernelRun run;
  std::vector<uint32_t> out;
};

// Runs `body` as kernel k(u64 out) over `threads` threads of one CTA; out has `words` u32.
Small RunSmall(const std::string& body, uint32_t threads, uint32_t words, int budget = 63) {
  const std::string text = std::string(kHead) +
                           ".visible .entry k(.param .u64 k_out)\n{\n"
                           "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n"
                           "\t.shared .align 4 .b8 sm[256];\n" +
                           body + "}\n";
  Small s;
  s.ck = ptx::CompileKernel(ptx::ParsePtx(text, "small.ptx"), "k", {budget});
  DeviceMemory mem;
  const uint64_t out = mem.Allocate(words * 4);
  std::vector<uint8_t> params(8);
  std::memcpy(params.data(), &out, 8);
  s.run = Execute(s.ck, {1, 1, 1}, {threads, 1, 1}, params, mem);
  s.out.resize(words);
  std::memcpy(s.out.data(), mem.At(out, words * 4), words * 4);
  return s;
}

// Stores %r9 to out[tid] at the end of every test kernel.
const char* kStoreTid = R"(
	ld.param.u64 %rd1, [k_out];
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	st.global.u32 [%rd4], %r9;
	ret;
)";

TEST(Functional, DivergentIfElseReconvergesAtThePostDominator) {
  const Small s = RunSmall(std::string(R"(
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 8;
	@%p1 bra $THEN;
	add.s32 %r9, %r1, 1000;
	bra.uni $JOIN;
$THEN:
	add.s32 %r9, %r1, 100;
$JOIN:
	add.s32 %r9, %r9, 1;
)") + kStoreTid,
                           32, 32);
  for (uint32_t t = 0; t < 32; ++t)
    EXPECT_EQ(s.out[t], t + (t < 8 ? 100u : 1000u) + 1u) << t;
  ASSERT_EQ(s.run.warps.size(), 1u);
  const WarpStream& w = s.run.warps[0];
  // Executed: 0 mov, 1 setp, 2 bra (all lanes), then the taken path 5 (lanes 0-7), then the
  // fall-through path 3, 4 (lanes 8-31), then the join 6 with every lane.
  std::vector<std::pair<uint32_t, uint32_t>> got;
  for (const auto& d : w.insts)
    got.push_back({d.inst, d.active_mask});
  const std::vector<std::pair<uint32_t, uint32_t>> want = {
      {0, 0xffffffffu}, {1, 0xffffffffu}, {2, 0xffffffffu}, {5, 0x000000ffu},
      {3, 0xffffff00u}, {4, 0xffffff00u}, {6, 0xffffffffu}};
  ASSERT_GE(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].first, want[i].first) << i;
    EXPECT_EQ(got[i].second, want[i].second) << i;
  }
  EXPECT_EQ(s.ck.kernel.ReconvergencePoint(2), 6u);
  // Values of instruction 5 (add.s32 %r9, %r1, 100): source tid, destination tid + 100, for
  // lanes 0-7, zeros elsewhere.
  const DynInst& d = w.insts[3];
  ASSERT_EQ(s.ck.kernel.code[5].srcs.size(), 1u);
  for (uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(w.values[d.values + l], l < 8 ? l : 0u) << l;
    EXPECT_EQ(w.values[d.values + 32 + l], l < 8 ? l + 100 : 0u) << l;
  }
}

TEST(Functional, DivergentLoopTripCountsAndGuardedExit) {
  // out[t] = sum_{i < t % 5} (i + 1), threads with t == 3 exit early without storing.
  const Small s = RunSmall(std::string(R"(
	mov.u32 %r1, %tid.x;
	setp.eq.u32 %p3, %r1, 3;
	@%p3 ret;
	rem.u32 %r2, %r1, 5;
	mov.u32 %r9, 0;
	mov.u32 %r3, 0;
	setp.eq.u32 %p1, %r2, 0;
	@%p1 bra $DONE;
$LOOP:
	add.s32 %r3, %r3, 1;
	add.s32 %r9, %r9, %r3;
	setp.lt.u32 %p2, %r3, %r2;
	@%p2 bra $LOOP;
$DONE:
)") + kStoreTid,
                           40, 40);
  for (uint32_t t = 0; t < 40; ++t) {
    const uint32_t n = t % 5;
    EXPECT_EQ(s.out[t], t == 3 ? 0u : n * (n + 1) / 2) << t;
  }
  ASSERT_EQ(s.run.warps.size(), 2u);
  EXPECT_EQ(s.run.warps[1].insts.front().active_mask, 0xffu);  // 8 threads in the second warp
}

TEST(Functional, BarrierOrdersSharedMemoryAcrossWarps) {
  // Each thread writes sm[t], barrier, reads sm[63 - t]: needs the other warp's writes.
  const Small s = RunSmall(std::string(R"(
	mov.u32 %r1, %tid.x;
	mov.u32 %r4, sm;
	shl.b32 %r5, %r1, 2;
	add.s32 %r6, %r4, %r5;
	mul.lo.s32 %r7, %r1, 7;
	st.shared.u32 [%r6], %r7;
	bar.sync 0;
	sub.s32 %r8, 63, %r1;
	shl.b32 %r8, %r8, 2;
	add.s32 %r8, %r4, %r8;
	ld.shared.u32 %r9, [%r8];
)") + kStoreTid,
                           64, 64);
  for (uint32_t t = 0; t < 64; ++t)
    EXPECT_EQ(s.out[t], (63 - t) * 7) << t;
}

TEST(Functional, OutOfRangeAccessIsAnErrorAtTheInstruction) {
  try {
    RunSmall(R"(
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [k_out];
	st.global.u32 [%rd1+4096], %r1;
	ret;
)",
             32, 4);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "small.ptx");
    EXPECT_EQ(e.loc().line, 13);
    EXPECT_NE(std::string(e.what()).find("outside every buffer"), std::string::npos) << e.what();
  }
}

// 32-bit shared addresses wrap modulo 2^32 as on the hardware: nvcc's unrolled wavefront loops
// (Needleman-Wunsch) form a register below shared address 0 and add an offset that brings the
// access back into the CTA's memory.
TEST(Functional, SharedAddressBelowZeroWrapsBackIntoRange) {
  const Small s = RunSmall(std::string(R"(
	mov.u32 %r1, %tid.x;
	mov.u32 %r4, sm;
	shl.b32 %r5, %r1, 2;
	add.s32 %r6, %r4, %r5;
	mul.lo.s32 %r8, %r1, 3;
	st.shared.u32 [%r6], %r8;
	bar.sync 0;
	sub.s32 %r7, %r6, 1024;
	ld.shared.u32 %r9, [%r7+1028];
)") + kStoreTid,
                           32, 32);
  // Lane t stores 3t at sm[t] and reads sm[t + 1] through 4t - 1024 (negative in every lane)
  // plus 1028; sm[32] was never written.
  for (uint32_t t = 0; t < 32; ++t)
    EXPECT_EQ(s.out[t], t < 31 ? (t + 1) * 3 : 0u) << t;
  // The recorded lane addresses are the wrapped offsets 4t + 4 of the load (instruction 8 of the
  // 32-thread warp's stream, after 2 movs, shl, add, mul, st, bar, sub).
  const WarpStream& w = s.run.warps[0];
  ASSERT_GT(w.insts.size(), 8u);
  const DynInst& ld = w.insts[8];
  EXPECT_EQ(s.ck.kernel.code[ld.inst].op_class, OpClass::kSharedMem);
  EXPECT_FALSE(s.ck.kernel.code[ld.inst].mem_write);
  for (uint32_t t = 0; t < 32; ++t)
    EXPECT_EQ(w.addrs[ld.addrs + t], 4 * t + 4) << t;
}

TEST(Functional, SharedAddressThatStaysOutOfRangeIsStillAnError) {
  try {
    RunSmall(std::string(R"(
	mov.u32 %r1, %tid.x;
	mov.u32 %r4, sm;
	shl.b32 %r5, %r1, 2;
	add.s32 %r6, %r4, %r5;
	sub.s32 %r7, %r6, 1024;
	ld.shared.u32 %r9, [%r7+512];
)") + kStoreTid,
             32, 32);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    // 4t - 512 modulo 2^32: lane 0 reads 0xfffffe00, outside the 256 bytes.
    EXPECT_EQ(e.loc().file, "small.ptx");
    EXPECT_EQ(e.loc().line, 16);
    const std::string m = e.what();
    EXPECT_NE(m.find("shared address outside the CTA's 256 bytes"), std::string::npos) << m;
    EXPECT_NE(m.find("0xfffffe00"), std::string::npos) << m;
    EXPECT_NE(m.find("lane 0"), std::string::npos) << m;
  }
}

TEST(Functional, BarrierInDivergentCodeIsAnError) {
  EXPECT_THROW(RunSmall(R"(
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 4;
	@%p1 bra $SKIP;
	bar.sync 0;
$SKIP:
	ret;
)",
                        32, 1),
               InputError);
}

TEST(Functional, SpilledCodeComputesTheSameValues) {
  // Many simultaneously live values: with 16 registers they spill and results must not change.
  std::string body = "\tmov.u32 %r1, %tid.x;\n";
  std::string decl = "\t.reg .b32 %v<40>;\n";
  for (int i = 0; i < 40; ++i)
    body += fmt::format("\tmul.lo.s32 %v{}, %r1, {};\n", i, i + 3);
  body += "\tmov.u32 %r9, 0;\n";
  for (int i = 0; i < 40; ++i)
    body += fmt::format("\txor.b32 %r9, %r9, %v{};\n\tadd.s32 %r9, %r9, %v{};\n", i, 39 - i);
  uint32_t expect[32];
  for (uint32_t t = 0; t < 32; ++t) {
    uint32_t v[40];
    for (uint32_t i = 0; i < 40; ++i)
      v[i] = t * (i + 3);
    uint32_t r = 0;
    for (uint32_t i = 0; i < 40; ++i)
      r = (r ^ v[i]) + v[39 - i];
    expect[t] = r;
  }
  for (int budget : {63, 16}) {
    const Small s = RunSmall(decl + body + kStoreTid, 32, 32, budget);
    for (uint32_t t = 0; t < 32; ++t)
      EXPECT_EQ(s.out[t], expect[t]) << "budget " << budget << " thread " << t;
    if (budget == 16) {
      EXPECT_GT(s.ck.stats.spilled_values, 0);
    } else {
      EXPECT_EQ(s.ck.stats.spilled_values, 0);
      EXPECT_GE(s.ck.kernel.regs_per_thread, 40);
    }
  }
}

}  // namespace
}  // namespace gpurf::sim
