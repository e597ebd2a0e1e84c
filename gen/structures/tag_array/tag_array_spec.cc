#include "gen/structures/tag_array/tag_array_spec.h"

#include <fmt/format.h>

#include <bit>

#include "base/hash.h"

namespace gpurf {

namespace {

// log2 of a power of two parameter, or a rejection naming the parameter.
int Log2Of(const ParamSet& p, const std::string& name, const std::string& range) {
  const int64_t v = p.Get(name).i;
  if (!std::has_single_bit(static_cast<uint64_t>(v)))
    p.Reject(name, fmt::format("{} is not a power of two", v), range);
  return std::countr_zero(static_cast<uint64_t>(v));
}

}  // namespace

const std::vector<ParamDesc>& TagArraySpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("banks", 2, 16, 4, "tag banks B (power of two)"),
      IntParam("sets", 4, 4096, 256, "sets S in all banks (power of two, at least 2 per bank)"),
      IntParam("ways", 2, 8, 4, "associativity W (power of two)"),
      IntParam("addr_width", 16, 48, 32, "address width in bits"),
      IntParam("line_bytes", 4, 1024, 128, "line size in bytes (power of two)"),
      IntParam("warps", 2, 64, 32, "warps whose registers the re-indexing maps (power of two)"),
      IntParam("regs", 2, 256, 32, "registers per warp (power of two)"),
      IntParam("lookups", 1, 4, 4,
               "lookups per request: one instruction's sources and destination, or one memory "
               "request"),
      EnumParam("policy", {"lru-fair", "lru-prioritized"}, "lru-prioritized",
                "replacement policy: lru-fair (registers and cache data replace each other) or "
                "lru-prioritized (a register line is never evicted for cache data)"),
  };
  return descs;
}

TagArraySpec TagArraySpec::FromParams(const ParamSet& p) {
  TagArraySpec s;
  s.params = p;
  s.banks = p.IntAsInt("banks");
  s.sets = p.IntAsInt("sets");
  s.ways = p.IntAsInt("ways");
  s.addr_width = p.IntAsInt("addr_width");
  s.line_bytes = p.IntAsInt("line_bytes");
  s.warps = p.IntAsInt("warps");
  s.regs = p.IntAsInt("regs");
  s.lookups = p.IntAsInt("lookups");
  s.policy = p.Enum("policy") == "lru-fair" ? Policy::kLruFair : Policy::kLruPrioritized;
  s.bank_bits = Log2Of(p, "banks", "power of two in 2..16");
  s.set_bits = Log2Of(p, "sets", "power of two in 4..4096");
  s.way_bits = Log2Of(p, "ways", "2, 4 or 8");
  s.offset_bits = Log2Of(p, "line_bytes", "power of two in 4..1024");
  s.warp_bits = Log2Of(p, "warps", "power of two in 2..64");
  s.reg_bits = Log2Of(p, "regs", "power of two in 2..256");
  if (s.sets < 2 * s.banks) {
    p.Reject("sets", fmt::format("gives fewer than 2 sets per bank with banks = {}", s.banks),
             fmt::format("power of two in {}..4096", 2 * s.banks));
  }
  s.sets_per_bank = s.sets / s.banks;
  s.tag_width = s.addr_width - s.offset_bits - s.set_bits;
  s.prefix_bits = s.addr_width - s.offset_bits - s.warp_bits - s.reg_bits;
  const int min_aw =
      std::max(s.offset_bits + s.set_bits, s.offset_bits + s.warp_bits + s.reg_bits) + 1;
  if (s.tag_width < 1 || s.prefix_bits < 1) {
    p.Reject("addr_width",
             fmt::format("leaves no {} bit above the line offset, set index and register address",
                         s.tag_width < 1 ? "tag" : "reg-mem prefix"),
             fmt::format("integer {}..48", min_aw));
  }
  s.kind = "tag-array";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  s.module_name = fmt::format("rf_tags_{}b{}s{}w_{}_{}", s.banks, s.sets, s.ways,
                              s.prioritized() ? "pri" : "fair", s.config_hash);
  return s;
}

uint64_t TagArraySpec::RegMemAddress(int warp, int reg) const {
  const uint64_t reg_addr = (static_cast<uint64_t>(warp) << reg_bits) | static_cast<uint64_t>(reg);
  const int low = offset_bits + warp_bits + reg_bits;
  const uint64_t prefix = ((uint64_t{1} << prefix_bits) - 1) << low;
  return (prefix | (reg_addr << offset_bits)) & AddrMask();
}

bool TagArraySpec::InRegSpace(uint64_t addr) const {
  const int low = offset_bits + warp_bits + reg_bits;
  return ((addr >> low) & ((uint64_t{1} << prefix_bits) - 1)) == (uint64_t{1} << prefix_bits) - 1;
}

uint64_t TagArraySpec::LookupLine(int op, const Bits& lk_warps, const Bits& lk_regs,
                                  const Bits& lk_addrs, int p) const {
  if (op == kReadReg || op == kWriteReg) {
    return RegMemAddress(static_cast<int>(lk_warps.get(p * warp_bits, warp_bits)),
                         static_cast<int>(lk_regs.get(p * reg_bits, reg_bits)));
  }
  return lk_addrs.get(p * addr_width, addr_width) & ~((uint64_t{1} << offset_bits) - 1);
}

int TagArraySpec::BankOf(uint64_t addr) const {
  return static_cast<int>((addr >> offset_bits) & static_cast<uint64_t>(banks - 1));
}

int TagArraySpec::SetOf(uint64_t addr) const {
  return static_cast<int>((addr >> offset_bits) & static_cast<uint64_t>(sets - 1));
}

uint64_t TagArraySpec::TagOf(uint64_t addr) const {
  return (addr & AddrMask()) >> (offset_bits + set_bits);
}

uint64_t TagArraySpec::LineAddress(int set, uint64_t tag) const {
  return ((tag << (offset_bits + set_bits)) | (static_cast<uint64_t>(set) << offset_bits)) &
         AddrMask();
}

}  // namespace gpurf
