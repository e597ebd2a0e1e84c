// Formal proofs of the structures' invariants (verif/formal), labels "formal" and "rtl":
//   - every property of every family PROVEN (base case and k-induction) on small
//     configurations: the flop array in each read mode / bypass combination, with and without
//     clock gates (two steps per cycle through clk2fflogic) and with a row count that is not a
//     power of two; a one-level FIFO and a two-level LRU RFC; a round-robin scheduler with 4
//     warps / 2 slots and a greedy one with 3 warps (not a power of two) / 2 slots; the L1 ORF and
//     both L0 organisations; Jeon's availability vectors, release flag cache (folded index) and
//     renaming table, Jing's tag array (lru-prioritized) and Bailey's hybrid-rc (hierarchical),
//     each small;
//   - one realistic bug per property, planted in the generated RTL text, that the prover must
//     report as FAILED at a solver step, naming the violated assertion (its file:line and the
//     line itself) and leaving a counterexample VCD;
//   - an honest UNKNOWN: a depth too small for the induction is reported as such, never as
//     proven.
// Needs yosys, yosys-smtbmc and z3 (scripts/setup.sh).
#include "verif/formal/formal.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "app/target.h"
#include "verif/tests/rtl_test_util.h"

namespace gpurf {
namespace {

TargetStructure Make(const std::string& kind, const std::vector<std::string>& flags) {
  auto gs = ResolveTarget(kind, flags).Generate();
  return std::move(gs.front());
}

std::string Describe(const std::vector<ProofResult>& rs) {
  std::string s;
  for (const auto& r : rs)
    s += r.Summary() + "\n";
  return s;
}

// ------------------------------------------------------------------- the RTL the flow reads

// The extent of each `GPURF_ASSERT(...) invocation in `text`: [begin, end) (strings skipped).
// The test's own scanner, deliberately independent of FindRtlAssertions in formal.cc, so that a
// bug there cannot hide an assertion from this check.
std::vector<std::pair<size_t, size_t>> MacroCalls(const std::string& text) {
  std::vector<std::pair<size_t, size_t>> out;
  const std::string macro = "`GPURF_ASSERT(";
  for (size_t at = text.find(macro); at != std::string::npos; at = text.find(macro, at + 1)) {
    int depth = 0;
    bool in_string = false;
    size_t i = at + macro.size() - 1;
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (in_string) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')' && --depth == 0) {
        break;
      }
    }
    out.emplace_back(at, i + 1);
    at = i;
  }
  return out;
}

// The formal view keeps or drops RTL assertions by their message: every check of the kinds with
// properties is the assertion macro (no bare assert, no $error-only check) with a message.
TEST(FormalView, EveryRtlAssertionIsTheMacroWithItsMessage) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> targets = {
      {"flop-array", {}},
      {"rfc", {}},
      {"rfc", {"--levels", "2", "--replacement", "lru"}},
      {"warp-scheduler", {}},
      {"orf-l1", {}},
      {"orf-l0", {}},
      {"orf-l0", {"--split", "false"}},
      {"live-vector-cache", {}},
      {"cta-status-monitor", {}},
      {"pcrf", {}},
      {"availability-vectors", {}},
      {"release-flag-cache", {}},
      {"renaming-table", {}},
      {"tag-array", {}},
      {"tag-array", {"--policy", "lru-fair"}}};
  for (const auto& [kind, flags] : targets) {
    const TargetStructure ts = Make(kind, flags);
    int asserts = 0;
    for (const auto& f : ts.rtl.files) {
      if (f.name.ends_with(".svh"))  // the macro header itself
        continue;
      EXPECT_EQ(f.contents.find("assert ("), std::string::npos) << f.name;
      EXPECT_EQ(f.contents.find("$error"), std::string::npos) << f.name;
      const auto calls = MacroCalls(f.contents);
      if (!calls.empty()) {
        EXPECT_NE(f.contents.find("`include \"gpurf_assert.svh\""), std::string::npos) << f.name;
      }
      for (const auto& [b, e] : calls) {
        ++asserts;
        std::string call;  // continuation lines joined
        for (const char c : f.contents.substr(b, e - b))
          if (c != '\n' && !(c == ' ' && !call.empty() && call.back() == ' '))
            call += c;
        EXPECT_NE(call.find(", (\"%m: "), std::string::npos) << f.name << ": " << call;
      }
    }
    EXPECT_GT(asserts, 0) << kind;
  }
}

// ------------------------------------------------------------------------ properties proven

struct Config {
  const char* name;
  const char* kind;
  std::vector<std::string> flags;
  size_t properties;  // how many the family defines for this kind
  // A property proven only in the soak label (too slow for this one; verif/tests/CMakeLists.txt,
  // GPURF_PROVE_SOAK), or nullptr: every property is proven here.
  const char* soak_only = nullptr;
  int timeout_seconds = 300;  // per solver run
};

// Jeon's and Jing's structures, small: 2 banks x 8 registers in 2 subarrays (1-cycle wake-up), 2
// release ports; 3 entries (folded index), 8-bit PCs; 2 warps x 4 registers in 2 banks, 16 ids;
// 2 banks x 4 sets x 2 ways with 4-bit tags (1 KB lines), one lookup per request.
const std::vector<std::string> kAvail = {"--banks",         "2", "--regs-per-bank", "8",
                                         "--subarrays",     "2", "--wake-cycles",   "1",
                                         "--release-ports", "2"};
const std::vector<std::string> kRelFlag = {"--entries", "3", "--payload-bits", "2",
                                           "--pc-bits", "8", "--inst-bytes",   "2"};
const std::vector<std::string> kRename = {
    "--warps", "2", "--regs", "4", "--phys-regs", "16", "--capacity-bytes", "4", "--banks", "2"};
const std::vector<std::string> kTags = {
    "--banks",      "2",    "--sets",  "4", "--ways", "2", "--addr-width", "16",
    "--line-bytes", "1024", "--warps", "2", "--regs", "2", "--lookups",    "1"};

// FineReg's PCRF, small: 4 entries of 4-byte rows (flip-flops), 2 CTA slots, 2 warps x 2
// registers, 4-cycle pipelined hops (3 walk stages).
const std::vector<std::string> kPcrf = {"--entries",   "4", "--ctas",      "2",
                                        "--warps",     "2", "--regs",      "2",
                                        "--row-bytes", "4", "--data-impl", "flops"};

// Bailey's hybrid-rc (its proofs and mutations are soak: minutes per solver run), small: 2 sets x 2
// ways (512 bytes of 128-byte lines), 2 RSP slots, 2 warps x 8 registers, 1-bit values.
const std::vector<std::string> kHybrid = {"--rc-bytes", "512", "--rsp-bytes",  "256",
                                          "--warps",    "2",   "--reg-bits",   "3",
                                          "--width",    "1",   "--clock-gate", "false"};

const Config kConfigs[] = {
    {"FlopCombGated",
     "flop-array",
     {"--entries", "4", "--width", "4", "--read-ports", "2", "--write-ports", "2"},
     1},
    {"FlopCombBypass",
     "flop-array",
     {"--entries", "4", "--width", "4", "--read-ports", "2", "--write-ports", "2", "--bypass",
      "true", "--clock-gate", "false"},
     1},
    {"FlopRegFiveRows",
     "flop-array",
     {"--entries", "5", "--width", "3", "--read-ports", "2", "--write-ports", "2", "--read-mode",
      "reg", "--clock-gate", "false"},
     1},
    {"FlopRegBypassGated",
     "flop-array",
     {"--entries", "4", "--width", "4", "--read-ports", "2", "--write-ports", "2", "--read-mode",
      "reg", "--bypass", "true"},
     1},
    {"RfcOneLevelFifoGated",
     "rfc",
     {"--active-warps", "2", "--l1-entries", "2", "--reg-bits", "2", "--width", "4"},
     2},
    {"RfcTwoLevelLru",
     "rfc",
     {"--active-warps", "2", "--levels", "2", "--l1-entries", "2", "--l0-entries", "1",
      "--reg-bits", "2", "--width", "2", "--replacement", "lru", "--clock-gate", "false"},
     2},
    {"SchedulerRoundRobin", "warp-scheduler", {"--warps", "4", "--active", "2"}, 3},
    {"SchedulerGreedy",
     "warp-scheduler",
     {"--warps", "3", "--active", "2", "--inner-policy", "greedy"},
     3},
    {"OrfL1", "orf-l1", {"--active-warps", "3", "--entries-per-thread", "2", "--width", "4"}, 1},
    {"OrfL0Split", "orf-l0", {"--active-warps", "2", "--width", "4", "--bypass", "true"}, 1},
    {"OrfL0UnifiedReg",
     "orf-l0",
     {"--active-warps", "2", "--width", "4", "--split", "false", "--read-mode", "reg",
      "--clock-gate", "false"},
     1},
    // FineReg's CTA status monitor (3 slots: not a power of two) and live-vector cache.
    {"CtaStatusMonitor", "cta-status-monitor", {"--ctas", "3", "--pcrf-entries", "4"}, 3},
    {"LiveVectorCache",
     "live-vector-cache",
     {"--entries", "2", "--pc-bits", "8", "--align-bits", "0", "--vector-bits", "8",
      "--decode-width", "1"},
     3},
    {"Pcrf", "pcrf", kPcrf, 4},
    {"AvailabilityVectors", "availability-vectors", kAvail, 3},
    {"ReleaseFlagCacheFolded", "release-flag-cache", kRelFlag, 3},
    // I1 (mapped-once) takes minutes of solver time: soak_prove_renaming_table_mapped_once.
    {"RenamingTable", "renaming-table", kRename, 3, "mapped-once"},
    {"TagArrayPrioritized", "tag-array", kTags, 4},
    // Minutes per solver run even this small (6 reads and 2 writes per cycle): soak only (the
    // CMake discovery filters *HybridRc* out of the formal label).
    {"HybridRcHierarchical", "hybrid-rc", kHybrid, 3, nullptr, 3600},
};

class FormalProof : public ::testing::TestWithParam<size_t> {};

TEST_P(FormalProof, EveryPropertyIsProven) {
  const Config& c = kConfigs[GetParam()];
  const TargetStructure ts = Make(c.kind, c.flags);
  ASSERT_TRUE(HasFormalProperties(ts.rtl.kind));
  ProveOptions opt;
  opt.timeout_seconds = c.timeout_seconds;
  const auto props = FormalProperties(ts.spec);
  ASSERT_EQ(props.size(), c.properties);
  std::vector<ProofResult> rs;
  for (const auto& p : props) {
    if (c.soak_only != nullptr && p.name == c.soak_only)
      continue;
    opt.property = p.name;
    for (auto& r : ProveStructure(ts.spec, ts.rtl, opt))
      rs.push_back(std::move(r));
  }
  ASSERT_EQ(rs.size(), c.properties - (c.soak_only != nullptr ? 1 : 0)) << Describe(rs);
  for (const auto& r : rs) {
    EXPECT_TRUE(r.proven()) << r.Summary();
    EXPECT_GT(r.depth, 0);
    EXPECT_GT(r.induction_seconds, 0.0) << "induction did not run: " << r.Summary();
    std::cout << "  " << r.Summary() << "\n";
  }
}

INSTANTIATE_TEST_SUITE_P(SmallConfigs, FormalProof,
                         ::testing::Range<size_t>(0, std::size(kConfigs)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return kConfigs[p.param].name;
                         });

// ---------------------------------------------------------------------- mutations are caught

struct Mutation {
  const char* name;
  const char* kind;
  std::vector<std::string> flags;
  const char* file_prefix;  // "" = the top module's file
  const char* from;
  const char* to;
  const char* property;           // must be FAILED
  const char* assertion_snippet;  // in the violated assertion's source line
  int timeout_seconds = 300;      // per solver run
};

const std::vector<std::string> kFlop2r2w = {"--entries",    "4",    "--width",       "4",
                                            "--read-ports", "2",    "--write-ports", "2",
                                            "--clock-gate", "false"};

std::vector<std::string> With(std::vector<std::string> base, std::vector<std::string> more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

const Mutation kMutations[] = {
    // hybrid-rc: a write's tag compare misses hits in ways other than 0, so the register gets a
    // second line.
    {"HybridRcSecondLineForARegister", "hybrid-rc", kHybrid, "", "hit_w[q] = 1'b1;",
     "hit_w[q] = (w == 0);", "one-line-per-register", "chk_dup", 3600},
    // hybrid-rc: a write's victim goes unreported, so the replaced dirty value is lost.
    {"HybridRcVictimNotWrittenBack", "hybrid-rc", kHybrid, "", "victim_w[q] = !free_w[q];",
     "victim_w[q] = 1'b0;", "dirty-values-kept", "chk_lost", 3600},
    // hybrid-rc: a fill always takes the MRF's value, even when the RC holds a newer one.
    {"HybridRcFillFromTheMrf", "hybrid-rc", kHybrid, "",
     "assign fill_data = xf_hit ? xf_line_data : xf_data_i;", "assign fill_data = xf_data_i;",
     "no-stale-read", "chk_stale_fill", 3600},
    // The write-to-read bypass forwards the lowest-numbered port writing the address, not the
    // highest (which is the one the storage keeps).
    {"FlopBypassPriorityInverted", "flop-array", With(kFlop2r2w, {"--bypass", "true"}), "",
     "if (we_i[w] && (waddr[w] == addr)) begin\n          rdata_d = wdata[w];",
     "if (we_i[NumWritePorts-1-w] && (waddr[NumWritePorts-1-w] == addr)) begin\n"
     "          rdata_d = wdata[NumWritePorts-1-w];",
     "read-returns-last-write", "f_wdata"},
    // Two ports write one row: the first port's data is stored instead of the last one's.
    {"FlopWriteCollisionFirstPortWins", "flop-array", kFlop2r2w, "",
     "if (we_i[w] && (waddr[w] == AddrWidth'(r))) begin",
     "if (we_i[w] && (waddr[w] == AddrWidth'(r)) && !row_we) begin", "read-returns-last-write",
     "f_data_q"},
    // The read register keeps its value through reset.
    {"FlopReadRegisterNotReset", "flop-array", With(kFlop2r2w, {"--read-mode", "reg"}), "",
     "rdata_q <= '0;", "rdata_q <= rdata_q;", "read-returns-last-write", "rdata_o == '0"},
    // An L1 eviction does not load its victim into the write-back register: the dirty value is
    // overwritten by the new result and lost.
    {"RfcDirtyVictimDropped",
     "rfc",
     {"--active-warps", "2", "--l1-entries", "2", "--reg-bits", "2", "--width", "4", "--clock-gate",
      "false"},
     "",
     "assign wr_uses_wb = wr_fire && (wr_bypass || l1_evict);",
     "assign wr_uses_wb = wr_fire && wr_bypass;",
     "live-values-kept",
     "gone & ~accounted"},
    // A result whose register is already cached is filled into a free entry instead of
    // overwriting its copy in place.
    {"RfcDuplicateTagOnFill",
     "rfc",
     {"--active-warps", "2", "--l1-entries", "2", "--reg-bits", "2", "--width", "4", "--clock-gate",
      "false"},
     "",
     "assign l1_ins_hit = (l1_ins) ? l1_wr_match : '0;",
     "assign l1_ins_hit = '0;",
     "no-duplicate-tag",
     "l1_tag_d"},
    // A descheduled warp's active bit is not cleared: it stays active without a slot.
    {"SchedulerActiveCountNotDecremented",
     "warp-scheduler",
     {"--warps", "4", "--active", "2"},
     "",
     "active_q[w] <= 1'b0;",
     "active_q[w] <= active_q[w];",
     "active-slots",
     "chk_active"},
    // Activation ignores the waiting bit: a suspended warp gets a slot and issues.
    {"SchedulerSuspendedWarpActivated",
     "warp-scheduler",
     {"--warps", "4", "--active", "2"},
     "",
     "& valid_i & ~active_q & ~waiting_q;",
     "& valid_i & ~active_q;",
     "no-suspended-issue",
     "waiting"},
    // Only one slot is filled per cycle: after a reset a ready warp waits while a slot is free.
    {"SchedulerOneActivationPerCycle",
     "warp-scheduler",
     {"--warps", "4", "--active", "2"},
     "",
     "if (!slot_valid_q[s]) begin",
     "if (!slot_valid_q[s] && !(|act_valid)) begin",
     "no-idle-slot",
     "chk_slot_left_empty"},
    // The invalidation on a deschedule misses the slot's last entry.
    {"OrfInvalidateMissesLastEntry",
     "orf-l1",
     {"--active-warps", "3", "--entries-per-thread", "2", "--width", "4"},
     "",
     "if (inv_i && (inv_slot_i == SlotWidth'(s))) begin",
     "if (inv_i && (inv_slot_i == SlotWidth'(s)) && (e < Entries - 1)) begin",
     "empty-after-deschedule",
     "chk_inv_left"},
    // A switched-out CTA's register field says ACRF: its saved live count has no PCRF registers.
    {"CtaMonitorEvictKeepsAcrf",
     "cta-status-monitor",
     {"--ctas", "3", "--pcrf-entries", "4"},
     "",
     "ctx_q <= 2'b01;\n          rl_q <= 2'b01;",
     "ctx_q <= 2'b01;\n          rl_q <= 2'b10;",
     "status-encodings",
     "chk_stray_live"},
    // The fit check is skipped: a switch is decided with too few free PCRF entries.
    {"CtaMonitorNoFitCheck",
     "cta-status-monitor",
     {"--ctas", "3", "--pcrf-entries", "4"},
     "",
     "assign fits = AvailBits'(stall_live_i) <= avail;",
     "assign fits = 1'b1;",
     "switch-fits",
     "stall_live_i"},
    // A candidate with its registers in the PCRF is preferred to one in the ACRF.
    {"CtaMonitorWrongRank",
     "cta-status-monitor",
     {"--ctas", "3", "--pcrf-entries", "4"},
     "",
     "assign sel = a_found ? a_sel : b_sel;",
     "assign sel = b_found ? b_sel : a_sel;",
     "switch-choice",
     "chk_best"},
    // PCRF: a corrupted next pointer (the old tail links to the entry after the new one): the
    // chain no longer reaches its new tail from its head.
    {"PcrfCorruptedNextPointer", "pcrf", kPcrf, "", "next_q <= alloc_entry;",
     "next_q <= alloc_entry + EntryBits'(1);", "chain-shape", "chk_shadow_bad"},
    // PCRF: the free counter misses appends (a miscounted free count). (Missing the walk's frees
    // needs an append, a restore and a walk through the 3 stages: beyond K = 4.)
    {"PcrfFreeCountMissesAppends", "pcrf", kPcrf, "", "free_count_q - CountBits'(app_fire)",
     "free_count_q", "free-count", "free_count_q"},
    // PCRF: a restore empties the line's count but leaves its head pointer valid.
    {"PcrfHeadValidAfterRestore", "pcrf", kPcrf, "",
     "if (rs_here) begin\n          head_valid_q <= 1'b0;",
     "if (rs_here) begin\n          head_valid_q <= 1'b1;", "one-chain", "chk_head_bad"},
    // PCRF: the new entry of an append does not get the end bit: its chain has no end.
    {"PcrfChainWithoutEnd", "pcrf", kPcrf, "", "end_q <= 1'b1;\n", "end_q <= 1'b0;\n", "end-bits",
     "chk_tail_open"},
    // The last group is flagged one group late (when fewer than N, not at most N, are left).
    {"LiveVectorLastGroupLate",
     "live-vector-cache",
     {"--entries", "2", "--pc-bits", "8", "--align-bits", "0", "--vector-bits", "8"},
     "",
     "assign dec_last_o = dec_valid_o && (left <= LiveBits'(DecodeWidth));",
     "assign dec_last_o = dec_valid_o && (left < LiveBits'(DecodeWidth));",
     "decoder-groups",
     "dec_last_o"},
    // A miss is not counted.
    {"LiveVectorMissNotCounted",
     "live-vector-cache",
     {"--entries", "2", "--pc-bits", "8", "--align-bits", "0", "--vector-bits", "8"},
     "",
     "miss_cnt_q <= miss_cnt_q + 32'd1;",
     "miss_cnt_q <= miss_cnt_q;",
     "lookup-accounting",
     "hit_cnt_q + miss_cnt_q"},
    // A fill writes the tag of the PC on the lookup port, not of the PC it fetched.
    {"LiveVectorFillWrongTag",
     "live-vector-cache",
     {"--entries", "2", "--pc-bits", "8", "--align-bits", "0", "--vector-bits", "8"},
     "",
     "line_tag[req_index] <= pc_q[PcBits-1 -: TagBits];",
     "line_tag[req_index] <= lk_pc_i[PcBits-1 -: TagBits];",
     "fill-and-accept",
     "chk_fill_pc_q"},
    // The free counter ignores releases.
    {"AvailCounterIgnoresReleases", "availability-vectors", kAvail, "",
     "free_q <= free_q - CountBits'(grant) + rel_n;", "free_q <= free_q - CountBits'(grant);",
     "free-count", "chk_count"},
    // Find-first-free ignores the power state: a request is granted a row of a gated subarray.
    {"AvailSearchIgnoresPower", "availability-vectors", kAvail, "",
     "if (!found && avail_q[i] && pwr_q[i / SubRows]) begin", "if (!found && avail_q[i]) begin",
     "grant-free-powered", "chk_grant"},
    // A subarray is gated as soon as one of its rows is free, not when all are.
    {"AvailGatingIgnoresOccupancy", "availability-vectors", kAvail, "",
     "pwr_d[k] = pwr_q[k] && !(&avail_d[k*SubRows +: SubRows]);",
     "pwr_d[k] = pwr_q[k] && !(|avail_d[k*SubRows +: SubRows]);", "gated-holds-none", "chk_gated"},
    // A lookup hits on a matching tag without checking the valid bit.
    {"RelFlagHitIgnoresValid", "release-flag-cache", kRelFlag, "",
     "assign hit = rst_ni && lk_valid_i && valid_q[lk_idx] && tag_q[lk_idx] == lk_tag;",
     "assign hit = rst_ni && lk_valid_i && tag_q[lk_idx] == lk_tag;", "hit-is-its-entry", "F1"},
    // The miss counter is stuck.
    {"RelFlagMissCounterStuck", "release-flag-cache", kRelFlag, "", "miss_q <= miss_q + 32'(miss);",
     "miss_q <= miss_q;", "lookup-accounting", "chk_lookups_q"},
    // A fill in the flush's cycle wins over the flush: the valid bits survive it.
    {"RelFlagFillBeatsFlush", "release-flag-cache", kRelFlag, "",
     "if (flush_i) begin\n        valid_q <= '0;",
     "if (flush_i && !fill_valid_i) begin\n        valid_q <= '0;", "empty-after-flush",
     "chk_flushed_q"},
    // A renamed source answers "mapped" when any bank's accessed entry is valid, not its own.
    {"RenameMappedFromAnyBank", "renaming-table", kRename, "",
     "src_mapped[p] = rd_valid[src_bank[p]];", "src_mapped[p] = |rd_valid;", "no-stale-read",
     "chk_stale"},
    // A release of an entry without a mapping still puts its (stale) id on the free port.
    {"RenameFreeOfUnmappedEntry", "renaming-table", kRename, "",
     "free[b] = ((acc_src[b] && acc_pir[b]) || acc_rel[b]) && rd_valid[b];",
     "free[b] = (acc_src[b] && acc_pir[b]) || acc_rel[b];", "free-once", "chk_free_unmapped"},
    // A free puts the row's id on the free port but leaves the row valid: the allocator hands
    // the id out again while the row still maps it (I1).
    {"RenameFreeKeepsTheMapping", "renaming-table", kRename, "",
     "if (free[b]) begin\n          valid_q[row] <= 1'b0;",
     "if (free[b]) begin\n          valid_q[row] <= valid_q[row];", "mapped-once", "f_id"},
    // A destination served after the cycle that accepted it writes the id on the input then,
    // not the one it latched (and reports on dst_phys_o): the row holds an id never handed out.
    {"RenameWritesTheWrongId", "renaming-table", kRename, "", "phys_q[row] <= cur_dst_phys;",
     "phys_q[row] <= dst_phys_i;", "mapped-once", "f_id"},
    // The tag compare sees only cache and dirty lines: a register lookup misses its reg line and
    // fills a second line with the same tag.
    {"TagsRegLinesNeverHit", "tag-array", kTags, "",
     "if ((lk_states[(p*NumWays + 32'(w))*2 +: 2] != 2'd0)\n            && (lk_tags[",
     "if ((lk_states[(p*NumWays + 32'(w))*2 +: 2] >= 2'd2)\n            && (lk_tags[",
     "one-line-per-tag", "I1"},
    // lru-prioritized takes the LRU way for cache data even when a non-reg way exists.
    {"TagsPrioritizedVictimIsLru", "tag-array", kTags, "",
     "end else if (nonreg_found[p]) begin\n        fill_way[p] = nonreg_way[p];",
     "end else if (nonreg_found[p]) begin\n        fill_way[p] = lru_way[p];",
     "reg-never-victim-of-load", "chk_reg_for_load"},
    // Every victim is reported dirty: a clean line gets a spurious write-back.
    {"TagsCleanVictimWrittenBack", "tag-array", kTags, "",
     "victim_state[p] = victim[p] ? lk_states[(p*NumWays + 32'(fill_way[p]))*2 +: 2] : 2'd0;",
     "victim_state[p] = victim[p] ? 2'd3 : 2'd0;", "dirty-written-back-once", "chk_false_wb"},
    // A write-reg hit makes its reg line dirty (reg -> dirty is not in Fig. 6).
    {"TagsWriteRegMakesDirty", "tag-array", kTags, "",
     "new_state[p] = (cur_op[p] == 2'd3) ? 2'd3 : hit_state[p];",
     "new_state[p] = cur_op[p][0] ? 2'd3 : hit_state[p];", "fig6-transitions", "chk_bad_edge"},
};

class FormalMutation : public ::testing::TestWithParam<size_t> {};

TEST_P(FormalMutation, IsCaughtWithACounterexample) {
  const Mutation& mu = kMutations[GetParam()];
  TargetStructure ts = Make(mu.kind, mu.flags);
  ASSERT_NO_FATAL_FAILURE(test::Mutate(ts.rtl, mu.file_prefix, mu.from, mu.to));
  const TempDir traces("gpurf-formal-test");
  ProveOptions opt;
  opt.property = mu.property;
  opt.trace_dir = traces.path();
  opt.timeout_seconds = mu.timeout_seconds;
  const auto rs = ProveStructure(ts.spec, ts.rtl, opt);
  ASSERT_EQ(rs.size(), 1u) << Describe(rs);
  const ProofResult& r = rs.front();
  std::cout << "  " << r.Summary() << "\n";
  ASSERT_TRUE(r.failed()) << mu.name << " escaped the prover: " << r.Summary();
  EXPECT_GE(r.fail_step, 1) << r.Summary();
  ASSERT_FALSE(r.assertions.empty()) << r.Summary();
  ASSERT_EQ(r.assertions.size(), r.assertion_text.size());
  bool named = false;
  for (const auto& t : r.assertion_text)
    named = named || ((t.starts_with("assert (") || t.starts_with("`GPURF_ASSERT(")) &&
                      t.find(mu.assertion_snippet) != std::string::npos);
  EXPECT_TRUE(named) << "the violated assertion should mention '" << mu.assertion_snippet
                     << "': " << r.Summary();
  EXPECT_NE(r.Summary().find("FAILED"), std::string::npos);
  EXPECT_NE(r.Summary().find(fmt::format(" at step {}: assertion ", r.fail_step)),
            std::string::npos);
  ASSERT_FALSE(r.trace.empty());
  EXPECT_TRUE(fs::exists(r.trace)) << r.trace;
  EXPECT_NE(ReadFile(r.trace).find("$var"), std::string::npos) << "not a VCD: " << r.trace;
  // The files the trace and the file:line refer to are kept beside it.
  EXPECT_TRUE(fs::exists(r.trace.parent_path() / "prove.ys"));
  EXPECT_TRUE(fs::exists(r.trace.parent_path() / "run.sh"));
}

INSTANTIATE_TEST_SUITE_P(Bugs, FormalMutation, ::testing::Range<size_t>(0, std::size(kMutations)),
                         [](const ::testing::TestParamInfo<size_t>& p) {
                           return kMutations[p.param].name;
                         });

// Each property of each family has at least one mutation above.
TEST(FormalMutation, EveryPropertyHasAMutation) {
  for (const std::string& name : AllFormalPropertyNames()) {
    bool found = false;
    for (const auto& m : kMutations)
      found = found || name == m.property;
    EXPECT_TRUE(found) << "no mutation for property " << name;
  }
}

// ------------------------------------------------------------------------ honest reporting

// Replaces the condition of every RTL assertion whose message contains `message` with 1'b1.
int Neuter(GeneratedStructure& rtl, const std::string& message) {
  int n = 0;
  for (auto& f : rtl.files) {
    const auto calls = MacroCalls(f.contents);
    for (auto it = calls.rbegin(); it != calls.rend(); ++it) {  // back to front: offsets hold
      const auto [b, e] = *it;
      const size_t open = f.contents.find("(\"%m: ", b);  // the message's argument list
      if (open == std::string::npos || open > e ||
          f.contents.substr(open, e - open).find(message) == std::string::npos)
        continue;
      const size_t cond = b + std::string("`GPURF_ASSERT(").size();
      f.contents.replace(cond, f.contents.rfind(',', open) - cond, "1'b1");
      ++n;
    }
  }
  return n;
}

// A property whose RTL assertion is missing (a generator change, a bad mutation) has nothing to
// prove: UNKNOWN, naming the missing message, never PROVEN.
TEST(FormalReporting, MissingAssertionIsUnknown) {
  TargetStructure ts = Make("orf-l1", {"--active-warps", "2", "--entries-per-thread", "2",
                                       "--width", "4", "--clock-gate", "false"});
  ASSERT_NO_FATAL_FAILURE(test::Mutate(ts.rtl, "", "still holds a valid entry after its warp",
                                       "keeps a valid entry after its warp"));
  const auto rs = ProveStructure(ts.spec, ts.rtl, ProveOptions{});
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs.front().status, ProofResult::Status::kUnknown) << rs.front().Summary();
  EXPECT_NE(rs.front().Summary().find("UNKNOWN"), std::string::npos);
  EXPECT_NE(rs.front().reason.find("no assertion with the message"), std::string::npos)
      << rs.front().Summary();
}

// Without its auxiliary invariant (each slot's replacement ages form a permutation), the RFC's
// duplicate-tag check holds from reset (the base case passes) but is not inductive: a state
// with two equally old entries lets one write fill both. The prover must say UNKNOWN, with the
// induction trace, never PROVEN and never FAILED.
TEST(FormalReporting, NonInductivePropertyIsUnknown) {
  TargetStructure ts = Make("rfc", {"--active-warps", "2", "--l1-entries", "2", "--reg-bits", "2",
                                    "--width", "4", "--clock-gate", "false"});
  ASSERT_GT(Neuter(ts.rtl, "replacement ages"), 0);
  const TempDir traces("gpurf-formal-test");
  ProveOptions opt;
  opt.property = "no-duplicate-tag";
  opt.trace_dir = traces.path();
  const auto rs = ProveStructure(ts.spec, ts.rtl, opt);
  ASSERT_EQ(rs.size(), 1u);
  const ProofResult& r = rs.front();
  EXPECT_EQ(r.status, ProofResult::Status::kUnknown) << r.Summary();
  EXPECT_NE(r.reason.find("base case passed"), std::string::npos) << r.Summary();
  EXPECT_NE(r.reason.find("-inductive as stated"), std::string::npos) << r.Summary();
  EXPECT_TRUE(!r.trace.empty() && fs::exists(r.trace)) << r.Summary();
}

// A property whose unbounded step is ABC's PDR (the renaming table's mapped-once): a violation
// PDR reaches beyond the base case's K is UNKNOWN with the advice to raise the depth, never
// PROVEN, and the kept run.sh reproduces the PDR step.
TEST(FormalReporting, PdrViolationBeyondTheBaseCaseIsUnknown) {
  TargetStructure ts = Make("renaming-table", kRename);
  ASSERT_NO_FATAL_FAILURE(
      test::Mutate(ts.rtl, "", "if (free[b]) begin\n          valid_q[row] <= 1'b0;",
                   "if (free[b]) begin\n          valid_q[row] <= valid_q[row];"));
  const TempDir traces("gpurf-formal-test");
  ProveOptions opt;
  opt.property = "mapped-once";
  opt.depth = 1;  // the base case cannot reach the bug (it needs 4 cycles)
  opt.trace_dir = traces.path();
  opt.timeout_seconds = 300;
  const auto rs = ProveStructure(ts.spec, ts.rtl, opt);
  ASSERT_EQ(rs.size(), 1u);
  const ProofResult& r = rs.front();
  EXPECT_EQ(r.status, ProofResult::Status::kUnknown) << r.Summary();
  EXPECT_NE(r.reason.find("PDR reaches a violation"), std::string::npos) << r.Summary();
  const fs::path kept = traces.path() / ts.rtl.top / "mapped-once";
  EXPECT_TRUE(fs::exists(kept / "pdr.ys")) << kept;
  EXPECT_NE(ReadFile(kept / "run.sh").find("yosys-abc"), std::string::npos);
}

}  // namespace
}  // namespace gpurf
