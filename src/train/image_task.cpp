// Image-growing task and the lizard / colored G presets.
#include "dlca/train/image_task.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "dlca/io/image_target.hpp"
#include "dlca/train/picture_kept.hpp"

namespace dlca {

ExperimentConfig lizard_config() {
  return paper_config("lizard", 128, 4, {9, 8, 4, 2, 1}, layers(640, 8, 512, {256, 128}), 20, 12, 1,
                      3500, 0.06f, true);
}

ExperimentConfig colored_g_config() {
  return paper_config("colored_g", 64, 4, {9, 8, 4, 2}, layers(576, 8, 512, {256, 128, 64}), 16, 15,
                      1, 3000, 0.06f, false, {0, 1, 2});
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

// Found by trying every count up to 1024, as the range depends on the layer widths.
std::pair<int, int> channel_range(const ExperimentConfig& config) {
  int low = 0, high = 0;
  for (int channels = 1; channels <= 1024; ++channels) {
    ExperimentConfig c = config;
    try {
      set_channels(c, channels);
      c.loss_channels = {0};
      validate(c);
    } catch (const ConfigError&) {
      continue;
    }
    if (low == 0) low = channels;
    high = channels;
  }
  return {low, high};
}

ImageTask::ImageTask(const ExperimentConfig& c, std::vector<uint8_t> planes, int plane_count,
                     bool seed_cell, std::string source)
    : initial_(size_t(c.batch) * c.channels * c.height * c.width, 0.0f),
      described_(TaskKind::kImage) {
  described_.seed_cell = seed_cell;
  described_.planes = plane_count;
  described_.height = c.height;
  described_.width = c.width;
  described_.target = std::move(planes);
  described_.source = std::move(source);
  if (plane_count > c.channels)
    throw ConfigError(fmt::format("channels: a target of {} planes needs at least {} channels",
                                  plane_count, plane_count));
  require_target_planes(c, plane_count);
  if (described_.target.size() != size_t(plane_count) * c.height * c.width)
    throw std::invalid_argument("image task: target and configuration sizes differ");
  target_ = target_from_planes(described_.target, plane_count, c.channels, c.height, c.width);
  if (seed_cell)
    for (int b = 0; b < c.batch; ++b)
      for (int ch = 0; ch < c.channels; ++ch)
        initial_[((size_t(b) * c.channels + ch) * c.height + c.height / 2) * c.width +
                 c.width / 2] = 1.0f;
}

bool ImageTask::solved_by(const Model& model) const {
  if (!model.config.stay) return true;
  const std::optional<PictureKept> kept = picture_kept(model);
  return kept && kept->exact();
}

void ImageTask::make_batch(uint64_t, TaskBatch& out) const {
  out.initial_states = initial_;
  out.target = target_;
}

}  // namespace dlca
