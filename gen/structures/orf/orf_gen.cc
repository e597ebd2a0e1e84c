#include "gen/structures/orf/orf_gen.h"

#include <fmt/format.h>

#include "gen/structures/emit_util.h"
#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/orf/orf_ports.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

std::string LevelText(const OrfSpec& s) {
  if (s.level == OrfSpec::Level::kL1)
    return fmt::format("L1 ORF, {} entries per thread", s.entries_per_thread);
  return s.split ? "split L0 ORF, one single-entry bank per operand slot A/B/C"
                 : "unified L0 ORF, one entry per thread";
}

std::vector<std::string> ModuleDoc(const OrfSpec& s) {
  std::vector<std::string> doc = {
      fmt::format("{}: software-managed {}, {} active-warp slots, {}-bit rows.", s.module_name,
                  LevelText(s), s.active_warps, s.width),
      "(Gebhart et al., TOCS 2012, sections 4.2-4.6.) No tags: each operand names its slot",
      "(the warp's active slot) and its entry; the compiler decides what lives here.",
      "The shape is fixed by the generated storage it instantiates: regenerate to change it.",
      "",
  };
  if (s.split) {
    doc.push_back("Storage: three " + s.storage.module_name + " banks (NumActive rows, 1R1W).");
    doc.push_back("A write goes to bank wentry_i (0 = A, 1 = B, 2 = C); read port p reads bank p");
    doc.push_back("at row rslot_i of port p, and rentry_i of port p must be p.");
  } else {
    doc.push_back("Storage: one " + s.storage.module_name +
                  " (3R1W), row = SlotEntry(slot, entry) = slot * Entries + entry.");
  }
  doc.push_back(s.registered() ? "Reads are registered (one cycle of latency, reset value 0)"
                               : "Reads are combinational");
  doc.back() += s.bypass() ? "; a same-cycle write is forwarded to reads of its entry."
                           : "; a same-cycle write is not visible to reads.";
  doc.push_back("");
  doc.push_back("Validity is the compiler's contract and is not stored (the paper's ORF has no");
  doc.push_back("valid bits): an entry is valid from its write until inv_i names its slot (the");
  doc.push_back("warp was descheduled) or reset. With GPURF_ASSERTIONS defined, a shadow of it");
  doc.push_back("reports every enabled read (re_i[p]) of an invalid entry, out-of-range slots and");
  doc.push_back("entries" +
                std::string(s.split ? ", and a read port reading another port's bank." : "."));
  doc.push_back("re_i, inv_i and inv_slot_i feed only that checker.");
  return doc;
}

std::string RowOf(const std::string& slot, const std::string& entry) {
  return "RowAddrWidth'(SlotEntry(32'(" + slot + "), 32'(" + entry + ")))";
}

Ifdef Assertions(const OrfSpec& s) {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(CommentItem{
      "Validity shadow: entry (s, e) at bit SlotEntry(s, e); what the compiler may rely on, kept\n"
      "for checking only. (The shape is fixed by the storage: no parameter checks needed.)"}));
  d.items.push_back(
      MakeItem(Net{"chk_valid_q", "NumActive*Entries-1", "", "entry holds a live value", ""}));
  d.items.push_back(MakeItem(
      Net{"chk_read_valid", "NumReadPorts-1", "", "read port p addresses a valid entry", ""}));
  d.items.push_back(MakeItem(Net{"chk_inv_q", "", "", "inv_i at the previous edge", ""}));
  d.items.push_back(MakeItem(Net{"chk_inv_slot_q", Msb("SlotWidth"), "", "its slot", ""}));
  d.items.push_back(
      MakeItem(Net{"chk_inv_left", "", "", "that slot still holds a valid entry after it", ""}));
  d.items.push_back(MakeItem(BlankLine{}));

  const std::string ws = Cast("SlotWidth", "s");
  const std::string we = Cast("EntryWidth", "e");
  Always shadow{AlwaysKind::kFF, "posedge clk_i or negedge rst_ni", "", {}};
  shadow.body = {IfThen(
      "!rst_ni",
      {NonBlocking("chk_valid_q", "'0"), NonBlocking("chk_inv_q", "1'b0"),
       NonBlocking("chk_inv_slot_q", "'0")},
      {NonBlocking("chk_inv_q", "inv_i"), NonBlocking("chk_inv_slot_q", "inv_slot_i"),
       ForLoop(
           "s", "NumActive",
           {ForLoop("e", "Entries",
                    {IfThen(And({"inv_i", Eq("inv_slot_i", ws)}),
                            {NonBlocking("chk_valid_q[SlotEntry(s, e)]", "1'b0")},
                            {IfThen(And({"we_i", Eq("wslot_i", ws), Eq("wentry_i", we)}),
                                    {NonBlocking("chk_valid_q[SlotEntry(s, e)]", "1'b1")})})})})})};
  d.items.push_back(MakeItem(std::move(shadow)));
  d.items.push_back(MakeItem(BlankLine{}));

  const std::string rslot = PartSelect("rslot_i", "p*SlotWidth", "SlotWidth");
  const std::string rentry = PartSelect("rentry_i", "p*EntryWidth", "EntryWidth");
  // A split L0 port reads its own bank whatever rentry_i says.
  const std::string read_entry = s.split ? "p" : rentry;
  std::string hit = And({Eq(rslot, ws), Eq(read_entry, s.split ? "e" : we)});
  std::string valid = "chk_valid_q[SlotEntry(s, e)]";
  if (s.bypass())
    valid = "chk_valid_q[SlotEntry(s, e)] || (we_i && (wslot_i == " + ws +
            ") && (wentry_i == " + we + "))";
  Always rv;
  rv.kind = AlwaysKind::kComb;
  rv.body = {ForLoop(
      "p", "NumReadPorts",
      {Blocking("chk_read_valid[p]", "1'b0"),
       ForLoop("s", "NumActive",
               {ForLoop("e", "Entries", {IfThen(hit, {Blocking("chk_read_valid[p]", valid)})})})})};
  d.items.push_back(MakeItem(std::move(rv)));
  d.items.push_back(MakeItem(BlankLine{}));

  // Empty after a deschedule: no entry of the slot named by the previous edge's inv_i is valid.
  Always left;
  left.kind = AlwaysKind::kComb;
  left.body = {Blocking("chk_inv_left", "1'b0"),
               ForLoop("s", "NumActive",
                       {ForLoop("e", "Entries",
                                {IfThen(And({"chk_inv_q", Eq("chk_inv_slot_q", ws),
                                             "chk_valid_q[SlotEntry(s, e)]"}),
                                        {Blocking("chk_inv_left", "1'b1")})})})};
  d.items.push_back(MakeItem(std::move(left)));
  d.items.push_back(MakeItem(BlankLine{}));

  Body per_port = {
      Assert(BinOp("!re_i[p]", "||",
                   And({BinOp(Cast("32", rslot), "<", "NumActive"),
                        BinOp(Cast("32", rentry), "<", "Entries")})),
             {Quote("%m: read port %0d: slot %0d / entry %0d out of range"), "p", rslot, rentry})};
  if (s.split) {
    per_port.push_back(Assert(
        BinOp("!re_i[p]", "||", BinOp(Cast("32", rentry), "==", "p")),
        {Quote("%m: read port %0d reads L0 bank %0d, not its own (split L0)"), "p", rentry}));
  }
  per_port.push_back(Assert(
      "!(" + And({"re_i[p]", BinOp(Cast("32", rslot), "<", "NumActive"), "!chk_read_valid[p]"}) +
          ")",
      {Quote("%m: read port %0d reads invalid entry (slot %0d, entry %0d)"), "p", rslot,
       read_entry}));
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_misuse_check", {}};
  a.body = {IfThen(
      "rst_ni",
      {Assert(BinOp("!we_i", "||",
                    And({BinOp(Cast("32", "wslot_i"), "<", "NumActive"),
                         BinOp(Cast("32", "wentry_i"), "<", "Entries")})),
              {Quote("%m: write slot %0d / entry %0d out of range"), "wslot_i", "wentry_i"}),
       Assert(BinOp("!inv_i", "||", BinOp(Cast("32", "inv_slot_i"), "<", "NumActive")),
              {Quote("%m: invalidated slot %0d out of range"), "inv_slot_i"}),
       Assert("!chk_inv_left", {Quote("%m: slot %0d still holds a valid entry after its warp "
                                      "was descheduled"),
                                "chk_inv_slot_q"}),
       ForLoop("p", "NumReadPorts", per_port)})};
  d.items.push_back(MakeItem(std::move(a)));
  return d;
}

}  // namespace

GeneratedStructure EmitOrf(const OrfSpec& s) {
  const GeneratedStructure bank = EmitFlopArray(s.storage);

  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  g.derived = {{"level", s.level == OrfSpec::Level::kL1 ? "L1" : "L0"},
               {"entries", s.entries},
               {"banks", s.banks},
               {"rows_per_bank", s.storage.entries},
               {"slot_width", s.slot_width},
               {"entry_width", s.entry_width},
               {"storage_module", s.storage.module_name},
               {"storage_bits", static_cast<long long>(s.storage.entries) * s.width * s.banks},
               {"read_latency", s.registered() ? 1 : 0}};

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumActive", Int(s.active_warps), "A: active-warp slots", true},
      {"Entries", Int(s.entries),
       s.split ? "entry names per thread: the three banks" : "entries per thread", true},
      {"Width", Int(s.width), "bits per row", true},
      {"NumReadPorts", Int(OrfSpec::kReadPorts), "operand slots A, B, C", true},
      {"SlotWidth", "(NumActive > 1) ? $clog2(NumActive) : 1", "bits of a slot", true},
      {"EntryWidth", "(Entries > 1) ? $clog2(Entries) : 1", "bits of an entry", true},
  };
  if (!s.split) {
    m.params.push_back({"RowAddrWidth",
                        "(NumActive * Entries > 1) ? $clog2(NumActive * Entries) : 1",
                        "row address of the storage array", true});
  }
  m.ports = OrfPortTable(s).Verilog();

  std::string unused = "{re_i, inv_i, inv_slot_i}";
  if (s.split) {
    unused = "{re_i, rentry_i, inv_i, inv_slot_i}";
  } else if (s.entries == 1) {
    unused = "{re_i, wentry_i, rentry_i, inv_i, inv_slot_i}";
  }
  m.Add(MakeItem(Function{
      "SlotEntry",
      {"slot", "entry"},
      "slot * Entries + entry",
      s.split ? "Index function: bit of entry `entry` of slot `slot` in the validity shadow."
              : "Index function: storage row of entry `entry` of slot `slot`, and its bit in the "
                "validity shadow."}));
  m.Blank();
  m.Add(MakeItem(Net{"unused_check_inputs", "", "", "inputs only the misuse checker reads", ""}));
  m.Blank();
  m.Add(MakeItem(ContinuousAssign{"unused_check_inputs", "^" + unused}));
  m.Blank();

  if (s.split) {
    m.Comment("One bank per operand slot: bank b takes writes naming entry b; port b reads it.");
    GenerateFor banks{"gen_banks", "b", "NumReadPorts", {}};
    banks.items.push_back(MakeItem(Net{"bank_we", "", "", "this bank is written", ""}));
    banks.items.push_back(MakeItem(BlankLine{}));
    banks.items.push_back(MakeItem(
        ContinuousAssign{"bank_we", And({"we_i", Eq("wentry_i", Cast("EntryWidth", "b"))})}));
    banks.items.push_back(MakeItem(BlankLine{}));
    banks.items.push_back(
        MakeItem(Instance{s.storage.module_name,
                          "u_bank",
                          {},
                          {{"clk_i", "clk_i"},
                           {"rst_ni", "rst_ni"},
                           {"we_i", "bank_we"},
                           {"waddr_i", "wslot_i"},
                           {"wdata_i", "wdata_i"},
                           {"raddr_i", PartSelect("rslot_i", "b*SlotWidth", "SlotWidth")},
                           {"rdata_o", PartSelect("rdata_o", "b*Width", "Width")}}}));
    m.Add(MakeItem(std::move(banks)));
  } else {
    m.Comment(s.entries == 1 ? "Row addresses: one entry per thread, the row is the slot."
                             : "Row addresses: SlotEntry(slot, entry).");
    m.Add(MakeItem(Net{"waddr", Msb("RowAddrWidth"), "", "row written", ""}));
    m.Add(MakeItem(Net{"raddr", "NumReadPorts*RowAddrWidth-1", "",
                       "row per read port at [p*RowAddrWidth +: RowAddrWidth]", ""}));
    m.Blank();
    const std::string rslot = PartSelect("rslot_i", "p*SlotWidth", "SlotWidth");
    const std::string rentry = PartSelect("rentry_i", "p*EntryWidth", "EntryWidth");
    m.Add(MakeItem(ContinuousAssign{
        "waddr", s.entries == 1 ? std::string("wslot_i") : RowOf("wslot_i", "wentry_i")}));
    GenerateFor rp{"gen_read_rows", "p", "NumReadPorts", {}};
    if (s.entries == 1) {
      rp.items.push_back(
          MakeItem(ContinuousAssign{PartSelect("raddr", "p*RowAddrWidth", "RowAddrWidth"), rslot}));
    } else {
      rp.items.push_back(MakeItem(Net{"slot", Msb("SlotWidth"), "", "this port's slot", ""}));
      rp.items.push_back(MakeItem(Net{"entry", Msb("EntryWidth"), "", "and entry", ""}));
      rp.items.push_back(MakeItem(BlankLine{}));
      rp.items.push_back(MakeItem(ContinuousAssign{"slot", rslot}));
      rp.items.push_back(MakeItem(ContinuousAssign{"entry", rentry}));
      rp.items.push_back(MakeItem(ContinuousAssign{
          PartSelect("raddr", "p*RowAddrWidth", "RowAddrWidth"), RowOf("slot", "entry")}));
    }
    m.Add(MakeItem(std::move(rp)));
    m.Blank();
    m.Comment("Storage: the generated flip-flop array.");
    m.Add(MakeItem(Instance{s.storage.module_name,
                            "u_storage",
                            {},
                            {{"clk_i", "clk_i"},
                             {"rst_ni", "rst_ni"},
                             {"we_i", "we_i"},
                             {"waddr_i", "waddr"},
                             {"wdata_i", "wdata_i"},
                             {"raddr_i", "raddr"},
                             {"rdata_o", "rdata_o"}}}));
  }
  m.Blank();
  m.Add(MakeItem(Assertions(s)));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  for (const auto& f : bank.files)
    g.files.push_back(f);
  g.files.push_back(top);

  g.ports = OrfPortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
