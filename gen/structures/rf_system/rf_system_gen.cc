#include "gen/structures/rf_system/rf_system_gen.h"

#include <fmt/format.h>

#include <set>
#include <variant>

#include "gen/structures/emit_util.h"
#include "gen/structures/mrf/mrf_gen.h"
#include "gen/structures/orf/orf_gen.h"
#include "gen/structures/rf_system/rf_system_ports.h"
#include "gen/structures/rfc/rfc_gen.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

// Signal stems of the upper levels' counters (cnt_<stem>_q, inc_<stem>), in the order of their
// ports, RfSystemPort::kCntL1Reads on.
const char* const kUpperCounters[] = {"l1_reads",   "l0_reads", "l1_writes", "l0_writes",
                                      "tag_checks", "tag_hits", "writebacks"};
// The MRF's counter outputs (mrf_cnt_<stem>), in the order of their ports,
// RfSystemPort::kCntMrfReads on.
const char* const kMrfCounters[] = {"reads", "writes", "conflicts", "issue_stalls", "wb_stalls"};

std::vector<std::string> ModuleDoc(const RfSystemSpec& s) {
  std::vector<std::string> doc = {
      fmt::format("{}: register-file system of one lane cluster (Gebhart TOCS 2012, 2.1, 4, 5):",
                  s.module_name),
      s.Description() + ".",
      "",
      "Ports (operand slot s of a packed vector at [s*X +: X]):",
      "  issue_*  one warp instruction per cycle into a free operand collector: per slot valid,",
      "           register, level (0 MRF, 1 L1, 2 L0; sw-orf), L1 entry (sw-orf) and dead hint",
      "           (hw-rfc); issue_slot_i is the warp's active slot.",
      "  disp_*   the oldest instruction with all operands, from whichever level held them.",
      "  res_*    one result per cycle: res_mrf_i (sw-orf: also to the MRF; hw-rfc: the warp has",
      "           no slot, straight to the MRF), res_orf_i/res_orf_l0_i/res_orf_entry_i (sw-orf",
      "           ORF target), res_long_i/res_no_l0_i (hw-rfc). mrf-only writes every result to",
      "           the MRF.",
      "  fl_*     deschedule of (warp, slot); hw-rfc holds fl_ready_o low until every live entry",
      "           of the slot is written back; sw-orf invalidates the slot's ORF entries.",
      "  cnt_*    event counters (registered, wrapping): the MRF's, and reads / writes per upper",
      "           level, tag checks, hits and write-backs of the RFC.",
      "",
      "Operands supplied by an upper level at issue wait in the operand buffer (one entry per",
      "collector; the entry index is the tag given to the MRF) and are merged at dispatch with",
      "the operands the MRF collector read. Reads see the state at the start of their issue",
      "cycle. Full contract: gen/structures/rf_system/rf_system_spec.h in the gpurf sources.",
      "Sub-modules: " + s.mrf.module_name +
          (s.hw()   ? ", " + s.rfc.module_name
           : s.sw() ? ", " + s.orf_l1.module_name +
                          (s.has_l0() ? ", " + s.orf_l0.module_name : std::string())
                    : std::string()) +
          ".",
  };
  if (s.registered_reads())
    doc.push_back("ORF reads are registered: the data is captured one cycle after the issue.");
  return doc;
}

struct Builder {
  const RfSystemSpec& s;
  Module m;
  std::vector<std::string> unused;  // inputs and sub-module outputs this hierarchy ignores
  const PortTable port_table = RfSystemPortTable(s);

  void Net(const std::string& name, const std::string& msb, const std::string& comment = "") {
    m.Add(emit::Decl(name, msb, comment));
  }
  void Assign(const std::string& lhs, const std::string& rhs) { m.Add(emit::Assign(lhs, rhs)); }

  void Params() {
    m.params = {
        {"NumCollectors", Int(s.collectors()), "MRF operand collectors = operand-buffer entries",
         true},
        {"Width", Int(s.width), "bits per row", true},
        {"TagWidth", Int(s.tag_width), "instruction tag bits", true},
        {"WarpWidth", Int(s.warp_width), "bits per warp id", true},
        {"RegWidth", Int(s.reg_width), "bits per register id", true},
        {"SlotWidth", Int(s.slot_width), "bits per active slot", true},
        {"EntryWidth", Int(s.entry_width), "bits per ORF entry field", true},
        {"LevelWidth", Int(RfSystemSpec::kLevelBits), "bits per operand level", true},
        {"BufIdxWidth", Int(s.buf_index_width), "bits per operand-buffer index (the MRF tag)",
         true},
        {"CounterWidth", Int(s.counter_width), "bits per event counter", true},
    };
    if (s.hw())
      m.params.insert(m.params.begin(),
                      {"NumActive", Int(s.active_warps), "active-warp slots of the RFC", true});
  }

  void Ports() { m.ports = port_table.Verilog(); }

  void Declarations() {
    m.Comment("Handshakes.");
    Net("issue_fire", "", "an instruction is accepted");
    Net("res_fire", "", "a result is accepted");
    Net("disp_fire", "", "an instruction leaves");
    m.Blank();
    m.Comment("The MRF and its collectors.");
    Net("mrf_issue_ready", "");
    Net("mrf_src_valid", "2", "operands the MRF collector reads");
    Net("mrf_wb_valid", "");
    Net("mrf_wb_ready", "");
    Net("mrf_wb_warp", Msb("WarpWidth"));
    Net("mrf_wb_reg", Msb("RegWidth"));
    Net("mrf_wb_data", Msb("Width"));
    Net("mrf_disp_valid", "");
    Net("mrf_disp_ready", "");
    Net("mrf_disp_tag", Msb("BufIdxWidth"), "operand-buffer entry of the instruction");
    Net("mrf_disp_warp", Msb("WarpWidth"));
    Net("mrf_disp_src_valid", "2");
    Net("mrf_disp_data", "3*Width-1");
    for (const char* c : kMrfCounters)
      Net(fmt::format("mrf_cnt_{}", c), Msb("CounterWidth"));
    m.Blank();
    m.Comment(
        "Operand buffer: one entry per collector, indexed by the tag given to the MRF. It holds\n"
        "the user's tag, the source valid bits" +
        std::string(s.upper() ? " and the operands an upper level supplied at issue." : "."));
    m.Add(
        MakeItem(Function{"SlotOf",
                          {"entry", "operand"},
                          "3 * entry + operand",
                          "Slot of source operand `operand` (0..2: A, B, C) of a buffer entry."}));
    Net("up_valid", "2", "slot s is supplied by an upper level");
    if (s.upper())
      Net("up_data", "3*Width-1", "the upper level's operand of slot s");
    Net("buf_busy_q", Msb("NumCollectors"));
    Net("buf_tag_q", "NumCollectors*TagWidth-1");
    Net("buf_src_valid_q", "NumCollectors*3-1");
    if (s.upper()) {
      Net("buf_up_q", "NumCollectors*3-1");
      Net("buf_data_q", "NumCollectors*3*Width-1");
    }
    Net("buf_alloc", Msb("BufIdxWidth"), "lowest free entry");
    Net("buf_any_free", "");
    Net("buf_hold", "", "the presented instruction still waits for its ORF data");
    Net("sel_tag", Msb("TagWidth"));
    Net("sel_src_valid", "2");
    if (s.upper()) {
      Net("sel_up", "2");
      Net("sel_data", "3*Width-1");
    }
    if (s.registered_reads()) {
      Net("cap_valid_q", "", "last cycle's issue waits for its registered ORF data");
      Net("cap_idx_q", Msb("BufIdxWidth"), "its operand-buffer entry");
      if (s.has_l0())
        Net("cap_l0_q", "2", "slot s reads L0");
    }
    m.Blank();
    m.Comment("Event counters of the upper levels and their increments in this cycle.");
    for (const char* c : kUpperCounters) {
      Net(fmt::format("cnt_{}_q", c), Msb("CounterWidth"));
      Net(fmt::format("inc_{}", c), "2");
    }
    m.Blank();
  }

  void Handshakes() {
    m.Comment("Handshakes: an issue needs a free collector (the buffer then has a free entry).");
    Assign("issue_ready_o", "mrf_issue_ready");
    Assign("issue_fire", "issue_valid_i && issue_ready_o");
    Assign("res_fire", "res_valid_i && res_ready_o");
    Assign("mrf_src_valid", "issue_src_valid_i & ~up_valid");
    m.Blank();
  }

  // sw-orf: the ORF levels, read at issue, written by results, invalidated by deschedules.
  void SwOrf() {
    const bool l0 = s.has_l0();
    m.Comment("Software ORF: each operand names its level; L1/L0 operands are read at issue.");
    Net("src_l1", "2", "slot s is read from L1");
    Net("src_l0", "2", "slot s is read from L0");
    Net("l1_re", "2");
    Net("orf_rslot", "3*SlotWidth-1", "every operand reads its warp's slot");
    Net("l1_rentry", fmt::format("3*{}-1", s.orf_l1.entry_width));
    Net("l1_rdata", "3*Width-1");
    Net("l1_we", "");
    if (l0) {
      Net("l0_re", "2");
      Net("l0_rentry", fmt::format("3*{}-1", s.orf_l0.entry_width));
      Net("l0_rdata", "3*Width-1");
      Net("l0_we", "");
    }
    m.Blank();
    GenerateFor g{"gen_sw_src", "s", "3", {}};
    const std::string lvl = PartSelect("issue_src_level_i", "s*LevelWidth", "LevelWidth");
    g.items.push_back(MakeItem(
        ContinuousAssign{"src_l1[s]", "issue_src_valid_i[s] && (" + lvl + " == LevelWidth'(1))"}));
    g.items.push_back(MakeItem(
        ContinuousAssign{"src_l0[s]", "issue_src_valid_i[s] && (" + lvl + " == LevelWidth'(2))"}));
    g.items.push_back(MakeItem(ContinuousAssign{"l1_re[s]", "issue_fire && src_l1[s]"}));
    g.items.push_back(MakeItem(
        ContinuousAssign{PartSelect("orf_rslot", "s*SlotWidth", "SlotWidth"), "issue_slot_i"}));
    const int ew1 = s.orf_l1.entry_width;
    g.items.push_back(MakeItem(
        ContinuousAssign{PartSelect("l1_rentry", fmt::format("s*{}", ew1), std::to_string(ew1)),
                         fmt::format("issue_src_entry_i[s*EntryWidth +: {}]", ew1)}));
    if (l0) {
      g.items.push_back(MakeItem(ContinuousAssign{"l0_re[s]", "issue_fire && src_l0[s]"}));
      const int ew0 = s.orf_l0.entry_width;
      g.items.push_back(MakeItem(
          ContinuousAssign{PartSelect("l0_rentry", fmt::format("s*{}", ew0), std::to_string(ew0)),
                           s.l0_split ? fmt::format("{}'(s)", ew0) : fmt::format("{}'(0)", ew0)}));
    }
    const std::string up = l0 ? "src_l1[s] || src_l0[s]" : "src_l1[s]";
    g.items.push_back(MakeItem(ContinuousAssign{"up_valid[s]", up}));
    if (s.registered_reads()) {
      g.items.push_back(MakeItem(ContinuousAssign{
          PartSelect("up_data", "s*Width", "Width"),
          l0 ? "cap_l0_q[s] ? l0_rdata[s*Width +: Width] : l1_rdata[s*Width +: Width]"
             : "l1_rdata[s*Width +: Width]"}));
    } else {
      g.items.push_back(MakeItem(ContinuousAssign{
          PartSelect("up_data", "s*Width", "Width"),
          l0 ? "src_l0[s] ? l0_rdata[s*Width +: Width] : l1_rdata[s*Width +: Width]"
             : "l1_rdata[s*Width +: Width]"}));
    }
    m.Add(MakeItem(std::move(g)));
    m.Blank();
    m.Comment("Results: the MRF and/or one ORF level; a deschedule invalidates the slot.");
    Assign("mrf_wb_valid", "res_valid_i && res_mrf_i");
    Assign("mrf_wb_warp", "res_warp_i");
    Assign("mrf_wb_reg", "res_reg_i");
    Assign("mrf_wb_data", "res_data_i");
    Assign("res_ready_o", "mrf_wb_ready");
    Assign("l1_we", "res_fire && res_orf_i && !res_orf_l0_i");
    if (l0)
      Assign("l0_we", "res_fire && res_orf_i && res_orf_l0_i");
    Assign("fl_ready_o", "1'b1");
    m.Blank();
    auto orf = [&](const OrfSpec& o, const std::string& x) {
      std::vector<std::pair<std::string, std::string>> ports = {
          {"clk_i", "clk_i"},
          {"rst_ni", "rst_ni"},
          {"we_i", x + "_we"},
          {"wslot_i", "res_slot_i"},
          {"wentry_i", fmt::format("res_orf_entry_i[{}:0]", o.entry_width - 1)},
          {"wdata_i", "res_data_i"},
          {"re_i", x + "_re"},
          {"rslot_i", "orf_rslot"},
          {"rentry_i", x + "_rentry"},
          {"rdata_o", x + "_rdata"},
          {"inv_i", "fl_valid_i"},
          {"inv_slot_i", "fl_slot_i"}};
      m.Add(MakeItem(Instance{o.module_name, "u_orf_" + x, {}, ports}));
    };
    m.Comment("L1 ORF (" + s.orf_l1.module_name + ").");
    orf(s.orf_l1, "l1");
    if (l0) {
      m.Blank();
      m.Comment("L0 ORF (" + s.orf_l0.module_name + ").");
      orf(s.orf_l0, "l0");
    }
    m.Blank();
    // Inputs sw-orf does not use.
    unused.push_back("issue_src_dead_i");
    unused.push_back("res_long_i");
    unused.push_back("res_no_l0_i");
    unused.push_back("fl_warp_i");
    if (ew1 < s.entry_width) {
      unused.push_back("issue_src_entry_i");
      unused.push_back("res_orf_entry_i");  // the levels use its low bits
    }
    if (!l0)
      unused.push_back("src_l0");  // an L0 operand is misuse without L0 (assertion below)
  }

  // hw-rfc: tag checks at issue, results through the RFC, write-backs and flushes to the MRF.
  void HwRfc() {
    const bool two = s.rfc.two_levels();
    m.Comment("Hardware RFC: every valid operand is looked up at issue; hits are buffered.");
    Net("lu_valid", "2");
    Net("lu_slot", "3*SlotWidth-1");
    Net("lu_last", "2");
    Net("lu_hit", "2");
    Net("lu_l0", "2", two ? "" : "one RFC level: never L0");
    Net("rfc_wr_valid", "");
    Net("rfc_wr_ready", "");
    Net("rfc_fl_valid", "");
    Net("rfc_fl_busy", "");
    Net("rfc_fl_done", "");
    Net("rfc_wb_valid", "");
    Net("rfc_wb_slot", Msb("SlotWidth"));
    Net("rfc_wb_reg", Msb("RegWidth"));
    Net("rfc_wb_data", Msb("Width"));
    Net("rfc_wb_warp", Msb("WarpWidth"), "warp of the write-back's slot");
    Net("fl_accept", "", "the RFC takes the deschedule request");
    Net("fl_started_q", "", "the RFC is flushing the requested slot");
    Net("slot_warp_q", "NumActive*WarpWidth-1", "warp of each slot, for write-backs");
    m.Blank();
    Assign("lu_valid", "{3{issue_fire}} & issue_src_valid_i");
    Assign("lu_slot", "{3{issue_slot_i}}");
    Assign("lu_last", s.hints ? "issue_src_dead_i" : "3'b000");
    Assign("up_valid", "issue_src_valid_i & lu_hit");
    if (!two)
      Assign("lu_l0", "3'b000");
    m.Blank();
    m.Comment(
        "Results: warps without a slot (res_mrf_i) write the MRF directly when the RFC has no\n"
        "write-back waiting; all others go through the RFC.");
    Assign("rfc_wr_valid", "res_valid_i && !res_mrf_i");
    Assign("res_ready_o", "res_mrf_i ? (!rfc_wb_valid && mrf_wb_ready) : rfc_wr_ready");
    Assign("mrf_wb_valid", "rfc_wb_valid || (res_valid_i && res_mrf_i)");
    Assign("mrf_wb_warp", "rfc_wb_valid ? rfc_wb_warp : res_warp_i");
    Assign("mrf_wb_reg", "rfc_wb_valid ? rfc_wb_reg : res_reg_i");
    Assign("mrf_wb_data", "rfc_wb_valid ? rfc_wb_data : res_data_i");
    m.Blank();
    m.Comment("Deschedule: one flush per request; fl_ready_o when it is done.");
    Assign("rfc_fl_valid", "fl_valid_i && !fl_started_q");
    Assign("fl_accept", "rfc_fl_valid && !rfc_fl_busy");
    Assign("fl_ready_o", "rfc_fl_done");
    m.Blank();
    Always mux;
    mux.kind = AlwaysKind::kComb;
    mux.body = {Blocking("rfc_wb_warp", "'0"),
                ForLoop("a", "NumActive",
                        {IfThen(Eq("rfc_wb_slot", Cast("SlotWidth", "a")),
                                {Blocking("rfc_wb_warp", PartSelect("slot_warp_q", "a*WarpWidth",
                                                                    "WarpWidth"))})})};
    m.Add(MakeItem(std::move(mux)));
    m.Blank();
    Always ff{AlwaysKind::kFF, "posedge clk_i or negedge rst_ni", "p_slot_warp", {}};
    ff.body = {IfThen(
        "!rst_ni", {NonBlocking("slot_warp_q", "'0"), NonBlocking("fl_started_q", "1'b0")},
        {IfThen("fl_accept", {NonBlocking("fl_started_q", "1'b1")},
                {IfThen("rfc_fl_done", {NonBlocking("fl_started_q", "1'b0")})}),
         ForLoop("a", "NumActive",
                 {IfThen(And({"fl_accept", Eq("fl_slot_i", Cast("SlotWidth", "a"))}),
                         {NonBlocking(PartSelect("slot_warp_q", "a*WarpWidth", "WarpWidth"),
                                      "fl_warp_i")}),
                  IfThen(And({"res_fire", "!res_mrf_i", Eq("res_slot_i", Cast("SlotWidth", "a"))}),
                         {NonBlocking(PartSelect("slot_warp_q", "a*WarpWidth", "WarpWidth"),
                                      "res_warp_i")})})})};
    m.Add(MakeItem(std::move(ff)));
    m.Blank();
    m.Comment("Hardware RFC (" + s.rfc.module_name + ").");
    std::vector<std::pair<std::string, std::string>> ports = {{"clk_i", "clk_i"},
                                                              {"rst_ni", "rst_ni"},
                                                              {"lu_valid_i", "lu_valid"},
                                                              {"lu_slot_i", "lu_slot"},
                                                              {"lu_reg_i", "issue_src_reg_i"},
                                                              {"lu_last_i", "lu_last"},
                                                              {"lu_hit_o", "lu_hit"}};
    if (two)
      ports.push_back({"lu_l0_o", "lu_l0"});
    ports.push_back({"lu_data_o", "up_data"});
    ports.push_back({"wr_valid_i", "rfc_wr_valid"});
    ports.push_back({"wr_slot_i", "res_slot_i"});
    ports.push_back({"wr_reg_i", "res_reg_i"});
    ports.push_back({"wr_data_i", "res_data_i"});
    ports.push_back({"wr_long_i", "res_long_i"});
    if (two)
      ports.push_back({"wr_no_l0_i", "res_no_l0_i"});
    ports.push_back({"wr_ready_o", "rfc_wr_ready"});
    ports.push_back({"fl_valid_i", "rfc_fl_valid"});
    ports.push_back({"fl_slot_i", "fl_slot_i"});
    ports.push_back({"fl_busy_o", "rfc_fl_busy"});
    ports.push_back({"fl_done_o", "rfc_fl_done"});
    ports.push_back({"wb_valid_o", "rfc_wb_valid"});
    ports.push_back({"wb_slot_o", "rfc_wb_slot"});
    ports.push_back({"wb_reg_o", "rfc_wb_reg"});
    ports.push_back({"wb_data_o", "rfc_wb_data"});
    ports.push_back({"wb_ready_i", "mrf_wb_ready"});
    m.Add(MakeItem(Instance{s.rfc.module_name, "u_rfc", {}, ports}));
    m.Blank();
    unused.push_back("issue_src_level_i");
    unused.push_back("issue_src_entry_i");
    unused.push_back("res_orf_i");
    unused.push_back("res_orf_l0_i");
    unused.push_back("res_orf_entry_i");
    if (!two)
      unused.push_back("res_no_l0_i");
    if (!s.hints)
      unused.push_back("issue_src_dead_i");
  }

  void MrfOnly() {
    m.Comment("Baseline: every operand from the MRF, every result into the MRF.");
    Assign("up_valid", "3'b000");
    Assign("mrf_wb_valid", "res_valid_i");
    Assign("mrf_wb_warp", "res_warp_i");
    Assign("mrf_wb_reg", "res_reg_i");
    Assign("mrf_wb_data", "res_data_i");
    Assign("res_ready_o", "mrf_wb_ready");
    Assign("fl_ready_o", "1'b1");
    m.Blank();
    for (const char* u :
         {"issue_slot_i", "issue_src_level_i", "issue_src_entry_i", "issue_src_dead_i",
          "res_slot_i", "res_mrf_i", "res_orf_i", "res_orf_l0_i", "res_orf_entry_i", "res_long_i",
          "res_no_l0_i", "fl_valid_i", "fl_warp_i", "fl_slot_i", "res_fire"})
      unused.push_back(u);
  }

  void Mrf() {
    m.Comment("Main register file (" + s.mrf.module_name + "): its tag is the buffer entry.");
    m.Add(MakeItem(Instance{s.mrf.module_name,
                            "u_mrf",
                            {},
                            {{"clk_i", "clk_i"},
                             {"rst_ni", "rst_ni"},
                             {"issue_valid_i", "issue_valid_i"},
                             {"issue_ready_o", "mrf_issue_ready"},
                             {"issue_tag_i", "buf_alloc"},
                             {"issue_warp_i", "issue_warp_i"},
                             {"issue_src_valid_i", "mrf_src_valid"},
                             {"issue_src_reg_i", "issue_src_reg_i"},
                             {"wb_valid_i", "mrf_wb_valid"},
                             {"wb_ready_o", "mrf_wb_ready"},
                             {"wb_warp_i", "mrf_wb_warp"},
                             {"wb_reg_i", "mrf_wb_reg"},
                             {"wb_data_i", "mrf_wb_data"},
                             {"disp_valid_o", "mrf_disp_valid"},
                             {"disp_ready_i", "mrf_disp_ready"},
                             {"disp_tag_o", "mrf_disp_tag"},
                             {"disp_warp_o", "mrf_disp_warp"},
                             {"disp_src_valid_o", "mrf_disp_src_valid"},
                             {"disp_data_o", "mrf_disp_data"},
                             {"cnt_reads_o", "mrf_cnt_reads"},
                             {"cnt_writes_o", "mrf_cnt_writes"},
                             {"cnt_conflicts_o", "mrf_cnt_conflicts"},
                             {"cnt_issue_stalls_o", "mrf_cnt_issue_stalls"},
                             {"cnt_wb_stalls_o", "mrf_cnt_wb_stalls"}}}));
    m.Blank();
    unused.push_back("mrf_disp_src_valid");  // the buffer keeps the full source valid bits
  }

  void Buffer() {
    m.Comment("Operand buffer: allocate the lowest free entry, free the dispatched one.");
    Always alloc;
    alloc.kind = AlwaysKind::kComb;
    alloc.body = {Blocking("buf_alloc", "'0"), Blocking("buf_any_free", "1'b0"),
                  ForLoop("k", "NumCollectors",
                          {IfThen(And({"!buf_busy_q[k]", "!buf_any_free"}),
                                  {Blocking("buf_alloc", Cast("BufIdxWidth", "k")),
                                   Blocking("buf_any_free", "1'b1")})})};
    m.Add(MakeItem(std::move(alloc)));
    m.Blank();
    Always busy{AlwaysKind::kFF, "posedge clk_i or negedge rst_ni", "p_buffer_busy", {}};
    Body busy_body = {IfThen(
        "!rst_ni", {NonBlocking("buf_busy_q", "'0")},
        {ForLoop("k", "NumCollectors",
                 {IfThen(And({"issue_fire", Eq("buf_alloc", Cast("BufIdxWidth", "k"))}),
                         {NonBlocking("buf_busy_q[k]", "1'b1")},
                         {IfThen(And({"disp_fire", Eq("mrf_disp_tag", Cast("BufIdxWidth", "k"))}),
                                 {NonBlocking("buf_busy_q[k]", "1'b0")})})})})};
    if (s.registered_reads()) {
      Stmt& top = busy_body[0];
      auto& ifs = std::get<If>(top.node);
      ifs.then_body.push_back(NonBlocking("cap_valid_q", "1'b0"));
      ifs.else_body.push_back(NonBlocking("cap_valid_q", "issue_fire && |up_valid"));
    }
    busy.body = std::move(busy_body);
    m.Add(MakeItem(std::move(busy)));
    m.Blank();
    // Contents: not reset (meaningful only while the entry is busy).
    Body fill = {
        NonBlocking(PartSelect("buf_tag_q", "k*TagWidth", "TagWidth"), "issue_tag_i"),
        NonBlocking(PartSelect("buf_src_valid_q", "SlotOf(k, 0)", "3"), "issue_src_valid_i")};
    if (s.upper())
      fill.push_back(NonBlocking(PartSelect("buf_up_q", "SlotOf(k, 0)", "3"), "up_valid"));
    Body contents = {
        ForLoop("k", "NumCollectors",
                {IfThen(And({"issue_fire", Eq("buf_alloc", Cast("BufIdxWidth", "k"))}), fill)})};
    if (s.upper()) {
      // Operand data: at issue (combinational reads), or one cycle later (registered ORF reads).
      const std::string when = s.registered_reads()
                                   ? And({"cap_valid_q", Eq("cap_idx_q", Cast("BufIdxWidth", "k"))})
                                   : And({"issue_fire", Eq("buf_alloc", Cast("BufIdxWidth", "k"))});
      const std::string up = s.registered_reads() ? "buf_up_q[SlotOf(k, p)]" : "up_valid[p]";
      contents.push_back(ForLoop(
          "k", "NumCollectors",
          {ForLoop("p", "3",
                   {IfThen(And({when, up}),
                           {NonBlocking(PartSelect("buf_data_q", "SlotOf(k, p)*Width", "Width"),
                                        PartSelect("up_data", "p*Width", "Width"))})})}));
    }
    if (s.registered_reads()) {
      Body cap = {NonBlocking("cap_idx_q", "buf_alloc")};
      if (s.has_l0())
        cap.push_back(NonBlocking("cap_l0_q", "src_l0"));
      contents.push_back(IfThen("issue_fire", cap));
    }
    m.Add(MakeItem(Always{AlwaysKind::kFF, "posedge clk_i", "p_buffer_contents", contents}));
    m.Blank();
  }

  void Dispatch() {
    m.Comment("Dispatch: the MRF's oldest complete instruction with its buffered operands.");
    Assign("buf_hold",
           s.registered_reads() ? "cap_valid_q && (cap_idx_q == mrf_disp_tag)" : "1'b0");
    Assign("disp_valid_o", "mrf_disp_valid && !buf_hold");
    Assign("mrf_disp_ready", "disp_ready_i && !buf_hold");
    Assign("disp_fire", "disp_valid_o && disp_ready_i");
    Always sel;
    sel.kind = AlwaysKind::kComb;
    Body pick = {Blocking("sel_tag", PartSelect("buf_tag_q", "k*TagWidth", "TagWidth")),
                 Blocking("sel_src_valid", PartSelect("buf_src_valid_q", "SlotOf(k, 0)", "3"))};
    if (s.upper()) {
      pick.push_back(Blocking("sel_up", PartSelect("buf_up_q", "SlotOf(k, 0)", "3")));
      pick.push_back(
          Blocking("sel_data", PartSelect("buf_data_q", "SlotOf(k, 0)*Width", "3*Width")));
    }
    sel.body = {Blocking("sel_tag", "'0"), Blocking("sel_src_valid", "'0")};
    if (s.upper()) {
      sel.body.push_back(Blocking("sel_up", "'0"));
      sel.body.push_back(Blocking("sel_data", "'0"));
    }
    sel.body.push_back(ForLoop("k", "NumCollectors",
                               {IfThen(Eq("mrf_disp_tag", Cast("BufIdxWidth", "k")), pick)}));
    m.Add(MakeItem(std::move(sel)));
    Assign("disp_tag_o", "sel_tag");
    Assign("disp_warp_o", "mrf_disp_warp");
    Assign("disp_src_valid_o", "sel_src_valid");
    if (s.upper()) {
      GenerateFor g{"gen_disp_data", "p", "3", {}};
      g.items.push_back(MakeItem(ContinuousAssign{
          PartSelect("disp_data_o", "p*Width", "Width"),
          "sel_up[p] ? sel_data[p*Width +: Width] : mrf_disp_data[p*Width +: Width]"}));
      m.Add(MakeItem(std::move(g)));
    } else {
      Assign("disp_data_o", "mrf_disp_data");
    }
    m.Blank();
  }

  void Counters() {
    m.Comment(
        "Event counters: the MRF's own, and this cycle's upper-level events added at the edge.");
    for (size_t i = 0; i < std::size(kMrfCounters); ++i)
      Assign(port_table[RfSystemPort::kCntMrfReads + static_cast<int>(i)].name,
             fmt::format("mrf_cnt_{}", kMrfCounters[i]));
    Always inc;
    inc.kind = AlwaysKind::kComb;
    for (const char* c : kUpperCounters)
      inc.body.push_back(Blocking(fmt::format("inc_{}", c), "'0"));
    Body per;
    auto add = [&](const char* name, const std::string& cond) {
      per.push_back(IfThen(
          cond, {Blocking(fmt::format("inc_{}", name), fmt::format("inc_{} + 3'd1", name))}));
    };
    Body once;
    auto add1 = [&](const char* name, const std::string& cond) {
      once.push_back(IfThen(
          cond, {Blocking(fmt::format("inc_{}", name), fmt::format("inc_{} + 3'd1", name))}));
    };
    if (s.sw()) {
      add("l1_reads", "l1_re[p]");
      if (s.has_l0())
        add("l0_reads", "l0_re[p]");
      add1("l1_writes", "l1_we");
      if (s.has_l0())
        add1("l0_writes", "l0_we");
    } else if (s.hw()) {
      add("l1_reads", "lu_hit[p] && !lu_l0[p]");
      if (s.has_l0())
        add("l0_reads", "lu_hit[p] && lu_l0[p]");
      add("tag_checks", "lu_valid[p]");
      add("tag_hits", "lu_hit[p]");
      const std::string through = "res_fire && !res_mrf_i";
      add1("tag_checks", through);
      if (s.has_l0()) {
        add1("l1_writes", through + " && !res_long_i && res_no_l0_i");
        add1("l0_writes", through + " && !res_long_i && !res_no_l0_i");
      } else {
        add1("l1_writes", through + " && !res_long_i");
      }
      add1("writebacks", "rfc_wb_valid && mrf_wb_ready");
    }
    if (per.empty() && once.empty()) {
      for (const char* c : kUpperCounters)
        Assign(fmt::format("inc_{}", c), "3'b000");
    } else {
      if (!per.empty())
        inc.body.push_back(ForLoop("p", "3", per));
      for (auto& st : once)
        inc.body.push_back(st);
      m.Add(MakeItem(std::move(inc)));
    }
    Always ff{AlwaysKind::kFF, "posedge clk_i or negedge rst_ni", "p_counters", {}};
    Body rst, upd;
    for (const char* c : kUpperCounters) {
      rst.push_back(NonBlocking(fmt::format("cnt_{}_q", c), "'0"));
      upd.push_back(NonBlocking(fmt::format("cnt_{}_q", c),
                                fmt::format("cnt_{0}_q + CounterWidth'(inc_{0})", c)));
    }
    ff.body = {IfThen("!rst_ni", rst, upd)};
    m.Add(MakeItem(std::move(ff)));
    for (size_t i = 0; i < std::size(kUpperCounters); ++i) {
      Assign(port_table[RfSystemPort::kCntL1Reads + static_cast<int>(i)].name,
             fmt::format("cnt_{}_q", kUpperCounters[i]));
    }
    m.Blank();
  }

  void Unused() {
    unused.push_back("buf_any_free");  // read by the assertions only
    m.Comment("Inputs and sub-module outputs this hierarchy does not use.");
    Net("unused_inputs", "");
    Assign(
        "unused_inputs", "^{" + [&] {
          std::string t;
          for (size_t i = 0; i < unused.size(); ++i)
            t += (i ? ", " : "") + unused[i];
          return t;
        }() + "}");
    m.Blank();
  }

  void Assertions() {
    Ifdef d{"GPURF_ASSERTIONS", {}};
    Body checks = {
        Assert("!issue_fire || buf_any_free",
               {Quote("%m: the MRF accepted an issue while the operand buffer is full")})};
    if (s.upper()) {
      checks.push_back(Assert(
          "!issue_fire || (32'(issue_slot_i) < " + Int(s.active_warps) + ")",
          {Quote("%m: issue names slot %0d, there are %0d"), "issue_slot_i", Int(s.active_warps)}));
      checks.push_back(Assert(
          (s.hw() ? "!(res_fire && !res_mrf_i) || (32'(res_slot_i) < "
                  : "!(res_fire && res_orf_i) || (32'(res_slot_i) < ") +
              Int(s.active_warps) + ")",
          {Quote("%m: result names slot %0d, there are %0d"), "res_slot_i", Int(s.active_warps)}));
    }
    if (s.sw()) {
      const std::string lvl = PartSelect("issue_src_level_i", "p*LevelWidth", "LevelWidth");
      const std::string entry = PartSelect("issue_src_entry_i", "p*EntryWidth", "EntryWidth");
      const std::string bad_level =
          s.has_l0() ? lvl + " == LevelWidth'(3)" : "32'(" + lvl + ") >= 2";
      checks.push_back(ForLoop(
          "p", "3",
          {Assert("!(issue_fire && issue_src_valid_i[p] && (" + bad_level + "))",
                  {Quote("%m: operand slot %0d names level %0d, which this hierarchy does not "
                         "have"),
                   "p", lvl}),
           Assert("!l1_re[p] || (32'(" + entry + ") < " + Int(s.l1_entries) + ")",
                  {Quote("%m: operand slot %0d names L1 entry %0d of %0d"), "p", entry,
                   Int(s.l1_entries)})}));
      if (!s.has_l0()) {
        checks.push_back(
            Assert("!(res_fire && res_orf_i && res_orf_l0_i)",
                   {Quote("%m: a result targets L0, which this hierarchy does not have")}));
      }
    }
    d.items.push_back(emit::MisuseCheck(std::move(checks)));
    m.Add(MakeItem(std::move(d)));
  }
};

}  // namespace

GeneratedStructure EmitRfSystem(const RfSystemSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));

  // The sub-modules, generated by their own generators; their files come first (deduplicated:
  // the clock gate and flop arrays may be shared).
  std::vector<GeneratedStructure> subs = {EmitMrf(s.mrf)};
  if (s.hw())
    subs.push_back(EmitRfc(s.rfc));
  if (s.sw()) {
    subs.push_back(EmitOrf(s.orf_l1));
    if (s.has_l0())
      subs.push_back(EmitOrf(s.orf_l0));
  }
  const nlohmann::ordered_json sub_json = AppendSubModules(g, subs);

  g.derived = {{"hierarchy", s.HierarchyName()},
               {"levels", s.levels},
               {"description", s.Description()},
               {"sub_modules", sub_json},
               {"warp_width", s.warp_width},
               {"reg_width", s.reg_width},
               {"slot_width", s.slot_width},
               {"entry_width", s.entry_width},
               {"operand_buffer_entries", s.collectors()},
               {"orf_read_latency", s.registered_reads() ? 1 : 0}};

  // The MRF's black-boxed SRAM banks, for synthesis (kept as macro cells, area from the model).
  if (subs[0].derived.contains("sram_macros"))
    g.derived["sram_macros"] = subs[0].derived["sram_macros"];

  Builder b{s, {}, {}};
  b.m.name = s.module_name;
  b.m.doc = ModuleDoc(s);
  b.Params();
  b.Ports();
  b.Declarations();
  b.Handshakes();
  if (s.sw())
    b.SwOrf();
  else if (s.hw())
    b.HwRfc();
  else
    b.MrfOnly();
  b.Mrf();
  b.Buffer();
  b.Dispatch();
  b.Counters();
  b.Unused();
  b.Assertions();

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(b.m));
  g.files.push_back(top);

  g.ports = b.port_table.Manifest();
  return g;
}

}  // namespace gpurf
