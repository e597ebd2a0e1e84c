#include "gen/structures/hybrid_rc/hybrid_rc_spec.h"

#include <fmt/format.h>

#include <bit>

#include "base/hash.h"

namespace gpurf {

namespace {

int Log2Of(const ParamSet& p, const std::string& name, int64_t v, const std::string& range) {
  if (!std::has_single_bit(static_cast<uint64_t>(v)))
    p.Reject(name, fmt::format("{} is not a power of two", v), range);
  return std::countr_zero(static_cast<uint64_t>(v));
}

// A flop array of the hybrid's storage: combinational reads (tag check and data in one cycle),
// no bypass (reads see the array at the start of the cycle; the RTL forwards where it must).
FlopArraySpec StorageFor(int rows, int width, int read_ports, int write_ports, bool clock_gate) {
  ParamSet p(FlopArraySpec::ParamDescs());
  p.Set("entries", std::to_string(rows), {}, "entries");
  p.Set("width", std::to_string(width), {}, "width");
  p.Set("read_ports", std::to_string(read_ports), {}, "read_ports");
  p.Set("write_ports", std::to_string(write_ports), {}, "write_ports");
  p.Set("read_mode", "comb", {}, "read_mode");
  p.Set("bypass", "false", {}, "bypass");
  p.Set("clock_gate", clock_gate ? "true" : "false", {}, "clock_gate");
  return FlopArraySpec::FromParams(p);
}

}  // namespace

const char* HybridRcSpec::OrganizationName(Organization o) {
  switch (o) {
    case Organization::kHierarchical:
      return "hierarchical";
    case Organization::kParallelEvict:
      return "parallel-evict";
    case Organization::kParallelLifetime:
      return "parallel-lifetime";
  }
  return "?";
}

const std::vector<ParamDesc>& HybridRcSpec::ParamDescs() {
  static const std::vector<ParamDesc> descs = {
      IntParam("rc_bytes", 0, 65536, 2048,
               "register-cache capacity per scheduler in bytes (Bailey: 8 KB/SM over 4 "
               "schedulers); RC lines = rc_bytes / line_bytes, whole sets of `ways` lines, at "
               "least 2 sets; 0: no RC (the RSP-only design)"),
      IntParam("rsp_bytes", 0, 65536, 1024,
               "register-scratchpad capacity per scheduler in bytes (Bailey: 4 KB/SM over 4 "
               "schedulers); RSP slots = rsp_bytes / line_bytes, at least 2; 0: no RSP (the "
               "RC-only design)"),
      IntParam("line_bytes", 16, 1024, 128,
               "bytes of one warp-wide register (a line or slot; 128 = 32 threads x 4 bytes)"),
      IntParam("ways", 2, 8, 2, "RC associativity (power of two)"),
      IntParam("warps", 2, 64, 16, "warps per scheduler (power of two)"),
      IntParam("reg_bits", 2, 8, 8, "register name width in bits (8 = 256 registers)"),
      IntParam("width", 1, 1024, 128,
               "data bits stored per line (128 = a 4-lane slice; 8 x line_bytes = the whole "
               "register)"),
      EnumParam("organization", {"hierarchical", "parallel-evict", "parallel-lifetime"},
                "hierarchical",
                "hierarchical: RSP transfers go through the RC (Fig. 6); parallel-evict: RC and "
                "RSP both in front of the MRF, the RC evicts a register the RSP takes; "
                "parallel-lifetime: no live-out or read allocations (section IV-D)"),
      BoolParam("clock_gate", true, "gate each data row's clock with its write enable"),
  };
  return descs;
}

HybridRcSpec HybridRcSpec::FromParams(const ParamSet& p) {
  HybridRcSpec s;
  s.params = p;
  s.rc_bytes = p.IntAsInt("rc_bytes");
  s.rsp_bytes = p.IntAsInt("rsp_bytes");
  s.line_bytes = p.IntAsInt("line_bytes");
  s.ways = p.IntAsInt("ways");
  s.warps = p.IntAsInt("warps");
  s.reg_bits = p.IntAsInt("reg_bits");
  s.width = p.IntAsInt("width");
  const std::string org = p.Enum("organization");
  s.organization = org == "parallel-evict"      ? Organization::kParallelEvict
                   : org == "parallel-lifetime" ? Organization::kParallelLifetime
                                                : Organization::kHierarchical;
  s.clock_gate = p.Bool("clock_gate");

  Log2Of(p, "line_bytes", s.line_bytes, "power of two in 16..1024");
  s.way_bits = Log2Of(p, "ways", s.ways, "2, 4 or 8");
  s.warp_bits = Log2Of(p, "warps", s.warps, "power of two in 2..64");
  if (s.rc_bytes % s.line_bytes != 0) {
    p.Reject("rc_bytes",
             fmt::format("{} is not a whole number of {}-byte lines", s.rc_bytes, s.line_bytes),
             fmt::format("a multiple of line_bytes = {}", s.line_bytes));
  }
  s.rc_lines = s.rc_bytes / s.line_bytes;
  s.sets = s.rc_lines / s.ways;
  if (s.rc_bytes != 0 && (s.rc_lines % s.ways != 0 || s.sets < 2))
    p.Reject("rc_bytes",
             fmt::format("{} bytes give {} lines of {} bytes, not a whole number (at least 2) of "
                         "{}-way sets",
                         s.rc_bytes, s.rc_lines, s.line_bytes, s.ways),
             fmt::format("0 or line_bytes x ways x k = {} x {} x k bytes, k >= 2", s.line_bytes,
                         s.ways));
  s.sets_pow2 = s.sets == 0 || std::has_single_bit(static_cast<unsigned>(s.sets));
  s.set_bits = 0;
  while ((1 << s.set_bits) < s.sets)
    ++s.set_bits;
  if (s.sets_pow2 && s.set_bits >= s.reg_bits)
    p.Reject("reg_bits",
             fmt::format("{} register bits leave no tag bit above the {} set-index bits",
                         s.reg_bits, s.set_bits),
             fmt::format("integer {}..8", s.set_bits + 1));
  if (s.rsp_bytes % s.line_bytes != 0 || (s.rsp_bytes != 0 && s.rsp_bytes / s.line_bytes < 2))
    p.Reject("rsp_bytes",
             fmt::format("{} is not 0 or a whole number (at least 2) of {}-byte slots", s.rsp_bytes,
                         s.line_bytes),
             fmt::format("0 or a multiple of line_bytes = {}, at least {}", s.line_bytes,
                         2 * s.line_bytes));
  if (s.rc_bytes == 0 && s.rsp_bytes == 0)
    p.Reject("rsp_bytes", "a hybrid-rc with neither an RC nor an RSP holds nothing",
             "a positive multiple of line_bytes for rc_bytes or rsp_bytes");
  s.rsp_slots = s.rsp_bytes / s.line_bytes;
  if (s.rc_bytes == 0 && s.organization != Organization::kHierarchical)
    p.Reject("organization", "without an RC there is nothing to organize the RSP against",
             "hierarchical");
  if (s.rc_lines > 1024)
    p.Reject("rc_bytes", fmt::format("{} lines exceed a flop array", s.rc_lines),
             fmt::format("at most 1024 x line_bytes = {}", 1024 * s.line_bytes));
  if (s.rsp_slots > 1024)
    p.Reject("rsp_bytes", fmt::format("{} slots exceed a flop array", s.rsp_slots),
             fmt::format("at most 1024 x line_bytes = {}", 1024 * s.line_bytes));
  s.slot_bits = 1;
  while ((1 << s.slot_bits) < s.rsp_slots)
    ++s.slot_bits;
  // A power-of-two number of sets leaves the set-index bits out of the tag; any other number
  // keeps the whole register name (the set is a remainder, not a bit field).
  s.tag_width = s.warp_bits + s.reg_bits - (s.sets_pow2 ? s.set_bits : 0);

  // RC data: read ports 0-5 the operands, 6 the transfer's line (fill source or victim), 7-8 the
  // writes' victims; write ports 0 the live-out, 1-2 the writes (later steps win a row).
  if (s.has_rc())
    s.rc_storage = StorageFor(s.rc_lines, s.width, kReadPorts + 1 + kWritePorts, 1 + kWritePorts,
                              s.clock_gate);
  // RSP data: read ports 0-5 the operands, 6 the live-out source; write ports 0 the fill, 1-2 the
  // writes.
  if (s.has_rsp())
    s.rsp_storage = StorageFor(s.rsp_slots, s.width, kReadPorts + 1, 1 + kWritePorts, s.clock_gate);

  s.kind = "hybrid-rc";
  s.config_hash = HashHex(s.kind + ":" + p.Canonical(), 6);
  const char* org_short = s.hierarchical() ? "hier" : (s.parallel_evict() ? "pevict" : "plife");
  s.module_name = fmt::format("rf_hybrid_rc{}_rsp{}_{}w_{}_{}", s.rc_bytes, s.rsp_bytes, s.ways,
                              org_short, s.config_hash);
  return s;
}

int HybridRcSpec::SetOf(int warp, int reg) const {
  return (reg ^ warp) % sets;
}

uint64_t HybridRcSpec::TagOf(int warp, int reg) const {
  const int dropped = sets_pow2 ? set_bits : 0;
  return (static_cast<uint64_t>(warp) << (reg_bits - dropped)) |
         static_cast<uint64_t>(reg >> dropped);
}

int HybridRcSpec::WarpOf(uint64_t tag) const {
  return static_cast<int>(tag >> (reg_bits - (sets_pow2 ? set_bits : 0)));
}

int HybridRcSpec::RegOf(int set, uint64_t tag) const {
  if (!sets_pow2)
    return static_cast<int>(tag & ((uint64_t{1} << reg_bits) - 1));
  const int high = static_cast<int>(tag & ((uint64_t{1} << (reg_bits - set_bits)) - 1));
  return (high << set_bits) | ((set ^ WarpOf(tag)) & (sets - 1));
}

}  // namespace gpurf
