// The Game of Life experiment (docs/MODEL.md §10.3): the notebook's configuration, the 512 boards
// of the 3x3 torus and their exact next states, the per-epoch batch of 20 boards drawn with
// replacement, and the two evaluations of a trained circuit (all 512 neighbourhoods; a large
// random torus).
#pragma once

#include <cstdint>
#include <vector>

#include "dlca/core/cell_program.hpp"
#include "dlca/core/config.hpp"
#include "dlca/core/jax_random.hpp"
#include "dlca/core/model.hpp"
#include "dlca/train/task.hpp"

namespace dlca {

ExperimentConfig game_of_life_config();

// One exact B3/S23 step on an H x W torus; grid is [y][x], 0 or 1.
std::vector<uint8_t> life_step(const std::vector<uint8_t>& grid, int height, int width);

// Board n of 512: cell (r, c) = bit (8 - (3r + c)) of n, the top-left cell the most significant.
std::vector<uint8_t> life_board(int n);

class GameOfLifeTask : public Task {
 public:
  explicit GameOfLifeTask(const ExperimentConfig& config);
  void make_batch(uint64_t epoch, TaskBatch& out) const override;
  TrainedTask describe() const override { return TrainedTask(TaskKind::kGameOfLife); }
  // All 512 neighbourhoods right (a batch holds 20).
  bool solved_by(const Model& model) const override;
  // The board indices of one epoch (in [0, 512)).
  std::vector<uint32_t> boards(uint64_t epoch) const;

 private:
  ExperimentConfig config_;
  uint64_t data_key_;
  mutable jax::EpochKeys jax_keys_;  // JAX streams: the notebook's per-epoch data keys
};

// How many of the 512 neighbourhoods the hard circuit maps to Conway's next centre state.
// A circuit is a one-channel program with the hard op of each gate (a model's, or an imported one).
int life_neighbourhoods_correct(const CellProgram& program, const std::vector<uint8_t>& ops);
int life_neighbourhoods_correct(const Model& model);

// Runs the hard circuit and the exact rule side by side from the same random size x size torus
// (cells alive with probability 1/2, from `seed`) for `steps` steps; returns the number of cells
// where the two states differ, summed over all steps.
int64_t life_wrong_cells(const CellProgram& program, const std::vector<uint8_t>& ops, int size,
                         int steps, uint64_t seed);
int64_t life_wrong_cells(const Model& model, int size, int steps, uint64_t seed);

}  // namespace dlca
