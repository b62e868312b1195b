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

// Positions of a row group added pairwise in the order of sum_of_row_group, the upper half onto
// the lower, until four partial sums are left: while there are several vectors (vector j holds
// positions j * lanes on), whole vectors are added, then vector halves. Returns one vector of four
// lanes where a vector has at least four lanes; on a one-lane target the four come back in
// partial[0..3].
template <size_t kCount, class D>
HWY_INLINE auto FoldToFourPositions(D d, hn::Vec<D>* partial) {
  constexpr size_t lanes = hn::MaxLanes(d);
  if constexpr (kCount * lanes > 4 && kCount > 1) {
    for (size_t j = 0; j < kCount / 2; ++j)
      partial[j] = hn::Add(partial[j], partial[j + kCount / 2]);
    return FoldToFourPositions<kCount / 2>(d, partial);
#if HWY_TARGET != HWY_SCALAR  // one lane there: no halves to name
  } else if constexpr (lanes > 4) {
    const hn::Half<D> dh;
    hn::Vec<decltype(dh)> half =
        hn::Add(hn::LowerHalf(dh, partial[0]), hn::UpperHalf(dh, partial[0]));
    return FoldToFourPositions<1>(dh, &half);
#endif
  } else {
    return partial[0];
  }
}

// Adds to sums[0..3] the folds of four row groups of partial sums, each as sum_of_row_group adds:
// (p0 + p2) + (p1 + p3) of its last four partial sums. With four lanes that last step is one
// transposition for all four sums: interleaving gives (p0 + p2, p1 + p3) of two sums at once.
template <size_t kVectors, class D>
HWY_INLINE void AddFoldsOfFour(D d, hn::Vec<D>* s0, hn::Vec<D>* s1, hn::Vec<D>* s2, hn::Vec<D>* s3,
                               double* sums) {
  HWY_ALIGN float last[4];
#if HWY_TARGET != HWY_SCALAR  // one lane there: no interleaving to name
  if constexpr (hn::MaxLanes(d) >= 4) {
    const auto f0 = FoldToFourPositions<kVectors>(d, s0);
    const auto f1 = FoldToFourPositions<kVectors>(d, s1);
    const auto f2 = FoldToFourPositions<kVectors>(d, s2);
    const auto f3 = FoldToFourPositions<kVectors>(d, s3);
    const hn::DFromV<decltype(f0)> d4;
    // (f0[0] + f0[2], f1[0] + f1[2], f0[1] + f0[3], f1[1] + f1[3]), and the same of f2 and f3.
    const auto pairs01 = hn::Add(hn::InterleaveLower(d4, f0, f1), hn::InterleaveUpper(d4, f0, f1));
    const auto pairs23 = hn::Add(hn::InterleaveLower(d4, f2, f3), hn::InterleaveUpper(d4, f2, f3));
    const auto folds = hn::Add(hn::ConcatLowerLower(d4, pairs23, pairs01),
                               hn::ConcatUpperUpper(d4, pairs23, pairs01));
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2  // four doubles in one vector: add them there
    const hn::Rebind<double, decltype(d4)> dd;
    hn::StoreU(hn::Add(hn::LoadU(dd, sums), hn::PromoteTo(dd, folds)), dd, sums);
    return;
#else
    hn::Store(folds, d4, last);
#endif
  } else
#endif
  {
    hn::Vec<D>* partials[4] = {s0, s1, s2, s3};
    for (size_t q = 0; q < 4; ++q) {
      FoldToFourPositions<kVectors>(d, partials[q]);
      float p[4];
      for (size_t j = 0; j < 4; ++j) p[j] = hn::GetLane(partials[q][j]);
      last[q] = (p[0] + p[2]) + (p[1] + p[3]);
    }
  }
  for (size_t q = 0; q < 4; ++q) sums[q] += last[q];
}

void BackwardOps(const GateOp* ops, size_t num_ops, const float* coeffs, const float* rows,
                 float* grad, size_t stride, double* gate_sums) {
  constexpr hn::ScalableTag<float> d;
  // Each sum is kept in kRowAlign per-position partial sums (position x goes to x % kRowAlign),
  // kVectors vectors of them, folded in the order of sum_of_row_group: the same additions in the
  // same order on every target, whatever its vector width (gate_kernels.hpp, AddFoldsOfFour).
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
    AddFoldsOfFour<kVectors>(d, s0, s1, s2, s3, gate_sums + 4 * size_t(op.gate));
  }
}

}  // namespace dlca::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
