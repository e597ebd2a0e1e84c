// Accel-Sim trace import: the real vectoradd trace (sm_61, tracer version 4) rebuilt into static
// code, CFG and per-warp streams; synthetic traces for what it lacks (loops, divergence, Volta
// PCs, line info, version 5 immediates, every address format, register pairs); and every
// malformed-input path, each with its file:line:column and field. The `gpurf` binary's exit code
// 2 on bad traces is covered in cli_passes_test.cc.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/accelsim/sass.h"
#include "sim/accelsim/trace_import.h"

namespace gpurf::sim::accelsim {
namespace {

const std::string kVectorAdd = GPURF_SOURCE_DIR "/workloads/accelsim/vectoradd";

TEST(SassTable, SortedAndCoversTheUsualOpcodes) {
  const auto names = SassOpcodeNames();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (auto n : names)
    EXPECT_TRUE(LookupSassOpcode(n).has_value()) << n;
  EXPECT_EQ(LookupSassOpcode("FFMA.FTZ")->op_class, OpClass::kAlu);
  EXPECT_EQ(LookupSassOpcode("MUFU.RSQ")->op_class, OpClass::kSfu);
  EXPECT_EQ(LookupSassOpcode("LDG.E.128.SYS")->op_class, OpClass::kGlobalMem);
  EXPECT_EQ(LookupSassOpcode("STL.64")->op_class, OpClass::kLocalMem);
  EXPECT_EQ(LookupSassOpcode("ATOMS.ADD")->op_class, OpClass::kSharedMem);
  EXPECT_EQ(LookupSassOpcode("TLD.LZ")->op_class, OpClass::kTexture);
  EXPECT_EQ(LookupSassOpcode("BRA.U")->op_class, OpClass::kBranch);
  EXPECT_EQ(LookupSassOpcode("BAR.SYNC")->op_class, OpClass::kBarrier);
  EXPECT_EQ(LookupSassOpcode("EXIT")->op_class, OpClass::kExit);
  EXPECT_FALSE(LookupSassOpcode("FROB").has_value());
}

TEST(SassTable, OperandWidthsFollowTheModifiers) {
  auto w = [](std::string_view op, int nd, int ns, int bv = 70) {
    return SassOperandWidths(op, *LookupSassOpcode(op), nd, ns, bv);
  };
  EXPECT_EQ(w("LDG.E.128.SYS", 1, 1).dst_regs, std::vector<uint8_t>{4});
  EXPECT_EQ(w("LDG.E.128.SYS", 1, 1).src_regs, std::vector<uint8_t>{2});
  EXPECT_EQ(w("STG.E.64", 0, 2).src_regs, (std::vector<uint8_t>{2, 2}));
  EXPECT_EQ(w("LDS.U.64", 1, 1).src_regs, std::vector<uint8_t>{1});
  EXPECT_EQ(w("LDG.CG", 1, 1, 61).src_regs, std::vector<uint8_t>{1});  // no .E before Volta
  EXPECT_EQ(w("IMAD.WIDE.U32", 1, 3).dst_regs, std::vector<uint8_t>{2});
  EXPECT_EQ(w("IMAD.WIDE.U32", 1, 3).src_regs, (std::vector<uint8_t>{1, 1, 2}));
  EXPECT_EQ(w("DFMA", 1, 3).src_regs, (std::vector<uint8_t>{2, 2, 2}));
  EXPECT_EQ(w("F2F.F64.F32", 1, 1).dst_regs, std::vector<uint8_t>{2});
  EXPECT_EQ(w("F2F.F64.F32", 1, 1).src_regs, std::vector<uint8_t>{1});
  EXPECT_EQ(w("FADD", 1, 2).src_regs, (std::vector<uint8_t>{1, 1}));
}

TEST(AccelSimImport, RealVectorAddTrace) {
  const TraceWorkload w = ImportTrace(kVectorAdd);
  ASSERT_EQ(w.kernels.size(), 1u);
  EXPECT_EQ(w.memcpys.size(), 3u);
  EXPECT_EQ(w.memcpys[2].bytes, 400u);
  const ImportedKernel& ik = w.kernels[0];
  EXPECT_EQ(ik.header.kernel_name, "_Z6vecAddIfEvPT_S1_S1_i");
  EXPECT_EQ(ik.header.tracer_version, 4);
  EXPECT_EQ(ik.header.binary_version, 61);
  EXPECT_EQ(ik.header.block, (Dim3{1024, 1, 1}));
  const Kernel& k = *ik.kernel;
  ASSERT_EQ(k.code.size(), 23u);
  EXPECT_EQ(k.regs_per_thread, 8);
  EXPECT_EQ(k.code[0].pc, 0x08u);
  EXPECT_EQ(k.code[22].pc, 0xf0u);
  // XMAD.MRG R3, R0, RZ: RZ dropped.
  EXPECT_EQ(k.code[3].opcode, "XMAD.MRG");
  EXPECT_EQ(k.code[3].srcs, (std::vector<RegOperand>{{0, 1}}));
  // @P0 EXIT seen with an empty mask: guarded, falls through.
  EXPECT_EQ(k.code[8].op_class, OpClass::kExit);
  EXPECT_EQ(k.code[8].guard, kUnknownGuard);
  ASSERT_EQ(k.blocks.size(), 2u);
  EXPECT_EQ(k.blocks[0].succs, (std::vector<uint32_t>{kExitBlock, 1}));
  // LDG.E.CG R4, [R4]: 64-bit address pair, long latency.
  EXPECT_EQ(k.code[14].opcode, "LDG.E.CG");
  EXPECT_EQ(k.code[14].srcs, (std::vector<RegOperand>{{4, 2}}));
  EXPECT_EQ(k.code[14].dsts, (std::vector<RegOperand>{{4, 1}}));
  EXPECT_TRUE(k.code[14].long_latency);
  EXPECT_EQ(k.code[14].mem_bytes, 4);
  EXPECT_EQ(k.code[20].srcs, (std::vector<RegOperand>{{6, 2}, {0, 1}}));  // STG.E [R6], R0
  EXPECT_EQ(k.code[20].loc.line, 45);
  // Streams: 32 warps.
  ASSERT_EQ(ik.run.warps.size(), 32u);
  EXPECT_EQ(ik.run.kernel, &k);
  EXPECT_FALSE(ik.run.warps[0].has_values);
  // 100 elements: warps 0..3 load and store, the others exit at the guarded EXIT.
  EXPECT_EQ(ik.run.warps[3].insts.size(), 23u);
  EXPECT_EQ(ik.run.warps[4].insts.size(), 9u);
  EXPECT_EQ(ik.run.warps[31].insts.size(), 9u);
  EXPECT_EQ(ik.run.warps[31].warp_in_cta, 31u);
  EXPECT_EQ(ik.run.warps[0].insts[8].active_mask, 0u);
  EXPECT_EQ(ik.run.WarpInstructions(), 4u * 23 + 28 * 9);
  // Memory access kinds and cache operators from the SASS modifiers (sim/mem/memory.h CacheOp).
  EXPECT_EQ(k.code[14].cache_op, 2);  // .CG
  EXPECT_FALSE(k.code[14].mem_write);
  EXPECT_EQ(k.code[20].opcode, "STG.E");
  EXPECT_TRUE(k.code[20].mem_write);
  EXPECT_FALSE(k.code[20].mem_atomic);
  EXPECT_EQ(k.code[20].cache_op, 0);
  // Lane addresses: warp 0's first LDG.E.CG is "1 0x7f2b2d500000 4" (base + stride).
  const WarpStream& w0 = ik.run.warps[0];
  ASSERT_TRUE(w0.has_addrs);
  const DynInst* ldg = nullptr;
  for (const auto& d : w0.insts) {
    if (d.inst == 14) {
      ldg = &d;
      break;
    }
  }
  ASSERT_NE(ldg, nullptr);
  ASSERT_EQ(ldg->active_mask, 0xffffffffu);
  for (uint32_t l = 0; l < 32; ++l)
    EXPECT_EQ(w0.Addresses(*ldg)[l], 0x7f2b2d500000u + 4 * l) << l;
}

// A synthetic Volta trace: a loop whose back branch diverges, base+delta and list addresses.
std::string VoltaLoop(const std::string& version = "4", const std::string& extra = "") {
  return "-kernel name = loop\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n"
         "-shmem = 0\n-nregs = 12\n-binary version = 70\n-accelsim tracer version = " +
         version + "\n" + extra +
         "\n#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
         "[adrrescompress?] [mem_addresses]\n\n"
         "#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 1\ninsts = 8\n"
         "0000 ffffffff 1 R2 IMAD.WIDE.U32 2 R0 R1 0 \n"
         "0010 ffffffff 1 R4 LDG.E.64.SYS 1 R2 8 2 0x7000 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 "
         "8 8 8 8 8 8 8 8 8 8 8 \n"
         "0020 ffffffff 1 R6 DADD 2 R4 R4 0 \n"
         "0030 ffffffff 0 BRA 0 0 \n"
         "0010 0000ffff 1 R4 LDG.E.64.SYS 1 R2 8 0 0x7000 0x7008 0x7010 0x7018 0x7020 0x7028 "
         "0x7030 0x7038 0x7040 0x7048 0x7050 0x7058 0x7060 0x7068 0x7070 0x7078 \n"
         "0020 0000ffff 1 R6 DADD 2 R4 R4 0 \n"
         "0030 0000ffff 0 BRA 0 0 \n"
         "0040 ffffffff 0 EXIT 0 0 \n"
         "\n#END_TB\n";
}

TEST(AccelSimImport, BranchTargetsAndDivergenceFromThePcSequence) {
  const ImportedKernel ik = ImportKernelTraceText(VoltaLoop(), "loop.traceg");
  const Kernel& k = *ik.kernel;
  ASSERT_EQ(k.code.size(), 5u);
  // BRA at 0x30: taken to 0x10 (first time), falling through to 0x40 (second).
  EXPECT_EQ(k.code[3].op_class, OpClass::kBranch);
  EXPECT_EQ(k.code[3].target, 1);
  EXPECT_TRUE(k.code[3].conditional);
  EXPECT_EQ(k.code[3].guard, kUnknownGuard);
  EXPECT_EQ(k.blocks[k.block_of[3]].succs.size(), 2u);
  EXPECT_EQ(k.code[0].dsts, (std::vector<RegOperand>{{2, 2}}));  // IMAD.WIDE pair
  EXPECT_EQ(k.code[1].dsts, (std::vector<RegOperand>{{4, 2}}));
  EXPECT_EQ(k.code[1].srcs, (std::vector<RegOperand>{{2, 2}}));
  EXPECT_EQ(k.code[2].srcs, (std::vector<RegOperand>{{4, 2}, {4, 2}}));  // DADD pairs
  ASSERT_EQ(ik.run.warps.size(), 1u);
  EXPECT_EQ(ik.run.warps[0].cta, 1u);
  EXPECT_EQ(ik.run.warps[0].warp_in_cta, 1u);
  EXPECT_EQ(ik.run.warps[0].insts[4].active_mask, 0x0000ffffu);
  EXPECT_EQ(ik.run.ThreadInstructions(), 4u * 32 + 3 * 16 + 32);
}

TEST(AccelSimImport, LineInfoAndVersion5Immediates) {
  std::string t = VoltaLoop("5", "-enable lineinfo = 1\n");
  // Prefix a line number and append an immediate to every instruction line.
  std::string out;
  size_t pos = 0;
  while (pos < t.size()) {
    size_t nl = t.find('\n', pos);
    std::string line = t.substr(pos, nl - pos);
    pos = nl + 1;
    if (!line.empty() && std::isxdigit(static_cast<unsigned char>(line[0])) && line[4] == ' ')
      line = "17 " + line + "0 ";
    out += line + "\n";
  }
  const ImportedKernel ik = ImportKernelTraceText(out, "v5.traceg");
  EXPECT_EQ(ik.kernel->code.size(), 5u);
  EXPECT_EQ(ik.trace_lines, 8u);
}

TEST(AccelSimImport, IndirectBranchKeepsEveryTargetAndStackSwitchesAreIgnored) {
  // Warp 0 jumps through BRX to 0x30, warp 1 to 0x40. Warp 2 diverges at the BRA at 0x10: its
  // taken lanes run 0x40 first, then the fall-through lanes resume at 0x20 (a SIMT stack
  // switch: disjoint masks, not a CFG edge from 0x40's predecessor).
  const std::string t =
      "-kernel name = brx\n-grid dim = (1,1,1)\n-block dim = (96,1,1)\n-binary version = 75\n"
      "-accelsim tracer version = 3\n#BEGIN_TB\nthread block = 0,0,0\n"
      "warp = 0\ninsts = 3\n0000 ffffffff 0 BRX 1 R2 0 \n0030 ffffffff 0 NOP 0 0 \n"
      "0050 ffffffff 0 EXIT 0 0 \n"
      "warp = 1\ninsts = 3\n0000 ffffffff 0 BRX 1 R2 0 \n0040 ffffffff 0 NOP 0 0 \n"
      "0050 ffffffff 0 EXIT 0 0 \n"
      "warp = 2\ninsts = 5\n0010 ffffffff 0 BRA 0 0 \n0040 0000ffff 0 NOP 0 0 \n"
      "0050 0000ffff 0 EXIT 0 0 \n0020 ffff0000 0 NOP 0 0 \n0050 ffff0000 0 EXIT 0 0 \n"
      "#END_TB\n";
  const ImportedKernel ik = ImportKernelTraceText(t, "brx.traceg");
  const Kernel& k = *ik.kernel;
  ASSERT_EQ(k.code.size(), 6u);  // 0x00 0x10 0x20 0x30 0x40 0x50
  EXPECT_EQ(k.code[0].target, 3);
  EXPECT_EQ(k.code[0].extra_targets, std::vector<int32_t>{4});
  EXPECT_EQ(k.blocks[k.block_of[0]].succs.size(), 2u);
  EXPECT_EQ(k.code[1].target, 4);  // taken by the low half, the other half fell through
  EXPECT_TRUE(k.code[1].conditional);
  EXPECT_TRUE(k.code[1].extra_targets.empty());
}

struct BadCase {
  std::string name;
  std::string text;
  int line;
  std::string field;
  std::string message;
};

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  const size_t p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  return s.replace(p, from.size(), to);
}

// The list (format 0) of VoltaLoop's second LDG, lanes 0..15.
const char* kListedAddresses =
    "8 0 0x7000 0x7008 0x7010 0x7018 0x7020 0x7028 0x7030 0x7038 0x7040 0x7048 0x7050 0x7058 "
    "0x7060 0x7068 0x7070 0x7078";

// Lane addresses of VoltaLoop's two executed LDGs (stream entries 1 and 4): 0x7000 + 8 * lane
// for the active lanes, 0 for the others; the other instructions have none of their own.
void ExpectLoopAddresses(const ImportedKernel& ik, uint32_t second_mask) {
  const WarpStream& w = ik.run.warps[0];
  ASSERT_TRUE(w.has_addrs);
  ASSERT_EQ(w.insts.size(), 8u);
  ASSERT_EQ(w.addrs.size(), 64u);
  EXPECT_EQ(w.insts[1].addrs, 0u);
  EXPECT_EQ(w.insts[4].addrs, 32u);
  for (uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(w.Addresses(w.insts[1])[l], 0x7000u + 8 * l) << l;
    EXPECT_EQ(w.Addresses(w.insts[4])[l], (second_mask >> l) & 1 ? 0x7000u + 8 * l : 0u) << l;
  }
  EXPECT_EQ(ik.kernel->code[1].mem_bytes, 8);
  EXPECT_EQ(ik.kernel->code[1].cache_op, 0);
}

TEST(AccelSimImport, LaneAddressesOfTheThreeCompressionFormats) {
  // Format 2 (base + deltas) for the first LDG, format 0 (list) for the second.
  ExpectLoopAddresses(ImportKernelTraceText(VoltaLoop(), "loop.traceg"), 0xffffu);
  // Format 1 (base + stride) for the second.
  ExpectLoopAddresses(
      ImportKernelTraceText(Replace(VoltaLoop(), kListedAddresses, "8 1 0x7000 8"), "s.traceg"),
      0xffffu);
  // A run of active lanes not starting at lane 0, and negative deltas / strides.
  const std::string shifted = Replace(
      Replace(VoltaLoop(), "0010 0000ffff 1 R4 LDG.E.64.SYS 1 R2 " + std::string(kListedAddresses),
              "0010 0000ff00 1 R4 LDG.E.64.CONSTANT 1 R2 8 1 0x7078 -8"),
      "LDG.E.64.SYS 1 R2 8 2 0x7000 8 8 8 8", "LDG.E.64.CONSTANT 1 R2 8 2 0x7000 8 -8 16 8");
  const ImportedKernel ik = ImportKernelTraceText(shifted, "n.traceg");
  const WarpStream& w = ik.run.warps[0];
  for (uint32_t l = 8; l < 16; ++l)
    EXPECT_EQ(w.Addresses(w.insts[4])[l], 0x7078u - 8 * (l - 8)) << l;
  EXPECT_EQ(w.Addresses(w.insts[4])[7], 0u);
  EXPECT_EQ(w.Addresses(w.insts[4])[16], 0u);
  EXPECT_EQ(w.Addresses(w.insts[1])[1], 0x7008u);
  EXPECT_EQ(w.Addresses(w.insts[1])[2], 0x7000u);
  EXPECT_EQ(w.Addresses(w.insts[1])[3], 0x7010u);
  EXPECT_EQ(w.Addresses(w.insts[1])[4], 0x7018u);
  // .CONSTANT is the read-only (ld.global.nc) path.
  EXPECT_EQ(ik.kernel->code[1].cache_op, 4);
}

TEST(AccelSimImport, AtomicsAndStoresAreMarked) {
  const std::string t =
      Replace(VoltaLoop(), "0020 ffffffff 1 R6 DADD 2 R4 R4 0 \n",
              "0020 ffffffff 1 R6 ATOMG.E.ADD.STRONG.GPU 2 R2 R4 4 1 0x8000 4 \n");
  const std::string u =
      Replace(t, "0020 0000ffff 1 R6 DADD 2 R4 R4 0 \n",
              "0020 0000ffff 1 R6 ATOMG.E.ADD.STRONG.GPU 2 R2 R4 4 1 0x8000 4 \n");
  const ImportedKernel ik = ImportKernelTraceText(u, "a.traceg");
  const Instruction& a = ik.kernel->code[2];
  EXPECT_TRUE(a.mem_write);
  EXPECT_TRUE(a.mem_atomic);
  EXPECT_EQ(a.op_class, OpClass::kGlobalMem);
  const WarpStream& w = ik.run.warps[0];
  EXPECT_EQ(w.Addresses(w.insts[2])[31], 0x8000u + 4 * 31);
  EXPECT_EQ(w.Addresses(w.insts[5])[15], 0x8000u + 4 * 15);
  EXPECT_EQ(w.Addresses(w.insts[5])[16], 0u);
}

TEST(AccelSimImport, MalformedTracesNameFileLineAndField) {
  const std::string good = VoltaLoop();
  const std::vector<BadCase> cases = {
      {"unknown opcode",
       Replace(good, "DADD 2 R4 R4 0 \n0030 ffffffff", "DFROB 2 R4 R4 0 \n0030 ffffffff"), 20,
       "opcode", "unknown SASS opcode"},
      {"bad operand", Replace(good, "1 R6 DADD 2 R4 R4", "1 R6 DADD 2 X4 R4"), 20,
       "source register", "bad register operand"},
      {"register out of range", Replace(good, "1 R6 DADD", "1 R300 DADD"), 20,
       "destination register", "bad register operand"},
      {"truncated line", Replace(good, "0040 ffffffff 0 EXIT 0 0 ", "0040 ffffffff 0 EXIT"), 25,
       "src_num", "truncated instruction line"},
      {"truncated warp", Replace(good, "insts = 8", "insts = 9"), 27, "insts", "truncated trace"},
      {"missing END_TB", Replace(good, "#END_TB\n", ""), 26, "#END_TB", "no #END_TB"},
      {"too many lines", Replace(good, "insts = 8", "insts = 7"), 25, "insts",
       "more instruction lines"},
      {"missing addresses", Replace(good, "8 0 0x7000 0x7008", "8 0 0x7000"), 22, "address",
       "truncated"},
      {"trailing text", Replace(good, "0040 ffffffff 0 EXIT 0 0 ", "0040 ffffffff 0 EXIT 0 0 7"),
       25, "end of line", "trailing text"},
      {"bad mask", Replace(good, "0040 ffffffff", "0040 fffffffff"), 25, "mask", "wider"},
      {"bad pc", Replace(good, "0040 ffffffff", "00g0 ffffffff"), 25, "PC", "hexadecimal"},
      {"inconsistent pc", Replace(good, "0020 0000ffff 1 R6 DADD", "0020 0000ffff 1 R8 DADD"), 23,
       "PC", "different instruction"},
      {"warp outside block", Replace(good, "warp = 1", "warp = 2"), 16, "warp", "out of range"},
      {"block outside grid", Replace(good, "thread block = 1,0,0", "thread block = 2,0,0"), 14,
       "thread block", "outside the grid"},
      {"unsupported version", Replace(good, "tracer version = 4", "tracer version = 2"), 8,
       "accelsim tracer version", "unsupported"},
      {"missing header", Replace(good, "-binary version = 70\n", ""), 11, "header",
       "binary version"},
      {"bad dims", Replace(good, "(2,1,1)", "(2,1)"), 3, "grid dim", "malformed"},
      {"unknown line", Replace(good, "1,0,0\n\nwarp", "1,0,0\n\nbogus\nwarp"), 16, "instruction",
       "outside a warp block"},
      {"bad listed address", Replace(good, "0x7000 0x7008", "0x7000 0x70z8"), 22, "address",
       "hexadecimal"},
      {"bad base address", Replace(good, "8 2 0x7000 8", "8 2 0x7x00 8"), 19, "base address",
       "hexadecimal"},
      {"bad delta", Replace(good, "8 2 0x7000 8 8", "8 2 0x7000 8 8.5"), 19, "address delta",
       "decimal"},
      {"bad stride", Replace(good, kListedAddresses, "8 1 0x7000 eight"), 22, "address stride",
       "decimal"},
      {"bad address format", Replace(good, kListedAddresses, "8 3 0x7000 8"), 22, "address format",
       "out of range"},
      {"base+stride with a gap",
       Replace(Replace(good, kListedAddresses, "8 1 0x7000 8"), "0010 0000ffff", "0010 0000ff0f"),
       22, "address format", "non-contiguous"},
  };
  for (const auto& c : cases) {
    try {
      ImportKernelTraceText(c.text, "bad.traceg");
      ADD_FAILURE() << c.name << ": no error";
    } catch (const InputError& e) {
      EXPECT_EQ(e.loc().file, "bad.traceg") << c.name;
      EXPECT_EQ(e.loc().line, c.line) << c.name << ": " << e.what();
      EXPECT_GE(e.loc().column, 1) << c.name;
      EXPECT_EQ(e.field(), c.field) << c.name << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos)
          << c.name << ": " << e.what();
    }
  }
}

TEST(AccelSimImport, MissingFilesAndBadKernelLists) {
  EXPECT_THROW(ImportTrace("/nonexistent/trace"), InputError);
  EXPECT_THROW(ImportKernelTrace("/nonexistent/kernel-1.traceg"), InputError);
  const std::string dir = ::testing::TempDir() + "gpurf-accelsim-list";
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
  };
  write("kernelslist.g", "MemcpyHtoD,0x10,4\nkernel-9.traceg\n");
  try {
    ImportTrace(dir);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 2);
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos);
  }
  write("kernelslist.g", "MemcpyHtoD,0x10\n");
  try {
    ImportTrace(dir);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 1);
  }
  write("kernelslist.g", "launch everything\n");
  EXPECT_THROW(ImportTrace(dir), InputError);
  write("kernelslist.g", "kernel-1.traceg\n");
  write("kernel-1.traceg", VoltaLoop());
  EXPECT_EQ(ImportTrace(dir).kernels.size(), 1u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gpurf::sim::accelsim
