#include "gen/structures/renaming_system/renaming_system_gen.h"

#include <fmt/format.h>

#include <set>

#include "gen/structures/availability_vectors/availability_vectors_gen.h"
#include "gen/structures/cta_throttle/cta_throttle_gen.h"
#include "gen/structures/emit_util.h"
#include "gen/structures/mrf/mrf_gen.h"
#include "gen/structures/release_flag_cache/release_flag_cache_gen.h"
#include "gen/structures/renaming_system/renaming_system_ports.h"
#include "gen/structures/renaming_table/renaming_table_gen.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

std::vector<std::string> ModuleDoc(const RenamingSystemSpec& s) {
  return {
      fmt::format("{}: register-file system of register renaming (Jeon MICRO 2015, 5-8):",
                  s.module_name),
      s.Description() + ".",
      "",
      "Ports:",
      "  req_*    one request per cycle: instr (sources, destination, pir flags by PC and",
      "           position), release (pbr list) or exit (the warp's mappings are released).",
      "  fill_*   a decoded pir fills the release flag cache after req_flag_miss_o.",
      "  disp_*   the oldest instruction with its operands read at their physical rows, and the",
      "           physical register of its destination.",
      "  res_*    a result, written at the physical register the dispatch named.",
      "  launch_*, cta_exit_*  CTA slots of the throttle.",
      "",
      "A request is renamed by the renaming table (one stage before the MRF read); a first",
      "write maps the spare free register of the destination's bank, which the availability",
      "vector refills while nothing renamed is in flight. Full contract:",
      "gen/structures/renaming_system/renaming_system_spec.h in the gpurf sources.",
      "Sub-modules: " + s.mrf.module_name + ", " + s.table.module_name + ", " +
          s.avail.module_name + ", " + s.flags.module_name + ", " + s.throttle.module_name + ".",
  };
}

struct Builder {
  const RenamingSystemSpec& s;
  Module m;
  std::vector<std::string> unused;  // sub-module outputs the top ignores
  const PortTable port_table = RenamingSystemPortTable(s);

  void Net(const std::string& name, const std::string& msb, const std::string& comment = "") {
    m.Add(emit::Decl(name, msb, comment));
  }
  void Assign(const std::string& lhs, const std::string& rhs) { m.Add(emit::Assign(lhs, rhs)); }

  void Params() {
    m.params = {
        {"TagWidth", Int(s.tag_width), "instruction tag bits", true},
        {"WarpBits", Int(s.warp_bits), "bits per warp id", true},
        {"RegBits", Int(s.reg_bits), "bits per architected register", true},
        {"NumRegs", Int(s.regs), "architected registers per thread", true},
        {"PhysBits", Int(s.phys_bits), "bits per physical register id", true},
        {"IdBits", Int(s.avail.id_bits), "bits per availability-vector id", true},
        {"ExemptBase", Int(s.exempt_base), "warps x exempt: vector id a is physical ExemptBase+a",
         true},
        {"NumExempt", Int(s.exempt), "renaming-exempt registers", true},
        {"NumBanks", Int(s.banks), "MRF banks = availability vectors", true},
        {"BankBits", Int(s.avail.bank_bits), "bits per bank index", true},
        {"CountBits", Int(s.avail.count_bits), "bits per free count", true},
        {"NumTableBanks", Int(s.table.banks), "renaming-table banks (free ports)", true},
        {"NumCtas", Int(s.ctas), "CTA slots", true},
        {"WarpsPerCta", Int(s.warps_per_cta), "warps of one CTA slot", true},
        {"SlotBits", Int(s.throttle.slot_bits), "bits per CTA slot", true},
        {"NeedBits", Int(s.throttle.need_bits), "bits per launch need", true},
        {"PcBits", Int(s.flags.pc_bits), "bits per PC", true},
        {"Group", Int(s.group), "instructions per pir", true},
        {"GroupBits", Int(s.group_bits), "bits per position in the group", true},
        {"Width", Int(s.width), "bits per MRF row", true},
        {"NumCollectors", Int(s.collectors()), "MRF operand collectors = entries", true},
        {"BufIdxWidth", Int(s.buf_index_width), "bits per entry index (the MRF tag)", true},
    };
  }

  void Declarations() {
    m.Comment("Request gate.");
    Net("is_instr", "", "the request is an instr");
    Net("req_fire", "", "the request is accepted");
    Net("instr_fire", "", "an instr is accepted");
    Net("req_cta", "SlotBits-1", "CTA slot of the request's warp");
    Net("req_dst_bank", "BankBits-1", "the destination's (compiler's) bank");
    Net("req_dst_ren", "", "the destination is renamed (not exempt)");
    Net("flags_ok", "", "no pir, or its flags hit");
    Net("spare_ok", "", "no destination, or a spare of its bank is held");
    Net("instr_go", "", "an offered instr passes every gate but the throttle's grant");
    Net("rel_bits", "2", "release flags of the sources (pir)");
    m.Blank();
    m.Comment("Release flag cache.");
    Net("fc_lk_valid", "");
    Net("fc_hit", "");
    Net("fc_miss", "");
    Net("fc_flags", "3*Group-1");
    m.Blank();
    m.Comment("Renaming table.");
    Net("rt_ready", "", "the table is idle");
    Net("rt_dst_phys", "PhysBits-1", "the spare of the destination's bank, as a physical id");
    Net("rt_src_served", "2");
    Net("rt_src_mapped", "2");
    Net("rt_src_phys", "3*PhysBits-1");
    Net("rt_dst_served", "");
    Net("rt_dst_alloc", "");
    Net("rt_dst_phys_out", "PhysBits-1");
    Net("rt_free_valid", "NumTableBanks-1");
    Net("rt_free_phys", "NumTableBanks*PhysBits-1");
    Net("cur_warp", "WarpBits-1", "warp of the request the table serves");
    Net("cur_cta", "SlotBits-1");
    Net("cur_dst_bank", "BankBits-1");
    Net("warp_q", "WarpBits-1");
    Net("dst_bank_q", "BankBits-1");
    Net("dst_ren_q", "");
    Net("cur_dst_ren", "");
    m.Blank();
    m.Comment("Spare free register per bank, from the availability vectors.");
    Net("spare_valid_q", "NumBanks-1");
    Net("spare_id_q", "NumBanks*IdBits-1");
    Net("drained", "", "nothing renamed is in the stage or the MRF");
    Net("av_alloc_req", "NumBanks-1");
    Net("av_grant", "NumBanks-1");
    Net("av_id", "NumBanks*IdBits-1");
    Net("av_rel_id", "NumTableBanks*IdBits-1");
    m.Blank();
    m.Comment("CTA throttle.");
    Net("thr_alloc_valid", "");
    Net("thr_grant", "");
    Net("thr_rel_valid", "NumTableBanks");
    Net("thr_rel_slot", "(NumTableBanks+1)*SlotBits-1");
    Net("thr_rel_bank", "(NumTableBanks+1)*BankBits-1");
    m.Blank();
    m.Comment("Rename stage: the instr the table serves or has served, waiting for the MRF.");
    Net("stage_valid_q", "");
    Net("stage_go", "", "the staged instr enters an MRF collector");
    Net("stage_free", "");
    Net("stage_tag_q", "TagWidth-1");
    Net("stage_warp_q", "WarpBits-1");
    Net("stage_src_valid_q", "2");
    Net("stage_src_phys_q", "3*PhysBits-1");
    Net("stage_dst_valid_q", "");
    Net("stage_dst_phys_q", "PhysBits-1");
    m.Blank();
    m.Comment("MRF and the per-collector entries (indexed by the MRF tag).");
    Net("mrf_issue_ready", "");
    Net("mrf_disp_valid", "");
    Net("mrf_disp_tag", "BufIdxWidth-1");
    Net("mrf_disp_warp", "0");
    Net("mrf_disp_src_valid", "2");
    Net("disp_fire", "");
    Net("buf_busy_q", "NumCollectors-1");
    Net("buf_tag_q", "NumCollectors*TagWidth-1");
    Net("buf_warp_q", "NumCollectors*WarpBits-1");
    Net("buf_src_valid_q", "NumCollectors*3-1");
    Net("buf_dst_valid_q", "NumCollectors-1");
    Net("buf_dst_phys_q", "NumCollectors*PhysBits-1");
    Net("buf_alloc", "BufIdxWidth-1", "lowest free entry");
    Net("buf_any_free", "");
    for (const char* c : {"reads", "writes", "conflicts", "issue_stalls", "wb_stalls"})
      Net(fmt::format("mrf_cnt_{}", c), "31");
    m.Blank();
  }

  // CTA slot of a warp: warps [c*WarpsPerCta, (c+1)*WarpsPerCta) belong to slot c.
  void CtaOf(const std::string& out, const std::string& warp) {
    Always a;
    a.kind = AlwaysKind::kComb;
    a.body = {Blocking(out, "'0"),
              ForLoop("c", "NumCtas",
                      {IfThen(And({"32'(" + warp + ") >= c * WarpsPerCta",
                                   "32'(" + warp + ") < (c + 1) * WarpsPerCta"}),
                              {Blocking(out, Cast("SlotBits", "c"))})})};
    m.Add(MakeItem(std::move(a)));
  }

  void Gate() {
    m.Comment("Request gate (renaming_system_spec.h, 1).");
    Assign("is_instr", "req_op_i == 2'd0");
    CtaOf("req_cta", "req_warp_i");
    Assign("req_dst_bank", "BankBits'(32'(req_dst_reg_i) % NumBanks)");
    Assign("fc_lk_valid", "req_valid_i && is_instr && req_pir_valid_i");
    Assign("flags_ok", "!req_pir_valid_i || fc_hit");
    Assign("req_dst_ren", "req_dst_valid_i && (32'(req_dst_reg_i) >= NumExempt)");
    Assign("spare_ok", "!req_dst_ren || spare_valid_q[req_dst_bank]");
    Assign("stage_free", "!stage_valid_q || stage_go");
    Assign("instr_go", And({"req_valid_i", "is_instr", "rst_ni", "rt_ready", "stage_free",
                            "flags_ok", "issue_ok_o[req_cta]", "spare_ok"}));
    Assign("thr_alloc_valid", "instr_go && req_dst_ren");
    Assign("req_ready_o",
           "rst_ni && (is_instr ? (rt_ready && stage_free && flags_ok && issue_ok_o[req_cta] && "
           "spare_ok && (!req_dst_ren || thr_grant)) : rt_ready)");
    Assign("req_fire", "req_valid_i && req_ready_o");
    Assign("instr_fire", "req_fire && is_instr");
    Assign("req_flag_miss_o", "fc_miss");
    Always rb;
    rb.kind = AlwaysKind::kComb;
    rb.body = {Blocking("rel_bits", "3'b000"),
               ForLoop("g", "Group",
                       {IfThen(And({"req_pir_valid_i", "32'(req_pir_idx_i) == g"}),
                               {Blocking("rel_bits", PartSelect("fc_flags", "3*g", "3"))})})};
    m.Add(MakeItem(std::move(rb)));
    m.Blank();
  }

  void FlagCache() {
    m.Comment("Release flag cache (" + s.flags.module_name + "), looked up by the pir's PC.");
    m.Add(MakeItem(Instance{s.flags.module_name,
                            "u_flags",
                            {},
                            {{"clk_i", "clk_i"},
                             {"rst_ni", "rst_ni"},
                             {"flush_i", "flush_i"},
                             {"lk_valid_i", "fc_lk_valid"},
                             {"lk_pc_i", "req_pir_pc_i"},
                             {"fill_valid_i", "fill_valid_i"},
                             {"fill_pc_i", "fill_pc_i"},
                             {"fill_flags_i", "fill_flags_i"},
                             {"lk_hit_o", "fc_hit"},
                             {"lk_miss_o", "fc_miss"},
                             {"lk_flags_o", "fc_flags"},
                             {"hit_count_o", "flag_hits_o"},
                             {"miss_count_o", "flag_misses_o"}}}));
    m.Blank();
  }

  void Table() {
    m.Comment("Renaming table (" + s.table.module_name +
              "): the destination maps the spare of its bank.");
    Always sel;
    sel.kind = AlwaysKind::kComb;
    sel.body = {
        Blocking("rt_dst_phys", "'0"),
        ForLoop("b", "NumBanks",
                {IfThen(Eq("req_dst_bank", Cast("BankBits", "b")),
                        {Blocking("rt_dst_phys",
                                  "PhysBits'(ExemptBase) + PhysBits'(" +
                                      PartSelect("spare_id_q", "b*IdBits", "IdBits") + ")")})})};
    m.Add(MakeItem(std::move(sel)));
    m.Add(MakeItem(Instance{s.table.module_name,
                            "u_table",
                            {},
                            {{"clk_i", "clk_i"},
                             {"rst_ni", "rst_ni"},
                             {"exempt_i", fmt::format("{}'d{}", s.table.exempt_bits, s.exempt)},
                             {"req_valid_i", "req_fire"},
                             {"req_op_i", "req_op_i"},
                             {"req_warp_i", "req_warp_i"},
                             {"src_valid_i", "req_src_valid_i"},
                             {"src_reg_i", "req_src_reg_i"},
                             {"src_release_i", "rel_bits & req_src_valid_i"},
                             {"dst_valid_i", "req_dst_valid_i"},
                             {"dst_reg_i", "req_dst_reg_i"},
                             {"dst_phys_i", "rt_dst_phys"},
                             {"rel_mask_i", "req_rel_mask_i"},
                             {"req_ready_o", "rt_ready"},
                             {"src_served_o", "rt_src_served"},
                             {"src_mapped_o", "rt_src_mapped"},
                             {"src_phys_o", "rt_src_phys"},
                             {"dst_served_o", "rt_dst_served"},
                             {"dst_alloc_o", "rt_dst_alloc"},
                             {"dst_phys_o", "rt_dst_phys_out"},
                             {"free_valid_o", "rt_free_valid"},
                             {"free_phys_o", "rt_free_phys"},
                             {"conflict_cycles_o", "rename_conflicts_o"}}}));
    Assign("cur_warp", "req_fire ? req_warp_i : warp_q");
    Assign("cur_dst_bank", "req_fire ? req_dst_bank : dst_bank_q");
    Assign("cur_dst_ren", "req_fire ? req_dst_ren : dst_ren_q");
    CtaOf("cur_cta", "cur_warp");
    m.Blank();
  }

  void Vectors() {
    m.Comment("Availability vectors (" + s.avail.module_name +
              "): a bank without a spare asks while nothing renamed is in flight; the table's "
              "freed registers return.");
    Assign("drained", "!stage_valid_q && (buf_busy_q == '0)");
    Assign("av_alloc_req", "(drained && rst_ni) ? ~spare_valid_q : '0");
    GenerateFor g{"gen_rel", "j", "NumTableBanks", {}};
    g.items.push_back(MakeItem(
        ContinuousAssign{PartSelect("av_rel_id", "j*IdBits", "IdBits"),
                         "IdBits'(" + PartSelect("rt_free_phys", "j*PhysBits", "PhysBits") +
                             " - PhysBits'(ExemptBase))"}));
    g.items.push_back(MakeItem(ContinuousAssign{"thr_rel_valid[j]", "rt_free_valid[j]"}));
    g.items.push_back(MakeItem(
        ContinuousAssign{PartSelect("thr_rel_slot", "j*SlotBits", "SlotBits"), "cur_cta"}));
    g.items.push_back(
        MakeItem(ContinuousAssign{PartSelect("thr_rel_bank", "j*BankBits", "BankBits"),
                                  PartSelect("rt_free_phys", "j*PhysBits", "BankBits")}));
    m.Add(MakeItem(std::move(g)));
    Net("av_none", "NumBanks-1");
    Net("av_powered", fmt::format("{}", s.banks * s.avail.subarrays - 1));
    Net("av_waking", "NumBanks-1");
    m.Add(MakeItem(Instance{s.avail.module_name,
                            "u_avail",
                            {},
                            {{"clk_i", "clk_i"},
                             {"rst_ni", "rst_ni"},
                             {"alloc_req_i", "av_alloc_req"},
                             {"rel_valid_i", "rt_free_valid"},
                             {"rel_id_i", "av_rel_id"},
                             {"alloc_grant_o", "av_grant"},
                             {"alloc_id_o", "av_id"},
                             {"alloc_none_o", "av_none"},
                             {"free_count_o", "free_count_o"},
                             {"powered_o", "av_powered"},
                             {"waking_o", "av_waking"}}}));
    unused.insert(unused.end(), {"av_none", "av_powered", "av_waking"});
    Assign("spare_valid_o", "spare_valid_q");
    m.Blank();
  }

  void Throttle() {
    m.Comment("CTA throttle (" + s.throttle.module_name +
              "): grants the destination's register to the CTA; the table's frees and an "
              "unneeded grant (destination already mapped) return to the CTA's balance.");
    Assign("thr_rel_valid[NumTableBanks]", "rt_dst_served && !rt_dst_alloc && cur_dst_ren");
    Assign(PartSelect("thr_rel_slot", "NumTableBanks*SlotBits", "SlotBits"), "cur_cta");
    Assign(PartSelect("thr_rel_bank", "NumTableBanks*BankBits", "BankBits"), "cur_dst_bank");
    Net("thr_spill", fmt::format("{}", s.banks * s.throttle.spill_bits - 1));
    Net("thr_reserved_valid", "");
    Net("thr_reserved", "SlotBits-1");
    Net("thr_spill_mode", "");
    Net("thr_free_count", fmt::format("{}", s.banks * s.throttle.count_bits - 1));
    unused.insert(unused.end(), {"thr_spill", "thr_reserved_valid", "thr_reserved",
                                 "thr_spill_mode", "thr_free_count"});
    m.Add(MakeItem(Instance{s.throttle.module_name,
                            "u_throttle",
                            {},
                            {{"clk_i", "clk_i"},
                             {"rst_ni", "rst_ni"},
                             {"launch_valid_i", "launch_valid_i"},
                             {"launch_slot_i", "launch_slot_i"},
                             {"launch_need_i", "launch_need_i"},
                             {"exit_valid_i", "cta_exit_valid_i"},
                             {"exit_slot_i", "cta_exit_slot_i"},
                             {"alloc_valid_i", "thr_alloc_valid"},
                             {"alloc_bank_i", "req_dst_bank"},
                             {"alloc_slot_i", "req_cta"},
                             {"rel_valid_i", "thr_rel_valid"},
                             {"rel_slot_i", "thr_rel_slot"},
                             {"rel_bank_i", "thr_rel_bank"},
                             {"alloc_grant_o", "thr_grant"},
                             {"spill_o", "thr_spill"},
                             {"issue_ok_o", "issue_ok_o"},
                             {"throttle_o", "throttle_o"},
                             {"reserved_valid_o", "thr_reserved_valid"},
                             {"reserved_o", "thr_reserved"},
                             {"spill_mode_o", "thr_spill_mode"},
                             {"free_count_o", "thr_free_count"}}}));
    m.Blank();
  }

  void Mrf() {
    m.Comment("Main register file (" + s.mrf.module_name +
              "): one warp of physical registers; its tag is the entry index.");
    Assign("stage_go", "stage_valid_q && rt_ready && mrf_issue_ready");
    m.Add(MakeItem(Instance{s.mrf.module_name,
                            "u_mrf",
                            {},
                            {{"clk_i", "clk_i"},
                             {"rst_ni", "rst_ni"},
                             {"issue_valid_i", "stage_valid_q && rt_ready"},
                             {"issue_ready_o", "mrf_issue_ready"},
                             {"issue_tag_i", "buf_alloc"},
                             {"issue_warp_i", "1'b0"},
                             {"issue_src_valid_i", "stage_src_valid_q"},
                             {"issue_src_reg_i", "stage_src_phys_q"},
                             {"wb_valid_i", "res_valid_i"},
                             {"wb_ready_o", "res_ready_o"},
                             {"wb_warp_i", "1'b0"},
                             {"wb_reg_i", "res_phys_i"},
                             {"wb_data_i", "res_data_i"},
                             {"disp_valid_o", "mrf_disp_valid"},
                             {"disp_ready_i", "disp_ready_i"},
                             {"disp_tag_o", "mrf_disp_tag"},
                             {"disp_warp_o", "mrf_disp_warp"},
                             {"disp_src_valid_o", "mrf_disp_src_valid"},
                             {"disp_data_o", "disp_data_o"},
                             {"cnt_reads_o", "mrf_cnt_reads"},
                             {"cnt_writes_o", "mrf_cnt_writes"},
                             {"cnt_conflicts_o", "mrf_cnt_conflicts"},
                             {"cnt_issue_stalls_o", "mrf_cnt_issue_stalls"},
                             {"cnt_wb_stalls_o", "mrf_cnt_wb_stalls"}}}));
    unused.insert(unused.end(),
                  {"mrf_disp_warp", "mrf_disp_src_valid", "mrf_cnt_reads", "mrf_cnt_writes",
                   "mrf_cnt_conflicts", "mrf_cnt_issue_stalls", "mrf_cnt_wb_stalls",
                   "rt_dst_phys_out", "buf_any_free", "rt_src_mapped"});
    Assign("disp_valid_o", "mrf_disp_valid");
    Assign("disp_fire", "mrf_disp_valid && disp_ready_i");
    m.Blank();
  }

  void State() {
    m.Comment("State of the glue: the rename stage, the spares, the request's warp, the entries.");
    Always alloc;
    alloc.kind = AlwaysKind::kComb;
    alloc.body = {Blocking("buf_alloc", "'0"), Blocking("buf_any_free", "1'b0"),
                  ForLoop("k", "NumCollectors",
                          {IfThen(And({"!buf_busy_q[k]", "!buf_any_free"}),
                                  {Blocking("buf_alloc", Cast("BufIdxWidth", "k")),
                                   Blocking("buf_any_free", "1'b1")})})};
    m.Add(MakeItem(std::move(alloc)));
    const std::vector<std::string> regs = {"stage_valid_q",    "stage_tag_q",
                                           "stage_warp_q",     "stage_src_valid_q",
                                           "stage_src_phys_q", "stage_dst_valid_q",
                                           "stage_dst_phys_q", "spare_valid_q",
                                           "spare_id_q",       "warp_q",
                                           "dst_bank_q",       "dst_ren_q",
                                           "buf_busy_q",       "buf_tag_q",
                                           "buf_warp_q",       "buf_src_valid_q",
                                           "buf_dst_valid_q",  "buf_dst_phys_q"};
    Body rst;
    for (const std::string& r : regs)
      rst.push_back(NonBlocking(r, "'0"));
    Body upd = {
        IfThen("req_fire",
               {NonBlocking("warp_q", "req_warp_i"), NonBlocking("dst_bank_q", "req_dst_bank"),
                NonBlocking("dst_ren_q", "req_dst_ren")}),
        IfThen("instr_fire",
               {NonBlocking("stage_valid_q", "1'b1"), NonBlocking("stage_tag_q", "req_tag_i"),
                NonBlocking("stage_warp_q", "req_warp_i"),
                NonBlocking("stage_src_valid_q", "req_src_valid_i"),
                NonBlocking("stage_dst_valid_q", "req_dst_valid_i")},
               {IfThen("stage_go", {NonBlocking("stage_valid_q", "1'b0")})}),
        ForLoop("p", "3",
                {IfThen("rt_src_served[p]",
                        {NonBlocking(PartSelect("stage_src_phys_q", "p*PhysBits", "PhysBits"),
                                     PartSelect("rt_src_phys", "p*PhysBits", "PhysBits"))})}),
        IfThen("rt_dst_served", {NonBlocking("stage_dst_phys_q", "rt_dst_phys_out")}),
        ForLoop("b", "NumBanks",
                {IfThen(And({"rt_dst_served", "rt_dst_alloc",
                             Eq("cur_dst_bank", Cast("BankBits", "b"))}),
                        {NonBlocking("spare_valid_q[b]", "1'b0")}),
                 IfThen("av_grant[b]", {NonBlocking("spare_valid_q[b]", "1'b1"),
                                        NonBlocking(PartSelect("spare_id_q", "b*IdBits", "IdBits"),
                                                    PartSelect("av_id", "b*IdBits", "IdBits"))})}),
        ForLoop(
            "k", "NumCollectors",
            {IfThen(
                And({"stage_go", Eq("buf_alloc", Cast("BufIdxWidth", "k"))}),
                {NonBlocking("buf_busy_q[k]", "1'b1"),
                 NonBlocking(PartSelect("buf_tag_q", "k*TagWidth", "TagWidth"), "stage_tag_q"),
                 NonBlocking(PartSelect("buf_warp_q", "k*WarpBits", "WarpBits"), "stage_warp_q"),
                 NonBlocking(PartSelect("buf_src_valid_q", "k*3", "3"), "stage_src_valid_q"),
                 NonBlocking("buf_dst_valid_q[k]", "stage_dst_valid_q"),
                 NonBlocking(PartSelect("buf_dst_phys_q", "k*PhysBits", "PhysBits"),
                             "stage_dst_phys_q")},
                {IfThen(And({"disp_fire", Eq("mrf_disp_tag", Cast("BufIdxWidth", "k"))}),
                        {NonBlocking("buf_busy_q[k]", "1'b0")})})}),
    };
    m.Add(MakeItem(Always{AlwaysKind::kFF,
                          "posedge clk_i or negedge rst_ni",
                          "p_state",
                          {IfThen("!rst_ni", rst, upd)}}));
    m.Blank();
  }

  void Dispatch() {
    m.Comment("Dispatch: the MRF's oldest complete instruction with its entry.");
    Net("sel_tag", "TagWidth-1");
    Net("sel_warp", "WarpBits-1");
    Net("sel_src_valid", "2");
    Net("sel_dst_valid", "");
    Net("sel_dst_phys", "PhysBits-1");
    Always sel;
    sel.kind = AlwaysKind::kComb;
    sel.body = {
        Blocking("sel_tag", "'0"),
        Blocking("sel_warp", "'0"),
        Blocking("sel_src_valid", "'0"),
        Blocking("sel_dst_valid", "1'b0"),
        Blocking("sel_dst_phys", "'0"),
        ForLoop("k", "NumCollectors",
                {IfThen(Eq("mrf_disp_tag", Cast("BufIdxWidth", "k")),
                        {Blocking("sel_tag", PartSelect("buf_tag_q", "k*TagWidth", "TagWidth")),
                         Blocking("sel_warp", PartSelect("buf_warp_q", "k*WarpBits", "WarpBits")),
                         Blocking("sel_src_valid", PartSelect("buf_src_valid_q", "k*3", "3")),
                         Blocking("sel_dst_valid", "buf_dst_valid_q[k]"),
                         Blocking("sel_dst_phys",
                                  PartSelect("buf_dst_phys_q", "k*PhysBits", "PhysBits"))})})};
    m.Add(MakeItem(std::move(sel)));
    Assign("disp_tag_o", "sel_tag");
    Assign("disp_warp_o", "sel_warp");
    Assign("disp_src_valid_o", "sel_src_valid");
    Assign("disp_dst_valid_o", "sel_dst_valid");
    Assign("disp_dst_phys_o", "sel_dst_phys");
    m.Blank();
  }

  void Unused() {
    m.Comment("Sub-module outputs the top does not use (status, counters, the MRF's copies).");
    Net("unused_outputs", "");
    std::string t;
    for (size_t i = 0; i < unused.size(); ++i)
      t += (i ? ", " : "") + unused[i];
    Assign("unused_outputs", "^{" + t + "}");
    m.Blank();
  }

  void Assertions() {
    Ifdef d{"GPURF_ASSERTIONS", {}};
    Body checks = {
        Assert("!req_fire || (req_op_i != 2'd3)",
               {Quote("%m: request op 3 does not exist (0 instr, 1 release, 2 exit)")}),
        Assert("!req_fire || (32'(req_warp_i) < " + Int(s.warps) + ")",
               {Quote("%m: request names warp %0d, there are %0d"), "req_warp_i", Int(s.warps)}),
        Assert("!instr_fire || issue_ok_o[req_cta]",
               {Quote("%m: S4 CTA %0d issued while throttled"), "req_cta"}),
        Assert("!stage_go || buf_any_free",
               {Quote("%m: the MRF took an instruction while every entry is busy")}),
        ForLoop("p", "3",
                {Assert("!(rt_src_served[p] && !rt_src_mapped[p])",
                        {Quote("%m: S3 source %0d reads a released or never-written register "
                               "(or one outside the renamed window)"),
                         "p"})}),
    };
    d.items.push_back(emit::MisuseCheck(std::move(checks)));
    m.Add(MakeItem(std::move(d)));
  }
};

}  // namespace

GeneratedStructure EmitRenamingSystem(const RenamingSystemSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));

  std::vector<GeneratedStructure> subs = {
      EmitMrf(s.mrf), EmitRenamingTable(s.table), EmitAvailabilityVectors(s.avail),
      EmitReleaseFlagCache(s.flags), EmitCtaThrottle(s.throttle)};
  const nlohmann::ordered_json sub_json = AppendSubModules(g, subs);
  g.derived = {{"description", s.Description()},
               {"sub_modules", sub_json},
               {"phys_regs", s.phys_total},
               {"exempt_base", s.exempt_base},
               {"window", s.window},
               {"warps_per_cta", s.warps_per_cta},
               {"phys_bits", s.phys_bits},
               {"entries", s.collectors()}};
  if (subs[0].derived.contains("sram_macros"))
    g.derived["sram_macros"] = subs[0].derived["sram_macros"];

  Builder b{s, {}, {}};
  b.m.name = s.module_name;
  b.m.doc = ModuleDoc(s);
  b.Params();
  b.m.ports = b.port_table.Verilog();
  b.Declarations();
  b.Gate();
  b.FlagCache();
  b.Table();
  b.Vectors();
  b.Throttle();
  b.Mrf();
  b.State();
  b.Dispatch();
  b.Unused();
  b.Assertions();

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(b.m));
  g.files.push_back(top);
  g.ports = b.port_table.Manifest();
  return g;
}

}  // namespace gpurf
