// The cerf hierarchy: Jing et al.'s cache-emulated register file. The MRF's banks are the
// integrated data array, holding registers and L1D lines alike; a banked set-associative tag
// array (the tag-array family) says where every register operand (after reg-mem re-indexing) and
// every memory line is. One level: the integrated memory replaces the MRF and the L1D.
#include <fmt/format.h>

#include <bit>

#include "gen/config/hierarchy.h"

namespace gpurf {
namespace {

int NextPow2(int x) {
  return static_cast<int>(std::bit_ceil(static_cast<unsigned>(std::max(2, x))));
}

// The policy of a cerf design: hierarchy.replacement, lru-prioritized when left out.
std::string CerfPolicy(const ParamSet& hier) {
  return hier.Get("replacement").defaulted ? "lru-prioritized" : hier.Enum("replacement");
}

std::vector<DesignStructure> CerfStructures(const HierarchyInputs& in) {
  const DesignSpec& d = in.design;
  const ParamSet& hier = in.hierarchy;
  const std::string policy = CerfPolicy(hier);
  if (policy != "lru-fair" && policy != "lru-prioritized") {
    hier.Reject("replacement",
                "a cerf hierarchy replaces by LRU, fair or with registers prioritized (Jing III-D)",
                "lru-fair or lru-prioritized (or leave it out: lru-prioritized)");
  }
  const long long bytes =
      d.hierarchy.cerf_bytes == 0 ? d.mrf.capacity_bytes : d.hierarchy.cerf_bytes;
  if (bytes != d.mrf.capacity_bytes) {
    hier.Reject("cerf_bytes",
                fmt::format("the integrated data array is the MRF's banks: {} bytes (mrf.banks x "
                            "entries x width)",
                            d.mrf.capacity_bytes),
                fmt::format("{} (or leave it out)", d.mrf.capacity_bytes));
  }
  const int line = d.sm.WarpRegisterBytes();
  const long long lines = bytes / line;
  const int ways = d.hierarchy.ways;
  if (!std::has_single_bit(static_cast<unsigned>(ways)))
    hier.Reject("ways", "the tag array's associativity is a power of two", "2, 4 or 8");
  const long long sets = lines / ways;
  const int banks = d.hierarchy.tag_banks;
  if (!std::has_single_bit(static_cast<unsigned>(banks)) || sets < 2LL * banks ||
      !std::has_single_bit(static_cast<unsigned long long>(sets))) {
    hier.Reject("tag_banks",
                fmt::format("{} lines of {} bytes in {} ways are {} sets; the tag banks must be a "
                            "power of two with at least two sets each",
                            lines, line, ways, sets),
                fmt::format("a power of two up to {}", std::max(2LL, sets / 2)));
  }
  std::vector<DerivedValue> v = {
      {"banks", std::to_string(banks), &hier.Get("tag_banks")},
      {"sets", std::to_string(sets), &hier.Get("ways")},
      {"ways", std::to_string(ways), &hier.Get("ways")},
      // 48-bit line addresses, not the paper's 32: the SM harness's global addresses lie above
      // 4 GiB, and its cerf system looks them up in this tag array (with --rtl, in its RTL).
      {"addr_width", "48", &hier.Get("kind")},
      {"line_bytes", std::to_string(line), &in.sm.Get("lanes")},
      {"warps", std::to_string(NextPow2(d.sm.warps)), &in.sm.Get("warps")},
      {"regs", std::to_string(NextPow2(d.mrf.registers_per_thread)), &in.mrf.Get("entries")},
      {"lookups", "4", &hier.Get("kind")},
      {"policy", policy, &hier.Get("replacement")}};
  return {DerivedStructure(
      "cerf_tags", "tag-array",
      fmt::format("tag array of the {} KB integrated memory: {} tag banks, {} sets x {} ways of "
                  "{}-byte lines, {}",
                  bytes / 1024, banks, sets, ways, line, policy),
      1, v, in.loc)};
}

std::string CerfSystemSkipReason(const HierarchyInputs&) {
  return "the register-file system top does not compose a cerf design (its tag array is the "
         "tag-array family's; the integrated memory runs on the C++ models in the SM harness)";
}

// The data array is the MRF's banks: the MRF's characterization gives its read and write.
std::vector<EnergySource> CerfEnergySources(const DesignSpec&) {
  return {MrfEnergySource()};
}

}  // namespace

GPURF_REGISTER(HierarchyKind, cerf, "cerf",
               (HierarchyKind{
                   .name = "cerf",
                   .summary = "cache-emulated register file: MRF banks as integrated RF + L1D "
                              "behind one tag array (Jing et al.)",
                   .list_order = 60,
                   .min_levels = 1,
                   .max_levels = 1,
                   .structures = CerfStructures,
                   .system_skip_reason = CerfSystemSkipReason,
                   .energy_sources = CerfEnergySources,
               }))

}  // namespace gpurf
