// Per-target body of apply_row_op, compiled once per Highway target by row_ops.cpp.
#include <hwy/highway.h>

#include "dlca/core/ops.hpp"

HWY_BEFORE_NAMESPACE();
namespace dlca::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <typename VectorOp, typename WordOp>
void RowLoop(const uint64_t* a, const uint64_t* b, uint64_t* out, size_t words, VectorOp vector_op,
             WordOp word_op) {
  const hn::ScalableTag<uint64_t> d;
  const size_t lanes = hn::Lanes(d);
  size_t w = 0;
  for (; w + lanes <= words; w += lanes)
    hn::StoreU(vector_op(hn::LoadU(d, a + w), hn::LoadU(d, b + w)), d, out + w);
  for (; w < words; ++w) out[w] = word_op(a[w], b[w]);
}

void ApplyRowOp(int op, const uint64_t* a, const uint64_t* b, uint64_t* out, size_t words) {
  const hn::ScalableTag<uint64_t> d;
  using V = hn::Vec<decltype(d)>;
  const auto word = [op](uint64_t x, uint64_t y) { return hard_op_word(op, x, y); };
  const auto ones = hn::Set(d, ~uint64_t{0});
  switch (op) {
    case 0:
      return RowLoop(
          a, b, out, words, [&](V, V) { return hn::Zero(d); }, word);
    case 1:
      return RowLoop(
          a, b, out, words, [](V x, V y) { return hn::And(x, y); }, word);
    case 2:
      return RowLoop(
          a, b, out, words, [](V x, V y) { return hn::AndNot(y, x); }, word);
    case 3:
      return RowLoop(
          a, b, out, words, [](V x, V) { return x; }, word);
    case 4:
      return RowLoop(
          a, b, out, words, [](V x, V y) { return hn::AndNot(x, y); }, word);
    case 5:
      return RowLoop(
          a, b, out, words, [](V, V y) { return y; }, word);
    case 6:
      return RowLoop(
          a, b, out, words, [](V x, V y) { return hn::Xor(x, y); }, word);
    case 7:
      return RowLoop(
          a, b, out, words, [](V x, V y) { return hn::Or(x, y); }, word);
    case 8:
      return RowLoop(
          a, b, out, words, [](V x, V y) { return hn::Not(hn::Or(x, y)); }, word);
    case 9:
      return RowLoop(
          a, b, out, words, [](V x, V y) { return hn::Not(hn::Xor(x, y)); }, word);
    case 10:
      return RowLoop(
          a, b, out, words, [](V, V y) { return hn::Not(y); }, word);
    case 11:
      return RowLoop(
          a, b, out, words, [](V x, V y) { return hn::Or(x, hn::Not(y)); }, word);
    case 12:
      return RowLoop(
          a, b, out, words, [](V x, V) { return hn::Not(x); }, word);
    case 13:
      return RowLoop(
          a, b, out, words, [](V x, V y) { return hn::Or(hn::Not(x), y); }, word);
    case 14:
      return RowLoop(
          a, b, out, words, [](V x, V y) { return hn::Not(hn::And(x, y)); }, word);
    default:
      return RowLoop(
          a, b, out, words, [&](V, V) { return ones; }, word);
  }
}

}  // namespace dlca::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
