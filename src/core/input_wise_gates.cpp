// Input-wise gates: the fold of 4 angles into affine coefficients, its backward, the hard op and
// the start near the pass-through (input_wise_gates.hpp).
#include "dlca/core/input_wise_gates.hpp"

#include <cmath>
#include <numbers>

#include "dlca/core/ops.hpp"
#include "dlca/core/random.hpp"

namespace dlca {

namespace {

// s = (1 + sin w) / 2: the chance that the gate outputs 1 on a pattern; below temperature 1, s
// with its log-odds divided by the temperature (input_wise_gates.hpp).
double pattern_output(float w, double temperature = 1.0) {
  const double sine = std::sin(double(w));
  if (temperature == 1.0) return 0.5 + 0.5 * sine;
  // The odds of the likelier side, (1 + |sin w|) / (1 - |sin w|), to the power 1/T, as their
  // inverse r in [0, 1]: no overflow at any temperature, no division by 0 at sin w = +-1.
  const double r = std::pow((1.0 - std::abs(sine)) / (1.0 + std::abs(sine)), 1.0 / temperature);
  return sine >= 0 ? 1.0 / (1.0 + r) : r / (1.0 + r);
}

}  // namespace

void input_wise_coefficients(const float* w, double coefficients[4], double temperature) {
  const double s00 = pattern_output(w[0], temperature), s01 = pattern_output(w[1], temperature);
  const double s10 = pattern_output(w[2], temperature), s11 = pattern_output(w[3], temperature);
  // sum over patterns of P(pattern) s: (1-a)(1-b) s00 + (1-a) b s01 + a (1-b) s10 + a b s11.
  coefficients[0] = s00;
  coefficients[1] = s10 - s00;
  coefficients[2] = s01 - s00;
  coefficients[3] = s00 - s01 - s10 + s11;
}

void input_wise_gradient(const float* w, const double* sums, float* grad) {
  // dL/dc = sums; c is linear in s, so dL/ds is the transpose of the fold applied to it.
  const double d_s[kInputPatterns] = {sums[0] - sums[1] - sums[2] + sums[3], sums[2] - sums[3],
                                      sums[1] - sums[3], sums[3]};
  for (int p = 0; p < kInputPatterns; ++p) grad[p] = float(0.5 * std::cos(double(w[p])) * d_s[p]);
}

uint8_t input_wise_op(const float* w) {
  int op = 0;
  for (int p = 0; p < kInputPatterns; ++p)
    if (std::sin(double(w[p])) >= 0) op |= 1 << (3 - p);
  return uint8_t(op);
}

void input_wise_op_probabilities(const float* w, float* probabilities) {
  double s[kInputPatterns];
  for (int p = 0; p < kInputPatterns; ++p) s[p] = pattern_output(w[p]);
  for (int op = 0; op < kNumOps; ++op) {
    double chance = 1;
    for (int p = 0; p < kInputPatterns; ++p)
      chance *= hard_op_bit(op, p >> 1, p & 1) ? s[p] : 1 - s[p];
    probabilities[op] = float(chance);
  }
}

void input_wise_set_op(float* w, int op) {
  for (int p = 0; p < kInputPatterns; ++p) {
    const bool one = hard_op_bit(op, p >> 1, p & 1);
    const double sine = std::sin(double(w[p]));
    if ((sine >= 0) == one) continue;
    // Negating the angle flips the sign of sin w; an angle on a multiple of pi has sin w == 0 and
    // counts as 1, so it moves a quarter turn to the side wanted.
    w[p] = sine == 0 ? -0.5f * std::numbers::pi_v<float> : -w[p];
  }
}

void input_wise_pass_through(float* w, uint64_t key) {
  constexpr double kStart = std::numbers::pi / 2 - 0.05;
  for (int p = 0; p < kInputPatterns; ++p) {
    const double u = double(derive_key(key, uint64_t(p)) >> 11) * 0x1p-53;  // in [0, 1)
    const double magnitude = kStart - 0.05 * u;
    w[p] = float(hard_op_bit(kOpPassA, p >> 1, p & 1) ? magnitude : -magnitude);
  }
}

}  // namespace dlca
