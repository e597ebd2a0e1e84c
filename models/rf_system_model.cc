#include "models/rf_system_model.h"

#include <fmt/format.h>

#include <stdexcept>

#include "gen/structures/rf_system/rf_system_spec.h"
#include "gen/structures/rfc/rfc_ports.h"
#include "models/registry.h"

namespace gpurf {

namespace {

int Mask(int value, int bits) {
  return value & ((1 << bits) - 1);
}

}  // namespace

// Everything one cycle decides, from the inputs and the state at its start.
struct RfSystem::Cycle {
  bool reset = false;
  int alloc = -1;  // operand-buffer entry an accepted issue takes
  bool issue_fire = false, res_fire = false, disp_fire = false, hold = false;
  bool fl_accept = false;  // hw-rfc: the RFC takes the deschedule request
  MrfIssue mi;
  MrfWriteBack mw;
  MrfCore::View view;
  std::array<bool, 3> up{}, src_l0{}, hit{}, hit_l0{};
  std::array<Bits, 3> up_data;
  std::array<bool, 3> up_defined{};
  OperandRegisterFile::CycleReq q1, q0;
  PortValues rin, rout, rdef;
  bool rfc_wb_valid = false, rfc_fl_done = false, res_to_rfc = false;
  RfSysOutputs out;
};

RfSystem::RfSystem(const RfSystemSpec& spec) : spec_(spec), mrf_(spec.mrf) {
  if (spec_.hw()) {
    rfc_ = std::make_unique<RfcCycleModel>(spec_.rfc);
    rp_ = RfcPorts::For(spec_.rfc);
    for (const PortInfo& p : RfcPortTable(spec_.rfc).Manifest())
      rfc_widths_.push_back(p.width);
  }
  if (spec_.sw()) {
    l1_ = std::make_unique<OperandRegisterFile>(spec_.orf_l1);
    if (spec_.has_l0())
      l0_ = std::make_unique<OperandRegisterFile>(spec_.orf_l0);
  }
  buf_.resize(spec_.collectors());
  slot_warp_.assign(spec_.active_warps, 0);
  sh_reg_.assign(spec_.warps, std::vector<std::optional<Bits>>(spec_.mrf.regs));
  sh_l1_.assign(spec_.active_warps, std::vector<std::optional<Bits>>(spec_.l1_entries));
  sh_l0_.assign(spec_.active_warps, std::vector<std::optional<Bits>>(3));
  ResetState();
}

RfSystem::~RfSystem() = default;

void RfSystem::Fail(const std::string& what) {
  if (failure_.empty())
    failure_ = fmt::format("cycle {}: {}", cycle_, what);
}

void RfSystem::ResetState() {
  for (BufEntry& e : buf_)
    e.busy = false;
  ledger_.clear();
  cap_valid_ = false;
  fl_started_ = false;
  slot_warp_.assign(spec_.active_warps, 0);
  const RfSysCounters keep = counters_;
  counters_ = RfSysCounters{};
  counters_.issued = keep.issued;
  counters_.dispatched = keep.dispatched;
  counters_.results = keep.results;
  counters_.flushes = keep.flushes;
  counters_.checked_operands = keep.checked_operands;
  // The upper levels lose their contents; the MRF banks keep theirs.
  for (auto& s : sh_l1_)
    s.assign(s.size(), std::nullopt);
  for (auto& s : sh_l0_)
    s.assign(s.size(), std::nullopt);
  if (spec_.hw()) {
    for (int w = 0; w < spec_.warps; ++w) {
      for (int r = 0; r < spec_.mrf.regs; ++r)
        sh_reg_[w][r] = mrf_.Register(w, r);
    }
  }
}

RfSystem::Cycle RfSystem::Compute(const RfSysInputs& in) {
  Cycle c;
  c.reset = in.reset;
  const RfSysIssue& is = in.issue;
  const RfSysResult& rs = in.result;
  for (int k = 0; k < spec_.collectors() && c.alloc < 0; ++k) {
    if (!buf_[k].busy)
      c.alloc = k;
  }
  c.mi.valid = is.valid;
  c.mi.tag = static_cast<uint64_t>(c.alloc < 0 ? 0 : c.alloc);
  c.mi.warp = is.warp;
  c.mi.src_reg = is.src_reg;
  const bool issue_ready = mrf_.Evaluate(c.mi, MrfWriteBack{}, c.reset).issue_ready;
  c.issue_fire = !c.reset && is.valid && issue_ready;

  for (auto& d : c.up_data)
    d = Bits(spec_.width);
  bool wb_ready = false;
  if (spec_.sw()) {
    for (int p = 0; p < 3; ++p) {
      const bool l1 = is.src_valid[p] && is.src_level[p] == RfSystemSpec::kLevelL1;
      c.src_l0[p] = is.src_valid[p] && is.src_level[p] == RfSystemSpec::kLevelL0;
      c.up[p] = l1 || (spec_.has_l0() && c.src_l0[p]);
      c.q1.reads[p] = {c.issue_fire && l1, is.slot,
                       Mask(is.src_entry[p], spec_.orf_l1.entry_width)};
      c.q0.reads[p] = {c.issue_fire && c.src_l0[p], is.slot, spec_.l0_split ? p : 0};
    }
    c.mw.valid = rs.valid && rs.mrf;
  } else if (spec_.hw()) {
    c.rin.clear();
    for (int w : rfc_widths_)
      c.rin.emplace_back(w);
    c.rout = c.rin;
    c.rdef = c.rin;
    c.rin[rp_.rst_n].set_bit(0, !c.reset);
    // Out-of-range slots are harness misuse (reported in Clock); the RFC model is not asked.
    const bool issue_ok = is.slot < spec_.active_warps;
    for (int p = 0; p < 3; ++p) {
      c.rin[rp_.lu_valid].set_bit(p, c.issue_fire && is.src_valid[p] && issue_ok);
      c.rin[rp_.lu_slot].set(p * spec_.rfc.slot_bits, spec_.rfc.slot_bits,
                             static_cast<uint64_t>(is.slot));
      c.rin[rp_.lu_reg].set(p * spec_.reg_width, spec_.reg_width,
                            static_cast<uint64_t>(is.src_reg[p]));
      c.rin[rp_.lu_last].set_bit(p, spec_.hints && is.src_dead[p]);
    }
    c.rin[rp_.wr_valid].set_bit(0, rs.valid && !rs.mrf && rs.slot < spec_.active_warps);
    c.rin[rp_.wr_slot].set(0, spec_.rfc.slot_bits, static_cast<uint64_t>(rs.slot));
    c.rin[rp_.wr_reg].set(0, spec_.reg_width, static_cast<uint64_t>(rs.reg));
    if (rs.data.width() == spec_.width)
      c.rin[rp_.wr_data] = rs.data;
    c.rin[rp_.wr_long].set_bit(0, rs.long_latency);
    if (rp_.wr_no_l0 >= 0)
      c.rin[rp_.wr_no_l0].set_bit(0, rs.no_l0);
    c.rin[rp_.fl_valid].set_bit(
        0, in.flush.valid && !fl_started_ && in.flush.slot < spec_.active_warps);
    c.rin[rp_.fl_slot].set(0, spec_.rfc.slot_bits, static_cast<uint64_t>(in.flush.slot));
    c.rin[rp_.wb_ready].set_bit(0, true);  // provisional: the write-back is registered
    rfc_->Outputs(c.rin, c.rout, c.rdef);
    for (int p = 0; p < 3; ++p) {
      c.hit[p] = c.rout[rp_.lu_hit].bit(p);
      c.hit_l0[p] = rp_.lu_l0 >= 0 && c.rout[rp_.lu_l0].bit(p);
      c.up[p] = is.src_valid[p] && c.hit[p];
      if (c.hit[p]) {
        c.up_data[p] = c.rout[rp_.lu_data].slice(p * spec_.width, spec_.width);
        c.up_defined[p] = true;
      }
    }
    c.rfc_wb_valid = c.rout[rp_.wb_valid].bit(0);
    if (c.rfc_wb_valid) {
      const int slot = static_cast<int>(c.rout[rp_.wb_slot].get(0, spec_.rfc.slot_bits));
      c.mw.valid = true;
      c.mw.warp = slot < spec_.active_warps ? slot_warp_[slot] : 0;
      c.mw.reg = static_cast<int>(c.rout[rp_.wb_reg].get(0, spec_.reg_width));
      c.mw.data = c.rout[rp_.wb_data];
    } else {
      c.mw.valid = rs.valid && rs.mrf;
    }
  } else {
    c.mw.valid = rs.valid;
  }
  if (c.mw.valid && !c.rfc_wb_valid) {
    c.mw.warp = rs.warp;
    c.mw.reg = rs.reg;
    c.mw.data = rs.data;
  }
  for (int p = 0; p < 3; ++p)
    c.mi.src_valid[p] = is.src_valid[p] && !c.up[p];
  c.view = mrf_.Evaluate(c.mi, c.mw, c.reset);
  wb_ready = c.view.wb_ready;

  RfSysOutputs& o = c.out;
  o.issue_ready = issue_ready;
  if (spec_.hw()) {
    c.rin[rp_.wb_ready].set_bit(0, wb_ready);
    rfc_->Outputs(c.rin, c.rout, c.rdef);
    c.rfc_fl_done = c.rout[rp_.fl_done].bit(0);
    o.res_ready = rs.mrf ? (!c.rfc_wb_valid && wb_ready) : c.rout[rp_.wr_ready].bit(0);
    o.fl_ready = fault_ == Fault::kFlushReadyEarly ? (fl_started_ || c.rfc_fl_done) : c.rfc_fl_done;
    c.fl_accept = !c.reset && in.flush.valid && !fl_started_ && !c.rout[rp_.fl_busy].bit(0) &&
                  in.flush.slot < spec_.active_warps;
  } else {
    o.res_ready = wb_ready;
    o.fl_ready = true;
  }
  c.res_fire = !c.reset && rs.valid && o.res_ready;
  c.res_to_rfc = spec_.hw() && c.res_fire && !rs.mrf;

  if (spec_.sw()) {
    auto write = [&](OperandRegisterFile::CycleReq& q, bool l0) {
      q.write = c.res_fire && rs.orf && rs.orf_l0 == l0;
      q.write_slot = rs.slot;
      q.write_entry = l0 ? (spec_.l0_split ? Mask(rs.orf_entry, spec_.orf_l0.entry_width) : 0)
                         : Mask(rs.orf_entry, spec_.orf_l1.entry_width);
      q.write_data = rs.data.width() == spec_.width ? rs.data : Bits(spec_.width);
      q.invalidate = !c.reset && in.flush.valid && fault_ != Fault::kFlushKeepsOrf;
      q.invalidate_slot = in.flush.slot;
    };
    write(c.q1, false);
    write(c.q0, true);
    const auto v1 = l1_->ReadPorts(c.q1);
    std::array<OperandRegisterFile::Value, 3> v0{};
    if (l0_)
      v0 = l0_->ReadPorts(c.q0);
    for (int p = 0; p < 3; ++p) {
      const bool from_l0 = spec_.registered_reads() ? cap_l0_[p] : c.src_l0[p];
      const OperandRegisterFile::Value& v = (from_l0 && l0_) ? v0[p] : v1[p];
      c.up_data[p] = v.data;
      c.up_defined[p] = v.valid;
    }
  }

  // Dispatch: the MRF's oldest complete instruction with its buffered operands.
  const MrfDispatch& md = c.view.disp;
  c.hold =
      spec_.registered_reads() && cap_valid_ && md.valid && static_cast<int>(md.tag) == cap_idx_;
  RfSysDispatch& d = o.disp;
  d.valid = md.valid && !c.hold;
  for (auto& x : d.data)
    x = Bits(spec_.width);
  if (d.valid) {
    const int idx = static_cast<int>(md.tag);
    const BufEntry& e = buf_[idx < spec_.collectors() ? idx : 0];
    d.tag = e.tag;
    if (fault_ == Fault::kDispatchTagSwapped)
      d.tag ^= 1;
    d.warp = md.warp;
    d.src_valid = e.src_valid;
    for (int p = 0; p < 3; ++p) {
      if (!e.src_valid[p])
        continue;
      if (e.up[p] && fault_ != Fault::kUpperDataFromMrf) {
        d.data[p] = e.data[p];
        d.defined[p] = e.defined[p];
      } else {
        d.data[p] = md.data[p];
        d.defined[p] = md.defined[p];
      }
      d.level[p] = e.up[p] ? e.level[p] : 0;
    }
  }
  c.disp_fire = d.valid && in.disp_ready;
  return c;
}

RfSysOutputs RfSystem::Evaluate(const RfSysInputs& in) {
  return Compute(in).out;
}

void RfSystem::CheckFlushDone(int warp, int slot) {
  if (const int live = rfc_->cache().LiveCount(slot); live != 0) {
    Fail(
        fmt::format("I3 violated: deschedule of warp {} (slot {}) completed with {} live RFC "
                    "entries left in the slot",
                    warp, slot, live));
    return;
  }
  for (int r = 0; r < spec_.mrf.regs; ++r) {
    const std::optional<Bits>& want = sh_reg_[warp][r];
    if (!want)
      continue;
    const std::optional<Bits> have = mrf_.Register(warp, r);
    if (!have || *have != *want) {
      Fail(
          fmt::format("I3 violated: deschedule of warp {} (slot {}) completed but the MRF holds "
                      "{} for r{}, the latest value is {}",
                      warp, slot, have ? have->hex() : "nothing", r, want->hex()));
      return;
    }
  }
}

void RfSystem::Clock(const RfSysInputs& in) {
  Cycle c = Compute(in);
  if (c.reset) {
    mrf_.Step(c.mi, c.mw, false, true);
    if (rfc_)
      rfc_->Clock(c.rin);
    if (l1_)
      l1_->Reset();
    if (l0_)
      l0_->Reset();
    ResetState();
    ++cycle_;
    return;
  }
  const RfSysIssue& is = in.issue;
  const RfSysResult& rs = in.result;

  // The parts.
  try {
    mrf_.Step(c.mi, c.mw, in.disp_ready && !c.hold, false);
  } catch (const std::logic_error& e) {
    Fail(e.what());
  }
  if (rfc_) {
    rfc_->Clock(c.rin);
    if (const std::string f = rfc_->Failure(); !f.empty())
      Fail("RFC: " + f);
  }
  if (l1_) {
    l1_->Clock(c.q1);
    if (l1_->misuses() != 0)
      Fail("harness misuse of the L1 ORF: " + l1_->first_misuse());
  }
  if (l0_) {
    l0_->Clock(c.q0);
    if (l0_->misuses() != 0)
      Fail("harness misuse of the L0 ORF: " + l0_->first_misuse());
  }

  // Harness contract: slots in range.
  if (spec_.upper() && c.issue_fire && is.slot >= spec_.active_warps)
    Fail(fmt::format("harness misuse: issue names slot {}, there are {}", is.slot,
                     spec_.active_warps));
  if (c.res_fire && (spec_.hw() ? !rs.mrf : (spec_.sw() && rs.orf)) &&
      rs.slot >= spec_.active_warps)
    Fail(fmt::format("harness misuse: result names slot {}, there are {}", rs.slot,
                     spec_.active_warps));

  if (spec_.upper() && in.flush.valid && in.flush.slot >= spec_.active_warps)
    Fail(fmt::format("harness misuse: deschedule names slot {}, there are {}", in.flush.slot,
                     spec_.active_warps));

  // I2 and I1: the dispatched instruction against the ledger of issued ones.
  const RfSysDispatch& d = c.out.disp;
  if (c.disp_fire) {
    ++counters_.dispatched;
    auto it = ledger_.begin();
    for (; it != ledger_.end(); ++it) {
      if (it->tag == d.tag && it->warp == d.warp && it->src_valid == d.src_valid)
        break;
    }
    if (it == ledger_.end()) {
      Fail(fmt::format("I2 violated: dispatch of tag {} warp {} matches no instruction in flight",
                       d.tag, d.warp));
    } else {
      for (int p = 0; p < 3; ++p) {
        if (!d.src_valid[p] || !it->expected[p])
          continue;
        ++counters_.checked_operands;
        if (!d.defined[p] || d.data[p] != *it->expected[p]) {
          Fail(fmt::format(
              "I1 violated: tag {} warp {} operand {} (r{}, level {}) dispatched {}, the value "
              "at issue was {}",
              d.tag, d.warp, "ABC"[p], it -> reg[p], it -> level[p],
              d.defined[p] ? d.data[p].hex() : "an undefined value", it->expected[p]->hex()));
        }
      }
      ledger_.erase(it);
    }
    buf_[static_cast<size_t>(c.view.disp.tag)].busy = false;
  }

  // Registered ORF reads: last cycle's issue takes its data now.
  if (cap_valid_) {
    BufEntry& e = buf_[cap_idx_];
    for (int p = 0; p < 3; ++p) {
      if (e.up[p]) {
        e.data[p] = c.up_data[p];
        e.defined[p] = c.up_defined[p];
      }
    }
  }
  if (c.issue_fire) {
    ++counters_.issued;
    if (c.alloc < 0) {
      Fail("the MRF accepted an issue while the operand buffer is full");
    } else {
      BufEntry& e = buf_[c.alloc];
      e.busy = true;
      e.tag = spec_.tag_width >= 64 ? is.tag : is.tag & ((uint64_t{1} << spec_.tag_width) - 1);
      e.warp = is.warp;
      e.src_valid = is.src_valid;
      e.up = c.up;
      Ledger l;
      l.tag = e.tag;
      l.warp = is.warp;
      l.src_valid = is.src_valid;
      for (int p = 0; p < 3; ++p) {
        e.level[p] = spec_.sw() ? is.src_level[p] : (c.hit_l0[p] ? 2 : 1);
        if (!spec_.registered_reads()) {
          e.data[p] = c.up_data[p];
          e.defined[p] = c.up_defined[p];
        }
        if (!is.src_valid[p])
          continue;
        l.reg[p] = is.src_reg[p];
        l.level[p] = spec_.sw() ? is.src_level[p] : 0;
        // The value the operand's source holds at the start of this cycle.
        if (spec_.sw() && is.src_level[p] == RfSystemSpec::kLevelL1) {
          if (is.slot < spec_.active_warps && is.src_entry[p] < spec_.l1_entries)
            l.expected[p] = sh_l1_[is.slot][is.src_entry[p]];
        } else if (spec_.sw() && is.src_level[p] == RfSystemSpec::kLevelL0) {
          if (!spec_.has_l0())
            Fail(fmt::format("harness misuse: operand {} names L0, which this system lacks",
                             "ABC"[p]));
          else if (is.slot < spec_.active_warps)
            l.expected[p] = sh_l0_[is.slot][spec_.l0_split ? p : 0];
        } else if (spec_.sw() && is.src_level[p] != RfSystemSpec::kLevelMrf) {
          Fail(fmt::format("harness misuse: operand {} names level {}", "ABC"[p], is.src_level[p]));
        } else if (is.warp < spec_.warps && is.src_reg[p] < spec_.mrf.regs) {
          l.expected[p] = sh_reg_[is.warp][is.src_reg[p]];
        }
      }
      ledger_.push_back(std::move(l));
      // A value read for the last time is dead (Gebhart 4.1): nobody may read it again, and the
      // RFC drops it without a write-back, so the MRF's older copy is no longer its value.
      for (int p = 0; p < 3; ++p) {
        if (spec_.hw() && spec_.hints && is.src_valid[p] && is.src_dead[p] &&
            is.warp < spec_.warps && is.src_reg[p] < spec_.mrf.regs)
          sh_reg_[is.warp][is.src_reg[p]] = std::nullopt;
      }
    }
  }
  if (spec_.registered_reads()) {
    cap_valid_ = c.issue_fire && (c.up[0] || c.up[1] || c.up[2]);
    cap_idx_ = c.alloc < 0 ? 0 : c.alloc;
    cap_l0_ = c.src_l0;
  }

  // Results: the architectural shadow.
  if (c.res_fire) {
    ++counters_.results;
    const bool in_range = rs.warp < spec_.warps && rs.reg < spec_.mrf.regs;
    if (spec_.sw()) {
      if (rs.mrf && in_range)
        sh_reg_[rs.warp][rs.reg] = rs.data;
      if (rs.orf && rs.slot < spec_.active_warps) {
        if (!rs.orf_l0 && rs.orf_entry < spec_.l1_entries)
          sh_l1_[rs.slot][rs.orf_entry] = rs.data;
        else if (rs.orf_l0 && !spec_.has_l0())
          Fail("harness misuse: a result targets L0, which this system lacks");
        else if (rs.orf_l0 && rs.orf_entry < 3)
          sh_l0_[rs.slot][spec_.l0_split ? rs.orf_entry : 0] = rs.data;
      }
    } else if (in_range) {
      sh_reg_[rs.warp][rs.reg] = rs.data;
    }
    if (c.res_to_rfc && rs.slot < spec_.active_warps)
      slot_warp_[rs.slot] = rs.warp;
  }

  // Deschedules.
  if (spec_.sw() && in.flush.valid) {
    ++counters_.flushes;
    const int slot = in.flush.slot;
    if (slot < spec_.active_warps) {
      sh_l1_[slot].assign(sh_l1_[slot].size(), std::nullopt);
      sh_l0_[slot].assign(sh_l0_[slot].size(), std::nullopt);
      for (int e = 0; e < spec_.orf_l1.entries; ++e) {
        if (l1_->IsValid(slot, e))
          Fail(fmt::format("I3 violated: L1 entry {} of descheduled slot {} is still valid", e,
                           slot));
      }
      for (int e = 0; l0_ && e < spec_.orf_l0.entries; ++e) {
        if (l0_->IsValid(slot, e))
          Fail(fmt::format("I3 violated: L0 entry {} of descheduled slot {} is still valid", e,
                           slot));
      }
    }
  }
  if (!spec_.upper() && in.flush.valid)
    ++counters_.flushes;  // mrf-only: nothing above the MRF to deschedule
  if (spec_.hw()) {
    if (c.fl_accept) {
      ++counters_.flushes;
      fl_started_ = true;
      if (in.flush.slot < spec_.active_warps)
        slot_warp_[in.flush.slot] = in.flush.warp;
    } else if (c.rfc_fl_done) {
      fl_started_ = false;
    }
    if (in.flush.valid && c.out.fl_ready && in.flush.slot < spec_.active_warps &&
        in.flush.warp < spec_.warps)
      CheckFlushDone(in.flush.warp, in.flush.slot);
  }

  // Counters.
  const MrfCounters& mc = mrf_.counters();
  counters_.mrf_reads = mc.reads;
  counters_.mrf_writes = mc.writes;
  counters_.mrf_conflicts = mc.conflicts;
  counters_.issue_stalls = mc.issue_stalls;
  counters_.mrf_wb_stalls = mc.wb_stalls;
  if (spec_.sw()) {
    for (int p = 0; p < 3; ++p) {
      counters_.l1_reads += c.q1.reads[p].enable;
      counters_.l0_reads += l0_ && c.q0.reads[p].enable;
    }
    counters_.l1_writes += c.q1.write;
    counters_.l0_writes += l0_ && c.q0.write;
  } else if (spec_.hw()) {
    for (int p = 0; p < 3; ++p) {
      if (c.issue_fire && is.src_valid[p])
        ++counters_.tag_checks;
      if (c.hit[p]) {
        ++counters_.tag_hits;
        ++(c.hit_l0[p] ? counters_.l0_reads : counters_.l1_reads);
      }
    }
    if (c.res_to_rfc) {
      ++counters_.tag_checks;
      if (!rs.long_latency)
        ++((spec_.has_l0() && !rs.no_l0) ? counters_.l0_writes : counters_.l1_writes);
    }
    if (c.rfc_wb_valid && c.view.wb_ready)
      ++counters_.writebacks;
  }
  if (ledger_.size() > static_cast<size_t>(spec_.collectors()))
    Fail("I2 violated: more instructions in flight than operand collectors");
  ++cycle_;
}

RfSysOutputs RfSystem::Step() {
  const RfSysOutputs out = Evaluate(pending_);
  Clock(pending_);
  pending_ = RfSysInputs{};
  return out;
}

// ------------------------------------------------------------------------------ cycle adapter

RfSystemCycleModel::RfSystemCycleModel(const RfSystemSpec& spec) : sys_(spec) {}

RfSysInputs RfSystemCycleModel::Decode(const RfSystemSpec& s, const PortValues& in) {
  RfSysInputs r;
  auto get = [&](Port p, int lsb, int len) { return static_cast<int>(in[p].get(lsb, len)); };
  r.reset = !in[kRstN].bit(0);
  RfSysIssue& i = r.issue;
  i.valid = in[kIssueValid].bit(0);
  i.tag = in[kIssueTag].get(0, s.tag_width);
  i.warp = get(kIssueWarp, 0, s.warp_width);
  i.slot = get(kIssueSlot, 0, s.slot_width);
  for (int p = 0; p < 3; ++p) {
    i.src_valid[p] = in[kIssueSrcValid].bit(p);
    i.src_reg[p] = get(kIssueSrcReg, p * s.reg_width, s.reg_width);
    i.src_level[p] = get(kIssueSrcLevel, p * RfSystemSpec::kLevelBits, RfSystemSpec::kLevelBits);
    i.src_entry[p] = get(kIssueSrcEntry, p * s.entry_width, s.entry_width);
    i.src_dead[p] = in[kIssueSrcDead].bit(p);
  }
  RfSysResult& res = r.result;
  res.valid = in[kResValid].bit(0);
  res.warp = get(kResWarp, 0, s.warp_width);
  res.slot = get(kResSlot, 0, s.slot_width);
  res.reg = get(kResReg, 0, s.reg_width);
  res.data = in[kResData];
  res.mrf = in[kResMrf].bit(0);
  res.orf = in[kResOrf].bit(0);
  res.orf_l0 = in[kResOrfL0].bit(0);
  res.orf_entry = get(kResOrfEntry, 0, s.entry_width);
  res.long_latency = in[kResLong].bit(0);
  res.no_l0 = in[kResNoL0].bit(0);
  r.flush.valid = in[kFlValid].bit(0);
  r.flush.warp = get(kFlWarp, 0, s.warp_width);
  r.flush.slot = get(kFlSlot, 0, s.slot_width);
  r.disp_ready = in[kDispReady].bit(0);
  return r;
}

void RfSystemCycleModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  const RfSystemSpec& s = sys_.spec();
  const RfSysInputs d = Decode(s, in);
  const RfSysOutputs o = sys_.Evaluate(d);
  auto flag = [&](Port p, bool v) {
    out[p] = Bits(1, v ? 1 : 0);
    defined[p] = Bits(1, 1);
  };
  flag(kIssueReady, o.issue_ready);
  flag(kResReady, o.res_ready);
  flag(kFlReady, o.fl_ready);
  flag(kDispValid, o.disp.valid);
  for (Port p : {kDispTag, kDispWarp, kDispSrcValid, kDispData}) {
    out[p].clear();
    defined[p].clear();
  }
  if (o.disp.valid) {
    out[kDispTag].set(0, s.tag_width, o.disp.tag);
    defined[kDispTag].fill_ones();
    out[kDispWarp].set(0, s.warp_width, static_cast<uint64_t>(o.disp.warp));
    defined[kDispWarp].fill_ones();
    Bits ones(s.width);
    ones.fill_ones();
    for (int p = 0; p < 3; ++p) {
      out[kDispSrcValid].set_bit(p, o.disp.src_valid[p]);
      if (o.disp.src_valid[p] && o.disp.defined[p]) {
        out[kDispData].set_slice(p * s.width, o.disp.data[p]);
        defined[kDispData].set_slice(p * s.width, ones);
      }
    }
    defined[kDispSrcValid].fill_ones();
  }
  const RfSysCounters c = d.reset ? RfSysCounters{} : sys_.counters();
  const int cw = s.counter_width;
  auto counter = [&](Port p, uint64_t v) {
    out[p].clear();
    out[p].set(0, cw, cw >= 64 ? v : v & ((uint64_t{1} << cw) - 1));
    defined[p].fill_ones();
  };
  counter(kCntMrfReads, c.mrf_reads);
  counter(kCntMrfWrites, c.mrf_writes);
  counter(kCntMrfConflicts, c.mrf_conflicts);
  counter(kCntIssueStalls, c.issue_stalls);
  counter(kCntMrfWbStalls, c.mrf_wb_stalls);
  counter(kCntL1Reads, c.l1_reads);
  counter(kCntL0Reads, c.l0_reads);
  counter(kCntL1Writes, c.l1_writes);
  counter(kCntL0Writes, c.l0_writes);
  counter(kCntTagChecks, c.tag_checks);
  counter(kCntTagHits, c.tag_hits);
  counter(kCntWritebacks, c.writebacks);
}

void RfSystemCycleModel::Clock(const PortValues& in) {
  sys_.Clock(Decode(sys_.spec(), in));
}

GPURF_REGISTER(ModelFamily, rf_system, "rf-system",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<RfSystemCycleModel>(SpecAs<RfSystemSpec>(s));
               }})

}  // namespace gpurf
