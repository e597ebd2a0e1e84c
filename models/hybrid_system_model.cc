#include "models/hybrid_system_model.h"

#include <fmt/format.h>

#include "models/registry.h"

namespace gpurf {

HybridSystemModel::HybridSystemModel(const HybridSystemSpec& spec)
    : spec_(spec), rc_(spec.rc), mrf_(spec.mrf) {
  const size_t keys = static_cast<size_t>(spec.warps) << spec.reg_width;
  reg_sh_.assign(keys, std::nullopt);
  readers_.assign(keys, 0);
  ResetState();
}

void HybridSystemModel::ResetState() {
  rc_.Reset();
  queue_.clear();
  next_entry_ = 0;
  fifo_.clear();
  fill_state_ = 0;
  snoop_.reset();
  slot_sh_.assign(static_cast<size_t>(spec_.rc.rsp_slots), std::nullopt);
  std::fill(readers_.begin(), readers_.end(), 0);
  // The RC's dirty values and the FIFO are lost: what survives is the MRF's.
  for (int w = 0; w < spec_.warps; ++w)
    for (int r = 0; r < (1 << spec_.reg_width); ++r)
      reg_sh_[static_cast<size_t>(Key(w, r))] = mrf_.Register(w, r);
}

void HybridSystemModel::Fail(const std::string& what) {
  if (failure_.empty())
    failure_ = what;
}

std::string HybridSystemModel::Failure() const {
  if (!failure_.empty())
    return failure_;
  return rc_.failure();
}

HybridSystemModel::Glue HybridSystemModel::Evaluate() const {
  Glue g;
  const int n = static_cast<int>(queue_.size());
  g.issue_ready = n <= spec_.queue - 2;
  for (int i = 0; i < n; ++i) {
    if (!queue_[static_cast<size_t>(i)].sent) {
      g.cand = i;
      break;
    }
  }
  g.want = fill_state_ == 1 || g.cand >= 0;
  const int f = static_cast<int>(fifo_.size());
  g.hold = g.want && f > 1;
  g.res_ready = !g.hold && f <= spec_.wbq - 3;
  g.xf_ready = !g.hold && (fill_state_ == 0 || fault_ == Fault::kFillReadyEarly);
  g.fl_ready = n == 0 && fill_state_ == 0 && f == 0;
  auto complete = [](const Instr& x) { return x.have[0] && x.have[1] && x.have[2]; };
  if (n >= 1 && complete(queue_[0])) {
    g.lanes = 1;
    if (n >= 2 && complete(queue_[1]))
      g.lanes = 2;
  }
  return g;
}

void HybridSystemModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  for (int p = kIssueReady; p < kNumPorts; ++p) {
    out[p].clear();
    defined[p].fill_ones();
  }
  if (!in[kRstN].bit(0))
    return;
  const Glue g = Evaluate();
  out[kIssueReady].set_bit(0, g.issue_ready);
  out[kResReady].set_bit(0, g.res_ready);
  out[kXfReady].set_bit(0, g.xf_ready);
  out[kFlReady].set_bit(0, g.fl_ready);
  const int tw = spec_.tag_width, ww = spec_.warp_width, dw = spec_.width;
  // Lanes not dispatched show the queue's stale contents: undefined.
  defined[kDispTag].clear();
  defined[kDispWarp].clear();
  defined[kDispSrcValid].clear();
  defined[kDispData].clear();
  for (int l = 0; l < g.lanes; ++l) {
    const Instr& x = queue_[static_cast<size_t>(l)];
    out[kDispValid].set_bit(l, true);
    out[kDispTag].set(l * tw, tw, x.tag);
    defined[kDispTag].set(l * tw, tw, ~uint64_t{0});
    out[kDispWarp].set(l * ww, ww, static_cast<uint64_t>(x.warp));
    defined[kDispWarp].set(l * ww, ww, ~uint64_t{0});
    for (int s = 0; s < 3; ++s) {
      const int p = 3 * l + s;
      const int from = fault_ == Fault::kSwapOperands && s < 2 ? 1 - s : s;
      out[kDispSrcValid].set_bit(p, x.valid[s]);
      defined[kDispSrcValid].set_bit(p, true);
      if (x.valid[s] && x.defined[from]) {
        out[kDispData].set_slice(p * dw, x.data[from]);
        Bits ones(dw);
        ones.fill_ones();
        defined[kDispData].set_slice(p * dw, ones);
      }
    }
  }
}

void HybridSystemModel::CheckHeld(int key) {
  const std::optional<Bits>& want = reg_sh_[static_cast<size_t>(key)];
  if (!want)
    return;  // dead or never written: nothing to keep
  const int w = key >> spec_.reg_width, r = key & ((1 << spec_.reg_width) - 1);
  std::optional<Bits> have;
  const char* where = "the MRF";
  if (const Bits* v = rc_.RcValue(w, r)) {
    have = *v;
    where = "the RC";
  } else {
    for (auto it = fifo_.rbegin(); it != fifo_.rend(); ++it) {
      if (it->warp == w && it->reg == r) {
        have = it->data;
        where = "the write-back FIFO";
        break;
      }
    }
    if (!have)
      have = mrf_.Register(w, r);
  }
  if (!have || *have != *want) {
    Fail(fmt::format("I2: the newest value {} of register r{} of warp {} is lost: {} holds {}",
                     want->hex(), r, w, where, have ? have->hex() : "nothing"));
  }
}

void HybridSystemModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    mrf_.Step(MrfIssue{}, MrfWriteBack{}, false, true);
    ResetState();
    return;
  }
  const Glue g = Evaluate();
  const int tw = spec_.tag_width, ww = spec_.warp_width, rw = spec_.reg_width,
            sb = spec_.slot_width, dw = spec_.width;
  const bool issue_fire = in[kIssueValid].bit(0) && g.issue_ready;
  if (in[kIssueValid].bit(1) && !in[kIssueValid].bit(0))
    Contract("instruction 1 offered without instruction 0");
  const bool xf_accept = in[kXfValid].bit(0) && g.xf_ready;
  const bool xf_fill = xf_accept && !in[kXfOp].bit(0);
  const bool xf_live = xf_accept && in[kXfOp].bit(0);
  if (xf_accept && !spec_.rc.transfers())
    Contract("a transfer in the parallel-lifetime organization");

  // The MRF's requests: the fill's read first, else the oldest unsent instruction, once the
  // write-back FIFO holds at most the entry it writes now.
  MrfIssue mi;
  const bool send = g.want && fifo_.size() <= 1;
  if (send) {
    mi.valid = true;
    if (fill_state_ == 1) {
      mi.tag = static_cast<uint64_t>(spec_.queue);
      mi.warp = fill_warp_;
      mi.src_valid = {true, false, false};
      mi.src_reg = {fill_reg_, 0, 0};
    } else {
      const Instr& x = queue_[static_cast<size_t>(g.cand)];
      mi.tag = static_cast<uint64_t>(x.entry);
      mi.warp = x.warp;
      for (int s = 0; s < 3; ++s) {
        mi.src_valid[s] = x.valid[s] && !x.have[s];
        mi.src_reg[s] = x.reg[s];
      }
    }
  }
  MrfWriteBack mw;
  if (!fifo_.empty()) {
    mw.valid = true;
    mw.warp = fifo_.front().warp;
    mw.reg = fifo_.front().reg;
    mw.data = fifo_.front().data;
  }
  MrfCore::View view;
  mrf_.Step(mi, mw, true, false, &view);
  if (mw.valid && !view.wb_ready)
    Fail("the MRF refused a write-back");
  const MrfDispatch& md = view.disp;
  const bool fill_apply =
      fill_state_ == 2 && md.valid && md.tag == static_cast<uint64_t>(spec_.queue);

  // The hybrid-rc's cycle.
  HybridRc::Inputs ri;
  ri.reads.resize(HybridRcSpec::kReadPorts);
  for (int p = 0; p < HybridRcSpec::kReadPorts; ++p) {
    HybridRc::Read& r = ri.reads[static_cast<size_t>(p)];
    r.valid = issue_fire && in[kIssueValid].bit(p / 3) && in[kIssueSrcValid].bit(p);
    r.rsp = in[kIssueSrcRsp].bit(p);
    r.last = in[kIssueSrcLast].bit(p);
    r.slot = static_cast<int>(in[kIssueSrcSlot].get(p * sb, sb));
    r.warp = static_cast<int>(in[kIssueWarp].get((p / 3) * ww, ww));
    r.reg = static_cast<int>(in[kIssueSrcReg].get(p * rw, rw));
  }
  ri.writes.resize(HybridRcSpec::kWritePorts);
  for (int q = 0; q < HybridRcSpec::kWritePorts; ++q) {
    HybridRc::Write& w = ri.writes[static_cast<size_t>(q)];
    w.valid = g.res_ready && in[kResValid].bit(q);
    w.rsp = in[kResRsp].bit(q);
    w.slot = static_cast<int>(in[kResSlot].get(q * sb, sb));
    w.warp = static_cast<int>(in[kResWarp].get(q * ww, ww));
    w.reg = static_cast<int>(in[kResReg].get(q * rw, rw));
    w.data = in[kResData].slice(q * dw, dw);
  }
  if (xf_live) {
    ri.xf.valid = true;
    ri.xf.op = HybridRcSpec::kLiveOut;
    ri.xf.slot = static_cast<int>(in[kXfSlot].get(0, sb));
    ri.xf.warp = static_cast<int>(in[kXfWarp].get(0, ww));
    ri.xf.reg = static_cast<int>(in[kXfReg].get(0, rw));
    ri.xf.data = Bits(dw);
  } else if (fill_apply) {
    ri.xf.valid = true;
    ri.xf.op = HybridRcSpec::kFill;
    ri.xf.slot = fill_slot_;
    ri.xf.warp = fill_warp_;
    ri.xf.reg = fill_reg_;
    ri.xf.data = snoop_ && fault_ != Fault::kNoSnoop ? *snoop_ : md.data[0];
  } else {
    ri.xf.data = Bits(dw);
  }
  const HybridRc::Outputs ro = rc_.Step(ri);

  std::vector<int> touched;
  // Issue: the sources read now, against the shadow as it was at the start of the cycle.
  std::array<Instr, 2> fresh;
  std::vector<int> kills;  // last reads: the values die after every read of the cycle
  const int n_issue = issue_fire ? (in[kIssueValid].bit(1) ? 2 : 1) : 0;
  for (int i = 0; i < n_issue; ++i) {
    Instr& x = fresh[static_cast<size_t>(i)];
    x.entry = next_entry_;
    next_entry_ = (next_entry_ + 1) % spec_.queue;
    x.tag = in[kIssueTag].get(i * tw, tw);
    x.warp = static_cast<int>(in[kIssueWarp].get(i * ww, ww));
    x.sent = true;
    for (int s = 0; s < 3; ++s) {
      const int p = 3 * i + s;
      const HybridRc::Read& r = ri.reads[static_cast<size_t>(p)];
      x.valid[s] = in[kIssueSrcValid].bit(p);
      x.reg[s] = r.reg;
      x.have[s] = !x.valid[s] || ro.hit[static_cast<size_t>(p)];
      if (!x.valid[s])
        continue;
      const std::optional<Bits>& newest = r.rsp ? slot_sh_[static_cast<size_t>(r.slot)]
                                                : reg_sh_[static_cast<size_t>(Key(x.warp, r.reg))];
      if (r.rsp && (!newest || (fill_state_ != 0 && fill_slot_ == r.slot))) {
        Fail(fmt::format("I3: the pipeline missed in the RSP: operand {} reads slot {}, which {}",
                         p, r.slot, newest ? "is still being filled" : "holds no value"));
        x.expect[s] = Bits(dw);
      } else if (!r.rsp && !newest) {
        Contract(fmt::format("operand {} reads register r{} of warp {}, which holds no live value",
                             p, r.reg, x.warp));
        x.expect[s] = Bits(dw);
      } else {
        x.expect[s] = *newest;
      }
      if (x.have[s]) {
        x.data[s] = ro.data[static_cast<size_t>(p)];
        x.defined[s] = ro.data_known[static_cast<size_t>(p)];
        ++(r.rsp ? rsp_reads : rc_hits);
        if (x.data[s] != x.expect[s])
          Fail(fmt::format(
              "I1: stale read: operand {} ({}) got {} from the {}, the newest is {}", p,
              r.rsp ? fmt::format("slot {}", r.slot) : fmt::format("r{} of warp {}", r.reg, x.warp),
              x.data[s].hex(), r.rsp ? "RSP" : "RC", x.expect[s].hex()));
      } else {
        ++rc_misses;
        x.sent = false;
        x.missed[s] = true;
        ++readers_[static_cast<size_t>(Key(x.warp, r.reg))];
      }
      if (!r.rsp && r.last) {
        const int k = Key(x.warp, r.reg);
        if (fill_state_ != 0 && Key(fill_warp_, fill_reg_) == k)
          Contract(
              fmt::format("a last read of r{} of warp {} while a fill reads it", r.reg, x.warp));
        kills.push_back(k);
      }
    }
  }

  for (int k : kills)
    reg_sh_[static_cast<size_t>(k)].reset();

  // MRF: a sent read, values returned.
  if (send && view.issue_ready) {
    if (fill_state_ == 1)
      fill_state_ = 2;
    else
      queue_[static_cast<size_t>(g.cand)].sent = true;
  }
  if (md.valid && md.tag != static_cast<uint64_t>(spec_.queue)) {
    bool found = false;
    for (Instr& x : queue_) {
      if (static_cast<uint64_t>(x.entry) != md.tag)
        continue;
      found = true;
      for (int s = 0; s < 3; ++s) {
        if (!md.src_valid[s])
          continue;
        x.have[s] = true;
        x.data[s] = md.data[s];
        x.defined[s] = md.defined[s];
        x.missed[s] = false;
        --readers_[static_cast<size_t>(Key(x.warp, x.reg[s]))];
        if (!md.defined[s] || md.data[s] != x.expect[s])
          Fail(
              fmt::format("I1: stale read: the MRF returned {} for r{} of warp {}, the newest "
                          "value is {}",
                          md.defined[s] ? md.data[s].hex() : "an unwritten row", x.reg[s], x.warp,
                          x.expect[s].hex()));
      }
    }
    if (!found)
      Fail(fmt::format("the MRF returned tag {}, which no queued instruction holds", md.tag));
  }

  // Dispatch.
  if (in[kDispReady].bit(0)) {
    for (int l = 0; l < g.lanes; ++l) {
      const Instr& x = queue_.front();
      for (int s = 0; s < 3; ++s) {
        const int from = fault_ == Fault::kSwapOperands && s < 2 ? 1 - s : s;
        if (!x.valid[s])
          continue;
        ++checked_operands;
        if (x.data[from] != x.expect[s])
          Fail(
              fmt::format("I4: dispatched operand {} of tag {} is {}, the last value written "
                          "before its issue is {}",
                          3 * l + s, x.tag, x.data[from].hex(), x.expect[s].hex()));
      }
      queue_.pop_front();
      ++dispatched;
    }
  }
  for (int i = 0; i < n_issue; ++i) {
    queue_.push_back(fresh[static_cast<size_t>(i)]);
    ++issued;
  }

  // Transfers.
  if (xf_live) {
    ++live_outs;
    const int slot = ri.xf.slot, k = Key(ri.xf.warp, ri.xf.reg);
    if (!slot_sh_[static_cast<size_t>(slot)])
      Contract(fmt::format("a live-out of slot {}, which holds no value", slot));
    if (readers_[static_cast<size_t>(k)] > 0)
      Contract(fmt::format("a live-out writes r{} of warp {}, which a queued read still reads",
                           ri.xf.reg, ri.xf.warp));
    reg_sh_[static_cast<size_t>(k)] = slot_sh_[static_cast<size_t>(slot)];
    touched.push_back(k);
  }
  // Results, in program order, after the reads and the transfer of this cycle.
  for (int q = 0; q < HybridRcSpec::kWritePorts; ++q) {
    const HybridRc::Write& w = ri.writes[static_cast<size_t>(q)];
    if (!w.valid)
      continue;
    if (w.rsp) {
      if (fill_state_ != 0 && fill_slot_ == w.slot)
        Contract(fmt::format("result {} writes slot {} while it is being filled", q, w.slot));
      slot_sh_[static_cast<size_t>(w.slot)] = w.data;
    } else {
      const int k = Key(w.warp, w.reg);
      if (readers_[static_cast<size_t>(k)] > 0)
        Contract(
            fmt::format("result {} writes r{} of warp {}, which a queued read or a fill "
                        "still reads (write after read)",
                        q, w.reg, w.warp));
      reg_sh_[static_cast<size_t>(k)] = w.data;
      touched.push_back(k);
    }
  }

  if (fill_state_ != 0 && !fill_apply) {
    for (int c : {2, 0, 1}) {
      const HybridRc::WriteBack& b = ro.wb[static_cast<size_t>(c)];
      if (b.valid && b.warp == fill_warp_ && b.reg == fill_reg_)
        snoop_ = b.data;
    }
  }
  if (fill_apply) {
    ++fills;
    fill_state_ = 0;
    --readers_[static_cast<size_t>(Key(fill_warp_, fill_reg_))];
    const std::optional<Bits>& got = rc_.RspValue(fill_slot_);
    if (!got || *got != fill_expect_)
      Fail(fmt::format(
          "I1: stale read: the fill of slot {} from r{} of warp {} took {}, the "
          "newest value is {}",
          fill_slot_, fill_reg_, fill_warp_, got ? got->hex() : "nothing", fill_expect_.hex()));
    slot_sh_[static_cast<size_t>(fill_slot_)] = fill_expect_;
  }
  if (xf_fill) {
    fill_state_ = 1;
    fill_slot_ = static_cast<int>(in[kXfSlot].get(0, sb));
    fill_warp_ = static_cast<int>(in[kXfWarp].get(0, ww));
    fill_reg_ = static_cast<int>(in[kXfReg].get(0, rw));
    snoop_.reset();
    const std::optional<Bits>& v = reg_sh_[static_cast<size_t>(Key(fill_warp_, fill_reg_))];
    if (!v)
      Contract(fmt::format("a fill of slot {} from r{} of warp {}, which holds no live value",
                           fill_slot_, fill_reg_, fill_warp_));
    fill_expect_ = v ? *v : Bits(dw);
    ++readers_[static_cast<size_t>(Key(fill_warp_, fill_reg_))];
  }

  // The write-back FIFO: the head went to the MRF; this cycle's write-backs enter in order.
  if (!fifo_.empty()) {
    touched.push_back(Key(fifo_.front().warp, fifo_.front().reg));
    fifo_.pop_front();
    ++mrf_writes;
  }
  for (int c : {2, 0, 1}) {
    const HybridRc::WriteBack& b = ro.wb[static_cast<size_t>(c)];
    if (!b.valid)
      continue;
    touched.push_back(Key(b.warp, b.reg));
    if (fault_ != Fault::kDropWriteBack || c != 1)
      fifo_.push_back(Wb{b.warp, b.reg, b.data});
  }
  if (static_cast<int>(fifo_.size()) > spec_.wbq)
    Fail("the write-back FIFO overflowed");
  for (int k : touched)
    CheckHeld(k);
}

GPURF_REGISTER(ModelFamily, hybrid_system, "hybrid-system",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<HybridSystemModel>(SpecAs<HybridSystemSpec>(s));
               }})

}  // namespace gpurf
