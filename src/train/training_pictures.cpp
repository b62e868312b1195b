// Loss-curve file names and the rollout GIF of a trained rule.
#include "dlca/train/training_pictures.hpp"

#include "dlca/circuits/bit_grid.hpp"
#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/cell_program.hpp"
#include "dlca/core/option_names.hpp"
#include "dlca/core/random.hpp"
#include "dlca/io/cell_pictures.hpp"
#include "dlca/io/image_output.hpp"

#include <fmt/format.h>

namespace dlca {

std::string svg_beside(const std::string& csv_path) {
  const std::string ext = ".csv";
  if (csv_path.size() > ext.size() &&
      csv_path.compare(csv_path.size() - ext.size(), ext.size(), ext) == 0)
    return csv_path.substr(0, csv_path.size() - ext.size()) + ".svg";
  return csv_path + ".svg";
}

namespace {
int rollout_gif_zoom(const ExperimentConfig& cfg) {
  return std::max(1, 256 / std::max(cfg.height, cfg.width));
}
}  // namespace

void check_rollout_gif(const ExperimentConfig& cfg) {
  if (int64_t(std::max(cfg.height, cfg.width)) * rollout_gif_zoom(cfg) > kMaxGifSide)
    throw ConfigError(
        fmt::format("{}: a {}x{} grid is too large for a GIF (at most {} pixels a side)",
                    option_name("gif"), cfg.width, cfg.height, kMaxGifSide));
}

void write_rollout_gif(const Model& model, const Task& task, const std::string& path) {
  rollout_gif_uncommitted(model, task, path)->commit();
}

void write_rollout_gif(const Model& model, const float* initial_state, const std::string& path) {
  rollout_gif_uncommitted(model, initial_state, path)->commit();
}

std::unique_ptr<OutputFile> rollout_gif_uncommitted(const Model& model, const Task& task,
                                                    const std::string& path) {
  TaskBatch batch;
  task.make_batch(0, batch);
  return rollout_gif_uncommitted(model, batch.initial_states.data(), path);  // the first sample
}

std::unique_ptr<OutputFile> rollout_gif_uncommitted(const Model& model, const float* initial_state,
                                                    const std::string& path) {
  const ExperimentConfig& cfg = model.config;
  const GridGeometry geometry =
      make_grid_geometry(1, cfg.height, cfg.width, cfg.channels, cfg.periodic);
  const CellProgram program = build_cell_program(model);
  BitGrid sim(program, hard_ops(model), geometry);
  sim.set_state(initial_state);
  const bool rgb = cfg.loss_channels.size() >= 3 && cfg.channels >= 3;
  const int zoom = rollout_gif_zoom(cfg);
  GifWriter gif(path, 100);
  const auto frame = [&] {
    gif.add_frame(render_cells(sim.state(), cfg.channels, cfg.height, cfg.width, rgb, zoom));
  };
  frame();
  const int steps = 2 * cfg.steps;
  const std::vector<uint8_t> masks =
      cfg.async ? fire_masks(derive_key(cfg.seed, 77), steps, cfg.height, cfg.width, cfg.fire_rate)
                : std::vector<uint8_t>{};
  for (int s = 0; s < steps; ++s) {
    if (cfg.async)
      sim.step_masked(&masks[size_t(s) * cfg.height * cfg.width]);
    else
      sim.step();
    frame();
    // The trained step is marked: its frame held for a second (the GIF's frames are 0.1 s).
    if (s + 1 == cfg.steps)
      for (int hold = 1; hold < 10; ++hold) frame();
  }
  return gif.finish_uncommitted();
}

}  // namespace dlca
