// The files of a training run, written from outside its loop (training_loop.hpp): the CSV log with
// its loss curves, checkpoints during the run, and every output at the end, with a rescue of the
// model when --save fails.
#pragma once

#include <string>

#include "dlca/train/training_observer.hpp"
#include "dlca/train/training_run.hpp"
#include "train/training_loop.hpp"

namespace dlca {

class RunFiles {
 public:
  // Checks the outputs before any work (names, links, the loss curves' file, the GIF's size).
  RunFiles(const TrainingRunOptions& options, const ExperimentConfig& run_config);
  // The reason a run that diverged fails with: when --log is given, the log up to the epoch
  // before is written and the reason says so.
  std::string keep_log(const TrainingLoop& loop, const std::string& reason) const;
  // After a round: the log every 5 seconds, a checkpoint every --checkpoint-every; a write that
  // fails (a disk full for a while) is told to the observers and tried again later.
  void during_run(const TrainingLoop& loop);
  // Every output at the end, all or none (a --save that cannot be written goes to the temporary
  // folder when the options say so).
  void write_at_end(const TrainingLoop& loop, const TrainingSummary& summary) const;

 private:
  void write_log(const TrainingLoop& loop) const;

  const TrainingRunOptions& options_;
  double last_log_write_ = 0;
};

}  // namespace dlca
