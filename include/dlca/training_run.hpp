// Running a whole training for a command-line program: epochs with a live progress line (or plain
// periodic lines when not on a terminal), the per-epoch CSV log, the final summary (printed and as
// JSON), and the saved parameters. Ctrl-C stops after the current epoch and still writes
// everything.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "dlca/trainer.hpp"

namespace dlca {

struct TrainingRunOptions {
  int64_t epochs = 0;
  std::string log_path;      // CSV: epoch,soft_loss,hard_loss,active_gates,ms
  std::string summary_path;  // JSON summary
  std::string save_path;     // parameter file
  int print_every = 100;     // plain-line period when not on a terminal
  bool quiet = false;        // no progress output at all
  // Run on the final model before the summary is written; its keys are added to the summary JSON.
  // They are printed after the summary as "key value".
  std::function<nlohmann::json(const Model&)> evaluate;
};

struct TrainingSummary {
  std::string experiment;
  std::string backend;
  int64_t epochs = 0;
  double final_soft_loss = 0, final_hard_loss = 0;
  std::optional<int64_t> first_zero_epoch;  // first epoch whose hard loss was 0
  int active_gates = 0;                     // of the final parameters
  double wall_seconds = 0;
  double median_epoch_ms = 0;
  bool interrupted = false;
  // Hard circuit's op counts (argmax), perception (per kernel) and update separately.
  std::vector<int> perception_op_counts, update_op_counts;
  nlohmann::json extra;  // keys from TrainingRunOptions::evaluate
  nlohmann::json to_json() const;
};

TrainingSummary run_training(Trainer& trainer, const std::string& backend_name,
                             const TrainingRunOptions& options, std::ostream& out);

}  // namespace dlca
