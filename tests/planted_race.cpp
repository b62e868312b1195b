// Built only with DLCA_SANITIZE_THREAD: proves the ThreadSanitizer run still catches a race in a
// dlca::parallel_for_index body despite the suppressions for oneTBB's own code
// (tests/tsan_suppressions.txt). Every body adds to one counter without synchronisation; ctest
// requires the sanitizer to report a data race in plant_race and the run to fail.
#include <tbb/task_arena.h>

#include <cstdio>

#include "dlca/core/parallel_for_index.hpp"

namespace {

[[gnu::noinline]] void plant_race(long& counter) {
  tbb::task_arena arena(2);
  arena.execute([&] {
    dlca::parallel_for_index(
        1000,
        [&](int) {
          for (volatile int spin = 0; spin < 2000; spin = spin + 1) {
          }  // long enough that the second thread takes part
          counter = counter + 1;
        },
        tbb::simple_partitioner());
  });
}

}  // namespace

int main() {
  long counter = 0;
  plant_race(counter);
  std::printf("counted %ld\n", counter);
  return 0;
}
