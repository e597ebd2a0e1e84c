#include "gen/structures/rfc/rfc_spec.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/hash.h"

namespace gpurf {

namespace {

// The flop array holding one level's data: rows = slots x entries, operand read ports plus the
// write-back read port, one write port, combinational reads (tag check and data in one cycle).
FlopArraySpec StorageFor(int rows, int width, bool clock_gate) {
  ParamSet p(FlopArraySpec::ParamDescs());
  p.Set("entries", std::to_string(rows), {}, "entries");
  p.Set("width", std::to_string(width), {}, "width");
  p.Set("read_ports", std::to_string(RfcSpec::kOperands + 1), {}, "read_ports");
  p.Set("write_ports", "1", {}, "write_ports");
  p.Set("read_mode", "comb", {}, "read_mode");
  p.Set("bypass", "false", {}, "bypass");
  p.Set("clock_gate", clock_gate ? "true" : "false", {}, "clock_gate");
  return FlopArraySpec::FromParams(p);
}

}  // namespace

const std::vector<ParamDesc>& RfcSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("active_warps", 1, 32, 8, "active-warp slots A (two-level scheduler)"),
      IntParam("levels", 1, 2, 1, "RFC levels in front of the MRF: 1 (L1) or 2 (L0 + L1)"),
      IntParam("l1_entries", 1, 8, 6, "L1 entries per slot (per thread)"),
      IntParam("l0_entries", 1, 8, 1, "L0 entries per slot (levels 2 only)"),
      IntParam("width", 1, 1024, 128, "data bits per entry (128 = 4 lanes x 32 bit)"),
      IntParam("reg_bits", 1, 8, 6, "architected register id bits (6 = 64 registers)"),
      EnumParam("replacement", {"fifo", "lru"}, "fifo",
                "victim: oldest by last write (fifo) or by last write or read hit (lru)"),
      BoolParam("clock_gate", true, "gate each data row's clock with its write enable"),
  };
  return descs;
}

RfcSpec RfcSpec::FromParams(const ParamSet& p) {
  RfcSpec s;
  s.params = p;
  s.active_warps = p.IntAsInt("active_warps");
  s.levels = p.IntAsInt("levels");
  s.l1_entries = p.IntAsInt("l1_entries");
  s.l0_entries = s.levels == 2 ? p.IntAsInt("l0_entries") : 0;
  s.width = p.IntAsInt("width");
  s.reg_bits = p.IntAsInt("reg_bits");
  s.replacement = p.Enum("replacement") == "lru" ? Replacement::kLru : Replacement::kFifo;
  s.clock_gate = p.Bool("clock_gate");

  if (s.levels == 1 && !p.Get("l0_entries").defaulted) {
    p.Reject("l0_entries", "a 1-level RFC has no L0", "leave it out, or set levels to 2");
  }
  // An exclusive hierarchy needs room for a distinct register in each entry of a slot.
  const int per_slot = s.l1_entries + s.l0_entries;
  if (per_slot > (1 << s.reg_bits)) {
    p.Reject(s.levels == 2 ? "l0_entries" : "l1_entries",
             fmt::format("{} entries per slot exceed the {} architected registers of reg_bits = {}",
                         per_slot, 1 << s.reg_bits, s.reg_bits),
             fmt::format("at most {} entries per slot in total", 1 << s.reg_bits));
  }
  // Storage limits of the flop arrays, reported against the RFC's own parameters.
  const long long bits =
      static_cast<long long>(s.active_warps) * std::max(s.l1_entries, s.l0_entries) * s.width;
  if (bits > 256 * 1024) {
    p.Reject("width",
             fmt::format("active_warps x entries x width = {} bits exceeds a flop array", bits),
             "active_warps x max(l1_entries, l0_entries) x width <= 262144 bits");
  }

  s.slot_bits = 1;
  while ((1 << s.slot_bits) < s.active_warps)
    ++s.slot_bits;
  s.l1_storage = StorageFor(s.active_warps * s.l1_entries, s.width, s.clock_gate);
  if (s.two_levels())
    s.l0_storage = StorageFor(s.active_warps * s.l0_entries, s.width, s.clock_gate);
  s.kind = "rfc";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = s.two_levels() ? fmt::format("rf_rfc_a{}_l0x{}_l1x{}_{}_{}", s.active_warps,
                                               s.l0_entries, s.l1_entries, s.width, s.config_hash)
                                 : fmt::format("rf_rfc_a{}_l1x{}_{}_{}", s.active_warps,
                                               s.l1_entries, s.width, s.config_hash);
  return s;
}

}  // namespace gpurf
