// The checkerboard experiment (docs/MODEL.md §10.1): the target and random binary initial grids.
#pragma once

#include "dlca/core/config.hpp"
#include "dlca/core/jax_random.hpp"
#include "dlca/train/task.hpp"

namespace dlca {

// value(y, x) = (y/square + x/square) mod 2 in channel 0 (top-left block 0); other channels 0.
Target checkerboard_target(int channels, int height, int width, int square = 2);

// Every value independently 0 or 1 with probability 1/2, from (key, index): [batch][C][H][W].
void random_binary_states(uint64_t key, size_t count, std::vector<float>& out);

class CheckerboardTask : public Task {
 public:
  explicit CheckerboardTask(const ExperimentConfig& config);
  const Target& target() const { return target_; }
  void initial_states(uint64_t epoch, std::vector<float>& out) const;
  void make_batch(uint64_t epoch, TaskBatch& out) const override {
    initial_states(epoch, out.initial_states);
    out.target = target_;
  }
  TrainedTask describe() const override { return TrainedTask(TaskKind::kCheckerboard); }

 private:
  ExperimentConfig config_;
  Target target_;
  uint64_t data_key_;
  mutable jax::EpochKeys jax_keys_;  // JAX streams: the notebook's per-epoch data keys
};

}  // namespace dlca
