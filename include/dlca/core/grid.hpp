// Geometry of a batch of grids and the things every backend derives from it identically:
// cell enumeration, 3x3 neighbourhoods with wrap or zero padding, async fire masks, targets.
// Cells are numbered (sample, y, x) row-major: cell = (b*H + y)*W + x. State tensors are
// [sample][channel][y][x] floats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dlca/core/jax_random.hpp"

namespace dlca {

struct GridGeometry {
  int batch = 0, height = 0, width = 0, channels = 0;
  bool periodic = false;
  std::vector<int32_t> neighbour;  // [cell*9 + p]: cell at patch position p, or -1 (zero padding)
  std::vector<int32_t>
      inverse;  // [cell*9 + p]: the cell whose position-p neighbour is this cell, or -1
  std::vector<uint32_t> state_base;  // [cell]: index of channel 0 of this cell in a state tensor

  int cells() const { return batch * height * width; }
  int plane() const { return height * width; }
  size_t state_size() const { return size_t(cells()) * channels; }
};

GridGeometry make_grid_geometry(int batch, int height, int width, int channels, bool periodic);

// Key of the fire masks of one epoch, from the seed's mask key.
uint64_t epoch_mask_key(uint64_t masks_key, uint64_t epoch);
// Async fire masks for every step: [step][y*W + x], 1 where the cell updates (u <= fire_rate).
// Shared across the batch, as in the notebook.
std::vector<uint8_t> fire_masks(uint64_t mask_key, int steps, int height, int width,
                                float fire_rate);

// The notebook's masks for one rollout key (JAX streams): every step (key, sub) = split(key), then
// uniform(sub, (H, W, 1)) <= fire_rate.
std::vector<uint8_t> jax_fire_masks(jax::Key rollout_key, int steps, int height, int width,
                                    float fire_rate);

// Loss target: [sample][channel][y][x] with `samples` = 1 (the same for every sample of a batch)
// or one per sample. Only the loss channels are read.
struct Target {
  int samples = 1, channels = 0, height = 0, width = 0;
  std::vector<float> values;
  float at(int b, int c, int y, int x) const {
    return values[((size_t(samples == 1 ? 0 : b) * channels + c) * height + y) * width + x];
  }
};

}  // namespace dlca
