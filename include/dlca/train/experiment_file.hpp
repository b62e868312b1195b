// Experiment files: a configuration plus what the task is, as readable JSON, selectable by name
// (targets/NAME.json) or by path:
//   {"config": {...ExperimentConfig keys...},
//    "task": {"kind": "checkerboard"} | {"kind": "game_of_life"} |
//            {"kind": "image", "image": "lizard.png", "colours": "mono" | "8colour",
//             "threshold": 0.26, "seed_cell": "center" | "none"}}
// An image path is relative to the experiment file.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "dlca/core/config.hpp"
#include "dlca/io/cell_pictures.hpp"
#include "dlca/train/task.hpp"

namespace dlca {

struct TaskSpec {
  std::string kind = "checkerboard";    // checkerboard, game_of_life, image
  std::string image;                    // image: PNG path (resolved)
  std::string colours = "mono";         // image: mono or 8colour
  float threshold = kDefaultThreshold;  // image: mono threshold
  bool seed_cell = true;                // image: centre cell set in all channels
};

struct ExperimentFile {
  ExperimentConfig config;
  TaskSpec task;
  std::string path;  // the file read
};

// NAME (a file NAME.json in `targets_dir`) or a path to a .json file. Throws FileError naming the
// file (or the name and the experiments there), or ConfigError naming the field.
ExperimentFile load_experiment(const std::string& name_or_path, const std::string& targets_dir);
// The same with names looked up in the data folder (data_dir.hpp); a path needs no data folder.
ExperimentFile load_experiment(const std::string& name_or_path);
// An experiment already parsed from JSON (a file's content, or a Python dict); image paths are
// relative to `dir`; errors start with `label`.
ExperimentFile experiment_from_json(const nlohmann::json& json, const std::filesystem::path& dir,
                                    const std::string& label);
// Whether the argument is a file (a .json name, or any path with a /) rather than an experiment
// name.
bool names_a_file(const std::string& name_or_path);
// The task the spec describes, for the (possibly adjusted) config.
std::unique_ptr<Task> make_task(const TaskSpec& spec, const ExperimentConfig& config);
// The same for an experiment file's task; errors (a task that does not fit the config, an image
// that cannot be read) name the experiment file.
std::unique_ptr<Task> make_task(const ExperimentFile& file, const ExperimentConfig& config);

}  // namespace dlca
