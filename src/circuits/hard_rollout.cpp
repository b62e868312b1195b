// Bit-sliced hard simulation: states and every gate row hold one bit per cell, 64 cells per word.
#include "dlca/circuits/hard_rollout.hpp"

#include <algorithm>
#include <array>

#include <tbb/parallel_for.h>

#include "circuits/row_ops.hpp"

namespace dlca {

namespace {

void set_bit(uint64_t* bits, size_t i) { bits[i >> 6] |= uint64_t{1} << (i & 63); }
void put_bit(uint64_t* bits, size_t i, bool v) {
  bits[i >> 6] = (bits[i >> 6] & ~(uint64_t{1} << (i & 63))) | (uint64_t(v) << (i & 63));
}

// For words [first, last): out[w - first] bit i = in bit (64w + i + shift) where that lies in
// [0, words*64), else 0.
void shift_bits(const uint64_t* in, uint64_t* out, size_t words, int64_t shift, size_t first,
                size_t last) {
  const int64_t word_shift = shift >= 0 ? shift / 64 : -((-shift + 63) / 64);
  const int bit_shift = int(shift - word_shift * 64);  // 0..63
  const auto word = [&](int64_t w) { return w >= 0 && w < int64_t(words) ? in[w] : uint64_t{0}; };
  for (size_t w = first; w < last; ++w) {
    const int64_t from = int64_t(w) + word_shift;
    out[w - first] = bit_shift == 0
                         ? word(from)
                         : (word(from) >> bit_shift) | (word(from + 1) << (64 - bit_shift));
  }
}

}  // namespace

HardSimulator::HardSimulator(const CellProgram& program, std::vector<uint8_t> ops,
                             const GridGeometry& geometry)
    : program_(program),
      ops_(std::move(ops)),
      geometry_(geometry),
      words_((size_t(geometry.cells()) + 63) / 64),
      state_(size_t(geometry.channels) * words_, 0),
      next_(state_.size()),
      fire_(words_) {
  // Blocks of words small enough that every row of the program for one block stays in L2
  // (1 MiB measured best on the published GoL circuit: 251 us at 512x512 against 283 with 256 KiB).
  block_words_ = std::clamp<size_t>(
      (size_t(1) << 20) / (8 * std::max<uint32_t>(program.num_rows, 1)), 1, words_);
  for (int p = 0; p < 9; ++p) {
    shift_[p] = int64_t(p / 3 - 1) * geometry.width + (p % 3 - 1);
    for (int cell = 0; cell < geometry.cells(); ++cell)
      if (geometry.neighbour[size_t(cell) * 9 + p] != cell + shift_[p]) fixups_[p].push_back(cell);
  }
}

void HardSimulator::set_state(const float* state) {
  std::fill(state_.begin(), state_.end(), 0);
  for (int cell = 0; cell < geometry_.cells(); ++cell)
    for (int c = 0; c < geometry_.channels; ++c)
      if (state[geometry_.state_base[cell] + size_t(c) * geometry_.plane()] > 0.5f)
        set_bit(&state_[c * words_], cell);
}

void HardSimulator::set_state(const std::vector<uint8_t>& state) {
  std::fill(state_.begin(), state_.end(), 0);
  for (int cell = 0; cell < geometry_.cells(); ++cell)
    for (int c = 0; c < geometry_.channels; ++c)
      if (state[geometry_.state_base[cell] + size_t(c) * geometry_.plane()])
        set_bit(&state_[c * words_], cell);
}

void HardSimulator::step(const uint8_t* fire_mask) {
  const int cells = geometry_.cells(), hw = geometry_.plane(), C = geometry_.channels;
  if (fire_mask) {
    std::fill(fire_.begin(), fire_.end(), 0);
    for (int cell = 0; cell < cells; ++cell)
      if (fire_mask[cell % hw]) set_bit(fire_.data(), cell);
  }
  const size_t blocks = (words_ + block_words_ - 1) / block_words_;
  // Blocks read the old state and write disjoint words of the new one.
  tbb::parallel_for(size_t(0), blocks, [&](size_t block) {
    const size_t first = block * block_words_, last = std::min(words_, first + block_words_),
                 n = last - first;
    std::vector<uint64_t>& rows = rows_.local();
    rows.resize(size_t(program_.num_rows) * block_words_);
    for (int c = 0; c < C; ++c)
      for (int p = 0; p < 9; ++p) {
        uint64_t* row = &rows[CellProgram::patch_row(c, p) * block_words_];
        shift_bits(&state_[c * words_], row, words_, shift_[p], first, last);
        const auto& fix = fixups_[p];
        for (auto it = std::lower_bound(fix.begin(), fix.end(), int32_t(first * 64));
             it != fix.end() && size_t(*it) < last * 64; ++it) {
          const int32_t nb = geometry_.neighbour[size_t(*it) * 9 + p];
          put_bit(row, size_t(*it) - first * 64, nb >= 0 && bit(c, nb));
        }
      }
    for (const GateOp& op : program_.ops)
      apply_row_op(ops_[op.gate], &rows[op.a * block_words_], &rows[op.b * block_words_],
                   &rows[op.out * block_words_], n);
    for (int c = 0; c < C; ++c) {
      const uint64_t* out = &rows[program_.output_rows[c] * block_words_];
      for (size_t w = first; w < last; ++w)
        next_[c * words_ + w] =
            fire_mask ? (state_[c * words_ + w] & ~fire_[w]) | (out[w - first] & fire_[w])
                      : out[w - first];
    }
  });
  std::swap(state_, next_);
}

std::vector<uint8_t> HardSimulator::state() const {
  std::vector<uint8_t> out(geometry_.state_size(), 0);
  for (int cell = 0; cell < geometry_.cells(); ++cell)
    for (int c = 0; c < geometry_.channels; ++c)
      out[geometry_.state_base[cell] + size_t(c) * geometry_.plane()] = bit(c, cell);
  return out;
}

double HardSimulator::loss(const Target& target, const std::vector<int>& loss_channels) const {
  const int hw = geometry_.plane(), w = geometry_.width;
  double loss = 0;
  for (int cell = 0; cell < geometry_.cells(); ++cell)
    for (int c : loss_channels) {
      const double diff =
          double(bit(c, cell)) - target.at(cell / hw, c, (cell % hw) / w, (cell % hw) % w);
      loss += diff * diff;  // the soft loss's formula; the number of wrong bits for binary targets
    }
  return loss;
}

HardRollout hard_rollout(const CellProgram& program, const std::vector<uint8_t>& ops,
                         const GridGeometry& geometry, const float* initial_state, int steps,
                         const uint8_t* masks, const Target& target,
                         const std::vector<int>& loss_channels) {
  HardSimulator sim(program, ops, geometry);
  sim.set_state(initial_state);
  for (int s = 0; s < steps; ++s) sim.step(masks ? masks + size_t(s) * geometry.plane() : nullptr);
  return {sim.state(), sim.loss(target, loss_channels)};
}

}  // namespace dlca
