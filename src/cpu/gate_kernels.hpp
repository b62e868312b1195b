// SIMD kernels of the CPU backend (Highway, dynamic dispatch): a gate program's forward and
// backward over rows of `stride` cells. stride is a multiple of kRowAlign and rows are aligned.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dlca/core/cell_program.hpp"

namespace dlca::kernels {

inline constexpr size_t kRowAlign = 16;  // floats: one AVX-512 vector, the widest target

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
