// Image-growing task and the lizard / colored G presets.
#include "dlca/image_task.hpp"

#include <stdexcept>

namespace dlca {

ExperimentConfig lizard_config() {
  ExperimentConfig c;
  c.name = "lizard";
  c.channels = 128;
  c.kernels = 4;
  c.perception_layers = {9, 8, 4, 2, 1};
  c.perception_connections = {Connection::kFirstKernel, Connection::kUnique, Connection::kUnique,
                              Connection::kUnique};
  c.update_layers = {640};
  for (int i = 0; i < 8; ++i) c.update_layers.push_back(512);
  for (int w : {256, 128}) c.update_layers.push_back(w);
  c.update_connections.assign(c.update_layers.size() - 1, Connection::kUnique);
  c.height = c.width = 20;
  c.steps = 12;
  c.batch = 1;
  c.epochs = 3500;
  c.learning_rate = 0.06f;
  c.periodic = true;
  c.loss_channels = {0};
  c.seed = 23;
  c.random_streams = RandomStreams::kJax;
  return c;
}

ExperimentConfig colored_g_config() {
  ExperimentConfig c;
  c.name = "colored_g";
  c.channels = 64;
  c.kernels = 4;
  c.perception_layers = {9, 8, 4, 2};
  c.perception_connections = {Connection::kFirstKernel, Connection::kUnique, Connection::kUnique};
  c.update_layers = {576};
  for (int i = 0; i < 8; ++i) c.update_layers.push_back(512);
  for (int w : {256, 128, 64}) c.update_layers.push_back(w);
  c.update_connections.assign(c.update_layers.size() - 1, Connection::kUnique);
  c.height = c.width = 16;
  c.steps = 15;
  c.batch = 1;
  c.epochs = 3000;
  c.learning_rate = 0.06f;
  c.periodic = false;
  c.loss_channels = {0, 1, 2};
  c.seed = 23;
  c.random_streams = RandomStreams::kJax;
  return c;
}

void set_channels(ExperimentConfig& c, int channels) {
  if (channels <= 0)
    throw ConfigError("channels: must be positive, got " + std::to_string(channels));
  std::vector<int> hidden(c.update_layers.begin() + 1, c.update_layers.end() - 1);
  while (!hidden.empty() && hidden.back() < channels) hidden.pop_back();
  if (hidden.empty()) hidden.push_back(std::max(channels, 2 * channels));
  while (hidden.back() > 2 * channels) hidden.push_back((hidden.back() + 1) / 2);
  c.channels = channels;
  c.update_layers = {channels + c.kernels * channels * c.perception_outputs()};
  c.update_layers.insert(c.update_layers.end(), hidden.begin(), hidden.end());
  c.update_layers.push_back(channels);
  c.update_connections.assign(c.update_layers.size() - 1, Connection::kUnique);
}

ImageTask::ImageTask(const ExperimentConfig& c, Target target, bool seed_cell)
    : initial_(size_t(c.batch) * c.channels * c.height * c.width, 0.0f),
      target_(std::move(target)) {
  if (target_.height != c.height || target_.width != c.width || target_.channels != c.channels)
    throw std::invalid_argument("image task: target and configuration sizes differ");
  if (seed_cell)
    for (int b = 0; b < c.batch; ++b)
      for (int ch = 0; ch < c.channels; ++ch)
        initial_[((size_t(b) * c.channels + ch) * c.height + c.height / 2) * c.width +
                 c.width / 2] = 1.0f;
}

void ImageTask::make_batch(uint64_t, TaskBatch& out) const {
  out.initial_states = initial_;
  out.target = target_;
}

}  // namespace dlca
