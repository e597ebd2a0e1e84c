#include "models/hybrid_rc_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/registry.h"

namespace gpurf {

HybridRc::HybridRc(const HybridRcSpec& spec) : spec_(spec) {
  Reset();
}

void HybridRc::Reset() {
  rsp_.assign(static_cast<size_t>(spec_.rsp_slots), std::nullopt);
  rc_.clear();
  lru_.assign(static_cast<size_t>(spec_.sets), {});
}

int HybridRc::SetOfKey(int key) const {
  return spec_.SetOf(key >> spec_.reg_bits, key & ((1 << spec_.reg_bits) - 1));
}

const Bits* HybridRc::RcValue(int warp, int reg) const {
  const auto it = rc_.find(Key(warp, reg));
  return it == rc_.end() ? nullptr : &it->second;
}

std::vector<std::pair<int, int>> HybridRc::SetContents(int set) const {
  std::vector<std::pair<int, int>> v;
  for (int key : lru_[set])
    v.emplace_back(key >> spec_.reg_bits, key & ((1 << spec_.reg_bits) - 1));
  return v;
}

void HybridRc::Fail(const std::string& what) {
  if (failure_.empty())
    failure_ = what;
}

void HybridRc::Touch(int key) {
  std::vector<int>& l = lru_[SetOfKey(key)];
  l.erase(std::find(l.begin(), l.end(), key));
  l.insert(l.begin(), key);
}

void HybridRc::Remove(int key) {
  std::vector<int>& l = lru_[SetOfKey(key)];
  l.erase(std::find(l.begin(), l.end(), key));
  rc_.erase(key);
}

void HybridRc::RcWrite(int warp, int reg, const Bits& value, WriteBack& wb) {
  const int key = Key(warp, reg);
  ++rc_writes;
  if (!spec_.has_rc()) {
    // No RC (the RSP-only design): the value goes below at once, as a write-allocate into a
    // cache of no lines would evict it.
    wb = {true, warp, reg, value};
    ++write_backs;
    return;
  }
  if (auto it = rc_.find(key); it != rc_.end()) {
    ++rc_write_hits;
    it->second = value;
    Touch(key);
    return;
  }
  std::vector<int>& l = lru_[SetOfKey(key)];
  if (static_cast<int>(l.size()) == spec_.ways) {
    // Write-allocate into a full set: the least recently used register goes back to the MRF.
    const int victim = l.back();
    wb.valid = true;
    wb.warp = victim >> spec_.reg_bits;
    wb.reg = victim & ((1 << spec_.reg_bits) - 1);
    wb.data = rc_.at(victim);
    ++write_backs;
    ++evictions;
    Remove(victim);
  }
  rc_[key] = value;
  l.insert(l.begin(), key);
  if (static_cast<int>(l.size()) > spec_.ways)
    Fail(fmt::format("I1 violated: set {} holds {} registers in {} ways", SetOfKey(key), l.size(),
                     spec_.ways));
}

HybridRc::Outputs HybridRc::Step(const Inputs& in) {
  using S = HybridRcSpec;
  Outputs o;
  o.hit.assign(S::kReadPorts, false);
  o.data.assign(S::kReadPorts, Bits(spec_.width));
  o.data_known.assign(S::kReadPorts, true);
  o.wb.assign(S::kWbChannels, WriteBack{false, 0, 0, Bits(spec_.width)});
  // Reads and transfers see the RSP as it was at the start of the cycle.
  const std::vector<std::optional<Bits>> rsp_before = rsp_;
  auto slot_ok = [&](int slot) { return slot < spec_.rsp_slots && rsp_before[slot].has_value(); };

  // 1. Reads: LRU touches in port order, then the last-use kills.
  std::vector<int> kills;
  for (int p = 0; p < S::kReadPorts; ++p) {
    const Read& r = in.reads[p];
    if (!r.valid)
      continue;
    if (r.rsp) {
      ++rsp_reads;
      o.hit[p] = true;
      if (slot_ok(r.slot)) {
        o.data[p] = *rsp_before[r.slot];
      } else {
        o.data_known[p] = false;
        Fail(fmt::format("I4 violated: read {} of RSP slot {} that holds no value (an RSP miss)", p,
                         r.slot));
      }
      continue;
    }
    const auto it = rc_.find(Key(r.warp, r.reg));
    if (it == rc_.end()) {
      ++rc_read_misses;
      continue;
    }
    ++rc_read_hits;
    o.hit[p] = true;
    o.data[p] = it->second;
    Touch(it->first);
    if (r.last)
      kills.push_back(it->first);
  }
  for (int key : kills) {
    if (rc_.count(key) != 0) {  // two last-use reads of one register kill it once
      ++dead_kills;
      Remove(key);  // dead: never written back (I2)
    }
  }

  // 2. The background transfer.
  std::optional<std::pair<int, Bits>> fill;
  const Transfer& x = in.xf;
  if (x.valid && !spec_.transfers()) {
    Fail("I4 violated: a transfer in the parallel-lifetime organization");
  } else if (x.valid) {
    const int key = Key(x.warp, x.reg);
    const auto it = rc_.find(key);
    o.xf_hit = it != rc_.end();
    WriteBack& wb = o.wb[2];
    if (x.slot >= spec_.rsp_slots)
      Fail(fmt::format("I4 violated: transfer of RSP slot {} of {}", x.slot, spec_.rsp_slots));
    if (x.op == S::kFill) {
      ++fills;
      // I3: the newest value: the RC's when it holds the register, else the MRF's.
      Bits value = o.xf_hit ? it->second : x.data;
      if (o.xf_hit) {
        ++fill_hits;
        if (spec_.hierarchical()) {
          Touch(key);
        } else {
          // parallel-evict: the RC gives the register up (its copy is dirty) before the RSP
          // takes it.
          wb = {true, x.warp, x.reg, value};
          ++write_backs;
          Remove(key);
        }
      }
      fill.emplace(x.slot, std::move(value));
    } else {
      ++live_outs;
      Bits value(spec_.width);
      if (slot_ok(x.slot))
        value = *rsp_before[x.slot];
      else
        Fail(fmt::format("I4 violated: live-out of RSP slot {} that holds no value", x.slot));
      if (spec_.hierarchical()) {
        RcWrite(x.warp, x.reg, value, wb);  // the RC intercepts the write-back
      } else {
        wb = {true, x.warp, x.reg, value};
        ++write_backs;
        if (o.xf_hit)
          Remove(key);  // superseded by the live-out (I2, I3)
      }
    }
  }
  if (fill && fill->first < spec_.rsp_slots)
    rsp_[fill->first] = fill->second;

  // 3. Writes in program order.
  for (int q = 0; q < S::kWritePorts; ++q) {
    const Write& w = in.writes[q];
    if (!w.valid)
      continue;
    if (w.rsp) {
      ++rsp_writes;
      if (w.slot < spec_.rsp_slots)
        rsp_[w.slot] = w.data;
      else
        Fail(fmt::format("I4 violated: write {} of RSP slot {} of {}", q, w.slot, spec_.rsp_slots));
    } else {
      RcWrite(w.warp, w.reg, w.data, o.wb[q]);
    }
  }
  return o;
}

HybridRcCycleModel::HybridRcCycleModel(const HybridRcSpec& spec) : spec_(spec), rc_(spec) {}

HybridRc::Inputs HybridRcCycleModel::Decode(const PortValues& in) const {
  using S = HybridRcSpec;
  const int sb = spec_.slot_bits, wb = spec_.warp_bits, rb = spec_.reg_bits, dw = spec_.width;
  HybridRc::Inputs x;
  x.reads.resize(S::kReadPorts);
  for (int p = 0; p < S::kReadPorts; ++p) {
    HybridRc::Read& r = x.reads[p];
    r.valid = in[kRdValid].bit(p);
    r.rsp = in[kRdRsp].bit(p);
    r.last = in[kRdLast].bit(p);
    r.slot = static_cast<int>(in[kRdSlot].get(p * sb, sb));
    r.warp = static_cast<int>(in[kRdWarp].get(p * wb, wb));
    r.reg = static_cast<int>(in[kRdReg].get(p * rb, rb));
  }
  x.writes.resize(S::kWritePorts);
  for (int q = 0; q < S::kWritePorts; ++q) {
    HybridRc::Write& w = x.writes[q];
    w.valid = in[kWrValid].bit(q);
    w.rsp = in[kWrRsp].bit(q);
    w.slot = static_cast<int>(in[kWrSlot].get(q * sb, sb));
    w.warp = static_cast<int>(in[kWrWarp].get(q * wb, wb));
    w.reg = static_cast<int>(in[kWrReg].get(q * rb, rb));
    w.data = in[kWrData].slice(q * dw, dw);
  }
  x.xf.valid = in[kXfValid].bit(0);
  x.xf.op = in[kXfOp].bit(0) ? S::kLiveOut : S::kFill;
  x.xf.slot = static_cast<int>(in[kXfSlot].get(0, sb));
  x.xf.warp = static_cast<int>(in[kXfWarp].get(0, wb));
  x.xf.reg = static_cast<int>(in[kXfReg].get(0, rb));
  x.xf.data = in[kXfData];
  return x;
}

void HybridRcCycleModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  for (int p = kRdHit; p < kNumPorts; ++p) {
    out[p].clear();
    defined[p].fill_ones();
  }
  if (!in[kRstN].bit(0))
    return;              // asynchronous reset: every output is zero while rst_ni is low
  HybridRc trial = rc_;  // Outputs must not change the state; Clock applies the cycle
  const HybridRc::Outputs o = trial.Step(Decode(in));
  const int dw = spec_.width, wb = spec_.warp_bits, rb = spec_.reg_bits;
  for (int p = 0; p < HybridRcSpec::kReadPorts; ++p) {
    out[kRdHit].set_bit(p, o.hit[p]);
    out[kRdData].set_slice(p * dw, o.data[p]);
    if (!o.data_known[p])
      defined[kRdData].set_slice(p * dw, Bits(dw));
  }
  out[kXfHit].set_bit(0, o.xf_hit);
  for (int c = 0; c < HybridRcSpec::kWbChannels; ++c) {
    const HybridRc::WriteBack& w = o.wb[c];
    if (!w.valid)
      continue;
    out[kWbValid].set_bit(c, true);
    out[kWbWarp].set(c * wb, wb, static_cast<uint64_t>(w.warp));
    out[kWbReg].set(c * rb, rb, static_cast<uint64_t>(w.reg));
    out[kWbData].set_slice(c * dw, w.data);
  }
}

void HybridRcCycleModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    rc_.Reset();
    return;
  }
  rc_.Step(Decode(in));
}

GPURF_REGISTER(ModelFamily, hybrid_rc, "hybrid-rc",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<HybridRcCycleModel>(SpecAs<HybridRcSpec>(s));
               }})

}  // namespace gpurf
