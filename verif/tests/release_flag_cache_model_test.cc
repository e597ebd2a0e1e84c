// The release-flag-cache golden model against hand-worked cycles: the paper's size (10 entries x
// 54 bits = 68 B), parameter rejections, the index of a PC (low word-address bits folded onto
// ten entries), miss then fill then hit, replacement by an alias, a lookup in a fill's cycle,
// flushes dropping a fill, the counters (since reset). Then the stimulus of gpurf verify reaching
// every corner.
#include "models/release_flag_cache_model.h"

#include <gtest/gtest.h>

#include "base/diag.h"
#include "verif/stimulus/release_flag_cache_stimulus.h"
#include "verif/tests/jeon_test_util.h"

namespace gpurf {
namespace {

using test::FlagIo;

TEST(ReleaseFlagCacheSpec, PaperSize) {
  const ReleaseFlagCacheSpec s = test::MakeFlagSpec({});
  EXPECT_EQ(s.entries, 10);
  EXPECT_EQ(s.payload_bits, 54);
  EXPECT_EQ((s.entries * s.payload_bits + 7) / 8, 68);  // the paper's 68 B of flags
  EXPECT_EQ(s.offset_bits, 3);                          // 8-byte instructions
  EXPECT_EQ(s.addr_bits, 29);
  EXPECT_EQ(s.index_bits, 4);
  EXPECT_TRUE(s.folded);
  EXPECT_EQ(s.tag_bits, 26);  // 29 - 4 address bits and the fold bit
  EXPECT_EQ(test::MakeFlagSpec({.entries = 16}).tag_bits, 25);
}

TEST(ReleaseFlagCacheSpec, RejectsBadParametersWithTheAllowedRange) {
  EXPECT_THROW(test::MakeFlagSpec({.inst_bytes = 6}), InputError);
  try {
    test::MakeFlagSpec({.entries = 64, .pc_bits = 8, .inst_bytes = 16});
    FAIL() << "8-bit PCs of 16-byte instructions with 64 entries accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pc_bits"), std::string::npos) << e.what();
  }
}

TEST(ReleaseFlagCacheSpec, IndexFoldsOntoTheEntries) {
  const ReleaseFlagCacheSpec s = test::MakeFlagSpec({});
  EXPECT_EQ(s.IndexOf(0x0), 0);
  EXPECT_EQ(s.IndexOf(9 * 8), 9);
  EXPECT_EQ(s.IndexOf(10 * 8), 0);     // low 10 folds onto entry 0
  EXPECT_EQ(s.IndexOf(15 * 8), 5);     // low 15 onto entry 5
  EXPECT_EQ(s.IndexOf(16 * 8), 0);     // low 0 again
  EXPECT_EQ(s.IndexOf(19 * 8), 3);     // the next pir of a basic block
  EXPECT_EQ(s.IndexOf(9 * 8 + 5), 9);  // the bits below an instruction are ignored
}

TEST(ReleaseFlagCacheModel, MissFillHitAndReplacementByAnAlias) {
  FlagIo io(test::MakeFlagSpec({}));
  io.Lookup(0x1000);
  io.Step();
  EXPECT_TRUE(io.Miss());
  EXPECT_FALSE(io.Hit());
  EXPECT_EQ(io.Flags(), 0u);
  io.Fill(0x1000, 0x2a);
  io.Lookup(0x1000);
  io.Step();  // the fill's cycle still misses
  EXPECT_TRUE(io.Miss());
  io.Lookup(0x1000);
  io.Step();
  EXPECT_TRUE(io.Hit());
  EXPECT_EQ(io.Flags(), 0x2au);
  EXPECT_EQ(io.Hits(), 0u);  // counted at the edge
  // 0x1000 is word 512: low 0, entry 0. Word 522 (low 10) folds onto entry 0 too.
  io.Fill(522 * 8, 0x15);
  io.Step();
  io.Lookup(0x1000);
  io.Step();
  EXPECT_TRUE(io.Miss());
  io.Lookup(522 * 8);
  io.Step();
  EXPECT_TRUE(io.Hit());
  EXPECT_EQ(io.Flags(), 0x15u);
  EXPECT_EQ(io.Hits(), 1u);
  EXPECT_EQ(io.Misses(), 3u);
}

TEST(ReleaseFlagCacheModel, FlushInvalidatesEverythingAndDropsAFill) {
  FlagIo io(test::MakeFlagSpec({}));
  io.Fill(0x100, 1);
  io.Step();
  io.Fill(0x108, 2);
  io.Flush();
  io.Lookup(0x100);
  io.Step();  // the lookup sees the state before the flush
  EXPECT_TRUE(io.Hit());
  EXPECT_EQ(io.model.valid_entries(), 0);
  io.Lookup(0x108);
  io.Step();
  EXPECT_TRUE(io.Miss());
  EXPECT_TRUE(io.model.Failure().empty()) << io.model.Failure();
}

TEST(ReleaseFlagCacheStimulus, ReachesEveryCorner) {
  for (const ReleaseFlagCacheSpec& spec :
       {test::MakeFlagSpec({}),
        test::MakeFlagSpec({.entries = 4, .payload_bits = 64, .pc_bits = 12, .inst_bytes = 4})}) {
    SCOPED_TRACE(spec.module_name);
    ReleaseFlagCacheModel model(spec);
    ReleaseFlagCacheStimulus stim(spec, 9);
    PortValues in = ReleaseFlagCachePortTable(spec).ZeroValues(), out = in, def = in;
    uint64_t replacements = 0, hits = 0, misses = 0;
    for (uint64_t c = 0; c < 200000; ++c) {
      stim.Next(c, in);
      model.Outputs(in, out, def);
      if (in[FlagIo::P::kRstN].bit(0) && in[FlagIo::P::kFillValid].bit(0) &&
          !in[FlagIo::P::kFlush].bit(0)) {
        const uint64_t pc = in[FlagIo::P::kFillPc].get(0, spec.pc_bits);
        replacements += model.valid_entries() == spec.entries && !model.Holds(pc) ? 1 : 0;
      }
      hits += out[FlagIo::P::kLkHit].bit(0);
      misses += out[FlagIo::P::kLkMiss].bit(0);
      model.Clock(in);
      stim.Observe(c, out);
      ASSERT_TRUE(model.Failure().empty()) << model.Failure() << " at cycle " << c;
    }
    EXPECT_GT(hits, 10000u);
    EXPECT_GT(misses, 10000u);
    EXPECT_GT(model.flushes(), 20u);
    EXPECT_GT(replacements, 1000u);
  }
}

}  // namespace
}  // namespace gpurf
