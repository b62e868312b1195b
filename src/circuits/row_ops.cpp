// Highway dynamic-dispatch unit for apply_row_op (row_ops-inl.h compiled for every target).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "circuits/row_ops-inl.h"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "circuits/row_ops-inl.h"

#if HWY_ONCE
#include "circuits/row_ops.hpp"

namespace dlca {

HWY_EXPORT(ApplyRowOp);

void apply_row_op(int op, const uint64_t* a, const uint64_t* b, uint64_t* out, size_t words) {
  HWY_DYNAMIC_DISPATCH(ApplyRowOp)(op, a, b, out, words);
}

}  // namespace dlca
#endif  // HWY_ONCE
