// Highway dynamic-dispatch unit for the gate-program kernels: compiles gate_kernels-inl.h for every
// target and exports the entry points declared in gate_kernels.hpp.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/gate_kernels-inl.h"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/gate_kernels-inl.h"

#if HWY_ONCE
#include <hwy/targets.h>

namespace dlca::kernels {

HWY_EXPORT(ForwardOps);
HWY_EXPORT(BackwardOps);

void forward_ops(const GateOp* ops, size_t num_ops, const float* coeffs, float* rows,
                 size_t stride) {
  HWY_DYNAMIC_DISPATCH(ForwardOps)(ops, num_ops, coeffs, rows, stride);
}

void backward_ops(const GateOp* ops, size_t num_ops, const float* coeffs, const float* rows,
                  float* grad, size_t stride, double* gate_sums) {
  HWY_DYNAMIC_DISPATCH(BackwardOps)(ops, num_ops, coeffs, rows, grad, stride, gate_sums);
}

const char* selected_target() {
  const int64_t targets = hwy::SupportedTargets() & HWY_TARGETS;
  // The dispatcher picks the best supported target: the lowest set bit.
  return hwy::TargetName(targets & -targets);
}

}  // namespace dlca::kernels
#endif  // HWY_ONCE
