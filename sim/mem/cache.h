// The tag store of one sectored cache (sim/mem/memory.h): `sets` x `ways` lines, a tag per line
// and, per sector, whether it is allocated (requested or present) and the cycle its data is
// there. A sector whose data cycle is still ahead is in flight (an MSHR fill); the line's
// `busy_until` is the last such cycle and the line cannot be evicted before it. LRU by a
// stamp per line (the lowest stamp is the least recently used). The caller picks the set
// (L1: line index % sets; L2: slice and line index / slices), so lookups are O(ways).
//
// Internal to gpurf_mem.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace gpurf::sim::mem {

class SectoredCache {
 public:
  static constexpr uint64_t kNoTag = std::numeric_limits<uint64_t>::max();

  struct Line {
    uint64_t tag = kNoTag;    // line address; kNoTag = invalid
    uint64_t lru = 0;         // stamp of the last use (0: insert at the LRU position)
    uint64_t busy_until = 0;  // in flight (MSHR) while > now
    uint32_t valid = 0;       // allocated sectors (data there at ready[s])
    uint32_t dirty = 0;       // sectors written and not yet written back
    uint32_t merges = 0;      // requests held by the line's MSHR (the allocating one included)
  };

  SectoredCache() = default;
  void Init(uint32_t sets, uint32_t ways, uint32_t sectors_per_line) {
    sets_ = sets;
    ways_ = ways;
    spl_ = sectors_per_line;
    lines_.assign(size_t{sets} * ways, Line{});
    ready_.assign(size_t{sets} * ways * spl_, 0);
    mark_.assign(size_t{sets} * ways, 0);
  }
  bool enabled() const { return sets_ != 0; }
  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }

  // The line holding `tag` in `set` (an index into lines), or -1.
  int Find(uint32_t set, uint64_t tag) const {
    const Line* l = &lines_[size_t{set} * ways_];
    for (uint32_t w = 0; w < ways_; ++w)
      if (l[w].tag == tag)
        return static_cast<int>(set * ways_ + w);
    return -1;
  }
  // Whether line `i` may be replaced at `now`: invalid, or not in flight.
  bool Evictable(int i, uint64_t now) const {
    return lines_[i].tag == kNoTag || lines_[i].busy_until <= now;
  }
  // The line to replace in `set` at `now`: an invalid line first, else the least recently used
  // line not in flight; -1 when every line is in flight.
  int Victim(uint32_t set, uint64_t now) const {
    int best = -1;
    const size_t base = size_t{set} * ways_;
    for (uint32_t w = 0; w < ways_; ++w) {
      const Line& l = lines_[base + w];
      if (l.tag == kNoTag)
        return static_cast<int>(base + w);
      if (l.busy_until <= now && (best < 0 || l.lru < lines_[best].lru))
        best = static_cast<int>(base + w);
    }
    return best;
  }

  Line& line(int i) { return lines_[i]; }
  const Line& line(int i) const { return lines_[i]; }
  uint64_t* ready(int i) { return &ready_[size_t(i) * spl_]; }
  const uint64_t* ready(int i) const { return &ready_[size_t(i) * spl_]; }
  uint64_t NextStamp() { return ++stamp_; }

  // Per-line marks of one access (the check pass of an L1 access): a fresh epoch per access.
  uint64_t NewEpoch() { return ++epoch_; }
  void Mark(int i, uint64_t epoch) { mark_[i] = epoch; }
  bool Marked(int i, uint64_t epoch) const { return mark_[i] == epoch; }

 private:
  uint32_t sets_ = 0, ways_ = 0, spl_ = 0;
  uint64_t stamp_ = 0;
  uint64_t epoch_ = 0;
  std::vector<Line> lines_;
  std::vector<uint64_t> ready_;
  std::vector<uint64_t> mark_;
};

}  // namespace gpurf::sim::mem
