#include "models/orf_model.h"

#include <fmt/format.h>

#include "gen/structures/orf/orf_spec.h"
#include "models/registry.h"

namespace gpurf {

OperandRegisterFile::OperandRegisterFile(const OrfSpec& spec)
    : spec_(spec),
      data_(static_cast<size_t>(spec.active_warps) * spec.entries, Bits(spec.width)),
      valid_(static_cast<size_t>(spec.active_warps) * spec.entries, false) {
  for (auto& r : read_reg_)
    r = {Bits(spec.width), true};
}

void OperandRegisterFile::Write(int slot, int entry, const Bits& data) {
  if (!InRange(slot, entry)) {
    Misuse(fmt::format("write of slot {} entry {} out of range", slot, entry));
    return;
  }
  data_[Index(slot, entry)] = data;
  valid_[Index(slot, entry)] = true;
  ++writes_;
}

void OperandRegisterFile::Invalidate(int slot) {
  if (slot < 0 || slot >= spec_.active_warps) {
    Misuse(fmt::format("invalidation of slot {} out of range", slot));
    return;
  }
  for (int e = 0; e < spec_.entries; ++e)
    valid_[Index(slot, e)] = false;
  ++invalidations_;
}

bool OperandRegisterFile::IsValid(int slot, int entry) const {
  return InRange(slot, entry) && valid_[Index(slot, entry)];
}

OperandRegisterFile::Value OperandRegisterFile::Peek(int slot, int entry) const {
  if (!IsValid(slot, entry))
    return {Bits(spec_.width), false};
  return {data_[Index(slot, entry)], true};
}

OperandRegisterFile::Value OperandRegisterFile::Lookup(int port, const ReadReq& r,
                                                       const CycleReq& req) const {
  // A split L0 port is wired to its own bank: the entry it reads is the port.
  const int entry = spec_.split ? port : r.entry;
  if (spec_.bypass() && req.write && req.write_slot == r.slot && req.write_entry == entry &&
      InRange(r.slot, entry)) {
    return {req.write_data, true};
  }
  return Peek(r.slot, entry);
}

std::array<OperandRegisterFile::Value, OperandRegisterFile::kPorts> OperandRegisterFile::ReadPorts(
    const CycleReq& req) const {
  if (spec_.registered())
    return read_reg_;
  std::array<Value, kPorts> out;
  for (int p = 0; p < kPorts; ++p)
    out[p] = Lookup(p, req.reads[p], req);
  return out;
}

void OperandRegisterFile::Misuse(const std::string& what) {
  if (misuses_++ == 0)
    first_misuse_ = what;
}

void OperandRegisterFile::Clock(const CycleReq& req) {
  for (int p = 0; p < kPorts; ++p) {
    const ReadReq& r = req.reads[p];
    const Value v = Lookup(p, r, req);
    if (spec_.registered())
      read_reg_[p] = v;
    if (!r.enable)
      continue;
    ++reads_;
    if (!InRange(r.slot, r.entry)) {
      Misuse(fmt::format("read port {}: slot {} entry {} out of range", p, r.slot, r.entry));
    } else if (spec_.split && r.entry != p) {
      Misuse(fmt::format("read port {} names L0 bank {}; a split L0 port reads only its own bank",
                         p, r.entry));
    } else if (!v.valid) {
      Misuse(
          fmt::format("read port {} reads invalid entry (slot {}, entry {})", p, r.slot, r.entry));
    }
  }
  if (req.write)
    Write(req.write_slot, req.write_entry, req.write_data);
  if (req.invalidate)
    Invalidate(req.invalidate_slot);  // after the write: it wins over a write to its slot
}

void OperandRegisterFile::Reset() {
  valid_.assign(valid_.size(), false);
  for (auto& r : read_reg_)
    r = {Bits(spec_.width), true};
}

// ------------------------------------------------------------------------------ cycle adapter

OrfCycleModel::OrfCycleModel(const OrfSpec& spec) : orf_(spec) {}

OperandRegisterFile::CycleReq OrfCycleModel::RequestOf(const PortValues& in) const {
  const OrfSpec& s = orf_.spec();
  OperandRegisterFile::CycleReq r;
  for (int p = 0; p < OperandRegisterFile::kPorts; ++p) {
    r.reads[p].enable = in[kRe].bit(p);
    r.reads[p].slot = static_cast<int>(in[kRslot].get(p * s.slot_width, s.slot_width));
    r.reads[p].entry = static_cast<int>(in[kRentry].get(p * s.entry_width, s.entry_width));
  }
  r.write = in[kWe].bit(0);
  r.write_slot = static_cast<int>(in[kWslot].get(0, s.slot_width));
  r.write_entry = static_cast<int>(in[kWentry].get(0, s.entry_width));
  r.write_data = in[kWdata];
  r.invalidate = in[kInv].bit(0);
  r.invalidate_slot = static_cast<int>(in[kInvSlot].get(0, s.slot_width));
  return r;
}

void OrfCycleModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  if (!in[kRstN].bit(0))
    orf_.Reset();  // asynchronous: validity and read registers clear at once
  const int w = orf_.spec().width;
  Bits ones(w);
  ones.fill_ones();
  const auto values = orf_.ReadPorts(RequestOf(in));
  for (int p = 0; p < OperandRegisterFile::kPorts; ++p) {
    out[kRdata].set_slice(p * w, values[p].data);
    defined[kRdata].set_slice(p * w, values[p].valid ? ones : Bits(w));
  }
}

void OrfCycleModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    // A write during reset may reach the storage (it has no reset), but its entry stays
    // invalid, so its data is never defined: nothing to model.
    orf_.Reset();
    return;
  }
  orf_.Clock(RequestOf(in));
}

GPURF_REGISTER(ModelFamily, orf_l1, "orf-l1",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<OrfCycleModel>(SpecAs<OrfSpec>(s));
               }})
GPURF_REGISTER(ModelFamily, orf_l0, "orf-l0",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<OrfCycleModel>(SpecAs<OrfSpec>(s));
               }})

}  // namespace gpurf
