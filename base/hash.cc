#include "base/hash.h"

#include <fmt/format.h>

namespace gpurf {

uint64_t Fnv1a64(std::string_view data, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string HashHex(std::string_view data, int digits) {
  return fmt::format("{:016x}", Fnv1a64(data)).substr(0, static_cast<size_t>(digits));
}

}  // namespace gpurf
