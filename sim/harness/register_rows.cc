#include "sim/harness/register_rows.h"

#include <algorithm>

namespace gpurf::harness {

namespace {

uint64_t SplitMix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

RegisterRows::RegisterRows(const sim::Kernel& k, size_t warps, int width, int lanes, uint64_t seed)
    : k_(k),
      width_(width),
      lanes_(lanes),
      regs_(static_cast<size_t>(std::max(1, k.regs_per_thread))),
      streams_(warps, nullptr),
      shadow_(warps, std::vector<Bits>(regs_, Bits(width))),
      written_(warps, std::vector<uint8_t>(regs_, 0)),
      rand_state_(seed) {}

void RegisterRows::Launch(uint32_t warp, const sim::WarpStream& stream) {
  if (warp >= streams_.size()) {
    // More warp contexts than the SM schedules (CTA switching keeps pending CTAs' contexts).
    streams_.resize(warp + 1, nullptr);
    shadow_.resize(warp + 1, std::vector<Bits>(regs_, Bits(width_)));
    written_.resize(warp + 1, std::vector<uint8_t>(regs_, 0));
  }
  streams_[warp] = &stream;
  values_ = values_ && stream.has_values;
  std::fill(written_[warp].begin(), written_[warp].end(), 0);
}

void RegisterRows::WriteResultRows(uint32_t warp, const sim::DynInst& d) {
  const sim::Instruction& in = k_.code[d.inst];
  const sim::WarpStream* ws = streams_[warp];
  const bool vals = ws != nullptr && ws->has_values;
  const size_t nsrc = static_cast<size_t>(in.NumSrcRegs());
  size_t j = 0;
  pending_.clear();
  for (const auto& o : in.dsts) {
    for (int g = 0; g < o.count; ++g, ++j) {
      const int reg = o.first + g;
      Bits row = Shadow(warp, reg);
      for (int l = 0; l < lanes_; ++l) {
        if (((d.active_mask >> l) & 1U) == 0)
          continue;  // the lane keeps the register's value
        const uint32_t v = vals ? ws->values[d.values + (nsrc + j) * 32 + static_cast<size_t>(l)]
                                : static_cast<uint32_t>(SplitMix(rand_state_));
        row.set(32 * l, 32, v);
      }
      pending_.emplace_back(reg, std::move(row));
    }
  }
}

void RegisterRows::Commit(uint32_t warp, int reg) {
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    if (it->first == reg) {
      Shadow(warp, reg) = std::move(it->second);
      written_[warp][static_cast<size_t>(reg)] = 1;
      pending_.erase(it);
      return;
    }
  }
}

RowExpect RegisterRows::SourceExpect(uint32_t warp, int reg, const sim::DynInst* d) const {
  RowExpect e;
  e.value = Bits(width_);
  e.mask = Bits(width_);
  e.check = Written(warp, reg);
  const sim::WarpStream* ws = streams_[warp];
  if (d == nullptr || ws == nullptr || !ws->has_values) {
    e.value = shadow_[warp][static_cast<size_t>(reg)];
    for (int l = 0; l < lanes_; ++l)
      e.mask.set(32 * l, 32, 0xffffffffU);
    return e;
  }
  const sim::Instruction& in = k_.code[d->inst];
  size_t j = 0;
  for (const auto& o : in.srcs) {
    for (int g = 0; g < o.count; ++g, ++j) {
      if (o.first + g != reg)
        continue;
      for (int l = 0; l < lanes_; ++l) {
        if (((d->active_mask >> l) & 1U) == 0)
          continue;
        e.value.set(32 * l, 32, ws->values[d->values + j * 32 + static_cast<size_t>(l)]);
        e.mask.set(32 * l, 32, 0xffffffffU);
      }
      return e;
    }
  }
  e.check = false;  // not a source of this instruction (cannot happen)
  return e;
}

}  // namespace gpurf::harness
