#include "models/cerf_system_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/registry.h"

namespace gpurf {

CerfSystemModel::CerfSystemModel(const CerfSystemSpec& spec)
    : spec_(spec),
      ts_(spec_.tags),
      tags_(spec_.tags),
      pending_(static_cast<size_t>(spec.lookups())),
      mshr_(static_cast<size_t>(spec.lookups())),
      lines_(static_cast<size_t>(spec.lines()), Bits(spec.data_width)),
      line_defined_(static_cast<size_t>(spec.lines()), false) {}

bool CerfSystemModel::Busy() const {
  return std::any_of(mshr_.begin(), mshr_.end(), [](const Refill& r) { return r.valid; });
}

void CerfSystemModel::Fail(const std::string& what) {
  if (failure_.empty())
    failure_ = what;
}

std::vector<CerfSystemModel::Lookup> CerfSystemModel::Current(const PortValues& in) const {
  const bool tag_ready =
      std::none_of(pending_.begin(), pending_.end(), [](const Lookup& l) { return l.valid; });
  if (!tag_ready)
    return pending_;
  std::vector<Lookup> cur(pending_.size());
  if (!in[kReqValid].bit(0) || Busy())
    return cur;
  for (int p = 0; p < spec_.lookups(); ++p) {
    Lookup& l = cur[p];
    l.valid = in[kLkValid].bit(p);
    l.op = static_cast<Op>(in[kLkOp].get(2 * p, 2));
    l.last = in[kLkLast].bit(p);
    l.data = in[kLkData].slice(p * spec_.data_width, spec_.data_width);
    l.addr = ts_.LookupLine(l.op, in[kLkWarp], in[kLkReg], in[kLkAddr], p);
  }
  return cur;
}

void CerfSystemModel::CheckValue(const char* what, uint64_t addr, const Bits& got, bool reg) {
  auto it = arch_.find(addr);
  if (it == arch_.end()) {
    if (reg) {
      Fail(fmt::format("D1: {} of register line {:#x}, which was never written", what, addr));
      return;
    }
    arch_[addr] = got;  // memory's first value of the line, as L2 returned it
    return;
  }
  if (it->second != got) {
    Fail(fmt::format("{}: {} of line {:#x} returns {}, the last value written is {}",
                     reg ? "D1" : "D2", what, addr, got.hex(), it->second.hex()));
  }
}

void CerfSystemModel::Step(const PortValues& in, PortValues* out, PortValues* defined,
                           bool commit) {
  const int n = spec_.lookups(), aw = ts_.addr_width, dw = spec_.data_width;
  const bool tag_ready =
      std::none_of(pending_.begin(), pending_.end(), [](const Lookup& l) { return l.valid; });
  if (out) {
    (*out)[kReqReady].set_bit(0, tag_ready && !Busy());
    (*out)[kConflictCycles].set(0, 32, conflict_cycles_ & 0xffffffffULL);
  }
  std::vector<Lookup> cur = Current(in);
  // Tagging stage: in each bank the lowest-numbered current lookup is served.
  std::vector<bool> served(cur.size(), false), bank_taken(static_cast<size_t>(ts_.banks), false);
  for (int p = 0; p < n; ++p) {
    if (cur[p].valid && !bank_taken[ts_.BankOf(cur[p].addr)]) {
      bank_taken[ts_.BankOf(cur[p].addr)] = true;
      served[p] = true;
    }
  }
  // Refill responses (each names one outstanding lookup of its port).
  const bool mem_rsp = in[kMemRspValid].bit(0), fill_rsp = in[kFillRspValid].bit(0);
  const int mem_id = static_cast<int>(in[kMemRspId].get(0, spec_.id_bits));
  const int fill_id = static_cast<int>(in[kFillRspId].get(0, spec_.id_bits));
  const Bits mem_data = in[kMemRspData].slice(0, dw), fill_data = in[kFillRspData].slice(0, dw);
  struct Write {
    int row;
    Bits data;
  };
  std::vector<Write> writes;
  std::vector<Refill> next_mshr = mshr_;
  auto respond = [&](bool valid, int id, const Bits& data, bool l2) {
    if (!valid)
      return;
    if (id >= n || !mshr_[id].valid || mshr_[id].l2 != l2) {
      if (commit)
        Fail(fmt::format("contract: {} response for id {}, which has nothing outstanding there",
                         l2 ? "L2" : "fill", id));
      return;
    }
    if (out) {
      (*out)[kRdValid].set_bit(id, true);
      (*out)[kRdData].set_slice(id * dw, data);
    }
    if (commit) {
      CheckValue(l2 ? "a load refill" : "a register fill", mshr_[id].addr, data, !l2);
      if (mshr_[id].alloc)
        writes.push_back({mshr_[id].row, data});
      next_mshr[id].valid = false;
    }
  };
  respond(mem_rsp, mem_id, mem_data, true);
  respond(fill_rsp, fill_id, fill_data, false);

  for (int p = 0; p < n; ++p) {
    if (!served[p])
      continue;
    const Lookup& l = cur[p];
    // Lookups served together are in different sets: each sees the array as it is now.
    const TagArray::Result r =
        commit ? tags_.Access(l.op, l.last, l.addr) : tags_.Peek(l.op, l.last, l.addr);
    const int row = ts_.SetOf(l.addr) * ts_.ways + r.way;
    const Bits& old = lines_[row];
    const bool old_defined = line_defined_[row];
    const bool is_reg = l.op == TagArraySpec::kReadReg || l.op == TagArraySpec::kWriteReg;
    // A line never written since power-up has no defined value: whatever shows it is not
    // compared (the D checks below report it when the program could see it).
    auto undefined = [&](int port) {
      if (defined && !old_defined)
        (*defined)[port].set_slice(p * dw, Bits(dw));
    };
    if (commit) {
      if (!is_reg && ts_.InRegSpace(l.addr))
        Fail(fmt::format("contract: memory lookup {} addresses the reg-mem space ({:#x})", p,
                         l.addr));
      for (int q = 0; q < n; ++q) {
        if (mshr_[q].valid && (r.hit || r.filled) && mshr_[q].row == row)
          Fail(fmt::format("contract: lookup {} uses row {}, whose refill (id {}) is outstanding",
                           p, row, q));
      }
    }
    // Victim: a dirty line is written back, a register spilled, with the line's value.
    bool wr = false;
    uint64_t wr_addr = 0;
    Bits wr_data(dw);
    if (r.victim && r.victim_state == TagArraySpec::kDirty) {
      wr = true;
      wr_addr = r.victim_addr;
      wr_data = old;
      if (out)
        undefined(kMemWrData);
      if (commit) {
        ++write_backs_;
        if (!old_defined)
          Fail(fmt::format("D3: dirty line {:#x} written back without a value", r.victim_addr));
        else
          CheckValue("a write-back", r.victim_addr, old, false);
      }
    }
    if (r.victim && r.victim_state == TagArraySpec::kReg) {
      if (out) {
        (*out)[kSpillValid].set_bit(p, true);
        (*out)[kSpillAddr].set(p * aw, aw, r.victim_addr);
        (*out)[kSpillData].set_slice(p * dw, old);
        undefined(kSpillData);
      }
      if (commit) {
        ++spills_;
        if (!old_defined)
          Fail(fmt::format("D3: register line {:#x} spilled without a value", r.victim_addr));
        else
          CheckValue("a spill", r.victim_addr, old, true);
      }
    }
    switch (l.op) {
      case TagArraySpec::kReadReg:
      case TagArraySpec::kLoad:
        if (r.hit) {
          if (out) {
            (*out)[kRdValid].set_bit(p, true);
            (*out)[kRdData].set_slice(p * dw, old);
            undefined(kRdData);
          }
          if (commit)
            CheckValue(is_reg ? "a register read" : "a load hit", l.addr, old, is_reg);
        } else {
          const int port = is_reg ? kFillValid : kMemRdValid;
          if (out) {
            (*out)[port].set_bit(p, true);
            (*out)[port + 1].set(p * aw, aw, l.addr);
          }
          if (commit) {
            next_mshr[p] = Refill{true, !is_reg, r.filled, row, l.addr};
            ++(is_reg ? fills_ : l2_reads_);
          }
        }
        break;
      case TagArraySpec::kWriteReg:
        if (commit) {
          writes.push_back({row, l.data});
          arch_[l.addr] = l.data;
        }
        break;
      case TagArraySpec::kStore:
        if (commit)
          arch_[l.addr] = l.data;
        if (r.hit) {
          if (commit)
            writes.push_back({row, l.data});
        } else {
          wr = true;  // write-no-allocate: the store goes to L2
          wr_addr = l.addr;
          wr_data = l.data;
        }
        break;
    }
    if (wr && out) {
      (*out)[kMemWrValid].set_bit(p, true);
      (*out)[kMemWrAddr].set(p * aw, aw, wr_addr);
      (*out)[kMemWrData].set_slice(p * dw, wr_data);
    }
    cur[p].valid = false;
  }
  if (!commit)
    return;
  if (!tag_ready)
    conflict_cycles_ = (conflict_cycles_ + 1) & 0xffffffffULL;
  for (const Write& w : writes) {
    lines_[w.row] = w.data;
    line_defined_[w.row] = true;
  }
  mshr_ = next_mshr;
  pending_ = cur;
  if (!tags_.failure().empty())
    Fail(tags_.failure());
}

void CerfSystemModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  for (int p = kReqReady; p < kNumPorts; ++p) {
    if (p == kReqReady || p == kRdValid || p == kRdData || p == kMemRdValid || p == kMemRdAddr ||
        p == kMemWrValid || p == kMemWrAddr || p == kMemWrData || p == kSpillValid ||
        p == kSpillAddr || p == kSpillData || p == kFillValid || p == kFillAddr ||
        p == kConflictCycles) {
      out[p].clear();
      defined[p].fill_ones();
    }
  }
  if (!in[kRstN].bit(0))
    return;  // asynchronous reset: every output is zero while rst_ni is low
  Step(in, &out, &defined, false);
}

void CerfSystemModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    tags_.Reset();
    for (Lookup& l : pending_)
      l = Lookup{};
    for (Refill& r : mshr_)
      r = Refill{};
    conflict_cycles_ = 0;
    arch_.clear();  // the lines are lost: a program restarts from memory
    return;
  }
  Step(in, nullptr, nullptr, true);
}

std::string CerfSystemModel::Failure() const {
  return failure_;
}

GPURF_REGISTER(ModelFamily, cerf_system, "cerf-system",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<CerfSystemModel>(SpecAs<CerfSystemSpec>(s));
               }})

}  // namespace gpurf
