#include "gen/structures/mrf/mrf_spec.h"

#include <fmt/format.h>

#include "base/hash.h"
#include "base/int_math.h"

namespace gpurf {

const std::vector<ParamDesc>& MrfSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("banks", 1, 64, 32, "SRAM banks, one read and one write port each"),
      IntParam("rows", 1, 4096, 256, "rows per bank"),
      IntParam("width", 1, 1024, 128, "bits per row (128 = 4 lanes x 32 bit)"),
      IntParam("warps", 1, 64, 32, "resident warps"),
      IntParam("regs", 1, 256, 64, "architected registers per thread"),
      IntParam("collectors", 1, 8, 4, "operand collectors (instructions gathering operands)"),
      EnumParam("interleave", {"register", "warp-swizzled"}, "register",
                "register -> bank mapping: reg mod banks (paper), or (warp + reg) mod banks"),
      EnumParam("wb_policy", {"write-priority", "read-priority"}, "write-priority",
                "who waits when a write-back and a read hit one bank row in one cycle"),
      EnumParam("bank_impl", {"macro", "flops"}, "macro",
                "SRAM bank: hard macro (black box in synthesis) or flip-flop array"),
      IntParam("tag_width", 1, 32, 8, "bits of the instruction tag carried to dispatch"),
      IntParam("counter_width", 8, 64, 32, "bits of each event counter"),
  };
  return descs;
}

MrfSpec MrfSpec::FromParams(const ParamSet& p) {
  MrfSpec s;
  s.params = p;
  s.banks = p.IntAsInt("banks");
  s.rows = p.IntAsInt("rows");
  s.width = p.IntAsInt("width");
  s.warps = p.IntAsInt("warps");
  s.regs = p.IntAsInt("regs");
  s.collectors = p.IntAsInt("collectors");
  s.interleave =
      p.Enum("interleave") == "register" ? Interleave::kRegister : Interleave::kWarpSwizzled;
  s.wb_policy =
      p.Enum("wb_policy") == "write-priority" ? WbPolicy::kWritePriority : WbPolicy::kReadPriority;
  s.bank_impl = p.Enum("bank_impl") == "macro" ? BankImpl::kMacro : BankImpl::kFlops;
  s.tag_width = p.IntAsInt("tag_width");
  s.counter_width = p.IntAsInt("counter_width");

  s.rows_per_warp = (s.regs + s.banks - 1) / s.banks;
  const long long rows_needed = static_cast<long long>(s.warps) * s.rows_per_warp;
  if (rows_needed > s.rows) {
    p.Reject("rows",
             fmt::format("{} warps x ceil({} regs / {} banks) = {} rows per bank are needed",
                         s.warps, s.regs, s.banks, rows_needed),
             fmt::format("rows >= {} (or fewer warps or registers, or more banks)", rows_needed));
  }
  const long long bits = static_cast<long long>(s.banks) * s.rows * s.width;
  if (s.bank_impl == BankImpl::kFlops && bits > 4LL * 1024 * 1024) {
    p.Reject("bank_impl",
             fmt::format("flip-flop banks of {} bits in all are larger than flops should be", bits),
             "macro (or banks x rows x width <= 4194304)");
  }

  s.row_addr_width = IndexBits(s.rows);
  s.bank_width = IndexBits(s.banks);
  s.warp_width = IndexBits(s.warps);
  s.reg_width = IndexBits(s.regs);
  s.num_slots = s.collectors * kSlots;
  s.kind = "mrf";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name =
      fmt::format("rf_mrf_{}b_{}x{}_k{}_{}", s.banks, s.rows, s.width, s.collectors, s.config_hash);
  return s;
}

int MrfSpec::BankOf(int warp, int reg) const {
  const long long v =
      interleave == Interleave::kRegister ? reg : static_cast<long long>(warp) + reg;
  return static_cast<int>(v % banks);
}

int MrfSpec::RowOf(int warp, int reg) const {
  const long long v = static_cast<long long>(warp) * rows_per_warp + reg / banks;
  return static_cast<int>(v & ((1LL << row_addr_width) - 1));
}

std::string MrfSpec::MappingText() const {
  const std::string bank = interleave == Interleave::kRegister
                               ? fmt::format("reg mod {}", banks)
                               : fmt::format("(warp + reg) mod {}", banks);
  return fmt::format("bank = {}, row = warp * {} + reg div {}", bank, rows_per_warp, banks);
}

const char* MrfSpec::InterleaveName() const {
  return interleave == Interleave::kRegister ? "register" : "warp-swizzled";
}

const char* MrfSpec::WbPolicyName() const {
  return wb_policy == WbPolicy::kWritePriority ? "write-priority" : "read-priority";
}

}  // namespace gpurf
