#include "gen/structures/hybrid_system/hybrid_system_gen.h"

#include <fmt/format.h>

#include "gen/structures/emit_util.h"
#include "gen/structures/hybrid_rc/hybrid_rc_gen.h"
#include "gen/structures/hybrid_system/hybrid_system_ports.h"
#include "gen/structures/mrf/mrf_gen.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

std::vector<std::string> ModuleDoc(const HybridSystemSpec& s) {
  return {
      fmt::format("{}: hybrid register-file system of one scheduler (Bailey, Kloosterman,",
                  s.module_name),
      "Mahlke, III and IV-D, Fig. 6): " + s.Description() + ".",
      "",
      "Ports (instruction i of a pair, operand p = 3i+s, packed at [p*X +: X]):",
      "  issue_*  up to two instructions per cycle; every source reads the hybrid-rc at once (RSP",
      "           slot or RC register); RC misses are read from the MRF from the next cycle on.",
      "  disp_*   in-order dispatch, up to two per cycle, with every operand's value.",
      "  res_*    up to two results per cycle into the RSP or the RC (write-allocate); RC victims",
      "           go through the write-back FIFO to the MRF.",
      "  xf_*     RSP fills (read allocation, the MRF's value through the RC) and live-outs.",
      "  fl_*     warp exit / drain: ready when queue, transfer and write-back FIFO are empty.",
      "Full contract: gen/structures/hybrid_system/hybrid_system_spec.h in the gpurf sources.",
      "Sub-modules: " + s.mrf.module_name + ", " + s.rc.module_name + ".",
  };
}

// Field `f` (width `w`) of element `i` of a packed vector.
std::string F(const std::string& vec, const std::string& i, const std::string& w) {
  return PartSelect(vec, "(" + i + ")*" + w, w);
}

struct Builder {
  const HybridSystemSpec& s;
  Module m;
  const PortTable port_table = HybridSystemPortTable(s);

  void Net(const std::string& name, const std::string& msb, const std::string& comment = "") {
    m.Add(emit::Decl(name, msb, comment));
  }
  void Assign(const std::string& lhs, const std::string& rhs) { m.Add(emit::Assign(lhs, rhs)); }

  void Params() {
    m.params = {
        {"Width", Int(s.width), "data bits per register slice", true},
        {"TagWidth", Int(s.tag_width), "instruction tag bits", true},
        {"WarpWidth", Int(s.warp_width), "bits per warp id", true},
        {"RegWidth", Int(s.reg_width), "bits per register name", true},
        {"SlotWidth", Int(s.slot_width), "bits per RSP slot", true},
        {"QueueEntries", Int(s.queue), "instruction-queue entries", true},
        {"QIdxWidth", Int(s.qidx_width), "bits per queue index", true},
        {"MrfTagWidth", Int(s.mrf_tag_width), "MRF tag: queue entry, or QueueEntries = the fill",
         true},
        {"WbqEntries", Int(s.wbq), "write-back FIFO entries", true},
        {"WbqIdxWidth", Int(s.wbq_idx_width), "bits per FIFO index", true},
        {"WbqCntWidth", Int(s.wbq_cnt_width), "bits of the FIFO count", true},
    };
  }

  void Declarations() {
    m.Comment("Handshakes.");
    Net("issue_fire", "", "the offered instructions enter the queue");
    Net("res_fire", "", "the offered results are written");
    Net("xf_accept", "", "a transfer is accepted");
    Net("disp_fire", "1", "lane l leaves");
    Net("hold", "", "an MRF read waits for the write-back FIFO: results and transfers wait");
    m.Blank();
    m.Comment("Instruction queue (a ring, head_q the oldest).");
    Net("q_valid_q", Msb("QueueEntries"));
    Net("q_sent_q", Msb("QueueEntries"), "no MRF read outstanding to send");
    Net("q_tag_q", "QueueEntries*TagWidth-1");
    Net("q_warp_q", "QueueEntries*WarpWidth-1");
    Net("q_src_valid_q", "QueueEntries*3-1");
    Net("q_have_q", "QueueEntries*3-1", "operand value present (or no operand)");
    Net("q_reg_q", "QueueEntries*3*RegWidth-1");
    Net("q_data_q", "QueueEntries*3*Width-1");
    Net("head_q", Msb("QIdxWidth"));
    Net("tail_q", Msb("QIdxWidth"));
    Net("count_q", "QIdxWidth");
    Net("q_cand", Msb("QIdxWidth"), "oldest entry with an unsent MRF read");
    Net("q_cand_found", "");
    Net("idx1", Msb("QIdxWidth"), "entry after the head");
    Net("tail1", Msb("QIdxWidth"), "entry after the tail");
    m.Blank();
    m.Comment("Write-back FIFO in front of the MRF's write port.");
    Net("wbq_warp_q", "WbqEntries*WarpWidth-1");
    Net("wbq_reg_q", "WbqEntries*RegWidth-1");
    Net("wbq_data_q", "WbqEntries*Width-1");
    Net("wbq_head_q", Msb("WbqIdxWidth"));
    Net("wbq_count_q", Msb("WbqCntWidth"));
    m.Blank();
    m.Comment("Fill engine: 0 idle, 1 MRF read to send, 2 waiting for the MRF's value.");
    Net("xf_state_q", "1");
    Net("xf_slot_q", Msb("SlotWidth"));
    Net("xf_warp_q", Msb("WarpWidth"));
    Net("xf_reg_q", Msb("RegWidth"));
    Net("snoop_valid_q", "", "the register was written back since the fill was accepted");
    Net("snoop_data_q", Msb("Width"), "the newest such value");
    Net("fill_apply", "", "the MRF returns the fill's value: the fill is done this cycle");
    Net("liveout", "", "an accepted live-out goes to the hybrid-rc");
    m.Blank();
    m.Comment("Hybrid-rc ports.");
    Net("rc_rd_valid", "5");
    Net("rc_rd_warp", "6*WarpWidth-1");
    Net("rc_rd_hit", "5");
    Net("rc_rd_data", "6*Width-1");
    Net("rc_wr_valid", "1");
    Net("rc_xf_valid", "");
    Net("rc_xf_op", "");
    Net("rc_xf_slot", Msb("SlotWidth"));
    Net("rc_xf_warp", Msb("WarpWidth"));
    Net("rc_xf_reg", Msb("RegWidth"));
    Net("rc_xf_data", Msb("Width"));
    Net("rc_xf_hit", "");
    Net("rc_wb_valid", "2");
    Net("rc_wb_warp", "3*WarpWidth-1");
    Net("rc_wb_reg", "3*RegWidth-1");
    Net("rc_wb_data", "3*Width-1");
    m.Blank();
    m.Comment("MRF ports.");
    Net("mrf_issue_valid", "");
    Net("mrf_issue_ready", "");
    Net("mrf_issue_tag", Msb("MrfTagWidth"));
    Net("mrf_issue_warp", Msb("WarpWidth"));
    Net("mrf_issue_src_valid", "2");
    Net("mrf_issue_src_reg", "3*RegWidth-1");
    Net("mrf_fire", "");
    Net("mrf_want", "", "an MRF read is waiting to be sent");
    Net("mrf_wb_valid", "");
    Net("mrf_wb_ready", "");
    Net("mrf_disp_valid", "");
    Net("mrf_disp_tag", Msb("MrfTagWidth"));
    Net("mrf_disp_warp", Msb("WarpWidth"));
    Net("mrf_disp_src_valid", "2");
    Net("mrf_disp_data", "3*Width-1");
    for (const char* c : {"reads", "writes", "conflicts", "issue_stalls", "wb_stalls"})
      Net(fmt::format("mrf_cnt_{}", c), Msb("32"));
    m.Blank();
  }

  void Handshakes() {
    m.Comment(
        "An MRF read may be sent only when every write-back queued before it reaches the MRF no\n"
        "later than this edge (at most one FIFO entry: the head, written now). While one waits,\n"
        "results and transfers are held so that the FIFO drains.");
    Assign("mrf_want", "xf_state_q == 2'd1 || q_cand_found");
    Assign("hold", "mrf_want && (wbq_count_q > WbqCntWidth'(1))");
    Assign("issue_ready_o", "rst_ni && (count_q <= (QIdxWidth+1)'(QueueEntries - 2))");
    Assign("issue_fire", "issue_valid_i[0] && issue_ready_o");
    Assign("res_ready_o", "rst_ni && !hold && (wbq_count_q <= WbqCntWidth'(WbqEntries - 3))");
    Assign("res_fire", "(res_valid_i[0] || res_valid_i[1]) && res_ready_o");
    Assign("xf_ready_o", "rst_ni && !hold && xf_state_q == 2'd0");
    Assign("xf_accept", "xf_valid_i && xf_ready_o");
    Assign("liveout", "xf_accept && xf_op_i");
    Assign("fill_apply",
           "xf_state_q == 2'd2 && mrf_disp_valid && mrf_disp_tag == MrfTagWidth'(QueueEntries)");
    Assign("fl_ready_o", "rst_ni && count_q == '0 && xf_state_q == 2'd0 && wbq_count_q == '0");
    m.Blank();
  }

  void HybridRc() {
    m.Comment("Hybrid RC + RSP (" + s.rc.module_name +
              "): the issue's operands, the results, the transfers.");
    GenerateFor g{"gen_rc_reads", "p", "6", {}};
    g.items.push_back(MakeItem(ContinuousAssign{
        "rc_rd_valid[p]", "issue_fire && issue_valid_i[p/3] && issue_src_valid_i[p]"}));
    g.items.push_back(
        MakeItem(ContinuousAssign{PartSelect("rc_rd_warp", "p*WarpWidth", "WarpWidth"),
                                  PartSelect("issue_warp_i", "(p/3)*WarpWidth", "WarpWidth")}));
    m.Add(MakeItem(std::move(g)));
    Assign("rc_wr_valid", "res_ready_o ? res_valid_i : 2'b00");
    Assign("rc_xf_valid", "liveout || fill_apply");
    Assign("rc_xf_op", "!fill_apply");
    Assign("rc_xf_slot", "fill_apply ? xf_slot_q : xf_slot_i");
    Assign("rc_xf_warp", "fill_apply ? xf_warp_q : xf_warp_i");
    Assign("rc_xf_reg", "fill_apply ? xf_reg_q : xf_reg_i");
    Assign("rc_xf_data", "snoop_valid_q ? snoop_data_q : mrf_disp_data[Width-1:0]");
    m.Add(MakeItem(Instance{s.rc.module_name,
                            "u_rc",
                            {},
                            {{"clk_i", "clk_i"},
                             {"rst_ni", "rst_ni"},
                             {"rd_valid_i", "rc_rd_valid"},
                             {"rd_rsp_i", "issue_src_rsp_i"},
                             {"rd_slot_i", "issue_src_slot_i"},
                             {"rd_warp_i", "rc_rd_warp"},
                             {"rd_reg_i", "issue_src_reg_i"},
                             {"rd_last_i", "issue_src_last_i"},
                             {"wr_valid_i", "rc_wr_valid"},
                             {"wr_rsp_i", "res_rsp_i"},
                             {"wr_slot_i", "res_slot_i"},
                             {"wr_warp_i", "res_warp_i"},
                             {"wr_reg_i", "res_reg_i"},
                             {"wr_data_i", "res_data_i"},
                             {"xf_valid_i", "rc_xf_valid"},
                             {"xf_op_i", "rc_xf_op"},
                             {"xf_slot_i", "rc_xf_slot"},
                             {"xf_warp_i", "rc_xf_warp"},
                             {"xf_reg_i", "rc_xf_reg"},
                             {"xf_data_i", "rc_xf_data"},
                             {"rd_hit_o", "rc_rd_hit"},
                             {"rd_data_o", "rc_rd_data"},
                             {"xf_hit_o", "rc_xf_hit"},
                             {"wb_valid_o", "rc_wb_valid"},
                             {"wb_warp_o", "rc_wb_warp"},
                             {"wb_reg_o", "rc_wb_reg"},
                             {"wb_data_o", "rc_wb_data"}}}));
    m.Blank();
  }

  void Mrf() {
    m.Comment(
        "MRF read requests: the fill's first, else the oldest queued instruction with RC misses\n"
        "(IV-D: a miss reaches the MRF the cycle after its RC lookup).");
    Always cand{AlwaysKind::kComb, "", "p_mrf_cand", {}};
    cand.body = {
        Blocking("q_cand", "'0"),
        Blocking("q_cand_found", "1'b0"),
        ForLoop(
            "k", "QueueEntries",
            {IfThen(
                "!q_cand_found && 32'(k) < 32'(count_q) && !q_sent_q[head_q + QIdxWidth'(k)]",
                {Blocking("q_cand", "head_q + QIdxWidth'(k)"), Blocking("q_cand_found", "1'b1")})}),
    };
    m.Add(MakeItem(std::move(cand)));
    Assign("mrf_issue_valid", "rst_ni && mrf_want && (wbq_count_q <= WbqCntWidth'(1))");
    Assign("mrf_issue_tag",
           "xf_state_q == 2'd1 ? MrfTagWidth'(QueueEntries) : MrfTagWidth'(q_cand)");
    Assign("mrf_issue_warp",
           "xf_state_q == 2'd1 ? xf_warp_q : " + F("q_warp_q", "q_cand", "WarpWidth"));
    Assign("mrf_issue_src_valid", "xf_state_q == 2'd1 ? 3'b001 : (" +
                                      F("q_src_valid_q", "q_cand", "3") + " & ~" +
                                      F("q_have_q", "q_cand", "3") + ")");
    Assign("mrf_issue_src_reg", "xf_state_q == 2'd1 ? {{(2*RegWidth){1'b0}}, xf_reg_q} : " +
                                    F("q_reg_q", "q_cand", "3*RegWidth"));
    Assign("mrf_fire", "mrf_issue_valid && mrf_issue_ready");
    Assign("mrf_wb_valid", "wbq_count_q != '0");
    m.Add(MakeItem(Instance{s.mrf.module_name,
                            "u_mrf",
                            {},
                            {{"clk_i", "clk_i"},
                             {"rst_ni", "rst_ni"},
                             {"issue_valid_i", "mrf_issue_valid"},
                             {"issue_ready_o", "mrf_issue_ready"},
                             {"issue_tag_i", "mrf_issue_tag"},
                             {"issue_warp_i", "mrf_issue_warp"},
                             {"issue_src_valid_i", "mrf_issue_src_valid"},
                             {"issue_src_reg_i", "mrf_issue_src_reg"},
                             {"wb_valid_i", "mrf_wb_valid"},
                             {"wb_ready_o", "mrf_wb_ready"},
                             {"wb_warp_i", F("wbq_warp_q", "wbq_head_q", "WarpWidth")},
                             {"wb_reg_i", F("wbq_reg_q", "wbq_head_q", "RegWidth")},
                             {"wb_data_i", F("wbq_data_q", "wbq_head_q", "Width")},
                             {"disp_valid_o", "mrf_disp_valid"},
                             {"disp_ready_i", "1'b1"},
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
  }

  void Dispatch() {
    m.Comment("In-order dispatch: the head (lane 0) and the entry after it (lane 1).");
    Assign("idx1", "head_q + QIdxWidth'(1)");
    Assign("tail1", "tail_q + QIdxWidth'(1)");
    Net("lane0", "", "the head has all its operands");
    Assign("lane0", "rst_ni && q_valid_q[head_q] && &" + F("q_have_q", "head_q", "3"));
    Assign("disp_valid_o[0]", "lane0");
    Assign("disp_valid_o[1]", "lane0 && q_valid_q[idx1] && &" + F("q_have_q", "idx1", "3"));
    Assign("disp_fire", "disp_ready_i ? disp_valid_o : 2'b00");
    Assign("disp_tag_o", "{" + F("q_tag_q", "idx1", "TagWidth") + ", " +
                             F("q_tag_q", "head_q", "TagWidth") + "}");
    Assign("disp_warp_o", "{" + F("q_warp_q", "idx1", "WarpWidth") + ", " +
                              F("q_warp_q", "head_q", "WarpWidth") + "}");
    Assign("disp_src_valid_o",
           "{" + F("q_src_valid_q", "idx1", "3") + ", " + F("q_src_valid_q", "head_q", "3") + "}");
    Assign("disp_data_o", "{" + F("q_data_q", "idx1", "3*Width") + ", " +
                              F("q_data_q", "head_q", "3*Width") + "}");
    m.Blank();
  }

  // The queue's register update: dispatch frees, issue allocates, the MRF returns values.
  void Queue() {
    m.Comment("Queue update.");
    Body rst = {NonBlocking("q_valid_q", "'0"),     NonBlocking("q_sent_q", "'0"),
                NonBlocking("q_tag_q", "'0"),       NonBlocking("q_warp_q", "'0"),
                NonBlocking("q_src_valid_q", "'0"), NonBlocking("q_have_q", "'0"),
                NonBlocking("q_reg_q", "'0"),       NonBlocking("q_data_q", "'0"),
                NonBlocking("head_q", "'0"),        NonBlocking("tail_q", "'0"),
                NonBlocking("count_q", "'0")};
    Body upd;
    upd.push_back(
        IfThen("mrf_fire && xf_state_q != 2'd1", {NonBlocking("q_sent_q[q_cand]", "1'b1")}));
    upd.push_back(IfThen(
        "mrf_disp_valid && mrf_disp_tag != MrfTagWidth'(QueueEntries)",
        {ForLoop(
            "s", "3",
            {IfThen("mrf_disp_src_valid[s]",
                    {NonBlocking("q_have_q[3*32'(mrf_disp_tag) + s]", "1'b1"),
                     NonBlocking(PartSelect("q_data_q", "(3*32'(mrf_disp_tag) + s)*Width", "Width"),
                                 PartSelect("mrf_disp_data", "s*Width", "Width"))})})}));
    upd.push_back(IfThen("disp_fire[0]", {NonBlocking("q_valid_q[head_q]", "1'b0")}));
    upd.push_back(IfThen("disp_fire[1]", {NonBlocking("q_valid_q[idx1]", "1'b0")}));
    Body alloc;
    for (int i = 0; i < 2; ++i) {
      const std::string e = i == 0 ? "tail_q" : "tail1";
      const std::string ops = fmt::format("{}", 3 * i);
      Body b = {
          NonBlocking(fmt::format("q_valid_q[{}]", e), "1'b1"),
          NonBlocking(F("q_tag_q", e, "TagWidth"), F("issue_tag_i", Int(i), "TagWidth")),
          NonBlocking(F("q_warp_q", e, "WarpWidth"), F("issue_warp_i", Int(i), "WarpWidth")),
          NonBlocking(F("q_src_valid_q", e, "3"), PartSelect("issue_src_valid_i", ops, "3")),
          NonBlocking(F("q_have_q", e, "3"),
                      fmt::format("~issue_src_valid_i[{0}+:3] | rc_rd_hit[{0}+:3]", 3 * i)),
          NonBlocking(F("q_sent_q", e, "1"),
                      fmt::format("&(~issue_src_valid_i[{0}+:3] | rc_rd_hit[{0}+:3])", 3 * i)),
          NonBlocking(F("q_reg_q", e, "3*RegWidth"),
                      PartSelect("issue_src_reg_i", Int(3 * i) + "*RegWidth", "3*RegWidth")),
          NonBlocking(F("q_data_q", e, "3*Width"),
                      PartSelect("rc_rd_data", Int(3 * i) + "*Width", "3*Width")),
      };
      alloc.push_back(i == 0 ? IfThen("1'b1", b) : IfThen("issue_valid_i[1]", b));
    }
    upd.push_back(IfThen("issue_fire", alloc));
    upd.push_back(
        NonBlocking("head_q", "head_q + QIdxWidth'(disp_fire[0]) + QIdxWidth'(disp_fire[1])"));
    upd.push_back(NonBlocking(
        "tail_q", "tail_q + (issue_fire ? QIdxWidth'(1) + QIdxWidth'(issue_valid_i[1]) : '0)"));
    upd.push_back(
        NonBlocking("count_q",
                    "count_q + (issue_fire ? (QIdxWidth+1)'(1) + (QIdxWidth+1)'(issue_valid_i[1]) "
                    ": '0) - (QIdxWidth+1)'(disp_fire[0]) - (QIdxWidth+1)'(disp_fire[1])"));
    m.Add(MakeItem(Always{AlwaysKind::kFF,
                          "posedge clk_i or negedge rst_ni",
                          "p_queue",
                          {IfThen("!rst_ni", rst, upd)}}));
    m.Blank();
  }

  void WriteBackFifo() {
    m.Comment(
        "Write-back FIFO: the hybrid-rc's write-backs of a cycle enter in program order (channel\n"
        "2, the transfer's, then the writes' 0 and 1); the head goes to the MRF.");
    Net("wbq_pop", "", "the head is written into the MRF");
    Net("wbq_base", Msb("WbqCntWidth"), "entries left after the pop");
    Net("wbq_at", "3*WbqIdxWidth-1", "FIFO position of channel c");
    Assign("wbq_pop", "mrf_wb_valid && mrf_wb_ready");
    Assign("wbq_base", "wbq_count_q - WbqCntWidth'(wbq_pop)");
    const std::string first = "wbq_head_q + WbqIdxWidth'(wbq_pop) + WbqIdxWidth'(wbq_base)";
    Assign(F("wbq_at", "2", "WbqIdxWidth"), first);
    Assign(F("wbq_at", "0", "WbqIdxWidth"), first + " + WbqIdxWidth'(rc_wb_valid[2])");
    Assign(F("wbq_at", "1", "WbqIdxWidth"),
           first + " + WbqIdxWidth'(rc_wb_valid[2]) + WbqIdxWidth'(rc_wb_valid[0])");
    Body rst = {NonBlocking("wbq_warp_q", "'0"), NonBlocking("wbq_reg_q", "'0"),
                NonBlocking("wbq_data_q", "'0"), NonBlocking("wbq_head_q", "'0"),
                NonBlocking("wbq_count_q", "'0")};
    Body upd;
    for (int c : {2, 0, 1}) {
      const std::string at = F("wbq_at", Int(c), "WbqIdxWidth");
      upd.push_back(IfThen(
          fmt::format("rc_wb_valid[{}]", c),
          {NonBlocking(F("wbq_warp_q", at, "WarpWidth"), F("rc_wb_warp", Int(c), "WarpWidth")),
           NonBlocking(F("wbq_reg_q", at, "RegWidth"), F("rc_wb_reg", Int(c), "RegWidth")),
           NonBlocking(F("wbq_data_q", at, "Width"), F("rc_wb_data", Int(c), "Width"))}));
    }
    upd.push_back(NonBlocking("wbq_head_q", "wbq_head_q + WbqIdxWidth'(wbq_pop)"));
    upd.push_back(NonBlocking("wbq_count_q",
                              "wbq_base + WbqCntWidth'(rc_wb_valid[0]) + "
                              "WbqCntWidth'(rc_wb_valid[1]) + WbqCntWidth'(rc_wb_valid[2])"));
    m.Add(MakeItem(Always{AlwaysKind::kFF,
                          "posedge clk_i or negedge rst_ni",
                          "p_wbq",
                          {IfThen("!rst_ni", rst, upd)}}));
    m.Blank();
  }

  void FillEngine() {
    m.Comment(
        "Fill engine: accept, send the MRF read, present the fill when the value returns. A\n"
        "write-back of the register meanwhile (an eviction) is newer than the MRF's copy.");
    Body rst = {NonBlocking("xf_state_q", "'0"),      NonBlocking("xf_slot_q", "'0"),
                NonBlocking("xf_warp_q", "'0"),       NonBlocking("xf_reg_q", "'0"),
                NonBlocking("snoop_valid_q", "1'b0"), NonBlocking("snoop_data_q", "'0")};
    Body upd = {
        IfThen("xf_accept && !xf_op_i",
               {NonBlocking("xf_state_q", "2'd1"), NonBlocking("xf_slot_q", "xf_slot_i"),
                NonBlocking("xf_warp_q", "xf_warp_i"), NonBlocking("xf_reg_q", "xf_reg_i"),
                NonBlocking("snoop_valid_q", "1'b0")}),
        IfThen("xf_state_q == 2'd1 && mrf_fire", {NonBlocking("xf_state_q", "2'd2")}),
        IfThen("fill_apply", {NonBlocking("xf_state_q", "2'd0")}),
    };
    for (int c : {2, 0, 1}) {
      upd.push_back(IfThen(
          fmt::format("xf_state_q != 2'd0 && !fill_apply && rc_wb_valid[{0}] && {1} == xf_warp_q "
                      "&& {2} == xf_reg_q",
                      c, F("rc_wb_warp", Int(c), "WarpWidth"), F("rc_wb_reg", Int(c), "RegWidth")),
          {NonBlocking("snoop_valid_q", "1'b1"),
           NonBlocking("snoop_data_q", F("rc_wb_data", Int(c), "Width"))}));
    }
    m.Add(MakeItem(Always{AlwaysKind::kFF,
                          "posedge clk_i or negedge rst_ni",
                          "p_fill",
                          {IfThen("!rst_ni", rst, upd)}}));
    m.Blank();
  }

  void Unused() {
    m.Comment("Inputs and sub-module outputs the glue does not use.");
    Net("unused_inputs", "");
    Assign("unused_inputs",
           "^{fl_valid_i, res_fire, rc_xf_hit, mrf_disp_warp, mrf_cnt_reads, mrf_cnt_writes, "
           "mrf_cnt_conflicts, mrf_cnt_issue_stalls, mrf_cnt_wb_stalls, tail1}");
    m.Blank();
  }

  void Assertions() {
    Ifdef d{"GPURF_ASSERTIONS", {}};
    Body checks = {
        Assert("!(issue_valid_i[1] && !issue_valid_i[0])",
               {Quote("%m: instruction 1 offered without instruction 0")}),
        Assert("wbq_count_q <= WbqCntWidth'(WbqEntries)",
               {Quote("%m: the write-back FIFO overflowed")}),
        Assert("!mrf_wb_valid || mrf_wb_ready",
               {Quote("%m: the MRF refused a write-back (it must be write-priority)")}),
        Assert(
            "!(mrf_disp_valid && mrf_disp_tag == MrfTagWidth'(QueueEntries)) || xf_state_q == 2'd2",
            {Quote("%m: a fill value returned with no fill waiting")}),
    };
    d.items.push_back(emit::MisuseCheck(std::move(checks)));
    m.Add(MakeItem(std::move(d)));
  }
};

}  // namespace

GeneratedStructure EmitHybridSystem(const HybridSystemSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  std::vector<GeneratedStructure> subs = {EmitMrf(s.mrf), EmitHybridRc(s.rc)};
  const nlohmann::ordered_json sub_json = AppendSubModules(g, subs);
  g.derived = {{"organization", HybridRcSpec::OrganizationName(s.rc.organization)},
               {"description", s.Description()},
               {"sub_modules", sub_json},
               {"queue_entries", s.queue},
               {"writeback_fifo_entries", s.wbq},
               {"mrf_tag_width", s.mrf_tag_width}};
  if (subs[0].derived.contains("sram_macros"))
    g.derived["sram_macros"] = subs[0].derived["sram_macros"];

  Builder b{s, {}};
  b.m.name = s.module_name;
  b.m.doc = ModuleDoc(s);
  b.Params();
  b.m.ports = b.port_table.Verilog();
  b.Declarations();
  b.Handshakes();
  b.HybridRc();
  b.Mrf();
  b.Dispatch();
  b.Queue();
  b.WriteBackFifo();
  b.FillEngine();
  b.Unused();
  b.Assertions();

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(b.m));
  g.files.push_back(top);
  g.ports = b.port_table.Manifest();
  return g;
}

}  // namespace gpurf
