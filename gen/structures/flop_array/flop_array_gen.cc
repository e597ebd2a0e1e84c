#include "gen/structures/flop_array/flop_array_gen.h"

#include <fmt/format.h>

#include <string>

#include "gen/structures/emit_util.h"
#include "gen/structures/flop_array/flop_array_ports.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

std::vector<std::string> ModuleDoc(const FlopArraySpec& s) {
  std::vector<std::string> doc = {
      s.module_name +
          ": flip-flop register array of Entries rows x Width bits, NumReadPorts read and "
          "NumWritePorts write ports (overridable parameters).",
      "",
      "Port p of a group uses bits [p*AddrWidth +: AddrWidth] of the address vector and",
      "[p*Width +: Width] of the data vector. Writes take effect at the rising edge of clk_i;",
      "when several write ports write one entry in a cycle, the highest-numbered port wins.",
      "Storage is not reset.",
  };
  if (s.registered()) {
    doc.push_back(
        s.bypass ? "Reads are registered (one cycle of latency) and see the write of the same edge."
                 : "Reads are registered (one cycle of latency) and see the entry before the write"
                   " of the same edge; the read register resets to zero.");
    if (s.bypass)
      doc.push_back("The read register resets to zero.");
  } else {
    doc.push_back(
        s.bypass ? "Reads are combinational; a read of an entry written in the same cycle returns"
                   " the new data (write-to-read bypass)."
                 : "Reads are combinational; a read of an entry written in the same cycle returns"
                   " the old data.");
  }
  doc.push_back(s.clock_gate
                    ? "Each row is clocked through a gpurf_clock_gate enabled by its write."
                    : "Rows are written through enables on the free-running clock.");
  if (s.segmented()) {
    doc.push_back(fmt::format(
        "Write data is segmented: segments of WriteSegmentRows = {} rows, each with its own copy "
        "of the write data that is zero unless a port writes that segment, so the rows of the "
        "other segments see no write-data toggles at their D inputs.",
        s.write_segment_rows));
  }
  doc.push_back("Reading or writing an address >= Entries is a misuse: the data is undefined and,");
  doc.push_back("with GPURF_ASSERTIONS defined, an assertion reports it.");
  return doc;
}

// Write-port decode for one row: row_we / row_wdata of the highest-numbered port hitting it.
// `data` is the array of the ports' write data as this row sees it (the ports' buses, or its
// segment's gated copies).
Always RowWriteDecode(const std::string& data) {
  Always a;
  a.kind = AlwaysKind::kComb;
  a.body = {
      Blocking("row_we", "1'b0"),
      Blocking("row_wdata", Index(data, "0")),
      ForLoop("w", "NumWritePorts",
              {IfThen(And({"we_i[w]", Eq(Index("waddr", "w"), Cast("AddrWidth", "r"))}),
                      {Blocking("row_we", "1'b1"), Blocking("row_wdata", Index(data, "w"))})}),
  };
  return a;
}

// Write-data segments: segment s serves rows [s*WriteSegmentRows +: WriteSegmentRows] and
// passes port w's data only in cycles in which port w writes one of those rows; otherwise its
// copy is held at zero, so the D inputs of the segment's rows do not follow the write bus.
GenerateFor WriteSegments() {
  GenerateFor ports{"gen_ports", "w", "NumWritePorts", {}};
  ports.items.push_back(MakeItem(Net{"hit", "", "", "port w writes a row of segment s", ""}));
  ports.items.push_back(MakeItem(BlankLine{}));
  ports.items.push_back(MakeItem(ContinuousAssign{
      "hit", And({"we_i[w]", Eq(BinOp(Index("waddr", "w"), ">>", "WriteSegmentShift"),
                                Cast("AddrWidth", "s"))})}));
  ports.items.push_back(MakeItem(ContinuousAssign{
      Index("seg_wdata", "s*NumWritePorts + w"), BinOp(Index("wdata", "w"), "&", "{Width{hit}}")}));
  GenerateFor g{"gen_write_segments", "s", "NumWriteSegments", {}};
  g.items.push_back(MakeItem(std::move(ports)));
  return g;
}

GenerateFor WritePath(const FlopArraySpec& s) {
  GenerateFor g{"gen_rows", "r", "Entries", {}};
  g.items.push_back(MakeItem(Net{"row_we", "", "", "some write port targets this row", ""}));
  g.items.push_back(
      MakeItem(Net{"row_wdata", Msb("Width"), "", "data of the highest such port", ""}));
  g.items.push_back(MakeItem(Net{"row_q", Msb("Width"), "", "the stored row", ""}));
  g.items.push_back(MakeItem(BlankLine{}));
  if (s.segmented()) {
    // The row's segment copies, picked by a continuous assign: indexing the whole seg_wdata
    // array inside always_comb makes each row sensitive to every segment (and Icarus slow).
    g.items.push_back(
        MakeItem(LocalParam{"Segment", "r / WriteSegmentRows", "write-data segment of this row"}));
    g.items.push_back(MakeItem(Net{"port_wdata", Msb("Width"), "NumWritePorts",
                                   "port w's data as this row's segment sees it", "mem2reg"}));
    g.items.push_back(MakeItem(BlankLine{}));
    GenerateFor pd{"gen_port_data", "w", "NumWritePorts", {}};
    pd.items.push_back(MakeItem(ContinuousAssign{Index("port_wdata", "w"),
                                                 Index("seg_wdata", "Segment*NumWritePorts + w")}));
    g.items.push_back(MakeItem(std::move(pd)));
    g.items.push_back(MakeItem(BlankLine{}));
    g.items.push_back(MakeItem(RowWriteDecode("port_wdata")));
  } else {
    g.items.push_back(MakeItem(RowWriteDecode("wdata")));
  }
  g.items.push_back(MakeItem(BlankLine{}));
  if (s.clock_gate) {
    g.items.push_back(MakeItem(Net{"row_clk", "", "", "clk_i, gated by row_we", ""}));
    g.items.push_back(MakeItem(BlankLine{}));
    g.items.push_back(MakeItem(Instance{
        "gpurf_clock_gate",
        "u_row_clock_gate",
        {},
        {{"clk_i", "clk_i"}, {"en_i", "row_we"}, {"test_en_i", "1'b0"}, {"clk_o", "row_clk"}}}));
    g.items.push_back(MakeItem(BlankLine{}));
    g.items.push_back(MakeItem(
        Always{AlwaysKind::kFF, "posedge row_clk", "", {NonBlocking("row_q", "row_wdata")}}));
  } else {
    g.items.push_back(MakeItem(Always{AlwaysKind::kFF,
                                      "posedge clk_i",
                                      "",
                                      {IfThen("row_we", {NonBlocking("row_q", "row_wdata")})}}));
  }
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(MakeItem(ContinuousAssign{Index("mem", "r"), "row_q"}));
  return g;
}

GenerateFor ReadPath(const FlopArraySpec& s) {
  GenerateFor g{"gen_read_ports", "p", "NumReadPorts", {}};
  g.items.push_back(MakeItem(Net{"addr", Msb("AddrWidth"), "", "this port's address", ""}));
  const std::string out_slice = PartSelect("rdata_o", "p*Width", "Width");
  const std::string data = s.registered() ? "rdata_d" : out_slice;
  if (s.registered() || s.bypass) {
    g.items.push_back(MakeItem(Net{"rdata_d", Msb("Width"), "",
                                   s.bypass ? "stored or bypassed data" : "stored data", ""}));
  }
  if (s.registered()) {
    g.items.push_back(MakeItem(Net{"rdata_q", Msb("Width"), "", "read register", ""}));
  }
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(
      MakeItem(ContinuousAssign{"addr", PartSelect("raddr_i", "p*AddrWidth", "AddrWidth")}));
  if (s.bypass) {
    g.items.push_back(MakeItem(BlankLine{}));
    Always a;
    a.kind = AlwaysKind::kComb;
    a.body = {
        Note("The highest-numbered port writing this address in this cycle supplies the data."),
        Blocking("rdata_d", Index("mem", "addr")),
        ForLoop("w", "NumWritePorts",
                {IfThen(And({"we_i[w]", Eq(Index("waddr", "w"), "addr")}),
                        {Blocking("rdata_d", Index("wdata", "w"))})}),
    };
    g.items.push_back(MakeItem(std::move(a)));
  } else if (s.registered()) {
    g.items.push_back(MakeItem(ContinuousAssign{"rdata_d", Index("mem", "addr")}));
  }
  if (s.registered()) {
    g.items.push_back(MakeItem(BlankLine{}));
    g.items.push_back(MakeItem(Always{
        AlwaysKind::kFF,
        "posedge clk_i or negedge rst_ni",
        "",
        {IfThen("!rst_ni", {NonBlocking("rdata_q", "'0")}, {NonBlocking("rdata_q", "rdata_d")})}}));
    g.items.push_back(MakeItem(BlankLine{}));
    g.items.push_back(MakeItem(ContinuousAssign{out_slice, "rdata_q"}));
  } else if (s.bypass) {
    g.items.push_back(MakeItem(BlankLine{}));
    g.items.push_back(MakeItem(ContinuousAssign{out_slice, "rdata_d"}));
  } else {
    g.items.push_back(MakeItem(ContinuousAssign{data, Index("mem", "addr")}));
  }
  return g;
}

// Parameter and misuse checks; they read only the module's parameters and ports.
Ifdef Assertions() {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(
      MakeItem(CommentItem{"Parameter checks at elaboration; misuse checks every cycle."}));
  Initial init{"p_param_check", {}};
  auto check = [&](const std::string& cond, const std::string& what) {
    init.body.push_back(Assert(cond, {Quote("%m: " + what)}));
  };
  check("Entries >= 1 && Entries <= 1024", "Entries must be in 1..1024");
  check("Width >= 1 && Width <= 1024", "Width must be in 1..1024");
  check("NumReadPorts >= 1 && NumReadPorts <= 12", "NumReadPorts must be in 1..12");
  check("NumWritePorts >= 1 && NumWritePorts <= 4", "NumWritePorts must be in 1..4");
  d.items.push_back(MakeItem(std::move(init)));
  d.items.push_back(MakeItem(BlankLine{}));

  const std::string ra = PartSelect("raddr_i", "p*AddrWidth", "AddrWidth");
  const std::string wa = Index("waddr", "w");
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_address_check", {}};
  a.body.push_back(IfThen(
      "rst_ni", {ForLoop("p", "NumReadPorts",
                         {Assert(BinOp(Cast("32", ra), "<", "Entries"),
                                 {Quote("%m: read port %0d address %0d >= Entries (%0d)"), "p", ra,
                                  "Entries"})}),
                 ForLoop("w", "NumWritePorts",
                         {Assert(BinOp("!we_i[w]", "||", BinOp(Cast("32", wa), "<", "Entries")),
                                 {Quote("%m: write port %0d address %0d >= Entries (%0d)"), "w", wa,
                                  "Entries"})})}));
  d.items.push_back(MakeItem(std::move(a)));
  return d;
}

}  // namespace

GeneratedStructure EmitFlopArray(const FlopArraySpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  g.derived = {{"addr_width", s.addr_width},
               {"storage_bits", static_cast<long long>(s.entries) * s.width},
               {"read_latency", s.registered() ? 1 : 0}};

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"Entries", Int(s.entries), "rows", false},
      {"Width", Int(s.width), "bits per row", false},
      {"NumReadPorts", Int(s.read_ports), "R", false},
      {"NumWritePorts", Int(s.write_ports), "W", false},
      {"AddrWidth", "(Entries > 1) ? $clog2(Entries) : 1", "bits per address", true},
  };
  if (s.segmented()) {
    m.params.push_back(
        {"WriteSegmentRows", Int(s.write_segment_rows), "rows per write-data segment", true});
    m.params.push_back({"WriteSegmentShift", "$clog2(WriteSegmentRows)",
                        "waddr >> WriteSegmentShift = segment", true});
    m.params.push_back({"NumWriteSegments", "(Entries + WriteSegmentRows - 1) / WriteSegmentRows",
                        "segments (the last may be partial)", true});
  }
  m.ports = FlopArrayPortTable(s).Verilog();

  m.Comment(
      "Arrays of registers and wires, not RAMs: mem2reg tells Yosys so (it would otherwise\n"
      "convert them itself and warn).");
  m.Add(
      MakeItem(Net{"mem", Msb("Width"), "Entries", "row r of the storage (read view)", "mem2reg"}));
  m.Add(MakeItem(
      Net{"waddr", Msb("AddrWidth"), "NumWritePorts", "write address of port w", "mem2reg"}));
  m.Add(MakeItem(Net{"wdata", Msb("Width"), "NumWritePorts", "write data of port w", "mem2reg"}));
  if (s.segmented()) {
    m.Add(MakeItem(Net{"seg_wdata", Msb("Width"), "NumWriteSegments*NumWritePorts",
                       "port w's data as segment s sees it, at s*NumWritePorts + w", "mem2reg"}));
  }
  if (!s.registered()) {
    m.Add(MakeItem(
        Net{"unused_rst_n", "", "", "rst_ni: part of the port contract, no reset state here", ""}));
  }
  m.Blank();
  if (!s.registered()) {
    m.Add(MakeItem(ContinuousAssign{"unused_rst_n", "rst_ni"}));
    m.Blank();
  }
  m.Comment("Write ports, unpacked from the flat port vectors.");
  GenerateFor wp{"gen_write_ports", "w", "NumWritePorts", {}};
  wp.items.push_back(MakeItem(
      ContinuousAssign{Index("waddr", "w"), PartSelect("waddr_i", "w*AddrWidth", "AddrWidth")}));
  wp.items.push_back(
      MakeItem(ContinuousAssign{Index("wdata", "w"), PartSelect("wdata_i", "w*Width", "Width")}));
  m.Add(MakeItem(std::move(wp)));
  m.Blank();
  if (s.segmented()) {
    m.Comment(
        "Write-data segments: a segment's rows see port w's data only when port w writes one of\n"
        "them; otherwise zero, so the flip-flop D pins elsewhere do not toggle with the bus.");
    m.Add(MakeItem(WriteSegments()));
    m.Blank();
  }
  m.Comment(
      "Write path: each row decodes the write ports and keeps the last matching port's data.");
  m.Add(MakeItem(WritePath(s)));
  m.Blank();
  m.Comment(s.registered() ? "Read path: each port reads its row into a read register."
                           : "Read path: each port selects its row combinationally.");
  m.Add(MakeItem(ReadPath(s)));
  m.Blank();
  m.Add(MakeItem(Assertions()));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(AssertHeaderFile());
  if (s.clock_gate)
    g.files.push_back(PrimitiveFile("gpurf_clock_gate.sv"));
  g.files.push_back(top);

  g.ports = FlopArrayPortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
