// SIMD kernels of the CPU backend (Highway, dynamic dispatch): a gate program's forward and
// backward over rows of `stride` cells. stride is a multiple of kRowAlign and rows are aligned.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dlca/core/cell_program.hpp"

namespace dlca::kernels {

inline constexpr size_t kRowAlign = 16;  // floats: one AVX-512 vector, the widest target

// The sum of kRowAlign per-position partial sums, in a fixed order: halves, then quarters, then
// pairs (the order of an AVX-512 horizontal add). With the partial sums kept per position rather
// than per vector lane, backward_ops adds in the same order on every target with fused
// multiply-add (AVX2, AVX-512): the same gradients to the bit on any such machine.
inline float sum_of_row_group(const float* partial) {
  static_assert(kRowAlign == 16, "the fold below is written for 16 partial sums");
  float half[8], quarter[4];
  for (int i = 0; i < 8; ++i) half[i] = partial[i] + partial[i + 8];
  for (int i = 0; i < 4; ++i) quarter[i] = half[i] + half[i + 4];
  return (quarter[0] + quarter[2]) + (quarter[1] + quarter[3]);
}

// out = c0 + c1*a + c2*b + c3*a*b for every op in order; coeffs holds 4 floats per gate.
void forward_ops(const GateOp* ops, size_t num_ops, const float* coeffs, float* rows,
                 size_t stride);

// Reverse-order backward: for every op (last first) with upstream g = grad[out],
// grad[a] += g*(c1 + c3*b), grad[b] += g*(c2 + c3*a), and gate_sums[4*gate + q] += the sums over
// cells of (g, g*a, g*b, g*a*b).
void backward_ops(const GateOp* ops, size_t num_ops, const float* coeffs, const float* rows,
                  float* grad, size_t stride, double* gate_sums);

// Name of the Highway target the dispatcher currently selects (for logs and benchmarks).
const char* selected_target();

}  // namespace dlca::kernels
