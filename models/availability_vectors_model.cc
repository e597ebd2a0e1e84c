#include "models/availability_vectors_model.h"

#include <fmt/format.h>

#include <set>

#include "models/registry.h"

namespace gpurf {

AvailabilityVectorsModel::AvailabilityVectorsModel(const AvailabilityVectorsSpec& spec)
    : spec_(spec) {
  Reset();
}

void AvailabilityVectorsModel::Reset() {
  banks_.assign(static_cast<size_t>(spec_.banks), {});
  for (Bank& b : banks_) {
    b.allocated.assign(static_cast<size_t>(spec_.regs_per_bank), false);
    b.powered.assign(static_cast<size_t>(spec_.subarrays), false);
    b.free = spec_.regs_per_bank;
  }
}

bool AvailabilityVectorsModel::SubarrayEmpty(const Bank& b, int sub) const {
  for (int r = sub * spec_.sub_rows; r < (sub + 1) * spec_.sub_rows; ++r) {
    if (b.allocated[r])
      return false;
  }
  return true;
}

int AvailabilityVectorsModel::GrantRow(int bank) const {
  // Fill the powered subarrays in order: the lowest powered subarray with a free row.
  const Bank& b = banks_[bank];
  for (int k = 0; k < spec_.subarrays; ++k) {
    if (!b.powered[k])
      continue;
    for (int r = k * spec_.sub_rows; r < (k + 1) * spec_.sub_rows; ++r) {
      if (!b.allocated[r])
        return r;
    }
  }
  return -1;
}

void AvailabilityVectorsModel::Outputs(const PortValues& in, PortValues& out, PortValues& defined) {
  for (int p = kAllocGrant; p < kNumPorts; ++p) {
    out[p].clear();
    defined[p].fill_ones();
  }
  const bool run = in[kRstN].bit(0);
  for (int bank = 0; bank < spec_.banks; ++bank) {
    const Bank& b = run ? banks_[bank] : Bank{};
    const int free = run ? b.free : spec_.regs_per_bank;
    out[kFreeCount].set(bank * spec_.count_bits, spec_.count_bits, static_cast<uint64_t>(free));
    if (!run)
      continue;
    for (int k = 0; k < spec_.subarrays; ++k)
      out[kPowered].set_bit(bank * spec_.subarrays + k, b.powered[k]);
    out[kWaking].set_bit(bank, b.wake_sub >= 0);
    if (!in[kAllocReq].bit(bank))
      continue;
    out[kAllocNone].set_bit(bank, free == 0);
    const int row = GrantRow(bank);
    if (row >= 0) {
      out[kAllocGrant].set_bit(bank, true);
      out[kAllocId].set(bank * spec_.id_bits, spec_.id_bits,
                        static_cast<uint64_t>(spec_.Id(bank, row)));
    }
  }
}

void AvailabilityVectorsModel::Clock(const PortValues& in) {
  if (!in[kRstN].bit(0)) {
    Reset();
    return;
  }
  // Releases of this cycle (C1: allocated, in range, once).
  std::vector<std::vector<int>> released(static_cast<size_t>(spec_.banks));
  std::set<uint64_t> named;
  for (int p = 0; p < spec_.release_ports; ++p) {
    if (!in[kRelValid].bit(p))
      continue;
    const uint64_t id = in[kRelId].get(p * spec_.id_bits, spec_.id_bits);
    const int bank = static_cast<int>(id % static_cast<uint64_t>(spec_.banks));
    const uint64_t row = id / static_cast<uint64_t>(spec_.banks);
    if (!named.insert(id).second) {
      Fail(fmt::format("C1 violated: physical {} released by two ports in one cycle", id));
    } else if (row >= static_cast<uint64_t>(spec_.regs_per_bank)) {
      Fail(fmt::format("C1 violated: release of physical {}, beyond the {} registers", id,
                       spec_.PhysRegs()));
    } else if (!banks_[bank].allocated[row]) {
      Fail(fmt::format("C1 violated: release of physical {}, which is free", id));
    } else {
      released[bank].push_back(static_cast<int>(row));
    }
  }
  for (int bank = 0; bank < spec_.banks; ++bank) {
    Bank& b = banks_[bank];
    const bool req = in[kAllocReq].bit(bank);
    const int row = GrantRow(bank);
    bool start_wake = false;
    int wake_target = -1;
    if (req && row >= 0) {
      // I2: the grant is free and powered.
      if (b.allocated[row] || !b.powered[spec_.SubarrayOf(row)])
        Fail(fmt::format("I2 violated: bank {} granted row {}, not a free powered row", bank, row));
      b.allocated[row] = true;
      --b.free;
    } else if (req && b.free > 0 && b.wake_sub < 0) {
      // Wake the lowest gated subarray (gated subarrays are empty).
      for (int k = 0; k < spec_.subarrays && wake_target < 0; ++k) {
        if (!b.powered[k])
          wake_target = k;
      }
      start_wake = wake_target >= 0;
    }
    for (int r : released[bank]) {
      b.allocated[r] = false;
      ++b.free;
    }
    // Gate the powered subarrays that hold nothing now.
    for (int k = 0; k < spec_.subarrays; ++k) {
      if (b.powered[k] && SubarrayEmpty(b, k))
        b.powered[k] = false;
    }
    // Wake-ups: the one in progress ends, or the new one starts (W cycles of stall).
    if (b.wake_sub >= 0) {
      if (--b.wake_left == 0) {
        b.powered[b.wake_sub] = true;
        b.wake_sub = -1;
      }
    } else if (start_wake) {
      ++wakeups_;
      if (spec_.wake_cycles == 1) {
        b.powered[wake_target] = true;
      } else {
        b.wake_sub = wake_target;
        b.wake_left = spec_.wake_cycles - 1;
      }
    }
    // I1 and I3 on the state after the edge.
    int allocated = 0;
    for (bool a : b.allocated)
      allocated += a ? 1 : 0;
    if (b.free + allocated != spec_.regs_per_bank)
      Fail(fmt::format("I1 violated: bank {} free count {} + allocated {} != {}", bank, b.free,
                       allocated, spec_.regs_per_bank));
    for (int k = 0; k < spec_.subarrays; ++k) {
      if (!b.powered[k] && !SubarrayEmpty(b, k))
        Fail(fmt::format("I3 violated: bank {} subarray {} gated while holding a register", bank,
                         k));
    }
  }
}

GPURF_REGISTER(ModelFamily, availability_vectors, "availability-vectors",
               ModelFamily{[](const StructureSpec& s) -> std::unique_ptr<CycleModel> {
                 return std::make_unique<AvailabilityVectorsModel>(
                     SpecAs<AvailabilityVectorsSpec>(s));
               }})

}  // namespace gpurf
