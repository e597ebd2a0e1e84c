// GPU presets with the source of every field, the field table the `gpu:` section and the
// command line set by dotted path, and the consistency checks.
//
// Papers, by the names the sources below use:
//   Gebhart: Gebhart et al., "A Hierarchical Thread Scheduler and Register File for
//            Energy-efficient Throughput Processors", ACM TOCS 2012.
//   Jeon:    Jeon et al., "GPU Register File Virtualization", MICRO 2015.
//   Jing:    Jing et al., "Cache-Emulated Register File: An Integrated On-Chip Memory
//            Architecture for High Performance GPGPUs".
//   Bailey:  Bailey, Kloosterman and Mahlke, "Scratch That (But Cache This): A Hybrid Register
//            Cache / Scratchpad for GPUs".
//   FineReg: "FineReg: Fine-Grained Register File Management for Augmenting GPU Throughput",
//            MICRO 2018.
// Simulator configurations: GPGPU-Sim 3.2's GTX480 configuration (the one Jeon and Jing start
// from) and Accel-Sim's TITAN X Pascal configuration (SM6_TITANX). Where all are silent the
// public GPU's figures are used and the source says so.
#include "sim/sm/gpu_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>

namespace gpurf::sim {

namespace {

// ------------------------------------------------------------------------------ field table

enum class Kind { kInt, kUint, kDouble, kBool, kPolicy, kMemory };

struct Field {
  GpuField pub;
  Kind kind;
  double lo = 0, hi = 0;
  std::function<void*(GpuConfig&)> ref;  // the member the field names
};

std::string Allowed(Kind k, double lo, double hi) {
  switch (k) {
    case Kind::kInt:
    case Kind::kUint:
      return fmt::format("integer {}..{}", lo, hi);
    case Kind::kDouble:
      return fmt::format("number {}..{}", lo, hi);
    case Kind::kBool:
      return "true or false";
    case Kind::kPolicy:
      return "one of: lrr, gto, two-level";
    case Kind::kMemory:
      return "one of: ideal, hierarchy";
  }
  return {};
}

Field Make(std::string path, Kind k, double lo, double hi, std::string help,
           std::function<void*(GpuConfig&)> ref) {
  Field f;
  f.pub = {std::move(path), Allowed(k, lo, hi), std::move(help)};
  f.kind = k;
  f.lo = lo;
  f.hi = hi;
  f.ref = std::move(ref);
  return f;
}

void AddCache(std::vector<Field>& v, const std::string& p, CacheConfig MemoryConfig::*c,
              const std::string& what) {
  auto at = [c](GpuConfig& g) -> CacheConfig& { return g.mem.*c; };
  v.push_back(Make(p + ".bytes", Kind::kUint, 0, 64 << 20, what + " capacity in bytes (0 = none)",
                   [at](GpuConfig& g) -> void* { return &at(g).bytes; }));
  v.push_back(Make(p + ".ways", Kind::kUint, 1, 1024, what + " associativity",
                   [at](GpuConfig& g) -> void* { return &at(g).ways; }));
  v.push_back(Make(p + ".line_bytes", Kind::kUint, 16, 4096, what + " line size",
                   [at](GpuConfig& g) -> void* { return &at(g).line_bytes; }));
  v.push_back(Make(p + ".sector_bytes", Kind::kUint, 4, 4096,
                   what + " sector size (= line_bytes: not sectored)",
                   [at](GpuConfig& g) -> void* { return &at(g).sector_bytes; }));
  v.push_back(Make(p + ".hit_latency", Kind::kInt, 1, 10000, what + " hit latency, cycles",
                   [at](GpuConfig& g) -> void* { return &at(g).hit_latency; }));
  v.push_back(Make(p + ".mshrs", Kind::kInt, 1, 4096, what + " outstanding line misses",
                   [at](GpuConfig& g) -> void* { return &at(g).mshrs; }));
  v.push_back(Make(p + ".mshr_merge", Kind::kInt, 1, 1024, what + " requests one MSHR merges",
                   [at](GpuConfig& g) -> void* { return &at(g).mshr_merge; }));
  v.push_back(Make(p + ".write_back", Kind::kBool, 0, 1,
                   what + " stores: write-back (true) or write-through",
                   [at](GpuConfig& g) -> void* { return &at(g).write_back; }));
  v.push_back(Make(p + ".write_allocate", Kind::kBool, 0, 1, what + " stores allocate lines",
                   [at](GpuConfig& g) -> void* { return &at(g).write_allocate; }));
}

const std::vector<Field>& Fields() {
  static const std::vector<Field> fields = [] {
    std::vector<Field> v;
    v.push_back(Make("sms", Kind::kInt, 1, 1024, "streaming multiprocessors",
                     [](GpuConfig& g) -> void* { return &g.sms; }));
    v.push_back(Make("core_mhz", Kind::kDouble, 1, 10000, "core clock, MHz",
                     [](GpuConfig& g) -> void* { return &g.core_mhz; }));
    auto sm_int = [&v](const std::string& name, double lo, double hi, const std::string& help,
                       int SmConfig::*m) {
      v.push_back(Make("sm." + name, Kind::kInt, lo, hi, help,
                       [m](GpuConfig& g) -> void* { return &(g.sm.*m); }));
    };
    sm_int("lanes", 1, 64, "SIMT width (from the design's sm.lanes)", &SmConfig::lanes);
    sm_int("warps", 1, 64, "resident warps", &SmConfig::warps);
    sm_int("active_warps", 1, 64, "warps the schedulers choose from, all schedulers together",
           &SmConfig::active_warps);
    sm_int("schedulers", 1, 8, "warp schedulers; warp w is scheduler w % schedulers'",
           &SmConfig::schedulers);
    sm_int("rf_partitions", 1, 8,
           "register-file partitions: 1 (shared by the schedulers) or one per scheduler",
           &SmConfig::rf_partitions);
    sm_int("issue_width", 1, 2, "instructions one scheduler issues per cycle",
           &SmConfig::issue_width);
    v.push_back(Make("sm.policy", Kind::kPolicy, 0, 0, "warp selection of each scheduler",
                     [](GpuConfig& g) -> void* { return &g.sm.policy; }));
    sm_int("cta_slots", 1, 64, "resident CTAs", &SmConfig::cta_slots);
    v.push_back(Make("sm.registers", Kind::kUint, 256, 1 << 20,
                     "32-bit registers per SM (must match the design's MRF)",
                     [](GpuConfig& g) -> void* { return &g.sm.registers; }));
    v.push_back(Make("sm.register_alloc_unit", Kind::kUint, 1, 256,
                     "static allocation rounds every thread's registers up to a multiple of this",
                     [](GpuConfig& g) -> void* { return &g.sm.register_alloc_unit; }));
    v.push_back(Make("sm.shared_bytes", Kind::kUint, 0, 1 << 20, "shared memory per SM, bytes",
                     [](GpuConfig& g) -> void* { return &g.sm.shared_bytes; }));
    sm_int("lat_alu", 1, 10000, "ALU latency, cycles", &SmConfig::lat_alu);
    sm_int("lat_sfu", 1, 10000, "special-function latency", &SmConfig::lat_sfu);
    sm_int("lat_shared", 1, 10000, "shared-memory latency (ideal memory)", &SmConfig::lat_shared);
    sm_int("lat_texture", 1, 10000, "texture latency", &SmConfig::lat_texture);
    sm_int("lat_dram", 1, 10000, "global/local latency (ideal memory)", &SmConfig::lat_dram);
    sm_int("lat_const", 1, 10000, "constant-cache hit latency", &SmConfig::lat_const);
    sm_int("lat_branch", 1, 10000, "branch latency", &SmConfig::lat_branch);
    sm_int("sfu_lanes_per_cycle", 1, 64, "special-function operations per cycle",
           &SmConfig::sfu_lanes_per_cycle);
    sm_int("tex_lanes_per_cycle", 1, 64, "texture operations per cycle",
           &SmConfig::tex_lanes_per_cycle);
    sm_int("mem_lanes_per_cycle", 1, 64, "load/store lanes per cycle",
           &SmConfig::mem_lanes_per_cycle);
    v.push_back(Make("memory", Kind::kMemory, 0, 0,
                     "ideal: every global access takes sm.lat_dram; hierarchy: caches and DRAM",
                     [](GpuConfig& g) -> void* { return &g.mem.ideal; }));
    AddCache(v, "l1d", &MemoryConfig::l1d, "per-SM L1 data cache");
    v.push_back(Make("unified_bytes", Kind::kUint, 0, 64 << 20,
                     "unified RF + L1D per SM, split per kernel (0 = separate RF and L1D)",
                     [](GpuConfig& g) -> void* { return &g.mem.unified_bytes; }));
    AddCache(v, "const_cache", &MemoryConfig::const_cache, "per-SM constant cache");
    v.push_back(Make("shared_banks", Kind::kUint, 1, 64, "shared-memory banks, 4 bytes wide",
                     [](GpuConfig& g) -> void* { return &g.mem.shared_banks; }));
    v.push_back(Make("shared_latency", Kind::kInt, 1, 10000, "conflict-free shared access",
                     [](GpuConfig& g) -> void* { return &g.mem.shared_latency; }));
    AddCache(v, "l2", &MemoryConfig::l2, "L2 (all slices together)");
    v.push_back(Make("l2_slices", Kind::kInt, 1, 256, "L2 slices, interleaved by line",
                     [](GpuConfig& g) -> void* { return &g.mem.l2_slices; }));
    v.push_back(Make("l2_latency", Kind::kInt, 1, 10000, "L1 miss to L2 hit data, cycles",
                     [](GpuConfig& g) -> void* { return &g.mem.l2_latency; }));
    v.push_back(Make("l2_bytes_per_cycle_slice", Kind::kDouble, 1, 1024,
                     "bytes one L2 slice returns per core cycle",
                     [](GpuConfig& g) -> void* { return &g.mem.l2_bytes_per_cycle_slice; }));
    v.push_back(Make("dram_bytes_per_cycle", Kind::kDouble, 1, 100000,
                     "DRAM bandwidth of the GPU, bytes per core cycle",
                     [](GpuConfig& g) -> void* { return &g.mem.dram_bytes_per_cycle; }));
    v.push_back(Make("dram_latency", Kind::kInt, 1, 10000, "DRAM latency beyond the L2, cycles",
                     [](GpuConfig& g) -> void* { return &g.mem.dram_latency; }));
    // uint32_t members of SmConfig and CacheConfig are read as such below: the kinds say so.
    return v;
  }();
  return fields;
}

const Field* FindField(const std::string& path) {
  for (const auto& f : Fields()) {
    if (f.pub.path == path)
      return &f;
  }
  return nullptr;
}

std::string Number(double x) {
  if (x == std::floor(x) && std::abs(x) < 1e15)
    return fmt::format("{}", static_cast<long long>(x));
  return fmt::format("{}", x);
}

// ------------------------------------------------------------------------------ presets

struct Preset {
  GpuConfig g;
  std::string summary;
  std::map<std::string, std::string> sources;  // by path, "l1d.*" for a group, "*" otherwise
};

// Sets `path` of `p.g` and records its source.
void Put(Preset& p, const std::string& path, const std::string& value, const std::string& src) {
  if (!SetGpuField(p.g, path, value))
    throw std::logic_error("gpurf: bad preset value " + path + " = " + value);
  p.sources[path] = src;
}
void Src(Preset& p, const std::string& path, const std::string& src) {
  p.sources[path] = src;
}

const char* kGtx480Cfg = "GPGPU-Sim 3.2's GTX480 configuration";
const char* kAccel = "Accel-Sim's TITAN X Pascal configuration (SM6_TITANX)";

Preset FermiGebhart() {
  Preset p;
  p.g.preset = "fermi-gebhart";
  p.summary =
      "Gebhart et al. TOCS 2012, Table I: the Fermi-like SM of the paper (gpurf's default); the "
      "memory system, of which the paper gives only latencies, from the GTX480";
  Put(p, "sms", "16", "Gebhart section 1: 2 MB of register file per chip, 128 KB per SM");
  Put(p, "core_mhz", "700",
      "not in Gebhart; the GTX480's 700 MHz core clock as GPGPU-Sim's GTX480 configuration "
      "models it");
  Put(p, "sm.lanes", "32", "Gebhart Table I: 32-wide SIMT");
  Put(p, "sm.warps", "32", "Gebhart section 2.1: a 32-entry warp scheduler (1024 threads)");
  Put(p, "sm.active_warps", "8", "Gebhart section 7 (Figure 18): 8 active warps perform as all 32");
  Put(p, "sm.schedulers", "1", "Gebhart section 2.1: one warp issues per cycle");
  Put(p, "sm.rf_partitions", "1", "Gebhart Figure 1: one banked register file per SM");
  Put(p, "sm.issue_width", "1", "Gebhart section 2.1: single-issue, in-order");
  Put(p, "sm.policy", "two-level", "Gebhart section 3: the two-level warp scheduler");
  Put(p, "sm.cta_slots", "8", "not in Gebhart; Fermi's 8 resident CTAs (GPGPU-Sim GTX480: 8)");
  Put(p, "sm.registers", "32768", "Gebhart Table I: 128 KB register file");
  Put(p, "sm.register_alloc_unit", "1",
      "not in Gebhart; registers allocated one by one, as gpurf's SM always has, so that the "
      "published figures reproduce (GPGPU-Sim rounds to 4: `sm.register_alloc_unit: 4`)");
  Put(p, "sm.shared_bytes", "49152",
      "Gebhart Table I gives 32 KB; gpurf's SM has held 48 KB (the GTX480's 48 KB shared / "
      "16 KB L1 split) since before the presets and keeps it so published figures reproduce; "
      "`sm.shared_bytes: 32768` gives the table's");
  Put(p, "sm.lat_alu", "8", "Gebhart Table I: ALU latency 8 cycles");
  Put(p, "sm.lat_sfu", "20", "Gebhart Table I: special function latency 20 cycles");
  Put(p, "sm.lat_shared", "20", "Gebhart Table I: shared memory latency 20 cycles");
  Put(p, "sm.lat_texture", "400", "Gebhart Table I: texture instruction latency 400 cycles");
  Put(p, "sm.lat_dram", "400", "Gebhart Table I: DRAM latency 400 cycles");
  Put(p, "sm.lat_const", "8", "not in Gebhart; gpurf: a constant-cache hit takes an ALU latency");
  Put(p, "sm.lat_branch", "1", "not in Gebhart; gpurf: branches resolve in one cycle");
  Put(p, "sm.sfu_lanes_per_cycle", "8", "Gebhart section 6: special operations at eight per cycle");
  Put(p, "sm.tex_lanes_per_cycle", "4", "Gebhart section 6: four texture operations per cycle");
  Put(p, "sm.mem_lanes_per_cycle", "32",
      "not in Gebhart; gpurf: one warp memory instruction per cycle");
  Put(p, "memory", "hierarchy",
      "issue 13: caches and DRAM; Gebhart section 6 models a fixed 400-cycle memory, which "
      "`memory: ideal` reproduces exactly");
  Put(p, "l1d.bytes", "16384",
      "not in Gebhart; the GTX480's 16 KB L1 beside 48 KB shared memory (GPGPU-Sim GTX480)");
  Put(p, "l1d.ways", "4", "GPGPU-Sim GTX480: 32 sets x 4 ways x 128 B");
  Put(p, "l1d.line_bytes", "128", "GPGPU-Sim GTX480: 128-byte lines");
  Put(p, "l1d.sector_bytes", "128", "GPGPU-Sim 3.2 caches are not sectored");
  Put(p, "l1d.hit_latency", "20",
      "Fermi's L1 and shared memory are one SRAM: Gebhart Table I's shared memory latency");
  Put(p, "l1d.mshrs", "32", "GPGPU-Sim GTX480: 32 MSHRs");
  Put(p, "l1d.mshr_merge", "8", "GPGPU-Sim GTX480: 8 requests merged per MSHR");
  Src(p, "l1d.write_back", "GPGPU-Sim GTX480: global stores write through");
  Src(p, "l1d.write_allocate", "GPGPU-Sim GTX480: no write-allocate");
  Put(p, "const_cache.bytes", "8192", "GPGPU-Sim GTX480: 64 sets x 2 ways x 64 B = 8 KB");
  Put(p, "const_cache.ways", "2", "GPGPU-Sim GTX480");
  Put(p, "const_cache.line_bytes", "64", "GPGPU-Sim GTX480");
  Put(p, "const_cache.sector_bytes", "64", "not sectored");
  Put(p, "const_cache.hit_latency", "8", "as sm.lat_const");
  Put(p, "const_cache.mshrs", "2", "GPGPU-Sim GTX480: 2 MSHRs");
  Put(p, "const_cache.mshr_merge", "32", "GPGPU-Sim GTX480: 32 merged");
  Src(p, "const_cache.write_back", "read-only");
  Src(p, "const_cache.write_allocate", "read-only");
  Put(p, "shared_banks", "8", "Gebhart Table I: shared memory bandwidth 32 bytes/cycle = 8 x 4 B");
  Put(p, "shared_latency", "20", "Gebhart Table I: shared memory latency 20 cycles");
  Put(p, "l2.bytes", "786432",
      "not in Gebhart; the GTX480's 768 KB L2 (GPGPU-Sim: 12 slices x 64 KB)");
  Put(p, "l2.ways", "8", "GPGPU-Sim GTX480: 64 sets x 8 ways x 128 B per slice");
  Put(p, "l2.line_bytes", "128", "GPGPU-Sim GTX480");
  Put(p, "l2.sector_bytes", "128", "GPGPU-Sim 3.2 caches are not sectored");
  Put(p, "l2.hit_latency", "1", "the L2's latency is l2_latency");
  Put(p, "l2.mshrs", "32", "GPGPU-Sim GTX480: 32 MSHRs per slice");
  Put(p, "l2.mshr_merge", "4", "GPGPU-Sim GTX480: 4 merged");
  Put(p, "l2.write_back", "true", "GPGPU-Sim GTX480: write-back L2");
  Put(p, "l2.write_allocate", "true", "GPGPU-Sim GTX480: write-allocate L2");
  Put(p, "l2_slices", "12", "the GTX480's 6 memory partitions x 2 L2 slices (GPGPU-Sim)");
  Put(p, "l2_latency", "120", "GPGPU-Sim GTX480: 120-cycle ROP (L2) latency");
  Put(p, "l2_bytes_per_cycle_slice", "32",
      "Gebhart Table I: 32 bytes/cycle external memory bandwidth per SM, per slice here");
  Put(p, "dram_bytes_per_cycle", "253.4",
      "not in Gebhart; the GTX480's 177.4 GB/s at GPGPU-Sim's 700 MHz core clock");
  Put(p, "dram_latency", "280",
      "Gebhart Table I's 400-cycle DRAM latency, less the 120-cycle l2_latency");
  return p;
}

// The GPGPU-Sim 3.2 GTX480 of Jeon (section 5, Evaluation) and Jing (Table I).
Preset Gtx480() {
  Preset p = FermiGebhart();
  p.g.preset = "gtx480";
  p.summary =
      "GPGPU-Sim 3.2's GTX480 as Jeon et al. MICRO 2015 (section 5) and Jing et al. (Table I) "
      "configure it; Jing's 15 SMs and GTO schedulers by `sms: 15`, `sm.policy: gto`";
  Put(p, "sms", "16",
      "Jeon section 5: 16 SMs (Jing Table I and GPGPU-Sim's GTX480: 15; `sms: 15`)");
  Put(p, "core_mhz", "700", std::string(kGtx480Cfg) + ": 700 MHz core clock");
  Put(p, "sm.lanes", "32", "Jing Table I: warp size 32");
  Put(p, "sm.warps", "48", "Jeon section 4: 48 warps per SM; Jing Table I: 48 warps");
  Put(p, "sm.active_warps", "12",
      "Jeon section 5: a ready queue of six warps, per scheduler as GPGPU-Sim's "
      "two_level_active:6 sizes it: 2 x 6");
  Put(p, "sm.schedulers", "2",
      "Jeon section 5: two schedulers; Jing Table I: 2 warp schedulers per SM");
  Put(p, "sm.rf_partitions", "1",
      "Jeon section 5: one 128 KB register file of 4 banks x 8 sub-banks shared by the SM");
  Put(p, "sm.issue_width", "1",
      "Jeon section 5: the two schedulers issue two instructions per cycle, one each "
      "(GPGPU-Sim: one instruction per warp per cycle)");
  Put(p, "sm.policy", "two-level",
      "Jeon section 5: two-level warp scheduler (Jing Table I: GTO; `sm.policy: gto`)");
  Put(p, "sm.cta_slots", "8", "Jing Table I: 8 CTAs per SM");
  Put(p, "sm.registers", "32768",
      "Jeon section 5: 128 KB register file in 4 banks x 8 sub-banks; Jing Table I: 128 KB");
  Put(p, "sm.register_alloc_unit", "4",
      std::string(kGtx480Cfg) +
          " as its simulator admits CTAs: registers per thread rounded "
          "up to a multiple of 4");
  Put(p, "sm.shared_bytes", "49152", "Jing Table I: 48 KB shared memory");
  Put(p, "sm.lat_alu", "4", std::string(kGtx480Cfg) + ": integer and FP add latency 4");
  Src(p, "sm.lat_sfu", std::string("not in ") + kGtx480Cfg + "; Gebhart Table I's 20 cycles");
  Src(p, "sm.lat_shared", "not in the papers' configuration; Gebhart Table I's 20 cycles");
  Src(p, "sm.lat_texture", "not in the papers' configuration; Gebhart Table I's 400 cycles");
  Src(p, "sm.lat_dram", "ideal memory only: Gebhart Table I's 400 cycles");
  Put(p, "sm.lat_const", "4", "gpurf: a constant-cache hit takes an ALU latency");
  Src(p, "sm.sfu_lanes_per_cycle",
      "Fermi (GF100): 4 SFUs per SM at twice the 700 MHz core clock = 8 per core cycle");
  Src(p, "sm.tex_lanes_per_cycle", "Fermi (GF100): 4 texture units per SM");
  Src(p, "sm.mem_lanes_per_cycle",
      "Fermi (GF100): 16 load/store units at twice the core clock = 32 per core cycle");
  Put(p, "memory", "hierarchy", "the papers simulate GPGPU-Sim's caches and DRAM");
  Put(p, "l1d.bytes", "16384", "Jing Table I: 16 KB 4-way L1D, 128 B lines, LRU");
  Src(p, "l1d.ways", "Jing Table I: 4-way");
  Src(p, "l1d.line_bytes", "Jing Table I: 128 B lines");
  Src(p, "l1d.hit_latency",
      "not in the papers' configuration; Fermi's L1 and shared memory are one SRAM: the "
      "shared latency");
  Put(p, "shared_banks", "32", std::string(kGtx480Cfg) + ": 32 shared-memory banks");
  Src(p, "shared_latency", "not in the papers' configuration; Gebhart Table I's 20 cycles");
  Put(p, "l2.bytes", "786432", "Jing Table I: unified L2, 64 KB x 12, 128 B lines, 8-way, LRU");
  Src(p, "l2.ways", "Jing Table I: 8-way");
  Src(p, "l2.line_bytes", "Jing Table I: 128 B lines");
  Put(p, "l2_slices", "12", "Jing Table I: 12 L2 slices (the GTX480's 6 partitions x 2)");
  Put(p, "l2_bytes_per_cycle_slice", "32",
      std::string(kGtx480Cfg) + ": one 32-byte flit per cycle");
  Put(p, "dram_bytes_per_cycle", "253.4",
      "the papers give none; the GTX480's 177.4 GB/s at the 700 MHz core clock");
  Put(p, "dram_latency", "100", std::string(kGtx480Cfg) + ": 100-cycle DRAM latency");
  return p;
}

// Common to the Maxwell-class presets (gtx980, pascal-finereg): what both papers leave out.
void MaxwellDefaults(Preset& p, const std::string& paper) {
  const std::string silent = "not in " + paper + "; ";
  Src(p, "sm.lanes", paper + ": 32 threads per warp");
  Put(p, "sm.cta_slots", "32", silent + "Maxwell's 32 resident CTAs per SM");
  Src(p, "sm.lat_alu", silent + "Gebhart Table I's 8 cycles");
  Src(p, "sm.lat_sfu", silent + "Gebhart Table I's 20 cycles");
  Src(p, "sm.lat_shared", silent + "Gebhart Table I's 20 cycles");
  Src(p, "sm.lat_texture", silent + "Gebhart Table I's 400 cycles");
  Src(p, "sm.lat_dram", "ideal memory only: Gebhart Table I's 400 cycles");
  Src(p, "sm.lat_const", "gpurf: a constant-cache hit takes an ALU latency");
  Src(p, "sm.lat_branch", "gpurf: branches resolve in one cycle");
  Put(p, "sm.sfu_lanes_per_cycle", "32",
      silent + "the GTX 980's SM: 4 partitions x 8 special-function units");
  Put(p, "sm.tex_lanes_per_cycle", "8", silent + "the GTX 980's SM: 8 texture units");
  Put(p, "sm.mem_lanes_per_cycle", "32",
      silent + "the GTX 980's SM: 4 partitions x 8 load/store units");
  Put(p, "memory", "hierarchy", paper + " simulates GPGPU-Sim's caches and DRAM");
  Put(p, "core_mhz", "1126", "the GTX 980's 1126 MHz base clock");
  Src(p, "l1d.line_bytes", silent + "GPGPU-Sim's 128-byte lines");
  Src(p, "l1d.sector_bytes", silent + "not sectored, as GPGPU-Sim 3.2");
  Src(p, "l1d.hit_latency", silent + "Gebhart Table I's shared latency (L1 and shared SRAM)");
  Src(p, "l1d.mshr_merge", silent + "GPGPU-Sim GTX480's 8");
  Src(p, "l1d.write_back", silent + "write-through L1 as GPGPU-Sim");
  Src(p, "l1d.write_allocate", silent + "no write-allocate L1 as GPGPU-Sim");
  Src(p, "const_cache.*", silent + "GPGPU-Sim GTX480's 8 KB constant cache");
  Put(p, "shared_banks", "32", silent + "Maxwell's 32 shared-memory banks");
  Src(p, "shared_latency", silent + "Gebhart Table I's 20 cycles");
  Src(p, "l2.line_bytes", silent + "GPGPU-Sim's 128-byte lines");
  Src(p, "l2.sector_bytes", silent + "not sectored, as GPGPU-Sim 3.2");
  Src(p, "l2.hit_latency", "the L2's latency is l2_latency");
  Src(p, "l2.mshrs", silent + "GPGPU-Sim GTX480's 32 per slice");
  Src(p, "l2.mshr_merge", silent + "GPGPU-Sim GTX480's 4");
  Src(p, "l2.write_back", silent + "write-back L2 as GPGPU-Sim");
  Src(p, "l2.write_allocate", silent + "write-allocate L2 as GPGPU-Sim");
  Put(p, "l2_slices", "8",
      "the GTX 980's 4 memory partitions (Bailey Table I) x 2 L2 slices as GPGPU-Sim models a "
      "partition");
  Src(p, "l2_latency", silent + "GPGPU-Sim's 120-cycle ROP (L2) latency");
  Src(p, "l2_bytes_per_cycle_slice", silent + "GPGPU-Sim's 32-byte flit per cycle");
  Src(p, "dram_latency", silent + "GPGPU-Sim's 100-cycle DRAM latency");
}

Preset Gtx980() {
  Preset p = Gtx480();
  p.sources.clear();
  p.g.preset = "gtx980";
  p.summary =
      "Bailey et al., Table I: GPGPU-Sim 3.2.2 configured as a GTX 980 (Maxwell); the "
      "baseline's GTO scheduler by `sm.policy: gto` and `sm.active_warps: 64`";
  const std::string b = "Bailey Table I";
  MaxwellDefaults(p, b);
  Put(p, "sms", "16", b + ": 16 SMs");
  Put(p, "sm.warps", "64", b + ": 64 warps/SM");
  Put(p, "sm.active_warps", "16", b + ": 4 active warps per scheduler x 4 schedulers");
  Put(p, "sm.schedulers", "4", b + ": 4 schedulers/SM");
  Put(p, "sm.rf_partitions", "4",
      "Bailey section II: each scheduler has its own register file partition (Maxwell)");
  Put(p, "sm.issue_width", "2", b + ": up to 2 instructions per scheduler per cycle");
  Put(p, "sm.policy", "two-level",
      b + ": two-level scheduler for the register cache designs (GTO for the baseline)");
  Put(p, "sm.registers", "65536", b + ": 256 KB/SM, 16 single-ported banks");
  Put(p, "sm.register_alloc_unit", "4",
      b + ": GPGPU-Sim 3.2.2 admits CTAs with registers per thread rounded up to a multiple of 4");
  Put(p, "sm.shared_bytes", "98304", b + ": 96 KB/SM");
  Put(p, "sm.lat_alu", "8", "not in " + b + "; Gebhart Table I's 8 cycles");
  Put(p, "sm.lat_const", "8", "gpurf: a constant-cache hit takes an ALU latency");
  Put(p, "l1d.bytes", "49152",
      b + ": 48 KB L1 (global data bypassed in the paper; gpurf's L1 caches it, "
          "`l1d.bytes: 0` bypasses all)");
  Put(p, "l1d.ways", "6", "not in " + b + "; 64 sets x 6 ways x 128 B, GPGPU-Sim's 48 KB L1");
  Put(p, "l1d.mshrs", "32", b + ": 32 MSHRs");
  Put(p, "l2.bytes", "2097152", b + ": 2048 KB L2");
  Put(p, "l2.ways", "8", "not in " + b + "; FineReg Table I's 8-way for the same GTX 980-like GPU");
  Put(p, "dram_bytes_per_cycle", "198.9", b + ": 224 GB/s, at the 1126 MHz core clock");
  return p;
}

Preset PascalFineReg() {
  Preset p = Gtx980();
  p.sources.clear();
  p.g.preset = "pascal-finereg";
  p.summary = "FineReg (MICRO 2018), Table I: GPGPU-Sim as a GTX 980-like GPU with GTO schedulers";
  const std::string f = "FineReg Table I";
  MaxwellDefaults(p, f);
  Put(p, "sms", "16", f + ": 16 SMs");
  Put(p, "core_mhz", "1126", f + ": 1126 MHz");
  Put(p, "sm.warps", "64", f + ": 64 warps (2048 threads) per SM");
  Put(p, "sm.active_warps", "64", "GTO chooses among all warps");
  Put(p, "sm.schedulers", "4", f + ": 4 warp schedulers per SM");
  Put(p, "sm.rf_partitions", "4",
      "not in " + f + "; Pascal's register file is split among its 4 processing blocks");
  Put(p, "sm.issue_width", "1", "not in " + f + "; single issue");
  Put(p, "sm.policy", "gto", f + ": greedy-then-oldest");
  Put(p, "sm.cta_slots", "32", f + ": 32 CTAs per SM");
  Put(p, "sm.registers", "65536", f + ": 256 KB per SM");
  Put(p, "sm.register_alloc_unit", "4",
      f + ": GPGPU-Sim admits CTAs with registers per thread rounded up to a multiple of 4");
  Put(p, "sm.shared_bytes", "98304", f + ": 96 KB per SM");
  Put(p, "l1d.bytes", "49152", f + ": 48 KB L1");
  Put(p, "l1d.ways", "6",
      f + " says 8-way; 8 ways of 128-byte lines make 48 sets, not a power of two: gpurf keeps "
          "48 KB as 64 sets x 6 ways");
  Put(p, "l1d.mshrs", "32", "not in " + f + "; Bailey Table I's 32 for the GTX 980");
  Put(p, "l2.bytes", "2097152", f + ": 2048 KB shared L2");
  Put(p, "l2.ways", "8", f + ": 8-way");
  Put(p, "dram_bytes_per_cycle", "313.1", f + ": 352.5 GB/s, at the 1126 MHz core clock");
  return p;
}

Preset TitanXPascal() {
  Preset p = PascalFineReg();
  p.sources.clear();
  p.g.preset = "titanx-pascal";
  p.summary = std::string(kAccel) + ", for correlation with Accel-Sim traces";
  const std::string a = kAccel;
  Put(p, "sms", "28", a + ": 28 SMs");
  Put(p, "core_mhz", "1417", a + ": 1417 MHz core clock");
  Put(p, "sm.lanes", "32", a + ": 32 threads per warp");
  Put(p, "sm.warps", "64", a + ": 2048 threads = 64 warps per SM");
  Put(p, "sm.active_warps", "64", "GTO chooses among all warps");
  Put(p, "sm.schedulers", "4", a + ": 4 schedulers per SM");
  Put(p, "sm.rf_partitions", "4",
      "Accel-Sim SM6_TITANX: the register file banks are split among the 4 sub-cores");
  Put(p, "sm.issue_width", "2", a + ": 2 instructions per warp per cycle (different units)");
  Put(p, "sm.policy", "gto", a + ": greedy-then-oldest");
  Put(p, "sm.cta_slots", "32", a + ": 32 CTAs per SM");
  Put(p, "sm.registers", "65536", a + ": 65536 registers (256 KB)");
  Put(p, "sm.register_alloc_unit", "4",
      a + ": the simulator admits CTAs with registers per thread rounded up to a multiple of 4");
  Put(p, "sm.shared_bytes", "98304", a + ": 96 KB shared memory");
  Put(p, "sm.lat_alu", "4", a + ": integer and FP add latency 4");
  Put(p, "sm.lat_sfu", "20", a + ": SFU latency 20");
  Put(p, "sm.lat_shared", "24", a + ": shared-memory latency 24");
  Put(p, "sm.lat_texture", "400", "not in " + a + "; Gebhart Table I's 400 cycles");
  Put(p, "sm.lat_dram", "400", "ideal memory only: Gebhart Table I's 400 cycles");
  Put(p, "sm.lat_const", "4", "gpurf: a constant-cache hit takes an ALU latency");
  Put(p, "sm.lat_branch", "1", "gpurf: branches resolve in one cycle");
  Put(p, "sm.sfu_lanes_per_cycle", "32", "TITAN X Pascal (GP102) SM: 32 special-function units");
  Put(p, "sm.tex_lanes_per_cycle", "8", "TITAN X Pascal (GP102) SM: 8 texture units");
  Put(p, "sm.mem_lanes_per_cycle", "32", "TITAN X Pascal (GP102) SM: 32 load/store units");
  Put(p, "memory", "hierarchy", a + ": caches and DRAM");
  Put(p, "l1d.bytes", "49152",
      a + ": 48 KB L1D, 4 sets x 96 ways x 128 B, sectored (global loads skip it unless "
          "cached with .nc / __ldg; gpurf's L1 caches them)");
  Put(p, "l1d.ways", "96", a + ": 96 ways");
  Put(p, "l1d.line_bytes", "128", a + ": 128-byte lines");
  Put(p, "l1d.sector_bytes", "32", a + ": sectored, 32-byte sectors");
  Put(p, "l1d.hit_latency", "82", a + ": L1 latency 82");
  Put(p, "l1d.mshrs", "256", a + ": 256 MSHRs");
  Put(p, "l1d.mshr_merge", "8", a + ": 8 merged");
  Put(p, "l1d.write_back", "false", a + ": global stores write through");
  Put(p, "l1d.write_allocate", "false", a + ": no write-allocate");
  Put(p, "const_cache.bytes", "16384", a + ": 128 sets x 2 ways x 64 B");
  Put(p, "const_cache.ways", "2", a);
  Put(p, "const_cache.line_bytes", "64", a);
  Put(p, "const_cache.sector_bytes", "64", a + ": not sectored");
  Put(p, "const_cache.hit_latency", "4", "as sm.lat_const");
  Put(p, "const_cache.mshrs", "2", a + ": 2 MSHRs");
  Put(p, "const_cache.mshr_merge", "64", a + ": 64 merged");
  Src(p, "const_cache.write_back", "read-only");
  Src(p, "const_cache.write_allocate", "read-only");
  Put(p, "shared_banks", "32", a + ": 32 shared-memory banks");
  Put(p, "shared_latency", "24", a + ": shared-memory latency 24");
  Put(p, "l2.bytes", "3145728", a + ": 24 slices x 64 sets x 16 ways x 128 B = 3 MB");
  Put(p, "l2.ways", "16", a + ": 16-way");
  Put(p, "l2.line_bytes", "128", a);
  Put(p, "l2.sector_bytes", "32", a + ": sectored");
  Put(p, "l2.hit_latency", "1", "the L2's latency is l2_latency");
  Put(p, "l2.mshrs", "256", a + ": 256 MSHRs per slice");
  Put(p, "l2.mshr_merge", "64", a + ": 64 merged");
  Put(p, "l2.write_back", "true", a + ": write-back L2");
  Put(p, "l2.write_allocate", "true", a + ": write-allocate (lazy fetch on read) L2");
  Put(p, "l2_slices", "24", a + ": 12 memory channels x 2 sub-partitions");
  Put(p, "l2_latency", "120", a + ": 120-cycle ROP (L2) latency");
  Put(p, "l2_bytes_per_cycle_slice", "32", a + ": one 32-byte sector per cycle");
  Put(p, "dram_bytes_per_cycle", "338.7",
      "the TITAN X Pascal's 480 GB/s (384-bit GDDR5X) at the 1417 MHz core clock");
  Put(p, "dram_latency", "100", a + ": 100-cycle DRAM latency");
  return p;
}

const std::vector<Preset>& Presets() {
  static const std::vector<Preset> presets = [] {
    std::vector<Preset> v = {FermiGebhart(), Gtx480(), Gtx980(), PascalFineReg(), TitanXPascal()};
    // Every preset's GPU has a separate register file and L1D; the unified memory is a design
    // option (cerf_unified.yaml).
    for (Preset& p : v)
      Put(p, "unified_bytes", "0", "separate RF and L1D, as the GPU the preset models");
    return v;
  }();
  return presets;
}

const Preset* FindPreset(const std::string& name) {
  for (const auto& p : Presets()) {
    if (p.g.preset == name)
      return &p;
  }
  return nullptr;
}

bool PowerOfTwo(uint64_t x) {
  return x != 0 && (x & (x - 1)) == 0;
}

std::string CacheProblem(const std::string& p, const CacheConfig& c, int slices) {
  if (c.bytes == 0)
    return {};
  if (!PowerOfTwo(c.line_bytes))
    return fmt::format("{}.line_bytes {} is not a power of two", p, c.line_bytes);
  if (!PowerOfTwo(c.sector_bytes) || c.sector_bytes > c.line_bytes)
    return fmt::format("{}.sector_bytes {} does not divide {}.line_bytes {}", p, c.sector_bytes, p,
                       c.line_bytes);
  const uint64_t set_bytes = static_cast<uint64_t>(c.line_bytes) * c.ways;
  const uint64_t slice = c.bytes / static_cast<uint64_t>(slices);
  const std::string per =
      slices > 1 ? fmt::format(" per slice ({} / l2_slices {})", c.bytes, slices) : std::string();
  if (c.bytes % static_cast<uint64_t>(slices) != 0 || slice % set_bytes != 0 ||
      !PowerOfTwo(slice / set_bytes))
    return fmt::format(
        "{}.bytes {}{} is not a power-of-two number of sets of {}.ways {} x {}.line_bytes {}", p,
        slices > 1 ? slice : c.bytes, per, p, c.ways, p, c.line_bytes);
  if (c.mshr_merge > 0 && c.mshrs <= 0)
    return fmt::format("{}.mshrs {} must be at least 1", p, c.mshrs);
  return {};
}

}  // namespace

// ------------------------------------------------------------------------------ public

const std::vector<GpuField>& GpuFields() {
  static const std::vector<GpuField> v = [] {
    std::vector<GpuField> out;
    for (const auto& f : Fields())
      out.push_back(f.pub);
    return out;
  }();
  return v;
}

const GpuField* FindGpuField(const std::string& path) {
  const Field* f = FindField(path);
  return f != nullptr ? &f->pub : nullptr;
}

std::string GpuFieldValue(const GpuConfig& g, const std::string& path) {
  const Field* f = FindField(path);
  if (f == nullptr)
    return {};
  void* p = f->ref(const_cast<GpuConfig&>(g));
  switch (f->kind) {
    case Kind::kInt:
      return std::to_string(*static_cast<int*>(p));
    case Kind::kUint:
      return std::to_string(*static_cast<uint32_t*>(p));
    case Kind::kDouble:
      return Number(*static_cast<double*>(p));
    case Kind::kBool:
      return *static_cast<bool*>(p) ? "true" : "false";
    case Kind::kPolicy: {
      const WarpPolicy w = *static_cast<WarpPolicy*>(p);
      return w == WarpPolicy::kGto ? "gto" : w == WarpPolicy::kTwoLevel ? "two-level" : "lrr";
    }
    case Kind::kMemory:
      return *static_cast<bool*>(p) ? "ideal" : "hierarchy";
  }
  return {};
}

bool SetGpuField(GpuConfig& g, const std::string& path, const std::string& text) {
  const Field* f = FindField(path);
  if (f == nullptr)
    return false;
  void* p = f->ref(g);
  switch (f->kind) {
    case Kind::kInt:
    case Kind::kUint: {
      long long x = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
      if (ec != std::errc() || end != text.data() + text.size() || static_cast<double>(x) < f->lo ||
          static_cast<double>(x) > f->hi)
        return false;
      if (f->kind == Kind::kInt)
        *static_cast<int*>(p) = static_cast<int>(x);
      else
        *static_cast<uint32_t*>(p) = static_cast<uint32_t>(x);
      return true;
    }
    case Kind::kDouble: {
      double x = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
      if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(x) || x < f->lo ||
          x > f->hi)
        return false;
      *static_cast<double*>(p) = x;
      return true;
    }
    case Kind::kBool:
      if (text != "true" && text != "false")
        return false;
      *static_cast<bool*>(p) = text == "true";
      return true;
    case Kind::kPolicy:
      if (text == "lrr")
        *static_cast<WarpPolicy*>(p) = WarpPolicy::kLooseRoundRobin;
      else if (text == "gto")
        *static_cast<WarpPolicy*>(p) = WarpPolicy::kGto;
      else if (text == "two-level")
        *static_cast<WarpPolicy*>(p) = WarpPolicy::kTwoLevel;
      else
        return false;
      return true;
    case Kind::kMemory:
      if (text != "ideal" && text != "hierarchy")
        return false;
      *static_cast<bool*>(p) = text == "ideal";
      return true;
  }
  return false;
}

std::vector<std::string> GpuPresetNames() {
  std::vector<std::string> v;
  for (const auto& p : Presets())
    v.push_back(p.g.preset);
  return v;
}

const GpuConfig* FindGpuPreset(const std::string& name) {
  const Preset* p = FindPreset(name);
  return p != nullptr ? &p->g : nullptr;
}

std::string GpuFieldSource(const std::string& preset, const std::string& path) {
  const Preset* p = FindPreset(preset);
  if (p == nullptr)
    return {};
  if (auto it = p->sources.find(path); it != p->sources.end() && !it->second.empty())
    return it->second;
  const std::string group = path.substr(0, path.find('.')) + ".*";
  if (auto it = p->sources.find(group); it != p->sources.end())
    return it->second;
  return {};
}

std::string GpuPresetSummary(const std::string& preset) {
  const Preset* p = FindPreset(preset);
  return p != nullptr ? p->summary : std::string();
}

std::string DescribeGpuPreset(const GpuConfig& g) {
  std::string s = fmt::format("{}: {}\n", g.preset, GpuPresetSummary(g.preset));
  for (const auto& f : Fields()) {
    s += fmt::format("  {:<28} {:<10} {}\n", f.pub.path, GpuFieldValue(g, f.pub.path),
                     GpuFieldSource(g.preset, f.pub.path));
  }
  return s;
}

CacheConfig UnifiedL1d(const MemoryConfig& m, uint64_t register_bytes) {
  CacheConfig c = m.l1d;
  if (m.unified_bytes == 0)
    return c;
  const uint64_t left = m.unified_bytes > register_bytes ? m.unified_bytes - register_bytes : 0;
  const uint64_t set_bytes = uint64_t{c.ways} * c.line_bytes;
  c.bytes = static_cast<uint32_t>(left / set_bytes * set_bytes);
  return c;
}

std::string GpuConfigProblem(const GpuConfig& g) {
  for (const auto& f : Fields()) {
    const std::string v = GpuFieldValue(g, f.pub.path);
    GpuConfig probe = g;
    if (!SetGpuField(probe, f.pub.path, v))
      return fmt::format("{} {} is out of range ({})", f.pub.path, v, f.pub.allowed);
  }
  const SmConfig& sm = g.sm;
  if (sm.active_warps > sm.warps)
    return fmt::format("sm.active_warps {} exceeds sm.warps {}", sm.active_warps, sm.warps);
  if (sm.warps % sm.schedulers != 0)
    return fmt::format("sm.warps {} do not divide evenly among sm.schedulers {}", sm.warps,
                       sm.schedulers);
  if (sm.rf_partitions != 1 && sm.rf_partitions != sm.schedulers)
    return fmt::format("sm.rf_partitions {} must be 1 or sm.schedulers {}", sm.rf_partitions,
                       sm.schedulers);
  if (sm.active_warps % sm.schedulers != 0)
    return fmt::format("sm.active_warps {} do not divide evenly among sm.schedulers {}",
                       sm.active_warps, sm.schedulers);
  if (sm.registers % static_cast<uint32_t>(sm.lanes) != 0)
    return fmt::format("sm.registers {} is not a whole number of registers per lane (sm.lanes {})",
                       sm.registers, sm.lanes);
  if (sm.registers / static_cast<uint32_t>(sm.lanes) < static_cast<uint32_t>(sm.warps))
    return fmt::format("sm.registers {} give fewer than one register per thread of sm.warps {}",
                       sm.registers, sm.warps);
  const MemoryConfig& m = g.mem;
  if (!PowerOfTwo(m.shared_banks))
    return fmt::format("shared_banks {} is not a power of two", m.shared_banks);
  if (std::string p = CacheProblem("l1d", m.l1d, 1); !p.empty())
    return p;
  if (m.unified_bytes != 0) {
    const uint64_t rf = uint64_t{sm.registers} * 4;
    if (m.ideal)
      return fmt::format("unified_bytes {} needs memory: hierarchy (an ideal memory has no L1D)",
                         m.unified_bytes);
    if (m.unified_bytes < rf)
      return fmt::format(
          "unified_bytes {} is less than the register file it must hold (sm.registers {} x 4 "
          "bytes = {})",
          m.unified_bytes, sm.registers, rf);
  }
  if (std::string p = CacheProblem("const_cache", m.const_cache, 1); !p.empty())
    return p;
  if (std::string p = CacheProblem("l2", m.l2, m.l2_slices); !p.empty())
    return p;
  return {};
}

}  // namespace gpurf::sim
