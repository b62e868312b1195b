// The state of a training run between its rounds (an epoch of every candidate training): the
// candidates, which one is shown and kept, the stop when solved, the repair of an unsolved run and
// the summary at the end. run_training (training_run.cpp) drives it; what watches a run is handed
// over by the front ends (dlca/train/training_observer.hpp), its files are in training_files.hpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tbb/task_arena.h>

#include "dlca/train/candidate_pool.hpp"
#include "dlca/train/training_observer.hpp"
#include "dlca/train/training_run.hpp"

namespace dlca {

// What the repair of an unsolved run did: a line per search, the record (repair_candidates), and
// whether a Ctrl-C cut it short.
struct RepairOutcome {
  std::vector<std::string> lines;
  nlohmann::json record;
  bool stopped = false;
};

class TrainingLoop {
 public:
  TrainingLoop(std::span<Trainer* const> first_candidates, const ExperimentConfig& run_config,
               const TrainingRunOptions& options, CandidatePool::AddStart add_start,
               CandidatePool::ReleaseStart release_start, const HalvingRecord* resumed_halving);

  // Whether a candidate has epochs left and none has solved (or was repaired before the rounds).
  bool training() const { return pool_.training() && !solved() && !repaired_; }
  // Trains one round. Candidates that diverged while others go on are returned (start, reason);
  // when none is left the run fails with TrainingDiverged, after `keep_log` (which may add to
  // the reason, or throw a TrainingDiverged of its own).
  std::vector<std::pair<size_t, std::string>> train_round(
      const std::function<std::string(const std::string& reason)>& keep_log);
  // Whether the round gave an epoch to show (not when only new starts are left that have not
  // trained yet), and that epoch: the chosen candidate's last, or the one a solved stop took back.
  bool has_shown_epoch() const { return has_shown_; }
  EpochStats shown_epoch() const;
  // A round's place in the run, for progress lines and checkpoints: a halving run counts rounds
  // (the candidate shown may stay at an epoch while others train), a plain run its epochs.
  int64_t tick() const;
  bool last_round() const { return !training(); }
  // "  start 2/4  budget 37%" for several candidates, else empty.
  std::string which() const;
  // Seconds left: a halving run's budget, a plain run's epochs.
  double seconds_left() const;
  // The round just trained as the observers see it (when it has an epoch to show).
  TrainingRound round() const;

  // Before the first round of a run with more rounds (--rounds): once every candidate has trained
  // the run's epochs unsolved, tries to repair their circuits as after the last round; one that
  // works ends the run there, else the rounds follow.
  void repair_before_rounds(const std::function<bool()>& stop);
  // After the last round: a run that trained all its epochs unsolved tries to repair the circuits
  // of its candidates (--repair), and keeps the first that works. The outcome also holds the
  // repair before the rounds, when one was tried.
  RepairOutcome repair_if_unsolved(const std::function<bool()>& stop);
  // The summary of the run so far (after the repair).
  TrainingSummary summarize(const std::string& backend_name, const RepairOutcome& repair,
                            int stop_signal,
                            const std::function<nlohmann::json(const Model&)>& evaluate) const;

  // The --save file's text: a checkpoint of the chosen candidate (and, while unsolved, of all).
  std::string checkpoint_text() const;
  const Trainer& chosen() const { return pool_.at(chosen_); }
  std::vector<EpochStats> measured() const { return measured_epochs(chosen()); }
  const std::string& experiment() const { return experiment_; }
  int64_t epochs() const { return options_.epochs; }
  int64_t resumed_from_epoch() const { return resumed_from_epoch_; }
  bool solved() const { return solved_by_.has_value(); }
  int solved_window() const { return solved_window_; }
  bool repaired() const { return repaired_; }
  bool several() const { return several_; }
  const CandidatePool& pool() const { return pool_; }
  double elapsed() const;

 private:
  void count_streaks();
  // Repairs the candidates that can be chosen (repair_candidates) and keeps the first that works;
  // `at_epoch` names the repair before more rounds in its lines.
  RepairOutcome repair_choosable(const std::function<bool()>& stop,
                                 std::optional<int64_t> at_epoch);

  const TrainingRunOptions& options_;
  uint64_t run_seed_;
  Recipe recipe_;
  bool repair_asked_;
  int64_t rounds_after_;  // the epoch more rounds follow (0: none), where a repair comes first
  CandidatePool pool_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  tbb::task_arena arena_;
  size_t chosen_ = 0;  // the candidate shown, saved and summarised
  std::string experiment_;
  int64_t resumed_from_epoch_ = 0;
  bool several_ = false;
  int solved_window_ = 0;             // --stop-when-solved
  std::vector<int64_t> zero_streak_;  // consecutive epochs with hard loss 0, by candidate
  std::optional<size_t> solved_by_;
  bool repaired_ = false;  // --repair found a working circuit (after the last epoch, or before
                           // the rounds)
  std::optional<RepairOutcome> before_rounds_;  // that repair's, once tried
  bool cut_short_ = false;  // stopped while a candidate still had epochs to train
  bool has_shown_ = false;
  int64_t rounds_ = 0;            // of this invocation, with an epoch shown
  std::vector<double> round_ms_;  // wall time of each round
};

}  // namespace dlca
