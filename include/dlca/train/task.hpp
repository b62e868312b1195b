// What an experiment trains towards: a target, and the initial grids of each epoch.
// The trainer asks a Task for data; the backend never sees where it came from.
#pragma once

#include <cstdint>
#include <vector>

#include "dlca/core/grid.hpp"
#include "dlca/core/model.hpp"
#include "dlca/core/trained_task.hpp"

namespace dlca {

// One epoch's training data.
struct TaskBatch {
  std::vector<float> initial_states;  // [batch][C][H][W]
  Target target;                      // shared by the batch, or one per sample
};

class Task {
 public:
  virtual ~Task() = default;
  // Fills the initial grids and the target of one epoch.
  virtual void make_batch(uint64_t epoch, TaskBatch& out) const = 0;
  // What this task trains a model to do (stored in model files).
  virtual TrainedTask describe() const = 0;
  // Whether a model whose hard loss was 0 on an epoch's batch does the whole task. A stop when
  // solved asks it; a task whose batches are samples (Game of Life: 20 of the 512 neighbourhoods)
  // checks all of it, one whose every batch is the whole task says yes.
  virtual bool solved_by(const Model&) const { return true; }
};

}  // namespace dlca
