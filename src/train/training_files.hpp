// What watches a training run from outside its loop (training_loop.hpp): the progress display
// (a live line on a terminal, plain periodic lines otherwise), the requests to stop (Ctrl-C,
// SIGTERM, the caller), and the run's files (the CSV log with its loss curves, checkpoints during
// the run, every output at the end, with a rescue of the model when --save fails).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>

#include "dlca/io/stop_signals.hpp"
#include "dlca/train/training_run.hpp"
#include "train/training_loop.hpp"

namespace dlca {

// "12.3 s", "4m05s", "2h07m".
std::string format_seconds(double seconds);

// Ctrl-C or SIGTERM (when the run handles signals): stop after this epoch and write everything; a
// second one: stop now. And the caller's own requests (TrainingRunOptions::stop, on_epoch).
class StopRequests {
 public:
  explicit StopRequests(const TrainingRunOptions& options);
  bool requested();
  void by_caller() { by_caller_ = true; }

 private:
  const TrainingRunOptions& options_;
  std::optional<StopSignals> signals_;
  bool by_caller_ = false;
};

class ProgressDisplay {
 public:
  ProgressDisplay(const TrainingRunOptions& options, std::ostream& out);
  // After a round with an epoch to show.
  void show(const TrainingLoop& loop, const EpochStats& stats);
  // A candidate that diverged while others go on.
  void left_behind(size_t start, const std::string& reason) const;
  // A write during the run that failed (reported once per message).
  void write_failed(const std::string& what);
  // Ends the live line.
  void end() const;

 private:
  const TrainingRunOptions& options_;
  std::ostream& out_;
  bool live_;
  double last_draw_ = -1;
  std::set<std::string> reported_failures_;
};

class RunFiles {
 public:
  // Checks the outputs before any work (names, links, the loss curves' file, the GIF's size).
  RunFiles(const TrainingRunOptions& options, const ExperimentConfig& run_config);
  // The reason a run that diverged fails with: when --log is given, the log up to the epoch
  // before is written and the reason says so.
  std::string keep_log(const TrainingLoop& loop, const std::string& reason) const;
  // After a round: the log every 5 seconds, a checkpoint every --checkpoint-every; a write that
  // fails (a disk full for a while) is reported and tried again later.
  void during_run(const TrainingLoop& loop, ProgressDisplay& progress);
  // Every output at the end, all or none (a --save that cannot be written goes to the temporary
  // folder when the options say so).
  void write_at_end(const TrainingLoop& loop, const TrainingSummary& summary) const;

 private:
  void write_log(const TrainingLoop& loop) const;

  const TrainingRunOptions& options_;
  double last_log_write_ = 0;
};

}  // namespace dlca
