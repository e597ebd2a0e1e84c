#include "gen/structures/rfc/rfc_gen.h"

#include <fmt/format.h>

#include "gen/structures/emit_util.h"
#include "gen/structures/flop_array/flop_array_gen.h"
#include "gen/structures/rfc/rfc_ports.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

// Names of one level's parameters and signals: "l1" -> L1Entries, l1_valid_q, ...
struct Level {
  std::string x;  // "l0" / "l1"
  std::string X;  // "L0" / "L1"
  int entries = 0;
  const FlopArraySpec* storage = nullptr;
  bool top = false;     // the level results are written to first
  bool bottom = false;  // evicts to the MRF (L1)

  std::string N() const { return X + "Entries"; }
  std::string Rows() const { return X + "Rows"; }
  std::string Ib() const { return X + "IdxBits"; }
  std::string Aw() const { return X + "AddrWidth"; }
  std::string s(const std::string& name) const { return x + "_" + name; }
  // Index function: row of (slot, entry), its valid bit; its tag and age fields are numbered
  // alike ("L1Row(s, e) * RegBits"). Arguments are 32-bit expressions.
  std::string Row(const std::string& slot, const std::string& entry) const {
    return fmt::format("{}Row({}, {})", X, slot, entry);
  }
  bool aged() const { return entries > 1; }
};

std::vector<std::string> ModuleDoc(const RfcSpec& s) {
  std::vector<std::string> doc = {
      s.two_levels()
          ? fmt::format("{}: 2-level hardware register file cache (Gebhart TOCS 2012, 4.1, 7.6):",
                        s.module_name)
          : fmt::format("{}: 1-level hardware register file cache (Gebhart TOCS 2012, 4.1):",
                        s.module_name),
      s.two_levels()
          ? fmt::format("{} active-warp slots, L0 {} and L1 {} entries per slot, {}-bit data,",
                        s.active_warps, s.l0_entries, s.l1_entries, s.width)
          : fmt::format("{} active-warp slots, {} entries per slot, {}-bit data,", s.active_warps,
                        s.l1_entries, s.width),
      fmt::format("{}-bit register tags, {} replacement.", s.reg_bits, s.lru() ? "LRU" : "FIFO"),
      "",
      "Ports (operand p of a packed vector at [p*SlotBits +: SlotBits], [p*RegBits +: RegBits],",
      "[p*Width +: Width]):",
      "  lu_*   up to 3 operand lookups per cycle; lu_hit_o/lu_data_o in the same cycle (data",
      "         meaningful on a hit); lu_last_i marks the value's last read: the entry is",
      "         invalidated at the edge and never written back.",
      "  wr_*   one result per cycle, accepted when wr_ready_o (= write-back register free).",
  };
  const bool two = s.two_levels();
  const std::vector<std::string> rest = {
      two ? "         Results are allocated in L0, or in L1 when wr_no_l0_i;"
          : "         Results are allocated in the cache;",
      "         wr_long_i results bypass the cache to the MRF, and so do results for a slot being",
      "         flushed. A copy of the register elsewhere in the slot is invalidated.",
      "  fl_*   deschedule: fl_valid_i/fl_slot_i taken when fl_busy_o is low; every live entry",
      "         of the slot is written back, one per cycle, then fl_done_o pulses.",
      two ? "  wb_*   registered write-back to the MRF (L1 evictions, flushes, bypasses), "
            "transferred"
          : "  wb_*   registered write-back to the MRF (evictions, flushes, bypasses), transferred",
      "         when wb_valid_o && wb_ready_i.",
      "Per cycle: lookups see the state at the start of the cycle; then the write (hit in place,",
      two ? "else the lowest free entry, else the oldest entry is evicted: L0 -> L1 -> MRF); then "
            "the"
          : "else the lowest free entry, else the oldest entry is evicted to the MRF); then the",
      "flush engine uses the write-back register if the write did not. Full contract:",
      "gen/structures/rfc/rfc_spec.h in the gpurf sources.",
      "Invariants, checked with GPURF_ASSERTIONS: no two valid entries of a slot hold the same",
      "register; a live value never leaves an entry except by a dead hint, a newer value of its",
      two ? "register, or a write-back (to L1 or the MRF); a waiting write-back is never "
            "overwritten;"
          : "register, or a write-back (to the MRF); a waiting write-back is never overwritten;",
      "each slot's replacement ages are a permutation (one victim).",
  };
  doc.insert(doc.end(), rest.begin(), rest.end());
  return doc;
}

// First row of a slot given by a signal (cast to 32 bits).
std::string Slot(const Level& L, const std::string& slot) {
  return L.Row(fmt::format("32'({})", slot), "0");
}

// x_addr = slot * Entries + idx, cast to the level's address width.
std::string RowAddr(const Level& L, const std::string& slot, const std::string& idx) {
  return Cast(L.Aw(), L.Row(fmt::format("32'({})", slot), fmt::format("32'({})", idx)));
}

// "oh = v & (~v + 1)": lowest set bit of v.
std::string LowestSet(const Level& L, const std::string& v) {
  return fmt::format("{0} & (~{0} + {1}'(1))", v, L.N());
}

// One-hot to index over a level's entries.
Stmt Encode(const Level& L, const std::string& oh, const std::string& idx) {
  return ForLoop("e", L.N(), {IfThen(Index(oh, "e"), {Blocking(idx, Cast(L.Ib(), "e"))})});
}

// Age update for one touched entry of one slot (`bit_e`: its one-hot bit for entry e): entries
// more recent than it age by one, it becomes the most recent (age 0). Ages stay a permutation
// of 0..Entries-1.
Body Touch(const Level& L, const std::string& bit_e) {
  const std::string a = PartSelect("age_d", "e*" + L.Ib(), L.Ib());
  return {
      Blocking("age_cur", "'0"),
      ForLoop("e", L.N(), {IfThen(bit_e, {Blocking("age_cur", a)})}),
      ForLoop("e", L.N(),
              {IfThen(bit_e, {Blocking(a, "'0")},
                      {IfThen(BinOp(a, "<", "age_cur"),
                              {Blocking(a, fmt::format("{} + {}'(1)", a, L.Ib()))})})}),
  };
}

void AddLevelDecls(Module& m, const Level& L) {
  const std::string N = L.N();
  m.Comment(fmt::format("{} state: valid bits, tags{}.\nSlot s, entry e is row {}.", L.X,
                        L.aged() ? " and replacement ages (0 = most recent)" : "",
                        L.Row("s", "e")));
  m.Add(MakeItem(Net{L.s("valid_q"), Msb(L.Rows()), "", "entry holds a live value", ""}));
  m.Add(MakeItem(Net{L.s("valid_d"), Msb(L.Rows()), "", "", ""}));
  m.Add(MakeItem(Net{L.s("tag_q"), L.Rows() + "*RegBits-1", "", "architected register id", ""}));
  m.Add(MakeItem(Net{L.s("tag_d"), L.Rows() + "*RegBits-1", "", "", ""}));
  if (L.aged()) {
    m.Add(MakeItem(Net{L.s("age_q"), L.Rows() + "*" + L.Ib() + "-1", "",
                       "rank among the slot's entries", ""}));
    m.Add(MakeItem(Net{L.s("age_d"), L.Rows() + "*" + L.Ib() + "-1", "", "", ""}));
  }
  m.Comment(
      fmt::format("{} data array ports: read ports 0..2 serve the operands, read port 3 the\n"
                  "write-back (eviction or flush) read.",
                  L.X));
  m.Add(MakeItem(Net{L.s("we"), "", "", "", ""}));
  m.Add(MakeItem(Net{L.s("waddr"), Msb(L.Aw()), "", "", ""}));
  m.Add(MakeItem(Net{L.s("wdata"), Msb("Width"), "", "", ""}));
  m.Add(MakeItem(Net{L.s("raddr"), "(NumOperands+1)*" + L.Aw() + "-1", "", "", ""}));
  m.Add(MakeItem(Net{L.s("rdata"), "(NumOperands+1)*Width-1", "", "", ""}));
  m.Add(
      MakeItem(Net{L.s("wb_rdata"), Msb("Width"), "", "read port 3: the entry written back", ""}));
  m.Comment(fmt::format("{} lookups.", L.X));
  m.Add(MakeItem(Net{L.s("lu_oh"), "NumOperands*" + N + "-1", "",
                     "operand p's hit entry in its slot, one-hot", ""}));
  m.Add(MakeItem(Net{L.s("lu_hit"), "NumOperands-1", "", "", ""}));
  m.Comment(fmt::format("{} entries of the write's slot.", L.X));
  m.Add(MakeItem(Net{L.s("wr_tags"), N + "*RegBits-1", "", "", ""}));
  if (L.aged())
    m.Add(MakeItem(Net{L.s("wr_age"), N + "*" + L.Ib() + "-1", "", "", ""}));
  m.Add(MakeItem(Net{L.s("wr_kill"), Msb(N), "", "killed by a dead lookup this cycle", ""}));
  m.Add(MakeItem(Net{L.s("wr_live"), Msb(N), "", "valid and not killed", ""}));
  m.Add(MakeItem(Net{L.s("wr_match"), Msb(N), "", "live entry holding wr_reg_i", ""}));
  m.Add(MakeItem(Net{L.s("sup"), Msb(N), "", "superseded: the write goes elsewhere", ""}));
  m.Add(MakeItem(Net{L.s("avail"), Msb(N), "", "live after this cycle's invalidations", ""}));
  m.Add(MakeItem(Net{L.s("free"), Msb(N), "", "", ""}));
  m.Add(MakeItem(Net{L.s("first_free"), Msb(N), "", "lowest free entry", ""}));
  m.Add(MakeItem(Net{L.s("oldest"), Msb(N), "", "replacement victim when full", ""}));
  m.Add(MakeItem(Net{L.s("full"), "", "", "", ""}));
  m.Add(MakeItem(Net{L.s("ins"), "", "", "a value is inserted into this level", ""}));
  m.Add(MakeItem(Net{L.s("ins_reg"), "RegBits-1", "", "", ""}));
  m.Add(MakeItem(Net{L.s("ins_data"), Msb("Width"), "", "", ""}));
  m.Add(MakeItem(Net{L.s("ins_hit"), Msb(N), "", "entry overwritten in place", ""}));
  m.Add(MakeItem(Net{L.s("alloc"), Msb(N), "", "entry written", ""}));
  m.Add(MakeItem(Net{L.s("alloc_idx"), Msb(L.Ib()), "", "", ""}));
  m.Add(MakeItem(Net{L.s("evict"), "", "", "the alloc entry's live value leaves this level", ""}));
  m.Add(MakeItem(Net{L.s("victim_tag"), "RegBits-1", "", "", ""}));
  m.Comment(fmt::format("{} entries of the slot being flushed.", L.X));
  m.Add(MakeItem(Net{L.s("fl_kill"), Msb(N), "", "", ""}));
  m.Add(MakeItem(Net{L.s("fl_live"), Msb(N), "", "", ""}));
  m.Add(MakeItem(Net{L.s("fl_first"), Msb(N), "", "next entry to write back", ""}));
  m.Add(MakeItem(Net{L.s("fl_any"), "", "", "", ""}));
  m.Add(MakeItem(Net{L.s("fl_idx"), Msb(L.Ib()), "", "", ""}));
  m.Add(MakeItem(Net{L.s("fl_tag"), "RegBits-1", "", "", ""}));
  m.Add(MakeItem(Net{L.s("fl_clear"), "", "", "the flush writes back fl_first now", ""}));
  m.Blank();
}

GenerateFor LookupBlock(const Level& L) {
  const std::string N = L.N();
  GenerateFor g{"gen_" + L.s("lookup"), "p", "NumOperands", {}};
  g.items.push_back(MakeItem(Net{"row_valid", Msb(N), "", "valid bits of the operand's slot", ""}));
  g.items.push_back(MakeItem(Net{"row_tags", N + "*RegBits-1", "", "", ""}));
  g.items.push_back(MakeItem(Net{"oh", Msb(N), "", "", ""}));
  g.items.push_back(MakeItem(Net{"idx", Msb(L.Ib()), "", "", ""}));
  g.items.push_back(MakeItem(Net{"op_valid", "", "", "", ""}));
  g.items.push_back(MakeItem(Net{"op_reg", "RegBits-1", "", "", ""}));
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(MakeItem(ContinuousAssign{"op_valid", "lu_valid_i[p]"}));
  g.items.push_back(MakeItem(ContinuousAssign{"op_reg", "lu_reg[p]"}));
  g.items.push_back(MakeItem(
      ContinuousAssign{"row_valid", PartSelect(L.s("valid_q"), Slot(L, "lu_slot[p]"), N)}));
  g.items.push_back(MakeItem(ContinuousAssign{
      "row_tags",
      PartSelect(L.s("tag_q"), Slot(L, "lu_slot[p]") + " * RegBits", N + " * RegBits")}));
  Always a{AlwaysKind::kComb, "", "", {}};
  a.body.push_back(
      ForLoop("e", N,
              {Blocking(Index("oh", "e"),
                        And({"op_valid", "row_valid[e]",
                             Eq(PartSelect("row_tags", "e*RegBits", "RegBits"), "op_reg")}))}));
  a.body.push_back(Blocking("idx", "'0"));
  a.body.push_back(Encode(L, "oh", "idx"));
  g.items.push_back(MakeItem(std::move(a)));
  g.items.push_back(MakeItem(ContinuousAssign{PartSelect(L.s("lu_oh"), "p*" + N, N), "oh"}));
  g.items.push_back(MakeItem(ContinuousAssign{Index(L.s("lu_hit"), "p"), "|oh"}));
  g.items.push_back(MakeItem(ContinuousAssign{PartSelect(L.s("raddr"), "p*" + L.Aw(), L.Aw()),
                                              RowAddr(L, "lu_slot[p]", "idx")}));
  return g;
}

// The write's and the flush's views of a level, its allocation decision and its array ports.
void AddLevelControl(Module& m, const Level& L, const RfcSpec& s) {
  const std::string N = L.N(), x = L.x;
  m.Comment(
      fmt::format("{}: entries killed by dead operand reads, in the write's and the flush's "
                  "slot.",
                  L.X));
  Always k{AlwaysKind::kComb, "", "", {}};
  k.body = {
      Blocking(L.s("wr_kill"), "'0"),
      Blocking(L.s("fl_kill"), "'0"),
      ForLoop("p", "NumOperands",
              {IfThen(And({"lu_last_i[p]", Eq("lu_slot[p]", "wr_slot_i")}),
                      {Blocking(L.s("wr_kill"),
                                L.s("wr_kill") + " | " + PartSelect(L.s("lu_oh"), "p*" + N, N))}),
               IfThen(And({"lu_last_i[p]", Eq("lu_slot[p]", "fl_slot_q")}),
                      {Blocking(L.s("fl_kill"),
                                L.s("fl_kill") + " | " + PartSelect(L.s("lu_oh"), "p*" + N, N))})}),
  };
  m.Add(MakeItem(std::move(k)));
  m.Blank();

  m.Comment(fmt::format("{}: allocation in the write's slot.", L.X));
  m.Add(MakeItem(ContinuousAssign{
      L.s("wr_tags"),
      PartSelect(L.s("tag_q"), Slot(L, "wr_slot_i") + " * RegBits", N + " * RegBits")}));
  if (L.aged()) {
    m.Add(MakeItem(ContinuousAssign{
        L.s("wr_age"),
        PartSelect(L.s("age_q"), Slot(L, "wr_slot_i") + " * " + L.Ib(), N + " * " + L.Ib())}));
  }
  m.Add(MakeItem(ContinuousAssign{
      L.s("wr_live"),
      PartSelect(L.s("valid_q"), Slot(L, "wr_slot_i"), N) + " & ~" + L.s("wr_kill")}));
  GenerateFor ge{"gen_" + L.s("wr_entries"), "e", N, {}};
  ge.items.push_back(MakeItem(
      ContinuousAssign{Index(L.s("wr_match"), "e"),
                       And({Index(L.s("wr_live"), "e"),
                            Eq(PartSelect(L.s("wr_tags"), "e*RegBits", "RegBits"), "wr_reg_i")})}));
  if (L.aged()) {
    ge.items.push_back(MakeItem(ContinuousAssign{
        Index(L.s("oldest"), "e"),
        Eq(PartSelect(L.s("wr_age"), "e*" + L.Ib(), L.Ib()), Cast(L.Ib(), N + " - 1"))}));
  }
  m.Add(MakeItem(std::move(ge)));
  if (!L.aged())
    m.Add(MakeItem(ContinuousAssign{L.s("oldest"), "1'b1"}));

  // Which write goes where: see the global write decode below.
  std::string sup_cond, ins, ins_reg, ins_data, ins_hit_cond;
  if (!s.two_levels()) {
    sup_cond = "wr_fire && wr_bypass";
    ins = "wr_fire && !wr_bypass";
    ins_reg = "wr_reg_i";
    ins_data = "wr_data_i";
    ins_hit_cond = L.s("ins");
  } else if (L.top) {
    sup_cond = "wr_fire && !wr_to_l0";
    ins = "wr_to_l0";
    ins_reg = "wr_reg_i";
    ins_data = "wr_data_i";
    ins_hit_cond = "wr_to_l0";
  } else {
    sup_cond = "wr_fire && !wr_to_l1";
    ins = "wr_to_l1 || l0_evict";
    ins_reg = "wr_to_l1 ? wr_reg_i : l0_victim_tag";
    ins_data = "wr_to_l1 ? wr_data_i : l0_wb_rdata";
    ins_hit_cond = "wr_to_l1";
  }
  m.Add(MakeItem(
      ContinuousAssign{L.s("sup"), fmt::format("({}) ? {} : '0", sup_cond, L.s("wr_match"))}));
  m.Add(MakeItem(ContinuousAssign{L.s("avail"), L.s("wr_live") + " & ~" + L.s("sup")}));
  m.Add(MakeItem(ContinuousAssign{L.s("free"), "~" + L.s("avail")}));
  m.Add(MakeItem(ContinuousAssign{L.s("first_free"), LowestSet(L, L.s("free"))}));
  m.Add(MakeItem(ContinuousAssign{L.s("full"), "&" + L.s("avail")}));
  m.Add(MakeItem(ContinuousAssign{L.s("ins"), ins}));
  m.Add(MakeItem(ContinuousAssign{L.s("ins_reg"), ins_reg}));
  m.Add(MakeItem(ContinuousAssign{L.s("ins_data"), ins_data}));
  m.Add(MakeItem(ContinuousAssign{L.s("ins_hit"),
                                  fmt::format("({}) ? {} : '0", ins_hit_cond, L.s("wr_match"))}));
  m.Add(MakeItem(ContinuousAssign{
      L.s("alloc"), fmt::format("(|{}) ? {} : ({} ? {} : {})", L.s("ins_hit"), L.s("ins_hit"),
                                L.s("full"), L.s("oldest"), L.s("first_free"))}));
  m.Add(MakeItem(ContinuousAssign{L.s("evict"),
                                  And({L.s("ins"), "!(|" + L.s("ins_hit") + ")", L.s("full")})}));
  m.Add(MakeItem(ContinuousAssign{
      L.s("victim_tag"),
      PartSelect(L.s("wr_tags"), "32'(" + L.s("alloc_idx") + ") * RegBits", "RegBits")}));
  m.Blank();

  m.Comment(fmt::format("{}: the flushed slot's next live entry.", L.X));
  m.Add(MakeItem(ContinuousAssign{
      L.s("fl_live"),
      PartSelect(L.s("valid_q"), Slot(L, "fl_slot_q"), N) + " & ~" + L.s("fl_kill")}));
  m.Add(MakeItem(ContinuousAssign{L.s("fl_first"), LowestSet(L, L.s("fl_live"))}));
  m.Add(MakeItem(ContinuousAssign{L.s("fl_any"), "|" + L.s("fl_live")}));
  m.Add(MakeItem(ContinuousAssign{
      L.s("fl_tag"),
      PartSelect(L.s("tag_q"),
                 L.Row("32'(fl_slot_q)", fmt::format("32'({})", L.s("fl_idx"))) + " * RegBits",
                 "RegBits")}));
  m.Add(MakeItem(ContinuousAssign{
      L.s("fl_clear"),
      !s.two_levels() ? "fl_go" : (L.top ? "fl_go && l0_fl_any" : "fl_go && !l0_fl_any")}));
  m.Blank();

  Always enc{AlwaysKind::kComb, "", "", {}};
  enc.body = {Note("One-hot to index."), Blocking(L.s("alloc_idx"), "'0"),
              Blocking(L.s("fl_idx"), "'0"), Encode(L, L.s("alloc"), L.s("alloc_idx")),
              Encode(L, L.s("fl_first"), L.s("fl_idx"))};
  m.Add(MakeItem(std::move(enc)));
  m.Blank();

  m.Comment(
      fmt::format("{} data array: the insertion writes the alloc entry; read port 3 reads the\n"
                  "victim on an eviction, else the flush entry.",
                  L.X));
  m.Add(MakeItem(ContinuousAssign{L.s("we"), L.s("ins")}));
  m.Add(MakeItem(ContinuousAssign{L.s("waddr"), RowAddr(L, "wr_slot_i", L.s("alloc_idx"))}));
  m.Add(MakeItem(ContinuousAssign{L.s("wdata"), L.s("ins_data")}));
  m.Add(MakeItem(ContinuousAssign{PartSelect(L.s("raddr"), "NumOperands*" + L.Aw(), L.Aw()),
                                  fmt::format("{} ? {} : {}", L.s("evict"), L.s("waddr"),
                                              RowAddr(L, "fl_slot_q", L.s("fl_idx")))}));
  m.Add(MakeItem(
      ContinuousAssign{L.s("wb_rdata"), PartSelect(L.s("rdata"), "NumOperands*Width", "Width")}));
  m.Blank();
  m.Add(MakeItem(Instance{L.storage->module_name,
                          "u_" + x + "_data",
                          {},
                          {{"clk_i", "clk_i"},
                           {"rst_ni", "rst_ni"},
                           {"we_i", L.s("we")},
                           {"waddr_i", L.s("waddr")},
                           {"wdata_i", L.s("wdata")},
                           {"raddr_i", L.s("raddr")},
                           {"rdata_o", L.s("rdata")}}}));
  m.Blank();
}

// Next state of one level, slot by slot (constant slices only).
GenerateFor SlotBlock(const Level& L, const RfcSpec& s) {
  const std::string N = L.N();
  GenerateFor g{"gen_" + L.s("slots"), "s", "NumSlots", {}};
  auto net = [&](const std::string& n, const std::string& w, const std::string& c) {
    g.items.push_back(MakeItem(Net{n, w, "", c, ""}));
  };
  net("wr_here", "", "the write targets this slot");
  net("fl_here", "", "the flush engine works on this slot");
  net("kill", Msb(N), "entries read for the last time");
  net("valid_q", Msb(N), "this slot's state");
  net("valid_d", Msb(N), "");
  net("tag_q", N + "*RegBits-1", "");
  net("tag_d", N + "*RegBits-1", "");
  if (L.aged()) {
    net("age_q", N + "*" + L.Ib() + "-1", "");
    net("age_d", N + "*" + L.Ib() + "-1", "");
    net("age_cur", Msb(L.Ib()), "age of the entry being touched");
  }
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(MakeItem(ContinuousAssign{"wr_here", Eq("wr_slot_i", Cast("SlotBits", "s"))}));
  g.items.push_back(MakeItem(ContinuousAssign{"fl_here", Eq("fl_slot_q", Cast("SlotBits", "s"))}));
  g.items.push_back(
      MakeItem(ContinuousAssign{"valid_q", PartSelect(L.s("valid_q"), L.Row("s", "0"), N)}));
  g.items.push_back(MakeItem(ContinuousAssign{
      "tag_q", PartSelect(L.s("tag_q"), L.Row("s", "0") + " * RegBits", N + "*RegBits")}));
  if (L.aged()) {
    g.items.push_back(MakeItem(ContinuousAssign{
        "age_q", PartSelect(L.s("age_q"), L.Row("s", "0") + " * " + L.Ib(), N + "*" + L.Ib())}));
  }
  g.items.push_back(MakeItem(BlankLine{}));
  Always a{AlwaysKind::kComb, "", "", {}};
  a.body = {
      Blocking("kill", "'0"),
      ForLoop("p", "NumOperands",
              {IfThen(And({"lu_last_i[p]", Eq("lu_slot[p]", Cast("SlotBits", "s"))}),
                      {Blocking("kill", "kill | " + PartSelect(L.s("lu_oh"), "p*" + N, N))})}),
      Blocking("valid_d", "valid_q & ~kill"),
      Blocking("tag_d", "tag_q"),
      IfThen("wr_here",
             {Blocking("valid_d", "valid_d & ~" + L.s("sup")),
              IfThen(L.s("ins"),
                     {Blocking("valid_d", "valid_d | " + L.s("alloc")),
                      ForLoop("e", N,
                              {IfThen(Index(L.s("alloc"), "e"),
                                      {Blocking(PartSelect("tag_d", "e*RegBits", "RegBits"),
                                                L.s("ins_reg"))})})})}),
      IfThen(And({"fl_here", L.s("fl_clear")}),
             {Blocking("valid_d", "valid_d & ~" + L.s("fl_first"))}),
  };
  g.items.push_back(MakeItem(std::move(a)));
  if (L.aged()) {
    g.items.push_back(MakeItem(BlankLine{}));
    Always r{AlwaysKind::kComb, "", "", {}};
    r.body.push_back(Blocking("age_d", "age_q"));
    r.body.push_back(Blocking("age_cur", "'0"));
    if (s.lru()) {
      r.body.push_back(
          Note("LRU: read hits, operands in order, make their entry the most recent."));
      r.body.push_back(
          ForLoop("p", "NumOperands",
                  {IfThen(And({Index(L.s("lu_hit"), "p"), Eq("lu_slot[p]", Cast("SlotBits", "s"))}),
                          Touch(L, Index(L.s("lu_oh"), "p*" + N + " + e")))}));
    }
    r.body.push_back(Note("The written entry becomes the most recent."));
    r.body.push_back(IfThen(And({"wr_here", L.s("ins")}), Touch(L, Index(L.s("alloc"), "e"))));
    g.items.push_back(MakeItem(std::move(r)));
  }
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(
      MakeItem(ContinuousAssign{PartSelect(L.s("valid_d"), L.Row("s", "0"), N), "valid_d"}));
  g.items.push_back(MakeItem(ContinuousAssign{
      PartSelect(L.s("tag_d"), L.Row("s", "0") + " * RegBits", N + "*RegBits"), "tag_d"}));
  if (L.aged()) {
    g.items.push_back(MakeItem(ContinuousAssign{
        PartSelect(L.s("age_d"), L.Row("s", "0") + " * " + L.Ib(), N + "*" + L.Ib()), "age_d"}));
  }

  // Invariant 2, per entry: a live value leaves its entry (invalidated or overwritten) only when
  // it is dead, superseded or overwritten by a newer value of its register, or written back.
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(Net{"gone", Msb(N), "", "the value held at the edge leaves", ""}));
  d.items.push_back(
      MakeItem(Net{"accounted", Msb(N), "", "...for one of the allowed reasons", ""}));
  d.items.push_back(MakeItem(
      ContinuousAssign{"gone", fmt::format("valid_q & ~(valid_d & ~((wr_here && {}) ? {} : '0))",
                                           L.s("ins"), L.s("alloc"))}));
  // Where the value may go, restated from the contract rather than taken from the control
  // signals above: an eviction into the next level's write port or the write-back register, a
  // flush write-back of this level's next entry through the write-back register.
  const std::string sink = L.bottom ? "wb_load" : "l1_we";
  const std::string flush_src = !s.two_levels() ? "fl_go"
                                : L.top         ? "fl_go && l0_fl_any"
                                                : "fl_go && !l0_fl_any";
  d.items.push_back(MakeItem(ContinuousAssign{
      "accounted", fmt::format("kill | (wr_here ? ({} | {} | (({} && {}) ? {} : '0)) : '0) | "
                               "((fl_here && {} && wb_load && !wr_uses_wb) ? {} : '0)",
                               L.s("sup"), L.s("ins_hit"), L.s("evict"), sink, L.s("alloc"),
                               flush_src, L.s("fl_first"))}));
  Always chk{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_live_values_kept", {}};
  chk.body.push_back(IfThen("rst_ni", {Assert("(gone & ~accounted) == '0",
                                              {Quote("%m: a live value of slot %0d left " + L.X +
                                                     " entries %b without a write-back"),
                                               "s", "gone & ~accounted"})}));
  d.items.push_back(MakeItem(std::move(chk)));
  g.items.push_back(MakeItem(BlankLine{}));
  g.items.push_back(MakeItem(std::move(d)));
  return g;
}

void AddLevelState(Module& m, const Level& L) {
  m.Comment(
      fmt::format("{} state registers. Tags need no reset (valid bits guard them); ages reset\n"
                  "to a permutation.",
                  L.X));
  Always ff{AlwaysKind::kFF, "posedge clk_i or negedge rst_ni", "p_" + L.s("state"), {}};
  Body rst = {NonBlocking(L.s("valid_q"), "'0")};
  Body run = {NonBlocking(L.s("valid_q"), L.s("valid_d"))};
  if (L.aged()) {
    rst.push_back(ForLoop("i", L.Rows(),
                          {NonBlocking(PartSelect(L.s("age_q"), "i*" + L.Ib(), L.Ib()),
                                       Cast(L.Ib(), "i % " + L.N()))}));
    run.push_back(NonBlocking(L.s("age_q"), L.s("age_d")));
  }
  ff.body = {IfThen("!rst_ni", rst, run)};
  m.Add(MakeItem(std::move(ff)));
  m.Add(MakeItem(Always{AlwaysKind::kFF,
                        "posedge clk_i",
                        "p_" + L.s("tags"),
                        {NonBlocking(L.s("tag_q"), L.s("tag_d"))}}));
  m.Blank();
}

Ifdef Assertions(const RfcSpec& s, const std::vector<Level>& levels) {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(CommentItem{
      "Misuse and invariant checks at every edge (on the next state, so a violation is reported\n"
      "at the edge of the cycle that causes it). The parameters are generator-specialised\n"
      "localparams: no parameter checks."}));
  Always chk{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_checks", {}};
  Body body;
  if ((1 << s.slot_bits) != s.active_warps) {
    body.push_back(ForLoop(
        "p", "NumOperands",
        {Assert(BinOp("!lu_valid_i[p]", "||", BinOp("32'(lu_slot[p])", "<", "NumSlots")),
                {Quote("%m: operand %0d looks up slot %0d >= NumSlots"), "p", "lu_slot[p]"})}));
    body.push_back(Assert(BinOp("!wr_valid_i", "||", BinOp("32'(wr_slot_i)", "<", "NumSlots")),
                          {Quote("%m: write to slot %0d >= NumSlots"), "wr_slot_i"}));
    body.push_back(
        Assert(BinOp("!fl_valid_i || fl_busy_q", "||", BinOp("32'(fl_slot_i)", "<", "NumSlots")),
               {Quote("%m: flush of slot %0d >= NumSlots"), "fl_slot_i"}));
  }
  body.push_back(Assert("!(wb_load && wb_valid_q && !wb_ready_i)",
                        {Quote("%m: waiting write-back overwritten")}));
  // Invariant 1: one copy per register per slot, over both levels, in the next state.
  auto same = [&](const Level& a, const std::string& i, const Level& b, const std::string& j) {
    const std::string ra = a.Row("s", i);
    const std::string rb = b.Row("s", j);
    return And({Index(a.s("valid_d"), ra), Index(b.s("valid_d"), rb),
                Eq(PartSelect(a.s("tag_d"), ra + " * RegBits", "RegBits"),
                   PartSelect(b.s("tag_d"), rb + " * RegBits", "RegBits"))});
  };
  auto no_dup = [&](const Level& a, const Level& b, const std::string& same_entry) {
    return Assert(
        fmt::format("!({})", same_entry),
        {Quote("%m: slot %0d holds register %0d twice (" + a.X + " entry %0d, " + b.X +
               " entry %0d)"),
         "s", PartSelect(a.s("tag_d"), a.Row("s", "i") + " * RegBits", "RegBits"), "i", "j"});
  };
  Body per_slot;
  for (size_t li = 0; li < levels.size(); ++li) {
    const Level& A = levels[li];
    per_slot.push_back(
        ForLoop("i", A.N(),
                {ForLoop("j", A.N(),
                         {IfThen(BinOp("j", ">", "i"), {no_dup(A, A, same(A, "i", A, "j"))})})}));
    for (size_t lj = li + 1; lj < levels.size(); ++lj) {
      const Level& B = levels[lj];
      per_slot.push_back(
          ForLoop("i", A.N(), {ForLoop("j", B.N(), {no_dup(A, B, same(A, "i", B, "j"))})}));
    }
  }
  // Replacement ages of each slot form a permutation of 0..Entries-1 (next state): the victim is
  // then exactly one entry. (An auxiliary invariant: the formal proof of invariant 1 needs it.)
  for (const Level& L : levels) {
    if (!L.aged())
      continue;
    const std::string ai = PartSelect(L.s("age_d"), L.Row("s", "i") + " * " + L.Ib(), L.Ib());
    const std::string aj = PartSelect(L.s("age_d"), L.Row("s", "j") + " * " + L.Ib(), L.Ib());
    const std::vector<std::string> msg = {
        Quote("%m: slot %0d: " + L.X + " replacement ages %h are not a permutation"), "s",
        PartSelect(L.s("age_d"), L.Row("s", "0") + " * " + L.Ib(), L.N() + "*" + L.Ib())};
    per_slot.push_back(ForLoop(
        "i", L.N(),
        {Assert(BinOp("32'(" + ai + ")", "<", L.N()), msg),
         ForLoop("j", L.N(), {IfThen(BinOp("j", ">", "i"), {Assert(BinOp(ai, "!=", aj), msg)})})}));
  }
  body.push_back(ForLoop("s", "NumSlots", per_slot));
  chk.body = {IfThen("rst_ni", body)};
  d.items.push_back(MakeItem(std::move(chk)));
  return d;
}

}  // namespace

GeneratedStructure EmitRfc(const RfcSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(
      s, RegenerateCommand(s.kind, s.params, [&s](const ParamDesc& d) {
        return d.name == "l0_entries" && !s.two_levels();  // only a 2-level RFC has an L0
      }));
  const long long tag_bits =
      static_cast<long long>(s.active_warps) * (s.l1_entries + s.l0_entries) * (s.reg_bits + 1);
  g.derived = {{"slot_bits", s.slot_bits},
               {"entries_per_slot", s.l1_entries + s.l0_entries},
               {"tag_and_valid_bits", tag_bits},
               {"data_bits",
                static_cast<long long>(s.active_warps) * (s.l1_entries + s.l0_entries) * s.width},
               {"l1_storage", s.l1_storage.module_name},
               {"lookup_latency", 0},
               {"writeback_latency", 1}};
  if (s.two_levels())
    g.derived["l0_storage"] = s.l0_storage.module_name;

  std::vector<Level> levels;
  if (s.two_levels())
    levels.push_back({"l0", "L0", s.l0_entries, &s.l0_storage, true, false});
  levels.push_back({"l1", "L1", s.l1_entries, &s.l1_storage, !s.two_levels(), true});

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"NumSlots", Int(s.active_warps), "active-warp slots", true},
      {"L1Entries", Int(s.l1_entries), "L1 entries per slot", true},
  };
  if (s.two_levels())
    m.params.push_back({"L0Entries", Int(s.l0_entries), "L0 entries per slot", true});
  m.params.push_back({"Width", Int(s.width), "data bits per entry", true});
  m.params.push_back({"RegBits", Int(s.reg_bits), "architected register id bits", true});
  m.params.push_back({"NumOperands", "3", "source operands looked up per cycle", true});
  m.params.push_back(
      {"SlotBits", "(NumSlots > 1) ? $clog2(NumSlots) : 1", "bits of a slot number", true});
  for (const Level& L : levels) {
    m.params.push_back(
        {L.Rows(), "NumSlots * " + L.N(), "rows of the " + L.X + " data array", true});
    m.params.push_back({L.Ib(), fmt::format("({0} > 1) ? $clog2({0}) : 1", L.N()),
                        "bits of an entry number within a slot", true});
    m.params.push_back({L.Aw(), fmt::format("({0} > 1) ? $clog2({0}) : 1", L.Rows()),
                        "bits of a " + L.X + " row address", true});
  }

  m.ports = RfcPortTable(s).Verilog();

  // ------------------------------------------------------------------ global declarations
  m.Comment("Index functions of the flat state vectors (valid bits, tags, ages) of each level.");
  for (const Level& L : levels) {
    m.Add(MakeItem(Function{
        L.X + "Row",
        {"slot", "entry"},
        "slot * " + L.N() + " + entry",
        fmt::format("{0} row of entry `entry` of slot `slot`: its data-array row and valid bit; "
                    "its tag is field {0}Row(slot, entry) of RegBits bits{1}.",
                    L.X, L.aged() ? fmt::format(", its age of {} bits", L.Ib()) : "")}));
  }
  m.Blank();
  m.Comment(
      "Operand fields, unpacked from the flat port vectors (mem2reg: arrays of wires, not RAMs).");
  m.Add(MakeItem(Net{"lu_slot", Msb("SlotBits"), "NumOperands", "", "mem2reg"}));
  m.Add(MakeItem(Net{"lu_reg", "RegBits-1", "NumOperands", "", "mem2reg"}));
  m.Blank();
  GenerateFor ops{"gen_operands", "p", "NumOperands", {}};
  ops.items.push_back(MakeItem(
      ContinuousAssign{Index("lu_slot", "p"), PartSelect("lu_slot_i", "p*SlotBits", "SlotBits")}));
  ops.items.push_back(MakeItem(
      ContinuousAssign{Index("lu_reg", "p"), PartSelect("lu_reg_i", "p*RegBits", "RegBits")}));
  m.Add(MakeItem(std::move(ops)));
  m.Blank();

  m.Comment("Write decode, flush engine and write-back register.");
  m.Add(MakeItem(Net{"wb_free", "", "", "the write-back register can be loaded this cycle", ""}));
  m.Add(MakeItem(Net{"wr_fire", "", "", "the write is accepted", ""}));
  m.Add(MakeItem(Net{"wr_bypass", "", "", "long-latency, or for the slot being flushed", ""}));
  if (s.two_levels()) {
    m.Add(MakeItem(Net{"wr_to_l0", "", "", "allocated in L0", ""}));
    m.Add(MakeItem(Net{"wr_to_l1", "", "", "allocated in L1 (not for L0)", ""}));
  }
  m.Add(MakeItem(Net{"wr_uses_wb", "", "", "the write loads the write-back register", ""}));
  m.Add(MakeItem(Net{"fl_busy_q", "", "", "", ""}));
  m.Add(MakeItem(Net{"fl_slot_q", Msb("SlotBits"), "", "", ""}));
  m.Add(MakeItem(Net{"fl_has", "", "", "the flushed slot still holds a live entry", ""}));
  m.Add(MakeItem(Net{"fl_go", "", "", "the flush writes one entry back now", ""}));
  m.Add(MakeItem(Net{"wb_load", "", "", "", ""}));
  m.Add(MakeItem(Net{"wb_valid_q", "", "", "", ""}));
  m.Add(MakeItem(Net{"wb_slot_d", Msb("SlotBits"), "", "", ""}));
  m.Add(MakeItem(Net{"wb_slot_q", Msb("SlotBits"), "", "", ""}));
  m.Add(MakeItem(Net{"wb_reg_d", "RegBits-1", "", "", ""}));
  m.Add(MakeItem(Net{"wb_reg_q", "RegBits-1", "", "", ""}));
  m.Add(MakeItem(Net{"wb_data_d", Msb("Width"), "", "", ""}));
  m.Add(MakeItem(Net{"wb_data_q", Msb("Width"), "", "", ""}));
  m.Blank();
  for (const Level& L : levels)
    AddLevelDecls(m, L);

  // ------------------------------------------------------------------ lookups
  m.Comment(
      "Step 1, lookups: each operand compares the tags of its slot in every level (state at the\n"
      "start of the cycle); the hit entry's row is read on the operand's read port.");
  for (const Level& L : levels) {
    m.Add(MakeItem(LookupBlock(L)));
    m.Blank();
  }
  if (s.two_levels()) {
    m.Add(MakeItem(ContinuousAssign{"lu_hit_o", "l0_lu_hit | l1_lu_hit"}));
    m.Add(MakeItem(ContinuousAssign{"lu_l0_o", "l0_lu_hit"}));
    GenerateFor d{"gen_lu_data", "p", "NumOperands", {}};
    d.items.push_back(MakeItem(ContinuousAssign{
        PartSelect("lu_data_o", "p*Width", "Width"),
        fmt::format("l0_lu_hit[p] ? {} : {}", PartSelect("l0_rdata", "p*Width", "Width"),
                    PartSelect("l1_rdata", "p*Width", "Width"))}));
    m.Add(MakeItem(std::move(d)));
  } else {
    m.Add(MakeItem(ContinuousAssign{"lu_hit_o", "l1_lu_hit"}));
    m.Add(
        MakeItem(ContinuousAssign{"lu_data_o", PartSelect("l1_rdata", "0", "NumOperands*Width")}));
  }
  m.Blank();

  // ------------------------------------------------------------------ write decode
  m.Comment(
      "Step 2, the write. It is accepted when the write-back register is free, since it may\n"
      "need it (bypass or an L1 eviction).");
  m.Add(MakeItem(ContinuousAssign{"wb_free", "!wb_valid_q || wb_ready_i"}));
  m.Add(MakeItem(ContinuousAssign{"wr_ready_o", "wb_free"}));
  m.Add(MakeItem(ContinuousAssign{"wr_fire", "wr_valid_i && wb_free"}));
  m.Add(MakeItem(
      ContinuousAssign{"wr_bypass", "wr_long_i || (fl_busy_q && (wr_slot_i == fl_slot_q))"}));
  if (s.two_levels()) {
    m.Add(MakeItem(ContinuousAssign{"wr_to_l0", "wr_fire && !wr_bypass && !wr_no_l0_i"}));
    m.Add(MakeItem(ContinuousAssign{"wr_to_l1", "wr_fire && !wr_bypass && wr_no_l0_i"}));
  }
  m.Add(MakeItem(ContinuousAssign{"wr_uses_wb", "wr_fire && (wr_bypass || l1_evict)"}));
  m.Blank();
  for (const Level& L : levels)
    AddLevelControl(m, L, s);

  // ------------------------------------------------------------------ flush engine
  m.Comment(
      fmt::format("Step 3, the flush engine: one live entry of the flushed slot per cycle{}, when\n"
                  "the write leaves the write-back register and the entry's read port alone.",
                  s.two_levels() ? " (L0 first)" : ""));
  if (s.two_levels()) {
    m.Add(MakeItem(ContinuousAssign{"fl_has", "l0_fl_any || l1_fl_any"}));
    m.Add(MakeItem(ContinuousAssign{
        "fl_go", "fl_busy_q && fl_has && wb_free && !wr_uses_wb && !(l0_fl_any && l0_evict)"}));
  } else {
    m.Add(MakeItem(ContinuousAssign{"fl_has", "l1_fl_any"}));
    m.Add(MakeItem(ContinuousAssign{"fl_go", "fl_busy_q && fl_has && wb_free && !wr_uses_wb"}));
  }
  m.Add(MakeItem(ContinuousAssign{"fl_done_o", "fl_busy_q && !fl_has && wb_free"}));
  m.Add(MakeItem(ContinuousAssign{"fl_busy_o", "fl_busy_q"}));
  m.Blank();
  Always fl{AlwaysKind::kFF, "posedge clk_i or negedge rst_ni", "p_flush", {}};
  fl.body = {IfThen("!rst_ni", {NonBlocking("fl_busy_q", "1'b0"), NonBlocking("fl_slot_q", "'0")},
                    {IfThen("!fl_busy_q",
                            {IfThen("fl_valid_i", {NonBlocking("fl_busy_q", "1'b1"),
                                                   NonBlocking("fl_slot_q", "fl_slot_i")})},
                            {IfThen("fl_done_o", {NonBlocking("fl_busy_q", "1'b0")})})})};
  m.Add(MakeItem(std::move(fl)));
  m.Blank();

  // ------------------------------------------------------------------ write-back register
  m.Comment("Step 4, the write-back register: loaded by the write, else by the flush.");
  m.Add(MakeItem(ContinuousAssign{"wb_load", "wr_uses_wb || fl_go"}));
  Always wbm{AlwaysKind::kComb, "", "", {}};
  Body from_flush;
  if (s.two_levels()) {
    from_flush = {IfThen(
        "l0_fl_any", {Blocking("wb_reg_d", "l0_fl_tag"), Blocking("wb_data_d", "l0_wb_rdata")},
        {Blocking("wb_reg_d", "l1_fl_tag"), Blocking("wb_data_d", "l1_wb_rdata")})};
  } else {
    from_flush = {Blocking("wb_reg_d", "l1_fl_tag"), Blocking("wb_data_d", "l1_wb_rdata")};
  }
  from_flush.insert(from_flush.begin(), Blocking("wb_slot_d", "fl_slot_q"));
  wbm.body = {IfThen(
      "wr_uses_wb",
      {Blocking("wb_slot_d", "wr_slot_i"),
       IfThen("wr_bypass", {Blocking("wb_reg_d", "wr_reg_i"), Blocking("wb_data_d", "wr_data_i")},
              {Blocking("wb_reg_d", "l1_victim_tag"), Blocking("wb_data_d", "l1_wb_rdata")})},
      from_flush)};
  m.Add(MakeItem(std::move(wbm)));
  m.Blank();
  m.Add(MakeItem(
      Always{AlwaysKind::kFF,
             "posedge clk_i or negedge rst_ni",
             "p_wb_valid",
             {IfThen("!rst_ni", {NonBlocking("wb_valid_q", "1'b0")},
                     {IfThen("wb_load", {NonBlocking("wb_valid_q", "1'b1")},
                             {IfThen("wb_ready_i", {NonBlocking("wb_valid_q", "1'b0")})})})}}));
  m.Add(MakeItem(Always{AlwaysKind::kFF,
                        "posedge clk_i",
                        "p_wb_payload",
                        {IfThen("wb_load", {NonBlocking("wb_slot_q", "wb_slot_d"),
                                            NonBlocking("wb_reg_q", "wb_reg_d"),
                                            NonBlocking("wb_data_q", "wb_data_d")})}}));
  m.Add(MakeItem(ContinuousAssign{"wb_valid_o", "wb_valid_q"}));
  m.Add(MakeItem(ContinuousAssign{"wb_slot_o", "wb_slot_q"}));
  m.Add(MakeItem(ContinuousAssign{"wb_reg_o", "wb_reg_q"}));
  m.Add(MakeItem(ContinuousAssign{"wb_data_o", "wb_data_q"}));
  m.Blank();

  // ------------------------------------------------------------------ next state
  m.Comment(
      "Next state, slot by slot: dead reads, superseded copies and flushed entries are\n"
      "invalidated; the insertion sets its entry's valid bit and tag; replacement ages follow\n"
      "the touches of the cycle in order (operands 0..2 for LRU, then the write).");
  for (const Level& L : levels) {
    m.Add(MakeItem(SlotBlock(L, s)));
    m.Blank();
    AddLevelState(m, L);
  }
  m.Add(MakeItem(Assertions(s, levels)));

  // ------------------------------------------------------------------ files and ports
  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  std::vector<const FlopArraySpec*> arrays = {&s.l1_storage};
  if (s.two_levels() && s.l0_storage.module_name != s.l1_storage.module_name)
    arrays.insert(arrays.begin(), &s.l0_storage);
  g.files.push_back(AssertHeaderFile());
  if (s.clock_gate)
    g.files.push_back(PrimitiveFile("gpurf_clock_gate.sv"));
  for (const FlopArraySpec* a : arrays) {
    for (const GeneratedFile& f : EmitFlopArray(*a).files) {
      if (!f.primitive)
        g.files.push_back(f);
    }
  }
  g.files.push_back(top);

  g.ports = RfcPortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
