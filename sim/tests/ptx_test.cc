// The PTX front end: the parser on nvcc-style input (params, registers, shared arrays, operand
// forms, labels, guards) and on every kind of malformed input (each error names
// file:line:column and what was wrong); register allocation invariants checked independently of
// the allocator on every corpus kernel at several register budgets: no two values that are live
// at the same instruction (or written there) share a register, 64-bit values sit in aligned
// pairs, vector operands in aligned groups, the count stays within the budget and matches the
// highest register used.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "sim/ptx/ptx_parser.h"
#include "sim/ptx/regalloc.h"
#include "sim/workload/launch.h"

namespace gpurf::sim::ptx {
namespace {

const char* kHeader = R"(.version 9.0
.target sm_80
.address_size 64
)";

std::string Kernel1(const std::string& body, const std::string& decls = "") {
  return std::string(kHeader) + R"(
.visible .entry k(
	.param .u64 k_param_0,
	.param .u32 k_param_1
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<8>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<6>;
)" + decls +
         body + "\n}\n";
}

// Expects ParsePtx to fail at line:column with every fragment in the message.
void ExpectError(const std::string& text, int line, int col,
                 const std::vector<std::string>& parts) {
  try {
    ParsePtx(text, "t.ptx");
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "t.ptx");
    EXPECT_EQ(e.loc().line, line) << e.what();
    EXPECT_EQ(e.loc().column, col) << e.what();
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(fmt::format("t.ptx:{}:{}: error:", line, col), 0), 0u) << msg;
    for (const auto& p : parts)
      EXPECT_NE(msg.find(p), std::string::npos) << "missing '" << p << "' in: " << msg;
  }
}

// Line numbers below: kHeader is 3 lines, then an empty line, 4 lines of .entry/params, '{',
// 4 .reg lines: the body starts at line 14.
TEST(PtxParser, ParsesParamsRegistersSharedAndOperands) {
  const std::string text = Kernel1(R"(
	ld.param.u64 	%rd1, [k_param_0];
	ld.param.u32 	%r1, [k_param_1];
	mov.u32 	%r2, %tid.x;
	mov.u32 	%r3, sm;
	shl.b32 	%r4, %r2, 2;
	add.s32 	%r5, %r3, %r4;
	st.shared.u32 	[%r5+-4], %r1;
	setp.lt.s32 	%p1|%p2, %r2, 16;
	@!%p1 bra 	$L__BB0_2;
	mov.f32 	%f1, 0f3F800000;
	ld.shared.v2.f32 	{%f2, %f3}, [sm+8];
$L__BB0_2:
	ret;
)",
                                   "\t.shared .align 8 .b8 pad[3];\n"
                                   "\t.shared .align 16 .b8 sm[64];\n");
  const PtxModule m = ParsePtx(text, "t.ptx");
  ASSERT_EQ(m.entries.size(), 1u);
  const PtxFunction& f = m.entries[0];
  EXPECT_EQ(m.version, "9.0");
  EXPECT_EQ(m.target, "sm_80");
  ASSERT_EQ(f.params.size(), 2u);
  EXPECT_EQ(f.params[0].offset, 0u);
  EXPECT_EQ(f.params[1].offset, 8u);
  EXPECT_EQ(f.param_bytes, 12u);
  EXPECT_EQ(f.vregs.size(), 3u + 8u + 4u + 6u);
  ASSERT_EQ(f.symbols.size(), 2u);
  EXPECT_EQ(f.symbols[1].offset, 16u);  // aligned to 16 after the 3-byte array
  EXPECT_EQ(f.shared_bytes, 80u);
  ASSERT_EQ(f.code.size(), 12u);
  EXPECT_EQ(f.code[0].op, Op::kLd);
  EXPECT_EQ(f.code[0].space, Space::kParam);
  EXPECT_EQ(f.code[1].src[0].imm, 8);  // [k_param_1] -> offset 8
  EXPECT_EQ(f.code[2].src[0].kind, Operand::kSpecial);
  EXPECT_EQ(f.code[3].src[0].kind, Operand::kImm);  // address of sm
  EXPECT_EQ(f.code[3].src[0].imm, 16);
  EXPECT_EQ(f.code[6].src[0].imm, -4);
  EXPECT_EQ(f.code[7].n_pdst, 2);
  EXPECT_TRUE(f.code[8].has_guard);
  EXPECT_TRUE(f.code[8].guard.negated);
  EXPECT_EQ(f.code[8].target, 11);
  EXPECT_EQ(f.code[9].src[0].imm, 0x3F800000);
  EXPECT_EQ(f.code[10].dst.kind, Operand::kVec);
  EXPECT_EQ(f.code[10].src[0].imm, 24);  // sm + 8
  EXPECT_EQ(f.code[10].loc.line, 27);
  EXPECT_EQ(f.code[10].loc.column, 2);
}

TEST(PtxParser, UnknownOpcodeNamesInstructionFileLineColumn) {
  ExpectError(Kernel1("\n\tadd.s32 %r1, %r2, %r3;\n\tfrobnicate.b32 %r1, %r2;\n"), 16, 2,
              {"instruction", "unsupported PTX instruction 'frobnicate'", "frobnicate.b32"});
  ExpectError(Kernel1("\n\tshfl.bfly.b32 %r1, %r2, 1, 31, -1;\n"), 15, 2,
              {"shfl without .sync", "shfl.sync"});
  ExpectError(Kernel1("\n\tsurf.b32 %r1, %r2;\n"), 15, 2, {"unsupported PTX instruction 'surf'"});
  ExpectError(Kernel1("\n\tadd.s23 %r1, %r2, %r3;\n"), 15, 2,
              {"unknown or unsupported modifier .s23"});
  ExpectError(Kernel1("\n\tmul.s32 %r1, %r2, %r3;\n"), 15, 2, {"needs .lo, .hi or .wide"});
}

TEST(PtxParser, BadOperandsAreRejectedAtTheirColumn) {
  // Undeclared register, at the operand's column.
  ExpectError(Kernel1("\n\tadd.s32 %r1, %r2, %q9;\n"), 15, 20, {"undeclared register", "%q9"});
  // Width mismatch: a 64-bit register in a 32-bit add.
  ExpectError(Kernel1("\n\tadd.s32 %r1, %rd2, %r3;\n"), 15, 15, {"64 bits", "needs 32 bits"});
  // Malformed immediate.
  ExpectError(Kernel1("\n\tadd.s32 %r1, %r2, 12zz;\n"), 15, 20, {"malformed number"});
  // Wrong operand count.
  ExpectError(Kernel1("\n\tadd.s32 %r1, %r2;\n"), 15, 2, {"wrong number of operands (2)", "3"});
  // Predicate where data is needed.
  ExpectError(Kernel1("\n\tadd.s32 %r1, %p1, %r3;\n"), 15, 15, {"got a predicate"});
  // Undefined label.
  ExpectError(Kernel1("\n\tbra $L_nowhere;\n"), 15, 2, {"$L_nowhere", "not defined"});
  // Missing semicolon.
  ExpectError(Kernel1("\n\tadd.s32 %r1, %r2, %r3\n\tret;\n"), 16, 2, {"unexpected token"});
  // Address operand where a register is needed.
  ExpectError(Kernel1("\n\tst.global.u32 %r1, %r2;\n"), 15, 16, {"expected an address"});
}

TEST(PtxParser, IntegerLiteralsAtTheLimitsOf64Bits) {
  // Found by ptx_fuzz: -9223372036854775808 as an address offset or immediate negated INT64_MIN
  // (undefined behaviour), and literals beyond 64 bits wrapped around silently.
  const PtxModule m = ParsePtx(Kernel1("\n\tld.global.u32 %r1, [%rd1+-9223372036854775808];\n"
                                       "\tld.global.u32 %r2, [%rd1-9223372036854775808];\n"
                                       "\tadd.s64 %rd2, %rd1, -9223372036854775808;\n"
                                       "\tadd.u64 %rd3, %rd1, 18446744073709551615;\n"
                                       "\tadd.s64 %rd4, %rd1, -1;\n"),
                               "t.ptx");
  const PtxFunction& f = m.entries[0];
  ASSERT_EQ(f.code.size(), 5u);
  EXPECT_EQ(f.code[0].src[0].imm, INT64_MIN);
  EXPECT_EQ(f.code[1].src[0].imm, INT64_MIN);
  EXPECT_EQ(f.code[2].src[1].imm, INT64_MIN);
  EXPECT_EQ(static_cast<uint64_t>(f.code[3].src[1].imm), UINT64_MAX);
  EXPECT_EQ(f.code[4].src[1].imm, -1);
  ExpectError(Kernel1("\n\tadd.u64 %rd2, %rd1, 18446744073709551616;\n"), 15, 22,
              {"malformed number", "18446744073709551616"});
  ExpectError(Kernel1("\n\tadd.s64 %rd2, %rd1, -9223372036854775809;\n"), 15, 22,
              {"malformed number"});
  ExpectError(Kernel1("\n\tld.global.u32 %r1, [%rd1+0x10000000000000000];\n"), 15, 27,
              {"expected an integer offset"});
}

TEST(PtxParser, NestedVectorOperandsAreRejectedNotRecursed) {
  // Found by feeding ptx_fuzz a long run of '{': every '{' recursed into another vector operand
  // until the stack overflowed.
  ExpectError(Kernel1("\n\tld.global.v2.f32 {{%f1, %f2}}, [%rd1];\n"), 15, 20,
              {"vector operands do not nest"});
  ExpectError(Kernel1("\n\tmov.u32 %r1, " + std::string(100000, '{') + "\n"), 15, 16,
              {"vector operands do not nest"});
}

TEST(PtxParser, UnsupportedConstructsAreErrorsNotSkips) {
  ExpectError(std::string(kHeader) + ".func foo()\n{\n}\n", 4, 1, {".func"});
  ExpectError(std::string(kHeader) + ".global .u32 g;\n", 4, 1, {"module-scope"});
  ExpectError(Kernel1("\n\tret;\n", "\t.shared .align 4 .b8 dyn[];\n"), 14, 23,
              {"unsized", "module scope"});
  ExpectError(Kernel1("\n\tret;\n", "\t.reg .bf16 %h<2>;\n"), 14, 7, {"bfloat16"});
  // Only the unused one-byte objects nvcc emits for library headers are accepted at module
  // scope; using one is an error where it is used.
  ExpectError(std::string(kHeader) + ".global .align 4 .b8 g[8];\n", 4, 1, {"module-scope"});
  ExpectError(std::string(kHeader) + ".visible .entry k()\n{\n\tret;\n", 7, 1, {"missing '}'"});
  EXPECT_THROW(LoadPtx("/nonexistent/x.ptx"), InputError);
}

// nvcc writes `extern __shared__ T s[];` as a module-scope `.extern .shared .align N .b8 s[];`.
// A kernel that uses it finds it after its static arrays, at their size rounded up to 16 bytes
// (where the launch's dynamic_shared_bytes start; SharedBytesWithDynamic), or to the extern
// arrays' alignment when that is larger (the static size is then padded to the offset).
TEST(PtxParser, ExternSharedArraysFollowTheStaticArrays) {
  const std::string ext = ".extern .shared .align 16 .b8 dyn[];\n";
  auto kernel = [&](const std::string& body, const std::string& decls) {
    std::string k = Kernel1(body, decls);
    return k.insert(std::string(kHeader).size(), ext);
  };
  {
    // 12 static bytes: dyn at 16; mov takes the offset, an address adds it.
    const PtxModule m = ParsePtx(kernel("\tmov.u32 %r1, dyn;\n\tld.shared.u32 %r2, [dyn+8];\n",
                                        "\t.shared .align 4 .b8 st[12];\n"),
                                 "t.ptx");
    const PtxFunction& f = m.entries[0];
    EXPECT_EQ(f.shared_bytes, 12u);
    ASSERT_EQ(f.symbols.size(), 2u);
    EXPECT_EQ(f.symbols[1].name, "dyn");
    EXPECT_TRUE(f.symbols[1].dynamic);
    EXPECT_FALSE(f.symbols[0].dynamic);
    EXPECT_EQ(f.symbols[1].offset, 16u);
    EXPECT_EQ(f.code[0].src[0].imm, 16);
    EXPECT_EQ(f.code[1].src[0].imm, 24);
  }
  {
    // No static arrays: offset 0. A kernel that does not use it has no symbol for it.
    const PtxModule m = ParsePtx(kernel("\tmov.u32 %r1, dyn;\n", ""), "t.ptx");
    EXPECT_EQ(m.entries[0].shared_bytes, 0u);
    EXPECT_EQ(m.entries[0].code[0].src[0].imm, 0);
    const PtxModule n = ParsePtx(kernel("\tret;\n", ""), "t.ptx");
    EXPECT_TRUE(n.entries[0].symbols.empty());
  }
  {
    // Two extern arrays alias one offset; a 64-byte alignment pads 33 static bytes to 64.
    const std::string text =
        std::string(kHeader) +
        ".extern .shared .align 4 .b8 a[];\n"
        ".extern .shared .align 64 .b8 b[];\n" +
        Kernel1("\tmov.u32 %r1, a;\n\tmov.u32 %r2, b;\n", "\t.shared .align 1 .b8 st[33];\n")
            .substr(std::string(kHeader).size());
    const PtxModule m = ParsePtx(text, "t.ptx");
    const PtxFunction& f = m.entries[0];
    EXPECT_EQ(f.code[0].src[0].imm, 64);
    EXPECT_EQ(f.code[1].src[0].imm, 64);
    EXPECT_EQ(f.shared_bytes, 64u);
  }
  // Errors: sized or non-extern module-scope shared variables, a second declaration, a static
  // array declared after the extern one was placed, a typeless declaration.
  ExpectError(std::string(kHeader) + ".extern .shared .align 16 .b8 s[64];\n", 4, 31,
              {"unsized extern array"});
  ExpectError(std::string(kHeader) + ".shared .align 16 .b8 s[64];\n", 4, 1, {"module-scope"});
  ExpectError(std::string(kHeader) + ".shared .align 16 .b8 s[];\n", 4, 1, {"module-scope"});
  ExpectError(std::string(kHeader) + ext + ".extern .shared .align 4 .b32 dyn[];\n", 5, 31,
              {"declared twice"});
  ExpectError(std::string(kHeader) + ".extern .shared .align 16 s[];\n", 4, 9, {"without a type"});
  ExpectError(std::string(kHeader) + ".extern .shared .align 16 .b8 s[][4];\n", 4, 34,
              {"one unsized dimension"});
  ExpectError(kernel("\tmov.u32 %r1, dyn;\n\t.shared .align 4 .b8 late[4];\n\tret;\n", ""), 16, 23,
              {"after the kernel used the dynamic (extern) shared array 'dyn'"});
}

// ------------------------------------------------------------------- allocation invariants

std::vector<std::string> CorpusNames() {
  return ListWorkloads(GPURF_SOURCE_DIR "/workloads/corpus");
}

// Registers occupied by vreg v (data) under the allocation.
std::pair<int, int> Range(const CompiledKernel& ck, size_t v) {
  return {ck.vreg_arch[v], ck.vreg_arch[v] + ck.virt.vregs[v].width()};
}

// Independent instruction-level liveness of the virtual code: for every instruction, the data
// vregs live after it plus those it writes must occupy pairwise disjoint registers.
void CheckNoInterference(const CompiledKernel& ck) {
  const PtxFunction& f = ck.virt;
  const size_t n = f.code.size();
  std::vector<std::set<uint16_t>> use(n), def(n), live_in(n), live_out(n);
  std::vector<std::vector<size_t>> succ(n);
  for (size_t i = 0; i < n; ++i) {
    const PtxInst& in = f.code[i];
    auto add_src = [&](const Operand& o) {
      if (o.kind == Operand::kReg && o.width > 0)
        use[i].insert(o.reg);
      if (o.kind == Operand::kAddr && o.has_base)
        use[i].insert(o.reg);
      if (o.kind == Operand::kVec)
        for (int k = 0; k < o.n; ++k)
          use[i].insert(o.vec[static_cast<size_t>(k)]);
    };
    for (int k = 0; k < in.n_src; ++k)
      add_src(in.src[static_cast<size_t>(k)]);
    if (in.n_dst > 0) {
      if (in.dst.kind == Operand::kReg)
        def[i].insert(in.dst.reg);
      else
        for (int k = 0; k < in.dst.n; ++k)
          def[i].insert(in.dst.vec[static_cast<size_t>(k)]);
    }
    const bool falls = !(in.op == Op::kRet || in.op == Op::kBra) || in.has_guard;
    if (in.op == Op::kBra)
      succ[i].push_back(static_cast<size_t>(in.target));
    if (falls && i + 1 < n)
      succ[i].push_back(i + 1);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      std::set<uint16_t> out;
      for (size_t s : succ[i])
        out.insert(live_in[s].begin(), live_in[s].end());
      std::set<uint16_t> in = use[i];
      for (uint16_t v : out) {
        if (!def[i].count(v) || f.code[i].has_guard)
          in.insert(v);
      }
      if (in != live_in[i] || out != live_out[i]) {
        live_in[i] = std::move(in);
        live_out[i] = std::move(out);
        changed = true;
      }
    }
  }
  for (size_t i = 0; i < n; ++i) {
    std::set<uint16_t> s = live_out[i];
    s.insert(def[i].begin(), def[i].end());
    std::vector<uint16_t> regs;
    for (uint16_t v : s) {
      if (ck.vreg_arch[v] >= 0)
        regs.push_back(v);
    }
    for (size_t a = 0; a < regs.size(); ++a) {
      for (size_t b = a + 1; b < regs.size(); ++b) {
        const auto [a0, a1] = Range(ck, regs[a]);
        const auto [b0, b1] = Range(ck, regs[b]);
        ASSERT_TRUE(a1 <= b0 || b1 <= a0)
            << ck.kernel.name << " instruction " << i << " (" << f.code[i].opcode
            << "): " << f.vregs[regs[a]].name << " in R" << a0 << " and " << f.vregs[regs[b]].name
            << " in R" << b0 << " are both live";
      }
    }
  }
}

class AllocInvariants : public testing::TestWithParam<int> {};

TEST_P(AllocInvariants, EveryCorpusKernel) {
  const int budget = GetParam();
  const std::string corpus = GPURF_SOURCE_DIR "/workloads/corpus";
  for (const auto& name : CorpusNames()) {
    SCOPED_TRACE(name);
    const LaunchSpec spec = LoadLaunch(corpus + "/" + name + "/launch.yaml");
    const CompiledKernel ck = CompileKernel(LoadPtx(spec.ptx), spec.kernel, {budget});
    const Kernel& k = ck.kernel;
    EXPECT_LE(k.regs_per_thread, budget);
    EXPECT_GT(k.regs_per_thread, 0);
    int max_used = -1;
    for (const auto& in : k.code) {
      for (const auto* ops : {&in.srcs, &in.dsts}) {
        for (const auto& r : *ops) {
          EXPECT_TRUE(r.count == 1 || r.count == 2 || r.count == 4);
          EXPECT_EQ(r.first % r.count, 0) << in.opcode << " R" << r.first;  // aligned
          max_used = std::max(max_used, r.first + r.count - 1);
        }
      }
    }
    EXPECT_EQ(k.regs_per_thread, max_used + 1);
    // 64-bit values sit in aligned pairs.
    for (size_t v = 0; v < ck.virt.vregs.size(); ++v) {
      if (ck.vreg_arch[v] >= 0 && !ck.virt.vregs[v].pred()) {
        EXPECT_EQ(ck.vreg_arch[v] % ck.virt.vregs[v].width(), 0) << ck.virt.vregs[v].name;
      }
    }
    if (budget == 63) {
      EXPECT_EQ(ck.stats.spilled_values, 0);  // the corpus fits, as it does under ptxas
    }
    CheckNoInterference(ck);
  }
}

INSTANTIATE_TEST_SUITE_P(Budgets, AllocInvariants, testing::Values(63, 24, 16));

TEST(RegAlloc, SmallBudgetSpillsThroughLocalMemory) {
  const std::string corpus = GPURF_SOURCE_DIR "/workloads/corpus";
  const LaunchSpec spec = LoadLaunch(corpus + "/nbody/launch.yaml");
  const CompiledKernel ck = CompileKernel(LoadPtx(spec.ptx), spec.kernel, {16});
  EXPECT_GT(ck.stats.spilled_values, 0);
  EXPECT_GT(ck.kernel.local_bytes, 0u);
  int spills = 0;
  for (const auto& in : ck.kernel.code) {
    if (in.op_class == OpClass::kLocalMem) {
      ++spills;
      EXPECT_EQ(in.long_latency, in.opcode.starts_with("ld."));
    }
  }
  EXPECT_EQ(spills, ck.stats.spill_instructions);
}

TEST(RegAlloc, VectorGroupsSpillWhenTheyDoNotFit) {
  // Found by ptx_fuzz: at 16 registers three 4-register vector groups live at once (A, B and
  // the fresh group for A's members in another order) left 8 registers for 12 and the allocator
  // threw std::logic_error. Groups now spill like single values: every member to its own slot,
  // reloaded into an aligned run of scratch registers around each vector access.
  std::string body = R"(
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
)";
  for (int i = 0; i < 12; ++i)
    body += fmt::format("\tmov.f32 \t%v{}, {}.5;\n", i, i);
  body += R"(
	st.global.v4.f32 	[%rd2], {%v0, %v1, %v2, %v3};
	st.global.v4.f32 	[%rd2+16], {%v4, %v5, %v6, %v7};
	st.global.v4.f32 	[%rd2+32], {%v1, %v0, %v3, %v2};
	st.global.v4.f32 	[%rd2+48], {%v8, %v9, %v10, %v11};
	ld.global.v4.f32 	{%v8, %v9, %v10, %v11}, [%rd2+16];
	st.global.v4.f32 	[%rd2+64], {%v0, %v1, %v2, %v3};
	st.global.v4.f32 	[%rd2+80], {%v4, %v5, %v6, %v7};
	st.global.v4.f32 	[%rd2+96], {%v8, %v9, %v10, %v11};
	ret;
)";
  const PtxModule m = ParsePtx(Kernel1(body, "\t.reg .f32 \t%v<12>;\n"), "t.ptx");
  const std::vector<float> want = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f,  5.5f,  6.5f, 7.5f, 1.5f, 0.5f,
                                   3.5f, 2.5f, 8.5f, 9.5f, 10.5f, 11.5f, 0.5f, 1.5f, 2.5f, 3.5f,
                                   4.5f, 5.5f, 6.5f, 7.5f, 4.5f,  5.5f,  6.5f, 7.5f};
  for (const int budget : {63, 16}) {
    SCOPED_TRACE(budget);
    const CompiledKernel ck = CompileKernel(m, "k", {budget});
    EXPECT_LE(ck.kernel.regs_per_thread, budget);
    EXPECT_EQ(ck.stats.spilled_values > 0, budget == 16);
    for (const auto& in : ck.kernel.code) {
      for (const auto* ops : {&in.srcs, &in.dsts}) {
        for (const auto& r : *ops)
          EXPECT_EQ(r.first % r.count, 0) << in.opcode << " R" << r.first;
      }
    }
    CheckNoInterference(ck);
    DeviceMemory mem;
    const uint64_t out = mem.Allocate(want.size() * 4);
    std::vector<uint8_t> params(12, 0);
    std::memcpy(params.data(), &out, 8);
    Execute(ck, {1, 1, 1}, {1, 1, 1}, params, mem);
    std::vector<float> got(want.size());
    std::memcpy(got.data(), mem.At(out, want.size() * 4), want.size() * 4);
    EXPECT_EQ(got, want);
  }
}

TEST(RegAlloc, TooManyLivePredicatesIsAnInputError) {
  // Predicates have 255 architected registers (kNoPred marks "no guard"); the 256th value live
  // at once used to escape as std::logic_error. It is bad input, at the instruction that needs it.
  std::string body = "\n";
  for (int i = 0; i < 256; ++i)
    body += fmt::format("\tsetp.eq.s32 \t%q{}, %r1, {};\n", i, i);
  for (int i = 0; i < 256; ++i)
    body += fmt::format("\t@%q{} add.s32 \t%r2, %r2, 1;\n", i);
  const PtxModule m = ParsePtx(Kernel1(body + "\tret;\n", "\t.reg .pred \t%q<256>;\n"), "t.ptx");
  try {
    CompileKernel(m, "k");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 16 + 255) << e.what();  // one decl line: the body starts at 15
    EXPECT_EQ(e.field(), "kernel");
    EXPECT_NE(std::string(e.what()).find("%q255 is the 256th predicate live at once"),
              std::string::npos)
        << e.what();
  }
  // One fewer fits.
  std::string fits = "\n";
  for (int i = 0; i < 255; ++i)
    fits += fmt::format("\tsetp.eq.s32 \t%q{}, %r1, {};\n", i, i);
  for (int i = 0; i < 255; ++i)
    fits += fmt::format("\t@%q{} add.s32 \t%r2, %r2, 1;\n", i);
  EXPECT_EQ(
      CompileKernel(ParsePtx(Kernel1(fits + "\tret;\n", "\t.reg .pred \t%q<256>;\n"), "t.ptx"), "k")
          .kernel.pred_regs,
      255);
}

TEST(RegAlloc, ClassesAndLongLatencyFollowGebhartTableOne) {
  const std::string text = Kernel1(R"(
	ld.param.u64 	%rd1, [k_param_0];
	ld.global.f32 	%f1, [%rd1];
	ld.shared.f32 	%f2, [sm];
	ex2.approx.f32 	%f3, %f1;
	add.f32 	%f3, %f3, %f2;
	st.global.f32 	[%rd1], %f3;
	atom.global.add.u32 	%r1, [%rd1], 1;
	bar.sync 	0;
	ret;
)",
                                   "\t.shared .align 4 .b8 sm[4];\n");
  const CompiledKernel ck = CompileKernel(ParsePtx(text, "t.ptx"), "k");
  const auto& c = ck.kernel.code;
  ASSERT_EQ(c.size(), 9u);
  const std::vector<OpClass> classes = {
      OpClass::kConstMem,  OpClass::kGlobalMem, OpClass::kSharedMem, OpClass::kSfu, OpClass::kAlu,
      OpClass::kGlobalMem, OpClass::kGlobalMem, OpClass::kBarrier,   OpClass::kExit};
  const std::vector<bool> ll = {false, true, false, false, false, false, true, false, false};
  for (size_t i = 0; i < c.size(); ++i) {
    EXPECT_EQ(c[i].op_class, classes[i]) << c[i].opcode;
    EXPECT_EQ(c[i].long_latency, ll[i]) << c[i].opcode;
  }
  EXPECT_EQ(c[1].mem_bytes, 4);
  ASSERT_EQ(c[1].srcs.size(), 1u);
  EXPECT_EQ(c[1].srcs[0].count, 2);  // 64-bit address pair
  EXPECT_EQ(c[5].srcs.size(), 2u);   // address, value
}

}  // namespace
}  // namespace gpurf::sim::ptx
