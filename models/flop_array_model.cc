#include "models/flop_array_model.h"

#include "gen/structures/flop_array/flop_array_spec.h"
#include "models/registry.h"

namespace gpurf {

FlopArrayModel::FlopArrayModel(const FlopArraySpec& spec)
    : spec_(spec),
      mem_(static_cast<size_t>(spec.entries), Bits(spec.width)),
      defined_(static_cast<size_t>(spec.entries), false),
      read_reg_(static_cast<size_t>(spec.read_ports), Value{Bits(spec.width), false}) {}

FlopArrayModel::Value FlopArrayModel::Stored(uint64_t addr) const {
  if (addr >= static_cast<uint64_t>(spec_.entries))
    return {Bits(spec_.width), false};  // misuse
  return {mem_[addr], defined_[addr]};
}

FlopArrayModel::Value FlopArrayModel::AfterWrites(uint64_t addr, const PortValues& in) const {
  Value v = Stored(addr);
  if (addr >= static_cast<uint64_t>(spec_.entries))
    return v;
  const int aw = spec_.addr_width;
  for (int w = 0; w < spec_.write_ports; ++w) {
    if (in[kWe].bit(w) && in[kWaddr].get(w * aw, aw) == addr) {
      v.data = in[kWdata].slice(w * spec_.width, spec_.width);
      v.defined = true;
    }
  }
  return v;
}

void FlopArrayModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  Bits& rdata = out[kRdata];
  Bits& known = defined[kRdata];
  const Bits ones = [&] {
    Bits b(spec_.width);
    b.fill_ones();
    return b;
  }();
  const Bits zeros(spec_.width);
  const bool in_reset = !in[kRstN].bit(0);
  for (int p = 0; p < spec_.read_ports; ++p) {
    Value v;
    if (spec_.registered()) {
      // Asynchronous reset clears the read register at once.
      v = in_reset ? Value{Bits(spec_.width), true} : read_reg_[p];
    } else {
      const uint64_t a = in[kRaddr].get(p * spec_.addr_width, spec_.addr_width);
      v = spec_.bypass ? AfterWrites(a, in) : Stored(a);
      ++reads_;
    }
    rdata.set_slice(p * spec_.width, v.data);
    known.set_slice(p * spec_.width, v.defined ? ones : zeros);
  }
}

void FlopArrayModel::Clock(const PortValues& in) {
  const int aw = spec_.addr_width;
  if (spec_.registered()) {
    const bool in_reset = !in[kRstN].bit(0);
    for (int p = 0; p < spec_.read_ports; ++p) {
      const uint64_t a = in[kRaddr].get(p * aw, aw);
      if (in_reset) {
        read_reg_[p] = {Bits(spec_.width), true};
      } else {
        read_reg_[p] = spec_.bypass ? AfterWrites(a, in) : Stored(a);
        ++reads_;
      }
    }
  }
  // Writes in ascending port order: the highest-numbered port writing an entry wins. Storage
  // has no reset, so writes happen whatever rst_ni is.
  for (int w = 0; w < spec_.write_ports; ++w) {
    if (!in[kWe].bit(w))
      continue;
    const uint64_t a = in[kWaddr].get(w * aw, aw);
    if (a >= static_cast<uint64_t>(spec_.entries))
      continue;  // misuse: no entry is written
    mem_[a] = in[kWdata].slice(w * spec_.width, spec_.width);
    defined_[a] = true;
    ++writes_;
  }
}

GPURF_REGISTER(ModelFamily, flop_array, "flop-array",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<FlopArrayModel>(SpecAs<FlopArraySpec>(s));
               }})

}  // namespace gpurf
