#include "gen/structures/renaming_system/renaming_system_spec.h"

#include <fmt/format.h>

#include "base/hash.h"
#include "gen/params/sub_params.h"
#include "gen/structures/warp_scheduler/warp_scheduler_spec.h"

namespace gpurf {

const std::vector<ParamDesc>& RenamingSystemSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("warps", 2, 64, 8, "warp slots Wp"),
      IntParam("regs", 4, 255, 16, "architected registers per thread R"),
      IntParam("exempt", 0, 254, 2,
               "renaming-exempt registers N (the lowest; fixed physical registers w*N + r)"),
      IntParam("capacity_bytes", 4, 65536, 128,
               "renaming-table id storage; gives the renamed window K (see renaming-table)"),
      IntParam("table_banks", 2, 4, 2, "renaming-table banks (power of two)"),
      IntParam("banks", 2, 8, 4, "MRF banks B = availability vectors (power of two)"),
      IntParam("per_bank", 8, 1024, 16, "renamable physical registers per bank Pb"),
      IntParam("subarrays", 1, 16, 2, "availability-vector subarrays per bank (power gating)"),
      IntParam("wake_cycles", 1, 31, 2, "subarray wake-up latency in cycles"),
      IntParam("ctas", 2, 32, 2, "resident CTA slots Nc (divides warps)"),
      IntParam("flag_entries", 2, 64, 4, "release flag cache entries"),
      IntParam("group", 1, 21, 4, "instructions covered by one pir (3 release bits each)"),
      IntParam("pc_bits", 8, 48, 16, "bits of a PC"),
      IntParam("inst_bytes", 2, 16, 8, "bytes per instruction (power of two)"),
      IntParam("width", 1, 1024, 32, "bits per MRF row (32 = one lane)"),
      IntParam("collectors", 1, 8, 4, "MRF operand collectors"),
      EnumParam("bank_impl", {"macro", "flops"}, "macro", "MRF banks: SRAM macros or flip-flops"),
      IntParam("tag_width", 1, 32, 8, "bits of the instruction tag carried to dispatch"),
  };
  return descs;
}

RenamingSystemSpec RenamingSystemSpec::FromParams(const ParamSet& p) {
  RenamingSystemSpec s;
  s.params = p;
  s.warps = p.IntAsInt("warps");
  s.regs = p.IntAsInt("regs");
  s.exempt = p.IntAsInt("exempt");
  s.banks = p.IntAsInt("banks");
  s.per_bank = p.IntAsInt("per_bank");
  s.ctas = p.IntAsInt("ctas");
  s.group = p.IntAsInt("group");
  s.width = p.IntAsInt("width");
  s.tag_width = p.IntAsInt("tag_width");
  const int table_banks = p.IntAsInt("table_banks");

  if (s.exempt >= s.regs)
    p.Reject("exempt",
             fmt::format("{} exempt of {} registers leaves none to rename", s.exempt, s.regs),
             fmt::format("0..{} (regs - 1)", s.regs - 1));
  if (s.warps % s.ctas != 0)
    p.Reject("ctas", fmt::format("{} CTA slots do not divide {} warps", s.ctas, s.warps),
             "a divisor of warps");
  if (table_banks & (table_banks - 1))
    p.Reject("table_banks", fmt::format("{} is not a power of two", table_banks), "2 or 4");
  s.exempt_base = s.warps * s.exempt;
  if (s.exempt_base % s.banks != 0)
    p.Reject("exempt",
             fmt::format("warps x exempt = {} is not a multiple of {} banks: renamed registers "
                         "would leave their compiler's bank",
                         s.exempt_base, s.banks),
             fmt::format("warps x exempt a multiple of {}", s.banks));
  s.phys_total = s.exempt_base + s.banks * s.per_bank;
  if (s.phys_total > 256)
    p.Reject("per_bank",
             fmt::format("warps x exempt + banks x per_bank = {} physical registers; the MRF of "
                         "one warp holds at most 256 registers",
                         s.phys_total),
             fmt::format("per_bank <= {}", (256 - s.exempt_base) / s.banks));

  s.buf_index_width = IndexWidth(p.IntAsInt("collectors"));
  {
    SubParams m(MrfSpec::ParamDescs(), p, "mrf");
    m.Copy("banks");
    m.Set("rows", std::to_string((s.phys_total + s.banks - 1) / s.banks), "per_bank");
    m.Copy("width");
    m.Set("warps", "1", "warps");
    m.Set("regs", std::to_string(s.phys_total), "per_bank");
    m.Copy("collectors");
    m.Set("interleave", "register", "banks");
    m.Set("wb_policy", "write-priority", "banks");
    m.Copy("bank_impl");
    m.Set("tag_width", std::to_string(s.buf_index_width), "collectors");
    m.Set("counter_width", "32", "collectors");
    s.mrf = MrfSpec::FromParams(m.params());
  }
  {
    SubParams t(RenamingTableSpec::ParamDescs(), p, "renaming_table");
    t.Copy("warps");
    t.Copy("regs");
    t.Set("phys_regs", std::to_string(s.phys_total), "per_bank");
    t.Copy("capacity_bytes");
    t.Copy("table_banks", "banks");
    s.table = RenamingTableSpec::FromParams(t.params());
  }
  {
    SubParams a(AvailabilityVectorsSpec::ParamDescs(), p, "availability_vectors");
    a.Copy("banks");
    a.Copy("per_bank", "regs_per_bank");
    a.Copy("subarrays");
    a.Copy("wake_cycles");
    a.Copy("table_banks", "release_ports");
    s.avail = AvailabilityVectorsSpec::FromParams(a.params());
  }
  {
    SubParams f(ReleaseFlagCacheSpec::ParamDescs(), p, "release_flag_cache");
    f.Copy("flag_entries", "entries");
    f.Set("payload_bits", std::to_string(3 * s.group), "group");
    f.Copy("pc_bits");
    f.Copy("inst_bytes");
    s.flags = ReleaseFlagCacheSpec::FromParams(f.params());
  }
  {
    SubParams c(CtaThrottleSpec::ParamDescs(), p, "cta_throttle");
    c.Copy("ctas", "slots");
    c.Copy("banks");
    c.Copy("per_bank", "regs_per_bank");
    c.Set("alloc_ports", "1", "banks");
    c.Set("release_ports", std::to_string(table_banks + 1), "table_banks");
    s.throttle = CtaThrottleSpec::FromParams(c.params());
  }
  s.window = s.table.window;
  s.warps_per_cta = s.warps / s.ctas;
  s.warp_bits = s.table.warp_bits;
  s.reg_bits = s.table.reg_bits;
  s.phys_bits = s.table.phys_bits;
  s.group_bits = IndexWidth(s.group);

  s.kind = "renaming-system";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = fmt::format("rf_rensys_{}w{}r_{}b{}p_{}", s.warps, s.regs, s.banks, s.per_bank,
                              s.config_hash);
  return s;
}

std::string RenamingSystemSpec::Description() const {
  return fmt::format(
      "{} warps x {} registers ({} exempt, window {}), {} physical registers ({} banks x {} "
      "renamable + {} exempt), {} CTA slots, flag cache {} entries x {} instructions, MRF {} "
      "collectors x {} bits",
      warps, regs, exempt, window, phys_total, banks, per_bank, exempt_base, ctas, flags.entries,
      group, collectors(), width);
}

}  // namespace gpurf
