// The candidates of a training run as it trains them: which still train, which stopped and why,
// the new starts a halving run adds while its budget lasts (--starts auto), and which candidate is
// ahead. The run's loop (training_run.cpp) trains them a round of epochs at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <tbb/task_arena.h>
#include <nlohmann/json.hpp>

#include "dlca/core/config.hpp"
#include "dlca/core/epoch_stats.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/trainer.hpp"

namespace dlca {

// Where a candidate stands.
enum class StartFate {
  kTraining,     // trains in the next round
  kFinished,     // trained all its epochs
  kHalted,       // stopped by successive halving at a rung (released: never chosen)
  kDiverged,     // its last epoch diverged (its parameters are those before it; never chosen)
  kOutOfBudget,  // stopped when the run's budget was spent
};

// One round of epochs: each trained candidate's epoch, and the candidates whose epoch diverged
// with the reason, by start.
struct CandidateRound {
  std::vector<std::pair<size_t, EpochStats>> trained;
  std::vector<std::pair<size_t, std::string>> diverged;
};

// Successive halving's rungs for candidates of `epochs` epochs: a quarter and half of them, in
// order, without repeats, those before kMinRungEpoch left out (every candidate still sits on the
// plateau of its pass-through start there: results/log/training.md, "Does an early loss predict a
// solve?"). A run of fewer than 4 x kMinRungEpoch epochs has none: its starts all train to the end.
inline constexpr int64_t kMinRungEpoch = 20;
std::vector<int64_t> halving_rungs(int64_t epochs);
// A candidate's score at a rung: its mean soft loss over the last tenth of the epochs up to it (at
// least one), less noisy than one epoch's.
double rung_score(std::span<const EpochStats> history);
// Which of the candidates that reached a rung together continue: `earlier` holds the scores of
// every candidate that reached it before; a candidate continues when fewer than half (rounded up)
// of all scores at the rung, its own included, are lower than its own. Appends the new scores to
// `earlier`.
std::vector<bool> judge_at_rung(std::vector<double>& earlier, std::span<const double> scores);
// The candidate to keep while none has solved, of their last epochs: the lowest hard loss, the
// lowest start on ties.
size_t leading_candidate(const std::vector<EpochStats>& stats);
// A candidate's hard loss at the end of its training: its last epoch's, or for a picture grown to
// stay (--stay, whose epochs score one state each) its hard circuit's over the whole window, T to
// 2T (picture_kept.hpp).
double end_hard_loss(const Trainer& candidate);

class CandidatePool {
 public:
  // Builds start `start`'s candidate (a new start of a halving run) and returns its trainer.
  using AddStart = std::function<Trainer*(int start)>;
  // Frees a candidate that will not train or be chosen again (its trainer is not used after).
  using ReleaseStart = std::function<void(int start)>;

  // `first`: the run's candidates, start k at index k; each trains to `epochs`. `run` supplies
  // starts, halving and the budget. `resumed`: where a halving run's checkpoint stood (then
  // `first` holds null for the starts it no longer held); candidates stopped by its budget, or
  // finished under fewer epochs, train on under this run's.
  CandidatePool(std::span<Trainer* const> first, const ExperimentConfig& run, int64_t epochs,
                AddStart add, ReleaseStart release, const HalvingRecord* resumed = nullptr);

  // One epoch of every candidate still training (run_candidate_epochs: in parallel, or together
  // on a device). A candidate whose epoch diverged stops there.
  CandidateRound train_round(tbb::task_arena& arena);
  // After a round the run goes on from: candidates that finished, halving at the rungs, the budget
  // (`seconds` of wall time so far), and new starts in the places freed.
  void settle_round(const CandidateRound& round, double seconds);

  bool training() const;
  // No candidate left that could be chosen: every one diverged (or was halted behind those).
  bool none_left() const;
  // The candidate to keep while none has solved: the lowest last hard loss among those that can
  // be chosen (not halted, not diverged), the lowest start on ties.
  size_t leading() const;
  // Those that can be chosen, by start (a repair tries them).
  std::vector<size_t> choosable() const;

  size_t size() const { return trainers_.size(); }
  Trainer& at(size_t start) const { return *trainers_.at(start); }
  // Every start's trainer, null for those released.
  std::span<Trainer* const> all() const { return trainers_; }
  bool halving() const { return halving_; }
  int64_t epochs_used() const { return epochs_used_; }      // epochs trained in all, this run
  int64_t budget_epochs() const { return budget_epochs_; }  // 0: none (starts of fixed count)
  StartFate fate(size_t start) const { return fates_.at(start); }

  // Where a halving run stands, for its checkpoint.
  HalvingRecord halving_record() const;
  // For the summary: starts tried, halted and diverged, and the budget with how much was used.
  nlohmann::json record() const;
  // A line for the printed summary ("" for a run of fixed starts where all trained to the end).
  std::string describe() const;

 private:
  bool budget_spent(double seconds) const;
  void release(size_t start);
  // Releases finished candidates beyond the places, then adds new starts in the free places.
  void fill_places();
  // Candidates that trained all their epochs are finished.
  void mark_finished();
  // A halving run's budget: when spent (`seconds` of wall time so far), those training stop;
  // else the free places are filled.
  void settle_budget(double seconds);

  std::vector<Trainer*> trainers_;
  std::vector<StartFate> fates_;
  std::vector<int64_t> diverged_epoch_;  // as HalvingRecord::diverged_epochs
  AddStart add_;
  ReleaseStart release_;
  int64_t epochs_;
  int slots_;
  bool halving_;
  int64_t budget_epochs_;  // 0: none
  double budget_seconds_;  // 0: none
  int64_t epochs_used_ = 0;
  bool spent_ = false;
  std::vector<int64_t> rungs_;
  std::vector<std::vector<double>> rung_scores_;
};

}  // namespace dlca
