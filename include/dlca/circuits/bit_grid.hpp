// dlca's one bit-sliced simulator of hard circuits: training's hard loss, the evaluations, the
// repair search, `dlca run` and the big-grid simulator all step a BitGrid. It holds a batch of
// grids of any size (tested up to 8192 x 8192): each channel is a bit plane, the samples' rows one
// after another (row y of sample s is row s*H + y), a row padded to whole 64-bit words. A step
// builds the nine patch planes of a band of rows from shifted copies of the rows around it (each
// sample wraps or is zero-padded on its own) and runs the circuit kernel over the band's words;
// bands run in parallel on the caller's TBB arena.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include "dlca/circuits/circuit.hpp"
#include "dlca/circuits/circuit_kernel.hpp"
#include "dlca/core/cell_program.hpp"
#include "dlca/core/grid.hpp"

namespace dlca {

class BitGrid {
 public:
  // The grid shares ownership of the kernel (a temporary is fine); throws on a null kernel.
  BitGrid(const Circuit& circuit, std::shared_ptr<const CircuitKernel> kernel, int height,
          int width, bool periodic, int batch = 1);
  // The grids of a training or evaluation rollout: the program's hard circuit (one op per gate,
  // pruned) with the interpreted kernel, sized as the geometry (batch, sides, boundary).
  BitGrid(const CellProgram& program, const std::vector<uint8_t>& ops,
          const GridGeometry& geometry);

  int channels() const { return channels_; }
  int height() const { return height_; }  // of one sample
  int width() const { return width_; }
  int batch() const { return batch_; }
  size_t row_words() const { return row_words_; }

  // y: a row of the stacked samples, 0 .. batch*H - 1.
  bool get(int channel, int y, int x) const {
    return (plane(channel)[size_t(y) * row_words_ + size_t(x) / 64] >> (x % 64)) & 1;
  }
  void set(int channel, int y, int x, bool value);
  // A plane of bytes (non-zero = 1) of all stacked rows, [batch*H][W], in this grid's bit layout;
  // set_plane stores one.
  std::vector<uint64_t> packed(const uint8_t* plane_bytes) const;
  void set_plane(int channel, const uint8_t* plane_bytes);
  // Row y of a channel from, or into, W bytes (non-zero = 1).
  void set_row(int channel, int y, const uint8_t* row_bytes);
  void get_row(int channel, int y, uint8_t* row_bytes) const;
  const uint64_t* plane(int channel) const { return &state_[size_t(channel) * plane_words()]; }
  size_t plane_words() const { return size_t(batch_) * size_t(height_) * row_words_; }

  // The whole batch as a state tensor [batch][C][H][W] of bytes (non-zero = 1) or floats
  // (thresholded at 0.5), and back as bytes 0 or 1.
  void set_state(const uint8_t* state);
  void set_state(const float* state);
  std::vector<uint8_t> state() const;
  // Sum over the loss channels of (bit - target)^2: the number of wrong bits for binary targets.
  double loss(const Target& target, const std::vector<int>& loss_channels) const;

  // One synchronous step.
  void step();
  // One asynchronous step with a given fire mask [H*W] (1 = the cell updates), shared by the
  // batch: training's masks.
  void step_masked(const uint8_t* fire_mask);
  // One asynchronous step: each cell takes its new state with probability fire_rate, drawn from
  // (key, cell) so that the result does not depend on the thread count.
  void step_async(double fire_rate, uint64_t key);
  // Sets every channel of the cells in the rectangle of stacked rows (clipped to them) to 0.
  void zero_rectangle(int y0, int x0, int rows, int columns);
  // Live cells in a channel; cells differing from a plane of the same layout.
  uint64_t count(int channel) const;
  uint64_t differences(int channel, const std::vector<uint64_t>& target_plane) const;

 private:
  BitGrid(int channels, std::shared_ptr<const CircuitKernel> kernel, int height, int width,
          bool periodic, int batch);
  // How a step decides which cells take their new state: all (synchronous), draws from (key,
  // cell) at a rate (`dlca run --async`), or a mask of the sample's cells shared by the batch.
  struct FireRule {
    const double* rate = nullptr;
    uint64_t key = 0;
    bool masked = false;  // mask_rows_: [H][row words]
  };
  // Per thread, reused by every band it runs (never on the stack): the shifted rows and the
  // kernel's patch [9C] and next [C] pointers.
  struct BandScratch {
    std::vector<uint64_t> shifted;
    std::vector<const uint64_t*> patch;
    std::vector<uint64_t*> next;
  };
  void run_step(const FireRule& fire);
  // The nine patch planes of every channel for the band of stacked rows [first, first + rows)
  // into scratch.patch: a band inside one sample (shifted copies of its rows and the rows around
  // them, the interior read in place), or whole samples (three vertical neighbours per row).
  void band_patches(size_t first, size_t rows, BandScratch& scratch) const;
  void sample_band_patches(size_t first, size_t rows, BandScratch& scratch) const;
  std::shared_ptr<const CircuitKernel> kernel_;
  int channels_, height_, width_, batch_;
  bool periodic_;
  size_t row_words_;
  size_t band_rows_;       // stacked rows a band holds
  bool bands_in_samples_;  // true: bands are parts of one sample; false: whole samples
  uint64_t tail_mask_;     // the bits of a row's last word that are cells
  std::vector<uint64_t> state_, next_;
  std::vector<uint64_t> mask_rows_;  // step_masked's mask, packed
  tbb::enumerable_thread_specific<BandScratch> scratch_;
};

}  // namespace dlca
