// What a model was trained to do, as model files (version 3) store it: grow the checkerboard,
// learn the Game of Life, or grow an image (its binarised target planes, and whether the grid
// started from a seed cell). dlca_eval and dlca_run read it instead of guessing from names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dlca/core/config.hpp"

namespace dlca {

enum class TaskKind { kUnknown, kCheckerboard, kGameOfLife, kImage };

struct TrainedTask {
  TaskKind kind = TaskKind::kUnknown;
  bool inferred = false;   // guessed from a version 2 file's experiment name
  bool seed_cell = false;  // image: the centre cell starts at 1 in every channel
  int planes = 0;          // image: target planes, for channels 0 .. planes-1
  int height = 0, width = 0;
  std::vector<uint8_t> target;  // image: [planes][height][width], 0 or 1
  std::string source;           // image: where the target came from (informational)

  TrainedTask() = default;
  explicit TrainedTask(TaskKind k) : kind(k) {}

  // Same task and target (the informational source aside).
  bool same_as(const TrainedTask& other) const;
};

const char* task_kind_name(TaskKind kind);
// "checkerboard", "game_of_life", "image (20x20, 1 plane, seed cell)", ...
std::string describe_task(const TrainedTask& task);

// Version 2 model files did not store the task: the one rule used for them. A name starting with
// "checkerboard" is the checkerboard, "game_of_life" the Game of Life, anything else unknown.
TrainedTask task_inferred_from_name(const ExperimentConfig& config);

// Throws ConfigError("task...: reason") unless the task can have trained the configuration.
void check_task_fits(const TrainedTask& task, const ExperimentConfig& config);

// {"kind": "checkerboard"} | {"kind": "game_of_life"} |
// {"kind": "image", "seed_cell": "center" | "none", "source": "...", "planes": k, "height": H,
//  "width": W, "rows": [k*H strings]}: each row in hex, 4 cells a digit, the first cell in the
// digit's highest bit. task_from_json throws ConfigError naming the field.
nlohmann::json task_to_json(const TrainedTask& task);
TrainedTask task_from_json(const nlohmann::json& json);

}  // namespace dlca
