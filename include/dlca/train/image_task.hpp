// Growing an image (docs/MODEL.md §10.4, §10.5): a fixed initial grid (one seed cell set in all
// channels, or all zeros) and a fixed binary target. Presets for the paper's lizard and colored G.
#pragma once

#include <utility>

#include "dlca/core/config.hpp"
#include "dlca/train/task.hpp"

namespace dlca {

// The paper's configurations (docs/MODEL.md §10's table).
ExperimentConfig lizard_config();
ExperimentConfig colored_g_config();

// Replaces the channel count of an image config, keeping its hidden update layers and narrowing
// them by halves until they can feed `channels` outputs.
void set_channels(ExperimentConfig& config, int channels);
// The channel counts an image configuration's architecture builds for (set_channels, then
// validate), lowest and highest: the lizard's for 7 to 204, the colored G's for 4 to 113.
std::pair<int, int> channel_range(const ExperimentConfig& config);

class ImageTask : public Task {
 public:
  // planes: the binarised target [plane_count][H][W] for channels 0 .. plane_count-1 (the others'
  // target is 0); seed_cell: the centre cell (H/2, W/2) starts at 1 in every channel (the lizard),
  // otherwise the grid starts empty (the G). source: where the target came from, for model files.
  ImageTask(const ExperimentConfig& config, std::vector<uint8_t> planes, int plane_count,
            bool seed_cell, std::string source);
  void make_batch(uint64_t epoch, TaskBatch& out) const override;
  TrainedTask describe() const override { return described_; }
  // Grown to stay (--stay): only when the picture stays exact from T to 2T (picture_kept.hpp).
  bool solved_by(const Model& model) const override;

 private:
  std::vector<float> initial_;
  Target target_;
  TrainedTask described_;
};

}  // namespace dlca
