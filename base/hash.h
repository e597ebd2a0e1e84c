// Stable content hashing for config hashes, module-name suffixes and build caches.
// FNV-1a 64: not cryptographic, but stable across platforms and runs, which is what a
// reproducible generator needs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gpurf {

uint64_t Fnv1a64(std::string_view data, uint64_t seed = 0xcbf29ce484222325ULL);
// Lower-case hex of the hash, truncated to `digits` characters (1..16).
std::string HashHex(std::string_view data, int digits = 16);

}  // namespace gpurf
