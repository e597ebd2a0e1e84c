#include "sim/harness/hierarchies/cerf_system.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "base/diag.h"
#include "base/registry.h"
#include "energy/gebhart.h"
#include "gen/params/param.h"
#include "gen/structures/registry.h"
#include "sim/harness/hierarchy.h"
#include "sim/harness/transactors/mrf_transactions.h"
#include "sim/harness/transactors/tag_array_transactions.h"

namespace gpurf::harness {

namespace sp = sim::passes;
using S = TagArraySpec;

// The design structure of the tag array (gen/config/hierarchies/cerf.cc).
constexpr const char* kCerfTags = "cerf_tags";

namespace {

TagArraySpec TagSpec(const CerfConfig& c) {
  ParamSet p(TagArraySpec::ParamDescs());
  auto set = [&](const std::string& k, const std::string& v) { p.Set(k, v, {}, "cerf." + k); };
  set("banks", std::to_string(c.tag_banks));
  set("sets", std::to_string(c.sets()));
  set("ways", std::to_string(c.ways));
  set("addr_width", std::to_string(c.addr_width));
  set("line_bytes", std::to_string(c.line_bytes));
  // The family's own RGen is not used (RegMemIndexer gives the addresses): its smallest sizes.
  set("warps", "2");
  set("regs", "2");
  set("lookups", "4");
  set("policy", c.prioritized ? "lru-prioritized" : "lru-fair");
  return TagArraySpec::FromParams(p);
}

}  // namespace

CerfConfig CerfConfig::From(const DesignSpec& d) {
  CerfConfig c;
  c.bytes =
      d.hierarchy.cerf_bytes == 0 ? static_cast<int>(d.mrf.capacity_bytes) : d.hierarchy.cerf_bytes;
  c.ways = d.hierarchy.ways;
  c.tag_banks = d.hierarchy.tag_banks;
  c.line_bytes = d.sm.WarpRegisterBytes();
  c.prioritized = d.hierarchy.replacement != "lru-fair";
  c.prefix = d.hierarchy.address_prefix;
  // The design's tag array (cerf_tags) sets the address width, so that the system looks up the
  // same tag array the RTL in the loop runs.
  for (const DesignStructure& s : d.structures) {
    if (s.name == kCerfTags && s.implemented())
      c.addr_width = SpecAs<TagArraySpec>(*s.spec).addr_width;
  }
  return c;
}

CerfStats& CerfStats::operator+=(const CerfStats& o) {
  reg_reads += o.reg_reads;
  reg_read_hits += o.reg_read_hits;
  fills += o.fills;
  cold_reads += o.cold_reads;
  reg_writes += o.reg_writes;
  write_allocs += o.write_allocs;
  spills += o.spills;
  dead_frees += o.dead_frees;
  exit_frees += o.exit_frees;
  mem_lookups += o.mem_lookups;
  mem_hits += o.mem_hits;
  mem_fills += o.mem_fills;
  not_cached += o.not_cached;
  write_backs += o.write_backs;
  tag_conflict_cycles += o.tag_conflict_cycles;
  fill_wait_cycles += o.fill_wait_cycles;
  for (size_t a = 0; a < 2; ++a) {
    for (size_t b = 0; b < 2; ++b)
      replaced[a][b] += o.replaced[a][b];
  }
  return *this;
}

CerfSystem::CerfSystem(const sim::Kernel& k, const sim::SmConfig& sm, int mrf_banks, int collectors,
                       const CerfConfig& c, const sp::Liveness& live)
    : RfSystem(k, sm, mrf_banks, collectors),
      cfg_(c),
      live_(live),
      regs_(sim::AllocatedRegsPerThread(k, sm)),
      lat_dram_(sm.lat_dram),
      rgen_(RegMemIndexer::Params{.warps = sm.warps,
                                  .regs = sim::AllocatedRegsPerThread(k, sm),
                                  .line_bytes = c.line_bytes,
                                  .banks = c.tag_banks,
                                  .sets = c.sets(),
                                  .addr_width = c.addr_width,
                                  .prefix = c.prefix}),
      tags_(TagSpec(c)),
      spilled_(static_cast<size_t>(sm.warps) * static_cast<size_t>(regs_), 0),
      bank_count_(static_cast<size_t>(c.tag_banks), 0) {
  if (sm.rf_partitions > 1)
    throw std::invalid_argument(
        "cerf: the integrated memory is the SM's one register file and L1D (sm.rf_partitions 1)");
  if (live_.warp_dead_after.size() != k.code.size())
    throw std::invalid_argument("cerf: the liveness does not belong to the kernel");
}

// The memory system may be gone already (the driver builds it after the systems): no
// unregistering.
CerfSystem::~CerfSystem() = default;

void CerfSystem::AttachMemory(sim::mem::MemorySystem* memory, int sm) {
  memory_ = memory;
  sm_ = sm;
  if (memory_ == nullptr)
    return;
  const sim::CacheConfig& l1 = memory_->config().l1d;
  if (static_cast<int>(l1.line_bytes) != cfg_.line_bytes) {
    throw std::invalid_argument(fmt::format(
        "cerf: the memory's l1d.line_bytes {} differ from the integrated memory's {}-byte lines",
        l1.line_bytes, cfg_.line_bytes));
  }
  hit_latency_ = l1.hit_latency;
  const uint32_t sectors = l1.line_bytes / l1.sector_bytes;
  full_sectors_ = sectors >= 32 ? ~0u : (1u << sectors) - 1;
  memory_->SetL1Owner(sm, this);
}

void CerfSystem::ResolveCounts(const energy::Energies& e) {
  tag_event_ = e.ComponentIndex("tag lookups");
  spill_event_ = e.ComponentIndex("register spills");
  fill_event_ = e.ComponentIndex("register fills");
}

TagArray::Result CerfSystem::Lookup(S::Op op, bool last, uint64_t addr) {
  const TagArray::Result r = tags_.Access(op, last, addr);
  if (!tags_.failure().empty())
    throw std::logic_error("cerf: tag array invariant: " + tags_.failure());
  return r;
}

uint64_t CerfSystem::Transfer(uint64_t at, uint64_t line, bool write) {
  if (memory_ == nullptr)
    return write ? at : at + static_cast<uint64_t>(lat_dram_);
  return memory_->L2Transfer(sm_, at, line, full_sectors_, write);
}

sim::mem::LineRequest CerfSystem::Victim(const TagArray::Result& r, bool new_reg) {
  if (!r.victim)
    return {};
  const bool was_reg = r.victim_state == S::kReg;
  ++cs_.replaced[was_reg ? 1 : 0][new_reg ? 1 : 0];
  if (was_reg) {
    int w = 0, reg = 0;
    if (!rgen_.Decode(r.victim_addr, w, reg))
      throw std::logic_error(
          fmt::format("cerf: register line {:#x} outside the reg-mem space", r.victim_addr));
    spilled_[Index(w, reg)] = 1;
    ++cs_.spills;
    At(mrf_level_).drains += 1;
    ++st_.counts.events[static_cast<size_t>(spill_event_)];
    return {r.victim_addr, full_sectors_};
  }
  if (r.victim_state == S::kDirty) {
    ++cs_.write_backs;
    return {r.victim_addr, full_sectors_};
  }
  return {};
}

int CerfSystem::Issue(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  cycle_ = cycle;
  return RfSystem::Issue(cycle, warp, d);
}

void CerfSystem::Writeback(uint64_t cycle, uint32_t warp, const sim::DynInst& d) {
  cycle_ = cycle;
  RfSystem::Writeback(cycle, warp, d);
}

void CerfSystem::ReadOperands(uint32_t warp, const sim::DynInst& d, std::vector<int>& mrf) {
  const sim::Instruction& in = k_.code[d.inst];
  const bool sh = sim::IsSharedUnit(in.op_class);
  extra_ = in.srcs.empty() && in.dsts.empty() ? 0 : 1;  // the tagging stage
  // Distinct source registers; a register read in two slots is the last use if either says so.
  srcs_.clear();
  for (size_t s = 0; s < in.srcs.size(); ++s) {
    const bool last = cfg_.prioritized && live_.warp_dead_after[d.inst][s] != 0;
    for (int j = 0; j < in.srcs[s].count; ++j) {
      const int reg = in.srcs[s].first + j;
      auto it = std::find_if(srcs_.begin(), srcs_.end(),
                             [reg](const std::pair<int, bool>& x) { return x.first == reg; });
      if (it == srcs_.end())
        srcs_.emplace_back(reg, last);
      else
        it->second = it->second || last;
    }
  }
  // The data array serves every operand slot, as the MRF does in the baseline.
  for (const auto& o : in.srcs) {
    for (int j = 0; j < o.count; ++j)
      mrf.push_back(o.first + j);
  }
  Read(mrf_level_, sh, mrf.size());
  std::fill(bank_count_.begin(), bank_count_.end(), 0);
  uint64_t fill_done = 0;
  const int w = static_cast<int>(warp);
  tx_.clear();
  for (const auto& [reg, last] : srcs_) {
    const uint64_t addr = rgen_.Address(w, reg);
    ++bank_count_[static_cast<size_t>(rgen_.Bank(addr))];
    ++cs_.reg_reads;
    ++st_.counts.events[static_cast<size_t>(tag_event_)];
    const TagArray::Result r = Lookup(S::kReadReg, last, addr);
    if (listener_ != nullptr)
      tx_.push_back({S::kReadReg, last, w, reg, addr, r});
    if (r.hit) {
      ++cs_.reg_read_hits;
      cs_.dead_frees += r.after == S::kInactive ? 1 : 0;
      continue;
    }
    uint8_t& spilled = spilled_[Index(w, reg)];
    if (spilled != 0) {
      ++cs_.fills;
      ++st_.counts.events[static_cast<size_t>(fill_event_)];
      fill_done = std::max(fill_done, Transfer(cycle_, addr, false));
      if (r.filled)
        At(mrf_level_).fills += 1;
      spilled = 0;  // back in a line, or dead (a last use is not brought back)
    } else {
      ++cs_.cold_reads;
    }
    const sim::mem::LineRequest v = Victim(r, true);
    if (v.sectors != 0)
      Transfer(cycle_, v.line, true);
  }
  const int most = *std::max_element(bank_count_.begin(), bank_count_.end());
  if (most > 1) {
    extra_ += most - 1;
    cs_.tag_conflict_cycles += static_cast<uint64_t>(most - 1);
  }
  if (listener_ != nullptr && !tx_.empty())
    listener_->Transaction(TagRequest(TagRequest::Cause::kOperands, tx_, std::max(0, most - 1),
                                      rgen_.params().warps, regs_));
  if (fill_done > cycle_) {
    extra_ += static_cast<int>(fill_done - cycle_);
    cs_.fill_wait_cycles += fill_done - cycle_;
  }
}

void CerfSystem::WriteResults(uint32_t warp, const sim::DynInst& d) {
  const sim::Instruction& in = k_.code[d.inst];
  const bool sh = sim::IsSharedUnit(in.op_class);
  const int w = static_cast<int>(warp);
  tx_.clear();
  for (const auto& o : in.dsts) {
    for (int j = 0; j < o.count; ++j) {
      const int reg = o.first + j;
      const uint64_t addr = rgen_.Address(w, reg);
      ++cs_.reg_writes;
      ++st_.counts.events[static_cast<size_t>(tag_event_)];
      const TagArray::Result r = Lookup(S::kWriteReg, false, addr);
      Write(mrf_level_, sh);
      if (listener_ != nullptr) {
        tx_.push_back({S::kWriteReg, false, w, reg, addr, r});
        listener_->Transaction(MrfWrite(warp, reg));  // the value goes to the data array
      }
      spilled_[Index(w, reg)] = 0;  // the new value supersedes the spilled one
      if (r.hit)
        continue;
      ++cs_.write_allocs;
      const sim::mem::LineRequest v = Victim(r, true);
      if (v.sectors != 0)
        Transfer(cycle_, v.line, true);
    }
  }
  if (listener_ != nullptr && !tx_.empty())
    listener_->Transaction(
        TagRequest(TagRequest::Cause::kResults, tx_, -1, rgen_.params().warps, regs_));
}

void CerfSystem::CtaFinished(uint64_t, const sim::CtaInfo& c) {
  if (c.warps == nullptr)
    return;
  // With a listener every register is reported, the misses too (a read-reg with the last-use
  // bit that misses changes nothing), so that the other implementation shows the same lines gone.
  for (uint32_t wid : *c.warps) {
    const int w = static_cast<int>(wid);
    tx_.clear();
    for (int reg = 0; reg < regs_; ++reg) {
      spilled_[Index(w, reg)] = 0;
      const uint64_t addr = rgen_.Address(w, reg);
      TagArray::Result r = tags_.Peek(S::kReadReg, true, addr);
      if (r.hit) {
        r = Lookup(S::kReadReg, true, addr);  // reg -> inactive
        ++cs_.exit_frees;
      }
      if (listener_ != nullptr)
        tx_.push_back({S::kReadReg, true, w, reg, addr, r});
    }
    if (listener_ != nullptr && !tx_.empty())
      listener_->Transaction(
          TagRequest(TagRequest::Cause::kExitFree, tx_, -1, rgen_.params().warps, regs_));
  }
}

sim::mem::L1Owner::Outcome CerfSystem::Line(uint64_t at, uint64_t line, bool write) {
  if (rgen_.InRegSpace(line) || (line >> cfg_.addr_width) != 0) {
    throw std::logic_error(
        fmt::format("cerf: memory line {:#x} outside the {}-bit space below the reg-mem prefix",
                    line, cfg_.addr_width));
  }
  ++cs_.mem_lookups;
  const TagArray::Result r = Lookup(write ? S::kStore : S::kLoad, false, line);
  if (listener_ != nullptr) {
    mem_tx_.assign(1, TagLookup{write ? S::kStore : S::kLoad, false, -1, -1, line, r});
    listener_->Transaction(
        TagRequest(TagRequest::Cause::kMemory, mem_tx_, -1, rgen_.params().warps, regs_));
  }
  Outcome o;
  if (r.hit) {
    ++cs_.mem_hits;
    o.hit = true;
    if (auto it = ready_.find(line); it != ready_.end() && it->second > at)
      o.ready = it->second;
    return o;
  }
  if (r.filled) {
    ++cs_.mem_fills;
    o.allocated = true;
  } else if (!write) {
    ++cs_.not_cached;
  }
  o.victim = Victim(r, false);
  return o;
}

void CerfSystem::Filled(uint64_t line, uint64_t ready) {
  ready_[line] = ready;
}

void CerfSystem::Finish() {
  RfSystem::Finish();
  st_.dead_kills = cs_.dead_frees;
  const CerfStats& c = cs_;
  st_.extra = {{"reg reads", c.reg_reads},
               {"reg read hits", c.reg_read_hits},
               {"fills", c.fills},
               {"cold reads", c.cold_reads},
               {"reg writes", c.reg_writes},
               {"write allocs", c.write_allocs},
               {"spills", c.spills},
               {"dead frees", c.dead_frees},
               {"exit frees", c.exit_frees},
               {"mem lookups", c.mem_lookups},
               {"mem hits", c.mem_hits},
               {"mem fills", c.mem_fills},
               {"not cached", c.not_cached},
               {"write-backs", c.write_backs},
               {"tag conflict cycles", c.tag_conflict_cycles},
               {"fill wait cycles", c.fill_wait_cycles},
               {"r<-r", c.replaced[1][1]},
               {"r<-c", c.replaced[1][0]},
               {"c<-r", c.replaced[0][1]},
               {"c<-c", c.replaced[0][0]}};
}

// ---------------------------------------------------------------------------------------------
// Registration

namespace {

// Jing et al. Table III (CACTI 6.5), per 16-byte bank access: the 128 KB RF (= the integrated
// data array) read 4.62 / write 5.97 pJ, the integrated tag 0.75 pJ per lookup, L2 data read 5.52
// / write 3.95 pJ and L2 tag read 1.05 / write 1.91 pJ; a 128-byte spill or fill moves 8 banks'
// worth of L2 data and looks up one L2 tag. A characterization JSON replaces the data array's
// figures (the MRF's). Wire distances are Gebhart's (the MRF's).
energy::Energies CerfEnergies(const DesignSpec& d, int slots, const sp::RegisterFileEnergies& pe,
                              const std::string& json) {
  const std::string jing = "Jing et al. Table III (CACTI 6.5)";
  energy::Energies e;
  energy::LevelEnergy mrf = energy::gebhart::Level("MRF", d.hierarchy.l1_entries_per_thread, slots);
  if (json.empty()) {
    mrf.read_pj = 4.62;
    mrf.write_pj = 5.97;
    mrf.source = jing + ": 128 KB RF = integrated data array";
  } else {
    mrf.read_pj = pe.mrf_read_pj;
    mrf.write_pj = pe.mrf_write_pj;
    mrf.source = pe.source + " (characterization " + json + ")";
  }
  mrf.mm = {pe.mrf_private_mm, pe.mrf_shared_mm};
  e.levels.push_back(std::move(mrf));
  e.components.push_back({"tag lookups", "tags", 0.75, jing + ": integrated tag, per lookup"});
  e.components.push_back({"register spills", "spills", 8 * 3.95 + 1.91,
                          jing + ": L2 data write x 8 banks + L2 tag write, per 128-byte line"});
  e.components.push_back({"register fills", "fills", 8 * 5.52 + 1.05,
                          jing + ": L2 data read x 8 banks + L2 tag read, per 128-byte line"});
  e.row_bits = 128;
  e.pj_per_mm_word = pe.wire_pj_per_mm_32bit;
  e.writeback_mm = pe.mrf_private_mm;
  return e;
}

// The tag array runs as RTL beside the MRF (the register home: the data array is the MRF's
// banks; sim/harness/transactors/tag_array_transactor.cc). The RTL's RGen prefixes register
// addresses with all ones, so another reg-mem prefix cannot run in the loop.
std::vector<std::string> CerfRtlStructures(const DesignSpec& d) {
  if (d.hierarchy.address_prefix != -1) {
    SourceLoc loc{d.source, 0, 0};
    for (const DesignStructure& s : d.structures) {
      if (s.name == kCerfTags)
        loc = {d.source, s.loc.line, s.loc.column};
    }
    throw InputError(loc, "hierarchy.address_prefix", std::to_string(d.hierarchy.address_prefix),
                     "the tag array's RTL re-indexes registers below an all-ones prefix, so "
                     "--rtl / --lockstep cannot run another reg-mem prefix",
                     "-1 (or leave address_prefix out) for --rtl / --lockstep");
  }
  return {kCerfTags};
}

}  // namespace

GPURF_REGISTER(
    HarnessHierarchy, cerf, "cerf",
    (HarnessHierarchy{
        .allocated_levels = [](const DesignSpec&) { return 1; },
        .make_system = [](const DesignSpec& d, const sim::Kernel& k, const sim::SmConfig& sm,
                          const sp::KernelAnalysis& a,
                          const HarnessOptions& opt) -> std::unique_ptr<RfSystem> {
          return std::make_unique<CerfSystem>(k, sm, std::max(1, d.mrf.banks_per_cluster),
                                              opt.mrf_collectors, CerfConfig::From(d), a.live);
        },
        .describe = [](const DesignSpec& d, const HarnessOptions&, int) -> std::string {
          const CerfConfig c = CerfConfig::From(d);
          return fmt::format("CERF: {} KB integrated RF + L1D, {}-way, {} tag banks, {}",
                             c.bytes / 1024, c.ways, c.tag_banks,
                             c.prioritized ? "lru-prioritized" : "lru-fair");
        },
        .rtl_structures = CerfRtlStructures,
        .compiler_note =
            [](const DesignSpec& d) {
              return fmt::format(
                  "design '{}' is a cache-emulated register file: the compiler provides "
                  "warp-level last uses (lru-prioritized frees a register's line at its last "
                  "read), not ORF levels",
                  d.name);
            },
        .energies = CerfEnergies,
    }))

}  // namespace gpurf::harness
