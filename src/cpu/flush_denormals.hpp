// Flushing denormal floats to zero on this thread while a scope runs (x86: the MXCSR bits FTZ and
// DAZ; elsewhere nothing), as JAX's XLA does on CPUs and GPUs usually do. Gates near their
// pass-through start (op probabilities ~4.5e-5) and sharpened passes drive products of coefficients
// and gradients below FLT_MIN, where x86 arithmetic is many times slower: the paper checkerboard's
// first epochs took 10 times as long, its 400-epoch training 2.6 times. Flushing changes values
// only below 1.2e-38 (measured: the losses of that training identical to the last printed digit on
// every epoch, about 1% of the final logits different in their last bits).
#pragma once

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define DLCA_HAVE_MXCSR 1
#endif

namespace dlca {

class FlushDenormals {
 public:
  FlushDenormals() {
#ifdef DLCA_HAVE_MXCSR
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero);
#endif
  }
  ~FlushDenormals() {
#ifdef DLCA_HAVE_MXCSR
    _mm_setcsr(saved_);
#endif
  }
  FlushDenormals(const FlushDenormals&) = delete;
  FlushDenormals& operator=(const FlushDenormals&) = delete;

 private:
#ifdef DLCA_HAVE_MXCSR
  static constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;
  unsigned saved_ = 0;
#endif
};

}  // namespace dlca
