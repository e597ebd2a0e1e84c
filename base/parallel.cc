#include "base/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace gpurf {

size_t ParallelThreads(size_t n, int jobs) {
  return std::min(n, static_cast<size_t>(std::max(1, jobs)));
}

void ParallelFor(size_t n, int jobs, const std::function<void(size_t)>& body) {
  std::vector<std::exception_ptr> errors(n);
  std::atomic<size_t> next{0};
  const auto worker = [&]() {
    for (size_t i = next++; i < n; i = next++) {
      try {
        body(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (size_t t = 1; t < ParallelThreads(n, jobs); ++t)
    threads.emplace_back(worker);
  worker();
  for (auto& t : threads)
    t.join();
  for (const auto& e : errors)
    if (e)
      std::rethrow_exception(e);
}

}  // namespace gpurf
