// Checkerboard target and random initial grids, fresh every epoch from the seed's data key.
#include "dlca/checkerboard.hpp"

#include "dlca/model.hpp"
#include "dlca/random.hpp"

namespace dlca {

Target checkerboard_target(int channels, int height, int width, int square) {
  Target t;
  t.channels = channels;
  t.height = height;
  t.width = width;
  t.values.assign(size_t(channels) * height * width, 0.0f);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      t.values[size_t(y) * width + x] = float((y / square + x / square) % 2);
  return t;
}

void random_binary_states(uint64_t key, size_t count, std::vector<float>& out) {
  out.resize(count);
  for (size_t i = 0; i < count; i += 64) {
    const uint64_t bits = derive_key(key, i / 64);
    for (size_t j = 0; j < 64 && i + j < count; ++j) out[i + j] = float((bits >> j) & 1);
  }
}

CheckerboardTask::CheckerboardTask(const ExperimentConfig& config)
    : config_(config),
      target_(checkerboard_target(config.channels, config.height, config.width)),
      data_key_(SeedKeys(config.seed).data) {}

void CheckerboardTask::initial_states(uint64_t epoch, std::vector<float>& out) const {
  random_binary_states(derive_key(data_key_, epoch),
                       size_t(config_.batch) * config_.channels * config_.height * config_.width,
                       out);
}

}  // namespace dlca
