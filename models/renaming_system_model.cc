#include "models/renaming_system_model.h"

#include <fmt/format.h>

#include <algorithm>

#include "gen/structures/availability_vectors/availability_vectors_ports.h"
#include "gen/structures/cta_throttle/cta_throttle_ports.h"
#include "gen/structures/mrf/mrf_ports.h"
#include "gen/structures/release_flag_cache/release_flag_cache_ports.h"
#include "gen/structures/renaming_table/renaming_table_ports.h"
#include "models/availability_vectors_model.h"
#include "models/cta_throttle_model.h"
#include "models/mrf_model.h"
#include "models/registry.h"
#include "models/release_flag_cache_model.h"
#include "models/renaming_table_model.h"

namespace gpurf {

namespace {

// One sub-model with its input, output and defined vectors (built from its port table).
struct SubModel {
  std::unique_ptr<CycleModel> model;
  PortValues in, out, def;
  SubModel(std::unique_ptr<CycleModel> m, const PortTable& t)
      : model(std::move(m)), in(t.ZeroValues()), out(t.ZeroValues()), def(t.ZeroValues()) {}
  void Eval() { model->Outputs(in, out, def); }
  bool Out(int port, int bit = 0) const { return out[port].bit(bit); }
  uint64_t OutGet(int port, int lsb, int len) const { return out[port].get(lsb, len); }
  void Set(int port, uint64_t v) { in[port].set(0, in[port].width(), v); }
  void SetBits(int port, int lsb, int len, uint64_t v) { in[port].set(lsb, len, v); }
  void Copy(int port, const Bits& v) { in[port] = v; }
};

uint64_t Get(const PortValues& in, int port, int lsb = 0, int len = -1) {
  return in[port].get(lsb, len < 0 ? std::min(64, in[port].width()) : len);
}

}  // namespace

struct RenamingSystemModel::Sub {
  SubModel fc, rt, av, thr, mrf;
  explicit Sub(const RenamingSystemSpec& s)
      : fc(std::make_unique<ReleaseFlagCacheModel>(s.flags), ReleaseFlagCachePortTable(s.flags)),
        rt(std::make_unique<RenamingTableModel>(s.table), RenamingTablePortTable(s.table)),
        av(std::make_unique<AvailabilityVectorsModel>(s.avail),
           AvailabilityVectorsPortTable(s.avail)),
        thr(std::make_unique<CtaThrottleModel>(s.throttle), CtaThrottlePortTable(s.throttle)),
        mrf(std::make_unique<MrfModel>(s.mrf), MrfPortTable(s.mrf)) {}
};

// The request the renaming table serves (the model's own copy, for the system layer).
struct RenamingSystemModel::Cycle {
  bool reset = false;
  bool req_fire = false, instr_fire = false;
  int op = 0, warp = 0, cta = 0, dst_bank = 0;
  std::array<bool, 3> rel_bits{};
  bool rt_ready = false, stage_go = false, drained = false, ready = false, dst_ren = false;
  bool refused = false;  // an instr passed every gate but the throttle's grant
  bool held = false;     // an instr offered by a CTA the throttle holds (issue_ok_o low)
  int buf_alloc = 0;
  bool disp_fire = false, res_fire = false;
};

RenamingSystemModel::RenamingSystemModel(const RenamingSystemSpec& spec)
    : spec_(spec), sub_(std::make_unique<Sub>(spec)) {
  ResetState();
}

RenamingSystemModel::~RenamingSystemModel() = default;

void RenamingSystemModel::ResetState() {
  stage_ = Stage{};
  spare_valid_.assign(spec_.banks, false);
  spare_id_.assign(spec_.banks, 0);
  warp_q_ = 0;
  dst_bank_q_ = 0;
  dst_ren_q_ = false;
  entries_.assign(spec_.collectors(), Entry{});
  map_.clear();
  owner_.clear();
  free_.assign(spec_.banks, {});
  for (int b = 0; b < spec_.banks; ++b) {
    for (int row = 0; row < spec_.per_bank; ++row)
      free_[b].insert(spec_.avail.Id(b, row));
  }
  phys_value_.clear();
  arch_value_.clear();
}

void RenamingSystemModel::Fail(const std::string& what) {
  if (failure_.empty())
    failure_ = what;
}

RenamingSystemModel::Cycle RenamingSystemModel::Evaluate(const PortValues& in) {
  using RT = RenamingTablePort;
  using AV = AvailabilityVectorsPort;
  using FC = ReleaseFlagCachePort;
  using TH = CtaThrottlePort;
  using MP = MrfPort;
  Sub& u = *sub_;
  Cycle c;
  const bool rst_n = in[kRstN].bit(0);
  c.reset = !rst_n;
  for (SubModel* m : {&u.fc, &u.rt, &u.av, &u.thr, &u.mrf})
    m->Set(1, rst_n ? 1 : 0);  // port 1 is rst_ni in every port table

  const bool req_valid = in[kReqValid].bit(0);
  c.op = static_cast<int>(Get(in, kReqOp));
  const bool is_instr = c.op == RenamingSystemSpec::kInstr;
  c.warp = static_cast<int>(Get(in, kReqWarp));
  c.cta = c.warp < spec_.warps ? CtaOf(c.warp) : 0;
  const bool dst_valid = in[kReqDstValid].bit(0);
  const int dst_reg = static_cast<int>(Get(in, kReqDstReg));
  c.dst_bank = spec_.BankOfReg(dst_reg);
  const bool pir = in[kReqPirValid].bit(0);

  // Flag cache: looked up by every offered instr with a pir.
  u.fc.Set(FC::kFlush, in[kFlush].bit(0));
  u.fc.Set(FC::kLkValid, req_valid && is_instr && pir);
  u.fc.Copy(FC::kLkPc, in[kReqPirPc]);
  u.fc.Set(FC::kFillValid, in[kFillValid].bit(0));
  u.fc.Copy(FC::kFillPc, in[kFillPc]);
  u.fc.Copy(FC::kFillFlags, in[kFillFlags]);
  u.fc.Eval();
  const bool hit = u.fc.Out(FC::kLkHit);
  const int idx = static_cast<int>(Get(in, kReqPirIdx));
  for (int p = 0; p < 3; ++p)
    c.rel_bits[p] = pir && idx < spec_.group && u.fc.out[FC::kLkFlags].bit(3 * idx + p);

  // Throttle's answers from its state (no allocation offered yet).
  u.thr.Set(TH::kLaunchValid, in[kLaunchValid].bit(0));
  u.thr.Copy(TH::kLaunchSlot, in[kLaunchSlot]);
  u.thr.Copy(TH::kLaunchNeed, in[kLaunchNeed]);
  u.thr.Set(TH::kExitValid, in[kCtaExitValid].bit(0));
  u.thr.Copy(TH::kExitSlot, in[kCtaExitSlot]);
  u.thr.Set(TH::kAllocValid, 0);
  u.thr.Set(TH::kRelValid, 0);
  u.thr.Eval();
  const bool cta_ok = u.thr.out[TH::kIssueOk].bit(c.cta);

  // Table idle?
  u.rt.Set(RT::kExempt, spec_.exempt);
  u.rt.Set(RT::kReqValid, 0);
  u.rt.Eval();
  c.rt_ready = rst_n && u.rt.Out(RT::kReqReady);

  // Entries and the MRF (its issue does not depend on the request).
  c.buf_alloc = 0;
  for (int k = spec_.collectors() - 1; k >= 0; --k) {
    if (!entries_[k].busy)
      c.buf_alloc = k;
  }
  u.mrf.Set(MP::kIssueValid, stage_.valid && c.rt_ready);
  u.mrf.Set(MP::kIssueTag, c.buf_alloc);
  u.mrf.Set(MP::kIssueWarp, 0);
  for (int p = 0; p < 3; ++p) {
    u.mrf.SetBits(MP::kIssueSrcValid, p, 1, stage_.src_valid[p]);
    u.mrf.SetBits(MP::kIssueSrcReg, p * spec_.mrf.reg_width, spec_.mrf.reg_width,
                  stage_.src_phys[p]);
  }
  u.mrf.Set(MP::kWbValid, in[kResValid].bit(0));
  u.mrf.Set(MP::kWbWarp, 0);
  u.mrf.Copy(MP::kWbReg, in[kResPhys]);
  u.mrf.Copy(MP::kWbData, in[kResData]);
  u.mrf.Set(MP::kDispReady, in[kDispReady].bit(0));
  u.mrf.Eval();
  c.stage_go = stage_.valid && c.rt_ready && u.mrf.Out(MP::kIssueReady);

  // The gate (spec 1).
  const bool stage_free = !stage_.valid || c.stage_go;
  c.dst_ren = dst_valid && dst_reg >= spec_.exempt;
  const bool spare_ok = !c.dst_ren || spare_valid_[c.dst_bank];
  const bool flags_ok = !pir || hit;
  const bool instr_go =
      req_valid && is_instr && rst_n && c.rt_ready && stage_free && flags_ok && cta_ok && spare_ok;
  u.thr.Set(TH::kAllocValid, instr_go && c.dst_ren);
  u.thr.Set(TH::kAllocBank, c.dst_bank);
  u.thr.Set(TH::kAllocSlot, c.cta);
  u.thr.Eval();
  const bool grant = u.thr.Out(TH::kAllocGrant);
  c.refused = instr_go && c.dst_ren && !grant;
  c.held = req_valid && is_instr && rst_n && !cta_ok;
  const bool ready = rst_n && (is_instr ? (c.rt_ready && stage_free && flags_ok && cta_ok &&
                                           spare_ok && (!c.dst_ren || grant))
                                        : c.rt_ready);
  c.ready = ready;
  c.req_fire = req_valid && ready;
  c.instr_fire = c.req_fire && is_instr;

  // The renaming table serves the request.
  u.rt.Set(RT::kReqValid, c.req_fire);
  u.rt.Copy(RT::kReqOp, in[kReqOp]);
  u.rt.Copy(RT::kReqWarp, in[kReqWarp]);
  u.rt.Copy(RT::kSrcValid, in[kReqSrcValid]);
  u.rt.Copy(RT::kSrcReg, in[kReqSrcReg]);
  for (int p = 0; p < 3; ++p)
    u.rt.SetBits(RT::kSrcRelease, p, 1, c.rel_bits[p] && in[kReqSrcValid].bit(p));
  u.rt.Set(RT::kDstValid, dst_valid);
  u.rt.Copy(RT::kDstReg, in[kReqDstReg]);
  u.rt.Set(RT::kDstPhys, spec_.exempt_base + spare_id_[c.dst_bank]);
  u.rt.Copy(RT::kRelMask, in[kReqRelMask]);
  u.rt.Eval();

  // Releases to the vectors and the CTA's balance; spares refilled while drained.
  const int cur_warp = c.req_fire ? c.warp : warp_q_;
  const int cur_cta = cur_warp < spec_.warps ? CtaOf(cur_warp) : 0;
  const int cur_dst_bank = c.req_fire ? c.dst_bank : dst_bank_q_;
  bool any_busy = false;
  for (const Entry& e : entries_)
    any_busy = any_busy || e.busy;
  c.drained = !stage_.valid && !any_busy;
  const int tb = spec_.table.banks, pb = spec_.phys_bits, ib = spec_.avail.id_bits;
  const int sb = spec_.throttle.slot_bits, bb = spec_.throttle.bank_bits;
  for (int b = 0; b < spec_.banks; ++b)
    u.av.SetBits(AV::kAllocReq, b, 1, rst_n && c.drained && !spare_valid_[b]);
  u.thr.in[TH::kRelValid].clear();
  for (int j = 0; j < tb; ++j) {
    const bool v = u.rt.Out(RT::kFreeValid, j);
    const int phys = static_cast<int>(u.rt.OutGet(RT::kFreePhys, j * pb, pb));
    u.av.SetBits(AV::kRelValid, j, 1, v);
    u.av.SetBits(AV::kRelId, j * ib, ib,
                 static_cast<uint64_t>(phys - spec_.exempt_base) & ((uint64_t{1} << ib) - 1));
    u.thr.SetBits(TH::kRelValid, j, 1, v);
    u.thr.SetBits(TH::kRelSlot, j * sb, sb, cur_cta);
    u.thr.SetBits(TH::kRelBank, j * bb, bb, phys % spec_.banks);
  }
  u.thr.SetBits(TH::kRelValid, tb, 1,
                u.rt.Out(RT::kDstServed) && !u.rt.Out(RT::kDstAlloc) &&
                    (c.req_fire ? c.dst_ren : dst_ren_q_));
  u.thr.SetBits(TH::kRelSlot, tb * sb, sb, cur_cta);
  u.thr.SetBits(TH::kRelBank, tb * bb, bb, cur_dst_bank);
  u.av.Eval();
  u.thr.Eval();

  c.disp_fire = u.mrf.Out(MP::kDispValid) && in[kDispReady].bit(0);
  c.res_fire = in[kResValid].bit(0) && u.mrf.Out(MP::kWbReady);
  return c;
}

void RenamingSystemModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  using RT = RenamingTablePort;
  using AV = AvailabilityVectorsPort;
  using FC = ReleaseFlagCachePort;
  using TH = CtaThrottlePort;
  using MP = MrfPort;
  const Cycle c = Evaluate(in);
  Sub& u = *sub_;
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].clear();
    defined[i].fill_ones();
  }
  out[kReqReady].set_bit(0, c.ready);
  out[kReqFlagMiss] = u.fc.out[FC::kLkMiss];
  const bool dv = u.mrf.Out(MP::kDispValid);
  out[kDispValid].set_bit(0, dv);
  const int tag = static_cast<int>(u.mrf.OutGet(MP::kDispTag, 0, spec_.buf_index_width));
  const Entry& e = entries_[std::min(tag, spec_.collectors() - 1)];
  if (dv) {
    out[kDispTag].set(0, spec_.tag_width, e.tag);
    out[kDispWarp].set(0, spec_.warp_bits, e.warp);
    for (int p = 0; p < 3; ++p)
      out[kDispSrcValid].set_bit(p, e.src_valid[p]);
    out[kDispDstValid].set_bit(0, e.dst_valid);
    out[kDispDstPhys].set(0, spec_.phys_bits, e.dst_phys);
    if (!e.dst_valid)
      defined[kDispDstPhys].clear();  // no destination: the stage's stale id
  } else {
    // The RTL presents the entry the MRF's (undefined) tag selects: undefined.
    for (int port : {kDispTag, kDispWarp, kDispSrcValid, kDispDstValid, kDispDstPhys})
      defined[port].clear();
  }
  out[kDispData] = u.mrf.out[MP::kDispData];
  defined[kDispData] = u.mrf.def[MP::kDispData];
  if (!dv)
    defined[kDispData].clear();
  out[kResReady] = u.mrf.out[MP::kWbReady];
  out[kThrottle] = u.thr.out[TH::kThrottle];
  out[kIssueOk] = u.thr.out[TH::kIssueOk];
  out[kFreeCount] = u.av.out[AV::kFreeCount];
  for (int b = 0; b < spec_.banks; ++b)
    out[kSpareValid].set_bit(b, !c.reset && spare_valid_[b]);
  out[kFlagHits] = u.fc.out[FC::kHitCount];
  out[kFlagMisses] = u.fc.out[FC::kMissCount];
  out[kRenameConflicts] = u.rt.out[RT::kConflictCycles];
  // req_ready_o is the gate's answer whether or not a request is offered only for release and
  // exit; an instr's depends on the offer (flag lookup, throttle grant): defined as computed.
  if (!in[kReqValid].bit(0))
    defined[kReqReady].clear();
  // free_count agrees with the system layer's free sets (S2).
  if (!c.reset) {
    const int cb = spec_.avail.count_bits;
    for (int b = 0; b < spec_.banks; ++b) {
      const uint64_t hw = u.av.OutGet(AV::kFreeCount, b * cb, cb);
      if (hw != free_[b].size())
        Fail(
            fmt::format("S2 bank {}: the availability vector counts {} free registers, the "
                        "system holds {} free",
                        b, hw, free_[b].size()));
    }
  }
}

void RenamingSystemModel::Clock(const PortValues& in) {
  using RT = RenamingTablePort;
  using AV = AvailabilityVectorsPort;
  using TH = CtaThrottlePort;
  using MP = MrfPort;
  const Cycle c = Evaluate(in);
  Sub& u = *sub_;
  if (c.reset) {
    for (SubModel* m : {&u.fc, &u.rt, &u.av, &u.thr, &u.mrf})
      m->model->Clock(m->in);
    ResetState();
    return;
  }
  const int cur_warp = c.req_fire ? c.warp : warp_q_;
  const int cur_dst_bank = c.req_fire ? c.dst_bank : dst_bank_q_;
  const int pb = spec_.phys_bits;

  // S4: a throttled CTA never issues.
  if (u.thr.Out(TH::kThrottle))
    ++stats_.throttled_cycles;
  if (c.refused)
    ++stats_.throttle_refusals;
  if (c.held)
    ++stats_.issue_holds;
  if (c.instr_fire) {
    ++stats_.instrs;
    const bool res_valid = u.thr.Out(TH::kReservedValid);
    const int reserved = static_cast<int>(u.thr.OutGet(TH::kReserved, 0, spec_.throttle.slot_bits));
    if (u.thr.Out(TH::kThrottle) && (!res_valid || reserved != c.cta))
      Fail(fmt::format("S4 warp {} of CTA {} issued while the throttle holds every CTA but {}",
                       c.warp, c.cta, reserved));
  }
  if (c.req_fire && c.op == RenamingSystemSpec::kRelease)
    ++stats_.releases;
  if (c.req_fire && c.op == RenamingSystemSpec::kExit)
    ++stats_.exits;
  if (u.fc.Out(ReleaseFlagCachePort::kLkMiss))
    ++stats_.flag_misses;

  // The stage takes a new instr; its architected registers for the system layer.
  Stage next = stage_;
  if (c.instr_fire) {
    next = Stage{};
    next.valid = true;
    next.tag = Get(in, kReqTag);
    next.warp = c.warp;
    for (int p = 0; p < 3; ++p) {
      next.src_valid[p] = in[kReqSrcValid].bit(p);
      next.src_reg[p] = static_cast<int>(Get(in, kReqSrcReg, p * spec_.reg_bits, spec_.reg_bits));
    }
    next.dst_valid = in[kReqDstValid].bit(0);
    next.dst_reg = static_cast<int>(Get(in, kReqDstReg));
  } else if (c.stage_go) {
    next.valid = false;
  }

  // Sources answered this cycle (S3: a mapping that exists; the answer is the system's).
  const Stage& cur = c.instr_fire ? next : stage_;
  for (int p = 0; p < 3; ++p) {
    if (!u.rt.Out(RT::kSrcServed, p))
      continue;
    const int r = cur.src_reg[p];
    const int phys = static_cast<int>(u.rt.OutGet(RT::kSrcPhys, p * pb, pb));
    int want = -1;
    if (r < spec_.exempt) {
      want = spec_.ExemptPhys(cur_warp, r);
    } else if (auto it = map_.find({cur_warp, r}); it != map_.end()) {
      want = it->second;
    } else {
      Fail(
          fmt::format("S3 warp {} reads register r{} (slot {}), which holds no mapping: "
                      "released or never written",
                      cur_warp, r, p));
    }
    if (want >= 0 && (phys != want || !u.rt.Out(RT::kSrcMapped, p)))
      Fail(
          fmt::format("warp {} r{}: the renaming answers physical {} (mapped {}), the system "
                      "maps it to {}",
                      cur_warp, r, phys, u.rt.Out(RT::kSrcMapped, p), want));
    next.src_phys[p] = phys;
  }

  // Frees: the mapping the release names returns to its bank.
  for (int j = 0; j < spec_.table.banks; ++j) {
    if (!u.rt.Out(RT::kFreeValid, j))
      continue;
    const int phys = static_cast<int>(u.rt.OutGet(RT::kFreePhys, j * pb, pb));
    auto it = owner_.find(phys);
    if (it == owner_.end() || it->second.first != cur_warp) {
      Fail(fmt::format("S1 physical {} freed for warp {}, but it is not mapped to that warp", phys,
                       cur_warp));
      continue;
    }
    map_.erase(it->second);
    owner_.erase(it);
    const int id = phys - spec_.exempt_base;
    free_[spec_.avail.BankOf(id)].insert(id);
    ++stats_.frees;
  }

  // Destination: a first write maps the spare (S1), a later one keeps the mapping.
  if (u.rt.Out(RT::kDstServed)) {
    const int r = cur.dst_reg;
    const bool alloc = u.rt.Out(RT::kDstAlloc);
    const int phys = static_cast<int>(u.rt.OutGet(RT::kDstPhysOut, 0, pb));
    const bool renamed = r >= spec_.exempt;
    const bool first = renamed && !map_.count({cur_warp, r});
    if (alloc != first)
      Fail(fmt::format("warp {} r{}: the renaming {} a register, but the register {} mapped",
                       cur_warp, r, alloc ? "maps" : "does not map", first ? "is not" : "is"));
    if (alloc && first) {
      const int b = cur_dst_bank;
      const int want = spec_.exempt_base + spare_id_[b];
      if (!spare_valid_[b] || phys != want)
        Fail(fmt::format("S1 warp {} r{} mapped to physical {}, the spare of bank {} is {}",
                         cur_warp, r, phys, b, spare_valid_[b] ? want : -1));
      if (owner_.count(phys))
        Fail(fmt::format("S1 physical {} mapped twice: to warp {} r{} and warp {} r{}", phys,
                         owner_[phys].first, owner_[phys].second, cur_warp, r));
      map_[{cur_warp, r}] = phys;
      owner_[phys] = {cur_warp, r};
      ++stats_.maps;
    }
    const auto it = map_.find({cur_warp, r});
    next.dst_phys =
        r < spec_.exempt ? spec_.ExemptPhys(cur_warp, r) : (it != map_.end() ? it->second : phys);
    if (next.dst_phys != phys)
      Fail(fmt::format("warp {} r{}: destination physical {}, the system maps {}", cur_warp, r,
                       phys, next.dst_phys));
  }

  // Spares: consumed by a first write, refilled from the vectors (a free register of the bank).
  for (int b = 0; b < spec_.banks; ++b) {
    if (u.rt.Out(RT::kDstServed) && u.rt.Out(RT::kDstAlloc) && cur_dst_bank == b)
      spare_valid_[b] = false;
    if (u.av.Out(AV::kAllocGrant, b)) {
      const int id =
          static_cast<int>(u.av.OutGet(AV::kAllocId, b * spec_.avail.id_bits, spec_.avail.id_bits));
      if (!free_[b].count(id))
        Fail(fmt::format("S2 bank {}: the vector hands out id {}, which is not free", b, id));
      free_[b].erase(id);
      spare_valid_[b] = true;
      spare_id_[b] = id;
    }
  }
  stats_.max_mapped = std::max<uint64_t>(stats_.max_mapped, owner_.size());
  // S2: free + mapped + spare = Pb per bank.
  std::vector<int> mapped(spec_.banks, 0);
  for (const auto& [phys, o] : owner_)
    ++mapped[spec_.avail.BankOf(phys - spec_.exempt_base)];
  for (int b = 0; b < spec_.banks; ++b) {
    const int total = static_cast<int>(free_[b].size()) + mapped[b] + (spare_valid_[b] ? 1 : 0);
    if (total != spec_.per_bank)
      Fail(fmt::format("S2 bank {}: {} free + {} mapped + {} spare != {} registers", b,
                       free_[b].size(), mapped[b], spare_valid_[b] ? 1 : 0, spec_.per_bank));
  }

  // Results (values of physical and architected registers).
  if (c.res_fire) {
    ++stats_.results;
    const int phys = static_cast<int>(Get(in, kResPhys));
    const uint64_t v = Get(in, kResData);
    phys_value_[phys] = v;
    if (phys < spec_.exempt_base) {
      arch_value_[{phys / std::max(1, spec_.exempt), phys % std::max(1, spec_.exempt)}] = v;
    } else if (auto it = owner_.find(phys); it != owner_.end()) {
      arch_value_[it->second] = v;
    } else {
      Fail(fmt::format("a result writes physical {}, which no register maps", phys));
    }
  }

  // Dispatch: S5, each operand is the last value of its architected register at rename.
  if (c.disp_fire) {
    ++stats_.dispatched;
    const int tag = static_cast<int>(u.mrf.OutGet(MP::kDispTag, 0, spec_.buf_index_width));
    Entry& e = entries_[tag];
    const int w = std::min(64, spec_.width);
    for (int p = 0; p < 3; ++p) {
      if (!e.src_valid[p] || !e.expected[p])
        continue;
      const uint64_t got = u.mrf.out[MP::kDispData].get(p * spec_.width, w);
      const uint64_t want = *e.expected[p] & (w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1);
      ++stats_.operands_checked;
      if (got != want)
        Fail(
            fmt::format("S5 tag {} warp {} slot {}: operand {:#x}, the register's last value "
                        "{:#x}",
                        e.tag, e.warp, p, got, want));
    }
    e.busy = false;
  }
  if (c.stage_go) {
    Entry& e = entries_[c.buf_alloc];
    e = Entry{};
    e.busy = true;
    e.tag = stage_.tag;
    e.warp = stage_.warp;
    e.src_valid = stage_.src_valid;
    e.dst_valid = stage_.dst_valid;
    e.dst_phys = stage_.dst_phys;
    for (int p = 0; p < 3; ++p) {
      if (!stage_.src_valid[p])
        continue;
      const auto it = arch_value_.find({stage_.warp, stage_.src_reg[p]});
      if (it != arch_value_.end())
        e.expected[p] = it->second;
    }
  }

  if (c.req_fire) {
    warp_q_ = c.warp;
    dst_bank_q_ = c.dst_bank;
    dst_ren_q_ = c.dst_ren;
  }
  stage_ = next;
  for (SubModel* m : {&u.fc, &u.rt, &u.av, &u.thr, &u.mrf}) {
    m->model->Clock(m->in);
    const std::string f = m->model->Failure();
    if (!f.empty())
      Fail(f);
  }
}

GPURF_REGISTER(ModelFamily, renaming_system, "renaming-system",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<RenamingSystemModel>(SpecAs<RenamingSystemSpec>(s));
               }})

}  // namespace gpurf
