// Neighbour tables, async fire masks and target helpers shared by every backend and the reference.
#include "dlca/core/grid.hpp"

#include "dlca/core/random.hpp"

namespace dlca {

GridGeometry make_grid_geometry(int batch, int height, int width, int channels, bool periodic) {
  GridGeometry g;
  g.batch = batch;
  g.height = height;
  g.width = width;
  g.channels = channels;
  g.periodic = periodic;
  const int n = g.cells(), hw = g.plane();
  g.neighbour.assign(size_t(n) * 9, -1);
  g.inverse.assign(size_t(n) * 9, -1);
  g.state_base.resize(n);
  const auto cell_at = [&](int b, int y, int x) -> int32_t {
    if (periodic) {
      y = ((y % height) + height) % height;
      x = ((x % width) + width) % width;
    } else if (y < 0 || y >= height || x < 0 || x >= width) {
      return -1;
    }
    return (b * height + y) * width + x;
  };
  for (int b = 0; b < batch; ++b)
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        const int cell = (b * height + y) * width + x;
        g.state_base[cell] = uint32_t(size_t(b) * channels * hw + size_t(y) * width + x);
        for (int p = 0; p < 9; ++p) {
          const int dy = p / 3 - 1, dx = p % 3 - 1;
          g.neighbour[size_t(cell) * 9 + p] = cell_at(b, y + dy, x + dx);
          g.inverse[size_t(cell) * 9 + p] = cell_at(b, y - dy, x - dx);
        }
      }
  return g;
}

uint64_t epoch_mask_key(uint64_t masks_key, uint64_t epoch) { return derive_key(masks_key, epoch); }

std::vector<uint8_t> fire_masks(uint64_t mask_key, int steps, int height, int width,
                                float fire_rate) {
  std::vector<uint8_t> masks(size_t(steps) * height * width);
  for (int s = 0; s < steps; ++s) {
    const uint64_t step_key = derive_key(mask_key, uint64_t(s));
    for (int i = 0; i < height * width; ++i)
      masks[size_t(s) * height * width + i] = fires(uniform01(step_key, uint64_t(i)), fire_rate);
  }
  return masks;
}

std::vector<uint8_t> jax_fire_masks(jax::Key key, int steps, int height, int width,
                                    float fire_rate) {
  std::vector<uint8_t> masks(size_t(steps) * height * width);
  for (int s = 0; s < steps; ++s) {
    const auto keys = jax::split(key);
    key = keys[0];
    const auto bits = jax::random_bits(keys[1], size_t(height) * width);
    for (size_t i = 0; i < bits.size(); ++i)
      masks[size_t(s) * height * width + i] = fires(jax::uniform_from_bits(bits[i]), fire_rate);
  }
  return masks;
}

}  // namespace dlca
