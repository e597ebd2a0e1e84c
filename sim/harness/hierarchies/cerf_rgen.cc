#include "sim/harness/hierarchies/cerf_rgen.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "base/int_math.h"

namespace gpurf::harness {

std::string RegMemIndexer::Params::Problem() const {
  if (warps < 1 || regs < 1)
    return fmt::format("warps {} and regs {} must be at least 1", warps, regs);
  if (!IsPow2(line_bytes) || !IsPow2(banks) || !IsPow2(sets))
    return fmt::format("line_bytes {}, banks {} and sets {} must be powers of two", line_bytes,
                       banks, sets);
  if (sets < banks)
    return fmt::format("{} sets cannot be spread over {} tag banks", sets, banks);
  if (addr_width < 8 || addr_width > 63)
    return fmt::format("addr_width {} outside 8..63", addr_width);
  const int off = Log2Pow2(static_cast<uint64_t>(line_bytes));
  const int ra = IndexBits(static_cast<uint64_t>(warps) * static_cast<uint64_t>(regs));
  const int pre = addr_width - off - ra;
  if (pre < 1)
    return fmt::format(
        "{} warps x {} registers need {} register-address bits above the {}-bit offset: no "
        "prefix bit is left in {}-bit addresses",
        warps, regs, ra, off, addr_width);
  if (off + Log2Pow2(static_cast<uint64_t>(sets)) > addr_width)
    return fmt::format("{} sets of {}-byte lines do not fit {}-bit addresses", sets, line_bytes,
                       addr_width);
  if (prefix < -1 || (prefix >= 0 && pre < 63 && prefix >= (int64_t{1} << pre)))
    return fmt::format("prefix {:#x} does not fit the {} prefix bits", prefix, pre);
  return "";
}

RegMemIndexer::RegMemIndexer(const Params& p) : p_(p) {
  if (const std::string problem = p.Problem(); !problem.empty())
    throw std::invalid_argument("reg-mem re-indexing: " + problem);
  offset_bits_ = Log2Pow2(static_cast<uint64_t>(p.line_bytes));
  reg_addr_bits_ = IndexBits(static_cast<uint64_t>(p.warps) * static_cast<uint64_t>(p.regs));
  prefix_bits_ = p.addr_width - offset_bits_ - reg_addr_bits_;
  bank_bits_ = Log2Pow2(static_cast<uint64_t>(p.banks));
  set_in_bank_bits_ = Log2Pow2(static_cast<uint64_t>(p.sets / p.banks));
  prefix_ = p.prefix < 0 ? (uint64_t{1} << prefix_bits_) - 1 : static_cast<uint64_t>(p.prefix);
}

uint64_t RegMemIndexer::RegisterAddress(int warp, int reg) const {
  if (warp < 0 || warp >= p_.warps || reg < 0 || reg >= p_.regs)
    throw std::out_of_range(fmt::format("reg-mem re-indexing: warp {} register {} outside {} x {}",
                                        warp, reg, p_.warps, p_.regs));
  return static_cast<uint64_t>(warp) * static_cast<uint64_t>(p_.regs) + static_cast<uint64_t>(reg);
}

uint64_t RegMemIndexer::Address(int warp, int reg) const {
  return (prefix_ << (offset_bits_ + reg_addr_bits_)) |
         (RegisterAddress(warp, reg) << offset_bits_);
}

bool RegMemIndexer::InRegSpace(uint64_t addr) const {
  const int low = offset_bits_ + reg_addr_bits_;
  return (addr >> p_.addr_width) == 0 &&
         ((addr >> low) & ((uint64_t{1} << prefix_bits_) - 1)) == prefix_;
}

bool RegMemIndexer::Decode(uint64_t addr, int& warp, int& reg) const {
  if (!InRegSpace(addr))
    return false;
  const uint64_t ra = (addr >> offset_bits_) & ((uint64_t{1} << reg_addr_bits_) - 1);
  const uint64_t regs = static_cast<uint64_t>(p_.regs);
  if (ra >= static_cast<uint64_t>(p_.warps) * regs)
    return false;
  warp = static_cast<int>(ra / regs);
  reg = static_cast<int>(ra % regs);
  return true;
}

int RegMemIndexer::Bank(uint64_t addr) const {
  return static_cast<int>((addr >> offset_bits_) & static_cast<uint64_t>(p_.banks - 1));
}

int RegMemIndexer::SetInBank(uint64_t addr) const {
  return static_cast<int>((addr >> (offset_bits_ + bank_bits_)) &
                          ((uint64_t{1} << set_in_bank_bits_) - 1));
}

int RegMemIndexer::Set(uint64_t addr) const {
  return static_cast<int>((addr >> offset_bits_) & static_cast<uint64_t>(p_.sets - 1));
}

uint64_t RegMemIndexer::Tag(uint64_t addr) const {
  return (addr & ((uint64_t{1} << p_.addr_width) - 1)) >>
         (offset_bits_ + bank_bits_ + set_in_bank_bits_);
}

}  // namespace gpurf::harness
