// Checkerboard target and random initial grids, fresh every epoch from the seed's data key.
#include "dlca/train/checkerboard.hpp"

#include "dlca/core/model.hpp"
#include "dlca/core/random.hpp"

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
      data_key_(SeedKeys(config.seed).data),
      jax_keys_(jax::prng_key(uint32_t(config.seed))) {
  require_target_planes(config, 1);
}

void CheckerboardTask::initial_states(uint64_t epoch, std::vector<float>& out) const {
  const auto& c = config_;
  const size_t count = size_t(c.batch) * c.channels * c.height * c.width;
  if (c.random_streams == RandomStreams::kDlca) {
    random_binary_states(derive_key(data_key_, epoch), count, out);
    return;
  }
  // The notebook: key = PRNGKey(seed); every epoch (key, sample_key) = split(key), then
  // randint(sample_key, (B, H, W, C), 0, 2). dlca's states are [B][C][H][W].
  const jax::Key sample = jax_keys_.sub(epoch);
  const auto bits = jax::randint(sample, count, 2);
  out.resize(count);
  for (int b = 0; b < c.batch; ++b)
    for (int y = 0; y < c.height; ++y)
      for (int x = 0; x < c.width; ++x)
        for (int ch = 0; ch < c.channels; ++ch)
          out[((size_t(b) * c.channels + ch) * c.height + y) * c.width + x] =
              float(bits[((size_t(b) * c.height + y) * c.width + x) * c.channels + ch]);
}

}  // namespace dlca
