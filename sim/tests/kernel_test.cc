#include "sim/kernel/kernel.h"

#include <gtest/gtest.h>

namespace gpurf::sim {
namespace {

Instruction Alu(uint16_t dst, uint16_t a, uint16_t b) {
  Instruction i;
  i.opcode = "add.s32";
  i.dsts = {{dst, 1}};
  i.srcs = {{a, 1}, {b, 1}};
  return i;
}

Instruction Bra(int32_t target, bool guarded) {
  Instruction i;
  i.opcode = "bra";
  i.op_class = OpClass::kBranch;
  i.target = target;
  if (guarded) {
    i.guard = 0;
    i.conditional = true;
  }
  return i;
}

Instruction Exit(bool guarded = false) {
  Instruction i;
  i.opcode = "ret";
  i.op_class = OpClass::kExit;
  if (guarded)
    i.guard = 1;
  return i;
}

Kernel Make(std::vector<Instruction> code) {
  Kernel k;
  k.name = "k";
  k.code = std::move(code);
  for (uint32_t i = 0; i < k.code.size(); ++i)
    k.code[i].pc = i;
  k.BuildCfg();
  return k;
}

TEST(KernelCfg, StraightLineIsOneBlockThatExits) {
  const Kernel k = Make({Alu(0, 1, 2), Alu(3, 0, 0), Exit()});
  ASSERT_EQ(k.blocks.size(), 1u);
  EXPECT_EQ(k.blocks[0].succs, std::vector<uint32_t>{kExitBlock});
  EXPECT_EQ(k.blocks[0].ipdom, kExitBlock);
  EXPECT_EQ(k.ReconvergencePoint(0), 3u);
}

TEST(KernelCfg, IfElseDiamondReconvergesAtTheJoin) {
  // 0: @p bra 3 | 1: then | 2: bra 4 | 3: else | 4: join | 5: exit
  const Kernel k =
      Make({Bra(3, true), Alu(1, 1, 1), Bra(4, false), Alu(1, 2, 2), Alu(2, 1, 1), Exit()});
  ASSERT_EQ(k.blocks.size(), 4u);  // [0] [1,2] [3] [4,5]
  EXPECT_EQ(k.block_of[4], 3u);
  EXPECT_EQ(k.blocks[0].succs, (std::vector<uint32_t>{2, 1}));
  EXPECT_EQ(k.blocks[1].succs, std::vector<uint32_t>{3});
  EXPECT_EQ(k.blocks[3].preds, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(k.blocks[0].ipdom, 3u);
  EXPECT_EQ(k.ReconvergencePoint(0), 4u);
  EXPECT_EQ(k.blocks[3].ipdom, kExitBlock);
}

TEST(KernelCfg, LoopBackEdgeReconvergesAfterTheLoop) {
  // 0: init | 1: body | 2: @p bra 1 | 3: exit
  const Kernel k = Make({Alu(0, 0, 0), Alu(1, 0, 1), Bra(1, true), Exit()});
  ASSERT_EQ(k.blocks.size(), 3u);  // [0] [1,2] [3]
  EXPECT_EQ(k.blocks[1].succs, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(k.blocks[1].ipdom, 2u);
  EXPECT_EQ(k.ReconvergencePoint(2), 3u);
}

TEST(KernelCfg, GuardedExitFallsThroughAndPostDominatesAtExit) {
  // 0: @p ret | 1: work | 2: ret
  const Kernel k = Make({Exit(true), Alu(0, 0, 0), Exit()});
  ASSERT_EQ(k.blocks.size(), 2u);
  EXPECT_EQ(k.blocks[0].succs, (std::vector<uint32_t>{kExitBlock, 1}));
  EXPECT_EQ(k.blocks[0].ipdom, kExitBlock);
  EXPECT_EQ(k.ReconvergencePoint(0), 3u);
}

TEST(KernelCfg, BranchPastTheEndIsAnInputError) {
  Kernel k;
  k.name = "bad";
  k.code = {Bra(7, true), Exit()};
  k.code[0].loc = SourceLoc{"bad.ptx", 12, 3};
  try {
    k.BuildCfg();
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 12);
    EXPECT_EQ(e.value(), "7");
  }
}

TEST(KernelRun, CountsWarpAndThreadInstructions) {
  KernelRun r;
  r.warps.resize(2);
  r.warps[0].insts = {{0, 0xffffffffu, 0}, {1, 0x0000000fu, 0}};
  r.warps[1].insts = {{0, 0x1u, 0}};
  EXPECT_EQ(r.WarpInstructions(), 3u);
  EXPECT_EQ(r.ThreadInstructions(), 32u + 4u + 1u);
}

TEST(OpClass, SharedUnitsAreTheNonAluUnits) {
  EXPECT_FALSE(IsSharedUnit(OpClass::kAlu));
  EXPECT_TRUE(IsSharedUnit(OpClass::kSfu));
  EXPECT_TRUE(IsSharedUnit(OpClass::kGlobalMem));
  EXPECT_TRUE(IsSharedUnit(OpClass::kSharedMem));
  EXPECT_FALSE(IsSharedUnit(OpClass::kBranch));
  EXPECT_STREQ(OpClassName(OpClass::kTexture), "texture");
}

}  // namespace
}  // namespace gpurf::sim
