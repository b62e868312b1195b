// Bit-sliced hard rollout: states and every gate row hold one bit per cell, 64 cells per word.
#include "dlca/hard_rollout.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "dlca/ops.hpp"

namespace dlca {

namespace {

using RowOp = void (*)(const uint64_t*, const uint64_t*, uint64_t*, size_t);

template <int Op>
void apply_op(const uint64_t* a, const uint64_t* b, uint64_t* out, size_t words) {
  for (size_t w = 0; w < words; ++w) out[w] = hard_op_word(Op, a[w], b[w]);
}

template <int... Ops>
constexpr std::array<RowOp, sizeof...(Ops)> make_row_ops(std::integer_sequence<int, Ops...>) {
  return {&apply_op<Ops>...};
}

constexpr auto kRowOps = make_row_ops(std::make_integer_sequence<int, kNumOps>{});

bool get_bit(const uint64_t* bits, size_t i) { return (bits[i >> 6] >> (i & 63)) & 1; }
void set_bit(uint64_t* bits, size_t i) { bits[i >> 6] |= uint64_t{1} << (i & 63); }

}  // namespace

HardRollout hard_rollout(const CellProgram& prog, const std::vector<uint8_t>& ops,
                         const GridGeometry& geo, const float* initial_state, int steps,
                         const std::vector<uint8_t>& masks, const Target& target,
                         const std::vector<int>& loss_channels) {
  const int cells = geo.cells(), hw = geo.plane(), C = geo.channels;
  const size_t words = (size_t(cells) + 63) / 64;
  std::vector<uint64_t> state(size_t(C) * words, 0), next(size_t(C) * words);
  for (int cell = 0; cell < cells; ++cell)
    for (int c = 0; c < C; ++c)
      if (initial_state[geo.state_base[cell] + size_t(c) * hw] > 0.5f)
        set_bit(&state[c * words], cell);

  std::vector<uint64_t> rows(size_t(prog.num_rows) * words);
  std::vector<uint64_t> fire(words);
  for (int s = 0; s < steps; ++s) {
    for (int c = 0; c < C; ++c)
      for (int p = 0; p < 9; ++p) {
        uint64_t* row = &rows[CellProgram::patch_row(c, p) * words];
        std::fill(row, row + words, 0);
        for (int cell = 0; cell < cells; ++cell) {
          const int32_t nb = geo.neighbour[size_t(cell) * 9 + p];
          if (nb >= 0 && get_bit(&state[c * words], nb)) set_bit(row, cell);
        }
      }
    for (const GateOp& op : prog.ops)
      kRowOps[ops[op.gate]](&rows[op.a * words], &rows[op.b * words], &rows[op.out * words], words);
    if (!masks.empty()) {
      std::fill(fire.begin(), fire.end(), 0);
      for (int cell = 0; cell < cells; ++cell)
        if (masks[size_t(s) * hw + cell % hw]) set_bit(fire.data(), cell);
    }
    for (int c = 0; c < C; ++c) {
      const uint64_t* out = &rows[prog.output_rows[c] * words];
      for (size_t w = 0; w < words; ++w)
        next[c * words + w] =
            masks.empty() ? out[w] : (state[c * words + w] & ~fire[w]) | (out[w] & fire[w]);
    }
    std::swap(state, next);
  }

  HardRollout result;
  result.final_state.assign(geo.state_size(), 0);
  for (int cell = 0; cell < cells; ++cell)
    for (int c = 0; c < C; ++c)
      result.final_state[geo.state_base[cell] + size_t(c) * hw] = get_bit(&state[c * words], cell);
  for (int cell = 0; cell < cells; ++cell)
    for (int c : loss_channels) {
      const double diff =
          double(get_bit(&state[c * words], cell)) - target.values[size_t(c) * hw + cell % hw];
      result.loss +=
          diff * diff;  // the soft loss's formula; the number of wrong bits for binary targets
    }
  return result;
}

}  // namespace dlca
