#include "models/pcrf_model.h"

#include <fmt/format.h>

#include "models/registry.h"

namespace gpurf {

PcrfModel::PcrfModel(const PcrfSpec& spec) : spec_(spec) {
  Reset();
}

void PcrfModel::Reset() {
  chains_.assign(static_cast<size_t>(spec_.ctas), {});
  free_.clear();
  for (int e = 0; e < spec_.entries; ++e)
    free_.insert(free_.end(), e);
  held_.assign(static_cast<size_t>(spec_.entries), false);
  walk_.clear();
  walk_cta_ = 0;
  stages_.assign(static_cast<size_t>(spec_.hop_cycles - 1), std::nullopt);
  live_ = 0;
}

void PcrfModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  for (int p = kAppReady; p < kNumPorts; ++p) {
    out[p].clear();
    defined[p].fill_ones();
  }
  if (!in[kRstN].bit(0)) {
    defined[kOutData].clear();  // asynchronous reset: every other output is zero
    return;
  }
  const bool can_append = !free_.empty();
  out[kAppReady].set_bit(0, can_append);
  if (can_append)
    out[kAppEntry].set(0, spec_.entry_bits, static_cast<uint64_t>(*free_.begin()));
  out[kRsReady].set_bit(0, walk_.empty());
  const std::optional<InFlight>& o = stages_.back();
  if (o) {
    out[kOutValid].set_bit(0, true);
    out[kOutCta].set(0, spec_.cta_bits, static_cast<uint64_t>(o->cta));
    out[kOutWarp].set(0, spec_.warp_bits, static_cast<uint64_t>(o->reg.warp));
    out[kOutReg].set(0, spec_.reg_bits, static_cast<uint64_t>(o->reg.reg));
    out[kOutEntry].set(0, spec_.entry_bits, static_cast<uint64_t>(o->reg.entry));
    out[kOutLast].set_bit(0, o->last);
    out[kOutData] = o->reg.data;
  } else {
    defined[kOutData].clear();  // the SRAM's output latch
  }
  const int q = static_cast<int>(in[kQCta].get(0, spec_.cta_bits));
  if (q < spec_.ctas) {
    const std::deque<Saved>& c = chains_[q];
    out[kQCount].set(0, spec_.count_bits, c.size());
    out[kQHeadValid].set_bit(0, !c.empty());
    if (!c.empty())
      out[kQHead].set(0, spec_.entry_bits, static_cast<uint64_t>(c.front().entry));
  } else {
    defined[kQCount].clear();  // no such CTA slot: the RTL's table read is out of range
    defined[kQHeadValid].clear();
    defined[kQHead].clear();
  }
  out[kFreeCount].set(0, spec_.count_bits, free_.size());
}

void PcrfModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    Reset();
    return;
  }
  // Everything is decided on the state before the edge.
  const int stages = static_cast<int>(stages_.size());
  const bool app_fire = in[kAppValid].bit(0) && !free_.empty();
  const bool rs_fire = in[kRsValid].bit(0) && walk_.empty();
  const bool advance = !stages_.back() || in[kOutReady].bit(0);
  bool pipe_empty = true;
  for (const auto& s : stages_)
    pipe_empty = pipe_empty && !s;
  const bool issue = !walk_.empty() && advance && (spec_.pipelined || pipe_empty);
  const int alloc = free_.empty() ? -1 : *free_.begin();
  const int app_cta = static_cast<int>(in[kAppCta].get(0, spec_.cta_bits));
  const int rs_cta = static_cast<int>(in[kRsCta].get(0, spec_.cta_bits));
  if (in[kAppValid].bit(0) && app_cta >= spec_.ctas)
    Fail(fmt::format("contract: append CTA {} >= {} CTA slots", app_cta, spec_.ctas));
  if (in[kRsValid].bit(0) && rs_cta >= spec_.ctas)
    Fail(fmt::format("contract: restore CTA {} >= {} CTA slots", rs_cta, spec_.ctas));
  if (!failure_.empty())
    return;

  // The walk: the entry entering the last stage has its row read and is freed; the issued
  // register enters the first stage.
  if (advance) {
    if (stages_[stages - 2]) {
      const int e = stages_[stages - 2]->reg.entry;
      if (!held_[e])
        Fail(fmt::format("I3 violated: the walk frees entry {}, which is free", e));
      held_[e] = false;
      free_.insert(e);
    }
    for (int k = stages - 1; k > 0; --k)
      stages_[k] = std::move(stages_[k - 1]);
    stages_[0].reset();
    if (issue) {
      stages_[0] = InFlight{std::move(walk_.front()), walk_cta_, walk_.size() == 1};
      walk_.pop_front();
    }
  }
  // A restore takes the CTA's whole list; the CTA is then empty.
  if (rs_fire) {
    walk_ = std::move(chains_[rs_cta]);
    chains_[rs_cta].clear();
    live_ -= static_cast<int>(walk_.size());
    walk_cta_ = rs_cta;
  }
  // An append takes the lowest free entry and goes to the end of its CTA's list.
  if (app_fire) {
    if (held_[alloc])
      Fail(fmt::format("I3 violated: append into entry {}, which holds a register", alloc));
    held_[alloc] = true;
    free_.erase(alloc);
    chains_[app_cta].push_back(Saved{alloc, static_cast<int>(in[kAppWarp].get(0, spec_.warp_bits)),
                                     static_cast<int>(in[kAppReg].get(0, spec_.reg_bits)),
                                     in[kAppData]});
    ++live_;
  }
  CheckAccounting();
}

void PcrfModel::CheckAccounting() {
  // In flight: issued, not yet freed (the last stage's entry was freed as it entered it).
  int in_flight = 0;
  for (size_t k = 0; k + 1 < stages_.size(); ++k)
    in_flight += stages_[k] ? 1 : 0;
  const int occupied = live_ + static_cast<int>(walk_.size()) + in_flight;
  if (static_cast<int>(free_.size()) + occupied != spec_.entries) {
    Fail(fmt::format("I1 violated: {} free + {} occupied entries != {} entries", free_.size(),
                     occupied, spec_.entries));
  }
}

GPURF_REGISTER(ModelFamily, pcrf, "pcrf",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<PcrfModel>(SpecAs<PcrfSpec>(s));
               }})

}  // namespace gpurf
