// The renaming-table golden model against hand-worked cycles: the paper's table sizes (1 KB and
// the full 3.8 KB table), parameter rejections, exempt registers, map-on-first-write, release
// after read (pir), bank-conflict serialization with repeated operands read once, pbr lists and
// warp exit through the banks, reads of released mappings flagged, and the invariants the model
// reports. Then the stimulus of gpurf verify reaching every corner the model distinguishes.
#include "models/renaming_table_model.h"

#include <gtest/gtest.h>

#include <bit>

#include "base/diag.h"
#include "verif/stimulus/renaming_table_stimulus.h"
#include "verif/tests/renaming_table_test_util.h"

namespace gpurf {
namespace {

using test::RenameIo;
using P = RenamingTablePort;

TEST(RenamingTableSpec, PaperTableSizes) {
  // 1 KB budget, 48 warps x 63 registers, 1024 physical registers: 10-bit ids, and
  // 8192 / (48 * 10) = 17.07, so 17 renamed entries per warp (8,160 bits of ids).
  const RenamingTableSpec s = test::MakeRenameSpec({});
  EXPECT_EQ(s.phys_bits, 10);
  EXPECT_EQ(s.window, 17);
  EXPECT_FALSE(s.full_window);
  EXPECT_EQ(s.table_bits, 8160);
  EXPECT_EQ(s.RowsPerWarp(0), 5);  // entries 0, 4, 8, 12, 16
  EXPECT_EQ(s.RowsPerWarp(1), 4);
  EXPECT_EQ(s.RowsPerWarp(3), 4);
  // The full table: 48 x 63 x 10 bits = 30,240 bits = 3,780 bytes.
  const RenamingTableSpec full = test::MakeRenameSpec({.capacity_bytes = 3780});
  EXPECT_EQ(full.window, 63);
  EXPECT_TRUE(full.full_window);
  EXPECT_EQ(full.table_bits / 8, 3780);
  // A larger budget is the full table.
  EXPECT_EQ(test::MakeRenameSpec({.capacity_bytes = 8192}).window, 63);
}

TEST(RenamingTableSpec, RejectsBadParametersWithTheAllowedRange) {
  EXPECT_THROW(test::MakeRenameSpec({.banks = 3}), InputError);
  // 48 warps x 10 bits x 4 banks = 1,920 bits: a 200-byte budget leaves fewer entries per warp
  // than banks.
  try {
    test::MakeRenameSpec({.capacity_bytes = 200});
    FAIL() << "capacity_bytes 200 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("capacity_bytes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("240..65536"), std::string::npos) << e.what();
  }
}

TEST(RenamingTableModel, ExemptRegistersMapDirectly) {
  RenameIo io(test::SmallRenameSpec());
  io.Exempt(4);
  // Warp 2, r3 and r0: 2*4 + 3 = 11 and 8, no bank, never released (the pir bit is ignored).
  io.Instr(2, {{3, true}, {0, false}});
  io.Step();
  EXPECT_TRUE(io.SrcServed(0));
  EXPECT_TRUE(io.SrcMapped(0));
  EXPECT_EQ(io.SrcPhys(0), 11);
  EXPECT_EQ(io.SrcPhys(1), 8);
  EXPECT_EQ(io.out[P::kFreeValid].get(0, 4), 0U);
  io.Instr(2, {{3, false}});
  io.Step();
  EXPECT_TRUE(io.SrcMapped(0));
  EXPECT_EQ(io.SrcPhys(0), 11);
  EXPECT_EQ(io.model.map().size(), 0U);
  EXPECT_EQ(io.model.Failure(), "");
}

TEST(RenamingTableModel, MapOnFirstWriteReleaseAfterRead) {
  RenameIo io(test::SmallRenameSpec());
  io.Exempt(4);
  // r5 of warp 1 has no mapping: the read is flagged, id 0.
  io.Instr(1, {{5, false}});
  io.Step();
  EXPECT_TRUE(io.SrcServed(0));
  EXPECT_FALSE(io.SrcMapped(0));
  EXPECT_EQ(io.SrcPhys(0), 0);
  // First write maps the offered id 40; the second keeps it (the offered 41 is not taken).
  io.Instr(1, {}, 5, 40);
  io.Step();
  EXPECT_TRUE(io.out[P::kDstServed].bit(0));
  EXPECT_TRUE(io.out[P::kDstAlloc].bit(0));
  EXPECT_EQ(io.DstPhys(), 40);
  io.Instr(1, {}, 5, 41);
  io.Step();
  EXPECT_FALSE(io.out[P::kDstAlloc].bit(0));
  EXPECT_EQ(io.DstPhys(), 40);
  // A read with the pir bit answers 40 and frees it on bank (5 - 4) % 4 = 1.
  io.Instr(1, {{5, true}});
  io.Step();
  EXPECT_TRUE(io.SrcMapped(0));
  EXPECT_EQ(io.SrcPhys(0), 40);
  EXPECT_EQ(io.out[P::kFreeValid].get(0, 4), 0b0010U);
  EXPECT_EQ(io.FreePhys(1), 40);
  // The released mapping is never read as mapped again until it is rewritten.
  io.Instr(1, {{5, false}});
  io.Step();
  EXPECT_FALSE(io.SrcMapped(0));
  EXPECT_EQ(io.SrcPhys(0), 0);
  io.Instr(1, {}, 5, 17);
  io.Step();
  EXPECT_TRUE(io.out[P::kDstAlloc].bit(0));
  io.Instr(1, {{5, false}});
  io.Step();
  EXPECT_EQ(io.SrcPhys(0), 17);
  EXPECT_EQ(io.model.Failure(), "");
}

TEST(RenamingTableModel, BankConflictsSerializeRepeatsReadOnce) {
  RenameIo io(test::SmallRenameSpec());
  io.Exempt(0);
  for (int r : {0, 1, 4})
    io.Instr(0, {}, r, 20 + r), io.Step();
  // Sources r0 (bank 0), r4 (bank 0), r1 (bank 1), destination r0 (bank 0).
  // Cycle 0: r0 and r1; cycle 1: r4; cycle 2: the destination, once bank 0 has no source left.
  io.Instr(0, {{0, false}, {4, false}, {1, false}}, 0, 50);
  io.Step();
  EXPECT_TRUE(io.out[P::kReqReady].bit(0));
  EXPECT_EQ(io.out[P::kSrcServed].get(0, 3), 0b101U);
  EXPECT_EQ(io.SrcPhys(0), 20);
  EXPECT_EQ(io.SrcPhys(2), 21);
  EXPECT_FALSE(io.out[P::kDstServed].bit(0));
  io.Step();
  EXPECT_FALSE(io.out[P::kReqReady].bit(0));
  EXPECT_EQ(io.out[P::kSrcServed].get(0, 3), 0b010U);
  EXPECT_EQ(io.SrcPhys(1), 24);
  EXPECT_FALSE(io.out[P::kDstServed].bit(0));
  io.Step();
  EXPECT_TRUE(io.out[P::kDstServed].bit(0));
  EXPECT_FALSE(io.out[P::kDstAlloc].bit(0));  // r0 keeps its mapping: 20
  EXPECT_EQ(io.DstPhys(), 20);
  io.Step();
  EXPECT_TRUE(io.out[P::kReqReady].bit(0));
  EXPECT_EQ(io.out[P::kConflictCycles].get(0, 32), 2U);
  // Repeats: r4, r0, r4 -> bank 0 reads r4 for sources 0 and 2 in cycle 0, r0 in cycle 1.
  io.Instr(0, {{4, false}, {0, false}, {4, true}});
  io.Step();
  EXPECT_EQ(io.out[P::kSrcServed].get(0, 3), 0b101U);
  EXPECT_EQ(io.SrcPhys(0), 24);
  EXPECT_EQ(io.SrcPhys(2), 24);
  EXPECT_EQ(io.FreePhys(0), 24);  // source 2's pir releases the entry both read
  io.Step();
  EXPECT_EQ(io.out[P::kSrcServed].get(0, 3), 0b010U);
  EXPECT_EQ(io.SrcPhys(1), 20);
  io.Step();  // the counter shows the cycles before this one
  EXPECT_EQ(io.out[P::kConflictCycles].get(0, 32), 3U);
  EXPECT_EQ(io.model.Failure(), "");
}

TEST(RenamingTableModel, DestinationAfterItsReleasedSourceRemaps) {
  RenameIo io(test::SmallRenameSpec());
  io.Exempt(0);
  io.Instr(3, {}, 2, 30);
  io.Step();
  // r2 = r2 + ... with the pir bit: the read frees 30, then the write maps the offered 31.
  io.Instr(3, {{2, true}}, 2, 31);
  io.Step();
  EXPECT_EQ(io.SrcPhys(0), 30);
  EXPECT_EQ(io.FreePhys(2), 30);
  EXPECT_FALSE(io.out[P::kDstServed].bit(0));
  io.Step();
  EXPECT_TRUE(io.out[P::kDstAlloc].bit(0));
  EXPECT_EQ(io.DstPhys(), 31);
  EXPECT_EQ(io.model.Failure(), "");
}

TEST(RenamingTableModel, PbrListAndWarpExitReleaseThroughTheBanks) {
  RenameIo io(test::SmallRenameSpec());
  io.Exempt(2);
  // Warp 1 maps r2 (entry 0, bank 0), r3 (1), r6 (4, bank 0), r7 (5, bank 1).
  for (int r : {2, 3, 6, 7})
    io.Instr(1, {}, r, 40 + r), io.Step();
  io.Instr(2, {}, 2, 60);  // warp 2's r2: untouched by warp 1's releases
  io.Step();
  // pbr list {r0 (exempt), r3, r7, r9 (unmapped)}: r3 and r7 share bank 1 -> two cycles.
  io.Release(1, {0, 3, 7, 9});
  io.Step();
  EXPECT_EQ(io.out[P::kFreeValid].get(0, 4), 0b0010U);
  EXPECT_EQ(io.FreePhys(1), 43);
  io.Step();
  EXPECT_FALSE(io.out[P::kReqReady].bit(0));
  EXPECT_EQ(io.FreePhys(1), 47);
  io.Step();
  EXPECT_TRUE(io.out[P::kReqReady].bit(0));
  EXPECT_EQ(io.model.map().size(), 3U);
  // Warp exit: r2 and r6 both in bank 0 -> two cycles.
  io.Release(1, {}, true);
  io.Step();
  EXPECT_EQ(io.out[P::kFreeValid].get(0, 4), 0b0001U);
  EXPECT_EQ(io.FreePhys(0), 42);
  io.Step();
  EXPECT_EQ(io.FreePhys(0), 46);
  EXPECT_EQ(io.model.map().size(), 1U);
  EXPECT_EQ(io.model.map().Find(2, 2, 2).phys, 60);
  // Releasing a warp without mappings takes no cycle of the banks.
  io.Release(1, {}, true);
  io.Step();
  EXPECT_EQ(io.out[P::kFreeValid].get(0, 4), 0U);
  io.Step();
  EXPECT_TRUE(io.out[P::kReqReady].bit(0));
  EXPECT_EQ(io.model.Failure(), "");
}

TEST(RenamingTableModel, ReportsDoubleMappingAndContractViolations) {
  {
    RenameIo io(test::SmallRenameSpec());
    io.Exempt(4);
    io.Instr(0, {}, 4, 20);
    io.Step();
    io.Instr(1, {}, 4, 20);  // 20 is mapped already
    io.Step();
    EXPECT_NE(io.model.Failure().find("I1 violated"), std::string::npos) << io.model.Failure();
  }
  {
    RenameIo io(test::SmallRenameSpec());
    io.Exempt(4);
    io.Instr(0, {}, 4, 15);  // inside the exempt blocks [0, 16)
    io.Step();
    EXPECT_NE(io.model.Failure().find("exempt blocks"), std::string::npos) << io.model.Failure();
  }
  {
    RenameIo io(test::SmallRenameSpec());
    io.Exempt(4);
    io.Instr(0, {{12, false}});  // 4 + 8 entries: r12 is outside the window
    io.Step();
    EXPECT_NE(io.model.Failure().find("C1 violated"), std::string::npos) << io.model.Failure();
  }
  {
    // 3 warp slots (2-bit warp ids): slot 3 does not exist.
    RenameIo io(
        test::MakeRenameSpec({.warps = 3, .regs = 16, .phys_regs = 64, .capacity_bytes = 24}));
    io.Instr(3, {{0, false}});
    io.Step();
    EXPECT_NE(io.model.Failure().find("C3 violated"), std::string::npos) << io.model.Failure();
  }
  {
    RenameIo io(test::SmallRenameSpec());
    io.Exempt(17);  // 4 warps x 17 = 68 > 64 physical registers
    io.Step();
    EXPECT_NE(io.model.Failure().find("C2 violated"), std::string::npos) << io.model.Failure();
  }
  {
    RenameIo io(test::SmallRenameSpec());
    io.Exempt(16);  // 4 warps x 16 = 64 physical registers: fits exactly
    io.Step();
    EXPECT_EQ(io.model.Failure(), "");
  }
}

// The stimulus of gpurf verify reaches every corner the model distinguishes: exempt and
// unmapped reads, allocations and rewrites, pir, pbr and exit releases, repeated sources read
// once, bank conflicts, a warp's window full, the free pool empty.
TEST(RenamingTableStimulus, ReachesEveryCorner) {
  for (const test::RenameShape& shape :
       {test::RenameShape{},
        test::RenameShape{.warps = 4, .regs = 16, .phys_regs = 64, .capacity_bytes = 24}}) {
    const RenamingTableSpec s = test::MakeRenameSpec(shape);
    RenameIo io(s);
    RenamingTableStimulus stim(s, 5);
    uint64_t exempt_reads = 0, unmapped_reads = 0, allocs = 0, rewrites = 0, pir_frees = 0,
             list_frees = 0, exit_frees = 0, repeats = 0, full_window = 0, pool_dry = 0,
             conflict_cycles = 0;
    int last_op = -1;
    for (uint64_t c = 0; c < 200000; ++c) {
      stim.Next(c, io.in);
      if (io.model.Ready() && io.in[P::kReqValid].bit(0))
        last_op = static_cast<int>(io.in[P::kReqOp].get(0, 2));
      const int n = stim.exempt();
      io.model.Outputs(io.in, io.out, io.def);
      for (int p = 0; p < 3; ++p) {
        if (!io.out[P::kSrcServed].bit(p))
          continue;
        const int reg = static_cast<int>(io.in[P::kSrcReg].get(p * s.reg_bits, s.reg_bits));
        if (io.model.Ready() && reg < n)
          ++exempt_reads;
        if (!io.out[P::kSrcMapped].bit(p))
          ++unmapped_reads;
      }
      const uint64_t served = io.out[P::kSrcServed].get(0, 3);
      if (served == 0b101 || served == 0b011 || served == 0b110 || served == 0b111) {
        const uint64_t phys = io.out[P::kSrcPhys].get(0, 3 * s.phys_bits);
        const uint64_t mask = (1ULL << s.phys_bits) - 1;
        const uint64_t a = phys & mask, b = (phys >> s.phys_bits) & mask,
                       d = phys >> (2 * s.phys_bits);
        repeats += io.out[P::kSrcMapped].get(0, 3) == served &&
                   ((served & 3) == 3   ? a == b
                    : (served & 6) == 6 ? b == d
                                        : a == d) &&
                   a + b > 0;
      }
      if (io.out[P::kDstServed].bit(0))
        (io.out[P::kDstAlloc].bit(0) ? allocs : rewrites)++;
      const uint64_t frees = io.out[P::kFreeValid].get(0, s.banks);
      if (frees != 0) {
        const int k = std::popcount(frees);
        (last_op == 0 ? pir_frees : last_op == 1 ? list_frees : exit_frees) += k;
      }
      conflict_cycles += io.in[P::kRstN].bit(0) && !io.model.Ready() && last_op == 0;
      io.model.Clock(io.in);
      stim.Observe(c, io.out);
      ASSERT_EQ(io.model.Failure(), "") << "cycle " << c << " phase " << stim.Phase();
      for (int w = 0; w < s.warps && c % 64 == 0; ++w)
        full_window += io.model.map().Mapped(w).size() == static_cast<size_t>(s.window);
      pool_dry += stim.free_ids() == 0;
    }
    const std::string name = s.module_name;
    EXPECT_GT(exempt_reads, 1000U) << name;
    EXPECT_GT(unmapped_reads, 1000U) << name;
    EXPECT_GT(allocs, 1000U) << name;
    EXPECT_GT(rewrites, 1000U) << name;
    EXPECT_GT(pir_frees, 1000U) << name;
    EXPECT_GT(list_frees, 100U) << name;
    EXPECT_GT(exit_frees, 100U) << name;
    EXPECT_GT(repeats, 100U) << name;
    EXPECT_GT(full_window, 0U) << name;
    EXPECT_GT(pool_dry, 100U) << name;
    EXPECT_GT(conflict_cycles, 1000U) << name;
  }
}

}  // namespace
}  // namespace gpurf
