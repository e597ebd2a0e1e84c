#include "models/finereg_system_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "gen/structures/pcrf/pcrf_ports.h"
#include "models/registry.h"

namespace gpurf {

using PP = PcrfPort;

FineregSystemModel::FineregSystemModel(const FineregSystemSpec& spec)
    : spec_(spec),
      acrf_(spec_.mrf),
      pcrf_(spec_.pcrf),
      live_(static_cast<size_t>(spec_.live_bits), false),
      buf_(spec_.data_width),
      saved_(static_cast<size_t>(spec_.pcrf.ctas)) {}

void FineregSystemModel::Fail(const std::string& what) {
  if (failure_.empty())
    failure_ = what;
}

FineregSystemModel::Reg FineregSystemModel::Current() const {
  const auto it = std::find(live_.begin(), live_.end(), true);
  const int idx = it == live_.end() ? 0 : static_cast<int>(it - live_.begin());
  return {idx / spec_.regs, idx % spec_.regs};
}

void FineregSystemModel::Evaluate(const PortValues& in, Cycle& c) {
  const int tw = spec_.tag_width, ww = spec_.warp_width, rw = spec_.reg_width;
  c.reset = !in[kRstN].bit(0);
  if (c.reset) {  // asynchronous reset: the RMU is idle at once
    st_ = St::kIdle;
    buf_valid_ = false;
  }
  const Reg cur = Current();
  c.rmu_rd = st_ == St::kSvRead;
  c.issue = MrfIssue{};
  if (c.rmu_rd) {
    c.issue.valid = true;
    c.issue.tag = uint64_t{1} << tw;
    c.issue.warp = base_ + cur.first;
    c.issue.src_valid = {true, false, false};
    c.issue.src_reg = {cur.second, 0, 0};
  } else {
    c.issue.valid = in[kIssueValid].bit(0);
    c.issue.tag = in[kIssueTag].get(0, tw);
    c.issue.warp = static_cast<int>(in[kIssueWarp].get(0, ww));
    for (int s = 0; s < 3; ++s) {
      c.issue.src_valid[s] = in[kIssueSrcValid].bit(s);
      c.issue.src_reg[s] = static_cast<int>(in[kIssueSrcReg].get(s * rw, rw));
    }
  }
  c.rmu_wb = st_ == St::kRsWalk && buf_valid_;
  c.wb = MrfWriteBack{};
  if (c.rmu_wb) {
    c.wb.valid = true;
    c.wb.warp = base_ + buf_reg_.first;
    c.wb.reg = fault_ == Fault::kRestoreWrongReg ? buf_reg_.second ^ 1 : buf_reg_.second;
    c.wb.data = buf_;
  } else {
    c.wb.valid = in[kWbValid].bit(0);
    c.wb.warp = static_cast<int>(in[kWbWarp].get(0, ww));
    c.wb.reg = static_cast<int>(in[kWbReg].get(0, rw));
    c.wb.data = in[kWbData];
  }
  c.acrf = acrf_.Evaluate(c.issue, c.wb, c.reset);
  c.rmu_disp = c.acrf.disp.valid && ((c.acrf.disp.tag >> tw) & 1U) != 0;
  c.disp_ready = c.rmu_disp || in[kDispReady].bit(0);
  c.ext_issue = !c.rmu_rd && c.issue.valid && c.acrf.issue_ready;
  c.ext_wb = !c.rmu_wb && c.wb.valid && c.acrf.wb_ready;
  c.ext_disp = c.acrf.disp.valid && !c.rmu_disp && c.disp_ready;
  c.wb_done = c.rmu_wb && c.acrf.wb_ready;

  // The PCRF's inputs as the RMU drives them.
  const PortTable pt = PcrfPortTable(spec_.pcrf);
  if (c.pin.empty()) {
    for (int p = 0; p < PP::kNumPorts; ++p) {
      c.pin.emplace_back(pt[p].width);
      c.pout.emplace_back(pt[p].width);
      c.pdef.emplace_back(pt[p].width);
    }
  }
  for (Bits& b : c.pin)
    b.clear();
  const int cb = spec_.pcrf.cta_bits;
  c.pin[PP::kRstN].set_bit(0, !c.reset);
  c.pin[PP::kAppValid].set_bit(0, st_ == St::kSvAppend);
  c.pin[PP::kAppCta].set(0, cb, static_cast<uint64_t>(cta_));
  c.pin[PP::kAppWarp].set(0, spec_.pcrf.warp_bits, static_cast<uint64_t>(cur.first));
  c.pin[PP::kAppReg].set(0, spec_.pcrf.reg_bits, static_cast<uint64_t>(cur.second));
  c.pin[PP::kAppData] = buf_;
  c.pin[PP::kRsCta].set(0, cb, in[kRsCta].get(0, cb));
  c.pin[PP::kQCta].set(0, cb, in[kRsCta].get(0, cb));
  c.pin[PP::kOutReady].set_bit(0, st_ == St::kRsWalk && !buf_valid_);
  pcrf_.Outputs(c.pin, c.pout, c.pdef);
  const bool idle = !c.reset && st_ == St::kIdle;
  c.sv_fire = idle && in[kSvValid].bit(0);
  c.rs_fire = idle && !in[kSvValid].bit(0) && c.pout[PP::kRsReady].bit(0) && in[kRsValid].bit(0);
  c.pin[PP::kRsValid].set_bit(0, c.rs_fire);
  c.app_fire = st_ == St::kSvAppend && c.pout[PP::kAppReady].bit(0);
  c.take = st_ == St::kRsWalk && !buf_valid_ && c.pout[PP::kOutValid].bit(0);
}

void FineregSystemModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  Cycle c;
  Evaluate(in, c);
  for (int p = 0; p < kNumPorts; ++p) {
    if (p == kIssueReady || p == kWbReady || p == kDispValid || p == kDispTag || p == kDispWarp ||
        p == kDispSrcValid || p == kDispData || p == kSvReady || p == kRsReady || p == kRsCount ||
        p == kBusy || p == kFreeCount) {
      out[p].clear();
      defined[p].fill_ones();
    }
  }
  out[kIssueReady].set_bit(0, c.acrf.issue_ready && !c.rmu_rd);
  out[kWbReady].set_bit(0, c.acrf.wb_ready && !c.rmu_wb);
  const bool disp = c.acrf.disp.valid && !c.rmu_disp;
  out[kDispValid].set_bit(0, disp);
  if (disp) {
    out[kDispTag].set(0, spec_.tag_width, c.acrf.disp.tag);
    out[kDispWarp].set(0, spec_.warp_width, static_cast<uint64_t>(c.acrf.disp.warp));
    defined[kDispData].clear();
    Bits ones(spec_.data_width);
    ones.fill_ones();
    for (int s = 0; s < 3; ++s) {
      out[kDispSrcValid].set_bit(s, c.acrf.disp.src_valid[s]);
      out[kDispData].set_slice(s * spec_.data_width, c.acrf.disp.data[s]);
      if (c.acrf.disp.defined[s])
        defined[kDispData].set_slice(s * spec_.data_width, ones);
    }
  } else {
    for (int p : {kDispTag, kDispWarp, kDispSrcValid, kDispData})
      defined[p].clear();
  }
  out[kSvReady].set_bit(0, !c.reset && st_ == St::kIdle);
  out[kRsReady].set_bit(
      0, !c.reset && st_ == St::kIdle && !in[kSvValid].bit(0) && c.pout[PP::kRsReady].bit(0));
  out[kRsCount] = c.pout[PP::kQCount];
  defined[kRsCount] = c.pdef[PP::kQCount];
  out[kBusy].set_bit(0, st_ != St::kIdle);
  out[kFreeCount] = c.pout[PP::kFreeCount];
}

void FineregSystemModel::Clock(const PortValues& in) {
  Cycle c;
  Evaluate(in, c);
  if (c.reset) {
    acrf_.Step(c.issue, c.wb, c.disp_ready, true);
    pcrf_.Clock(c.pin);
    st_ = St::kIdle;
    buf_valid_ = false;
    occupied_ = 0;
    std::fill(live_.begin(), live_.end(), false);
    for (auto& s : saved_)
      s.clear();
    restored_.clear();
    inflight_.clear();
    return;  // the ACRF banks, and so the shadow of their values, keep their contents
  }
  const int cb = spec_.pcrf.cta_bits, ww = spec_.warp_width;

  // The harness contract.
  if (c.sv_fire || c.rs_fire) {
    const int base = static_cast<int>(in[c.sv_fire ? kSvBase : kRsBase].get(0, ww));
    const int cta = static_cast<int>(in[c.sv_fire ? kSvCta : kRsCta].get(0, cb));
    if (base + spec_.cta_warps > spec_.warps)
      Fail(fmt::format("contract C1: {} of CTA slot {} at warp slots {}..{}, beyond the {} warps",
                       c.sv_fire ? "save" : "restore", cta, base, base + spec_.cta_warps - 1,
                       spec_.warps));
    if (cta >= spec_.pcrf.ctas)
      Fail(fmt::format("contract C1: CTA slot {} of {}", cta, spec_.pcrf.ctas));
  }
  if (c.sv_fire) {
    const int cta = static_cast<int>(in[kSvCta].get(0, cb));
    const int base = static_cast<int>(in[kSvBase].get(0, ww));
    int n = 0;
    for (int i = 0; i < spec_.live_bits; ++i) {
      if (!in[kSvLive].bit(i))
        continue;
      ++n;
      if (!arch_.count({base + i / spec_.regs, i % spec_.regs}))
        Fail(
            fmt::format("contract C2: save of CTA slot {}: live register r{} of warp slot {} was "
                        "never written",
                        cta, i % spec_.regs, base + i / spec_.regs));
    }
    if (cta < spec_.pcrf.ctas && !saved_[cta].empty())
      Fail(fmt::format("contract C2: save into CTA slot {}, which holds {} saved registers", cta,
                       saved_[cta].size()));
    if (n > pcrf_.free_count())
      Fail(fmt::format("contract C2: save of {} live registers with {} free PCRF entries", n,
                       pcrf_.free_count()));
  }
  if (st_ != St::kIdle) {
    if (c.ext_issue && InCta(c.issue.warp))
      Fail(
          fmt::format("contract C3: instruction of warp slot {} issued while the RMU moves its "
                      "CTA",
                      c.issue.warp));
    if (c.ext_wb && InCta(c.wb.warp))
      Fail(
          fmt::format("contract C3: write of warp slot {} while the RMU moves its CTA", c.wb.warp));
  }
  if (c.ext_wb) {
    auto reads = [&](const Instr& i) {
      for (int s = 0; s < 3; ++s)
        if (i.valid[s] && i.warp == c.wb.warp && i.reg[s] == c.wb.reg)
          return true;
      return false;
    };
    Instr now;
    now.warp = c.issue.warp;
    now.valid = c.issue.src_valid;
    now.reg = c.issue.src_reg;
    if (std::any_of(inflight_.begin(), inflight_.end(), reads) || (c.ext_issue && reads(now)))
      Fail(
          fmt::format("contract C4: write of r{} of warp slot {}, which an instruction in flight "
                      "reads",
                      c.wb.reg, c.wb.warp));
  }
  if (c.rs_fire) {
    const int base = static_cast<int>(in[kRsBase].get(0, ww));
    for (const Instr& i : inflight_)
      if (i.warp >= base && i.warp < base + spec_.cta_warps)
        Fail(
            fmt::format("contract C3: restore into warp slots {}.. while an instruction of warp "
                        "slot {} is in flight",
                        base, i.warp));
    const int cta = static_cast<int>(in[kRsCta].get(0, cb));
    const uint64_t count = c.pout[PP::kQCount].get(0, spec_.pcrf.count_bits);
    if (cta < spec_.pcrf.ctas && count != saved_[cta].size())
      Fail(
          fmt::format("S4: restore of CTA slot {}: the pointer table counts {} registers, {} "
                      "were saved",
                      cta, count, saved_[cta].size()));
  }

  // The parts.
  acrf_.Step(c.issue, c.wb, c.disp_ready, false);
  pcrf_.Clock(c.pin);
  if (!pcrf_.Failure().empty())
    Fail("pcrf: " + pcrf_.Failure());

  // Pipeline reads against the shadow.
  if (c.ext_disp) {
    const MrfDispatch& d = c.acrf.disp;
    const uint64_t tag = d.tag & ((uint64_t{1} << spec_.tag_width) - 1);
    auto it = std::find_if(inflight_.begin(), inflight_.end(),
                           [&](const Instr& i) { return i.tag == tag && i.warp == d.warp; });
    if (it == inflight_.end()) {
      Fail(fmt::format("model: dispatch of tag {} (warp slot {}) that was never issued", tag,
                       d.warp));
    } else {
      for (int s = 0; s < 3; ++s) {
        if (!it->valid[s] || !it->expect[s])
          continue;
        ++checked_operands;
        if (d.data[s] != *it->expect[s])
          Fail(
              fmt::format("S1: operand {} of tag {} (r{} of warp slot {}) reads {}, the last "
                          "value written is {}",
                          s, tag, it->reg[s], d.warp, d.data[s].hex(), it->expect[s]->hex()));
      }
      inflight_.erase(it);
    }
  }
  if (c.ext_issue) {
    Instr i;
    i.tag = c.issue.tag;
    i.warp = c.issue.warp;
    i.valid = c.issue.src_valid;
    i.reg = c.issue.src_reg;
    for (int s = 0; s < 3; ++s) {
      auto a = arch_.find({i.warp, i.reg[s]});
      if (i.valid[s] && a != arch_.end())
        i.expect[s] = a->second;
    }
    inflight_.push_back(std::move(i));
  }
  if (c.ext_wb)
    arch_[{c.wb.warp, c.wb.reg}] = c.wb.data;

  // The RMU.
  const Reg cur = Current();
  bool chains_changed = false;
  if (c.sv_fire) {
    cta_ = static_cast<int>(in[kSvCta].get(0, cb));
    base_ = static_cast<int>(in[kSvBase].get(0, ww));
    bool any = false;
    save_live_ = 0;
    for (int i = 0; i < spec_.live_bits; ++i) {
      live_[i] = in[kSvLive].bit(i);
      any = any || live_[i];
      save_live_ += live_[i] ? 1 : 0;
    }
    st_ = any ? St::kSvRead : St::kIdle;
    ++saves;
  } else if (c.rs_fire) {
    cta_ = static_cast<int>(in[kRsCta].get(0, cb));
    base_ = static_cast<int>(in[kRsBase].get(0, ww));
    left_ = static_cast<int>(c.pout[PP::kQCount].get(0, spec_.pcrf.count_bits));
    restored_.clear();
    st_ = left_ != 0 ? St::kRsWalk : St::kIdle;
    ++restores;
    chains_changed = true;
  } else if (c.rmu_rd && c.acrf.issue_ready) {
    st_ = St::kSvWait;
  } else if (st_ == St::kSvWait && c.rmu_disp) {
    buf_ = c.acrf.disp.data[0];
    const auto a = arch_.find({base_ + cur.first, cur.second});
    if (a == arch_.end() || a->second != buf_)
      Fail(
          fmt::format("S1: the save read of r{} of warp slot {} returned {}, the last value "
                      "written is {}",
                      cur.second, base_ + cur.first, buf_.hex(),
                      a == arch_.end() ? std::string("none") : a->second.hex()));
    st_ = St::kSvAppend;
  } else if (c.app_fire) {
    saved_[cta_][cur] = buf_;
    ++saved_regs;
    if (fault_ != Fault::kOccupiedMiscount)
      ++occupied_;
    live_[static_cast<size_t>(cur.first * spec_.regs + cur.second)] = false;
    if (fault_ == Fault::kSkipSecondLive) {
      auto next = std::find(live_.begin(), live_.end(), true);
      if (next != live_.end())
        *next = false;
    }
    st_ = std::find(live_.begin(), live_.end(), true) != live_.end() ? St::kSvRead : St::kIdle;
    if (st_ == St::kIdle && static_cast<int>(saved_[cta_].size()) != save_live_)
      Fail(
          fmt::format("S4: the save of CTA slot {} ended with {} registers on its chain, its "
                      "live vector has {}",
                      cta_, saved_[cta_].size(), save_live_));
    chains_changed = true;
  } else if (c.take) {
    const int cta = static_cast<int>(c.pout[PP::kOutCta].get(0, cb));
    const Reg r{static_cast<int>(c.pout[PP::kOutWarp].get(0, spec_.pcrf.warp_bits)),
                static_cast<int>(c.pout[PP::kOutReg].get(0, spec_.pcrf.reg_bits))};
    const bool last = c.pout[PP::kOutLast].bit(0);
    if (cta != cta_)
      Fail(fmt::format("S5: the walk of CTA slot {} returned entry {} of CTA slot {}", cta_,
                       c.pout[PP::kOutEntry].get(0, spec_.pcrf.entry_bits), cta));
    if (last != (left_ == 1))
      Fail(fmt::format("S3: the walk of CTA slot {} met end bit {} with {} registers left", cta_,
                       last ? 1 : 0, left_));
    const auto sv = saved_[cta_].find(r);
    if (sv == saved_[cta_].end())
      Fail(fmt::format("S4: the walk of CTA slot {} returned r{} of warp {}, which was not saved",
                       cta_, r.second, r.first));
    else if (!restored_.insert(r).second)
      Fail(fmt::format("S4: the walk of CTA slot {} returned r{} of warp {} twice", cta_, r.second,
                       r.first));
    else if (sv->second != c.pout[PP::kOutData])
      Fail(fmt::format("S1: the PCRF returned {} for r{} of warp {} of CTA slot {}, saved {}",
                       c.pout[PP::kOutData].hex(), r.second, r.first, cta_, sv->second.hex()));
    buf_ = c.pout[PP::kOutData];
    buf_reg_ = r;
    buf_valid_ = true;
    --left_;
    --occupied_;
  } else if (c.wb_done) {
    const auto sv = saved_[cta_].find(buf_reg_);
    if (c.wb.warp != base_ + buf_reg_.first || c.wb.reg != buf_reg_.second)
      Fail(
          fmt::format("S1: r{} of warp {} of CTA slot {} was restored into r{} of warp slot {}, "
                      "not r{} of warp slot {}",
                      buf_reg_.second, buf_reg_.first, cta_, c.wb.reg, c.wb.warp, buf_reg_.second,
                      base_ + buf_reg_.first));
    if (sv != saved_[cta_].end()) {
      if (sv->second != buf_)
        Fail(fmt::format("S1: r{} of warp {} of CTA slot {} restored as {}, saved {}",
                         buf_reg_.second, buf_reg_.first, cta_, buf_.hex(), sv->second.hex()));
      saved_[cta_].erase(sv);
    }
    arch_[{c.wb.warp, c.wb.reg}] = buf_;
    ++restored_regs;
    buf_valid_ = false;
    if (left_ == 0) {
      st_ = St::kIdle;
      if (!saved_[cta_].empty())
        Fail(
            fmt::format("S4: the restore of CTA slot {} ended with {} saved registers not "
                        "returned",
                        cta_, saved_[cta_].size()));
    }
  }
  if (c.sv_fire && st_ == St::kIdle)
    chains_changed = true;

  // S2, with the entry the walk holds at its output already freed.
  const int at_output = pcrf_.Output().has_value() ? 1 : 0;
  if (pcrf_.free_count() + occupied_ != spec_.pcrf.entries + at_output)
    Fail(fmt::format("S2: {} free PCRF entries + {} occupied != {} entries (+{} at the output)",
                     pcrf_.free_count(), occupied_, spec_.pcrf.entries, at_output));
  if (chains_changed)
    CheckChains();
}

void FineregSystemModel::CheckChains() {
  std::set<int> seen;
  for (int c = 0; c < spec_.pcrf.ctas; ++c) {
    const auto& chain = pcrf_.Chain(c);
    std::set<Reg> regs;
    for (const PcrfModel::Saved& e : chain) {
      if (e.entry < 0 || e.entry >= spec_.pcrf.entries)
        Fail(fmt::format("S3: CTA slot {}'s chain holds entry {} of {}", c, e.entry,
                         spec_.pcrf.entries));
      if (!seen.insert(e.entry).second)
        Fail(fmt::format("S5: entry {} is on two chains (or twice on CTA slot {}'s)", e.entry, c));
      if (!regs.insert({e.warp, e.reg}).second)
        Fail(fmt::format("S4: r{} of warp {} is twice on CTA slot {}'s chain", e.reg, e.warp, c));
      const auto sv = saved_[c].find({e.warp, e.reg});
      if (sv == saved_[c].end())
        Fail(fmt::format("S4: CTA slot {}'s chain holds r{} of warp {}, which was not saved", c,
                         e.reg, e.warp));
      else if (sv->second != e.data)
        Fail(fmt::format("S1: CTA slot {}'s chain holds {} for r{} of warp {}, saved {}", c,
                         e.data.hex(), e.reg, e.warp, sv->second.hex()));
    }
    const bool walking = st_ == St::kRsWalk && c == cta_;
    if (!walking && chain.size() != saved_[c].size())
      Fail(fmt::format("S4: CTA slot {}'s chain holds {} registers, {} were saved", c, chain.size(),
                       saved_[c].size()));
  }
}

GPURF_REGISTER(ModelFamily, finereg_system, "finereg-system",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<FineregSystemModel>(SpecAs<FineregSystemSpec>(s));
               }})

}  // namespace gpurf
