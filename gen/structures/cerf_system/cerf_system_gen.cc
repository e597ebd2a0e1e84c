#include "gen/structures/cerf_system/cerf_system_gen.h"

#include <fmt/format.h>

#include "gen/structures/cerf_system/cerf_system_ports.h"
#include "gen/structures/emit_util.h"
#include "gen/structures/tag_array/tag_array_gen.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL
using emit::Comb;
using emit::Decl;
using emit::Ff;
using emit::FfNoReset;

std::vector<std::string> ModuleDoc(const CerfSystemSpec& s) {
  return {
      fmt::format("{}: register-file system of a cache-emulated register file (Jing et al.,",
                  s.module_name),
      "III-A..III-C): the register file and the L1 data cache share one data array.",
      "",
      "Tagging stage: " + s.tags.module_name + " (RGen re-indexing, banked tag arrays, bank",
      "conflicts serialized, four line states, LRU, " +
          std::string(s.tags.prioritized() ? "lru-prioritized" : "lru-fair") + ").",
      "Data array: NumLines lines of DataWidth bits, line (set, way) at row {set, way}.",
      "Each served lookup acts on the way the tags returned: read-reg / load hits return the",
      "line (rd_*), write-reg and store hits write it, a store miss goes to L2 (mem_wr_*), a",
      "load miss reads L2 (mem_rd_*) and a read-reg miss reads the spilled register back",
      "(fill_*); the response (mem_rsp_* / fill_rsp_*) returns the value and writes the line",
      "when the tags allocated one. A replaced dirty line is written back (mem_wr_*), a",
      "replaced register spilled (spill_*). One instruction's refills are outstanding at a",
      "time (req_ready_o low until they are back).",
      "Full contract: gen/structures/cerf_system/cerf_system_spec.h in the gpurf sources.",
  };
}

// Lookup p's field of a packed per-lookup vector.
std::string Field(const std::string& name, const std::string& width) {
  return PartSelect(name, "p*" + width, width);
}

}  // namespace

GeneratedStructure EmitCerfSystem(const CerfSystemSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  const GeneratedStructure tags = EmitTagArray(s.tags);
  g.files = tags.files;  // the assertion header and the tag array, then this top
  g.derived = {{"sub_modules",
                nlohmann::ordered_json::array(
                    {{{"kind", tags.kind}, {"top", tags.top}, {"regenerate", tags.regenerate}}})},
               {"lines", s.lines()},
               {"data_array_bits", s.lines() * s.data_width},
               {"id_bits", s.id_bits}};

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumLookups", Int(s.lookups()), "P: lookups per request", true},
      {"DataWidth", Int(s.data_width), "D: bits of a line in the data array", true},
      {"AddrWidth", Int(s.tags.addr_width), "address bits", true},
      {"WarpBits", Int(s.tags.warp_bits), "bits of a warp id", true},
      {"RegBits", Int(s.tags.reg_bits), "bits of a register id", true},
      {"OffsetBits", Int(s.tags.offset_bits), "log2 of the line size in bytes", true},
      {"SetBits", Int(s.tags.set_bits), "global set index bits", true},
      {"WayBits", Int(s.tags.way_bits), "way index bits", true},
      {"IdBits", Int(s.id_bits), "bits naming a lookup (refill id)", true},
      {"RowBits", "SetBits + WayBits", "data-array row {set, way}", true},
      {"NumLines", "1 << RowBits", "lines of the data array", true},
  };
  m.ports = CerfSystemPortTable(s).Verilog();
  m.Blank();
  m.Comment(
      "Lookup op: 2'd0 read-reg, 2'd1 write-reg, 2'd2 load, 2'd3 store. Line state: 2'd0\n"
      "inactive, 2'd1 reg, 2'd2 cache, 2'd3 dirty.");
  m.Blank();

  m.Comment("Tagging stage: the generated tag array.");
  m.Add(Decl("req_fire", "", "a request is accepted"));
  m.Add(Decl("mshr_busy", "", "a refill of the current instruction is outstanding"));
  m.Add(Decl("t_req_valid", "", ""));
  m.Add(Decl("t_ready", "", ""));
  const std::pair<const char*, const char*> tag_outs[] = {
      {"rsp_valid_o", "Msb:NumLookups"},
      {"rsp_addr_o", "NumLookups*AddrWidth-1"},
      {"rsp_hit_o", "Msb:NumLookups"},
      {"rsp_way_o", "NumLookups*WayBits-1"},
      {"rsp_state_o", "NumLookups*2-1"},
      {"rsp_next_o", "NumLookups*2-1"},
      {"rsp_victim_valid_o", "Msb:NumLookups"},
      {"rsp_victim_state_o", "NumLookups*2-1"},
      {"rsp_victim_addr_o", "NumLookups*AddrWidth-1"}};
  std::vector<std::pair<std::string, std::string>> conns = {
      {"clk_i", "clk_i"},           {"rst_ni", "rst_ni"},     {"req_valid_i", "t_req_valid"},
      {"lk_valid_i", "lk_valid_i"}, {"lk_op_i", "lk_op_i"},   {"lk_last_i", "lk_last_i"},
      {"lk_warp_i", "lk_warp_i"},   {"lk_reg_i", "lk_reg_i"}, {"lk_addr_i", "lk_addr_i"},
      {"req_ready_o", "t_ready"}};
  for (const auto& [port, msb] : tag_outs) {
    const std::string p = port;
    const std::string net = "t_" + p.substr(0, p.size() - 2);
    const std::string w = msb;
    m.Add(Decl(net, w.rfind("Msb:", 0) == 0 ? Msb(w.substr(4)) : w, ""));
    conns.emplace_back(p, net);
  }
  conns.emplace_back("conflict_cycles_o", "conflict_cycles_o");
  m.Add(MakeItem(Instance{s.tags.module_name, "u_tags", {}, conns}));
  m.Add(emit::Assign("req_ready_o", "t_ready && !mshr_busy"));
  m.Add(emit::Assign("t_req_valid", "req_valid_i && !mshr_busy"));
  m.Add(emit::Assign("req_fire", "req_valid_i && req_ready_o"));
  m.Blank();

  m.Comment(
      "The request's ops and data, latched at acceptance for the lookups served later (the\n"
      "first group is served in the accepting cycle, from the offered request).");
  m.Add(Decl("op_q", "NumLookups*2-1", ""));
  m.Add(Decl("data_q", "NumLookups*DataWidth-1", ""));
  m.Add(Decl("cur_op", "NumLookups*2-1", ""));
  m.Add(Decl("cur_data", "NumLookups*DataWidth-1", ""));
  m.Add(emit::Assign("cur_op", "req_fire ? lk_op_i : op_q"));
  m.Add(emit::Assign("cur_data", "req_fire ? lk_data_i : data_q"));
  m.Add(Ff(
      "p_request", {NonBlocking("op_q", "'0"), NonBlocking("data_q", "'0")},
      {IfThen("req_fire", {NonBlocking("op_q", "lk_op_i"), NonBlocking("data_q", "lk_data_i")})}));
  m.Blank();

  m.Comment("Integrated data array: line (set, way) at row {set, way}; undefined until written.");
  m.Add(MakeItem(Net{"lines_q", Msb("DataWidth"), "NumLines", "", "mem2reg"}));
  m.Add(MakeItem(Net{"row", Msb("RowBits"), "NumLookups", "row of served lookup p", "mem2reg"}));
  m.Add(MakeItem(
      Net{"old", Msb("DataWidth"), "NumLookups", "its line before this cycle", "mem2reg"}));
  m.Add(Decl("hit_rd", Msb("NumLookups"), "read-reg / load hit: return the line"));
  m.Add(Decl("line_we", Msb("NumLookups"), "write-reg / store hit: write lk_data"));
  m.Add(Decl("miss_mem", Msb("NumLookups"), "load miss: L2 read"));
  m.Add(Decl("miss_reg", Msb("NumLookups"), "read-reg miss: fill"));
  m.Add(Decl("alloc", Msb("NumLookups"), "the miss allocated a line (refill writes it)"));
  m.Blank();
  m.Comment("Refill MSHR: one entry per lookup of the current instruction.");
  m.Add(Decl("mshr_valid_q", Msb("NumLookups"), "refill outstanding"));
  m.Add(Decl("mshr_mem_q", Msb("NumLookups"), "1: on the L2 port, 0: on the fill port"));
  m.Add(Decl("mshr_alloc_q", Msb("NumLookups"), "write the response into the data array"));
  m.Add(MakeItem(Net{"mshr_row_q", Msb("RowBits"), "NumLookups", "its row", "mem2reg"}));
  m.Add(Decl("mem_rsp_hit", Msb("NumLookups"), "the L2 response is for entry p"));
  m.Add(Decl("fill_rsp_hit", Msb("NumLookups"), "the fill response is for entry p"));
  m.Add(emit::Assign("mshr_busy", "|mshr_valid_q"));
  m.Blank();

  const std::string op = Field("cur_op", "2");
  const std::string hit = "t_rsp_hit[p]";
  const std::string served = "t_rsp_valid[p]";
  const std::string addr = Field("t_rsp_addr", "AddrWidth");
  const std::string vstate = Field("t_rsp_victim_state", "2");
  const std::string victim = "t_rsp_victim_valid[p]";
  m.Add(Comb(
      "p_lookups",
      {ForLoop(
          "p", "NumLookups",
          {Note("The served lookup's row, from the line address and the way the tags returned."),
           Blocking("row[p]", "{" +
                                  PartSelect("t_rsp_addr", "p*AddrWidth + OffsetBits", "SetBits") +
                                  ", " + Field("t_rsp_way", "WayBits") + "}"),
           Blocking("old[p]", "lines_q[row[p]]"),
           Blocking("hit_rd[p]", served + " && " + hit + " && !cur_op[p*2]"),
           Blocking("line_we[p]",
                    served + " && ((" + op + " == 2'd1) || (" + op + " == 2'd3 && " + hit + "))"),
           Blocking("miss_mem[p]", served + " && !" + hit + " && " + op + " == 2'd2"),
           Blocking("miss_reg[p]", served + " && !" + hit + " && " + op + " == 2'd0"),
           Blocking("alloc[p]",
                    served + " && !" + hit + " && " + Field("t_rsp_next", "2") + " != 2'd0"),
           Blocking("mem_rsp_hit[p]",
                    "mem_rsp_valid_i && mshr_valid_q[p] && (32'(mem_rsp_id_i) == p)"),
           Blocking("fill_rsp_hit[p]",
                    "fill_rsp_valid_i && mshr_valid_q[p] && (32'(fill_rsp_id_i) == p)"),
           Note("Read data: a hit now, a refill when its response arrives."),
           Blocking("rd_valid_o[p]", "hit_rd[p] || mem_rsp_hit[p] || fill_rsp_hit[p]"),
           Blocking(Field("rd_data_o", "DataWidth"),
                    "hit_rd[p] ? old[p] : mem_rsp_hit[p] ? mem_rsp_data_i : fill_rsp_hit[p] ? "
                    "fill_rsp_data_i : '0"),
           Note("L2 / MSHR port: load misses read; dirty victims and store misses write."),
           Blocking("mem_rd_valid_o[p]", "miss_mem[p]"),
           Blocking(Field("mem_rd_addr_o", "AddrWidth"), "miss_mem[p] ? " + addr + " : '0"),
           Blocking("mem_wr_valid_o[p]", "(" + victim + " && " + vstate + " == 2'd3) || (" +
                                             served + " && !" + hit + " && " + op + " == 2'd3)"),
           Blocking(Field("mem_wr_addr_o", "AddrWidth"),
                    "!mem_wr_valid_o[p] ? '0 : " + victim + " ? " +
                        Field("t_rsp_victim_addr", "AddrWidth") + " : " + addr),
           Blocking(Field("mem_wr_data_o", "DataWidth"),
                    "!mem_wr_valid_o[p] ? '0 : " + victim +
                        " ? old[p] : " + Field("cur_data", "DataWidth")),
           Note("Spill / fill port: reg victims are spilled, read-reg misses filled."),
           Blocking("spill_valid_o[p]", victim + " && " + vstate + " == 2'd1"),
           Blocking(Field("spill_addr_o", "AddrWidth"),
                    "spill_valid_o[p] ? " + Field("t_rsp_victim_addr", "AddrWidth") + " : '0"),
           Blocking(Field("spill_data_o", "DataWidth"), "spill_valid_o[p] ? old[p] : '0"),
           Blocking("fill_valid_o[p]", "miss_reg[p]"),
           Blocking(Field("fill_addr_o", "AddrWidth"), "miss_reg[p] ? " + addr + " : '0")})}));
  m.Blank();
  m.Comment(
      "Data-array writes: every row written in one cycle is distinct (the lookups served in one\n"
      "cycle are in different sets, and the harness keeps a request's lookups in different sets,\n"
      "so a refill's row is never another lookup's).");
  m.Add(FfNoReset(
      "p_lines", {ForLoop("p", "NumLookups",
                          {IfThen("line_we[p]",
                                  {NonBlocking("lines_q[row[p]]", Field("cur_data", "DataWidth"))}),
                           IfThen("(mem_rsp_hit[p] && mshr_alloc_q[p])",
                                  {NonBlocking("lines_q[mshr_row_q[p]]", "mem_rsp_data_i")}),
                           IfThen("(fill_rsp_hit[p] && mshr_alloc_q[p])",
                                  {NonBlocking("lines_q[mshr_row_q[p]]", "fill_rsp_data_i")})})}));
  m.Add(Ff("p_mshr",
           {NonBlocking("mshr_valid_q", "'0"), NonBlocking("mshr_mem_q", "'0"),
            NonBlocking("mshr_alloc_q", "'0"),
            ForLoop("p", "NumLookups", {NonBlocking("mshr_row_q[p]", "'0")})},
           {ForLoop("p", "NumLookups",
                    {IfThen("miss_mem[p] || miss_reg[p]",
                            {NonBlocking("mshr_valid_q[p]", "1'b1"),
                             NonBlocking("mshr_mem_q[p]", "miss_mem[p]"),
                             NonBlocking("mshr_alloc_q[p]", "alloc[p]"),
                             NonBlocking("mshr_row_q[p]", "row[p]")},
                            {IfThen("mem_rsp_hit[p] || fill_rsp_hit[p]",
                                    {NonBlocking("mshr_valid_q[p]", "1'b0")})})})}));
  m.Blank();
  m.Comment(
      "Tag-array outputs the glue does not need; the MSHR port bits (read by the assertions).");
  m.Add(Decl("unused_tags", "", ""));
  m.Add(emit::Assign("unused_tags", "^{t_rsp_state, lk_last_i, mshr_mem_q}"));
  m.Blank();

  Ifdef d{"GPURF_ASSERTIONS", {}};
  Body checks = {ForLoop(
      "p", "NumLookups",
      {Assert("!(mem_rsp_valid_i && (32'(mem_rsp_id_i) == p)) || (mshr_valid_q[p] && "
              "mshr_mem_q[p])",
              {Quote("%m: L2 response for id %0d, which has no L2 read outstanding"), "p"}),
       Assert("!(fill_rsp_valid_i && (32'(fill_rsp_id_i) == p)) || (mshr_valid_q[p] && "
              "!mshr_mem_q[p])",
              {Quote("%m: fill response for id %0d, which has no fill outstanding"), "p"}),
       ForLoop("q", "NumLookups",
               {Assert("!(" + served + " && mshr_valid_q[q] && mshr_row_q[q] == row[p])",
                       {Quote("%m: lookup %0d uses row %0d, whose refill (id %0d) is outstanding: "
                              "a request's lookups must be in different sets"),
                        "p", "row[p]", "q"})})})};
  d.items.push_back(emit::MisuseCheck(std::move(checks)));
  m.Add(MakeItem(std::move(d)));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(top);
  g.ports = CerfSystemPortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
