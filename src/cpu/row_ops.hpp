// Bitwise gate ops over rows of 64-bit words (64 cells each), one function per op so that the loop
// has no branch: kRowOps[op](a, b, out, words). Shared by the hard simulators' interpreters.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "dlca/ops.hpp"

namespace dlca {

using RowOp = void (*)(const uint64_t*, const uint64_t*, uint64_t*, size_t);

template <int Op>
void apply_row_op(const uint64_t* a, const uint64_t* b, uint64_t* out, size_t words) {
  for (size_t w = 0; w < words; ++w) out[w] = hard_op_word(Op, a[w], b[w]);
}

template <int... Ops>
constexpr std::array<RowOp, sizeof...(Ops)> make_row_ops(std::integer_sequence<int, Ops...>) {
  return {&apply_row_op<Ops>...};
}

inline constexpr auto kRowOps = make_row_ops(std::make_integer_sequence<int, kNumOps>{});

}  // namespace dlca
