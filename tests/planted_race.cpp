// Built only with DLCA_SANITIZE_THREAD: proves the ThreadSanitizer run still catches a race in a
// dlca::parallel_for_index body despite the suppressions for oneTBB's own code
// (tests/tsan_suppressions.txt). Every body adds to one counter without synchronisation, once two
// threads are inside bodies at the same time; ctest requires the sanitizer's summary to name this
// file and the run to fail. Where oneTBB gives the loop one thread only (one CPU), it says so and
// the test is skipped.
#include <tbb/task_arena.h>

#include <atomic>
#include <chrono>
#include <cstdio>

#include "dlca/core/parallel_for_index.hpp"

namespace {

// Whether two threads were inside loop bodies at once (relaxed atomics: they order nothing, so
// the counter's accesses stay unordered for the sanitizer).
[[gnu::noinline]] bool plant_race(long& counter) {
  std::atomic<int> inside{0};
  std::atomic<bool> together{false};
  tbb::task_arena arena(2);
  arena.execute([&] {
    dlca::parallel_for_index(
        2,
        [&](int) {
          // The first body waits for the second to start; on one thread they run one after the
          // other, and the first gives up.
          if (inside.fetch_add(1, std::memory_order_relaxed) == 0) {
            const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
            while (inside.load(std::memory_order_relaxed) < 2 &&
                   std::chrono::steady_clock::now() < give_up) {
            }
            together.store(inside.load(std::memory_order_relaxed) >= 2, std::memory_order_relaxed);
          }
          counter = counter + 1;  // the planted race
        },
        tbb::simple_partitioner());
  });
  return together.load(std::memory_order_relaxed);
}

}  // namespace

int main() {
  long counter = 0;
  if (!plant_race(counter)) {
    std::printf("DLCA_TEST_SKIPPED: the loop ran on one thread only (one CPU?)\n");
    return 0;
  }
  std::printf("counted %ld\n", counter);
  return 0;
}
