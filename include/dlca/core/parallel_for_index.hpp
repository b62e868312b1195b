// dlca::parallel_for_index: oneTBB's parallel_for over 0..count-1, told to ThreadSanitizer.
//
// oneTBB hands a task to a worker and waits for it inside libtbb, which is not built with
// ThreadSanitizer, so the sanitizer cannot see that the worker's body runs after what the caller
// wrote before the loop, nor that the caller's code after the loop runs after every body. In a
// ThreadSanitizer build (DLCA_SANITIZE_THREAD) this helper states those two orders; elsewhere it
// is tbb::parallel_for and nothing more. Every parallel loop of dlca goes through it, so that the
// sanitizer's reports are races between bodies, which are bugs. (The reports whose top frame is
// inside oneTBB's own templates are suppressed by tests/tsan_suppressions.txt.)
#pragma once

#include <tbb/parallel_for.h>

#include <cstddef>
#include <utility>

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace dlca {

namespace detail {
#if defined(__SANITIZE_THREAD__)
inline void happens_before(void* sync) { __tsan_release(sync); }
inline void happens_after(void* sync) { __tsan_acquire(sync); }
#else
inline void happens_before(void*) {}
inline void happens_after(void*) {}
#endif
}  // namespace detail

// body(i) for every i in 0..count-1, in parallel on the current task arena; `partitioner` is a
// oneTBB partitioner (tbb::auto_partitioner by default).
template <class Index, class Body, class Partitioner = tbb::auto_partitioner>
void parallel_for_index(Index count, Body&& body, Partitioner partitioner = Partitioner()) {
  char begun = 0, ended = 0;  // their addresses: the two orders, as ThreadSanitizer sync objects
  detail::happens_before(&begun);
  tbb::parallel_for(
      Index(0), count,
      [&](Index i) {
        detail::happens_after(&begun);
        body(i);
        detail::happens_before(&ended);
      },
      partitioner);
  detail::happens_after(&ended);
}

}  // namespace dlca
