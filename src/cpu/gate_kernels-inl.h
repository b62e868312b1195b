// Per-target bodies of the gate-program kernels, compiled once per Highway target by
// gate_kernels.cpp (foreach_target.h). Forward and backward side by side.
#include <hwy/highway.h>

#include "gate_kernels.hpp"

HWY_BEFORE_NAMESPACE();
namespace dlca::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void ForwardOps(const GateOp* ops, size_t num_ops, const float* coeffs, float* rows,
                size_t stride) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  for (size_t i = 0; i < num_ops; ++i) {
    const GateOp op = ops[i];
    const float* c = coeffs + 4 * size_t(op.gate);
    const auto c0 = hn::Set(d, c[0]), c1 = hn::Set(d, c[1]), c2 = hn::Set(d, c[2]),
               c3 = hn::Set(d, c[3]);
    const float* HWY_RESTRICT a = rows + size_t(op.a) * stride;
    const float* HWY_RESTRICT b = rows + size_t(op.b) * stride;
    float* HWY_RESTRICT out = rows + size_t(op.out) * stride;
    for (size_t x = 0; x < stride; x += lanes) {
      const auto va = hn::Load(d, a + x);
      const auto vb = hn::Load(d, b + x);
      const auto b_coeff = hn::MulAdd(c3, va, c2);  // c2 + c3*a
      const auto rest = hn::MulAdd(c1, va, c0);     // c0 + c1*a
      hn::Store(hn::MulAdd(b_coeff, vb, rest), d, out + x);
    }
  }
}

void BackwardOps(const GateOp* ops, size_t num_ops, const float* coeffs, const float* rows,
                 float* grad, size_t stride, double* gate_sums) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  for (size_t i = num_ops; i-- > 0;) {
    const GateOp op = ops[i];
    const float* c = coeffs + 4 * size_t(op.gate);
    const auto c1 = hn::Set(d, c[1]), c2 = hn::Set(d, c[2]), c3 = hn::Set(d, c[3]);
    const float* a = rows + size_t(op.a) * stride;
    const float* b = rows + size_t(op.b) * stride;
    const float* g = grad + size_t(op.out) * stride;
    float* ga = grad + size_t(op.a) * stride;  // may alias gb when a == b: load after store
    float* gb = grad + size_t(op.b) * stride;
    auto s0 = hn::Zero(d), s1 = hn::Zero(d), s2 = hn::Zero(d), s3 = hn::Zero(d);
    for (size_t x = 0; x < stride; x += lanes) {
      const auto vg = hn::Load(d, g + x);
      const auto va = hn::Load(d, a + x);
      const auto vb = hn::Load(d, b + x);
      const auto g_a = hn::Mul(vg, va);
      s0 = hn::Add(s0, vg);
      s1 = hn::Add(s1, g_a);
      s2 = hn::MulAdd(vg, vb, s2);
      s3 = hn::MulAdd(g_a, vb, s3);
      hn::Store(hn::MulAdd(vg, hn::MulAdd(c3, vb, c1), hn::Load(d, ga + x)), d, ga + x);
      hn::Store(hn::MulAdd(vg, hn::MulAdd(c3, va, c2), hn::Load(d, gb + x)), d, gb + x);
    }
    double* sums = gate_sums + 4 * size_t(op.gate);
    sums[0] += hn::GetLane(hn::SumOfLanes(d, s0));
    sums[1] += hn::GetLane(hn::SumOfLanes(d, s1));
    sums[2] += hn::GetLane(hn::SumOfLanes(d, s2));
    sums[3] += hn::GetLane(hn::SumOfLanes(d, s3));
  }
}

}  // namespace dlca::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
