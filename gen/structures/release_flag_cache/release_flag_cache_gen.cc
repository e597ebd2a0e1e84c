#include "gen/structures/release_flag_cache/release_flag_cache_gen.h"

#include <fmt/format.h>

#include "gen/structures/emit_util.h"
#include "gen/structures/release_flag_cache/release_flag_cache_ports.h"
#include "gen/vlog/ast.h"
#include "gen/vlog/expr.h"
#include "gen/vlog/printer.h"

namespace gpurf {

namespace {

using namespace vlog;  // NOLINT(google-build-using-namespace): builder DSL

std::vector<std::string> ModuleDoc(const ReleaseFlagCacheSpec& s) {
  return {
      fmt::format("{}: release flag cache (Jeon et al., MICRO 2015, section 7.2),", s.module_name),
      fmt::format("{} entries x {} payload bits, direct-mapped by the pir's word address",
                  s.entries, s.payload_bits),
      fmt::format("(PC >> {}); tags of {} bits.", s.offset_bits, s.tag_bits),
      "",
      "Entry of word address a: low = a mod 2^IndexBits, low when below Entries, else",
      "low - Entries (folded); the tag is a >> IndexBits (and the fold bit when Entries is not",
      "a power of two). A lookup hits when its entry is valid with its tag (lk_flags_o = the",
      "payload), else misses (lk_miss_o: fetch and decode the metadata instruction). A fill",
      "replaces its entry at the edge; flush_i invalidates every entry (and drops a fill).",
      "Invariants (checked with GPURF_ASSERTIONS defined): F1 a hit is a valid entry with the",
      "lookup's tag and answers its payload; F2 hits + misses = lookups; F3 after a flush no",
      "entry is valid.",
  };
}

// The index and tag of port `pre`'s PC (lk or fill).
void IndexAndTag(Module& m, const ReleaseFlagCacheSpec& s, const std::string& pre) {
  m.Add(MakeItem(Net{pre + "_addr", "AddrBits-1", "", "word address", ""}));
  m.Add(MakeItem(Net{pre + "_low", "IndexBits-1", "", "its low bits", ""}));
  m.Add(MakeItem(Net{pre + "_idx", "IndexBits-1", "", "its entry", ""}));
  m.Add(MakeItem(Net{pre + "_tag", "TagBits-1", "", "its tag", ""}));
  m.Add(MakeItem(ContinuousAssign{pre + "_addr", pre + "_pc_i[PcBits-1:OffBits]"}));
  m.Add(MakeItem(ContinuousAssign{pre + "_low", pre + "_addr[IndexBits-1:0]"}));
  if (s.folded) {
    m.Add(MakeItem(Net{pre + "_fold", "", "", "low is past the last entry: folded", ""}));
    m.Add(MakeItem(ContinuousAssign{pre + "_fold", "32'(" + pre + "_low) >= Entries"}));
    m.Add(MakeItem(ContinuousAssign{pre + "_idx", pre + "_fold ? IndexBits'(32'(" + pre +
                                                      "_low) - Entries) : " + pre + "_low"}));
    m.Add(MakeItem(ContinuousAssign{pre + "_tag",
                                    "{" + pre + "_addr[AddrBits-1:IndexBits], " + pre + "_fold}"}));
  } else {
    m.Add(MakeItem(ContinuousAssign{pre + "_idx", pre + "_low"}));
    m.Add(MakeItem(ContinuousAssign{pre + "_tag", pre + "_addr[AddrBits-1:IndexBits]"}));
  }
}

Ifdef Assertions() {
  Ifdef d{"GPURF_ASSERTIONS", {}};
  d.items.push_back(MakeItem(CommentItem{"F2's lookup counter and F3's flush flag."}));
  d.items.push_back(MakeItem(Net{"chk_lookups_q", "31", "", "lookups since reset", ""}));
  d.items.push_back(MakeItem(Net{"chk_flushed_q", "", "", "the last edge flushed", ""}));
  d.items.push_back(MakeItem(Always{
      AlwaysKind::kFF,
      "posedge clk_i or negedge rst_ni",
      "",
      {IfThen("!rst_ni", {NonBlocking("chk_lookups_q", "'0"), NonBlocking("chk_flushed_q", "1'b0")},
              {IfThen("lk_valid_i", {NonBlocking("chk_lookups_q", "chk_lookups_q + 32'd1")}),
               NonBlocking("chk_flushed_q", "flush_i")})}}));
  d.items.push_back(MakeItem(BlankLine{}));
  Always a{AlwaysKind::kPlain, "posedge clk_i or negedge rst_ni", "p_invariants", {}};
  a.body.push_back(
      IfThen("rst_ni", {Assert("!lk_hit_o || (valid_q[lk_idx] && tag_q[lk_idx] == lk_tag && "
                               "lk_flags_o == data_q[lk_idx])",
                               {Quote("%m: F1 violated: a hit of an invalid or other PC's entry")}),
                        Assert("hit_q + miss_q == chk_lookups_q && !(lk_hit_o && lk_miss_o) && "
                               "(lk_hit_o || lk_miss_o) == lk_valid_i",
                               {Quote("%m: F2 violated: hits + misses differ from the lookups")}),
                        Assert("!chk_flushed_q || valid_q == '0",
                               {Quote("%m: F3 violated: an entry valid after a flush")})}));
  d.items.push_back(MakeItem(std::move(a)));
  return d;
}

}  // namespace

GeneratedStructure EmitReleaseFlagCache(const ReleaseFlagCacheSpec& s) {
  GeneratedStructure g = NewGeneratedStructure(s, RegenerateCommand(s.kind, s.params));
  g.derived = {{"index_bits", s.index_bits},
               {"tag_bits", s.tag_bits},
               {"payload_bytes", (s.entries * s.payload_bits + 7) / 8},
               {"storage_bits", s.entries * (s.payload_bits + s.tag_bits + 1)}};

  Module m;
  m.name = s.module_name;
  m.doc = ModuleDoc(s);
  m.params = {
      {"Entries", Int(s.entries), "E: entries", false},
      {"PayloadBits", Int(s.payload_bits), "D: release flags per entry", false},
      {"PcBits", Int(s.pc_bits), "bits of a PC", false},
      {"InstBytes", Int(s.inst_bytes), "instruction size in bytes (power of two)", false},
      {"OffBits", "$clog2(InstBytes)", "PC bits below an instruction (ignored)", true},
      {"AddrBits", "PcBits - OffBits", "bits of a word address", true},
      {"IndexBits", "$clog2(Entries)", "bits of an entry index", true},
      {"TagBits", s.folded ? "AddrBits - IndexBits + 1" : "AddrBits - IndexBits",
       s.folded ? "the word address above the index, and the fold bit"
                : "the word address above the index",
       true},
  };
  m.ports = ReleaseFlagCachePortTable(s).Verilog();

  m.Blank();
  m.Comment("The entries.");
  m.Add(MakeItem(Net{"valid_q", "Entries-1", "", "the entry holds a pir's flags", ""}));
  m.Add(MakeItem(Net{"tag_q", "TagBits-1", "Entries", "its tag", ""}));
  m.Add(MakeItem(Net{"data_q", "PayloadBits-1", "Entries", "its release flags", ""}));
  m.Add(MakeItem(Net{"hit_q", "31", "", "hits since reset", ""}));
  m.Add(MakeItem(Net{"miss_q", "31", "", "misses since reset", ""}));
  m.Add(MakeItem(Net{"hit", "", "", "the lookup hits", ""}));
  m.Add(MakeItem(Net{"miss", "", "", "the lookup misses", ""}));
  m.Add(MakeItem(Net{"fill", "", "", "the fill is written (no flush)", ""}));
  m.Add(MakeItem(Net{"unused_pc_offsets", "", "", "PC bits below an instruction", ""}));
  m.Blank();
  m.Comment("Index and tag of the lookup's and the fill's PC.");
  IndexAndTag(m, s, "lk");
  IndexAndTag(m, s, "fill");
  m.Add(MakeItem(
      ContinuousAssign{"unused_pc_offsets", "^{lk_pc_i[OffBits-1:0], fill_pc_i[OffBits-1:0]}"}));
  m.Blank();
  m.Add(MakeItem(ContinuousAssign{
      "hit", "rst_ni && lk_valid_i && valid_q[lk_idx] && tag_q[lk_idx] == lk_tag"}));
  m.Add(MakeItem(ContinuousAssign{"miss", "rst_ni && lk_valid_i && !hit"}));
  m.Add(MakeItem(ContinuousAssign{"fill", "fill_valid_i && !flush_i"}));
  m.Blank();
  m.Add(
      MakeItem(Always{AlwaysKind::kFF,
                      "posedge clk_i or negedge rst_ni",
                      "state",
                      {IfThen("!rst_ni",
                              {NonBlocking("valid_q", "'0"), NonBlocking("hit_q", "'0"),
                               NonBlocking("miss_q", "'0")},
                              {IfThen("flush_i", {NonBlocking("valid_q", "'0")},
                                      {IfThen("fill", {NonBlocking("valid_q[fill_idx]", "1'b1")})}),
                               NonBlocking("hit_q", "hit_q + 32'(hit)"),
                               NonBlocking("miss_q", "miss_q + 32'(miss)")})}}));
  m.Add(MakeItem(Always{AlwaysKind::kFF,
                        "posedge clk_i",
                        "payload",
                        {IfThen("fill", {NonBlocking("tag_q[fill_idx]", "fill_tag"),
                                         NonBlocking("data_q[fill_idx]", "fill_flags_i")})}}));
  m.Blank();
  m.Comment("Outputs.");
  m.Add(MakeItem(ContinuousAssign{"lk_hit_o", "hit"}));
  m.Add(MakeItem(ContinuousAssign{"lk_miss_o", "miss"}));
  m.Add(MakeItem(ContinuousAssign{"lk_flags_o", "hit ? data_q[lk_idx] : '0"}));
  m.Add(MakeItem(ContinuousAssign{"hit_count_o", "hit_q"}));
  m.Add(MakeItem(ContinuousAssign{"miss_count_o", "miss_q"}));
  m.Blank();
  m.Add(MakeItem(Assertions()));

  const GeneratedFile top = ModuleFile(s.kind, s.config_hash, g.regenerate, std::move(m));
  g.files.push_back(AssertHeaderFile());
  g.files.push_back(top);

  g.ports = ReleaseFlagCachePortTable(s).Manifest();
  return g;
}

}  // namespace gpurf
