// The SIMD gate kernels against a plain per-position version of them, bit for bit, on every
// compiled Highway target with fused multiply-add (AVX2, AVX-512): training on any such machine
// computes the same gradients, so a seed trains to the same circuit on each. On data whose
// products are exact, every target (SSE2 and SSE4 too) must give the same bits: the order in
// which each target folds its per-position sums.
#include <doctest/doctest.h>

#include <hwy/aligned_allocator.h>
#include <hwy/targets.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/gate_kernels.hpp"
#include "optional_parts.hpp"

using namespace dlca;
using kernels::kRowAlign;

namespace {

// Rows of one small program: 0-2 inputs, 3-6 written by the ops below; gate 1 is used twice, and
// op 2 reads the same row twice (its two gradients land on one row).
const std::vector<GateOp> kOps = {{0, 1, 3, 0}, {3, 2, 4, 1}, {4, 4, 5, 2}, {5, 0, 6, 1}};
// The same shape with every op reading only the inputs, so that no product is of a computed value.
const std::vector<GateOp> kOpsOfInputs = {{0, 1, 3, 0}, {1, 2, 4, 1}, {2, 2, 5, 2}, {2, 0, 6, 1}};
constexpr size_t kRows = 7, kGates = 3;
constexpr size_t kStride = 5 * kRowAlign;

void forward_by_position(const std::vector<GateOp>& ops, const float* coeffs, float* rows,
                         size_t stride) {
  for (const GateOp& op : ops) {
    const float* c = coeffs + 4 * op.gate;
    for (size_t x = 0; x < stride; ++x) {
      const float a = rows[op.a * stride + x], b = rows[op.b * stride + x];
      rows[op.out * stride + x] = std::fma(std::fma(c[3], a, c[2]), b, std::fma(c[1], a, c[0]));
    }
  }
}

// Every sum kept per position modulo kRowAlign, then folded by sum_of_row_group.
void backward_by_position(const std::vector<GateOp>& ops, const float* coeffs, const float* rows,
                          float* grad, size_t stride, double* gate_sums) {
  for (size_t i = ops.size(); i-- > 0;) {
    const GateOp op = ops[i];
    const float* c = coeffs + 4 * op.gate;
    float partial[4][kRowAlign] = {};
    for (size_t x = 0; x < stride; ++x) {
      const float g = grad[op.out * stride + x], a = rows[op.a * stride + x],
                  b = rows[op.b * stride + x];
      const float g_a = g * a;
      float* p = &partial[0][x % kRowAlign];
      p[0] += g;
      p[kRowAlign] += g_a;
      p[2 * kRowAlign] = std::fma(g, b, p[2 * kRowAlign]);
      p[3 * kRowAlign] = std::fma(g_a, b, p[3 * kRowAlign]);
      float& ga = grad[op.a * stride + x];
      ga = std::fma(g, std::fma(c[3], b, c[1]), ga);
      float& gb = grad[op.b * stride + x];
      gb = std::fma(g, std::fma(c[3], a, c[2]), gb);
    }
    for (int q = 0; q < 4; ++q) gate_sums[4 * op.gate + q] += kernels::sum_of_row_group(partial[q]);
  }
}

bool has_fused_multiply_add(int64_t target) {
#if HWY_ARCH_X86
  return target <= HWY_AVX2;  // x86 targets: lower bits are newer; AVX2 is the first with FMA
#else
  (void)target;
  return false;
#endif
}

// The program on each compiled target the filter accepts against the per-position reference, bit
// for bit; returns how many targets were checked.
template <class TargetFilter>
int check_targets(const std::vector<GateOp>& ops, const std::vector<float>& coeffs,
                  const std::vector<float>& inputs, const std::vector<float>& upstream,
                  TargetFilter accepts) {
  std::vector<float> want_rows = inputs, want_grad = upstream;
  std::vector<double> want_sums(4 * kGates, 0.0);
  forward_by_position(ops, coeffs.data(), want_rows.data(), kStride);
  backward_by_position(ops, coeffs.data(), want_rows.data(), want_grad.data(), kStride,
                       want_sums.data());

  auto rows = hwy::AllocateAligned<float>(kRows * kStride);
  auto grad = hwy::AllocateAligned<float>(kRows * kStride);
  int checked = 0;
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    if (!accepts(target)) continue;
    const std::string target_name = hwy::TargetName(target);
    CAPTURE(target_name);
    hwy::SetSupportedTargetsForTest(target);
    REQUIRE(std::string(kernels::selected_target()) == target_name);
    std::memcpy(rows.get(), inputs.data(), inputs.size() * sizeof(float));
    std::memcpy(grad.get(), upstream.data(), upstream.size() * sizeof(float));
    std::vector<double> sums(4 * kGates, 0.0);
    kernels::forward_ops(ops.data(), ops.size(), coeffs.data(), rows.get(), kStride);
    kernels::backward_ops(ops.data(), ops.size(), coeffs.data(), rows.get(), grad.get(), kStride,
                          sums.data());
    CHECK(std::memcmp(rows.get(), want_rows.data(), want_rows.size() * sizeof(float)) == 0);
    CHECK(std::memcmp(grad.get(), want_grad.data(), want_grad.size() * sizeof(float)) == 0);
    CHECK(sums == want_sums);
    ++checked;
  }
  hwy::SetSupportedTargetsForTest(0);
  return checked;
}

// Why the FMA test cannot run here (no compiled target with fused multiply-add that this machine
// supports); empty when it can.
std::string fma_target_missing() {
  for (int64_t target : hwy::SupportedAndGeneratedTargets())
    if (has_fused_multiply_add(target)) return "";
  return "no Highway target with fused multiply-add is compiled and supported here";
}

}  // namespace

TEST_CASE("gate kernels: the same bits as the per-position sums on every FMA target") {
  DLCA_SKIP_IF(fma_target_missing());
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<float> coeffs(4 * kGates), inputs(kRows * kStride), upstream(kRows * kStride);
  for (float& v : coeffs) v = unit(rng);
  for (float& v : inputs) v = unit(rng);
  for (float& v : upstream) v = unit(rng);
  const int checked = check_targets(kOps, coeffs, inputs, upstream, has_fused_multiply_add);
  CHECK(checked >= 1);
  MESSAGE("FMA targets checked: " << checked);
}

TEST_CASE("gate kernels: every target folds its sums in the same order") {
  // Inputs and coefficients are +-1, 1/2 or 1/4 and each upstream gradient has a 4-bit mantissa:
  // every product is exact, so fused and separate multiply-adds agree, while the upstream
  // gradients' exponents (2^-12 to 2^12) make each sum's rounding depend on its order.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> pick(0, 5), mantissa(8, 15), exponent(-12, 12);
  const float kSmall[6] = {1.0f, -1.0f, 0.5f, -0.5f, 0.25f, -0.25f};
  std::vector<float> coeffs(4 * kGates), inputs(kRows * kStride, 0.0f), upstream(kRows * kStride);
  for (float& v : coeffs) v = kSmall[pick(rng)];
  for (size_t x = 0; x < 3 * kStride; ++x) inputs[x] = kSmall[pick(rng)];
  for (float& v : upstream)
    v = std::ldexp(float(mantissa(rng) * (pick(rng) % 2 ? -1 : 1)), exponent(rng));

  // The data can tell orders apart: one sum added position after position differs from the fold.
  const GateOp first = kOpsOfInputs[0];
  float in_order = 0.0f;
  float partial[kRowAlign] = {};
  for (size_t x = 0; x < kStride; ++x) {
    in_order += upstream[first.out * kStride + x];
    partial[x % kRowAlign] += upstream[first.out * kStride + x];
  }
  REQUIRE(in_order != kernels::sum_of_row_group(partial));

  const int checked =
      check_targets(kOpsOfInputs, coeffs, inputs, upstream, [](int64_t) { return true; });
  CHECK(checked >= 2);  // at least the baseline target and the best one of this machine
  MESSAGE("targets checked: " << checked);
}
