#include "gen/config/design_schema.h"

#include <fmt/format.h>

#include "gen/config/hierarchy.h"

namespace gpurf {

namespace {

// hierarchy.kind: one value per registered hierarchy (gen/config/hierarchies/).
ParamDesc HierarchyKindParam() {
  std::vector<std::string> names;
  std::vector<std::string> help;
  for (const HierarchyKind& h : HierarchyKinds()) {
    names.push_back(h.name);
    help.push_back(fmt::format("{}: {}", h.name, h.summary));
  }
  return EnumParam("kind", names, "sw-orf", fmt::format("{}", fmt::join(help, "; ")));
}

}  // namespace

const std::vector<DesignSection>& DesignSections() {
  static const std::vector<DesignSection> sections = {
      {"design",
       "identification of the design point",
       {StringParam("name", "design", 64, "short name used in reports"),
        StringParam("description", "-", 200, "one line of free text")}},
      {"sm",
       "streaming multiprocessor organisation (Gebhart Table I)",
       {IntParam("lanes", 1, 64, 32, "SIMT width = threads per warp"),
        IntParam("lane_cluster", 1, 32, 4,
                 "lanes per cluster; a register-file row holds one register of each"),
        IntParam("warps", 1, 64, 32, "resident warps"),
        IntParam("active_warps", 1, 64, 8, "warps the two-level scheduler keeps active")}},
      {"mrf",
       "banked main register file",
       {IntParam("banks", 1, 64, 32, "SRAM banks"),
        IntParam("entries", 16, 4096, 256, "rows per bank"),
        IntParam("width", 32, 1024, 128, "bits per row, must be lane_cluster x 32"),
        IntParam("capacity_kb", 1, 4096, 128, "optional cross-check of banks x entries x width"),
        IntParam("collectors", 1, 8, 4, "operand collectors per lane cluster"),
        EnumParam("interleave", {"register", "warp-swizzled"}, "register",
                  "register -> bank mapping: reg mod banks (paper), or (warp + reg) mod banks"),
        EnumParam("wb_policy", {"write-priority", "read-priority"}, "write-priority",
                  "who waits when a write-back and a read hit one bank row in one cycle"),
        EnumParam("bank_impl", {"macro", "flops"}, "macro",
                  "SRAM banks as hard macros (black boxes in synthesis) or flip-flop arrays")}},
      {"hierarchy",
       "register-file hierarchy in front of the MRF",
       {HierarchyKindParam(),
        IntParam("levels", 1, 3, 3,
                 "levels including the MRF: 1, 2 (MRF + L1) or 3 (MRF + L1 + L0)"),
        IntParam("l1_entries_per_thread", 1, 8, 3, "L1 ORF/RFC entries per thread"),
        IntParam("l0_entries_per_thread", 1, 1, 1, "L0 entries per thread"),
        BoolParam("l0_split", true,
                  "split L0 into one single-entry bank per operand slot (A, B, C)"),
        EnumParam("replacement", {"fifo", "lru", "lru-fair", "lru-prioritized"}, "lru",
                  "hw-rfc: fifo or lru; cerf: lru-fair or lru-prioritized (default)"),
        // renaming (Jeon et al., MICRO 2015): gen/config/hierarchies/renaming.cc
        IntParam("physical_bytes", 0, 1 << 20, 0,
                 "renaming: physical register file per SM in bytes (0: the architected file)"),
        IntParam("table_bytes", 4, 65536, 1024,
                 "renaming: renaming-table capacity; the registers it cannot hold are exempt"),
        IntParam("flag_cache_entries", 0, 64, 10,
                 "renaming: release flag cache entries (0: every pir is fetched)"),
        IntParam("subarrays", 1, 16, 8, "renaming: power-gated subarrays per bank"),
        IntParam("wake_cycles", 1, 31, 1, "renaming: subarray wake-up latency in cycles"),
        BoolParam("power_gating", true, "renaming: gate subarrays with no mapped register"),
        EnumParam("table_energy", {"characterized", "jeon-table-2"}, "characterized",
                  "renaming: per-access energies of the renaming table and release flag cache: "
                  "gpurf's own characterization (docs/renaming-table.md) or Jeon Table 2 (1.14 pJ "
                  "per table access, flag cache unpriced)"),
        // hybrid (Bailey et al.): gen/config/hierarchies/hybrid.cc
        IntParam("rc_bytes", 0, 262144, 8192,
                 "hybrid: register-cache bytes per SM, split over the register-file partitions "
                 "(0: RSP only)"),
        IntParam("rsp_bytes", 0, 262144, 4096,
                 "hybrid: register-scratchpad bytes per SM, split over the register-file "
                 "partitions (0: RC only)"),
        EnumParam("organization", {"hierarchical", "parallel-evict", "parallel-lifetime"},
                  "hierarchical",
                  "hybrid: RSP transfers through the RC, beside it with the RC evicting what the "
                  "RSP takes, or none (Bailey IV-D)"),
        // cerf (Jing et al.): gen/config/hierarchies/cerf.cc
        IntParam("cerf_bytes", 0, 4194304, 0,
                 "cerf: integrated memory (data array) bytes per SM, the MRF's capacity (0: it)"),
        IntParam("ways", 2, 8, 4, "cerf: associativity of the integrated memory"),
        IntParam("tag_banks", 2, 16, 4, "cerf: tag banks"),
        IntParam("address_prefix", -1, 2147483647, -1,
                 "cerf: reg-mem address prefix above the register address (-1: all ones)"),
        // finereg (Oh et al., MICRO 2018): gen/config/hierarchies/finereg.cc
        IntParam("acrf_bytes", 0, 4194304, 131072,
                 "finereg: active-CTA register file bytes per SM (the rest of the RF is the PCRF)"),
        IntParam("pcrf_bytes", 0, 4194304, 131072,
                 "finereg: pending-CTA register file bytes per SM (0: no PCRF)"),
        IntParam("resident_ctas", 2, 256, 128,
                 "finereg: resident CTAs per SM, active and pending (the status monitor's slots)"),
        IntParam("hop_cycles", 4, 16, 4, "finereg: cycles per saved or restored PCRF entry"),
        IntParam("move_ports", 1, 32, 1,
                 "finereg: warp registers moved per cycle between the ACRF and the PCRF "
                 "(1: one register-file port; more: banks moving in parallel)"),
        IntParam("vector_cache_entries", 2, 256, 32,
                 "finereg: live-register vector cache lines (a power of two)"),
        IntParam("vector_miss_cycles", 1, 2000, 200,
                 "finereg: cycles to fetch a live-register vector on a vector-cache miss"),
        EnumParam("switch_target", {"pcrf", "full-rf", "dram"}, "pcrf",
                  "finereg: where a switched-out CTA's registers go: the PCRF (live ones), nowhere "
                  "(Virtual-Thread-like: whole allocations stay in the whole RF) or DRAM (live)")}},
      {"storage",
       "flip-flop array options for every ORF/RFC level",
       {EnumParam("read_mode", {"comb", "reg"}, "comb", "combinational or registered reads"),
        BoolParam("bypass", false, "write-to-read bypass"),
        BoolParam("clock_gate", true, "per-row clock gating")}},
      {"scheduler",
       "warp scheduler",
       {EnumParam("kind", {"single-level", "two-level"}, "two-level", "scheduler organisation"),
        EnumParam("inner_policy", {"greedy", "round-robin"}, "round-robin",
                  "policy among active warps")}},
      {"compiler",
       "PTX compilation of the workloads in the SM harness (sim/ptx/regalloc.h)",
       {IntParam("max_regs", 16, 255, 63,
                 "registers per thread the register allocator may use; values beyond spill to "
                 "local memory"),
        IntParam("fit_registers", 0, 1 << 20, 0,
                 "0: off; else a register file (32-bit registers per SM, 32768 = 128 KB) whose "
                 "resident CTAs each workload keeps on the GPU's smaller sm.registers: compiled "
                 "with the largest budget <= max_regs at which each kernel keeps as many warps "
                 "resident as that file holds at max_regs (Jeon's compiler-spill baseline)")}},
  };
  return sections;
}

std::string DesignSchemaReference() {
  std::string s;
  for (const auto& sec : DesignSections()) {
    s += fmt::format("{}:  # {}\n", sec.key, sec.help);
    for (const auto& f : sec.fields) {
      s += fmt::format("  {:<22} {:<14} # {}; {}\n", f.name + ":", f.default_value, f.help,
                       f.allowed());
    }
  }
  s += "gpu:  # the GPU the design runs on in the SM harness (`gpurf gpu list`)\n";
  s += "  preset:                fermi-gebhart  # fermi-gebhart, gtx480, gtx980, pascal-finereg, "
       "titanx-pascal\n";
  s += "  <field>: <value>       # override any preset field, nested or dotted (sm.warps: 48, "
       "memory: ideal); `gpurf gpu show <preset>`\n";
  s += "structures:  # extra standalone structures, a list of mappings\n";
  s += "  - name: <identifier>   kind: <structure kind>   count: <copies, default 1>   <kind "
       "parameters...>\n";
  return s;
}

}  // namespace gpurf
