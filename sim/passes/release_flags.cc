#include "sim/passes/release_flags.h"

#include <algorithm>
#include <cmath>

namespace gpurf::sim::passes {
namespace {

RegSet OperandRegs(const RegOperand& o) {
  RegSet s;
  for (int j = 0; j < o.count; ++j)
    s.set(static_cast<size_t>(o.first + j));
  return s;
}

}  // namespace

ReleaseFlags ComputeReleaseFlags(const Kernel& k, const Liveness& live,
                                 const ReleaseConfig& config) {
  ReleaseFlags f;
  f.config = config;
  const size_t n = k.code.size();
  const size_t nb = k.blocks.size();

  // 1. Releases of every register at its warp-level last read (encodable slots only).
  std::vector<RegSet> released(n);
  for (size_t i = 0; i < n; ++i) {
    const auto& srcs = k.code[i].srcs;
    for (size_t s = 0; s < srcs.size() && s < static_cast<size_t>(kPirSlots); ++s) {
      if (live.warp_dead_after[i][s])
        released[i] |= OperandRegs(srcs[s]);
    }
  }

  // 2. Registers still mapped on some path (forward may-analysis); at each reconvergence
  //    point the mapped registers that are dead at warp level are released by a pbr.
  std::vector<bool> is_join(nb, false);
  for (const auto& r : live.regions) {
    if (r.reconvergence_block != kExitBlock)
      is_join[r.reconvergence_block] = true;
  }
  std::vector<RegSet> mapped_in(nb), mapped_out(nb), pbr_set(nb);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = 0; b < nb; ++b) {
      RegSet in;
      for (uint32_t p : k.blocks[b].preds)
        in |= mapped_out[p];
      RegSet rel;
      if (is_join[b]) {
        rel = in & ~live.warp_live_in[k.blocks[b].first];
        in &= ~rel;
      }
      RegSet m = in;
      for (uint32_t i = k.blocks[b].first; i < k.blocks[b].end; ++i)
        m = (m & ~released[i]) | WriteSet(k.code[i]);
      if (in != mapped_in[b] || m != mapped_out[b] || rel != pbr_set[b]) {
        mapped_in[b] = in;
        mapped_out[b] = m;
        pbr_set[b] = rel;
        changed = true;
      }
    }
  }

  // 3. Lifetime estimate per register: from each write to the next release point in code order.
  std::vector<int32_t> pbr_at(n, -1);  // instruction -> block with a pbr starting there
  for (uint32_t b = 0; b < nb; ++b) {
    if (pbr_set[b].any())
      pbr_at[k.blocks[b].first] = static_cast<int32_t>(b);
  }
  RegSet used;
  std::vector<std::vector<size_t>> release_points(kMaxRegs + 1), writes(kMaxRegs + 1);
  for (size_t i = 0; i < n; ++i) {
    const RegSet w = WriteSet(k.code[i]);
    used |= ReadSet(k.code[i]) | w;
    RegSet rel = released[i];
    if (pbr_at[i] >= 0)
      rel |= pbr_set[static_cast<size_t>(pbr_at[i])];
    for (size_t r = 0; r <= kMaxRegs; ++r) {
      if (rel.test(r))
        release_points[r].push_back(i);
      if (w.test(r))
        writes[r].push_back(i);
    }
  }
  for (size_t r = 0; r < used.size(); ++r) {
    if (!used.test(r))
      continue;
    RenameRank rank;
    rank.reg = static_cast<uint16_t>(r);
    double total = 0;
    for (size_t d : writes[r]) {
      ++rank.instances;
      const auto& pts = release_points[r];
      const auto it = std::upper_bound(pts.begin(), pts.end(), d);
      const size_t rel = it == pts.end() ? n : *it;
      total += static_cast<double>(rel - d);
    }
    rank.lifetime = rank.instances > 0 ? total / rank.instances : 0.0;
    f.ranking.push_back(rank);
  }
  // Registers never written (read only) gain nothing from renaming: rank them last.
  std::stable_sort(f.ranking.begin(), f.ranking.end(),
                   [](const RenameRank& a, const RenameRank& b) {
                     if ((a.instances == 0) != (b.instances == 0))
                       return a.instances != 0;
                     if (a.lifetime != b.lifetime)
                       return a.lifetime < b.lifetime;
                     if (a.instances != b.instances)
                       return a.instances < b.instances;
                     return a.reg < b.reg;
                   });
  const int entry_bits =
      std::max(1, static_cast<int>(std::ceil(std::log2(std::max(2, config.physical_registers)))));
  f.table_registers = config.budget_bytes * 8 / (entry_bits * std::max(1, config.resident_warps));
  RegSet renamed;
  for (size_t i = 0; i < f.ranking.size() && static_cast<int>(i) < f.table_registers; ++i) {
    if (f.ranking[i].instances == 0)
      break;
    f.ranking[i].renamed = true;
    renamed.set(f.ranking[i].reg);
  }
  for (size_t r = 0; r < renamed.size(); ++r) {
    if (renamed.test(r))
      f.renamed.push_back(static_cast<uint16_t>(r));
  }

  // 4. Flags for the renamed registers only.
  f.release.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const auto& srcs = k.code[i].srcs;
    f.release[i].assign(srcs.size(), 0);
    for (size_t s = 0; s < srcs.size() && s < static_cast<size_t>(kPirSlots); ++s) {
      const RegSet regs = OperandRegs(srcs[s]);
      if (live.warp_dead_after[i][s] && (regs & ~renamed).none())
        f.release[i][s] = 1;
    }
  }
  for (uint32_t b = 0; b < nb; ++b) {
    const BasicBlock& bb = k.blocks[b];
    for (uint32_t first = bb.first; first < bb.end; first += kPirInstructions) {
      PirGroup g;
      g.block = b;
      g.first = first;
      g.count = std::min<uint32_t>(kPirInstructions, bb.end - first);
      for (uint32_t j = 0; j < g.count; ++j) {
        const auto& rel = f.release[first + j];
        for (size_t s = 0; s < rel.size() && s < static_cast<size_t>(kPirSlots); ++s) {
          if (rel[s])
            g.flags |= uint64_t{1} << (kPirSlots * j + s);
        }
      }
      f.pir.push_back(g);
    }
    const RegSet rel = pbr_set[b] & renamed;
    if (rel.any()) {
      PbrRelease p;
      p.inst = bb.first;
      for (size_t r = 0; r < rel.size(); ++r) {
        if (!rel.test(r))
          continue;
        p.regs.push_back(static_cast<uint16_t>(r));
        if (r >= 64)
          f.unencodable.push_back(static_cast<uint16_t>(r));
      }
      p.meta_instructions = static_cast<int>((p.regs.size() + kPbrRegisters - 1) / kPbrRegisters);
      f.pbr.push_back(std::move(p));
    }
  }
  std::sort(f.unencodable.begin(), f.unencodable.end());
  f.unencodable.erase(std::unique(f.unencodable.begin(), f.unencodable.end()), f.unencodable.end());
  return f;
}

}  // namespace gpurf::sim::passes
