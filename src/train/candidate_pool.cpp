// The candidates of a run as it trains them (see candidate_pool.hpp): rounds of epochs, successive
// halving at the rungs, the budget and new starts.
#include "dlca/train/candidate_pool.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "dlca/train/multi_start.hpp"
#include "dlca/train/picture_kept.hpp"

namespace dlca {

std::vector<int64_t> halving_rungs(int64_t epochs) {
  std::vector<int64_t> rungs;
  for (const int64_t r : {epochs / 4, epochs / 2})
    if (r >= kMinRungEpoch && r < epochs && (rungs.empty() || rungs.back() != r))
      rungs.push_back(r);
  return rungs;
}

double rung_score(std::span<const EpochStats> history) {
  if (history.empty()) throw std::invalid_argument("rung_score: no epochs");
  const size_t n = std::max<size_t>(1, history.size() / 10);
  double sum = 0;
  for (size_t i = history.size() - n; i < history.size(); ++i) sum += history[i].soft_loss;
  return sum / double(n);
}

std::vector<bool> judge_at_rung(std::vector<double>& earlier, std::span<const double> scores) {
  earlier.insert(earlier.end(), scores.begin(), scores.end());
  const size_t keep = (earlier.size() + 1) / 2;
  std::vector<bool> continues;
  for (const double s : scores)
    continues.push_back(size_t(std::count_if(earlier.begin(), earlier.end(),
                                             [&](double e) { return e < s; })) < keep);
  return continues;
}

size_t leading_candidate(const std::vector<EpochStats>& stats) {
  size_t best = 0;
  for (size_t k = 1; k < stats.size(); ++k)
    if (stats[k].hard_loss < stats[best].hard_loss) best = k;
  return best;
}

double end_hard_loss(const Trainer& candidate) {
  const Model& model = candidate.model();
  if (model.config.stay)
    if (const std::optional<PictureKept> kept = picture_kept(model)) return kept->total_wrong();
  const auto& history = candidate.history();
  return history.empty() ? 0.0 : history.back().hard_loss;
}

namespace {

constexpr const char* kFateNames[] = {"training", "finished", "halted", "diverged",
                                      "out_of_budget"};

}  // namespace

CandidatePool::CandidatePool(std::span<Trainer* const> first, const ExperimentConfig& run,
                             int64_t epochs, AddStart add, ReleaseStart release,
                             const HalvingRecord* resumed)
    : trainers_(first.begin(), first.end()),
      fates_(first.size(), StartFate::kTraining),
      diverged_epoch_(first.size(), 0),
      add_(std::move(add)),
      release_(std::move(release)),
      epochs_(epochs),
      slots_(run.halving ? run.starts : int(first.size())),
      halving_(run.halving),
      budget_epochs_(!run.halving            ? 0
                     : run.budget_epochs > 0 ? run.budget_epochs
                                             : int64_t(run.starts) * epochs),
      budget_seconds_(run.halving ? double(run.budget_minutes) * 60.0 : 0.0) {
  if (trainers_.empty()) throw std::invalid_argument("CandidatePool: no candidates");
  if (halving_ && !add_) throw std::invalid_argument("CandidatePool: halving needs new starts");
  if (halving_) rungs_ = halving_rungs(epochs);
  rung_scores_.resize(rungs_.size());
  if (resumed) {
    if (!halving_ || resumed->fates.size() != trainers_.size() || resumed->rungs != rungs_ ||
        resumed->rung_scores.size() > rungs_.size())
      throw std::invalid_argument("CandidatePool: the halving state does not fit the run");
    epochs_used_ = resumed->epochs_used;
    diverged_epoch_ = resumed->diverged_epochs;
    for (size_t r = 0; r < resumed->rung_scores.size(); ++r)
      rung_scores_[r] = resumed->rung_scores[r];
    for (size_t k = 0; k < trainers_.size(); ++k) {
      const std::string& name = resumed->fates[k];
      fates_[k] = StartFate(std::find(std::begin(kFateNames), std::end(kFateNames), name) -
                            std::begin(kFateNames));
      // Stopped by the budget, or finished under fewer epochs: they train on under this run's.
      if (fates_[k] == StartFate::kOutOfBudget ||
          (fates_[k] == StartFate::kFinished && trainers_[k] && trainers_[k]->epoch() < epochs_))
        fates_[k] = StartFate::kTraining;
      const bool held = fates_[k] != StartFate::kHalted && fates_[k] != StartFate::kFinished;
      if (held && !trainers_[k])
        throw std::invalid_argument("CandidatePool: a start the halving state holds is missing");
    }
  } else {
    for (Trainer* t : trainers_)
      if (!t) throw std::invalid_argument("CandidatePool: a candidate is missing");
  }
  mark_finished();
  // A checkpoint continues under this run's budget: spent already, nothing trains; else the places
  // its own budget left empty are filled first, as the run would have gone on.
  if (resumed) settle_budget(0);
}

void CandidatePool::mark_finished() {
  for (size_t k = 0; k < trainers_.size(); ++k)
    if (fates_[k] == StartFate::kTraining && trainers_[k]->epoch() >= epochs_)
      fates_[k] = StartFate::kFinished;
}

void CandidatePool::settle_budget(double seconds) {
  if (!budget_spent(seconds)) {
    fill_places();
    return;
  }
  spent_ = true;
  for (StartFate& fate : fates_)
    if (fate == StartFate::kTraining) fate = StartFate::kOutOfBudget;
}

HalvingRecord CandidatePool::halving_record() const {
  HalvingRecord h;
  h.slots = slots_;
  h.epochs_used = epochs_used_;
  for (const StartFate f : fates_) h.fates.push_back(kFateNames[int(f)]);
  h.diverged_epochs = diverged_epoch_;
  h.rungs = rungs_;
  h.rung_scores = rung_scores_;
  return h;
}

bool CandidatePool::training() const {
  return std::find(fates_.begin(), fates_.end(), StartFate::kTraining) != fates_.end();
}

CandidateRound CandidatePool::train_round(tbb::task_arena& arena) {
  std::vector<size_t> starts;
  std::vector<Trainer*> trainers;
  for (size_t k = 0; k < trainers_.size(); ++k)
    if (fates_[k] == StartFate::kTraining) {
      starts.push_back(k);
      trainers.push_back(trainers_[k]);
    }
  const std::vector<CandidateEpoch> epochs = run_candidate_epochs(trainers, arena);
  CandidateRound round;
  for (size_t i = 0; i < starts.size(); ++i) {
    ++epochs_used_;
    if (epochs[i].diverged.empty()) {
      round.trained.emplace_back(starts[i], epochs[i].stats);
    } else {
      fates_[starts[i]] = StartFate::kDiverged;
      diverged_epoch_[starts[i]] = trainers[i]->epoch() + 1;
      round.diverged.emplace_back(starts[i], epochs[i].diverged);
    }
  }
  return round;
}

bool CandidatePool::budget_spent(double seconds) const {
  return (budget_epochs_ > 0 && epochs_used_ >= budget_epochs_) ||
         (budget_seconds_ > 0 && seconds >= budget_seconds_);
}

void CandidatePool::release(size_t start) {
  if (release_) release_(int(start));
  trainers_[start] = nullptr;
}

void CandidatePool::settle_round(const CandidateRound& round, double seconds) {
  // Halving: the candidates that reached a rung this round are judged together.
  for (size_t r = 0; r < rungs_.size(); ++r) {
    std::vector<size_t> arrived;
    std::vector<double> scores;
    for (const auto& [k, stats] : round.trained)
      if (trainers_[k] && trainers_[k]->epoch() == rungs_[r]) {
        arrived.push_back(k);
        scores.push_back(rung_score(trainers_[k]->history()));
      }
    if (arrived.empty()) continue;
    const std::vector<bool> continues = judge_at_rung(rung_scores_[r], scores);
    for (size_t i = 0; i < arrived.size(); ++i)
      if (!continues[i]) {
        fates_[arrived[i]] = StartFate::kHalted;
        release(arrived[i]);
      }
  }
  mark_finished();
  if (halving_) settle_budget(seconds);
}

void CandidatePool::fill_places() {
  // Finished candidates beyond the number of places are released, the highest hard loss at the
  // end first: a budget in minutes could otherwise keep any number of them. (Scored only then: a
  // window loss runs the hard circuit, and this is asked every round.)
  std::vector<size_t> finished;
  for (size_t k = 0; k < trainers_.size(); ++k)
    if (fates_[k] == StartFate::kFinished && trainers_[k]) finished.push_back(k);
  if (finished.size() > size_t(slots_)) {
    std::vector<double> end_loss(trainers_.size());
    for (const size_t k : finished) end_loss[k] = end_hard_loss(*trainers_[k]);
    std::stable_sort(finished.begin(), finished.end(),
                     [&](size_t a, size_t b) { return end_loss[a] < end_loss[b]; });
    for (size_t i = size_t(slots_); i < finished.size(); ++i) release(finished[i]);
  }
  // New starts in the places freed.
  int training_now = int(std::count(fates_.begin(), fates_.end(), StartFate::kTraining));
  for (; training_now < slots_; ++training_now) {
    const size_t start = trainers_.size();
    trainers_.push_back(add_(int(start)));
    fates_.push_back(StartFate::kTraining);
    diverged_epoch_.push_back(0);
  }
}

bool CandidatePool::none_left() const { return choosable().empty() && !training(); }

std::vector<size_t> CandidatePool::choosable() const {
  std::vector<size_t> out;
  for (size_t k = 0; k < trainers_.size(); ++k)
    if (trainers_[k] && fates_[k] != StartFate::kHalted && fates_[k] != StartFate::kDiverged &&
        !trainers_[k]->history().empty())
      out.push_back(k);
  return out;
}

size_t CandidatePool::leading() const {
  const std::vector<size_t> candidates = choosable();
  if (candidates.empty()) throw std::logic_error("CandidatePool::leading: no candidate left");
  std::vector<EpochStats> last;
  for (const size_t k : candidates) last.push_back(trainers_[k]->history().back());
  return candidates[leading_candidate(last)];
}

nlohmann::json CandidatePool::record() const {
  nlohmann::json halted = nlohmann::json::array(), diverged = nlohmann::json::array();
  for (size_t k = 0; k < fates_.size(); ++k) {
    if (fates_[k] == StartFate::kHalted) halted.push_back(k);
    if (fates_[k] == StartFate::kDiverged)
      diverged.push_back({{"start", k}, {"epoch", diverged_epoch_[k] - 1}});  // its index
  }
  nlohmann::json j = {{"tried", fates_.size()}, {"halted", halted}, {"diverged", diverged}};
  if (halving_) {
    j["halving"] = true;
    j["budget_epochs"] = budget_epochs_;
    j["budget_minutes"] = budget_seconds_ / 60.0;
    j["epochs_used"] = epochs_used_;
    j["budget_spent"] = spent_;
  }
  return j;
}

std::string CandidatePool::describe() const {
  const auto count = [&](StartFate f) { return std::count(fates_.begin(), fates_.end(), f); };
  std::string line;
  if (halving_)
    line = fmt::format(
        "starts: {} tried, {} at a time, {} stopped by halving; {} of {} candidate "
        "epochs used{}",
        fates_.size(), slots_, count(StartFate::kHalted), epochs_used_, budget_epochs_,
        spent_ ? " (the budget is spent)" : "");
  for (size_t k = 0; k < fates_.size(); ++k)
    if (fates_[k] == StartFate::kDiverged)
      line += fmt::format("{}start {} diverged at epoch {} and was dropped",
                          line.empty() ? "" : "; ", k, diverged_epoch_[k] - 1);
  return line;
}

}  // namespace dlca
