// The memory hierarchy's timestamp model (sim/mem/memory.h has the model and its
// simplifications). Layout of this file:
//   Coalesce, SharedPasses   - the per-warp address analyses
//   Queue                    - a bandwidth-limited FIFO server (L2 slice, DRAM channel)
//   MemorySystem::Impl       - per-SM L1D / constant cache / LSU pipeline state, the L2 and DRAM
//     L2Access                 one L2 line request (read, write or atomic) and its DRAM traffic
//     ReadThrough              a load through an SM cache (L1D or constant): check, then commit
//     Store, Atomic, Shared, Constant
//
// Nothing allocates per Issue(): the coalesced lines and the per-line plans live in scratch
// vectors of the Impl, sized once.
#include "sim/mem/memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "base/int_math.h"
#include "sim/mem/cache.h"

namespace gpurf::sim::mem {

namespace {

// Bits lo..hi (inclusive) of a 32-bit mask.
uint32_t RangeMask(uint32_t lo, uint32_t hi) {
  const uint32_t n = hi - lo + 1;
  return (n >= 32 ? ~0u : ((1u << n) - 1)) << lo;
}

void CheckGeometry(uint32_t line_bytes, uint32_t sector_bytes, const char* what) {
  if (!IsPow2(line_bytes) || !IsPow2(sector_bytes) || sector_bytes > line_bytes ||
      line_bytes / sector_bytes > 32)
    throw std::invalid_argument(fmt::format(
        "{}: line_bytes {} and sector_bytes {} must be powers of two, sector <= line, at most 32 "
        "sectors per line",
        what, line_bytes, sector_bytes));
}

// x % d, with a mask when d is a power of two (sets, slices and banks usually are).
struct Mod {
  uint64_t d = 1;
  bool pow2 = true;
  explicit Mod(uint64_t divisor = 1) : d(divisor), pow2(IsPow2(divisor)) {}
  uint64_t operator()(uint64_t x) const { return pow2 ? x & (d - 1) : x % d; }
};

// Queues keep time in fixed point, 1/65536 cycle, so fractional bytes per cycle add up exactly
// enough and deterministically.
constexpr int kFrac = 16;
constexpr uint64_t kOne = uint64_t{1} << kFrac;

// A server of `bytes_per_cycle` in arrival (call) order: a request arriving at `arrival` starts
// when the server is free, and keeps it busy for bytes / bytes_per_cycle cycles.
struct Queue {
  uint64_t next_free = 0;     // fixed point
  double fixed_per_byte = 0;  // kOne / bytes_per_cycle

  // The cycle service of `bytes` starts (rounded up to a whole cycle).
  uint64_t Serve(uint64_t arrival, uint32_t bytes) {
    const uint64_t start = std::max(arrival << kFrac, next_free);
    next_free = start + static_cast<uint64_t>(std::llround(bytes * fixed_per_byte));
    return (start + kOne - 1) >> kFrac;
  }
};

}  // namespace

void Coalesce(const Access& a, uint32_t line_bytes, uint32_t sector_bytes,
              std::vector<LineRequest>& out) {
  out.clear();
  CheckGeometry(line_bytes, sector_bytes, "Coalesce");
  const int ls = Log2Pow2(line_bytes), ss = Log2Pow2(sector_bytes);
  const uint64_t n = a.lane_bytes == 0 ? 1 : a.lane_bytes;
  const uint32_t spl_mask = (line_bytes >> ss) - 1;
  for (uint32_t m = a.mask; m != 0; m &= m - 1) {
    const uint64_t lo = a.lanes[std::countr_zero(m)];
    // Fast path: the lane's bytes lie in one sector (any aligned access of up to a sector).
    if (((lo ^ (lo + n - 1)) >> ss) == 0) {
      const uint64_t base = lo >> ls << ls;
      const uint32_t bit = 1u << ((lo >> ss) & spl_mask);
      if (!out.empty() && out.back().line == base) {
        out.back().sectors |= bit;
        continue;
      }
      auto it = std::find_if(out.begin(), out.end(),
                             [base](const LineRequest& r) { return r.line == base; });
      if (it != out.end())
        it->sectors |= bit;
      else
        out.push_back({base, bit});
      continue;
    }
    const uint64_t hi = lo + n - 1;
    for (uint64_t line = lo >> ls; line <= hi >> ls; ++line) {
      const uint64_t base = line << ls;
      const uint64_t b = std::max(lo, base) - base;
      const uint64_t e = std::min(hi, base + line_bytes - 1) - base;
      const uint32_t sectors =
          RangeMask(static_cast<uint32_t>(b >> ss), static_cast<uint32_t>(e >> ss));
      if (!out.empty() && out.back().line == base) {
        out.back().sectors |= sectors;
        continue;
      }
      auto it = std::find_if(out.begin(), out.end(),
                             [base](const LineRequest& r) { return r.line == base; });
      if (it != out.end())
        it->sectors |= sectors;
      else
        out.push_back({base, sectors});
    }
  }
}

int SharedPasses(const Access& a, uint32_t banks) {
  constexpr uint32_t kMaxBanks = 1024;
  if (banks == 0 || banks > kMaxBanks)
    throw std::invalid_argument(fmt::format("SharedPasses: {} banks (1..{})", banks, kMaxBanks));
  const uint64_t lb = a.lane_bytes == 0 ? 1 : std::min<uint64_t>(a.lane_bytes, 16);
  const Mod bank(banks);
  // Fast path (up to 64 banks): every lane touches one word, and no bank sees two different
  // words: one pass.
  if (banks <= 64) {
    std::array<uint64_t, 64> word;
    uint64_t touched = 0;
    uint32_t m = a.mask;
    for (; m != 0; m &= m - 1) {
      const uint64_t lo = a.lanes[std::countr_zero(m)];
      const uint64_t w = lo >> 2;
      if ((lo + lb - 1) >> 2 != w)
        break;
      const uint32_t b = static_cast<uint32_t>(bank(w));
      if (touched >> b & 1) {
        if (word[b] != w)
          break;
      } else {
        touched |= uint64_t{1} << b;
        word[b] = w;
      }
    }
    if (m == 0)
      return a.mask == 0 ? 0 : 1;
  }
  // Every 4-byte word the active lanes touch (a 16-byte misaligned lane touches 5).
  std::array<uint64_t, 32 * 5> words;
  size_t n = 0;
  for (uint32_t m = a.mask; m != 0; m &= m - 1) {
    const uint64_t lo = a.lanes[std::countr_zero(m)];
    for (uint64_t w = lo >> 2; w <= (lo + lb - 1) >> 2; ++w)
      words[n++] = w;
  }
  if (n == 0)
    return 0;
  std::sort(words.begin(), words.begin() + n);
  n = static_cast<size_t>(std::unique(words.begin(), words.begin() + n) - words.begin());
  // Distinct words per bank; only the counters of touched banks are initialized.
  std::array<uint16_t, kMaxBanks> count;
  for (size_t i = 0; i < n; ++i)
    count[bank(words[i])] = 0;
  int passes = 0;
  for (size_t i = 0; i < n; ++i)
    passes = std::max<int>(passes, ++count[bank(words[i])]);
  return passes;
}

void MemStats::Add(const MemStats& o) {
  auto add = [](LevelStats& x, const LevelStats& y) {
    x.accesses += y.accesses;
    x.hits += y.hits;
    x.misses += y.misses;
    x.mshr_merges += y.mshr_merges;
    x.reservation_stalls += y.reservation_stalls;
    x.bank_conflicts += y.bank_conflicts;
    x.bytes += y.bytes;
  };
  add(l1d, o.l1d);
  add(shared, o.shared);
  add(constant, o.constant);
  add(l2, o.l2);
  add(dram, o.dram);
  warp_accesses += o.warp_accesses;
}

namespace {

// An SM's cache in front of the L2 (L1D or constant cache) and its MSHRs.
struct SmCache {
  CacheConfig cfg;
  SectoredCache tags;
  int line_shift = 7, sector_shift = 5;
  Mod set_of;
  std::vector<uint64_t> mshr;  // min-heap of the cycles busy MSHRs free up

  void Init(const CacheConfig& c, const char* what) {
    cfg = c;
    CheckGeometry(c.line_bytes, c.sector_bytes, what);
    line_shift = Log2Pow2(c.line_bytes);
    sector_shift = Log2Pow2(c.sector_bytes);
    if (c.bytes == 0)
      return;
    if (c.ways < 1 || c.mshrs < 1 || c.mshr_merge < 1 || c.hit_latency < 0)
      throw std::invalid_argument(
          fmt::format("{}: ways {}, mshrs {}, mshr_merge {} must be >= 1, hit_latency {} >= 0",
                      what, c.ways, c.mshrs, c.mshr_merge, c.hit_latency));
    const uint32_t sets = c.bytes / (c.ways * c.line_bytes);
    if (sets == 0)
      throw std::invalid_argument(fmt::format("{}: {} bytes hold less than one set of {} x {}",
                                              what, c.bytes, c.ways, c.line_bytes));
    tags.Init(sets, c.ways, c.line_bytes / c.sector_bytes);
    set_of = Mod(sets);
    mshr.reserve(static_cast<size_t>(c.mshrs));
  }
  uint32_t SetOf(uint64_t line) const { return static_cast<uint32_t>(set_of(line >> line_shift)); }
  // MSHRs free at `now` (releasing those whose fill arrived).
  int FreeMshrs(uint64_t now) {
    auto later = std::greater<uint64_t>();
    while (!mshr.empty() && mshr.front() <= now) {
      std::pop_heap(mshr.begin(), mshr.end(), later);
      mshr.pop_back();
    }
    return cfg.mshrs - static_cast<int>(mshr.size());
  }
  void PushMshr(uint64_t until) {
    mshr.push_back(until);
    std::push_heap(mshr.begin(), mshr.end(), std::greater<uint64_t>());
  }
};

struct SmState {
  SmCache l1, cc;
  L1Owner* owner = nullptr;  // owns the L1D when set
  uint64_t lsu_free = 0;     // L1D / shared pipeline: one line or pass per cycle
  uint64_t const_free = 0;   // constant cache: one distinct address per cycle
  MemStats stats;
};

// The check pass's plan for one coalesced line.
struct Plan {
  int way = -1;  // resident line, or -1
  uint32_t set = 0;
  uint32_t hit = 0, pend = 0, absent = 0;  // sectors: present, in flight, to fetch
  bool alloc = false;                      // needs a line (replacement)
};

enum class L2Op : uint8_t { kRead, kWrite, kAtomic };

}  // namespace

struct MemorySystem::Impl {
  MemoryConfig cfg;
  std::vector<SmState> sm;
  // L2: one tag store, `sets_per_slice` consecutive sets per slice.
  SectoredCache l2;
  uint32_t l2_sets_per_slice = 0;
  Mod slice_of, l2_set_of;
  int slice_shift = 0;  // log2(slices) when a power of two
  int l2_line_shift = 7, l2_sector_shift = 5;
  std::vector<Queue> slices;
  Queue dram;
  // Scratch.
  std::vector<LineRequest> lines;
  std::vector<Plan> plan;
  std::array<uint64_t, 32> addrs{};

  Impl(const MemoryConfig& c, int sms);

  // ---- DRAM and L2 ----

  uint64_t Dram(MemStats& st, uint64_t arrival, uint32_t bytes) {
    st.dram.accesses += bytes >> l2_sector_shift;
    st.dram.bytes += bytes;
    return dram.Serve(arrival, bytes);
  }

  // One request for `mask` sectors of L2 line `line` arriving at its slice at `at`. Reads and
  // atomics: the cycle the data is back at the SM. Writes: the cycle the slice accepts them.
  uint64_t L2Access(MemStats& st, uint64_t at, uint64_t line, uint32_t mask, L2Op op) {
    const uint64_t index = line >> l2_line_shift;
    const uint32_t slice = static_cast<uint32_t>(slice_of(index));
    const uint32_t n = static_cast<uint32_t>(std::popcount(mask));
    const uint32_t bytes = n << l2_sector_shift;
    const uint64_t s = slices[slice].Serve(at, bytes);
    const uint64_t lat = static_cast<uint64_t>(cfg.l2_latency);
    const uint64_t dlat = static_cast<uint64_t>(cfg.dram_latency);
    st.l2.accesses += n;
    if (!l2.enabled()) {
      st.l2.misses += n;
      if (op == L2Op::kWrite) {
        Dram(st, s, bytes);
        return s;
      }
      const uint64_t d = Dram(st, s, bytes);
      if (op == L2Op::kAtomic)
        Dram(st, s, bytes);
      st.l2.bytes += bytes;
      return d + dlat + lat;
    }
    const uint64_t in_slice = slice_of.pow2 ? index >> slice_shift : index / slices.size();
    const uint32_t set = slice * l2_sets_per_slice + static_cast<uint32_t>(l2_set_of(in_slice));
    int w = l2.Find(set, line);
    const bool wb = cfg.l2.write_back;
    if (op == L2Op::kWrite) {
      if (w < 0 && cfg.l2.write_allocate) {
        w = Install(st, set, line, s);
        if (w < 0) {  // every line of the set in flight: the write goes around the L2
          st.l2.misses += n;
          Dram(st, s, bytes);
          return s;
        }
      } else if (w < 0) {
        st.l2.misses += n;
        Dram(st, s, bytes);
        return s;
      }
      // Byte-masked sectors: a write makes a sector valid without fetching it.
      SectoredCache::Line& l = l2.line(w);
      const uint32_t present = mask & l.valid;
      st.l2.hits += static_cast<uint32_t>(std::popcount(present));
      st.l2.misses += static_cast<uint32_t>(std::popcount(mask & ~present));
      uint64_t* ready = l2.ready(w);
      for (uint32_t m = mask & ~l.valid; m != 0; m &= m - 1)
        ready[std::countr_zero(m)] = s;
      l.valid |= mask;
      l.lru = l2.NextStamp();
      if (wb)
        l.dirty |= mask;
      else
        Dram(st, s, bytes);
      return s;
    }
    // Read or atomic.
    uint64_t done = 0;
    uint32_t absent = mask;
    if (w >= 0) {
      SectoredCache::Line& l = l2.line(w);
      const uint64_t* ready = l2.ready(w);
      absent = mask & ~l.valid;
      for (uint32_t m = mask & l.valid; m != 0; m &= m - 1) {
        const uint64_t r = ready[std::countr_zero(m)];
        if (r <= s) {
          ++st.l2.hits;
          done = std::max(done, s + lat);
        } else {
          ++st.l2.misses;
          ++st.l2.mshr_merges;
          done = std::max(done, r + lat);
        }
      }
      l.lru = l2.NextStamp();
    }
    if (absent != 0) {
      const uint32_t abytes = static_cast<uint32_t>(std::popcount(absent)) << l2_sector_shift;
      st.l2.misses += static_cast<uint32_t>(std::popcount(absent));
      st.l2.bytes += abytes;
      const uint64_t r = Dram(st, s, abytes) + dlat;
      done = std::max(done, r + lat);
      if (w < 0)
        w = Install(st, set, line, s);
      if (w >= 0) {  // else: the set is all in flight; the data streams past the L2
        SectoredCache::Line& l = l2.line(w);
        uint64_t* ready = l2.ready(w);
        for (uint32_t m = absent; m != 0; m &= m - 1)
          ready[std::countr_zero(m)] = r;
        l.valid |= absent;
        l.busy_until = std::max(l.busy_until, r);
      }
    }
    if (op == L2Op::kAtomic) {
      if (w >= 0 && wb)
        l2.line(w).dirty |= mask;
      else
        Dram(st, s, bytes);
    }
    return done;
  }

  // Replaces the LRU line of L2 set `set` by `line` at `now` (writing a dirty victim back to
  // DRAM); -1 when every line of the set is in flight.
  int Install(MemStats& st, uint32_t set, uint64_t line, uint64_t now) {
    const int v = l2.Victim(set, now);
    if (v < 0)
      return -1;
    SectoredCache::Line& l = l2.line(v);
    if (l.tag != SectoredCache::kNoTag && l.dirty != 0)
      Dram(st, now, static_cast<uint32_t>(std::popcount(l.dirty)) << l2_sector_shift);
    l = SectoredCache::Line{};
    l.tag = line;
    l.lru = l2.NextStamp();
    return v;
  }

  // Sends `mask` sectors (of `sector_shift` bytes) of an SM cache line to the L2, split by L2
  // line; the latest completion.
  uint64_t ToL2(MemStats& st, uint64_t at, uint64_t line, uint32_t mask, int sector_shift,
                int line_shift, L2Op op) {
    if (sector_shift == l2_sector_shift && line_shift == l2_line_shift)
      return L2Access(st, at, line, mask, op);
    uint64_t done = 0, cur = SectoredCache::kNoTag;
    uint32_t cur_mask = 0;
    const uint64_t l2_bytes = uint64_t{1} << l2_line_shift;
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint64_t lo =
          line + (uint64_t{static_cast<uint32_t>(std::countr_zero(m))} << sector_shift);
      const uint64_t hi = lo + (uint64_t{1} << sector_shift) - 1;
      for (uint64_t l2l = lo >> l2_line_shift; l2l <= hi >> l2_line_shift; ++l2l) {
        const uint64_t base = l2l << l2_line_shift;
        const uint64_t b = std::max(lo, base) - base, e = std::min(hi, base + l2_bytes - 1) - base;
        if (base != cur) {
          if (cur != SectoredCache::kNoTag)
            done = std::max(done, L2Access(st, at, cur, cur_mask, op));
          cur = base;
          cur_mask = 0;
        }
        cur_mask |= RangeMask(static_cast<uint32_t>(b >> l2_sector_shift),
                              static_cast<uint32_t>(e >> l2_sector_shift));
      }
    }
    if (cur != SectoredCache::kNoTag)
      done = std::max(done, L2Access(st, at, cur, cur_mask, op));
    return done;
  }

  // ---- SM caches ----

  // Allocation check of the plan: every line to replace finds a line of its set that is
  // neither in flight nor about to be (marked), after earlier lines of this access took theirs.
  bool VictimsAvailable(const SectoredCache& tags, uint64_t now, uint64_t epoch) const {
    for (size_t k = 0; k < plan.size(); ++k) {
      if (!plan[k].alloc)
        continue;
      int avail = 0;
      const uint32_t set = plan[k].set;
      const int first = static_cast<int>(set * tags.ways());
      for (int i = first; i < first + static_cast<int>(tags.ways()); ++i)
        if (!tags.Marked(i, epoch) && tags.Evictable(i, now))
          ++avail;
      for (size_t j = 0; j < k; ++j)
        if (plan[j].alloc && plan[j].set == set)
          --avail;
      if (avail <= 0)
        return false;
    }
    return true;
  }

  // Replaces a line of `set` in SM cache `c` by `line`; a dirty victim's line and sectors go to
  // `victim` for the caller to write back to the L2 (after its own request: the demand miss
  // goes first, the write-back buffer drains behind it). The check pass guaranteed a victim.
  int Replace(SmCache& c, uint32_t set, uint64_t line, uint64_t now, bool lowest_priority,
              LineRequest& victim) {
    const int v = c.tags.Victim(set, now);
    SectoredCache::Line& l = c.tags.line(v);
    victim = LineRequest{};
    if (l.tag != SectoredCache::kNoTag && l.dirty != 0)
      victim = LineRequest{l.tag, l.dirty};
    l = SectoredCache::Line{};
    l.tag = line;
    l.lru = lowest_priority ? 0 : c.tags.NextStamp();
    return v;
  }
  void WriteBack(SmCache& c, MemStats& st, uint64_t at, const LineRequest& victim) {
    if (victim.sectors != 0)
      ToL2(st, at, victim.line, victim.sectors, c.sector_shift, c.line_shift, L2Op::kWrite);
  }

  // A load of `lines` through SM cache `c` whose first line is looked up at `now`, line k at
  // now + k * step. nullopt (and a reservation stall) when an MSHR, a merge slot or a line to
  // replace is missing: nothing else changes.
  std::optional<uint64_t> ReadThrough(SmCache& c, LevelStats& ls, MemStats& st, uint64_t now,
                                      uint64_t step, bool lowest_priority) {
    if (!PlanRead(c, now)) {
      if (Structural(c, now))
        return Bypass(c, ls, st, now, step);
      ++ls.reservation_stalls;
      return std::nullopt;
    }
    return CommitRead(c, ls, st, now, step, lowest_priority);
  }

  // A refusal with no line in flight (every MSHR free) can never turn into an acceptance: the
  // access needs more MSHRs than the cache has, or more new lines in one set than it has ways
  // (a scattered warp access). The hardware replays such an access in parts; here its lines
  // bypass the cache to the L2.
  static bool Structural(SmCache& c, uint64_t now) { return c.FreeMshrs(now) == c.cfg.mshrs; }
  uint64_t Bypass(SmCache& c, LevelStats& ls, MemStats& st, uint64_t now, uint64_t step) {
    uint64_t done = 0;
    for (size_t k = 0; k < lines.size(); ++k) {
      const uint32_t n = static_cast<uint32_t>(std::popcount(lines[k].sectors));
      ls.accesses += n;
      ls.misses += n;
      done = std::max(done, ToL2(st, now + k * step, lines[k].line, lines[k].sectors,
                                 c.sector_shift, c.line_shift, L2Op::kRead));
    }
    return done;
  }

  // The check pass of ReadThrough: fills `plan` for `lines`; false when an MSHR, a merge slot
  // or a line to replace is missing. Changes nothing but scratch marks.
  bool PlanRead(SmCache& c, uint64_t now) {
    SectoredCache& tags = c.tags;
    const int free_mshrs = c.FreeMshrs(now);
    const uint64_t epoch = tags.NewEpoch();
    int need = 0;
    bool any_alloc = false;
    plan.resize(lines.size());
    for (size_t k = 0; k < lines.size(); ++k) {
      Plan& p = plan[k];
      const LineRequest& r = lines[k];
      p = Plan{};
      p.set = c.SetOf(r.line);
      p.way = tags.Find(p.set, r.line);
      if (p.way < 0) {
        p.absent = r.sectors;
        p.alloc = any_alloc = true;
        ++need;
        continue;
      }
      const SectoredCache::Line& l = tags.line(p.way);
      const uint64_t* ready = tags.ready(p.way);
      p.absent = r.sectors & ~l.valid;
      for (uint32_t m = r.sectors & l.valid; m != 0; m &= m - 1) {
        const uint32_t bit = 1u << std::countr_zero(m);
        (ready[std::countr_zero(m)] <= now ? p.hit : p.pend) |= bit;
      }
      if (p.pend != 0 && l.merges >= static_cast<uint32_t>(c.cfg.mshr_merge))
        return false;
      if (p.absent != 0) {
        ++need;
        tags.Mark(p.way, epoch);
      }
    }
    return need <= free_mshrs && (!any_alloc || VictimsAvailable(tags, now, epoch));
  }

  // The commit pass of ReadThrough, after PlanRead accepted.
  uint64_t CommitRead(SmCache& c, LevelStats& ls, MemStats& st, uint64_t now, uint64_t step,
                      bool lowest_priority) {
    SectoredCache& tags = c.tags;
    // Commit: resident lines first, so replacements cannot evict a line the check found.
    const uint64_t hit = static_cast<uint64_t>(c.cfg.hit_latency);
    uint64_t done = 0;
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t k = 0; k < lines.size(); ++k) {
        Plan& p = plan[k];
        if (p.alloc != (pass == 1))
          continue;
        const LineRequest& r = lines[k];
        const uint64_t at = now + k * step;
        const uint32_t n = static_cast<uint32_t>(std::popcount(r.sectors));
        ls.accesses += n;
        ls.hits += static_cast<uint32_t>(std::popcount(p.hit));
        ls.misses += n - static_cast<uint32_t>(std::popcount(p.hit));
        LineRequest victim;
        if (p.alloc)
          p.way = Replace(c, p.set, r.line, now, lowest_priority, victim);
        SectoredCache::Line& l = tags.line(p.way);
        uint64_t* ready = tags.ready(p.way);
        if (!lowest_priority && !p.alloc)
          l.lru = tags.NextStamp();
        done = std::max(done, at + hit);
        if (p.pend != 0) {
          ++l.merges;
          ls.mshr_merges += static_cast<uint32_t>(std::popcount(p.pend));
          for (uint32_t m = p.pend; m != 0; m &= m - 1)
            done = std::max(done, ready[std::countr_zero(m)]);
        }
        if (p.absent != 0) {
          if (l.busy_until <= now)
            l.merges = 1;
          ls.bytes += uint64_t{static_cast<uint32_t>(std::popcount(p.absent))} << c.sector_shift;
          const uint64_t fill = std::max(
              ToL2(st, at, r.line, p.absent, c.sector_shift, c.line_shift, L2Op::kRead), at + hit);
          for (uint32_t m = p.absent; m != 0; m &= m - 1)
            ready[std::countr_zero(m)] = fill;
          l.valid |= p.absent;
          l.busy_until = std::max(l.busy_until, fill);
          c.PushMshr(fill);
          done = std::max(done, fill);
        }
        WriteBack(c, st, at, victim);
      }
    }
    return done;
  }

  // The check pass of Store: fills `plan`; false when a write-allocate finds no line to
  // replace.
  bool PlanStore(SmCache& c, uint64_t now, bool wa) {
    SectoredCache& tags = c.tags;
    const uint64_t epoch = tags.NewEpoch();
    bool any_alloc = false;
    plan.resize(lines.size());
    for (size_t k = 0; k < lines.size(); ++k) {
      Plan& p = plan[k];
      p = Plan{};
      p.set = c.SetOf(lines[k].line);
      p.way = tags.Find(p.set, lines[k].line);
      p.alloc = p.way < 0 && wa;
      any_alloc |= p.alloc;
    }
    return !any_alloc || VictimsAvailable(tags, now, epoch);
  }

  // A store of `lines` through the L1D at `now` (line k at now + k): write-back or through,
  // allocating or not. Completion: the L1 latency, and for every sector sent to the L2 the cycle
  // its slice accepts it.
  std::optional<uint64_t> Store(SmState& s, uint64_t now, bool wb, bool wa) {
    SmCache& c = s.l1;
    MemStats& st = s.stats;
    const uint64_t hit = static_cast<uint64_t>(c.cfg.hit_latency);
    uint64_t done = 0;
    if (!c.tags.enabled()) {
      for (size_t k = 0; k < lines.size(); ++k) {
        const uint64_t at = now + k;
        done = std::max({done, at + hit,
                         ToL2(st, at, lines[k].line, lines[k].sectors, c.sector_shift, c.line_shift,
                              L2Op::kWrite)});
      }
      return done;
    }
    SectoredCache& tags = c.tags;
    if (!PlanStore(c, now, wa)) {
      if (!Structural(c, now)) {
        ++st.l1d.reservation_stalls;
        return std::nullopt;
      }
      wa = false;  // more new lines in a set than ways: written through without allocating
      PlanStore(c, now, wa);
    }
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t k = 0; k < lines.size(); ++k) {
        Plan& p = plan[k];
        if (p.alloc != (pass == 1))
          continue;
        const LineRequest& r = lines[k];
        const uint64_t at = now + k;
        const uint32_t n = static_cast<uint32_t>(std::popcount(r.sectors));
        st.l1d.accesses += n;
        done = std::max(done, at + hit);
        if (p.alloc) {
          LineRequest victim;
          p.way = Replace(c, p.set, r.line, now, false, victim);
          WriteBack(c, st, at, victim);
        }
        if (p.way >= 0) {
          SectoredCache::Line& l = tags.line(p.way);
          const uint32_t present = r.sectors & l.valid;
          st.l1d.hits += static_cast<uint32_t>(std::popcount(present));
          st.l1d.misses += n - static_cast<uint32_t>(std::popcount(present));
          if (!p.alloc)
            l.lru = tags.NextStamp();
          if (wa || wb) {  // the written sectors are (or become) valid in the line
            uint64_t* ready = tags.ready(p.way);
            for (uint32_t m = r.sectors & ~l.valid; m != 0; m &= m - 1)
              ready[std::countr_zero(m)] = at + hit;
            l.valid |= r.sectors;
          }
          if (wb) {
            l.dirty |= r.sectors;
            continue;
          }
        } else {
          st.l1d.misses += n;
        }
        done = std::max(
            done, ToL2(st, at, r.line, r.sectors, c.sector_shift, c.line_shift, L2Op::kWrite));
      }
    }
    return done;
  }

  // A load or store of `lines` through an L1 owner (L1Owner), line k at now + k.
  uint64_t Owned(SmState& s, uint64_t now, bool write) {
    SmCache& c = s.l1;
    MemStats& st = s.stats;
    const uint64_t hit = static_cast<uint64_t>(s.owner->hit_latency());
    const uint32_t full = RangeMask(0, (c.cfg.line_bytes >> c.sector_shift) - 1);
    uint64_t done = 0;
    for (size_t k = 0; k < lines.size(); ++k) {
      const LineRequest& r = lines[k];
      const uint64_t at = now + k;
      const uint32_t n = static_cast<uint32_t>(std::popcount(r.sectors));
      const L1Owner::Outcome o = s.owner->Line(at, r.line, write);
      st.l1d.accesses += n;
      done = std::max(done, at + hit);
      if (o.hit && o.ready > at + hit) {  // the line's fill is in flight: a merged miss
        st.l1d.misses += n;
        st.l1d.mshr_merges += n;
        done = std::max(done, o.ready);
      } else if (o.hit) {
        st.l1d.hits += n;
      } else {
        st.l1d.misses += n;
        if (write) {
          done = std::max(
              done, ToL2(st, at, r.line, r.sectors, c.sector_shift, c.line_shift, L2Op::kWrite));
        } else {
          const uint32_t fetch = o.allocated ? full : r.sectors;
          st.l1d.bytes += uint64_t{static_cast<uint32_t>(std::popcount(fetch))} << c.sector_shift;
          const uint64_t fill = std::max(
              ToL2(st, at, r.line, fetch, c.sector_shift, c.line_shift, L2Op::kRead), at + hit);
          if (o.allocated)
            s.owner->Filled(r.line, fill);
          done = std::max(done, fill);
        }
      }
      WriteBack(c, st, at, o.victim);
    }
    return done;
  }
};

MemorySystem::Impl::Impl(const MemoryConfig& c, int sms) : cfg(c) {
  if (sms < 1)
    throw std::invalid_argument(fmt::format("MemorySystem: {} SMs", sms));
  if (c.l2_slices < 1 || !(c.l2_bytes_per_cycle_slice > 0) || !(c.dram_bytes_per_cycle > 0) ||
      c.l2_latency < 0 || c.dram_latency < 0 || c.shared_latency < 0)
    throw std::invalid_argument(fmt::format(
        "MemorySystem: l2_slices {} must be >= 1, bandwidths ({}, {}) > 0, latencies >= 0",
        c.l2_slices, c.l2_bytes_per_cycle_slice, c.dram_bytes_per_cycle));
  if (c.shared_banks < 1 || c.shared_banks > 1024)
    throw std::invalid_argument(
        fmt::format("MemorySystem: shared_banks {} (1..1024)", c.shared_banks));
  sm.resize(static_cast<size_t>(sms));
  for (SmState& s : sm) {
    s.l1.Init(c.l1d, "l1d");
    s.cc.Init(c.const_cache, "const_cache");
  }
  CheckGeometry(c.l2.line_bytes, c.l2.sector_bytes, "l2");
  l2_line_shift = Log2Pow2(c.l2.line_bytes);
  l2_sector_shift = Log2Pow2(c.l2.sector_bytes);
  if (c.l2.bytes != 0) {
    if (c.l2.ways < 1)
      throw std::invalid_argument(fmt::format("l2: ways {} must be >= 1", c.l2.ways));
    l2_sets_per_slice =
        c.l2.bytes / static_cast<uint32_t>(c.l2_slices) / (c.l2.ways * c.l2.line_bytes);
    if (l2_sets_per_slice == 0)
      throw std::invalid_argument(
          fmt::format("l2: {} bytes in {} slices hold less than one set of {} x {}", c.l2.bytes,
                      c.l2_slices, c.l2.ways, c.l2.line_bytes));
    l2.Init(l2_sets_per_slice * static_cast<uint32_t>(c.l2_slices), c.l2.ways,
            c.l2.line_bytes / c.l2.sector_bytes);
  }
  slices.resize(static_cast<size_t>(c.l2_slices));
  slice_of = Mod(slices.size());
  slice_shift = Log2Pow2(slices.size());
  l2_set_of = Mod(l2_sets_per_slice == 0 ? 1 : l2_sets_per_slice);
  for (Queue& q : slices)
    q.fixed_per_byte = static_cast<double>(kOne) / c.l2_bytes_per_cycle_slice;
  dram.fixed_per_byte = static_cast<double>(kOne) / c.dram_bytes_per_cycle;
  lines.reserve(64);
  plan.reserve(64);
}

MemorySystem::MemorySystem(const MemoryConfig& cfg, int sms) : impl_(new Impl(cfg, sms)) {}
MemorySystem::~MemorySystem() {
  delete impl_;
}

std::optional<uint64_t> MemorySystem::Issue(int sm, uint64_t cycle, const Access& a) {
  Impl& m = *impl_;
  SmState& s = m.sm[static_cast<size_t>(sm)];
  MemStats& st = s.stats;
  if (a.mask == 0) {
    ++st.warp_accesses;
    return cycle;
  }
  std::optional<uint64_t> done;
  switch (a.space) {
    case Space::kShared: {
      const int passes = SharedPasses(a, m.cfg.shared_banks);
      const uint64_t now = std::max(cycle, s.lsu_free);
      s.lsu_free = now + static_cast<uint64_t>(passes);
      ++st.shared.accesses;
      st.shared.bank_conflicts += static_cast<uint64_t>(passes - 1);
      done = now + static_cast<uint64_t>(m.cfg.shared_latency) + static_cast<uint64_t>(passes - 1);
      break;
    }
    case Space::kConst: {
      // One pass per distinct address; the lines are looked up together at the first.
      size_t n = 0;
      for (uint32_t b = a.mask; b != 0; b &= b - 1)
        m.addrs[n++] = a.lanes[std::countr_zero(b)];
      std::sort(m.addrs.begin(), m.addrs.begin() + static_cast<std::ptrdiff_t>(n));
      const uint64_t passes = static_cast<uint64_t>(
          std::unique(m.addrs.begin(), m.addrs.begin() + static_cast<std::ptrdiff_t>(n)) -
          m.addrs.begin());
      const uint64_t now = std::max(cycle, s.const_free);
      Coalesce(a, s.cc.cfg.line_bytes, s.cc.cfg.sector_bytes, m.lines);
      if (s.cc.tags.enabled()) {
        done = m.ReadThrough(s.cc, st.constant, st, now, 0, false);
        if (!done)
          return std::nullopt;
      } else {
        uint64_t d = 0;
        for (const LineRequest& r : m.lines) {
          st.constant.accesses += static_cast<uint32_t>(std::popcount(r.sectors));
          st.constant.misses += static_cast<uint32_t>(std::popcount(r.sectors));
          d = std::max(d, m.ToL2(st, now, r.line, r.sectors, s.cc.sector_shift, s.cc.line_shift,
                                 L2Op::kRead));
        }
        done = d;
      }
      s.const_free = now + passes;
      st.constant.bank_conflicts += passes - 1;
      *done += passes - 1;
      break;
    }
    case Space::kGlobal:
    case Space::kLocal:
    case Space::kTexture: {
      const uint64_t now = std::max(cycle, s.lsu_free);
      Coalesce(a, s.l1.cfg.line_bytes, s.l1.cfg.sector_bytes, m.lines);
      if (a.atomic) {
        uint64_t d = 0;
        for (size_t k = 0; k < m.lines.size(); ++k)
          d = std::max(d, m.ToL2(st, now + k, m.lines[k].line, m.lines[k].sectors,
                                 s.l1.sector_shift, s.l1.line_shift, L2Op::kAtomic));
        done = d;
      } else if (s.owner != nullptr && (a.write || a.space == Space::kTexture ||
                                        (a.op != CacheOp::kCg && a.op != CacheOp::kCv))) {
        done = m.Owned(s, now, a.write);
      } else if (a.write) {
        const bool local = a.space == Space::kLocal;
        done = m.Store(s, now, local || s.l1.cfg.write_back, local || s.l1.cfg.write_allocate);
      } else {
        const bool bypass =
            a.space != Space::kTexture && (a.op == CacheOp::kCg || a.op == CacheOp::kCv);
        if (bypass || !s.l1.tags.enabled()) {
          uint64_t d = 0;
          for (size_t k = 0; k < m.lines.size(); ++k)
            d = std::max(d, m.ToL2(st, now + k, m.lines[k].line, m.lines[k].sectors,
                                   s.l1.sector_shift, s.l1.line_shift, L2Op::kRead));
          done = d;
        } else {
          const bool streaming = a.op == CacheOp::kCs || a.op == CacheOp::kLu;
          done = m.ReadThrough(s.l1, st.l1d, st, now, 1, streaming);
        }
      }
      if (!done)
        return std::nullopt;
      s.lsu_free = now + m.lines.size();
      break;
    }
  }
  ++st.warp_accesses;
  return done;
}

bool MemorySystem::CanIssue(int sm, uint64_t cycle, const Access& a) const {
  Impl& m = *impl_;  // only its scratch (lines, plan, tag marks) changes
  SmState& s = m.sm[static_cast<size_t>(sm)];
  if (a.mask == 0)
    return true;
  switch (a.space) {
    case Space::kShared:
      return true;
    case Space::kConst:
      if (!s.cc.tags.enabled())
        return true;
      Coalesce(a, s.cc.cfg.line_bytes, s.cc.cfg.sector_bytes, m.lines);
      return m.PlanRead(s.cc, std::max(cycle, s.const_free)) ||
             Impl::Structural(s.cc, std::max(cycle, s.const_free));
    case Space::kGlobal:
    case Space::kLocal:
    case Space::kTexture: {
      const uint64_t now = std::max(cycle, s.lsu_free);
      if (a.atomic || !s.l1.tags.enabled() || s.owner != nullptr)
        return true;
      Coalesce(a, s.l1.cfg.line_bytes, s.l1.cfg.sector_bytes, m.lines);
      if (a.write) {
        const bool local = a.space == Space::kLocal;
        return m.PlanStore(s.l1, now, local || s.l1.cfg.write_allocate) ||
               Impl::Structural(s.l1, now);
      }
      if (a.space != Space::kTexture && (a.op == CacheOp::kCg || a.op == CacheOp::kCv))
        return true;
      return m.PlanRead(s.l1, now) || Impl::Structural(s.l1, now);
    }
  }
  return true;
}

uint64_t MemorySystem::RetryCycle(int sm, uint64_t cycle, const Access& a) const {
  SmState& s = impl_->sm[static_cast<size_t>(sm)];
  SmCache& c = a.space == Space::kConst ? s.cc : s.l1;
  c.FreeMshrs(cycle);  // drops the MSHRs freed by `cycle`: the heap's top is the next release
  return c.mshr.empty() ? cycle + 1 : std::max(cycle + 1, c.mshr.front());
}

void MemorySystem::SetL1Owner(int sm, L1Owner* owner) {
  impl_->sm.at(static_cast<size_t>(sm)).owner = owner;
}

uint64_t MemorySystem::L2Transfer(int sm, uint64_t at, uint64_t line, uint32_t sectors,
                                  bool write) {
  SmState& s = impl_->sm.at(static_cast<size_t>(sm));
  return impl_->ToL2(s.stats, at, line, sectors, s.l1.sector_shift, s.l1.line_shift,
                     write ? L2Op::kWrite : L2Op::kRead);
}

const MemoryConfig& MemorySystem::config() const {
  return impl_->cfg;
}

const MemStats& MemorySystem::Stats(int sm) const {
  return impl_->sm[static_cast<size_t>(sm)].stats;
}

MemStats MemorySystem::Total() const {
  MemStats t;
  for (const SmState& s : impl_->sm)
    t.Add(s.stats);
  return t;
}

}  // namespace gpurf::sim::mem
