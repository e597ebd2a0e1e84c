// Warp-level PTX (issue 14) and per-lane addresses in the functional streams (issue 13):
//   - shfl.sync up/down/bfly/idx lane by lane (clamps, segments, out-of-range and inactive
//     source lanes, the predicate output), vote.sync, activemask, match.sync, redux.sync,
//     bar.warp.sync, mov.pred immediates, f16/f16x2 arithmetic and conversions, packing movs,
//     on hand-written PTX with expected values from the PTX ISA / CUDA programming guide;
//   - nvcc's PTX for a CUDA kernel using all of them (sim/tests/data/ptx_warp/warp.cu) run end
//     to end with every output checked;
//   - the membermask rules of this model (InputErrors);
//   - recorded lane addresses of coalesced, strided, shared, local, generic and parameter
//     accesses, and the instructions' mem_write / mem_atomic / cache_op.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sim/exec/functional.h"
#include "sim/ptx/ptx_parser.h"
#include "sim/ptx/regalloc.h"

namespace gpurf::sim {
namespace {

const char* kHead = ".version 9.0\n.target sm_80\n.address_size 64\n";

struct Small {
  ptx::CompiledKernel ck;
  KernelRun run;
  std::vector<uint32_t> out;
  uint64_t out_addr = 0;
};

// Runs `body` as kernel k(u64 out) over `threads` threads of one CTA; out has `words` u32.
// Every test kernel stores its results itself.
Small RunK(const std::string& body, uint32_t threads, uint32_t words) {
  const std::string text = std::string(kHead) +
                           ".visible .entry k(.param .u64 k_out)\n{\n"
                           "\t.reg .pred %p<8>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<8>;\n"
                           "\t.reg .b16 %h<8>;\n\t.reg .f32 %f<4>;\n"
                           "\t.shared .align 4 .b8 sm[512];\n\t.local .align 4 .b8 loc[64];\n" +
                           body + "}\n";
  Small s;
  s.ck = ptx::CompileKernel(ptx::ParsePtx(text, "warp.ptx"), "k");
  DeviceMemory mem;
  s.out_addr = mem.Allocate(words * 4, "out");
  std::vector<uint8_t> params(8);
  std::memcpy(params.data(), &s.out_addr, 8);
  s.run = Execute(s.ck, {1, 1, 1}, {threads, 1, 1}, params, mem);
  s.out.resize(words);
  std::memcpy(s.out.data(), mem.At(s.out_addr, words * 4), words * 4);
  return s;
}

// Prologue: %r1 = lane (= tid), %r2 = 10 * lane + 1, %rd4 = &out[8 * lane].
const char* kPro = R"(
	mov.u32 %r1, %tid.x;
	mad.lo.u32 %r2, %r1, 10, 1;
	ld.param.u64 %rd1, [k_out];
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r1, 32;
	add.s64 %rd4, %rd2, %rd3;
)";

uint32_t V(uint32_t lane) {
  return 10 * lane + 1;
}

TEST(WarpShfl, AllModesLaneByLaneWithClampsSegmentsAndPredicates) {
  const Small s = RunK(std::string(kPro) + R"(
	shfl.sync.down.b32 %r3|%p1, %r2, 3, 31, -1;
	shfl.sync.up.b32 %r4|%p2, %r2, 2, 0, -1;
	shfl.sync.bfly.b32 %r5, %r2, 5, 31, -1;
	shfl.sync.idx.b32 %r6|%p3, %r2, 7, 31, -1;
	shfl.sync.idx.b32 %r7, %r2, 3, 0x181f, -1;
	shfl.sync.down.b32 %r8|%p4, %r2, 2, 0x181f, -1;
	shfl.sync.idx.b32 %r9|%p5, %r2, 40, 15, -1;
	selp.u32 %r10, 1, 0, %p1;
	selp.u32 %r11, 2, 0, %p2;
	selp.u32 %r12, 4, 0, %p3;
	selp.u32 %r13, 8, 0, %p4;
	selp.u32 %r14, 16, 0, %p5;
	or.b32 %r10, %r10, %r11;
	or.b32 %r10, %r10, %r12;
	or.b32 %r10, %r10, %r13;
	or.b32 %r10, %r10, %r14;
	st.global.v4.u32 [%rd4], {%r3, %r4, %r5, %r6};
	st.global.v4.u32 [%rd4+16], {%r7, %r8, %r9, %r10};
	ret;
)",
                       32, 256);
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t* o = &s.out[l * 8];
    SCOPED_TRACE(fmt::format("lane {}", l));
    // down 3, clamp 31: source l + 3 while <= 31, else the lane's own value.
    EXPECT_EQ(o[0], l + 3 <= 31 ? V(l + 3) : V(l));
    // up 2, c = 0: source l - 2 while >= 0.
    EXPECT_EQ(o[1], l >= 2 ? V(l - 2) : V(l));
    EXPECT_EQ(o[2], V(l ^ 5));  // butterfly, always in range
    EXPECT_EQ(o[3], V(7));      // broadcast of lane 7
    // Segments of 8 lanes (c = (32 - 8) << 8 | 31): idx 3 of the lane's segment; down 2 stays
    // inside the segment.
    const uint32_t seg = l & ~7u;
    EXPECT_EQ(o[4], V(seg + 3));
    EXPECT_EQ(o[5], l + 2 <= seg + 7 ? V(l + 2) : V(l));
    // idx 40 reads lane 40 & 31 = 8; clamp 15: in range for every lane (8 <= 15).
    EXPECT_EQ(o[6], V(8));
    const uint32_t pred =
        (l + 3 <= 31 ? 1u : 0u) | (l >= 2 ? 2u : 0u) | 4u | (l + 2 <= seg + 7 ? 8u : 0u) | 16u;
    EXPECT_EQ(o[7], pred);
  }
  // Class and recording: shfl is a shared unit with 32 zero addresses.
  const Instruction& shfl = s.ck.kernel.code[6];
  EXPECT_EQ(shfl.opcode, "shfl.sync.down.b32");
  EXPECT_EQ(shfl.op_class, OpClass::kSharedMem);
  EXPECT_EQ(shfl.pred_dsts.size(), 1u);
  EXPECT_EQ(shfl.dsts.size(), 1u);
  EXPECT_EQ(shfl.mem_bytes, 0);
}

TEST(WarpShfl, PartialMasksInactiveAndMissingSourceLanes) {
  // 20 threads: lanes 20..31 do not exist. Lanes 16..19 branch away, so lanes 0..15 run the
  // shuffles with membermask 0xffff.
  const Small s = RunK(std::string(kPro) + R"(
	mov.u32 %r3, 0;
	mov.u32 %r4, 0;
	mov.u32 %r5, 0;
	mov.u32 %r6, 0;
	setp.ge.u32 %p1, %r1, 16;
	@%p1 bra DONE;
	shfl.sync.down.b32 %r3|%p2, %r2, 8, 31, 0xffff;
	shfl.sync.idx.b32 %r4|%p3, %r2, 20, 31, 0xffff;
	vote.sync.ballot.b32 %r5, %p2, 0xffff;
	selp.u32 %r6, 1, 0, %p3;
DONE:
	shfl.sync.down.b32 %r7|%p4, %r2, 16, 31, -1;
	selp.u32 %r8, 1, 0, %p4;
	st.global.v4.u32 [%rd4], {%r3, %r4, %r5, %r6};
	st.global.v2.u32 [%rd4+16], {%r7, %r8};
	ret;
)",
                       20, 256);
  for (uint32_t l = 0; l < 20; ++l) {
    const uint32_t* o = &s.out[l * 8];
    SCOPED_TRACE(fmt::format("lane {}", l));
    if (l < 16) {
      // Sources 8..15 are members; 16..23 are in range but not in the membermask: own value.
      EXPECT_EQ(o[0], l + 8 < 16 ? V(l + 8) : V(l));
      EXPECT_EQ(o[1], V(l));     // lane 20 is in range (p = 1) but not executing
      EXPECT_EQ(o[2], 0xffffu);  // every member's source was in range
      EXPECT_EQ(o[3], 1u);
    } else {
      EXPECT_EQ(o[0], 0u);
      EXPECT_EQ(o[2], 0u);
    }
    // After reconvergence, down 16 with all 20 lanes: lanes 16..19 read lanes 32..35 (out of
    // range, p = 0); lanes 4..15 read lanes 20..31, which do not exist (own value, p = 1).
    EXPECT_EQ(o[4], l + 16 < 20 ? V(l + 16) : V(l));
    EXPECT_EQ(o[5], l + 16 <= 31 ? 1u : 0u);
  }
}

TEST(WarpVote, VoteActivemaskMatchReduxAndBarWarp) {
  // Lane values: a = lane % 3 (match groups), b = lane - 5 (signed), predicate lane odd.
  const Small s = RunK(std::string(kPro) + R"(
	rem.u32 %r3, %r1, 3;
	sub.s32 %r4, %r1, 5;
	and.b32 %r5, %r1, 1;
	setp.eq.u32 %p1, %r5, 1;
	setp.lt.u32 %p2, %r1, 40;
	vote.sync.ballot.b32 %r6, %p1, -1;
	vote.sync.ballot.b32 %r7, !%p1, 0xffffffff;
	vote.sync.any.pred %p3, %p1, -1;
	vote.sync.all.pred %p4, %p1, -1;
	vote.sync.all.pred %p5, %p2, -1;
	vote.sync.uni.pred %p6, %p2, -1;
	selp.u32 %r8, 1, 0, %p3;
	selp.u32 %r9, 2, 0, %p4;
	selp.u32 %r10, 4, 0, %p5;
	selp.u32 %r11, 8, 0, %p6;
	or.b32 %r8, %r8, %r9;
	or.b32 %r8, %r8, %r10;
	or.b32 %r8, %r8, %r11;
	bar.warp.sync -1;
	match.any.sync.b32 %r12, %r3, -1;
	match.all.sync.b32 %r13|%p7, %r3, -1;
	selp.u32 %r14, 1, 0, %p7;
	redux.sync.add.s32 %r15, %r4, -1;
	redux.sync.min.s32 %r16, %r4, -1;
	redux.sync.min.u32 %r17, %r4, -1;
	redux.sync.max.s32 %r18, %r4, -1;
	redux.sync.or.b32 %r19, %r1, -1;
	redux.sync.xor.b32 %r20, %r1, -1;
	redux.sync.and.b32 %r21, %r2, -1;
	mov.u32 %r22, 0;
	@%p1 activemask.b32 %r22;
	st.global.v4.u32 [%rd4], {%r6, %r7, %r8, %r12};
	st.global.v4.u32 [%rd4+16], {%r13, %r14, %r15, %r16};
	st.global.v4.u32 [%rd4+1024], {%r17, %r18, %r19, %r20};
	st.global.v2.u32 [%rd4+1040], {%r21, %r22};
	ret;
)",
                       24, 512);
  // 24 threads: lanes 0..23 live.
  uint32_t odd = 0, even = 0;
  for (uint32_t l = 0; l < 24; ++l)
    (l & 1 ? odd : even) |= 1u << l;
  int32_t sum = 0;
  for (int l = 0; l < 24; ++l)
    sum += l - 5;
  for (uint32_t l = 0; l < 24; ++l) {
    const uint32_t* o = &s.out[l * 8];
    const uint32_t* q = &s.out[l * 8 + 256];
    SCOPED_TRACE(fmt::format("lane {}", l));
    EXPECT_EQ(o[0], odd);
    EXPECT_EQ(o[1], even);               // the negated predicate
    EXPECT_EQ(o[2], 1u | 0u | 4u | 8u);  // any odd; not all odd; all < 40; uniform
    uint32_t group = 0;
    for (uint32_t k = 0; k < 24; ++k)
      group |= (k % 3 == l % 3 ? 1u : 0u) << k;
    EXPECT_EQ(o[3], group);
    EXPECT_EQ(o[4], 0u);  // values differ: match.all gives 0 and p = 0
    EXPECT_EQ(o[5], 0u);
    EXPECT_EQ(static_cast<int32_t>(o[6]), sum);
    EXPECT_EQ(static_cast<int32_t>(o[7]), -5);
    EXPECT_EQ(q[0], 0u);   // unsigned min of 0xfffffffb.. and 0..18: 0 (lane 5)
    EXPECT_EQ(q[1], 18u);  // max of -5..18
    EXPECT_EQ(q[2], 31u);  // or of 0..23
    EXPECT_EQ(q[3], 0u ^ 1 ^ 2 ^ 3 ^ 4 ^ 5 ^ 6 ^ 7 ^ 8 ^ 9 ^ 10 ^ 11 ^ 12 ^ 13 ^ 14 ^ 15 ^ 16 ^ 17 ^
                        18 ^ 19 ^ 20 ^ 21 ^ 22 ^ 23);
    uint32_t all_and = ~0u;
    for (uint32_t k = 0; k < 24; ++k)
      all_and &= V(k);
    EXPECT_EQ(q[4], all_and);
    EXPECT_EQ(q[5], l & 1 ? odd : 0u);  // activemask under @%p1: the odd lanes
  }
  // bar.warp.sync parses, is recorded, and is an ALU no-op; vote is an ALU instruction.
  const Kernel& k = s.ck.kernel;
  bool saw_bar = false;
  for (const auto& in : k.code) {
    if (in.opcode == "bar.warp.sync") {
      saw_bar = true;
      EXPECT_EQ(in.op_class, OpClass::kAlu);
    }
    if (in.opcode.starts_with("vote") || in.opcode.starts_with("redux") ||
        in.opcode.starts_with("match")) {
      EXPECT_EQ(in.op_class, OpClass::kAlu) << in.opcode;
    }
  }
  EXPECT_TRUE(saw_bar);
}

// bfind: nvcc writes __ffs(x) as brev + bfind.shiftamt (warpHistogram's leader lane) and uses
// bfind for __clz-style helpers. Lane values: u = 10 lane + 1, s = lane - 5, w = u << 20 (64-bit).
TEST(WarpBits, BfindPositionsShiftAmountsSignedAndEmpty) {
  const Small s = RunK(std::string(kPro) + R"(
	sub.s32 %r3, %r1, 5;
	cvt.u64.u32 %rd5, %r2;
	shl.b64 %rd5, %rd5, 20;
	bfind.u32 %r4, %r2;
	bfind.shiftamt.u32 %r5, %r2;
	bfind.s32 %r6, %r3;
	bfind.shiftamt.s32 %r7, %r3;
	bfind.u64 %r8, %rd5;
	bfind.shiftamt.u64 %r9, %rd5;
	bfind.u32 %r10, 0;
	brev.b32 %r11, %r2;
	bfind.shiftamt.u32 %r12, %r11;
	st.global.v4.u32 [%rd4], {%r4, %r5, %r6, %r7};
	st.global.v4.u32 [%rd4+16], {%r8, %r9, %r10, %r12};
	ret;
)",
                       32, 256);
  // Highest set bit of 10 l + 1: 1 -> 0, 11 -> 3, 21 -> 4, 31 -> 4, 41..61 -> 5, 71..121 -> 6,
  // 131..251 -> 7, 261..311 -> 8.
  auto high = [](uint32_t l) -> uint32_t {
    const uint32_t v = 10 * l + 1;
    return v < 2 ? 0 : v < 16 ? 3 : v < 32 ? 4 : v < 64 ? 5 : v < 128 ? 6 : v < 256 ? 7 : 8;
  };
  // Signed: lane - 5 = -5, -4, -3, -2, -1, 0, 1, 2, ...: the highest bit unlike the sign bit
  // (-5 = ...1011 -> 2, -4 -> 1, -3 -> 1, -2 -> 0, -1 and 0 -> none), then 1 -> 0, 2..3 -> 1,
  // 4..7 -> 2, 8..15 -> 3, 16..26 -> 4.
  constexpr uint32_t N = 0xffffffffu;
  const uint32_t sgn[32] = {2, 1, 1, 0, N, N, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3,
                            3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
  // The lowest set bit of 10 l + 1 is bit 0 (it is odd): brev puts it at bit 31, shift amount 0.
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t* o = &s.out[8 * l];
    EXPECT_EQ(o[0], high(l)) << l;
    EXPECT_EQ(o[1], 31 - high(l)) << l;
    EXPECT_EQ(o[2], sgn[l]) << l;
    EXPECT_EQ(o[3], sgn[l] == N ? N : 31 - sgn[l]) << l;
    EXPECT_EQ(o[4], high(l) + 20) << l;
    EXPECT_EQ(o[5], 63 - 20 - high(l)) << l;
    EXPECT_EQ(o[6], 0xffffffffu) << l;
    EXPECT_EQ(o[7], 0u) << l;
  }
  // .shiftamt belongs to bfind; bfind takes integer types.
  EXPECT_THROW(RunK(std::string(kPro) + "\tpopc.shiftamt.b32 %r3, %r2;\n\tret;\n", 32, 256),
               InputError);
  EXPECT_THROW(RunK(std::string(kPro) + "\tbfind.b32 %r3, %r2;\n\tret;\n", 32, 256), InputError);
}

TEST(WarpVote, MembermaskRulesAreErrorsAtTheInstruction) {
  // A lane outside its own membermask.
  try {
    RunK(std::string(kPro) + "\tshfl.sync.idx.b32 %r3, %r2, 0, 31, 0xfffe;\n\tret;\n", 32, 256);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 20) << e.what();
    EXPECT_NE(std::string(e.what()).find("not in its membermask"), std::string::npos) << e.what();
  }
  // Full membermask inside divergent code: lanes 16..31 wait elsewhere.
  try {
    RunK(std::string(kPro) +
             "\tsetp.ge.u32 %p1, %r1, 16;\n\t@%p1 bra DONE;\n"
             "\tvote.sync.ballot.b32 %r3, %p1, -1;\nDONE:\n\tret;\n",
         32, 256);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 22) << e.what();
    EXPECT_NE(std::string(e.what()).find("divergent paths"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("0xffffffff"), std::string::npos) << e.what();
  }
}

TEST(WarpHalf, F16ArithmeticConversionsPackingAndPredicateImmediates) {
  const Small s = RunK(std::string(kPro) + R"(
	mov.b16 %h1, 0x3E00;
	mov.b16 %h2, 0x4000;
	mov.b16 %h3, 0x3800;
	fma.rn.f16 %h4, %h1, %h2, %h3;
	mov.b32 %r3, {%h1, %h4};
	mul.f16x2 %r4, %r3, %r3;
	mov.b32 {%h5, %h6}, %r4;
	add.f16 %h7, %h5, %h6;
	cvt.u32.u16 %r5, %h7;
	mov.f32 %f1, 0f3DCCCCCD;
	cvt.rn.f16.f32 %h1, %f1;
	cvt.u32.u16 %r6, %h1;
	mov.f32 %f1, 0f4788B800;
	cvt.rn.f16.f32 %h1, %f1;
	cvt.u32.u16 %r7, %h1;
	mov.f32 %f1, 0f35800000;
	cvt.rn.f16.f32 %h1, %f1;
	cvt.u32.u16 %r8, %h1;
	cvt.rn.f16.u32 %h1, 2049;
	cvt.rn.f16.u32 %h2, 2051;
	mov.b32 %r9, {%h1, %h2};
	mov.b16 %h3, 0x3555;
	cvt.f32.f16 %f2, %h3;
	mov.b32 %r10, %f2;
	setp.lt.f16 %p1, %h3, %h1;
	mov.pred %p2, 0;
	mov.pred %p3, 1;
	selp.u32 %r11, 1, 0, %p1;
	selp.u32 %r12, 2, 0, %p2;
	selp.u32 %r13, 4, 0, %p3;
	or.b32 %r11, %r11, %r12;
	or.b32 %r11, %r11, %r13;
	mov.b64 %rd5, {%r5, %r6};
	mov.b64 {%r14, _}, %rd5;
	mov.b64 {_, %r15}, %rd5;
	st.global.v4.u32 [%rd4], {%r5, %r6, %r7, %r8};
	st.global.v4.u32 [%rd4+16], {%r9, %r10, %r11, %r4};
	st.global.v2.u32 [%rd4+256], {%r14, %r15};
	ret;
)",
                       1, 128);
  // fma(1.5, 2, 0.5) = 3.5 (0x4300); (1.5, 3.5)^2 = (2.25, 12.25) = (0x4080, 0x4a20);
  // 2.25 + 12.25 = 14.5 = 0x4b40.
  EXPECT_EQ(s.out[0], 0x4b40u);
  EXPECT_EQ(s.out[1], 0x2e66u);  // 0.1f rounds to 0x2e66
  EXPECT_EQ(s.out[2], 0x7c00u);  // 70000 overflows to +inf
  EXPECT_EQ(s.out[3], 0x0010u);  // 2^-20 is the subnormal 16 * 2^-24
  // 2049 is a tie between 2048 and 2050: to even, 2048 (0x6800); 2051 -> 2052 (0x6802).
  EXPECT_EQ(s.out[4], 0x68026800u);
  EXPECT_EQ(s.out[5], 0x3eaaa000u);  // 0x3555 = 0.333251953125 exactly
  EXPECT_EQ(s.out[6], 1u | 4u);      // 0.333 < 2048; mov.pred 0 / 1
  EXPECT_EQ(s.out[7], 0x4a204080u);  // the f16x2 product, element 0 low
  EXPECT_EQ(s.out[64], 0x4b40u);     // unpacked low word of {%r5, %r6}
  EXPECT_EQ(s.out[65], 0x2e66u);     // high word
}

// --------------------------------------------------------------------- nvcc's warp kernel

TEST(WarpNvcc, CudaWarpIntrinsicsCooperativeGroupsAndHalvesMatchTheGuide) {
  const std::string dir = GPURF_SOURCE_DIR "/sim/tests/data/ptx_warp/";
  const ptx::CompiledKernel ck = ptx::CompileKernel(ptx::LoadPtx(dir + "warp.ptx"), "warpOps");
  constexpr uint32_t kThreads = 64, kWarps = 2;
  std::vector<int32_t> in(kThreads);
  std::vector<uint16_t> hin(kThreads);
  for (uint32_t t = 0; t < kThreads; ++t) {
    in[t] = static_cast<int32_t>((t * 37) % 19) - 5;
    // (t % 8) * 0.25 as a half: 0, 0x3400, 0x3800, 0x3a00, 0x3c00, 0x3d00, 0x3e00, 0x3f00.
    static const uint16_t kQuarter[8] = {0, 0x3400, 0x3800, 0x3a00, 0x3c00, 0x3d00, 0x3e00, 0x3f00};
    hin[t] = kQuarter[t % 8];
  }
  DeviceMemory mem;
  const uint64_t a_in = mem.Allocate(kThreads * 4, "in");
  const uint64_t a_hin = mem.Allocate(kThreads * 2, "hin");
  const uint64_t a_out = mem.Allocate(kThreads * 16 * 4, "out");
  const uint64_t a_out64 = mem.Allocate(kWarps * 8, "out64");
  const uint64_t a_hout = mem.Allocate(kThreads * 2, "hout");
  std::memcpy(mem.At(a_in, kThreads * 4), in.data(), kThreads * 4);
  std::memcpy(mem.At(a_hin, kThreads * 2), hin.data(), kThreads * 2);
  std::vector<uint8_t> params(ck.fn.param_bytes);
  const uint64_t ptrs[5] = {a_in, a_hin, a_out, a_out64, a_hout};
  std::memcpy(params.data(), ptrs, sizeof(ptrs));
  const uint32_t n = kThreads;
  std::memcpy(params.data() + 40, &n, 4);
  const KernelRun run = Execute(ck, {1, 1, 1}, {kThreads, 1, 1}, params, mem);
  ASSERT_EQ(run.warps.size(), kWarps);

  std::vector<int32_t> out(kThreads * 16);
  std::memcpy(out.data(), mem.At(a_out, out.size() * 4), out.size() * 4);
  std::vector<uint16_t> hout(kThreads);
  std::memcpy(hout.data(), mem.At(a_hout, kThreads * 2), kThreads * 2);
  std::vector<uint64_t> out64(kWarps);
  std::memcpy(out64.data(), mem.At(a_out64, kWarps * 8), kWarps * 8);

  for (uint32_t t = 0; t < kThreads; ++t) {
    SCOPED_TRACE(fmt::format("thread {}", t));
    const uint32_t lane = t % 32, w0 = t - lane;
    const int32_t* o = &out[t * 16];
    const int32_t v = in[t];
    int32_t sum = 0, mx = INT32_MIN, prefix = 0;
    uint32_t ballot = 0, am = 0, ror = 0;
    bool anyneg = false, allpos = true, same_hi = true;
    uint32_t rmin = UINT32_MAX;
    for (uint32_t k = 0; k < 32; ++k) {
      const int32_t x = in[w0 + k];
      sum += x;
      mx = std::max(mx, x);
      if (k <= lane)
        prefix += x;
      ballot |= static_cast<uint32_t>(x & 1) << k;
      anyneg |= x < 0;
      allpos &= x >= 0;
      am |= (x & 2 ? 1u : 0u) << k;
      rmin = std::min(rmin, static_cast<uint32_t>(x));
      ror |= static_cast<uint32_t>(x);
      same_hi &= (x >> 8) == (in[w0] >> 8);
    }
    if (lane == 0) {
      EXPECT_EQ(o[0], sum);  // __shfl_down_sync tree: the total lands in lane 0
    }
    EXPECT_EQ(o[1], mx);      // __shfl_xor_sync butterfly: every lane
    EXPECT_EQ(o[2], prefix);  // __shfl_up_sync inclusive scan
    EXPECT_EQ(o[3], in[w0 + 5]);
    EXPECT_EQ(static_cast<uint32_t>(o[4]), ballot);
    EXPECT_EQ(o[5], anyneg ? 1 : 0);
    EXPECT_EQ(o[6], allpos ? 1 : 0);
    if (v & 2) {
      uint32_t mt = 0;
      int32_t ra = 0;
      for (uint32_t k = 0; k < 32; ++k) {
        if ((am >> k) & 1) {
          mt |= ((in[w0 + k] & 12) == (v & 12) ? 1u : 0u) << k;
          ra += in[w0 + k];
        }
      }
      EXPECT_EQ(static_cast<uint32_t>(o[7]), am);
      EXPECT_EQ(static_cast<uint32_t>(o[8]), mt);
      EXPECT_EQ(o[9], ra);
    } else {
      EXPECT_EQ(o[7], 0);
      EXPECT_EQ(o[8], 0);
      EXPECT_EQ(o[9], 0);
    }
    EXPECT_EQ(static_cast<uint32_t>(o[10]), rmin);
    EXPECT_EQ(o[11], mx);
    EXPECT_EQ(static_cast<uint32_t>(o[12]), ror);
    EXPECT_EQ(static_cast<uint32_t>(o[13]), same_hi ? 0x7fffffffu : 0u);
    // tiled_partition<8>: reduce over the tile, exclusive scan inside it; plus atomicCAS's old
    // value (lane 0 of the warp swaps first, the others see its tid + 1).
    const uint32_t t0 = t - t % 8;
    int32_t tsum = 0, tscan = 0;
    for (uint32_t k = t0; k < t0 + 8; ++k) {
      tsum += in[k];
      if (k < t)
        tscan += in[k];
    }
    EXPECT_EQ(o[14], tsum);
    EXPECT_EQ(o[15], tscan + (lane == 0 ? 0 : static_cast<int32_t>(w0 + 1)));
    // Halves: h = (t % 8) / 4, h2 = 2h + 0.5, hout = h^2 + h2^2, all exact in half.
    const double h = (t % 8) * 0.25, h2 = 2 * h + 0.5, want = h * h + h2 * h2;
    int e = 0;
    const double f = std::frexp(want, &e);  // want = f * 2^e, f in [0.5, 1)
    const auto mant = static_cast<uint16_t>(std::ldexp(f, 11)) & 0x3ff;
    EXPECT_EQ(hout[t], static_cast<uint16_t>(((e - 1 + 15) << 10) | mant)) << want;
  }
  EXPECT_EQ(out64[0], 1u);
  EXPECT_EQ(out64[1], 33u);
}

// --------------------------------------------------------------------- recorded addresses

TEST(Addresses, CoalescedStridedSharedLocalGenericAndParam) {
  const Small s = RunK(R"(
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [k_out];
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.cg.u32 %r2, [%rd4];
	mul.wide.u32 %rd3, %r1, 16;
	add.s64 %rd5, %rd2, %rd3;
	st.global.cs.u32 [%rd5+64], %r1;
	shl.b32 %r3, %r1, 2;
	st.shared.u32 [%r3+4], %r1;
	st.local.u32 [loc+8], %r1;
	mov.u64 %rd6, sm;
	cvta.shared.u64 %rd6, %rd6;
	add.s64 %rd6, %rd6, %rd3;
	setp.lt.u32 %p1, %r1, 4;
	@%p1 ld.u32 %r4, [%rd6];
	atom.global.add.u32 %r5, [%rd2], 1;
	ld.global.nc.u32 %r6, [%rd2+4];
	ret;
)",
                       32, 1024);
  const Kernel& k = s.ck.kernel;
  ASSERT_EQ(s.run.warps.size(), 1u);
  const WarpStream& w = s.run.warps[0];
  ASSERT_TRUE(w.has_addrs);
  auto find = [&](const std::string& op) -> const DynInst& {
    for (const auto& d : w.insts) {
      if (k.code[d.inst].opcode == op)
        return d;
    }
    throw std::runtime_error("no " + op);
  };
  auto check = [&](const std::string& op, auto expected) {
    const DynInst& d = find(op);
    const uint64_t* a = w.Addresses(d);
    ASSERT_NE(a, nullptr);
    for (uint32_t l = 0; l < 32; ++l)
      EXPECT_EQ(a[l], (d.active_mask >> l) & 1 ? expected(l) : 0u) << op << " lane " << l;
  };
  const uint64_t base = s.out_addr;
  check("ld.param.u64", [](uint32_t) { return uint64_t{0}; });
  check("ld.global.cg.u32", [&](uint32_t l) { return base + 4 * l; });
  check("st.global.cs.u32", [&](uint32_t l) { return base + 16 * l + 64; });
  check("st.shared.u32", [](uint32_t l) { return uint64_t{4} * l + 4; });
  check("st.local.u32", [](uint32_t) { return uint64_t{8}; });
  check("ld.u32", [](uint32_t l) { return uint64_t{16} * l; });  // generic -> shared offset
  check("atom.global.add.u32", [&](uint32_t) { return base; });
  check("ld.global.nc.u32", [&](uint32_t) { return base + 4; });
  EXPECT_EQ(find("ld.u32").active_mask, 0xfu);
  // The generic load's every active lane is in the shared window: the stream says it accessed
  // shared memory (the memory model times it there); the global accesses stay global.
  ASSERT_EQ(w.resolved.size(), 1u);
  EXPECT_EQ(w.resolved[0].record, find("ld.u32").addrs / 32);
  EXPECT_EQ(w.SpaceOf(find("ld.u32"), OpClass::kGlobalMem), OpClass::kSharedMem);
  EXPECT_EQ(w.SpaceOf(find("ld.global.cg.u32"), OpClass::kGlobalMem), OpClass::kGlobalMem);
  EXPECT_EQ(w.SpaceOf(find("st.shared.u32"), OpClass::kSharedMem), OpClass::kSharedMem);
  // Non-memory instructions have no addresses of their own; every memory one has 32.
  size_t mem_insts = 0;
  for (const auto& d : w.insts) {
    const OpClass c = k.code[d.inst].op_class;
    if (c == OpClass::kGlobalMem || c == OpClass::kSharedMem || c == OpClass::kLocalMem ||
        c == OpClass::kConstMem) {
      EXPECT_EQ(d.addrs, 32 * mem_insts++);
    }
  }
  EXPECT_EQ(w.addrs.size(), 32 * mem_insts);

  // The instructions' access kind and cache operator (sim/mem/memory.h CacheOp numbering).
  auto inst = [&](const std::string& op) -> const Instruction& { return k.code[find(op).inst]; };
  EXPECT_EQ(inst("ld.global.cg.u32").cache_op, 2);
  EXPECT_FALSE(inst("ld.global.cg.u32").mem_write);
  EXPECT_EQ(inst("st.global.cs.u32").cache_op, 3);
  EXPECT_TRUE(inst("st.global.cs.u32").mem_write);
  EXPECT_FALSE(inst("st.global.cs.u32").mem_atomic);
  EXPECT_EQ(inst("ld.global.nc.u32").cache_op, 4);
  EXPECT_TRUE(inst("atom.global.add.u32").mem_write);
  EXPECT_TRUE(inst("atom.global.add.u32").mem_atomic);
  EXPECT_EQ(inst("atom.global.add.u32").mem_bytes, 4);
  EXPECT_EQ(inst("st.shared.u32").op_class, OpClass::kSharedMem);
  EXPECT_EQ(inst("st.local.u32").op_class, OpClass::kLocalMem);
}

TEST(Addresses, OffWhenNotRequestedAndCountedAgainstTheLimit) {
  const std::string text = std::string(kHead) +
                           ".visible .entry k(.param .u64 k_out)\n{\n\t.reg .b64 %rd<4>;\n"
                           "\t.reg .b32 %r<4>;\n"
                           "\tld.param.u64 %rd1, [k_out];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
                           "\tld.global.u32 %r1, [%rd2];\n\tret;\n}\n";
  const ptx::CompiledKernel ck = ptx::CompileKernel(ptx::ParsePtx(text, "a.ptx"), "k");
  DeviceMemory mem;
  const uint64_t out = mem.Allocate(4);
  std::vector<uint8_t> params(8);
  std::memcpy(params.data(), &out, 8);
  ExecOptions opt;
  opt.record_addresses = false;
  const KernelRun off = Execute(ck, {1, 1, 1}, {32, 1, 1}, params, mem, opt);
  EXPECT_FALSE(off.warps[0].has_addrs);
  EXPECT_TRUE(off.warps[0].addrs.empty());
  EXPECT_EQ(off.warps[0].Addresses(off.warps[0].insts[0]), nullptr);
  // With values off, the budget holds the stream header, 4 DynInsts and the 2 x 32 addresses of
  // the two loads; one byte less and the run stops.
  opt.record_addresses = true;
  opt.record_values = false;
  const uint64_t need = sizeof(WarpStream) + 4 * sizeof(DynInst) + 2 * 32 * sizeof(uint64_t);
  opt.max_recorded_bytes = need;
  EXPECT_NO_THROW(Execute(ck, {1, 1, 1}, {32, 1, 1}, params, mem, opt));
  opt.max_recorded_bytes = need - 1;
  EXPECT_THROW(Execute(ck, {1, 1, 1}, {32, 1, 1}, params, mem, opt), InputError);
}

}  // namespace
}  // namespace gpurf::sim
