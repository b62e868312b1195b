// The bit-parallel grid simulator (see bit_grid.hpp).
#include "dlca/circuits/bit_grid.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "dlca/circuits/bit_rows.hpp"
#include "dlca/core/parallel_for_index.hpp"
#include "dlca/core/random.hpp"

namespace dlca {

namespace {

// Row m shifted to give each cell its left (x-1) and right (x+1) neighbour's bit: the first and
// last cell wrap around (periodic) or read 0.
void shift_row(const uint64_t* m, uint64_t* l, uint64_t* rt, size_t RW, int width, bool periodic) {
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
  const int last = width - 1;
  const uint64_t first_bit = m[0] & 1, last_bit = (m[size_t(last) / 64] >> (last % 64)) & 1;
  l[0] = (l[0] & ~uint64_t{1}) | (periodic ? last_bit : 0);
  uint64_t& end = rt[size_t(last) / 64];
  end = (end & ~(uint64_t{1} << (last % 64))) | ((periodic ? first_bit : 0) << (last % 64));
}

constexpr size_t kBandWords = 512;    // words per kernel call aimed at
constexpr size_t kMinBandWords = 64;  // and at the least, unless the whole grid is smaller

}  // namespace

BitGrid::BitGrid(const Circuit& circuit, std::shared_ptr<const CircuitKernel> kernel, int height,
                 int width, bool periodic, int batch)
    : BitGrid(circuit.channels, std::move(kernel), height, width, periodic, batch) {}

BitGrid::BitGrid(const CellProgram& program, const std::vector<uint8_t>& ops,
                 const GridGeometry& geometry)
    : BitGrid(program.channels, interpreted_kernel(prune(program, ops)), geometry.height,
              geometry.width, geometry.periodic, geometry.batch) {
  if (geometry.channels != program.channels)
    throw std::invalid_argument("BitGrid: the geometry's channels are not the program's");
}

BitGrid::BitGrid(int channels, std::shared_ptr<const CircuitKernel> kernel, int height, int width,
                 bool periodic, int batch)
    : kernel_(std::move(kernel)),
      channels_(channels),
      height_(height),
      width_(width),
      batch_(batch),
      periodic_(periodic),
      row_words_((size_t(width) + 63) / 64) {
  if (!kernel_) throw std::invalid_argument("BitGrid needs a circuit kernel");
  // As training's configurations allow (at most 2^26 cells in a batch).
  constexpr size_t kMostRows = size_t(1) << 26;
  if (height < 1 || width < 1 || size_t(height) > kMostRows || size_t(width) > kMostRows)
    throw std::invalid_argument("grid sides must be between 1 and 2^26");
  if (batch < 1 || size_t(batch) * size_t(height) > kMostRows)
    throw std::invalid_argument("a batch needs 1 or more grids and at most 2^26 rows in all");
  require_grid_channels(channels_);
  const size_t sample_words = size_t(height) * row_words_;
  bands_in_samples_ = batch == 1 || sample_words > kBandWords;
  if (bands_in_samples_) {
    // Bands of ~512 words, at least 64, and enough of them (8 a sample) to share between threads.
    const size_t rows = std::max((size_t(height) + 7) / 8, kMinBandWords / row_words_);
    band_rows_ = std::clamp<size_t>(std::min(kBandWords / row_words_, rows), 1, size_t(height));
  } else {
    // Small samples: whole samples a band, ~512 words, at least 64, 8 bands when the batch allows.
    const size_t most = std::max<size_t>(1, kBandWords / sample_words);
    const size_t least = (kMinBandWords + sample_words - 1) / sample_words;
    const size_t samples = std::clamp<size_t>(std::max(least, (size_t(batch) + 7) / 8), 1, most);
    band_rows_ = std::min<size_t>(samples, size_t(batch)) * size_t(height);
  }
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
  for (int y = 0; y < batch_ * height_; ++y)
    pack_bit_row(plane_bytes + size_t(y) * width_, width_, &bits[size_t(y) * row_words_]);
  return bits;
}

void BitGrid::set_plane(int channel, const uint8_t* plane_bytes) {
  for (int y = 0; y < batch_ * height_; ++y) set_row(channel, y, plane_bytes + size_t(y) * width_);
}

void BitGrid::set_row(int channel, int y, const uint8_t* row_bytes) {
  pack_bit_row(row_bytes, width_,
               &state_[size_t(channel) * plane_words() + size_t(y) * row_words_]);
}

void BitGrid::get_row(int channel, int y, uint8_t* row_bytes) const {
  unpack_bit_row(plane(channel) + size_t(y) * row_words_, width_, row_bytes);
}

void BitGrid::set_state(const uint8_t* state) {
  const size_t plane = size_t(height_) * size_t(width_);
  for (int b = 0; b < batch_; ++b)
    for (int c = 0; c < channels_; ++c)
      for (int y = 0; y < height_; ++y)
        set_row(c, b * height_ + y,
                state + (size_t(b) * channels_ + c) * plane + size_t(y) * width_);
}

void BitGrid::set_state(const float* state) {
  std::vector<uint8_t> bytes(size_t(batch_) * channels_ * height_ * width_);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = state[i] > 0.5f;
  set_state(bytes.data());
}

std::vector<uint8_t> BitGrid::state() const {
  const size_t plane = size_t(height_) * size_t(width_);
  std::vector<uint8_t> out(size_t(batch_) * channels_ * plane);
  for (int b = 0; b < batch_; ++b)
    for (int c = 0; c < channels_; ++c)
      for (int y = 0; y < height_; ++y)
        get_row(c, b * height_ + y, &out[(size_t(b) * channels_ + c) * plane + size_t(y) * width_]);
  return out;
}

double BitGrid::loss(const Target& target, const std::vector<int>& loss_channels) const {
  double loss = 0;
  for (int b = 0; b < batch_; ++b)
    for (int y = 0; y < height_; ++y)
      for (int x = 0; x < width_; ++x)
        for (int c : loss_channels) {
          const double diff = double(get(c, b * height_ + y, x)) - target.at(b, c, y, x);
          loss += diff * diff;  // the soft loss's formula; the number of wrong bits for 0/1 targets
        }
  return loss;
}

void BitGrid::step() { run_step({}); }

void BitGrid::step_async(double fire_rate, uint64_t key) {
  run_step({.rate = &fire_rate, .key = key});
}

void BitGrid::step_masked(const uint8_t* fire_mask) {
  mask_rows_.resize(size_t(height_) * row_words_);
  for (int y = 0; y < height_; ++y)
    pack_bit_row(fire_mask + size_t(y) * width_, width_, &mask_rows_[size_t(y) * row_words_]);
  run_step({.masked = true});
}

void BitGrid::band_patches(size_t first, size_t rows, BandScratch& scratch) const {
  const size_t RW = row_words_, H = size_t(height_);
  const size_t sample = first / H, y0 = first % H;  // the band's sample and its first row there
  std::vector<uint64_t>& shifted = scratch.shifted;
  shifted.resize(size_t(channels_) * 3 * (band_rows_ + 2) * RW);
  for (int c = 0; c < channels_; ++c) {
    const uint64_t* sample_plane = plane(c) + sample * H * RW;
    uint64_t* left = &shifted[(size_t(c) * 3 + 0) * (band_rows_ + 2) * RW];  // cell x-1
    uint64_t* middle_copy = left + (band_rows_ + 2) * RW;
    uint64_t* right = middle_copy + (band_rows_ + 2) * RW;  // cell x+1
    // Bands away from the sample's top and bottom edges read the unshifted rows in place.
    const bool interior = y0 >= 1 && y0 + rows + 1 <= H;
    const uint64_t* middle = interior ? sample_plane + (y0 - 1) * RW : middle_copy;
    for (size_t r = 0; r < rows + 2; ++r) {
      const int64_t y = int64_t(y0 + r) - 1;
      uint64_t* m_copy = middle_copy + r * RW;
      if ((y < 0 || y >= height_) && !periodic_) {
        std::fill_n(m_copy, RW, 0);
        std::fill_n(left + r * RW, RW, 0);
        std::fill_n(right + r * RW, RW, 0);
        continue;
      }
      if (!interior) std::copy_n(sample_plane + size_t((y + height_) % height_) * RW, RW, m_copy);
      shift_row(middle + r * RW, left + r * RW, right + r * RW, RW, width_, periodic_);
    }
    for (int p = 0; p < 9; ++p) {
      const uint64_t* base = p % 3 == 0 ? left : p % 3 == 1 ? middle : right;
      scratch.patch[9 * size_t(c) + p] = base + size_t(p / 3) * RW;  // rows y-1, y, y+1
    }
  }
}

void BitGrid::sample_band_patches(size_t first, size_t rows, BandScratch& scratch) const {
  const size_t RW = row_words_, H = size_t(height_);
  std::vector<uint64_t>& shifted = scratch.shifted;
  shifted.resize(size_t(channels_) * 9 * band_rows_ * RW);
  for (int c = 0; c < channels_; ++c) {
    // [dy][dx]: the row above, at, below each cell (per sample), shifted left, not, right.
    uint64_t* planes = &shifted[size_t(c) * 9 * band_rows_ * RW];
    const auto at = [&](int dy, int dx) { return planes + size_t(3 * dy + dx) * band_rows_ * RW; };
    for (size_t r = 0; r < rows; ++r) {
      const size_t row = first + r, sample = row / H, y = row % H;
      for (int dy = 0; dy < 3; ++dy) {
        uint64_t* m = at(dy, 1) + r * RW;
        uint64_t* l = at(dy, 0) + r * RW;
        uint64_t* rt = at(dy, 2) + r * RW;
        const int64_t from = int64_t(y) + dy - 1;
        if ((from < 0 || from >= height_) && !periodic_) {
          std::fill_n(m, RW, 0);
          std::fill_n(l, RW, 0);
          std::fill_n(rt, RW, 0);
          continue;
        }
        std::copy_n(plane(c) + (sample * H + size_t((from + height_) % height_)) * RW, RW, m);
        shift_row(m, l, rt, RW, width_, periodic_);
      }
    }
    for (int p = 0; p < 9; ++p) scratch.patch[9 * size_t(c) + p] = at(p / 3, p % 3);
  }
}

void BitGrid::run_step(const FireRule& fire) {
  const size_t RW = row_words_, stacked = size_t(batch_) * size_t(height_);
  const size_t bands_per_sample =
      bands_in_samples_ ? (size_t(height_) + band_rows_ - 1) / band_rows_ : 0;
  const size_t bands = bands_in_samples_ ? size_t(batch_) * bands_per_sample
                                         : (stacked + band_rows_ - 1) / band_rows_;
  const int C = channels_;
  const float rate = fire.rate ? float(*fire.rate) : 0.0f;  // training's float rate
  parallel_for_index(bands, [&](size_t band) {
    size_t first, rows;
    if (bands_in_samples_) {
      const size_t y0 = (band % bands_per_sample) * band_rows_;
      first = (band / bands_per_sample) * size_t(height_) + y0;
      rows = std::min(band_rows_, size_t(height_) - y0);
    } else {
      first = band * band_rows_;
      rows = std::min(band_rows_, stacked - first);
    }
    BandScratch& scratch = scratch_.local();
    scratch.patch.resize(size_t(9) * C);
    scratch.next.resize(size_t(C));
    if (bands_in_samples_)
      band_patches(first, rows, scratch);
    else
      sample_band_patches(first, rows, scratch);
    uint64_t** next = scratch.next.data();
    for (int c = 0; c < C; ++c) next[c] = &next_[size_t(c) * plane_words() + first * RW];
    kernel_->run(scratch.patch.data(), next, rows * RW);
    for (int c = 0; c < C; ++c) {
      uint64_t* out = next[c];
      for (size_t r = 0; r < rows; ++r) out[r * RW + RW - 1] &= tail_mask_;
      if (!fire.rate && !fire.masked) continue;
      const uint64_t* old = plane(c) + first * RW;
      for (size_t r = 0; r < rows; ++r)
        for (size_t w = 0; w < RW; ++w) {
          uint64_t fires_here = 0;
          if (fire.masked) {
            fires_here = mask_rows_[((first + r) % size_t(height_)) * RW + w];
          } else {
            const size_t cell0 = (first + r) * size_t(width_) + w * 64;
            for (int b = 0; b < 64 && w * 64 + size_t(b) < size_t(width_); ++b)
              fires_here |= uint64_t(fires(uniform01(fire.key, cell0 + size_t(b)), rate)) << b;
          }
          out[r * RW + w] = (old[r * RW + w] & ~fires_here) | (out[r * RW + w] & fires_here);
        }
    }
  });
  std::swap(state_, next_);
}

void BitGrid::zero_rectangle(int y0, int x0, int rows, int columns) {
  const int y1 = std::min(batch_ * height_, y0 + rows), x1 = std::min(width_, x0 + columns);
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
