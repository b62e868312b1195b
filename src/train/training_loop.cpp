// A training run between its rounds (training_loop.hpp): candidates, the stop when solved, the
// repair of an unsolved run and its summary.
#include "train/training_loop.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "dlca/circuits/circuit.hpp"
#include "dlca/core/median.hpp"
#include "dlca/io/stop_signals.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/multi_start.hpp"
#include "dlca/train/training_setup.hpp"

namespace dlca {

namespace {

// A trainer's state as its checkpoint holds it, with the --tile-cells the run was given.
TrainingState checkpoint_state(const Trainer& trainer, std::optional<int> tile_cells) {
  TrainingState state = training_state_of(trainer);
  state.tile_cells = tile_cells;
  return state;
}

// The summary line of one repair tried (at_epoch: the one before more rounds). A wide search names
// itself and counts only the changes it made after the narrow search's `earlier`.
std::string repair_line(const RepairReport& report, std::optional<int64_t> at_epoch,
                        std::optional<size_t> start, bool works, int64_t budget,
                        RepairSearch search, size_t earlier) {
  const size_t changes = report.changes.size() - earlier;
  return fmt::format(
      "repair{}{}{}: hard loss {:g} -> {:g}{}, {} gate change{} ({} hard rollouts, {:.1f} s){}\n",
      at_epoch ? fmt::format(" at epoch {}", *at_epoch) : std::string(),
      start ? fmt::format(" of start {}", *start) : std::string(),
      search == RepairSearch::kNarrow ? std::string()
                                      : fmt::format(", {}", repair_search_name(search)),
      report.hard_loss_before, report.hard_loss_after,
      report.batches > 1 ? fmt::format(" over {} batches", report.batches) : std::string(), changes,
      changes == 1 ? "" : "s", report.evaluations, report.seconds,
      works                         ? ": applied"
      : report.hard_loss_after == 0 ? ": not the whole task, not applied"
      : report.stopped              ? ": stopped, nothing changed"
      : report.out_of_budget
          ? fmt::format(": not solved within its budget ({} rollouts), nothing changed", budget)
          : ": not solved, nothing changed");
}

// The record of a repair (wide: a wide search of kind `search` after `report`'s narrow one).
nlohmann::json repair_record(size_t start, const Trainer& candidate, const RepairReport& report,
                             const RepairReport* wide, RepairSearch search, bool applied) {
  const RepairReport& last = wide ? *wide : report;
  nlohmann::json record = {{"start", start},
                           {"epoch", candidate.epoch()},  // at --epochs, or after the last round
                           {"hard_loss_before", report.hard_loss_before},
                           {"hard_loss_after", last.hard_loss_after},
                           {"gates_changed", last.changes.size()},
                           {"hard_rollouts", report.evaluations + (wide ? wide->evaluations : 0)},
                           {"batches", report.batches},
                           {"seconds", report.seconds + (wide ? wide->seconds : 0)},
                           {"out_of_budget", last.out_of_budget},
                           {"applied", applied}};
  if (wide)
    record["every_op"] = {{"hard_loss_before", wide->hard_loss_before},
                          {"hard_rollouts", wide->evaluations},
                          {"seconds", wide->seconds}};
  record["search"] = repair_search_name(search);
  return record;
}

// Tries to repair the candidates' hard circuits, lowest last hard loss first, and applies the
// first repair that reaches hard loss 0 on the whole task; returns that candidate. When none does,
// each candidate the narrow search left with at most kWideRepairMaxWrongBits wrong bits a batch and
// scored state is searched again from there over every op of every gate (RepairSettings::every_op),
// closest first, and then those the narrow search changed again from their trained circuits (the
// limit of wrong bits is the narrow results', not the trained circuits').
// None is tried when a candidate already scores 0; `stop` (Ctrl-C) ends the search early, or skips
// it. The record is the applied repair's, else the first wide search's when one ran, else the
// first one tried: that of the best candidate.
std::optional<size_t> repair_candidates(std::span<Trainer* const> candidates,
                                        std::span<const size_t> starts, bool name_starts,
                                        std::optional<int64_t> at_epoch, int threads,
                                        const std::function<bool()>& stop, RepairOutcome& outcome) {
  std::vector<size_t> order(candidates.size());
  std::vector<double> scores;
  for (size_t k = 0; k < order.size(); ++k) {
    order[k] = k;
    scores.push_back(end_hard_loss(*candidates[k]));
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return scores[a] < scores[b]; });
  if (order.empty() || scores[order[0]] == 0) return std::nullopt;
  // Searches candidate k (a wide search from settings.start_from, the narrow search's changes, or
  // from its trained circuit); true when it works.
  const auto try_repair = [&](size_t k, RepairSettings settings, int64_t budget,
                              RepairSearch search, RepairReport& report) {
    Trainer& candidate = *candidates[k];
    settings.max_evaluations = budget;
    settings.threads = threads;
    settings.stop = stop;
    report = candidate.search_repair(settings);
    outcome.stopped = report.stopped;
    bool works = report.hard_loss_after == 0;
    if (works) {
      Model repaired = candidate.model();
      apply_repair(report.changes, repaired.config.gates, repaired.logits);
      works = candidate.task().solved_by(repaired);
    }
    outcome.lines.push_back(repair_line(report, at_epoch,
                                        name_starts ? std::optional(starts[k]) : std::nullopt,
                                        works, budget, search, settings.start_from.size()));
    if (works) candidate.apply_repair(report);
    return works;
  };
  std::vector<std::pair<size_t, RepairReport>> narrow;
  for (size_t k : order) {
    if (stop()) {
      outcome.stopped = true;
      break;
    }
    RepairReport& report = narrow.emplace_back(k, RepairReport()).second;
    const bool works = try_repair(k, {}, repair_budget(candidates[k]->model().config.epochs),
                                  RepairSearch::kNarrow, report);
    if (works || outcome.record.is_null())
      outcome.record =
          repair_record(starts[k], *candidates[k], report, nullptr, RepairSearch::kNarrow, works);
    if (works) return k;
  }
  // The wide searches, from the closest narrow results first (in order among equals), each left
  // with a few wrong bits but not 0.
  std::vector<const std::pair<size_t, RepairReport>*> near;
  for (const auto& tried : narrow)
    if (tried.second.hard_loss_after > 0 &&
        tried.second.hard_loss_after <= kWideRepairMaxWrongBits *
                                            std::max(1, tried.second.batches) *
                                            std::max(1, tried.second.scored_states))
      near.push_back(&tried);
  std::stable_sort(near.begin(), near.end(), [](const auto* a, const auto* b) {
    return a->second.hard_loss_after < b->second.hard_loss_after;
  });
  // Each from its narrow result, then (where the narrow search changed anything) again from the
  // trained hard circuit itself: a first-improvement search ends in a local minimum that depends on
  // where it starts, and the narrow search's changes sometimes lead away from a fix (the heart's
  // seed 14 after its extra rounds, start 2: from the narrow result 1 wrong bit left, from the
  // trained circuit 0).
  for (const bool from_narrow : {true, false})
    for (const auto* tried : near) {
      const auto& [k, report] = *tried;
      if (!from_narrow && report.changes.empty()) continue;  // the same search as before
      if (outcome.stopped || stop()) {
        outcome.stopped = true;
        return std::nullopt;
      }
      RepairSettings every_op;
      every_op.every_op = true;
      if (from_narrow) every_op.start_from = report.changes;
      RepairReport wide;
      const RepairSearch search =
          from_narrow ? RepairSearch::kWide : RepairSearch::kWideFromTrained;
      const bool works = try_repair(
          k, every_op, wide_repair_budget(candidates[k]->model().config.epochs), search, wide);
      if (works || (from_narrow && tried == near.front()))
        outcome.record = repair_record(starts[k], *candidates[k], report, &wide, search, works);
      if (works) return k;
    }
  return std::nullopt;
}

}  // namespace

MultiStartRecord multi_start_record(std::span<Trainer* const> candidates, uint64_t run_seed,
                                    size_t chosen, bool settled, std::optional<int> tile_cells,
                                    const HalvingRecord* halving) {
  MultiStartRecord record;
  record.run_seed = run_seed;
  record.starts = int(candidates.size());
  record.chosen = int(chosen);
  if (settled) {
    record.solved_epoch = candidates[chosen]->epoch();
    return record;
  }
  if (halving) record.halving = *halving;
  for (size_t k = 0; k < candidates.size(); ++k)
    if (candidates[k])  // (a halving run holds some starts no longer)
      record.candidates.push_back({int(k), start_seed(run_seed, int(k)),
                                   candidates[k]->model().logits,
                                   checkpoint_state(*candidates[k], tile_cells)});
  return record;
}

TrainingLoop::TrainingLoop(std::span<Trainer* const> first_candidates,
                           const ExperimentConfig& run_config, const TrainingRunOptions& options,
                           CandidatePool::AddStart add_start,
                           CandidatePool::ReleaseStart release_start,
                           const HalvingRecord* resumed_halving)
    : options_(options),
      run_seed_(run_config.seed),
      recipe_(run_config.recipe),
      repair_asked_(run_config.repair),
      rounds_after_(run_config.rounds > 0 ? run_config.epochs : 0),
      pool_(first_candidates, run_config, options.epochs, std::move(add_start),
            std::move(release_start), resumed_halving),
      arena_(arena_concurrency(options.threads)) {
  // A resumed run shows its leading candidate (also when no epoch is left to train), else start 0.
  chosen_ = pool_.choosable().empty() ? 0 : pool_.leading();
  experiment_ = chosen().model().config.name;
  resumed_from_epoch_ = chosen().epoch();
  several_ = first_candidates.size() > 1 || pool_.halving();
  solved_window_ = chosen().model().config.stop_when_solved;
  count_streaks();
}

double TrainingLoop::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

// The zero streaks of the candidates new since the last call (a resumed run's history too).
void TrainingLoop::count_streaks() {
  for (size_t k = zero_streak_.size(); k < pool_.size(); ++k) {
    zero_streak_.push_back(0);
    if (!pool_.all()[k]) continue;  // (a start a resumed halving run no longer holds)
    for (const EpochStats& e : pool_.at(k).history())
      if (e.epoch >= pool_.at(k).window_start())
        zero_streak_[k] = e.hard_loss == 0 ? zero_streak_[k] + 1 : 0;
    // A solved stop takes back the update of the epoch that solved: its parameters are kept.
    if (solved_window_ > 0) pool_.at(k).keep_undo_state(true);
  }
}

std::vector<std::pair<size_t, std::string>> TrainingLoop::train_round(
    const std::function<std::string(const std::string&)>& keep_log) {
  const auto round_start = std::chrono::steady_clock::now();
  const CandidateRound round = pool_.train_round(arena_);
  round_ms_.push_back(
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - round_start)
          .count());
  // The last candidate diverged: the epochs before show where it went wrong.
  if (!round.diverged.empty() && pool_.none_left())
    throw TrainingDiverged(keep_log(round.diverged.front().second),
                           pool_.at(round.diverged.front().first).epoch());
  for (const auto& [k, stats] : round.trained) {
    zero_streak_[k] = stats.hard_loss == 0 ? zero_streak_[k] + 1 : 0;
    if (solved_window_ == 0 || solved_by_ || zero_streak_[k] < solved_window_) continue;
    // Solved when the task agrees that the parameters that scored 0 (those the epoch started
    // from) do all of it: the epoch's update is then taken back, so that they are the ones kept.
    // If not (a sample of Game of Life's neighbourhoods, or one state of a picture grown to
    // stay), training goes on.
    Trainer& candidate = pool_.at(k);
    if (!candidate.task().solved_by(candidate.model_before_last_epoch())) continue;
    candidate.undo_last_epoch();
    solved_by_ = k;
  }
  if (!solved()) pool_.settle_round(round, elapsed());
  count_streaks();
  // (Only new starts that have not trained yet, when the others all stopped this round: the one
  // shown stays until they have.)
  has_shown_ = solved() || !pool_.choosable().empty();
  if (solved_by_)
    chosen_ = *solved_by_;
  else if (has_shown_)
    chosen_ = pool_.leading();
  if (has_shown_) ++rounds_;
  return std::vector<std::pair<size_t, std::string>>(round.diverged.begin(), round.diverged.end());
}

EpochStats TrainingLoop::shown_epoch() const {
  // (The epoch a solved stop took back, else the last: no copy of the whole history a round.)
  return chosen().undone_epoch() ? *chosen().undone_epoch() : chosen().history().back();
}

int64_t TrainingLoop::tick() const {
  return pool_.halving() ? rounds_ : chosen().epoch() - resumed_from_epoch_;
}

std::string TrainingLoop::which() const {
  std::string text;
  if (several_) text = fmt::format("  start {}/{}", chosen_, pool_.size());
  if (pool_.halving())
    text += fmt::format("  budget {:.0f}%",
                        100.0 * double(pool_.epochs_used()) / double(pool_.budget_epochs()));
  return text;
}

double TrainingLoop::seconds_left() const {
  const double now = elapsed();
  if (pool_.halving())
    return now / double(pool_.epochs_used()) *
           double(std::max<int64_t>(0, pool_.budget_epochs() - pool_.epochs_used()));
  const int64_t done = chosen().epoch();
  return now / double(std::max<int64_t>(1, done - resumed_from_epoch_)) *
         double(options_.epochs - done);
}

TrainingRound TrainingLoop::round() const {
  TrainingRound round;
  round.shown = shown_epoch();
  round.experiment = experiment_;
  round.epochs = options_.epochs;
  round.tick = tick();
  round.halving = pool_.halving();
  round.last = last_round();
  round.which = which();
  round.elapsed_seconds = elapsed();
  round.seconds_left = seconds_left();
  return round;
}

RepairOutcome TrainingLoop::repair_choosable(const std::function<bool()>& stop,
                                             std::optional<int64_t> at_epoch) {
  const std::vector<size_t> starts = pool_.choosable();
  std::vector<Trainer*> kept;
  for (const size_t k : starts) kept.push_back(&pool_.at(k));
  RepairOutcome outcome;
  if (const auto k =
          repair_candidates(kept, starts, several_, at_epoch, options_.threads, stop, outcome)) {
    chosen_ = starts[*k];
    repaired_ = true;
  }
  return outcome;
}

void TrainingLoop::repair_before_rounds(const std::function<bool()>& stop) {
  if (rounds_after_ == 0 || !repair_asked_ || before_rounds_ || solved()) return;
  const std::vector<size_t> starts = pool_.choosable();
  if (starts.empty()) return;
  for (const size_t k : starts)
    if (pool_.at(k).epoch() != rounds_after_) return;
  before_rounds_ = repair_choosable(stop, rounds_after_);
}

RepairOutcome TrainingLoop::repair_if_unsolved(const std::function<bool()>& stop) {
  // Stopped (Ctrl-C, the caller) while a candidate still had epochs to train.
  cut_short_ = pool_.training() && !solved() && !repaired_;
  if (!pool_.all()[chosen_])  // the one shown was released: a candidate that can be chosen instead
    chosen_ = pool_.choosable().empty() ? pool_.size() - 1 : pool_.leading();
  // Unsolved pictures grown to stay: the candidate kept is the one closest over the window (the
  // rounds were led by one state's hard loss; each is scored once, the one shown wins ties).
  if (!solved() && !repaired_ && pool_.all()[chosen_] && chosen().model().config.stay) {
    const size_t shown = chosen_;
    double best = end_hard_loss(chosen());
    for (const size_t k : pool_.choosable())
      if (k != shown)
        if (const double loss = end_hard_loss(pool_.at(k)); loss < best) {
          best = loss;
          chosen_ = k;
        }
  }
  // Stopped before it found a repair, the run is interrupted: it did not do all it was asked.
  RepairOutcome outcome = before_rounds_.value_or(RepairOutcome{});
  if (!repair_asked_ || solved() || repaired_ || cut_short_) return outcome;
  const RepairOutcome last = repair_choosable(stop, std::nullopt);
  outcome.lines.insert(outcome.lines.end(), last.lines.begin(), last.lines.end());
  if (!last.lines.empty()) outcome.record = last.record;
  outcome.stopped = outcome.stopped || last.stopped;
  return outcome;
}

TrainingSummary TrainingLoop::summarize(
    const std::string& backend_name, const RepairOutcome& repair, int stop_signal,
    const std::function<nlohmann::json(const Model&)>& evaluate) const {
  TrainingSummary summary;
  summary.experiment = experiment_;
  summary.backend = backend_name;
  summary.recipe = recipe_name(recipe_);
  summary.resumed_from_epoch = resumed_from_epoch_;
  summary.repair = repair.record;
  summary.stop_signal = stop_signal;
  const std::vector<EpochStats> history = measured();
  std::vector<double> epoch_ms;
  for (const EpochStats& e : history) {
    if (e.hard_loss == 0 && !summary.first_zero_epoch && e.epoch >= chosen().window_start())
      summary.first_zero_epoch = e.epoch;
    if (e.epoch >= summary.resumed_from_epoch) epoch_ms.push_back(e.milliseconds);
  }
  summary.stopped_when_solved = solved();
  summary.interrupted = cut_short_ || repair.stopped;
  summary.epochs = chosen().epoch();
  summary.chosen_start = int(chosen_);
  summary.starts = int(pool_.size());
  summary.start_seed = several_ ? start_seed(run_seed_, int(chosen_)) : run_seed_;
  if (several_) summary.candidates = pool_.record();
  if (pool_.halving()) summary.halving = pool_.halving_record();
  if (!history.empty()) {
    summary.final_soft_loss = history.back().soft_loss;
    summary.final_hard_loss = history.back().hard_loss;
  }
  if (repaired_) {
    summary.final_hard_loss = 0;
    if (!summary.first_zero_epoch) summary.first_zero_epoch = summary.epochs;
  }
  const Model& model = chosen().model();
  summary.active_gates = active_gate_count(model);
  summary.logits_checksum = dlca::logits_checksum(model.logits);
  summary.pruned_gates = int(prune(model).gates.size());
  summary.kept = picture_kept(model);
  if (model.config.stay && summary.kept) {
    // Grown to stay, an epoch scores one state (its growth at T, or a step of the staying): the
    // run's hard loss is its circuit's over the whole window, T to 2T, and it is solved when that
    // is 0 (at the epoch the stop took back or the repair ended, else at its last).
    summary.final_hard_loss = summary.kept->total_wrong();
    summary.first_zero_epoch.reset();
    if (summary.final_hard_loss == 0) summary.first_zero_epoch = summary.epochs;
  }
  summary.wall_seconds = elapsed();
  // Several candidates: the time of an epoch of them all, what the run costs per epoch.
  summary.median_epoch_ms = several_ ? median(round_ms_) : median(epoch_ms);
  const auto ops = hard_ops(model);
  summary.perception_op_counts.assign(kNumOps, 0);
  summary.update_op_counts.assign(kNumOps, 0);
  for (int g = 0; g < model.num_gates(); ++g)
    ++(g < model.num_perception_gates() ? summary.perception_op_counts
                                        : summary.update_op_counts)[ops[g]];
  if (evaluate) summary.extra = evaluate(model);
  return summary;
}

std::string TrainingLoop::checkpoint_text() const {
  const TrainingState state = checkpoint_state(chosen(), options_.tile_cells);
  if (!several_) return model_file_text(chosen().model(), &state);
  const HalvingRecord halving = pool_.halving_record();
  const MultiStartRecord record =
      multi_start_record(pool_.all(), run_seed_, chosen_, solved() || repaired_,
                         options_.tile_cells, pool_.halving() ? &halving : nullptr);
  return model_file_text(chosen().model(), &state, &record);
}

}  // namespace dlca
