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

// The sum of kRowAlign per-position partial sums held in kCount vectors (vector j holds positions
// j * lanes on), folded in the order of sum_of_row_group: the upper half of the positions onto the
// lower, again, then (0 + 2) + (1 + 3). Whole vectors are added while there are several, then
// vector halves; the last four partial sums are added one by one.
template <size_t kCount, class D>
HWY_INLINE float FoldRowGroup(D d, hn::Vec<D>* partial) {
  constexpr size_t lanes = hn::MaxLanes(d);
  if constexpr (kCount * lanes > 4) {
    if constexpr (kCount > 1) {
      for (size_t j = 0; j < kCount / 2; ++j)
        partial[j] = hn::Add(partial[j], partial[j + kCount / 2]);
      return FoldRowGroup<kCount / 2>(d, partial);
    } else {
#if HWY_TARGET != HWY_SCALAR  // one lane there: never reached, and no UpperHalf to name
      const hn::Half<D> dh;
      hn::Vec<decltype(dh)> half =
          hn::Add(hn::LowerHalf(dh, partial[0]), hn::UpperHalf(dh, partial[0]));
      return FoldRowGroup<1>(dh, &half);
#endif
    }
  } else {
    HWY_ALIGN float last[4];
    for (size_t j = 0; j < kCount; ++j) hn::Store(partial[j], d, last + j * lanes);
    return (last[0] + last[2]) + (last[1] + last[3]);
  }
}

void BackwardOps(const GateOp* ops, size_t num_ops, const float* coeffs, const float* rows,
                 float* grad, size_t stride, double* gate_sums) {
  constexpr hn::ScalableTag<float> d;
  // Each sum is kept in kRowAlign per-position partial sums (position x goes to x % kRowAlign),
  // kVectors vectors of them, folded in the order of sum_of_row_group: the same additions in the
  // same order on every target, whatever its vector width (gate_kernels.hpp, FoldRowGroup).
  constexpr size_t lanes = hn::MaxLanes(d);
  constexpr size_t kVectors = kRowAlign / lanes;
  static_assert(kVectors * lanes == kRowAlign, "a row group is a whole number of vectors");
  using V = hn::Vec<decltype(d)>;
  for (size_t i = num_ops; i-- > 0;) {
    const GateOp op = ops[i];
    const float* c = coeffs + 4 * size_t(op.gate);
    const auto c1 = hn::Set(d, c[1]), c2 = hn::Set(d, c[2]), c3 = hn::Set(d, c[3]);
    const float* a = rows + size_t(op.a) * stride;
    const float* b = rows + size_t(op.b) * stride;
    const float* g = grad + size_t(op.out) * stride;
    float* ga = grad + size_t(op.a) * stride;  // may alias gb when a == b: load after store
    float* gb = grad + size_t(op.b) * stride;
    V s0[kVectors], s1[kVectors], s2[kVectors], s3[kVectors];
    for (size_t j = 0; j < kVectors; ++j) s0[j] = s1[j] = s2[j] = s3[j] = hn::Zero(d);
    for (size_t group = 0; group < stride; group += kRowAlign) {
      for (size_t j = 0; j < kVectors; ++j) {
        const size_t x = group + j * lanes;
        const auto vg = hn::Load(d, g + x);
        const auto va = hn::Load(d, a + x);
        const auto vb = hn::Load(d, b + x);
        const auto g_a = hn::Mul(vg, va);
        s0[j] = hn::Add(s0[j], vg);
        s1[j] = hn::Add(s1[j], g_a);
        s2[j] = hn::MulAdd(vg, vb, s2[j]);
        s3[j] = hn::MulAdd(g_a, vb, s3[j]);
        hn::Store(hn::MulAdd(vg, hn::MulAdd(c3, vb, c1), hn::Load(d, ga + x)), d, ga + x);
        hn::Store(hn::MulAdd(vg, hn::MulAdd(c3, va, c2), hn::Load(d, gb + x)), d, gb + x);
      }
    }
    double* sums = gate_sums + 4 * size_t(op.gate);
    sums[0] += FoldRowGroup<kVectors>(d, s0);
    sums[1] += FoldRowGroup<kVectors>(d, s1);
    sums[2] += FoldRowGroup<kVectors>(d, s2);
    sums[3] += FoldRowGroup<kVectors>(d, s3);
  }
}

}  // namespace dlca::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
