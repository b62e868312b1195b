// A bit-parallel simulator of a hard circuit on grids of any size (tested up to 8192 x 8192):
// each channel is a bit plane, one row after another, a row padded to whole 64-bit words. A step
// builds the nine patch planes of a band of rows from shifted copies of the rows around it and runs
// the circuit kernel over the band's words; bands run in parallel on the caller's TBB arena.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include "dlca/circuits/circuit.hpp"
#include "dlca/circuits/circuit_kernel.hpp"

namespace dlca {

class BitGrid {
 public:
  // The grid shares ownership of the kernel (a temporary is fine); throws on a null kernel.
  BitGrid(const Circuit& circuit, std::shared_ptr<const CircuitKernel> kernel, int height,
          int width, bool periodic);

  int channels() const { return channels_; }
  int height() const { return height_; }
  int width() const { return width_; }
  size_t row_words() const { return row_words_; }

  bool get(int channel, int y, int x) const {
    return (plane(channel)[size_t(y) * row_words_ + size_t(x) / 64] >> (x % 64)) & 1;
  }
  void set(int channel, int y, int x, bool value);
  // A [H][W] plane of bytes (non-zero = 1) in this grid's bit layout; set_plane stores one.
  std::vector<uint64_t> packed(const uint8_t* plane_bytes) const;
  void set_plane(int channel, const uint8_t* plane_bytes);
  // Row y of a channel from, or into, W bytes (non-zero = 1).
  void set_row(int channel, int y, const uint8_t* row_bytes);
  void get_row(int channel, int y, uint8_t* row_bytes) const;
  const uint64_t* plane(int channel) const { return &state_[size_t(channel) * plane_words()]; }
  size_t plane_words() const { return size_t(height_) * row_words_; }

  // One synchronous step.
  void step();
  // One asynchronous step: each cell takes its new state with probability fire_rate, drawn from
  // (key, cell) so that the result does not depend on the thread count.
  void step_async(double fire_rate, uint64_t key);
  // Sets every channel of the cells in the rectangle (clipped to the grid) to 0.
  void zero_rectangle(int y0, int x0, int rows, int columns);
  // Live cells in a channel; cells differing from a plane of the same layout.
  uint64_t count(int channel) const;
  uint64_t differences(int channel, const std::vector<uint64_t>& target_plane) const;

 private:
  void run_step(const double* fire_rate, uint64_t key);
  std::shared_ptr<const CircuitKernel> kernel_;
  int channels_, height_, width_;
  bool periodic_;
  size_t row_words_, band_rows_;
  uint64_t tail_mask_;  // the bits of a row's last word that are cells
  std::vector<uint64_t> state_, next_;
  // Per thread, reused by every band it runs (never on the stack): the shifted rows [C][3][B+2
  // rows] and the kernel's patch [9C] and next [C] pointers.
  struct BandScratch {
    std::vector<uint64_t> shifted;
    std::vector<const uint64_t*> patch;
    std::vector<uint64_t*> next;
  };
  tbb::enumerable_thread_specific<BandScratch> scratch_;
};

}  // namespace dlca
