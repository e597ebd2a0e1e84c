// The contract every gpurf fuzz target checks: a parser given any bytes either returns or throws
// gpurf::InputError (bad input, exit 2 in the CLI). Any other exception escaping it is a bug;
// it is reported with its type and message and the process aborts, so libFuzzer saves the input
// as a crash-* artefact. Crashes, sanitizer reports, timeouts and out-of-memory are caught by
// libFuzzer itself.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <typeinfo>

#include "base/diag.h"

namespace gpurf::fuzz {

inline std::string AsText(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// Runs `f`; swallows InputError (after checking that its message can be built and read), aborts
// on any other exception.
template <typename F>
void ParsesOrRejects(const char* what, F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    // The message is what the user sees: it must be a non-empty line.
    const std::string msg = e.what();
    if (msg.empty()) {
      std::fprintf(stderr, "fuzz contract: %s threw an InputError with an empty message\n", what);
      std::abort();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz contract: %s threw %s (not gpurf::InputError): %s\n", what,
                 typeid(e).name(), e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "fuzz contract: %s threw a non-std exception\n", what);
    std::abort();
  }
}

}  // namespace gpurf::fuzz
