#include "models/renaming_table_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/registry.h"

namespace gpurf {

using S = RenamingTableSpec;

RenameMap::RenameMap(const RenamingTableSpec& spec) : spec_(spec) {
  Reset();
}

void RenameMap::Reset() {
  warps_.assign(static_cast<size_t>(spec_.warps), {});
  held_.clear();
}

RenameMap::Lookup RenameMap::Find(int warp, int r, int n) const {
  if (S::Exempt(r, n))
    return {true, spec_.ExemptPhys(warp, r, n)};
  const auto& m = warps_[warp];
  const auto it = m.find(r);
  if (it == m.end())
    return {};  // never written, or released: flagged, and no stale id is answered
  return {true, it->second};
}

RenameMap::Lookup RenameMap::Write(int warp, int r, int n, int free_phys, bool* alloc) {
  *alloc = false;
  const Lookup l = Find(warp, r, n);
  if (l.mapped || !spec_.Renamed(r, n))
    return l;
  if (free_phys >= spec_.phys_regs) {
    Fail(
        fmt::format("I1 violated: warp {} r{} mapped to physical {}, beyond the {} physical "
                    "registers",
                    warp, r, free_phys, spec_.phys_regs));
  } else if (free_phys < spec_.warps * n) {
    Fail(
        fmt::format("I1 violated: warp {} r{} mapped to physical {}, inside the exempt blocks "
                    "[0, {})",
                    warp, r, free_phys, spec_.warps * n));
  } else if (held_.count(free_phys) != 0) {
    Fail(fmt::format("I1 violated: warp {} r{} mapped to physical {}, which is already mapped",
                     warp, r, free_phys));
  }
  warps_[warp][r] = free_phys;
  held_.insert(free_phys);
  *alloc = true;
  return {true, free_phys};
}

int RenameMap::Release(int warp, int r, int n) {
  if (S::Exempt(r, n))
    return -1;  // exempt registers are never released
  auto& m = warps_[warp];
  const auto it = m.find(r);
  if (it == m.end())
    return -1;
  const int phys = it->second;
  m.erase(it);
  const auto h = held_.find(phys);
  if (h == held_.end())
    Fail(fmt::format("I3 violated: physical {} freed but not held", phys));
  else
    held_.erase(h);
  return phys;
}

std::vector<int> RenameMap::Mapped(int warp) const {
  std::vector<int> regs;
  for (const auto& [r, phys] : warps_[warp])
    regs.push_back(r);
  return regs;
}

size_t RenameMap::size() const {
  return held_.size();
}

// ------------------------------------------------------------------------------ cycle model

RenamingTableModel::RenamingTableModel(const RenamingTableSpec& spec) : spec_(spec), map_(spec) {}

bool RenamingTableModel::Ready() const {
  return !busy_;
}

RenamingTableModel::Request RenamingTableModel::Current(const PortValues& in) const {
  if (busy_)
    return pending_;
  Request r;
  if (!in[kReqValid].bit(0))
    return r;
  r.op = static_cast<int>(in[kReqOp].get(0, 2));
  r.warp = static_cast<int>(in[kReqWarp].get(0, spec_.warp_bits));
  if (r.warp >= spec_.warps) {
    r.bad_warp = r.warp;
    r.warp = spec_.warps - 1;  // C3 violated (reported at the edge); answer as the last slot
  }
  if (r.op == S::kInstr) {
    for (int p = 0; p < S::kSources; ++p) {
      r.src[p] = in[kSrcValid].bit(p);
      r.src_reg[p] = static_cast<int>(in[kSrcReg].get(p * spec_.reg_bits, spec_.reg_bits));
      r.src_release[p] = in[kSrcRelease].bit(p);
    }
    r.dst = in[kDstValid].bit(0);
    r.dst_reg = static_cast<int>(in[kDstReg].get(0, spec_.reg_bits));
    r.dst_phys = static_cast<int>(in[kDstPhys].get(0, spec_.phys_bits));
  } else if (r.op == S::kRelease || r.op == S::kExit) {
    // The pending entries: those of the list (every one at exit) that hold a mapping now.
    for (int reg : map_.Mapped(r.warp)) {
      if (r.op == S::kExit || in[kRelMask].bit(reg))
        r.release.insert(reg);
    }
  }
  return r;
}

RenamingTableModel::Plan RenamingTableModel::MakePlan(const Request& r, int n) const {
  Plan plan;
  plan.free_phys.assign(static_cast<size_t>(spec_.banks), -1);
  if (r.op == S::kInstr) {
    // Sources: exempt and outside operands need no bank; in each bank the register of the
    // lowest-numbered pending source is read, for every source that names it.
    std::vector<int> lead(static_cast<size_t>(spec_.banks), -1);  // register read per bank
    std::vector<bool> bank_has_src(static_cast<size_t>(spec_.banks), false);
    for (int p = 0; p < S::kSources; ++p) {
      if (!r.src[p])
        continue;
      const int reg = r.src_reg[p];
      if (!spec_.Renamed(reg, n)) {
        plan.src_served[p] = true;
      } else {
        const int b = BankOf(reg, n);
        bank_has_src[b] = true;
        if (lead[b] < 0)
          lead[b] = reg;
        plan.src_served[p] = lead[b] == reg;
      }
      if (plan.src_served[p])
        plan.src[p] = map_.Find(r.warp, reg, n);
    }
    for (int b = 0; b < spec_.banks; ++b) {
      if (lead[b] < 0)
        continue;
      bool release = false;
      for (int p = 0; p < S::kSources; ++p)
        release |= plan.src_served[p] && r.src_reg[p] == lead[b] && r.src_release[p];
      const RenameMap::Lookup l = map_.Find(r.warp, lead[b], n);
      if (release && l.mapped) {
        plan.release_regs.push_back(lead[b]);
        plan.free_phys[b] = l.phys;
      }
    }
    // The destination, once no source of its bank is pending.
    if (r.dst && (!spec_.Renamed(r.dst_reg, n) || !bank_has_src[BankOf(r.dst_reg, n)])) {
      plan.dst_served = true;
      const RenameMap::Lookup l = map_.Find(r.warp, r.dst_reg, n);
      plan.dst_alloc = !l.mapped && spec_.Renamed(r.dst_reg, n);
      plan.dst_phys = plan.dst_alloc ? r.dst_phys : l.phys;
    }
  } else {
    // Release / exit: the lowest pending register of each bank.
    for (int reg : r.release) {
      const int b = BankOf(reg, n);
      if (plan.free_phys[b] >= 0)
        continue;
      plan.release_regs.push_back(reg);
      plan.free_phys[b] = map_.Find(r.warp, reg, n).phys;
    }
  }
  return plan;
}

void RenamingTableModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  for (int p = kReqReady; p < kNumPorts; ++p) {
    out[p].clear();
    defined[p].fill_ones();
  }
  if (!in[kRstN].bit(0))
    return;  // asynchronous reset: every output is zero while rst_ni is low
  const int n = static_cast<int>(in[kExempt].get(0, spec_.exempt_bits));
  out[kReqReady].set_bit(0, Ready());
  out[kConflictCycles].set(0, 32, conflict_cycles_ & 0xffffffffULL);
  const Plan plan = MakePlan(Current(in), n);
  const int pb = spec_.phys_bits;
  for (int p = 0; p < S::kSources; ++p) {
    if (!plan.src_served[p])
      continue;
    out[kSrcServed].set_bit(p, true);
    out[kSrcMapped].set_bit(p, plan.src[p].mapped);
    // An outside operand (a contract violation) answers unmapped, id 0; so does an unmapped one.
    out[kSrcPhys].set(p * pb, pb, static_cast<uint64_t>(plan.src[p].phys) & ((1ULL << pb) - 1));
  }
  if (plan.dst_served) {
    out[kDstServed].set_bit(0, true);
    out[kDstAlloc].set_bit(0, plan.dst_alloc);
    out[kDstPhysOut].set(0, pb, static_cast<uint64_t>(plan.dst_phys) & ((1ULL << pb) - 1));
  }
  for (int b = 0; b < spec_.banks; ++b) {
    if (plan.free_phys[b] < 0)
      continue;
    out[kFreeValid].set_bit(b, true);
    out[kFreePhys].set(b * pb, pb, static_cast<uint64_t>(plan.free_phys[b]));
  }
}

void RenamingTableModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    map_.Reset();
    pending_ = Request{};
    busy_ = false;
    conflict_cycles_ = 0;
    return;
  }
  const int n = static_cast<int>(in[kExempt].get(0, spec_.exempt_bits));
  auto fail = [&](const std::string& what) {
    if (failure_.empty())
      failure_ = what;
  };
  if (spec_.warps * n > spec_.phys_regs) {
    fail(
        fmt::format("C2 violated: {} warps x {} exempt registers exceed the {} physical "
                    "registers",
                    spec_.warps, n, spec_.phys_regs));
  }
  if (busy_ && pending_.op == S::kInstr)
    conflict_cycles_ = (conflict_cycles_ + 1) & 0xffffffffULL;
  Request r = Current(in);
  if (r.bad_warp >= 0)
    fail(fmt::format("C3 violated: request of warp slot {}, beyond the {} slots", r.bad_warp,
                     spec_.warps));
  const Plan plan = MakePlan(r, n);
  if (r.op == S::kInstr) {
    for (int p = 0; p < S::kSources; ++p) {
      if (plan.src_served[p] && !S::Exempt(r.src_reg[p], n) && !spec_.Renamed(r.src_reg[p], n))
        fail(
            fmt::format("C1 violated: source {} names r{}, neither exempt (N = {}) nor in the "
                        "{}-entry renamed window",
                        p, r.src_reg[p], n, spec_.window));
    }
    if (plan.dst_served && !S::Exempt(r.dst_reg, n) && !spec_.Renamed(r.dst_reg, n))
      fail(
          fmt::format("C1 violated: destination names r{}, neither exempt (N = {}) nor in the "
                      "{}-entry renamed window",
                      r.dst_reg, n, spec_.window));
  }
  for (int reg : plan.release_regs) {
    if (map_.Release(r.warp, reg, n) < 0)
      fail(fmt::format("I3 violated: warp {} r{} released without a mapping", r.warp, reg));
  }
  if (plan.dst_served) {
    bool alloc = false;
    map_.Write(r.warp, r.dst_reg, n, r.dst_phys, &alloc);
  }
  // What stays pending.
  for (int p = 0; p < S::kSources; ++p)
    r.src[p] = r.src[p] && !plan.src_served[p];
  r.dst = r.dst && !plan.dst_served;
  for (int reg : plan.release_regs)
    r.release.erase(reg);
  busy_ = std::any_of(std::begin(r.src), std::end(r.src), [](bool b) { return b; }) || r.dst ||
          !r.release.empty();
  pending_ = r;
}

std::string RenamingTableModel::Failure() const {
  return failure_.empty() ? map_.failure() : failure_;
}

GPURF_REGISTER(ModelFamily, renaming_table, "renaming-table",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<RenamingTableModel>(SpecAs<RenamingTableSpec>(s));
               }})

}  // namespace gpurf
