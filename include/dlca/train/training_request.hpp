// One training as a front end asks for it (the programs, the sweep, the Python module): what to
// train, on which backend, from which checkpoint, with which files and observers. Each front end
// builds a TrainingRequest from its own options; start_training checks it and prepares its
// candidates in one place, so a run option and its checks are added once and read the same from
// every front end (each in its own terms: option_names.hpp).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "dlca/io/output_paths.hpp"
#include "dlca/train/backend_choice.hpp"
#include "dlca/train/training_run.hpp"
#include "dlca/train/training_setup.hpp"

namespace dlca {

struct TrainingRequest {
  ExperimentConfig config;        // the settings, with what was given marked (config.given)
  MakeTask task_of;               // the experiment's task for a configuration
  BackendChoice backend;          // its cpu options apply to a CPU run
  std::string resume_path;        // a checkpoint to continue (empty: a new run)
  uint64_t memory_limit = 0;      // bytes the run may use (0: what the machine has)
  std::vector<NamedPath> inputs;  // the files the run reads (experiment, target picture)
  TrainingRunOptions run;         // its outputs, threads and observers (epochs: set from config)
  // The programs' default outputs (a new folder runs/EXPERIMENT-seedS/): its --save is named once
  // the run is accepted, so that a refused run leaves no folder.
  bool save_named_later = false;
};

// Run options that contradict each other or the checkpoint (a --checkpoint-every with nothing to
// write, or that falls on no epoch): bad usage, exit status 2 in the programs, ValueError in
// Python.
class RunOptionError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Every check before any work, in this order: a checkpoint period with nothing to write to, the
// outputs against each other and the inputs
// (check_output_paths), the memory to decode the input pictures, the checkpoint (read, and
// fitting the run), the checkpoint period; then the recipe resolved for the task
// (resolve_recipe) and the candidates prepared (prepare_training). Sets `request.config` to the
// run's and fills the run options it decides (epochs, threads, the tile size recorded in
// checkpoints) and whether a resumed checkpoint has anything left to train
// (PreparedTraining::nothing_to_train). Throws with a one-line reason naming the option.
PreparedTraining start_training(TrainingRequest& request);

}  // namespace dlca
