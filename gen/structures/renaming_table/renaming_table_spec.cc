#include "gen/structures/renaming_table/renaming_table_spec.h"

#include <fmt/format.h>

#include <bit>

#include "base/hash.h"
#include "base/int_math.h"

namespace gpurf {

const std::vector<ParamDesc>& RenamingTableSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("warps", 2, 64, 48, "warp slots per SM, Wp"),
      IntParam("regs", 4, 255, 63, "architected registers per thread, R"),
      IntParam("phys_regs", 16, 4096, 1024,
               "physical registers of the SM's register file, P (ids of ceil(log2 P) bits)"),
      IntParam("capacity_bytes", 4, 65536, 1024,
               "budget for the stored physical ids in bytes: K = min(regs, 8*capacity / (warps * "
               "id bits)) entries per warp (3780 is the paper's full 48x63x10-bit table)"),
      IntParam("banks", 2, 8, 4, "table banks B (power of two): one lookup per bank and cycle"),
  };
  return descs;
}

RenamingTableSpec RenamingTableSpec::FromParams(const ParamSet& p) {
  RenamingTableSpec s;
  s.params = p;
  s.warps = p.IntAsInt("warps");
  s.regs = p.IntAsInt("regs");
  s.phys_regs = p.IntAsInt("phys_regs");
  s.capacity_bytes = p.IntAsInt("capacity_bytes");
  s.banks = p.IntAsInt("banks");
  if (!std::has_single_bit(static_cast<unsigned>(s.banks)))
    p.Reject("banks", fmt::format("{} is not a power of two", s.banks), "2, 4 or 8");
  s.bank_bits = std::countr_zero(static_cast<unsigned>(s.banks));
  s.phys_bits = std::max(1, CeilLog2(s.phys_regs));
  s.warp_bits = std::max(1, CeilLog2(s.warps));
  s.reg_bits = std::max(1, CeilLog2(s.regs));
  s.exempt_bits = std::max(1, CeilLog2(s.regs + 1));
  const int64_t per_warp =
      int64_t{8} * s.capacity_bytes / (int64_t{s.warps} * static_cast<int64_t>(s.phys_bits));
  if (per_warp < s.banks) {
    const int64_t min_bytes = (int64_t{s.warps} * s.phys_bits * s.banks + 7) / 8;
    p.Reject("capacity_bytes",
             fmt::format("gives {} entries per warp ({} warps x {}-bit ids), fewer than the {} "
                         "banks",
                         per_warp, s.warps, s.phys_bits, s.banks),
             fmt::format("integer {}..65536", min_bytes));
  }
  s.window = static_cast<int>(std::min<int64_t>(per_warp, s.regs));
  s.full_window = s.window == s.regs;
  s.table_bits = s.warps * s.window * s.phys_bits;
  s.kind = "renaming-table";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = fmt::format("rf_rename_{}w{}r{}p{}k_{}", s.warps, s.regs, s.phys_regs, s.window,
                              s.config_hash);
  return s;
}

}  // namespace gpurf
