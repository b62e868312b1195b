// Choosing an experiment for a user's picture (see picture_experiment.hpp).
#include "dlca/train/picture_experiment.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "dlca/core/option_names.hpp"
#include "dlca/train/image_task.hpp"
#include "dlca/train/picture_kept.hpp"

namespace dlca {

PictureExperiment picture_experiment(const PictureRequest& request) {
  PictureExperiment out;
  Image image = load_png(request.path);
  out.picture_width = image.width;
  out.picture_height = image.height;
  // Chosen: the picture's side, at least 3 (the smallest grid; a smaller picture is enlarged) and
  // at most kLargestChosenPictureSide.
  const int size = request.size.value_or(
      std::clamp(std::max(image.width, image.height), 3, kLargestChosenPictureSide));
  if (size < 3 || size > 1024)
    throw ConfigError(fmt::format("size: must be from 3 to 1024, got {}", size));
  if (image.width != size || image.height != size) image = resize_area(image, size, size);

  // The 8-colour code of every cell: two or more colours besides black ask for three channels.
  const std::vector<uint8_t> planes = cell_planes(image, PictureColours::k8Colour, 0);
  const size_t cells = size_t(size) * size;
  std::set<int> codes;
  for (size_t i = 0; i < cells; ++i) {
    const int code = planes[i] | planes[cells + i] << 1 | planes[2 * cells + i] << 2;
    if (code != 0) codes.insert(code);
  }
  out.colours_seen = int(codes.size());
  const PictureColours colours = request.colours.value_or(
      codes.size() >= 2 ? PictureColours::k8Colour : PictureColours::kMono);

  ExperimentConfig& c = out.experiment.config;
  c = colored_g_config();
  c.name = "image:" + request.path.substr(request.path.find_last_of('/') + 1);
  c.height = c.width = size;
  c.steps = std::max(c.steps, size / 2 + 7);
  if (request.channels) {
    const auto [low, high] = channel_range(c);
    if (*request.channels < low || *request.channels > high)
      throw ConfigError(fmt::format("{}: the colored G's architecture builds for {} to {}, got {}",
                                    option_name("channels"), low, high, *request.channels));
    set_channels(c, *request.channels);
  }
  c.periodic = request.periodic.value_or(c.periodic);
  c.loss_channels =
      colours == PictureColours::kMono ? std::vector<int>{0} : std::vector<int>{0, 1, 2};
  validate(c);
  TaskSpec& task = out.experiment.task;
  task.kind = "image";
  task.image = request.path;
  task.colours = picture_colours_name(colours);
  task.seed_cell = request.seed_cell.value_or(false);
  if (request.threshold) {
    if (colours != PictureColours::kMono)
      throw ConfigError(
          fmt::format("{}: not used with 8colour (only for mono)", option_name("threshold")));
    if (!(*request.threshold >= 0.0f && *request.threshold <= 1.0f))
      throw ConfigError(fmt::format("{}: must be from 0 to 1, got {}", option_name("threshold"),
                                    *request.threshold));
    task.threshold = *request.threshold;
  }

  out.colours_asked = request.colours.has_value();
  return out;
}

std::string picture_description(const PictureExperiment& chosen, const ExperimentConfig& config,
                                bool seed_cell) {
  const int size = config.height;
  const bool resized = size != chosen.picture_width || size != chosen.picture_height;
  const bool mono = chosen.experiment.task.colours == "mono";
  return fmt::format(
      "picture {}x{}{}: {} ({} colour{} besides black{}), grown on a {}x{} grid from {} with {} "
      "in {} steps{} (the colored G's architecture)",
      chosen.picture_width, chosen.picture_height,
      resized ? fmt::format(", area-resized to {}x{}", size, size) : std::string(),
      mono ? "one channel (mono)" : "three channels (8colour)", chosen.colours_seen,
      chosen.colours_seen == 1 ? "" : "s", chosen.colours_asked ? ", as asked" : "", size, size,
      seed_cell ? "a seed cell in the centre" : "an empty grid",
      config.periodic ? "a periodic boundary (torus)" : "a zero boundary",
      config.loss_steps > 1 ? config.steps - config.loss_steps + 1 : config.steps,
      config.stay ? fmt::format(", taught to stay to step {} ({})", kept_last_step(config),
                                option_name("stay"))
      : config.loss_steps > 1
          ? fmt::format(", kept to step {} ({})", config.steps,
                        option_with_value("loss_steps", std::to_string(config.loss_steps)))
          : std::string());
}

}  // namespace dlca
