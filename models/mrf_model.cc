#include "models/mrf_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <tuple>

#include "gen/structures/mrf/mrf_spec.h"
#include "models/registry.h"

namespace gpurf {

MrfCore::MrfCore(const MrfSpec& spec)
    : spec_(spec),
      banks_(static_cast<size_t>(spec.banks),
             std::vector<Cell>(static_cast<size_t>(spec.rows), Cell{Bits(spec.width), false})),
      bank_out_(static_cast<size_t>(spec.banks), Cell{Bits(spec.width), false}),
      collectors_(static_cast<size_t>(spec.collectors)) {
  for (auto& c : collectors_) {
    for (auto& s : c.slots)
      s.data = Bits(spec.width);
  }
}

MrfCore::Location MrfCore::Locate(int warp, int reg) const {
  // Gebhart 2.1: registers interleaved across the banks; every warp owns
  // ceil(regs / banks) consecutive rows of every bank. The swizzled variant rotates the bank by
  // the warp id. Row addresses are as wide as the bank's address port.
  const long long per_warp = (spec_.regs + spec_.banks - 1) / spec_.banks;
  const long long lane =
      spec_.interleave == MrfSpec::Interleave::kRegister ? reg : static_cast<long long>(warp) + reg;
  Location l;
  l.bank = static_cast<int>(lane % spec_.banks);
  l.row = static_cast<int>((warp * per_warp + reg / spec_.banks) % (1LL << spec_.row_addr_width));
  return l;
}

bool MrfCore::InRange(const Location& l) const {
  return l.bank >= 0 && l.bank < spec_.banks && l.row >= 0 && l.row < spec_.rows;
}

MrfCore::View MrfCore::Evaluate(const MrfIssue& issue, const MrfWriteBack& wb, bool reset) const {
  View v;
  EvaluateInto(issue, wb, reset, v);
  return v;
}

void MrfCore::EvaluateInto(const MrfIssue& issue, const MrfWriteBack& wb, bool reset,
                           View& v) const {
  (void)issue;
  // A default View, keeping the storage of v's vectors (a copy of an empty Bits keeps it too).
  static const Bits kNoData;
  v.issue_ready = false;
  v.alloc = -1;
  v.wb_ready = false;
  v.disp.valid = false;
  v.disp.tag = 0;
  v.disp.warp = 0;
  v.disp.src_valid = {};
  for (Bits& d : v.disp.data)
    d = kNoData;
  v.disp.defined = {};
  v.disp_collector = -1;
  v.requests = 0;
  v.grants.clear();
  if (reset)
    return;  // every collector free, nothing accepted, nothing to dispatch

  for (int k = 0; k < spec_.collectors && v.alloc < 0; ++k) {
    if (!collectors_[k].busy)
      v.alloc = k;
  }
  v.issue_ready = v.alloc >= 0;

  // Operands waiting for a read, oldest instruction first, then slot A, B, C.
  // (Fixed-size scratch: at most 8 collectors x 3 slots waiting, at most 64 banks.)
  std::array<std::tuple<uint64_t, int, int>, 8 * 3> waiting;  // (age, slot, collector)
  size_t n_waiting = 0;
  for (int k = 0; k < spec_.collectors; ++k) {
    const Collector& c = collectors_[k];
    if (!c.busy)
      continue;
    for (int s = 0; s < 3; ++s) {
      if (c.slots[s].state == SlotState::kNeed)
        waiting[n_waiting++] = {c.age, s, k};
    }
  }
  std::sort(waiting.begin(), waiting.begin() + static_cast<std::ptrdiff_t>(n_waiting));
  v.requests = static_cast<int>(n_waiting);

  const Location wl = Locate(wb.warp, wb.reg);
  const bool write_first = spec_.wb_policy == MrfSpec::WbPolicy::kWritePriority;
  std::array<bool, 64> bank_taken{};
  bool wb_blocked = false;
  for (size_t i = 0; i < n_waiting; ++i) {
    const auto& [age, s, k] = waiting[i];
    const Location& l = collectors_[k].slots[s].loc;
    if (bank_taken[l.bank] && fault_ != Fault::kTwoReadsPerBank)
      continue;  // this bank already serves an older operand: a bank conflict
    const bool row_written = wb.valid && l.bank == wl.bank && l.row == wl.row;
    if (row_written && write_first && fault_ != Fault::kReadWriteSameRow)
      continue;  // the write-back has the row this cycle
    bank_taken[l.bank] = true;
    v.grants.emplace_back(k, s);
    if (row_written && fault_ != Fault::kReadWriteSameRow)
      wb_blocked = true;  // read-priority: the write waits for this read
  }
  v.wb_ready = !wb_blocked;

  // Dispatch: the oldest collector whose valid operands are all buffered.
  for (int k = 0; k < spec_.collectors; ++k) {
    const Collector& c = collectors_[k];
    if (!c.busy)
      continue;
    const bool early = fault_ == Fault::kDispatchEarly;
    const bool complete = std::all_of(c.slots.begin(), c.slots.end(), [&](const Slot& s) {
      return s.state == SlotState::kNone || s.state == SlotState::kHave ||
             (early && s.state == SlotState::kInflight);
    });
    if (complete && (v.disp_collector < 0 || c.age < collectors_[v.disp_collector].age))
      v.disp_collector = k;
  }
  if (v.disp_collector >= 0) {
    const Collector& c = collectors_[v.disp_collector];
    v.disp.valid = true;
    v.disp.tag = c.tag;
    v.disp.warp = c.warp;
    for (int s = 0; s < 3; ++s) {
      v.disp.src_valid[s] = c.slots[s].state != SlotState::kNone;
      v.disp.data[s] = c.slots[s].data;
      v.disp.defined[s] = v.disp.src_valid[s] && c.slots[s].defined;
    }
  }
}

void MrfCore::Step(const MrfIssue& issue, const MrfWriteBack& wb, bool disp_ready, bool reset,
                   View* seen) {
  if (reset) {
    for (auto& c : collectors_) {
      c.busy = false;
      for (auto& s : c.slots)
        s.state = SlotState::kNone;
    }
    counters_ = MrfCounters{};
    return;  // banks and their output registers keep their contents
  }
  View local;
  View& v = seen != nullptr ? *seen : local;
  EvaluateInto(issue, wb, false, v);
  if (const std::string bad = CheckInvariants(v, wb); !bad.empty())
    throw std::logic_error("MRF model invariant violated: " + bad);
  const bool wb_fire = wb.valid && v.wb_ready;
  const bool dispatch = v.disp.valid && disp_ready;
  const bool accept = issue.valid && v.issue_ready;
  for (MrfCounters* c : {&counters_, &totals_}) {
    c->reads += v.grants.size();
    c->conflicts += static_cast<uint64_t>(v.requests) - v.grants.size();
    c->writes += wb_fire ? 1 : 0;
    c->issue_stalls += issue.valid && !v.issue_ready ? 1 : 0;
    c->wb_stalls += wb.valid && !v.wb_ready ? 1 : 0;
    c->dispatched += dispatch ? 1 : 0;
    c->issued += accept ? 1 : 0;
  }

  // Last cycle's reads arrive from the bank outputs.
  for (auto& c : collectors_) {
    for (auto& s : c.slots) {
      if (s.state == SlotState::kInflight) {
        s.data = bank_out_[s.loc.bank].value;
        s.defined = bank_out_[s.loc.bank].defined;
        s.state = SlotState::kHave;
      }
    }
  }
  // This cycle's reads: each bank latches the granted row (the arbitration never lets a row be
  // read and written in one cycle).
  for (const auto& [k, s] : v.grants) {
    Slot& slot = collectors_[k].slots[s];
    bank_out_[slot.loc.bank] =
        InRange(slot.loc) ? banks_[slot.loc.bank][slot.loc.row] : Cell{Bits(spec_.width), false};
    slot.state = SlotState::kInflight;
  }
  if (wb_fire) {
    const Location l = Locate(wb.warp, wb.reg);
    if (InRange(l))
      banks_[l.bank][l.row] = Cell{wb.data, true};
  }
  if (dispatch) {
    Collector& c = collectors_[v.disp_collector];
    c.busy = false;
    for (auto& s : c.slots)
      s.state = SlotState::kNone;
  }
  if (accept) {
    Collector& c = collectors_[v.alloc];
    c.busy = true;
    c.age = next_age_++;
    c.tag = issue.tag;
    c.warp = issue.warp;
    for (int s = 0; s < 3; ++s) {
      c.slots[s].state = issue.src_valid[s] ? SlotState::kNeed : SlotState::kNone;
      c.slots[s].loc = Locate(issue.warp, issue.src_reg[s]);
      c.slots[s].defined = false;
    }
  }
}

std::string MrfCore::CheckInvariants(const View& v, const MrfWriteBack& wb) const {
  std::array<bool, 64> bank_read{};  // at most 64 banks (MrfSpec)
  const Location wl = Locate(wb.warp, wb.reg);
  for (const auto& [k, s] : v.grants) {
    const Slot& slot = collectors_[k].slots[s];
    if (!collectors_[k].busy || slot.state != SlotState::kNeed)
      return fmt::format("collector {} slot {} granted a read it did not wait for", k, s);
    if (bank_read[slot.loc.bank])
      return fmt::format("bank {} serves two reads in one cycle", slot.loc.bank);
    bank_read[slot.loc.bank] = true;
    if (wb.valid && v.wb_ready && slot.loc.bank == wl.bank && slot.loc.row == wl.row)
      return fmt::format("bank {} row {} read and written in one cycle", wl.bank, wl.row);
  }
  if (v.disp.valid) {
    const Collector& c = collectors_[v.disp_collector];
    for (int s = 0; s < 3; ++s) {
      if (c.slots[s].state != SlotState::kNone && c.slots[s].state != SlotState::kHave)
        return fmt::format("collector {} dispatched before its slot {} operand arrived",
                           v.disp_collector, s);
    }
  }
  return "";
}

std::optional<Bits> MrfCore::Register(int warp, int reg) const {
  const Location l = Locate(warp, reg);
  if (!InRange(l) || !banks_[l.bank][l.row].defined)
    return std::nullopt;
  return banks_[l.bank][l.row].value;
}

int MrfCore::BusyCollectors() const {
  return static_cast<int>(std::count_if(collectors_.begin(), collectors_.end(),
                                        [](const Collector& c) { return c.busy; }));
}

// ------------------------------------------------------------------------ CycleModel adapter

MrfModel::MrfModel(const MrfSpec& spec) : spec_(spec), core_(spec) {}

MrfIssue MrfModel::DecodeIssue(const MrfSpec& s, const PortValues& in) {
  MrfIssue i;
  i.valid = in[kIssueValid].bit(0);
  i.tag = in[kIssueTag].get(0, s.tag_width);
  i.warp = static_cast<int>(in[kIssueWarp].get(0, s.warp_width));
  for (int k = 0; k < 3; ++k) {
    i.src_valid[k] = in[kIssueSrcValid].bit(k);
    i.src_reg[k] = static_cast<int>(in[kIssueSrcReg].get(k * s.reg_width, s.reg_width));
  }
  return i;
}

MrfWriteBack MrfModel::DecodeWriteBack(const MrfSpec& s, const PortValues& in) {
  MrfWriteBack w;
  w.valid = in[kWbValid].bit(0);
  w.warp = static_cast<int>(in[kWbWarp].get(0, s.warp_width));
  w.reg = static_cast<int>(in[kWbReg].get(0, s.reg_width));
  w.data = in[kWbData];
  return w;
}

void MrfModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  const bool reset = !in[kRstN].bit(0);
  const MrfCore::View v = core_.Evaluate(DecodeIssue(spec_, in), DecodeWriteBack(spec_, in), reset);
  auto flag = [&](Port p, bool value) {
    out[p] = Bits(1, value ? 1 : 0);
    defined[p] = Bits(1, 1);
  };
  flag(kIssueReady, v.issue_ready);
  flag(kWbReady, v.wb_ready);
  flag(kDispValid, v.disp.valid);
  out[kDispTag].clear();
  out[kDispWarp].clear();
  out[kDispSrcValid].clear();
  out[kDispData].clear();
  if (v.disp.valid) {
    out[kDispTag].set(0, spec_.tag_width, v.disp.tag);
    defined[kDispTag].fill_ones();
    out[kDispWarp].set(0, spec_.warp_width, static_cast<uint64_t>(v.disp.warp));
    defined[kDispWarp].fill_ones();
    Bits ones(spec_.width);
    ones.fill_ones();
    for (int s = 0; s < 3; ++s) {
      out[kDispSrcValid].set_bit(s, v.disp.src_valid[s]);
      out[kDispData].set_slice(s * spec_.width, v.disp.data[s]);
      if (v.disp.defined[s])
        defined[kDispData].set_slice(s * spec_.width, ones);
    }
    defined[kDispSrcValid].fill_ones();
  }
  // Counters are registers: this cycle shows the events of earlier cycles (zero in reset).
  const MrfCounters c = reset ? MrfCounters{} : core_.counters();
  const int cw = spec_.counter_width;
  auto counter = [&](Port p, uint64_t value) {
    out[p].clear();
    out[p].set(0, cw, cw >= 64 ? value : value & ((uint64_t{1} << cw) - 1));
    defined[p].fill_ones();
  };
  counter(kCntReads, c.reads);
  counter(kCntWrites, c.writes);
  counter(kCntConflicts, c.conflicts);
  counter(kCntIssueStalls, c.issue_stalls);
  counter(kCntWbStalls, c.wb_stalls);
}

void MrfModel::Clock(const PortValues& in) {
  core_.Step(DecodeIssue(spec_, in), DecodeWriteBack(spec_, in), in[kDispReady].bit(0),
             !in[kRstN].bit(0));
}

GPURF_REGISTER(ModelFamily, mrf, "mrf",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<MrfModel>(SpecAs<MrfSpec>(s));
               }})

}  // namespace gpurf
