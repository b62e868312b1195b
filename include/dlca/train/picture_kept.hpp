// Whether a grown picture stays: the hard circuit of an image model run from its task's start on
// past the trained step, the wrong bits at every step from T to 2T counted as the hard loss counts
// them. T is the first state the loss compares (steps - loss_steps + 1). It judges the model as
// kept (saved), whose parameters a run that trained all its epochs updated once more after the
// last hard loss was scored. The training summary, sweep rows and Python report it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dlca/core/model.hpp"

namespace dlca {

struct PictureKept {
  int first_step = 0, last_step = 0;  // T and 2T (at least the run's last state)
  std::vector<double> wrong_bits;     // at steps first_step .. last_step, one each
  double most_wrong() const;          // the largest of wrong_bits (0: the picture stays exact)
  double total_wrong() const;         // their sum: the hard loss over the window (--stay's)
  bool exact() const { return most_wrong() == 0; }
  nlohmann::json to_json() const;  // {"from": T, "to": 2T, "wrong_bits": [...], "exact": ...}
  // "the grown picture stays exact at every step from 19 to 38", or how far off it gets.
  std::string describe() const;
};

// The window a grown picture is kept over: T, the first state the loss compares (steps -
// loss_steps + 1), and 2T (at least the run's last state).
int kept_first_step(const ExperimentConfig& config);
int kept_last_step(const ExperimentConfig& config);

// For a synchronous image model (its task stored in the model: the picture and the start, an
// empty grid or a seed cell); none for other tasks and for asynchronous models, whose later steps
// depend on random fire masks.
std::optional<PictureKept> picture_kept(const Model& model);

}  // namespace dlca
