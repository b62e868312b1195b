// The bit-parallel grid simulator (see bit_grid.hpp).
#include "dlca/circuits/bit_grid.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include <tbb/parallel_for.h>

#include "dlca/circuits/bit_rows.hpp"
#include "dlca/core/random.hpp"

namespace dlca {

BitGrid::BitGrid(const Circuit& circuit, std::shared_ptr<const CircuitKernel> kernel, int height,
                 int width, bool periodic)
    : kernel_(std::move(kernel)),
      channels_(circuit.channels),
      height_(height),
      width_(width),
      periodic_(periodic),
      row_words_((size_t(width) + 63) / 64) {
  if (!kernel_) throw std::invalid_argument("BitGrid needs a circuit kernel");
  if (height < 1 || width < 1 || height > 65536 || width > 65536)
    throw std::invalid_argument("grid sides must be between 1 and 65536");
  if (channels_ < 1 || channels_ > 1024)
    throw std::invalid_argument("circuits must have between 1 and 1024 channels");
  // Bands of at least ~512 words per kernel call, and enough bands to share between threads.
  band_rows_ = std::clamp<size_t>(512 / row_words_, 1, std::max(1, height / 8));
  tail_mask_ = width % 64 ? (uint64_t{1} << (width % 64)) - 1 : ~uint64_t{0};
  state_.assign(size_t(channels_) * plane_words(), 0);
  next_.assign(state_.size(), 0);
}

void BitGrid::set(int channel, int y, int x, bool value) {
  uint64_t& word =
      state_[size_t(channel) * plane_words() + size_t(y) * row_words_ + size_t(x) / 64];
  const uint64_t bit = uint64_t{1} << (x % 64);
  word = value ? word | bit : word & ~bit;
}

std::vector<uint64_t> BitGrid::packed(const uint8_t* plane_bytes) const {
  std::vector<uint64_t> bits(plane_words(), 0);
  for (int y = 0; y < height_; ++y)
    pack_bit_row(plane_bytes + size_t(y) * width_, width_, &bits[size_t(y) * row_words_]);
  return bits;
}

void BitGrid::set_plane(int channel, const uint8_t* plane_bytes) {
  for (int y = 0; y < height_; ++y) set_row(channel, y, plane_bytes + size_t(y) * width_);
}

void BitGrid::set_row(int channel, int y, const uint8_t* row_bytes) {
  pack_bit_row(row_bytes, width_,
               &state_[size_t(channel) * plane_words() + size_t(y) * row_words_]);
}

void BitGrid::get_row(int channel, int y, uint8_t* row_bytes) const {
  unpack_bit_row(plane(channel) + size_t(y) * row_words_, width_, row_bytes);
}

void BitGrid::step() { run_step(nullptr, 0); }

void BitGrid::step_async(double fire_rate, uint64_t key) { run_step(&fire_rate, key); }

void BitGrid::run_step(const double* fire_rate, uint64_t key) {
  const size_t RW = row_words_, bands = (size_t(height_) + band_rows_ - 1) / band_rows_;
  const int C = channels_;
  const float rate = fire_rate ? float(*fire_rate) : 0.0f;  // training's float rate
  tbb::parallel_for(size_t(0), bands, [&](size_t band) {
    const size_t y0 = band * band_rows_, rows = std::min(band_rows_, size_t(height_) - y0);
    BandScratch& scratch = scratch_.local();
    std::vector<uint64_t>& shifted = scratch.shifted;
    shifted.resize(size_t(C) * 3 * (band_rows_ + 2) * RW);
    scratch.patch.resize(size_t(9) * C);
    scratch.next.resize(size_t(C));
    const uint64_t** patch = scratch.patch.data();
    uint64_t** next = scratch.next.data();
    for (int c = 0; c < C; ++c) {
      uint64_t* left = &shifted[(size_t(c) * 3 + 0) * (band_rows_ + 2) * RW];  // cell x-1
      uint64_t* middle_copy = left + (band_rows_ + 2) * RW;
      uint64_t* right = middle_copy + (band_rows_ + 2) * RW;  // cell x+1
      // Bands away from the top and bottom edges read the unshifted rows in place.
      const bool interior = y0 >= 1 && y0 + rows + 1 <= size_t(height_);
      const uint64_t* middle = interior ? plane(c) + (y0 - 1) * RW : middle_copy;
      for (size_t r = 0; r < rows + 2; ++r) {
        const int64_t y = int64_t(y0 + r) - 1;
        uint64_t* m_copy = middle_copy + r * RW;
        const uint64_t* m = middle + r * RW;
        if (y < 0 || y >= height_) {
          if (!periodic_) {
            std::fill_n(m_copy, RW, 0);
            std::fill_n(left + r * RW, RW, 0);
            std::fill_n(right + r * RW, RW, 0);
            continue;
          }
        }
        if (!interior) std::copy_n(plane(c) + size_t((y + height_) % height_) * RW, RW, m_copy);
        uint64_t* l = left + r * RW;
        uint64_t* rt = right + r * RW;
        // Branch-free interior (vectorised by the compiler), then the first and last word.
        for (size_t w = 1; w + 1 < RW; ++w) {
          l[w] = (m[w] << 1) | (m[w - 1] >> 63);
          rt[w] = (m[w] >> 1) | (m[w + 1] << 63);
        }
        l[0] = m[0] << 1;
        rt[RW - 1] = m[RW - 1] >> 1;
        if (RW > 1) {
          l[RW - 1] = (m[RW - 1] << 1) | (m[RW - 2] >> 63);
          rt[0] = (m[0] >> 1) | (m[1] << 63);
        }
        const int last = width_ - 1;
        const uint64_t first_bit = m[0] & 1, last_bit = (m[size_t(last) / 64] >> (last % 64)) & 1;
        l[0] = (l[0] & ~uint64_t{1}) | (periodic_ ? last_bit : 0);
        uint64_t& end = rt[size_t(last) / 64];
        end = (end & ~(uint64_t{1} << (last % 64))) | ((periodic_ ? first_bit : 0) << (last % 64));
      }
      for (int p = 0; p < 9; ++p) {
        const uint64_t* base = p % 3 == 0 ? left : p % 3 == 1 ? middle : right;
        patch[9 * c + p] = base + size_t(p / 3) * RW;  // rows y-1, y, y+1 for p / 3 = 0, 1, 2
      }
      next[c] = &next_[size_t(c) * plane_words() + y0 * RW];
    }
    kernel_->run(patch, next, rows * RW);
    for (int c = 0; c < C; ++c) {
      uint64_t* out = next[c];
      for (size_t r = 0; r < rows; ++r) out[r * RW + RW - 1] &= tail_mask_;
      if (!fire_rate) continue;
      const uint64_t* old = plane(c) + y0 * RW;
      for (size_t r = 0; r < rows; ++r)
        for (size_t w = 0; w < RW; ++w) {
          uint64_t fire = 0;
          const size_t cell0 = (y0 + r) * size_t(width_) + w * 64;
          for (int b = 0; b < 64 && w * 64 + size_t(b) < size_t(width_); ++b)
            fire |= uint64_t(fires(uniform01(key, cell0 + size_t(b)), rate)) << b;
          out[r * RW + w] = (old[r * RW + w] & ~fire) | (out[r * RW + w] & fire);
        }
    }
  });
  std::swap(state_, next_);
}

void BitGrid::zero_rectangle(int y0, int x0, int rows, int columns) {
  const int y1 = std::min(height_, y0 + rows), x1 = std::min(width_, x0 + columns);
  y0 = std::max(0, y0);
  x0 = std::max(0, x0);
  for (int c = 0; c < channels_; ++c)
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) set(c, y, x, false);
}

uint64_t BitGrid::count(int channel) const {
  uint64_t n = 0;
  const uint64_t* p = plane(channel);
  for (size_t i = 0; i < plane_words(); ++i) n += uint64_t(std::popcount(p[i]));
  return n;
}

uint64_t BitGrid::differences(int channel, const std::vector<uint64_t>& target_plane) const {
  uint64_t n = 0;
  const uint64_t* p = plane(channel);
  for (size_t i = 0; i < plane_words(); ++i) n += uint64_t(std::popcount(p[i] ^ target_plane[i]));
  return n;
}

}  // namespace dlca
