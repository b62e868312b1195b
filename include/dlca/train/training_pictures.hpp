// Pictures of a training run: where the loss-curve SVG goes beside the CSV log, and an animated
// GIF of the trained hard rule growing from the task's first initial grid.
#pragma once

#include <memory>
#include <string>

#include "dlca/io/atomic_file.hpp"

#include "dlca/core/model.hpp"
#include "dlca/train/task.hpp"

namespace dlca {

// "run.csv" -> "run.svg"; other names get ".svg" appended.
std::string svg_beside(const std::string& csv_path);

// The hard circuit run for 2 x steps (asynchronously for async configurations) from the first
// initial grid of the task's epoch-0 batch, one frame per step. Channels 0..2 are drawn in colour
// when the loss covers three channels, else channel 0 in black. Throws FileError.
void write_rollout_gif(const Model& model, const Task& task, const std::string& path);
// The same GIF, written but not yet committed (see OutputFile), to commit with other outputs.
std::unique_ptr<OutputFile> rollout_gif_uncommitted(const Model& model, const Task& task,
                                                    const std::string& path);
// The same GIF from a given grid ([C][H][W] of the model's configuration, values 0 or 1) instead of
// the task's (Python's Model.gif).
void write_rollout_gif(const Model& model, const float* initial_state, const std::string& path);
std::unique_ptr<OutputFile> rollout_gif_uncommitted(const Model& model, const float* initial_state,
                                                    const std::string& path);
// Throws ConfigError when the configuration's grid is too large for that GIF.
void check_rollout_gif(const ExperimentConfig& config);

}  // namespace dlca
