// Flushing denormal floats to zero on this thread while a scope runs (x86: the MXCSR bits FTZ and
// DAZ; elsewhere nothing). Sharpened soft passes (forward temperature below 1) drive gate
// coefficients and the gradients multiplied by them below FLT_MIN, where x86 arithmetic is many
// times slower; flushing those to 0 changes values only below 1.2e-38. The paper recipe never
// sharpens and never flushes, so its results stay bit for bit.
#pragma once

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define DLCA_HAVE_MXCSR 1
#endif

namespace dlca {

class FlushDenormals {
 public:
  explicit FlushDenormals(bool enabled) {
#ifdef DLCA_HAVE_MXCSR
    if (!enabled) return;
    saved_ = _mm_getcsr();
    active_ = true;
    _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero);
#else
    (void)enabled;
#endif
  }
  ~FlushDenormals() {
#ifdef DLCA_HAVE_MXCSR
    if (active_) _mm_setcsr(saved_);
#endif
  }
  FlushDenormals(const FlushDenormals&) = delete;
  FlushDenormals& operator=(const FlushDenormals&) = delete;

 private:
#ifdef DLCA_HAVE_MXCSR
  static constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;
  unsigned saved_ = 0;
  bool active_ = false;
#endif
};

}  // namespace dlca
