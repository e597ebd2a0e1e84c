// ParallelFor (base/parallel.h): every item once, at most `jobs` at a time, exceptions rethrown
// by index after every item ran.
#include "base/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace gpurf {
namespace {

TEST(ParallelFor, RunsEveryItemOnce) {
  for (const int jobs : {1, 3, 64}) {
    std::vector<std::atomic<int>> runs(50);
    ParallelFor(runs.size(), jobs, [&](size_t i) { ++runs[i]; });
    for (size_t i = 0; i < runs.size(); ++i)
      EXPECT_EQ(runs[i].load(), 1) << "item " << i << ", jobs " << jobs;
  }
  ParallelFor(0, 4, [](size_t) { FAIL() << "no item"; });
}

TEST(ParallelFor, NeverMoreThanJobsAtATime) {
  EXPECT_EQ(ParallelThreads(10, 3), 3u);
  EXPECT_EQ(ParallelThreads(2, 8), 2u);
  EXPECT_EQ(ParallelThreads(5, 0), 1u);
  std::atomic<int> running{0}, most{0};
  ParallelFor(12, 3, [&](size_t) {
    const int now = ++running;
    for (int m = most.load(); now > m && !most.compare_exchange_weak(m, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    --running;
  });
  EXPECT_GE(most.load(), 1);
  EXPECT_LE(most.load(), 3);
}

TEST(ParallelFor, RethrowsTheLowestFailingItemAfterAllRan) {
  std::atomic<int> ran{0};
  try {
    ParallelFor(20, 4, [&](size_t i) {
      ++ran;
      if (i == 7 || i == 13)
        throw std::runtime_error("item " + std::to_string(i));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "item 7");
  }
  EXPECT_EQ(ran.load(), 20);
}

}  // namespace
}  // namespace gpurf
