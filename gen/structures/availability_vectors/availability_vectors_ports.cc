#include "gen/structures/availability_vectors/availability_vectors_ports.h"

#include "gen/vlog/expr.h"

namespace gpurf {

PortTable AvailabilityVectorsPortTable(const AvailabilityVectorsSpec& s) {
  using P = AvailabilityVectorsPort;
  using vlog::Msb;
  const int b = s.banks, r = s.release_ports;
  return PortTable({
      ClockPort(P::kClk),
      ResetPort(P::kRstN),
      {P::kAllocReq, "alloc_req_i", PortDir::kInput, b, Msb("NumBanks"), b, "allocate_request",
       "per bank: a free register of the bank is requested (held until granted or withdrawn)",
       "bank b requests a free register"},
      {P::kRelValid, "rel_valid_i", PortDir::kInput, r, Msb("NumRelPorts"), r, "release_valid",
       "per release port: an allocated register is returned", "release port p returns an id"},
      {P::kRelId, "rel_id_i", PortDir::kInput, r * s.id_bits, "NumRelPorts*IdBits-1", r,
       "release_id", "per release port: the physical id returned (row*NumBanks + bank)",
       "id of release port p at [p*IdBits +: IdBits]"},
      {P::kAllocGrant, "alloc_grant_o", PortDir::kOutput, b, Msb("NumBanks"), b, "allocate_grant",
       "per bank: the request is granted this cycle", "bank b grants alloc_id_o[b]"},
      {P::kAllocId, "alloc_id_o", PortDir::kOutput, b * s.id_bits, "NumBanks*IdBits-1", b,
       "allocate_id", "per bank: the granted physical id (0 when not granted)",
       "granted id of bank b at [b*IdBits +: IdBits]"},
      {P::kAllocNone, "alloc_none_o", PortDir::kOutput, b, Msb("NumBanks"), b, "allocate_none",
       "per bank: requested, and the bank has no free register", "bank b is full"},
      {P::kFreeCount, "free_count_o", PortDir::kOutput, b * s.count_bits, "NumBanks*CountBits-1", b,
       "free_count", "per bank: free registers",
       "free count of bank b at [b*CountBits +: "
       "CountBits]"},
      {P::kPowered, "powered_o", PortDir::kOutput, b * s.subarrays, "NumBanks*NumSub-1",
       b * s.subarrays, "powered_subarrays",
       "per bank and subarray: powered (bit b*NumSub + k), for the energy model",
       "subarray k of bank b is powered"},
      {P::kWaking, "waking_o", PortDir::kOutput, b, Msb("NumBanks"), b, "waking",
       "per bank: a subarray wake-up is in progress", "bank b is waking a subarray"},
  });
}

}  // namespace gpurf
