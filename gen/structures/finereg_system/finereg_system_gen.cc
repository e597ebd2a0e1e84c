#include "gen/structures/finereg_system/finereg_system_gen.h"

#include <fmt/format.h>

#include "gen/structures/emit_util.h"
#include "gen/structures/finereg_system/finereg_system_ports.h"
#include "gen/structures/mrf/mrf_gen.h"
#include "gen/structures/pcrf/pcrf_gen.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL
using emit::Comb;
using emit::Decl;
using emit::Ff;
using emit::FfNoReset;

std::vector<std::string> ModuleDoc(const FineregSystemSpec& s) {
  return {
      fmt::format("{}: FineReg register-file system (Oh et al., MICRO 2018,", s.module_name),
      "sections IV-V): the active CTA register file (ACRF, " + s.mrf.module_name + ")",
      "and the pending-CTA register file (" + s.pcrf.module_name + ": chains, pointer",
      "table, free-space monitor) behind one interface, with the register management unit:",
      "the save engine reads a switched-out CTA's live registers (its live-register vector)",
      "from the ACRF into the row buffer and appends them to the CTA's PCRF chain; the restore",
      "engine walks a pending CTA's chain and writes each row back into the ACRF warp slots",
      "given for the CTA. One RMU operation at a time, one register in the buffer at a time.",
      "Full contract: gen/structures/finereg_system/finereg_system_spec.h in the gpurf sources.",
  };
}

// RMU states.
constexpr const char* kIdle = "3'd0";
constexpr const char* kSvRead = "3'd1";
constexpr const char* kSvWait = "3'd2";
constexpr const char* kSvAppend = "3'd3";
constexpr const char* kRsWalk = "3'd4";

std::string StateIs(const char* st) {
  return std::string("st_q == ") + st;
}

}  // namespace

GeneratedStructure EmitFineregSystem(const FineregSystemSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  std::vector<GeneratedStructure> subs = {EmitMrf(s.mrf), EmitPcrf(s.pcrf)};
  const nlohmann::ordered_json sub_json = AppendSubModules(g, subs);
  g.derived = {{"description", s.Description()},
               {"sub_modules", sub_json},
               {"buffer_bits", s.data_width},
               {"live_vector_bits", s.live_bits},
               {"mrf_tag_width", s.mrf.tag_width}};
  nlohmann::ordered_json macros = nlohmann::ordered_json::array();
  for (const auto& sub : subs)
    if (sub.derived.contains("sram_macros"))
      for (const auto& mac : sub.derived["sram_macros"])
        macros.push_back(mac);
  if (!macros.empty())
    g.derived["sram_macros"] = macros;

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"TagWidth", Int(s.tag_width), "pipeline instruction tag bits", true},
      {"WarpWidth", Int(s.warp_width), "ACRF warp slot bits", true},
      {"RegWidth", Int(s.reg_width), "register bits", true},
      {"DataWidth", Int(s.data_width), "bits of one warp register (the buffer)", true},
      {"CtaBits", Int(s.pcrf.cta_bits), "pending CTA slot bits", true},
      {"CountBits", Int(s.pcrf.count_bits), "PCRF count bits", true},
      {"CWarpWidth", Int(s.cwarp_width), "warp-in-CTA bits", true},
      {"LiveBits", Int(s.live_bits), "live-vector bits: CtaWarps x Regs", true},
      {"LiveIdxBits", Int(s.live_idx_bits), "bits of a live-vector index {warp, reg}", true},
      {"EntryBits", Int(s.pcrf.entry_bits), "PCRF entry pointer bits", true},
      {"CntWidth", Int(s.mrf.counter_width), "ACRF event counter bits", true},
      {"MrfTagWidth", "TagWidth + 1", "ACRF tag: the pipeline's, top bit set for the RMU", true},
  };
  const PortTable ports = FineregSystemPortTable(s);
  m.ports = ports.Verilog();
  m.Blank();
  m.Comment(
      "RMU state: 3'd0 idle, 3'd1 save: ACRF read offered, 3'd2 save: read in flight, 3'd3 save:\n"
      "append offered, 3'd4 restore: chain walk.");
  m.Add(Decl("st_q", "2", "RMU state"));
  m.Add(Decl("cta_q", Msb("CtaBits"), "CTA slot of the operation"));
  m.Add(Decl("base_q", Msb("WarpWidth"), "ACRF warp slot of the CTA's warp 0"));
  m.Add(Decl("live_q", Msb("LiveBits"), "save: live registers not yet moved"));
  m.Add(Decl("left_q", Msb("CountBits"), "restore: registers not yet taken from the PCRF"));
  m.Add(Decl("occ_q", Msb("CountBits"), "saved registers not yet taken back: occupied entries"));
  m.Add(Decl("buf_q", Msb("DataWidth"), "the row buffer"));
  m.Add(Decl("buf_valid_q", "", "restore: the buffer holds a row to write"));
  m.Add(Decl("buf_warp_q", Msb("WarpWidth"), "restore: its ACRF warp"));
  m.Add(Decl("buf_reg_q", Msb("RegWidth"), "restore: its register"));
  m.Add(Decl("cur_idx", Msb("LiveIdxBits"), "save: the lowest live register {warp, reg}"));
  m.Add(Decl("cur_found", "", ""));
  m.Add(Decl("cur_w", Msb("CWarpWidth"), "its warp in the CTA"));
  m.Add(Decl("cur_r", Msb("RegWidth"), "its register"));
  m.Add(Decl("live_next", Msb("LiveBits"), "live_q without it"));
  m.Add(Decl("sv_fire", "", "a save is accepted"));
  m.Add(Decl("rs_fire", "", "a restore is accepted"));
  m.Add(Decl("rmu_rd", "", "the save engine offers its ACRF read"));
  m.Add(Decl("rmu_wb", "", "the restore engine writes the buffer into the ACRF"));
  m.Add(Decl("rmu_disp", "", "the ACRF dispatches the save engine's read"));
  m.Add(Decl("app_fire", "", "the PCRF accepts the save engine's append"));
  m.Add(Decl("take", "", "the restore engine takes a register from the PCRF"));
  m.Add(Decl("wb_done", "", "the buffer is written into the ACRF"));
  for (const auto& [n, w] :
       std::vector<std::pair<const char*, std::string>>{{"mrf_issue_valid", ""},
                                                        {"mrf_issue_ready", ""},
                                                        {"mrf_issue_tag", Msb("MrfTagWidth")},
                                                        {"mrf_issue_warp", Msb("WarpWidth")},
                                                        {"mrf_issue_src_valid", "2"},
                                                        {"mrf_issue_src_reg", "3*RegWidth-1"},
                                                        {"mrf_wb_valid", ""},
                                                        {"mrf_wb_ready", ""},
                                                        {"mrf_wb_warp", Msb("WarpWidth")},
                                                        {"mrf_wb_reg", Msb("RegWidth")},
                                                        {"mrf_wb_data", Msb("DataWidth")},
                                                        {"mrf_disp_valid", ""},
                                                        {"mrf_disp_ready", ""},
                                                        {"mrf_disp_tag", Msb("MrfTagWidth")},
                                                        {"mrf_cnt", "5*CntWidth-1"},
                                                        {"pcrf_app_ready", ""},
                                                        {"pcrf_app_entry", Msb("EntryBits")},
                                                        {"pcrf_rs_ready", ""},
                                                        {"pcrf_out_ready", ""},
                                                        {"pcrf_out_valid", ""},
                                                        {"pcrf_out_cta", Msb("CtaBits")},
                                                        {"pcrf_out_warp", Msb("CWarpWidth")},
                                                        {"pcrf_out_reg", Msb("RegWidth")},
                                                        {"pcrf_out_entry", Msb("EntryBits")},
                                                        {"pcrf_out_last", ""},
                                                        {"pcrf_out_data", Msb("DataWidth")},
                                                        {"pcrf_q_count", Msb("CountBits")},
                                                        {"pcrf_q_head_valid", ""},
                                                        {"pcrf_q_head", Msb("EntryBits")}})
    m.Add(Decl(n, w, ""));
  m.Blank();

  m.Comment("Save engine: the lowest live register of the vector (a priority encoder).");
  m.Add(Comb("p_cur",
             {Blocking("cur_idx", "'0"), Blocking("cur_found", "1'b0"),
              ForLoop("i", "LiveBits",
                      {IfThen("!cur_found && live_q[i]", {Blocking("cur_idx", "LiveIdxBits'(i)"),
                                                          Blocking("cur_found", "1'b1")})})}));
  m.Add(emit::Assign("cur_w", "cur_idx[LiveIdxBits-1:RegWidth]"));
  m.Add(emit::Assign("cur_r", "cur_idx[RegWidth-1:0]"));
  m.Add(emit::Assign("live_next", "live_q & ~(LiveBits'(1) << cur_idx)"));
  m.Blank();

  m.Comment("Command handshakes: one RMU operation at a time; a save wins over a restore.");
  m.Add(emit::Assign("sv_ready_o", "rst_ni && " + StateIs(kIdle)));
  m.Add(emit::Assign("rs_ready_o",
                     "rst_ni && " + StateIs(kIdle) + " && !sv_valid_i && pcrf_rs_ready"));
  m.Add(emit::Assign("sv_fire", "sv_valid_i && sv_ready_o"));
  m.Add(emit::Assign("rs_fire", "rs_valid_i && rs_ready_o"));
  m.Add(emit::Assign("busy_o", "!(" + StateIs(kIdle) + ")"));
  m.Add(emit::Assign("rs_count_o", "pcrf_q_count"));
  m.Blank();

  m.Comment(
      "ACRF issue port: the save engine's read (one source, slot A, tag top bit set) has\n"
      "priority over the pipeline's instruction.");
  m.Add(emit::Assign("rmu_rd", StateIs(kSvRead)));
  m.Add(emit::Assign("mrf_issue_valid", "rmu_rd || issue_valid_i"));
  m.Add(emit::Assign("mrf_issue_tag", "rmu_rd ? {1'b1, TagWidth'(0)} : {1'b0, issue_tag_i}"));
  m.Add(emit::Assign("mrf_issue_warp", "rmu_rd ? base_q + WarpWidth'(cur_w) : issue_warp_i"));
  m.Add(emit::Assign("mrf_issue_src_valid", "rmu_rd ? 3'b001 : issue_src_valid_i"));
  m.Add(emit::Assign("mrf_issue_src_reg",
                     "rmu_rd ? {{(2*RegWidth){1'b0}}, cur_r} : issue_src_reg_i"));
  m.Add(emit::Assign("issue_ready_o", "mrf_issue_ready && !rmu_rd"));
  m.Comment("ACRF write-back port: the restore engine's buffer has priority.");
  m.Add(emit::Assign("rmu_wb", StateIs(kRsWalk) + " && buf_valid_q"));
  m.Add(emit::Assign("mrf_wb_valid", "rmu_wb || wb_valid_i"));
  m.Add(emit::Assign("mrf_wb_warp", "rmu_wb ? buf_warp_q : wb_warp_i"));
  m.Add(emit::Assign("mrf_wb_reg", "rmu_wb ? buf_reg_q : wb_reg_i"));
  m.Add(emit::Assign("mrf_wb_data", "rmu_wb ? buf_q : wb_data_i"));
  m.Add(emit::Assign("wb_ready_o", "mrf_wb_ready && !rmu_wb"));
  m.Add(emit::Assign("wb_done", "rmu_wb && mrf_wb_ready"));
  m.Comment("ACRF dispatch: the save engine's read goes to the buffer, never to the pipeline.");
  m.Add(emit::Assign("rmu_disp", "mrf_disp_valid && mrf_disp_tag[TagWidth]"));
  m.Add(emit::Assign("mrf_disp_ready", "rmu_disp || disp_ready_i"));
  m.Add(emit::Assign("disp_valid_o", "mrf_disp_valid && !mrf_disp_tag[TagWidth]"));
  m.Add(emit::Assign("disp_tag_o", "mrf_disp_tag[TagWidth-1:0]"));
  m.Add(MakeItem(Instance{s.mrf.module_name,
                          "u_acrf",
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
                           {"wb_warp_i", "mrf_wb_warp"},
                           {"wb_reg_i", "mrf_wb_reg"},
                           {"wb_data_i", "mrf_wb_data"},
                           {"disp_valid_o", "mrf_disp_valid"},
                           {"disp_ready_i", "mrf_disp_ready"},
                           {"disp_tag_o", "mrf_disp_tag"},
                           {"disp_warp_o", "disp_warp_o"},
                           {"disp_src_valid_o", "disp_src_valid_o"},
                           {"disp_data_o", "disp_data_o"},
                           {"cnt_reads_o", "mrf_cnt[0*CntWidth +: CntWidth]"},
                           {"cnt_writes_o", "mrf_cnt[1*CntWidth +: CntWidth]"},
                           {"cnt_conflicts_o", "mrf_cnt[2*CntWidth +: CntWidth]"},
                           {"cnt_issue_stalls_o", "mrf_cnt[3*CntWidth +: CntWidth]"},
                           {"cnt_wb_stalls_o", "mrf_cnt[4*CntWidth +: CntWidth]"}}}));
  m.Blank();

  m.Comment(
      "PCRF: the save engine appends the buffer to the CTA's chain; the restore engine walks\n"
      "the chain (the query port shows the live count of rs_cta_i).");
  m.Add(emit::Assign("app_fire", StateIs(kSvAppend) + " && pcrf_app_ready"));
  m.Add(emit::Assign("pcrf_out_ready", StateIs(kRsWalk) + " && !buf_valid_q"));
  m.Add(emit::Assign("take", "pcrf_out_valid && pcrf_out_ready"));
  m.Add(MakeItem(Instance{s.pcrf.module_name,
                          "u_pcrf",
                          {},
                          {{"clk_i", "clk_i"},
                           {"rst_ni", "rst_ni"},
                           {"app_valid_i", StateIs(kSvAppend)},
                           {"app_cta_i", "cta_q"},
                           {"app_warp_i", "cur_w"},
                           {"app_reg_i", "cur_r"},
                           {"app_data_i", "buf_q"},
                           {"rs_valid_i", "rs_fire"},
                           {"rs_cta_i", "rs_cta_i"},
                           {"out_ready_i", "pcrf_out_ready"},
                           {"q_cta_i", "rs_cta_i"},
                           {"app_ready_o", "pcrf_app_ready"},
                           {"app_entry_o", "pcrf_app_entry"},
                           {"rs_ready_o", "pcrf_rs_ready"},
                           {"out_valid_o", "pcrf_out_valid"},
                           {"out_cta_o", "pcrf_out_cta"},
                           {"out_warp_o", "pcrf_out_warp"},
                           {"out_reg_o", "pcrf_out_reg"},
                           {"out_entry_o", "pcrf_out_entry"},
                           {"out_last_o", "pcrf_out_last"},
                           {"out_data_o", "pcrf_out_data"},
                           {"q_count_o", "pcrf_q_count"},
                           {"q_head_valid_o", "pcrf_q_head_valid"},
                           {"q_head_o", "pcrf_q_head"},
                           {"free_count_o", "free_count_o"}}}));
  m.Blank();

  m.Comment("The RMU's sequencing.");
  m.Add(Ff(
      "p_rmu",
      {NonBlocking("st_q", kIdle), NonBlocking("cta_q", "'0"), NonBlocking("base_q", "'0"),
       NonBlocking("live_q", "'0"), NonBlocking("left_q", "'0"), NonBlocking("buf_valid_q", "1'b0"),
       NonBlocking("buf_warp_q", "'0"), NonBlocking("buf_reg_q", "'0")},
      {IfThen("sv_fire",
              {NonBlocking("cta_q", "sv_cta_i"), NonBlocking("base_q", "sv_base_i"),
               NonBlocking("live_q", "sv_live_i"),
               NonBlocking("st_q", std::string("sv_live_i != '0 ? ") + kSvRead + " : " + kIdle)}),
       IfThen("rs_fire", {NonBlocking("cta_q", "rs_cta_i"), NonBlocking("base_q", "rs_base_i"),
                          NonBlocking("left_q", "pcrf_q_count"),
                          NonBlocking("st_q", std::string("pcrf_q_count != '0 ? ") + kRsWalk +
                                                  " : " + kIdle)}),
       IfThen("rmu_rd && mrf_issue_ready", {NonBlocking("st_q", kSvWait)}),
       IfThen(StateIs(kSvWait) + " && rmu_disp", {NonBlocking("st_q", kSvAppend)}),
       IfThen("app_fire",
              {NonBlocking("live_q", "live_next"),
               NonBlocking("st_q", std::string("live_next != '0 ? ") + kSvRead + " : " + kIdle)}),
       IfThen("take", {NonBlocking("buf_valid_q", "1'b1"),
                       NonBlocking("buf_warp_q", "base_q + WarpWidth'(pcrf_out_warp)"),
                       NonBlocking("buf_reg_q", "pcrf_out_reg"),
                       NonBlocking("left_q", "left_q - CountBits'(1)")}),
       IfThen("wb_done", {NonBlocking("buf_valid_q", "1'b0"),
                          IfThen("left_q == '0", {NonBlocking("st_q", kIdle)})})}));
  m.Comment("The buffer's row (no reset: it holds a row only while the state says so).");
  m.Add(FfNoReset("p_buf", {IfThen(StateIs(kSvWait) + " && rmu_disp",
                                   {NonBlocking("buf_q", "disp_data_o[DataWidth-1:0]")}),
                            IfThen("take", {NonBlocking("buf_q", "pcrf_out_data")})}));
  m.Comment(
      "Occupied PCRF entries as the RMU moved them (S2: free count + occupied = entries, the\n"
      "entry at the walk's output being freed already).");
  m.Add(
      Ff("p_occ", {NonBlocking("occ_q", "'0")},
         {IfThen("app_fire && !take", {NonBlocking("occ_q", "occ_q + CountBits'(1)")},
                 {IfThen("take && !app_fire", {NonBlocking("occ_q", "occ_q - CountBits'(1)")})})}));
  m.Blank();
  m.Comment("Sub-module outputs the RMU does not use (the assertions read some).");
  m.Add(Decl("unused_sub", "", ""));
  m.Add(emit::Assign("unused_sub",
                     "^{mrf_cnt, pcrf_app_entry, pcrf_out_entry, pcrf_out_last, "
                     "pcrf_out_cta, pcrf_q_head_valid, pcrf_q_head, occ_q, cur_found}"));
  m.Blank();

  Ifdef d{"GPURF_ASSERTIONS", {}};
  // One flat vector (CTA c's count at bits c * CountBits): reset without a loop, which
  // Verilator cannot unroll for more than 64 CTA slots (BLKLOOPINIT, the 128 of FineReg).
  const auto saved = [](const std::string& c) {
    return fmt::format("saved_q[32'({}) * CountBits +: CountBits]", c);
  };
  d.items.push_back(Decl("saved_q", Msb(fmt::format("{} * CountBits", s.pcrf.ctas)),
                         "registers the RMU appended per CTA slot, not yet restored"));
  d.items.push_back(
      Ff("p_saved", {NonBlocking("saved_q", "'0")},
         {IfThen("app_fire", {NonBlocking(saved("cta_q"), saved("cta_q") + " + CountBits'(1)")}),
          IfThen("rs_fire", {NonBlocking(saved("rs_cta_i"), "'0")})}));
  Body checks = {
      Assert(fmt::format("!sv_fire || 32'(sv_base_i) + {} <= {}", s.cta_warps, s.warps),
             {Quote("%m: save of CTA warps %0d.. beyond the ACRF's warps"), "sv_base_i"}),
      Assert(fmt::format("!rs_fire || 32'(rs_base_i) + {} <= {}", s.cta_warps, s.warps),
             {Quote("%m: restore into CTA warps %0d.. beyond the ACRF's warps"), "rs_base_i"}),
      Assert("!sv_fire || " + saved("sv_cta_i") + " == '0",
             {Quote("%m: save into CTA slot %0d, which holds a chain"), "sv_cta_i"}),
      Assert("!rmu_disp || " + StateIs(kSvWait),
             {Quote("%m: an RMU read returned with none in flight")}),
      Assert(
          fmt::format("32'(free_count_o) + 32'(occ_q) == {} + 32'(pcrf_out_valid)", s.pcrf.entries),
          {Quote("%m: S2 violated: free count %0d + occupied %0d != entries (+ the entry at "
                 "the walk's output, freed)"),
           "free_count_o", "occ_q"}),
      Assert("!take || pcrf_out_cta == cta_q",
             {Quote("%m: S5 violated: the walk of CTA %0d returned an entry of CTA %0d"), "cta_q",
              "pcrf_out_cta"}),
      Assert("!take || (pcrf_out_last == (left_q == CountBits'(1)))",
             {Quote("%m: S3 violated: end bit %0d with %0d registers left"), "pcrf_out_last",
              "left_q"}),
      Assert("!rs_fire || pcrf_q_count == " + saved("rs_cta_i"),
             {Quote("%m: S4 violated: CTA %0d has %0d registers on its chain, %0d were saved"),
              "rs_cta_i", "pcrf_q_count", saved("rs_cta_i")}),
  };
  d.items.push_back(emit::MisuseCheck(std::move(checks)));
  m.Add(MakeItem(std::move(d)));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(top);
  g.ports = ports.Manifest();
  return g;
}

}  // namespace gpurf
