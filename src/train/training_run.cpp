// The training loop of the command-line programs: progress, CSV log, summary, save, Ctrl-C.
#include "dlca/train/training_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include "dlca/circuits/circuit.hpp"
#include "dlca/core/median.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/output_paths.hpp"
#include "dlca/io/stop_signals.hpp"
#include "dlca/io/svg_plots.hpp"
#include "dlca/train/candidate_pool.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/multi_start.hpp"
#include "dlca/train/training_pictures.hpp"
#include "dlca/train/training_setup.hpp"

namespace dlca {

namespace {

std::string format_seconds(double s) {
  if (s < 60) return fmt::format("{:.1f} s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", int(s) / 60, int(s) % 60);
  return fmt::format("{}h{:02}m", int(s) / 3600, (int(s) / 60) % 60);
}

}  // namespace

nlohmann::json TrainingSummary::to_json() const {
  nlohmann::json j = {{"experiment", experiment},
                      {"backend", backend},
                      {"recipe", recipe},
                      {"epochs", epochs},
                      {"final_soft_loss", final_soft_loss},
                      {"final_hard_loss", final_hard_loss},
                      {"first_zero_epoch", first_zero_epoch ? nlohmann::json(*first_zero_epoch)
                                                            : nlohmann::json(nullptr)},
                      {"active_gates", active_gates},
                      {"pruned_gates", pruned_gates},
                      {"logits_checksum", logits_checksum},
                      {"resumed_from_epoch", resumed_from_epoch},
                      {"wall_seconds", wall_seconds},
                      {"median_epoch_ms", median_epoch_ms},
                      {"interrupted", interrupted},
                      {"stopped_when_solved", stopped_when_solved},
                      {"starts", starts},
                      {"start", chosen_start},
                      {"start_seed", start_seed},
                      {"perception_op_counts", perception_op_counts},
                      {"update_op_counts", update_op_counts},
                      {"repair", repair}};
  if (!candidates.is_null()) j["candidates"] = candidates;
  for (const auto& [key, value] : extra.items()) j[key] = value;
  return j;
}

namespace {

// "AND 37, OR 23, ..." for the ops with non-zero counts, most frequent first.
std::string histogram_line(const std::vector<int>& counts) {
  std::vector<int> order(counts.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return counts[a] > counts[b]; });
  std::string line;
  for (int op : order)
    if (counts[op] > 0 && op != kOpPassA && op != kOpPassB)
      line += fmt::format("{}{} {}", line.empty() ? "" : ", ", op_name(op), counts[op]);
  return line.empty() ? "none" : line;
}

// The loss curves go beside the log, unless the log is a device or pipe (/dev/null, a FIFO):
// then there is no "beside" to write to.
std::string log_svg_path(const std::string& log_path) {
  return log_path.empty() || is_written_in_place(log_path) ? "" : svg_beside(log_path);
}

// The loss curves' title is the experiment's name and this; the check below looks for it.
constexpr char kLossCurvesTitleEnd[] = ": loss per epoch";

// The curves take a name the user did not give: a file already there that is not an earlier
// run's curves (their title ends in kLossCurvesTitleEnd) is the user's, and is not replaced.
void check_log_svg_replaceable(const std::string& log_path) {
  const std::string svg = log_svg_path(log_path);
  std::error_code ec;
  if (svg.empty() || !std::filesystem::is_regular_file(svg, ec)) return;
  std::ifstream in(svg, std::ios::binary);
  std::string head(size_t(1) << 16, '\0');
  in.read(head.data(), std::streamsize(head.size()));
  head.resize(size_t(in.gcount()));
  if (head.find(std::string(kLossCurvesTitleEnd) + "</text>") == std::string::npos)
    throw FileError(
        fmt::format("--log {}: its loss curves would replace {}, which is not an "
                    "earlier run's curves (move it, or give --log another name)",
                    log_path, svg));
}

// Whether the file at `path` holds `text` (a --save written before another output failed).
bool file_holds(const std::string& path, const std::string& text) {
  try {
    return read_file(path, text.size() + 1) == text;
  } catch (const FileError&) {
    return false;
  }
}

// A --save that could not be written at the end of a training: the model goes to the temporary
// folder ($TMPDIR, and /tmp when that fails) under a new name instead, so that the training is not
// lost. Returns what to add to the error: where the model went, or that it could not be kept.
std::string rescue_model(const std::string& text) {
  std::vector<std::filesystem::path> folders;
  std::error_code no_temp;
  const std::filesystem::path temp = std::filesystem::temp_directory_path(no_temp);
  if (!no_temp) folders.push_back(temp);
  if (no_temp || temp != "/tmp") folders.emplace_back("/tmp");
  for (const std::filesystem::path& dir : folders)
    for (int n = 0; n < 100; ++n) {
      const std::string path = (dir / fmt::format("dlca-model-{}-{}.json", ::getpid(), n)).string();
      std::error_code error;
      if (std::filesystem::symlink_status(path, error).type() !=
          std::filesystem::file_type::not_found)
        continue;  // never replaces a file
      try {
        write_file_atomically(path, text);
      } catch (const FileError&) {
        break;  // this folder takes no file: the next one
      }
      return "; the trained model was written to " + path + " instead";
    }
  return "; the trained model could not be kept in $TMPDIR or /tmp either";
}

}  // namespace

std::vector<NamedPath> training_output_paths(const TrainingRunOptions& options) {
  return {{"--log", options.log_path},         {"--log (its SVG)", log_svg_path(options.log_path)},
          {"--summary", options.summary_path}, {"--save", options.save_path},
          {"--gif", options.gif_path},         {"--histogram", options.histogram_path}};
}

TrainingSummary run_training(Trainer& trainer, const std::string& backend_name,
                             const TrainingRunOptions& options, std::ostream& out) {
  Trainer* const one[] = {&trainer};
  return run_training(one, trainer.model().config, backend_name, options, out);
}

namespace {

// A trainer's state as its checkpoint holds it, with the --tile-cells the run was given.
TrainingState checkpoint_state(const Trainer& trainer, std::optional<int> tile_cells) {
  TrainingState state = training_state_of(trainer);
  state.tile_cells = tile_cells;
  return state;
}

// --repair: tries to repair the candidates' hard circuits, lowest last hard loss first, and applies
// the first repair that reaches hard loss 0 on the whole task; returns that candidate. Appends a
// summary line per repair tried to `lines` and records the last in `record`. None is tried when a
// candidate already scores 0; `stop` (Ctrl-C) ends the search early, or skips it, and sets
// `stopped`.
std::optional<size_t> repair_candidates(std::span<Trainer* const> candidates,
                                        std::span<const size_t> starts, bool name_starts,
                                        int threads, const std::function<bool()>& stop,
                                        bool& stopped, std::vector<std::string>& lines,
                                        nlohmann::json& record) {
  std::vector<size_t> order(candidates.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  const auto last_hard = [&](size_t k) {
    const auto& h = candidates[k]->history();
    return h.empty() ? 0.0 : h.back().hard_loss;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return last_hard(a) < last_hard(b); });
  if (order.empty() || last_hard(order[0]) == 0) return std::nullopt;
  for (size_t k : order) {
    if (stop()) {
      stopped = true;
      break;
    }
    Trainer& candidate = *candidates[k];
    const int64_t budget = repair_budget(candidate.model().config.epochs);
    const RepairReport report = candidate.search_repair(
        RepairSettings{.max_evaluations = budget, .threads = threads, .stop = stop});
    stopped = report.stopped;
    bool works = report.hard_loss_after == 0;
    if (works) {
      Model repaired = candidate.model();
      apply_repair(report.changes, repaired.config.gates, repaired.logits);
      works = candidate.task().solved_by(repaired);
    }
    lines.push_back(fmt::format(
        "repair{}: hard loss {:g} -> {:g}{}, {} gate change{} ({} hard rollouts, {:.1f} s){}\n",
        name_starts ? fmt::format(" of start {}", starts[k]) : std::string(),
        report.hard_loss_before, report.hard_loss_after,
        report.batches > 1 ? fmt::format(" over {} batches", report.batches) : std::string(),
        report.changes.size(), report.changes.size() == 1 ? "" : "s", report.evaluations,
        report.seconds,
        works                         ? ": applied"
        : report.hard_loss_after == 0 ? ": not the whole task, not applied"
        : report.stopped              ? ": stopped, nothing changed"
        : report.out_of_budget
            ? fmt::format(": not solved within its budget ({} rollouts), nothing changed", budget)
            : ": not solved, nothing changed"));
    record = {{"start", starts[k]},
              {"hard_loss_before", report.hard_loss_before},
              {"hard_loss_after", report.hard_loss_after},
              {"gates_changed", report.changes.size()},
              {"hard_rollouts", report.evaluations},
              {"batches", report.batches},
              {"seconds", report.seconds},
              {"out_of_budget", report.out_of_budget},
              {"applied", works}};
    if (works) {
      candidate.apply_repair(report);
      return k;
    }
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

TrainingSummary run_training(PreparedTraining& prepared, const TrainingRunOptions& options,
                             std::ostream& out) {
  return run_training(
      prepared.trainers(), prepared.config, prepared.backend_name, options, out,
      [&](int start) { return prepared.add_start(start); },
      [&](int start) { prepared.release(start); },
      prepared.resumed_halving ? &*prepared.resumed_halving : nullptr);
}

TrainingSummary run_training(std::span<Trainer* const> first_candidates,
                             const ExperimentConfig& run_config, const std::string& backend_name,
                             const TrainingRunOptions& options, std::ostream& out,
                             CandidatePool::AddStart add_start,
                             CandidatePool::ReleaseStart release_start,
                             const HalvingRecord* resumed_halving) {
  if (first_candidates.empty()) throw std::invalid_argument("run_training: no candidates");
  const uint64_t run_seed = run_config.seed;
  CandidatePool pool(first_candidates, run_config, options.epochs, std::move(add_start),
                     std::move(release_start), resumed_halving);
  check_output_paths({}, training_output_paths(options));
  check_log_svg_replaceable(options.log_path);
  if (!options.gif_path.empty()) check_rollout_gif(run_config);
  // Ctrl-C or SIGTERM: stop after this epoch and write everything; a second one: stop now.
  std::optional<StopSignals> signals;
  if (options.handle_signals) signals.emplace(true);
  bool stopped_by_caller = false;
  const auto stop_requested = [&] {
    if (!stopped_by_caller && options.stop && options.stop()) stopped_by_caller = true;
    return stopped_by_caller || (options.handle_signals && StopSignals::stop_requested());
  };
  const bool live = !options.quiet && ::isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  tbb::task_arena arena(arena_concurrency(options.threads));
  // The candidate shown, saved and summarised: a resumed run's leading one (also when no epoch is
  // left to train), else start 0.
  size_t chosen = pool.choosable().empty() ? 0 : pool.leading();
  const auto trainer = [&]() -> Trainer& { return pool.at(chosen); };

  TrainingSummary summary;
  summary.experiment = trainer().model().config.name;
  summary.backend = backend_name;
  summary.recipe = recipe_name(run_config.recipe);
  summary.resumed_from_epoch = trainer().epoch();
  const bool several = first_candidates.size() > 1 || pool.halving();
  // The chosen candidate's epochs, with the measurement of an epoch taken back at a solved stop.
  const auto measured = [&] { return measured_epochs(trainer()); };
  const auto csv = [&] {
    std::string text = "epoch,soft_loss,hard_loss,active_gates,ms\n";
    for (const EpochStats& e : measured())
      text += fmt::format("{},{:.9g},{:.9g},{},{:.3f}\n", e.epoch, e.soft_loss, e.hard_loss,
                          e.active_gates, e.milliseconds);
    return text;
  };
  // The CSV log and, unless the log is a device or pipe, its loss curves beside it.
  const auto add_log_outputs = [&](OutputGroup& outputs) {
    outputs.add(options.log_path, csv());
    if (const std::string svg = log_svg_path(options.log_path); !svg.empty())
      outputs.add(svg, loss_curves_svg(measured(), summary.experiment + kLossCurvesTitleEnd));
  };
  const auto write_log = [&] {
    OutputGroup outputs;
    add_log_outputs(outputs);
    outputs.commit();
  };
  // --stop-when-solved: consecutive epochs with hard loss 0 so far (a resumed run's too).
  const int solved_window = trainer().model().config.stop_when_solved;
  std::vector<int64_t> zero_streak;
  const auto count_streaks = [&] {  // of the candidates new since the last call too
    for (size_t k = zero_streak.size(); k < pool.size(); ++k) {
      zero_streak.push_back(0);
      if (!pool.all()[k]) continue;  // (a start a resumed halving run no longer holds)
      for (const EpochStats& e : pool.at(k).history())
        zero_streak[k] = e.hard_loss == 0 ? zero_streak[k] + 1 : 0;
      // A solved stop takes back the update of the epoch that solved: its parameters are kept.
      if (solved_window > 0) pool.at(k).keep_undo_state(true);
    }
  };
  count_streaks();
  std::optional<size_t> solved_by;
  const auto solved = [&] { return solved_by.has_value(); };
  bool repaired = false;  // --repair found a working circuit after the last epoch
  // The --save file's text: a checkpoint of the chosen candidate (and, while unsolved, of all).
  const auto checkpoint_text = [&] {
    const TrainingState state = checkpoint_state(trainer(), options.tile_cells);
    if (!several) return model_file_text(trainer().model(), &state);
    const HalvingRecord halving = pool.halving_record();
    const MultiStartRecord record =
        multi_start_record(pool.all(), run_seed, chosen, solved() || repaired, options.tile_cells,
                           pool.halving() ? &halving : nullptr);
    return model_file_text(trainer().model(), &state, &record);
  };
  const auto save = [&] { write_file_atomically(options.save_path, checkpoint_text()); };
  // A write during the run that fails (a disk full for a while, a folder removed) does not end the
  // training: it is reported once and tried again; the writes at the end must succeed.
  std::set<std::string> reported_failures;
  const auto write_during_run = [&](const std::function<void()>& write) {
    try {
      write();
    } catch (const FileError& e) {
      if (reported_failures.insert(e.what()).second)
        std::fprintf(stderr, "%swarning: %s; training goes on and writes it again later\n",
                     live ? "\r\033[K" : "", e.what());
    }
  };
  double last_draw = -1, last_log_write = 0;
  int64_t rounds = 0;            // of this invocation
  std::vector<double> round_ms;  // wall time of each epoch of all candidates together
  while (pool.training() && !solved() && !stop_requested()) {
    const auto round_start = std::chrono::steady_clock::now();
    const CandidateRound round = pool.train_round(arena);
    round_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - round_start)
            .count());
    for (const auto& [k, reason] : round.diverged) {
      if (!pool.none_left()) {  // the others go on without it
        if (!options.quiet)
          std::fprintf(stderr, "%swarning: start %zu: %s; the other starts go on without it\n",
                       live ? "\r\033[K" : "", k, reason.c_str());
        continue;
      }
      // The last candidate diverged. The epochs before show where it went wrong: --log keeps them.
      if (options.log_path.empty()) throw TrainingDiverged(reason);
      try {
        write_log();
      } catch (const FileError&) {  // the divergence is the news; a log that failed too is not
        throw TrainingDiverged(reason);
      }
      throw TrainingDiverged(
          fmt::format("{}; --log {} has the epochs before it", reason, options.log_path));
    }
    for (const auto& [k, stats] : round.trained) {
      zero_streak[k] = stats.hard_loss == 0 ? zero_streak[k] + 1 : 0;
      if (solved_window == 0 || solved_by || zero_streak[k] < solved_window) continue;
      // Solved: the epoch's update is taken back, so that the parameters kept are the ones that
      // scored 0, if the task agrees that they do all of it; if not, the epoch is run again
      // (the same epoch gives the same result) and training goes on.
      Trainer& candidate = pool.at(k);
      candidate.undo_last_epoch();
      if (candidate.task().solved_by(candidate.model()))
        solved_by = k;
      else
        candidate.run_epoch();
    }
    if (!solved()) pool.settle_round(round, elapsed());
    count_streaks();
    // (Only new starts that have not trained yet, when the others all stopped this round: the
    // one shown stays until they have.)
    if (solved_by)
      chosen = *solved_by;
    else if (!pool.choosable().empty())
      chosen = pool.leading();
    else
      continue;
    // (The epoch a solved stop took back, else the last: no copy of the whole history a round.)
    const EpochStats stats =
        trainer().undone_epoch() ? *trainer().undone_epoch() : trainer().history().back();
    if (options.on_epoch && !options.on_epoch(stats)) stopped_by_caller = true;
    const double now = elapsed();
    const int64_t done = trainer().epoch();
    // When to print and checkpoint: a halving run counts its rounds (an epoch of every candidate
    // training), since the candidate shown may stay at an epoch while others train.
    ++rounds;
    const int64_t tick = pool.halving() ? rounds : done - summary.resumed_from_epoch;
    const bool last = !pool.training() || solved();
    std::string which;
    if (several) which = fmt::format("  start {}/{}", chosen, pool.size());
    if (pool.halving())
      which += fmt::format("  budget {:.0f}%",
                           100.0 * double(pool.epochs_used()) / double(pool.budget_epochs()));
    if (live && (now - last_draw > 0.1 || last)) {
      last_draw = now;
      // A halving run's end is its budget's; a plain run's, its epochs'.
      const double left =
          pool.halving()
              ? now / double(pool.epochs_used()) *
                    double(std::max<int64_t>(0, pool.budget_epochs() - pool.epochs_used()))
              : now / double(std::max<int64_t>(1, done - summary.resumed_from_epoch)) *
                    double(options.epochs - done);
      std::fprintf(
          stderr, "\r\033[K%s  epoch %lld/%lld  soft %.4f  hard %.0f%s  %.1f ms/epoch  ETA %s",
          summary.experiment.c_str(), (long long)done, (long long)options.epochs, stats.soft_loss,
          stats.hard_loss, which.c_str(), stats.milliseconds, format_seconds(left).c_str());
      std::fflush(stderr);
    } else if (!live && !options.quiet && options.print_every > 0 &&
               (tick == 1 || (pool.halving() ? tick : done) % options.print_every == 0 ||
                last)) {  // epochs done, as on a terminal: the last is N/N
      out << fmt::format("epoch {:>6}/{}  soft {:10.4f}  hard {:5.0f}  active {:5}{}  {:7.2f} ms\n",
                         done, options.epochs, stats.soft_loss, stats.hard_loss, stats.active_gates,
                         which, stats.milliseconds)
          << std::flush;
    }
    if (!options.log_path.empty() && now - last_log_write > 5.0) {
      write_during_run(write_log);  // keep the log current on long runs
      last_log_write = now;
    }
    if (!options.save_path.empty() && options.checkpoint_every > 0 &&
        (pool.halving() ? tick : done) % options.checkpoint_every == 0 && !last)
      write_during_run(save);
  }
  if (live) std::fprintf(stderr, "\n");
  // Stopped (Ctrl-C, the caller) while a candidate still had epochs to train.
  const bool cut_short = pool.training() && !solved();
  if (!pool.all()[chosen])  // the one shown was released: a candidate that can be chosen instead
    chosen = pool.choosable().empty() ? pool.size() - 1 : pool.leading();

  // --repair: a run that trained all its epochs unsolved tries to repair its candidates' circuits.
  // Stopped before it found a repair, the run is interrupted: it did not do all it was asked.
  std::vector<std::string> repair_lines;
  bool repair_stopped = false;
  if (run_config.repair && !solved() && !cut_short) {
    const std::vector<size_t> starts = pool.choosable();
    std::vector<Trainer*> kept;
    for (const size_t k : starts) kept.push_back(&pool.at(k));
    if (const auto k = repair_candidates(kept, starts, several, options.threads, stop_requested,
                                         repair_stopped, repair_lines, summary.repair)) {
      chosen = starts[*k];
      repaired = true;
    }
  }
  summary.stop_signal = options.handle_signals ? StopSignals::signal_number() : 0;

  const std::vector<EpochStats> history = measured();
  std::vector<double> epoch_ms;
  for (const EpochStats& e : history) {
    if (e.hard_loss == 0 && !summary.first_zero_epoch) summary.first_zero_epoch = e.epoch;
    if (e.epoch >= summary.resumed_from_epoch) epoch_ms.push_back(e.milliseconds);
  }
  summary.stopped_when_solved = solved();
  summary.interrupted = cut_short || repair_stopped;
  summary.epochs = trainer().epoch();
  summary.chosen_start = int(chosen);
  summary.starts = int(pool.size());
  summary.start_seed = several ? start_seed(run_seed, int(chosen)) : run_seed;
  if (several) summary.candidates = pool.record();
  if (pool.halving()) summary.halving = pool.halving_record();
  if (!history.empty()) {
    summary.final_soft_loss = history.back().soft_loss;
    summary.final_hard_loss = history.back().hard_loss;
  }
  if (repaired) {
    summary.final_hard_loss = 0;
    if (!summary.first_zero_epoch) summary.first_zero_epoch = summary.epochs;
  }
  summary.active_gates = active_gate_count(trainer().model());
  summary.logits_checksum = dlca::logits_checksum(trainer().model().logits);
  summary.pruned_gates = int(prune(trainer().model()).gates.size());
  summary.wall_seconds = elapsed();
  // Several candidates: the time of an epoch of them all, what the run costs per epoch.
  summary.median_epoch_ms = several ? median(round_ms) : median(epoch_ms);
  const Model& model = trainer().model();
  const auto ops = hard_ops(model);
  summary.perception_op_counts.assign(kNumOps, 0);
  summary.update_op_counts.assign(kNumOps, 0);
  for (int g = 0; g < model.num_gates(); ++g)
    ++(g < model.num_perception_gates() ? summary.perception_op_counts
                                        : summary.update_op_counts)[ops[g]];
  if (options.evaluate) summary.extra = options.evaluate(model);

  // Every output is written to its temporary first and the files are replaced only once all are
  // written, so a run that fails on one (a full disk, /dev/full) replaces none of the others.
  const std::string saved_text = options.save_path.empty() ? std::string() : checkpoint_text();
  try {
    OutputGroup outputs;
    if (!options.log_path.empty()) add_log_outputs(outputs);
    if (!options.histogram_path.empty())
      outputs.add(options.histogram_path,
                  gate_histogram_svg(
                      summary.perception_op_counts, summary.update_op_counts,
                      fmt::format("{}: hard gates by op (A and B left out)", summary.experiment)));
    if (!options.gif_path.empty())
      outputs.add(rollout_gif_uncommitted(model, trainer().task(), options.gif_path));
    if (!options.save_path.empty()) outputs.add(options.save_path, saved_text);
    if (!options.summary_path.empty())
      outputs.add(options.summary_path, summary.to_json().dump(2) + "\n");
    outputs.commit();
  } catch (const FileError& e) {
    if (!options.rescue_unsaved_model || options.save_path.empty() ||
        file_holds(options.save_path, saved_text))
      throw;
    throw FileError(e.what() + rescue_model(saved_text));
  }

  out << fmt::format("{} on {}, recipe {}: {} epochs{}{} in {} ({:.2f} ms/epoch median)\n",
                     summary.experiment, summary.backend, summary.recipe, summary.epochs,
                     summary.resumed_from_epoch > 0
                         ? fmt::format(" (resumed at epoch {})", summary.resumed_from_epoch)
                         : "",
                     summary.interrupted ? " (interrupted)" : "",
                     format_seconds(summary.wall_seconds), summary.median_epoch_ms);
  out << fmt::format("final soft loss {:.6g}, hard loss {:.0f}\n", summary.final_soft_loss,
                     summary.final_hard_loss);
  if (summary.stopped_when_solved)
    out << fmt::format(
        "stopped: hard loss 0 for {} consecutive epoch{} (--stop-when-solved); the parameters "
        "that scored it are kept\n",
        solved_window, solved_window == 1 ? "" : "s");
  const ExperimentConfig& config = trainer().model().config;
  if (config.gates == GateKind::kInputWise) out << "gates: input-wise (4 angles a gate)\n";
  if (config.sharpen_to != 1.0f)
    out << fmt::format("forward-only sharpening: temperature 1 to {:g} over epochs {}-{}\n",
                       config.sharpen_to, config.sharpen_start, config.sharpen_end);
  if (config.adam_eps != kNotebookAdamEps)
    out << fmt::format("AdamW epsilon {:g}\n", config.adam_eps);
  if (config.adam_beta1 != kNotebookAdamBeta1 || config.adam_beta2 != kNotebookAdamBeta2)
    out << fmt::format("AdamW betas {:g}, {:g}\n", config.adam_beta1, config.adam_beta2);
  if (config.weight_decay != kNotebookWeightDecay)
    out << fmt::format("weight decay {:g}\n", config.weight_decay);
  if (config.noise > 0)
    out << fmt::format("logit noise: Gumbel of scale {:g} from epoch {}{}\n", config.noise,
                       config.noise_start,
                       config.noise_end > 0 ? fmt::format(" to {}", config.noise_end) : "");
  if (config.grad_norm) out << "gradient normalised per layer before AdamW (--grad-norm)\n";
  if (config.harden > 0) {
    const std::vector<int64_t> stages = hardening_stage_epochs(config);
    const auto taken = std::count_if(stages.begin(), stages.end(),
                                     [&](int64_t e) { return e < trainer().epoch(); });
    out << fmt::format(
        "progressive hardening: stage{} at epoch{} {}{}; {} of {} gates fixed at the end\n",
        stages.size() == 1 ? "" : "s", stages.size() == 1 ? "" : "s", fmt::join(stages, ", "),
        taken < std::ssize(stages) ? fmt::format(" ({} taken)", taken) : "",
        std::count(trainer().hardened_gates().begin(), trainer().hardened_gates().end(), 1),
        trainer().model().num_gates());
  }
  for (const std::string& line : repair_lines) out << line;
  if (const std::string line = pool.describe(); !line.empty()) out << line << "\n";
  if (several)
    out << fmt::format("start {} of {} (seed {}) {}\n", summary.chosen_start, summary.starts,
                       summary.start_seed,
                       summary.stopped_when_solved ? "solved first"
                       : repaired                  ? "repaired"
                                                   : "kept: none solved; lowest hard loss");
  out << (summary.first_zero_epoch
              ? fmt::format("hard loss first reached 0 at epoch {}\n", *summary.first_zero_epoch)
              : std::string("hard loss never reached 0\n"));
  out << fmt::format("active gates {} (pruned circuit: {} gates)\n", summary.active_gates,
                     summary.pruned_gates);
  out << fmt::format("parameters {}\n", summary.logits_checksum);
  out << fmt::format("  perception: {}\n", histogram_line(summary.perception_op_counts));
  out << fmt::format("  update:     {}\n", histogram_line(summary.update_op_counts));
  for (const auto& [key, value] : summary.extra.items()) out << key << " " << value.dump() << "\n";
  return summary;
}

}  // namespace dlca
