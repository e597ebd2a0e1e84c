#include "gen/structures/renaming_table/renaming_table_gen.h"

#include <fmt/format.h>

#include "gen/structures/emit_util.h"
#include "gen/structures/renaming_table/renaming_table_ports.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

std::vector<std::string> ModuleDoc(const RenamingTableSpec& s) {
  return {
      fmt::format("{}: register renaming table (Jeon et al., MICRO 2015, section 7.1),",
                  s.module_name),
      fmt::format(
          "{} warp slots x {} renamed entries ({} of {} architected registers, {} B budget),",
          s.warps, s.window, s.window, s.regs, s.capacity_bytes),
      fmt::format("{}-bit physical ids and a valid bit per entry, in {} banks.", s.phys_bits,
                  s.banks),
      "",
      "Register r of warp w under N = exempt_i: r < N is exempt (physical w*N + r, not stored);",
      "N <= r < N + Window is entry j = r - N, in bank j % NumBanks, row j / NumBanks of the",
      "warp's rows there. Each bank serves one entry per cycle: the lowest-numbered source of",
      "the bank (with every source naming the same register), the destination once its bank",
      "has no source left, or the lowest pending entry of a release (pbr list) or warp exit.",
      "A served source answers its mapping (src_mapped_o low: released or never written) and",
      "is released after the read if a pir bit says so; a destination without a mapping takes",
      "dst_phys_i (map-on-first-write). Released ids leave on the bank's free port.",
      "Invariants (checked with GPURF_ASSERTIONS defined): I1 no physical register mapped",
      "twice; I2 a released mapping is never read as mapped; I3 a freed id was mapped; C1-C3",
      "the contract (operands exempt or renamed, NumWarps*N <= NumPhys, warp slots in range).",
  };
}

// The request of this cycle: the offered one when ready, else the latched one; operand classes.
Always Front() {
  Always a{AlwaysKind::kComb, "", "front", {}};
  a.body = {
      Blocking("offered", "rst_ni && ready && req_valid_i"),
      Blocking("cur_op", "ready ? req_op_i : op_q"),
      Blocking("cur_warp", "ready ? req_warp_i : warp_q"),
      Blocking("cur_src_valid",
               "ready ? ((offered && req_op_i == 2'd0) ? src_valid_i : '0) : pend_src_q"),
      Blocking("cur_src_reg", "ready ? src_reg_i : src_reg_q"),
      Blocking("cur_src_release", "ready ? src_release_i : src_release_q"),
      Blocking("cur_dst_valid",
               "ready ? (offered && req_op_i == 2'd0 && dst_valid_i) : pend_dst_q"),
      Blocking("cur_dst_reg", "ready ? dst_reg_i : dst_reg_q"),
      Blocking("cur_dst_phys", "ready ? dst_phys_i : dst_phys_q"),
      Note("A release or exit walks the warp's entries that hold a mapping now."),
      Blocking("cur_release",
               "ready ? ((offered && (req_op_i == 2'd1 || req_op_i == 2'd2)) ?\n"
               "    ((req_op_i == 2'd2 ? {Window{1'b1}} : rel_window) & warp_valid) : '0) :\n"
               "    pend_rel_q"),
  };
  return a;
}

// Operand classes and entry fields: exempt, renamed (entry j, its bank), or outside.
Always Classify() {
  Always a{AlwaysKind::kComb, "", "classify", {}};
  auto fields = [](const std::string& reg, const std::string& exempt, const std::string& renamed,
                   const std::string& entry, const std::string& phys) -> Body {
    return {
        Blocking(exempt, "32'(" + reg + ") < 32'(exempt_i)"),
        Blocking(renamed, "32'(" + reg + ") >= 32'(exempt_i) && 32'(" + reg +
                              ") < 32'(exempt_i) + Window && 32'(" + reg + ") < NumRegs"),
        Blocking(entry, renamed + " ? EntryBits'(32'(" + reg + ") - 32'(exempt_i)) : '0"),
        Blocking(phys, "PhysBits'(32'(cur_warp) * 32'(exempt_i) + 32'(" + reg + "))"),
    };
  };
  Body per = fields("cur_src_reg[p*RegBits +: RegBits]", Index("src_exempt", "p"),
                    Index("src_renamed", "p"), Index("src_entry", "p"), Index("src_direct", "p"));
  a.body = {ForLoop("p", "NumSrc", per)};
  for (Stmt& st : fields("cur_dst_reg", "dst_exempt", "dst_renamed", "dst_entry", "dst_direct"))
    a.body.push_back(std::move(st));
  return a;
}

// Bank scheduling: which operands and release entries are served this cycle, and each bank's
// one access (the entry it reads, and whether it releases or maps it).
Always Schedule() {
  Always a{AlwaysKind::kComb, "", "schedule", {}};
  const std::string same_bank = "src_bank[q] == src_bank[p]";
  a.body = {
      Note("Sources: exempt and outside ones need no bank; in each bank the register of the\n"
           "lowest-numbered pending source is read, for every source that names it."),
      ForLoop(
          "p", "NumSrc",
          {Blocking(Index("src_served", "p"), "cur_src_valid[p]"), Blocking("lead_seen", "1'b0"),
           ForLoop("q", "NumSrc",
                   {IfThen(And({"q < p", "!lead_seen", "cur_src_valid[q]", "src_renamed[q]",
                                "src_renamed[p]", same_bank}),
                           {Blocking("lead_seen", "1'b1"),
                            Blocking(Index("src_served", "p"),
                                     "cur_src_valid[p] && (src_entry[q] == src_entry[p])")})})}),
      Blocking("bank_has_src", "'0"),
      ForLoop("p", "NumSrc",
              {IfThen(And({"cur_src_valid[p]", "src_renamed[p]"}),
                      {Blocking("bank_has_src[src_bank[p]]", "1'b1")})}),
      Note("The destination once no source of its bank is pending (after their releases)."),
      Blocking("dst_served", "cur_dst_valid && (!dst_renamed || !bank_has_src[dst_bank])"),
      Note("Release and exit: the lowest pending entry of each bank."),
      Blocking("rel_found", "'0"),
      Blocking("release_served", "'0"),
      ForLoop("b", "NumBanks", {Blocking(Index("rel_entry", "b"), "'0")}),
      ForLoop("j", "Window",
              {IfThen(And({"cur_release[j]", "!rel_found[j % NumBanks]"}),
                      {Blocking("rel_found[j % NumBanks]", "1'b1"),
                       Blocking("rel_entry[j % NumBanks]", "EntryBits'(j)"),
                       Blocking("release_served[j]", "1'b1")})}),
      Note("Each bank's access: a source read (releasing with a pir bit), the destination, or a\n"
           "release entry; at most one of them by the scheduling above."),
      ForLoop(
          "b", "NumBanks",
          {Blocking(Index("acc_src", "b"), "1'b0"), Blocking(Index("acc_pir", "b"), "1'b0"),
           Blocking(Index("acc_dst", "b"), "1'b0"), Blocking(Index("acc_rel", "b"), "rel_found[b]"),
           Blocking(Index("acc_entry", "b"), "rel_entry[b]"),
           ForLoop(
               "p", "NumSrc",
               {IfThen(And({"src_served[p]", "src_renamed[p]", "32'(src_bank[p]) == b"}),
                       {Blocking(Index("acc_src", "b"), "1'b1"),
                        Blocking(Index("acc_entry", "b"), "src_entry[p]"),
                        IfThen("cur_src_release[p]", {Blocking(Index("acc_pir", "b"), "1'b1")})})}),
           IfThen(And({"dst_served", "dst_renamed", "32'(dst_bank) == b"}),
                  {Blocking(Index("acc_dst", "b"), "1'b1"),
                   Blocking(Index("acc_entry", "b"), "dst_entry")})}),
  };
  return a;
}

// The answers of this cycle's served operands and the bank actions.
Always Answer() {
  Always a{AlwaysKind::kComb, "", "answer", {}};
  a.body = {
      ForLoop("p", "NumSrc",
              {Blocking(Index("src_mapped", "p"), "1'b0"), Blocking(Index("src_phys", "p"), "'0"),
               IfThen("src_exempt[p]",
                      {Blocking(Index("src_mapped", "p"), "1'b1"),
                       Blocking(Index("src_phys", "p"), "src_direct[p]")},
                      {IfThen("src_renamed[p]",
                              {Blocking(Index("src_mapped", "p"), "rd_valid[src_bank[p]]"),
                               Blocking(Index("src_phys", "p"),
                                        "rd_valid[src_bank[p]] ? rd_phys[src_bank[p]] : '0")})})}),
      Note("Map-on-first-write: a renamed destination without a mapping takes dst_phys_i."),
      Blocking("dst_alloc", "dst_served && dst_renamed && !rd_valid[dst_bank]"),
      Blocking("dst_phys",
               "dst_exempt ? dst_direct : (!dst_renamed ? '0 : (dst_alloc ? cur_dst_phys : "
               "rd_phys[dst_bank]))"),
      ForLoop("b", "NumBanks",
              {Blocking(Index("free", "b"),
                        "((acc_src[b] && acc_pir[b]) || acc_rel[b]) && rd_valid[b]")}),
  };
  return a;
}

// The request latch and the conflict counter.
Always RequestUpdate() {
  Body reset = {
      NonBlocking("op_q", "'0"),          NonBlocking("warp_q", "'0"),
      NonBlocking("pend_src_q", "'0"),    NonBlocking("src_reg_q", "'0"),
      NonBlocking("src_release_q", "'0"), NonBlocking("pend_dst_q", "1'b0"),
      NonBlocking("dst_reg_q", "'0"),     NonBlocking("dst_phys_q", "'0"),
      NonBlocking("pend_rel_q", "'0"),    NonBlocking("conflict_q", "'0"),
  };
  Body run = {
      IfThen(And({"!ready", Eq("op_q", "2'd0")}),
             {NonBlocking("conflict_q", "conflict_q + 32'd1")}),
      NonBlocking("op_q", "cur_op"),
      NonBlocking("warp_q", "cur_warp"),
      NonBlocking("pend_src_q", "cur_src_valid & ~src_served"),
      NonBlocking("src_reg_q", "cur_src_reg"),
      NonBlocking("src_release_q", "cur_src_release"),
      NonBlocking("pend_dst_q", "cur_dst_valid && !dst_served"),
      NonBlocking("dst_reg_q", "cur_dst_reg"),
      NonBlocking("dst_phys_q", "cur_dst_phys"),
      NonBlocking("pend_rel_q", "cur_release & ~release_served"),
  };
  return Always{AlwaysKind::kFF,
                "posedge clk_i or negedge rst_ni",
                "request_update",
                {IfThen("!rst_ni", reset, run)}};
}

// One bank: the ids and valid bits of its rows (warp w's rows at w*RowsPerWarp), one access a
// cycle.
GenerateFor Banks() {
  GenerateFor g{"gen_banks", "b", "NumBanks", {}};
  g.items.push_back(MakeItem(LocalParam{"RowsPerWarp", "(Window - b + NumBanks - 1) / NumBanks",
                                        "entries j of a warp with j % NumBanks == b"}));
  g.items.push_back(MakeItem(LocalParam{"Rows", "NumWarps * RowsPerWarp", "rows of this bank"}));
  g.items.push_back(MakeItem(LocalParam{"RowBits", "$clog2(Rows)", "bits of a row index"}));
  g.items.push_back(MakeItem(Net{"phys_q", "PhysBits-1", "Rows",
                                 "physical id of each row (meaningful when valid)", "mem2reg"}));
  g.items.push_back(MakeItem(Net{"valid_q", "Rows-1", "", "the row holds a mapping", ""}));
  g.items.push_back(MakeItem(Net{"row", "RowBits-1", "", "the row accessed this cycle", ""}));
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(MakeItem(ContinuousAssign{
      "row", "RowBits'(32'(cur_warp) * RowsPerWarp + (32'(acc_entry[b]) >> BankBits))"}));
  g.items.push_back(MakeItem(ContinuousAssign{Index("rd_valid", "b"), "valid_q[row]"}));
  g.items.push_back(MakeItem(ContinuousAssign{Index("rd_phys", "b"), "phys_q[row]"}));
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(
      MakeItem(Always{AlwaysKind::kFF,
                      "posedge clk_i or negedge rst_ni",
                      "",
                      {IfThen("!rst_ni", {NonBlocking("valid_q", "'0")},
                              {IfThen(Index("free", "b"), {NonBlocking("valid_q[row]", "1'b0")}),
                               IfThen(And({Index("acc_dst", "b"), "dst_alloc"}),
                                      {NonBlocking("valid_q[row]", "1'b1")})})}}));
  g.items.push_back(MakeItem(Always{AlwaysKind::kFF,
                                    "posedge clk_i",
                                    "",
                                    {IfThen(And({Index("acc_dst", "b"), "dst_alloc"}),
                                            {NonBlocking("phys_q[row]", "cur_dst_phys")})}}));
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(MakeItem(CommentItem{"The offered warp's entries of this bank, by entry j."}));
  GenerateFor rows{"gen_warp_rows", "i", "RowsPerWarp", {}};
  rows.items.push_back(MakeItem(ContinuousAssign{"warp_valid[i*NumBanks + b]",
                                                 "valid_q[32'(req_warp_i) * RowsPerWarp + i]"}));
  g.items.push_back(MakeItem(std::move(rows)));

  // I1's search of this bank for the id being allocated.
  Ifdef chk{"GPURF_ASSERTIONS", {}};
  chk.items.push_back(
      MakeItem(Always{AlwaysKind::kComb,
                      "",
                      "",
                      {Blocking(Index("chk_holds", "b"), "1'b0"),
                       ForLoop("i", "Rows",
                               {IfThen(And({"valid_q[i]", Eq("phys_q[i]", "cur_dst_phys")}),
                                       {Blocking(Index("chk_holds", "b"), "1'b1")})})}}));
  g.items.push_back(MakeItem(std::move(chk)));
  return g;
}

Ifdef Assertions() {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(CommentItem{
      "Invariants I1-I3 and the contract C1-C3 at every edge, on this cycle's accesses."}));
  d.items.push_back(
      MakeItem(Net{"chk_dup", "", "", "I1: an allocation of an id that is mapped", ""}));
  d.items.push_back(MakeItem(Net{"chk_stale", "", "", "I2: an invalid entry answered mapped", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_free_unmapped", "", "", "I3: a free of an invalid entry", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_outside", "", "", "C1: an operand neither exempt nor renamed", ""}));
  d.items.push_back(MakeItem(BlankLine{}));
  Always terms{AlwaysKind::kComb, "", "", {}};
  terms.body = {
      Blocking("chk_dup",
               "dst_alloc && (32'(cur_dst_phys) >= NumPhys || "
               "32'(cur_dst_phys) < NumWarps * 32'(exempt_i) || |chk_holds)"),
      Blocking("chk_stale", "1'b0"),
      Blocking("chk_outside", "dst_served && !dst_exempt && !dst_renamed"),
      ForLoop("p", "NumSrc",
              {IfThen(And({"src_served[p]", "src_renamed[p]", "src_mapped[p]",
                           "!rd_valid[src_bank[p]]"}),
                      {Blocking("chk_stale", "1'b1")}),
               IfThen(And({"src_served[p]", "!src_exempt[p]", "!src_renamed[p]"}),
                      {Blocking("chk_outside", "1'b1")})}),
      Blocking("chk_free_unmapped", "1'b0"),
      ForLoop("b", "NumBanks",
              {IfThen(And({"free_valid_o[b]", "!rd_valid[b]"}),
                      {Blocking("chk_free_unmapped", "1'b1")})}),
  };
  d.items.push_back(MakeItem(std::move(terms)));
  d.items.push_back(MakeItem(BlankLine{}));
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_invariants", {}};
  a.body.push_back(IfThen(
      "rst_ni",
      {Assert("!chk_dup",
              {Quote("%m: I1 violated: a physical register mapped twice (or out of range)")}),
       Assert("!chk_stale", {Quote("%m: I2 violated: a released mapping read as mapped")}),
       Assert("!chk_free_unmapped", {Quote("%m: I3 violated: a free of an entry without a "
                                           "mapping")}),
       Assert("!chk_outside",
              {Quote("%m: C1 violated: an operand neither exempt nor in the renamed window")}),
       Assert("NumWarps * 32'(exempt_i) <= NumPhys",
              {Quote("%m: C2 violated: the exempt blocks exceed the physical registers")}),
       Assert("!(offered && 32'(req_warp_i) >= NumWarps)",
              {Quote("%m: C3 violated: a request of a warp slot beyond NumWarps")})}));
  d.items.push_back(MakeItem(std::move(a)));
  return d;
}

}  // namespace

GeneratedStructure EmitRenamingTable(const RenamingTableSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  g.derived = {{"phys_bits", s.phys_bits},
               {"window", s.window},
               {"entries", s.warps * s.window},
               {"id_bytes", (s.table_bits + 7) / 8},
               {"valid_bits", s.warps * s.window}};

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumWarps", Int(s.warps), "Wp: warp slots", false},
      {"NumRegs", Int(s.regs), "R: architected registers per thread", false},
      {"NumPhys", Int(s.phys_regs), "P: physical registers", false},
      {"NumBanks", Int(s.banks), "B: table banks (power of two)", false},
      {"Window", Int(s.window), "K: renamed entries per warp", false},
      {"NumSrc", Int(RenamingTableSpec::kSources), "source operands per instruction", false},
      {"PhysBits", "$clog2(NumPhys)", "bits of a physical id", true},
      {"WarpBits", "$clog2(NumWarps)", "bits of a warp slot", true},
      {"RegBits", "$clog2(NumRegs)", "bits of an architected register id", true},
      {"ExemptBits", "$clog2(NumRegs + 1)", "bits of N (0..NumRegs)", true},
      {"BankBits", "$clog2(NumBanks)", "bank field of an entry index", true},
      {"EntryBits", "$clog2(Window)", "bits of an entry index j", true},
  };
  m.ports = RenamingTablePortTable(s).Verilog();

  m.Blank();
  m.Comment("Request op: 2'd0 instruction, 2'd1 release (pbr list), 2'd2 warp exit.");
  m.Blank();
  m.Comment("The accepted request still pending (latched at acceptance).");
  m.Add(MakeItem(Net{"op_q", "1", "", "its op", ""}));
  m.Add(MakeItem(Net{"warp_q", "WarpBits-1", "", "its warp", ""}));
  m.Add(MakeItem(Net{"pend_src_q", Msb("NumSrc"), "", "sources not yet served", ""}));
  m.Add(MakeItem(Net{"src_reg_q", "NumSrc*RegBits-1", "", "their registers", ""}));
  m.Add(MakeItem(Net{"src_release_q", Msb("NumSrc"), "", "their pir bits", ""}));
  m.Add(MakeItem(Net{"pend_dst_q", "", "", "destination not yet served", ""}));
  m.Add(MakeItem(Net{"dst_reg_q", "RegBits-1", "", "its register", ""}));
  m.Add(MakeItem(Net{"dst_phys_q", "PhysBits-1", "", "its free id", ""}));
  m.Add(MakeItem(Net{"pend_rel_q", Msb("Window"), "", "release entries not yet served", ""}));
  m.Add(MakeItem(Net{"conflict_q", "31", "", "bank-conflict cycles", ""}));
  m.Blank();
  m.Comment("This cycle's request.");
  m.Add(MakeItem(Net{"ready", "", "", "nothing pending", ""}));
  m.Add(MakeItem(Net{"offered", "", "", "a request is accepted now", ""}));
  m.Add(MakeItem(Net{"cur_op", "1", "", "op", ""}));
  m.Add(MakeItem(Net{"cur_warp", "WarpBits-1", "", "warp", ""}));
  m.Add(MakeItem(Net{"cur_src_valid", Msb("NumSrc"), "", "sources to serve", ""}));
  m.Add(MakeItem(Net{"cur_src_reg", "NumSrc*RegBits-1", "", "their registers", ""}));
  m.Add(MakeItem(Net{"cur_src_release", Msb("NumSrc"), "", "their pir bits", ""}));
  m.Add(MakeItem(Net{"cur_dst_valid", "", "", "destination to serve", ""}));
  m.Add(MakeItem(Net{"cur_dst_reg", "RegBits-1", "", "its register", ""}));
  m.Add(MakeItem(Net{"cur_dst_phys", "PhysBits-1", "", "its free id", ""}));
  m.Add(MakeItem(Net{"cur_release", Msb("Window"), "", "release entries to serve", ""}));
  m.Add(MakeItem(Net{"rel_window", Msb("Window"), "", "the pbr list by entry j", ""}));
  m.Add(MakeItem(Net{"warp_valid", Msb("Window"), "", "the offered warp's valid entries", ""}));
  m.Blank();
  m.Comment("Operand classes: exempt (direct id), renamed (entry j), or outside.");
  m.Add(MakeItem(Net{"src_exempt", Msb("NumSrc"), "", "source is exempt", ""}));
  m.Add(MakeItem(Net{"src_renamed", Msb("NumSrc"), "", "source is renamed", ""}));
  m.Add(MakeItem(Net{"src_entry", "EntryBits-1", "NumSrc", "its entry j", "mem2reg"}));
  m.Add(MakeItem(Net{"src_direct", "PhysBits-1", "NumSrc", "its exempt id w*N + r", "mem2reg"}));
  m.Add(MakeItem(Net{"dst_exempt", "", "", "destination is exempt", ""}));
  m.Add(MakeItem(Net{"dst_renamed", "", "", "destination is renamed", ""}));
  m.Add(MakeItem(Net{"dst_entry", "EntryBits-1", "", "its entry j", ""}));
  m.Add(MakeItem(Net{"dst_direct", "PhysBits-1", "", "its exempt id", ""}));
  m.Add(MakeItem(Net{"src_bank", "BankBits-1", "NumSrc", "source entry's bank", "mem2reg"}));
  m.Add(MakeItem(Net{"dst_bank", "BankBits-1", "", "destination entry's bank", ""}));
  m.Blank();
  m.Comment("Scheduling and bank accesses.");
  m.Add(MakeItem(Net{"lead_seen", "", "", "a lower source of the bank (loop temporary)", ""}));
  m.Add(MakeItem(Net{"src_served", Msb("NumSrc"), "", "source answered this cycle", ""}));
  m.Add(MakeItem(Net{"bank_has_src", Msb("NumBanks"), "", "a renamed source pending", ""}));
  m.Add(MakeItem(Net{"dst_served", "", "", "destination answered this cycle", ""}));
  m.Add(MakeItem(Net{"rel_found", Msb("NumBanks"), "", "the bank serves a release entry", ""}));
  m.Add(MakeItem(Net{"rel_entry", "EntryBits-1", "NumBanks", "that entry", "mem2reg"}));
  m.Add(MakeItem(Net{"release_served", Msb("Window"), "", "release entries served", ""}));
  m.Add(MakeItem(Net{"acc_src", Msb("NumBanks"), "", "the bank reads a source", ""}));
  m.Add(MakeItem(Net{"acc_pir", Msb("NumBanks"), "", "... and releases it (pir)", ""}));
  m.Add(MakeItem(Net{"acc_dst", Msb("NumBanks"), "", "the bank serves the destination", ""}));
  m.Add(MakeItem(Net{"acc_rel", Msb("NumBanks"), "", "the bank serves a release entry", ""}));
  m.Add(MakeItem(Net{"acc_entry", "EntryBits-1", "NumBanks", "the entry accessed", "mem2reg"}));
  m.Add(MakeItem(Net{"rd_valid", Msb("NumBanks"), "", "that entry holds a mapping", ""}));
  m.Add(MakeItem(Net{"rd_phys", "PhysBits-1", "NumBanks", "its id", "mem2reg"}));
  m.Add(MakeItem(Net{"free", Msb("NumBanks"), "", "the bank releases its entry", ""}));
  m.Add(MakeItem(Net{"src_mapped", Msb("NumSrc"), "", "source answer: mapped", ""}));
  m.Add(MakeItem(Net{"src_phys", "PhysBits-1", "NumSrc", "source answer: id", "mem2reg"}));
  m.Add(MakeItem(Net{"dst_alloc", "", "", "the destination maps cur_dst_phys", ""}));
  m.Add(MakeItem(Net{"dst_phys", "PhysBits-1", "", "the destination's id", ""}));
  m.Blank();
  m.Add(MakeItem(Ifdef{"GPURF_ASSERTIONS",
                       {MakeItem(Net{"chk_holds", Msb("NumBanks"), "",
                                     "I1: the bank holds the id being allocated", ""})}}));
  m.Blank();
  m.Add(MakeItem(ContinuousAssign{"ready", "pend_src_q == '0 && !pend_dst_q && pend_rel_q == '0"}));
  m.Add(MakeItem(ContinuousAssign{"rel_window", "Window'(rel_mask_i >> exempt_i)"}));
  m.Add(MakeItem(Front()));
  m.Blank();
  m.Add(MakeItem(Classify()));
  GenerateFor banks{"gen_operand_banks", "g", "NumSrc", {}};
  banks.items.push_back(MakeItem(ContinuousAssign{"src_bank[g]", "src_entry[g][BankBits-1:0]"}));
  m.Add(MakeItem(std::move(banks)));
  m.Add(MakeItem(ContinuousAssign{"dst_bank", "dst_entry[BankBits-1:0]"}));
  m.Blank();
  m.Add(MakeItem(Schedule()));
  m.Blank();
  m.Add(MakeItem(Answer()));
  m.Blank();
  m.Add(MakeItem(RequestUpdate()));
  m.Blank();
  m.Add(MakeItem(Banks()));
  m.Blank();
  m.Comment("Outputs; the answers of an operand not served this cycle are zero.");
  m.Add(MakeItem(ContinuousAssign{"req_ready_o", "rst_ni && ready"}));
  m.Add(MakeItem(ContinuousAssign{"src_served_o", "rst_ni ? src_served : '0"}));
  m.Add(MakeItem(ContinuousAssign{"src_mapped_o", "rst_ni ? (src_served & src_mapped) : '0"}));
  GenerateFor pack{"gen_src_outputs", "g", "NumSrc", {}};
  pack.items.push_back(MakeItem(ContinuousAssign{PartSelect("src_phys_o", "g*PhysBits", "PhysBits"),
                                                 "(rst_ni && src_served[g]) ? src_phys[g] : '0"}));
  m.Add(MakeItem(std::move(pack)));
  m.Add(MakeItem(ContinuousAssign{"dst_served_o", "rst_ni && dst_served"}));
  m.Add(MakeItem(ContinuousAssign{"dst_alloc_o", "rst_ni && dst_alloc"}));
  m.Add(MakeItem(ContinuousAssign{"dst_phys_o", "(rst_ni && dst_served) ? dst_phys : '0"}));
  m.Add(MakeItem(ContinuousAssign{"free_valid_o", "rst_ni ? free : '0"}));
  GenerateFor fpack{"gen_free_outputs", "g", "NumBanks", {}};
  fpack.items.push_back(
      MakeItem(ContinuousAssign{PartSelect("free_phys_o", "g*PhysBits", "PhysBits"),
                                "(rst_ni && free[g]) ? rd_phys[g] : '0"}));
  m.Add(MakeItem(std::move(fpack)));
  m.Add(MakeItem(ContinuousAssign{"conflict_cycles_o", "conflict_q"}));
  m.Blank();
  m.Add(MakeItem(Assertions()));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(AssertHeaderFile());
  g.files.push_back(top);

  g.ports = RenamingTablePortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
