// Input-wise gates (Light DLGN's parametrisation, docs/training.md "Input-wise gates"): 4 angles
// per gate, one per input pattern (a, b) = 00, 01, 10, 11. The soft gate outputs, for each pattern,
// the chance of that pattern times s = (1 + sin w) / 2, which is affine in (1, a, b, ab) as the
// softmax gate is; the hard gate outputs the truth table of the signs of sin w. Forward (fold),
// backward and the hard op side by side, one gate at a time.
#pragma once

#include <cstdint>

namespace dlca {

inline constexpr int kInputPatterns = 4;

// The affine coefficients (c0, c1, c2, c3) of f(a, b) = c0 + c1 a + c2 b + c3 ab for angles w.
// A forward temperature T below 1 (forward-only sharpening) divides the log-odds of each pattern's
// output s by T: s_T = (1 + sin w)^(1/T) / ((1 + sin w)^(1/T) + (1 - sin w)^(1/T)); T = 1 is s.
void input_wise_coefficients(const float* w, double coefficients[4], double temperature = 1.0);
// dL/dw from the gate's sums G = (sum g, sum g a, sum g b, sum g a b): G is dL/dc, then through the
// fold to dL/ds and dL/dw = cos(w) / 2 * dL/ds.
void input_wise_gradient(const float* w, const double* sums, float* grad);
// The hard gate's op (truth-table index, as kOpCoefficients): bit 3 - pattern set where sin w >= 0.
uint8_t input_wise_op(const float* w);
// Each op's probability when every pattern's output is 1 with chance s, independently: the
// products of s and 1 - s over the patterns (16 values summing to 1).
void input_wise_op_probabilities(const float* w, float* probabilities);
// Angles that make the gate `op` (its truth table) with the magnitudes of w kept, so a repaired
// gate is as decided as it was: w is negated where the op's output differs.
void input_wise_set_op(float* w, int op);
// The start of training: the pass-through A (0, 0, 1, 1) at angles +-(pi/2 - 0.05 - 0.05 u), u in
// [0, 1) drawn per angle from `key`: close to a whole pattern output, with gradient cos w >= 0.05.
void input_wise_pass_through(float* w, uint64_t key);

}  // namespace dlca
