// The training loop: run_training, the recipe every training follows (the programs', the sweep's
// and the Python module's), and its printed summary. The loop's state is in training_loop.hpp,
// its files in training_files.hpp; what watches it is handed over by the front ends
// (dlca/train/training_observer.hpp).
#include "dlca/train/training_run.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dlca/core/option_names.hpp"
#include "dlca/train/training_setup.hpp"
#include "train/training_files.hpp"
#include "train/training_loop.hpp"

namespace dlca {

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
  if (kept) j["kept"] = kept->to_json();
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

// The summary as the programs print it: the run, its losses, the options that are not the
// notebook's, the repair, the candidates, the circuit.
void print_summary(const TrainingSummary& summary, const TrainingLoop& loop,
                   const RepairOutcome& repair, std::ostream& out) {
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
        "stopped: hard loss 0 for {} consecutive epoch{} ({}); the parameters that scored it "
        "are kept\n",
        loop.solved_window(), loop.solved_window() == 1 ? "" : "s",
        option_name("stop_when_solved"));
  const Trainer& trainer = loop.chosen();
  const ExperimentConfig& config = trainer.model().config;
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
  if (config.rounds > 0) {
    const int64_t begun = rounds_begun(config, summary.epochs);
    out << fmt::format(
        "rounds: up to {} more of {} epochs of noise and sharpening after epoch {} ({}); {}\n",
        config.rounds, schedule_period(config), config.epochs, option_name("rounds"),
        begun == 0 ? std::string(summary.interrupted ? "none trained (interrupted)" : "none needed")
                   : fmt::format("{} of them trained", begun));
  }
  if (config.repeat_schedule > 0)
    out << fmt::format("noise and sharpening repeated every {} epochs\n", config.repeat_schedule);
  if (config.lr_decay_to > 0)
    out << fmt::format(
        "learning rate: {:g}, falling along a half cosine from epoch {} to {:g} at "
        "epoch {} ({})\n",
        config.learning_rate, config.lr_decay_start, config.lr_decay_to,
        config.lr_decay_end != 0 ? config.lr_decay_end : config.epochs, option_name("lr_decay_to"));
  if (config.grad_norm)
    out << fmt::format("gradient normalised per layer before AdamW ({})\n",
                       option_name("grad_norm"));
  if (config.hard_feedback != 0.0f)
    out << fmt::format(
        "hard-error feedback {:g} ({}): the hard circuit's errors join the soft final state's "
        "gradient in the sharpened epochs\n",
        config.hard_feedback, option_name("hard_feedback"));
  if (config.stay)
    out << fmt::format(
        "grow and stay ({}): the odd epochs start from the hard circuit's own growth, and the "
        "hard loss is the circuit's over every step from T to 2T\n",
        option_name("stay"));
  if (config.harden > 0) {
    const std::vector<int64_t> stages = hardening_stage_epochs(config);
    const auto taken =
        std::count_if(stages.begin(), stages.end(), [&](int64_t e) { return e < trainer.epoch(); });
    out << fmt::format(
        "progressive hardening: stage{} at epoch{} {}{}; {} of {} gates fixed at the end\n",
        stages.size() == 1 ? "" : "s", stages.size() == 1 ? "" : "s", fmt::join(stages, ", "),
        taken < std::ssize(stages) ? fmt::format(" ({} taken)", taken) : "",
        std::count(trainer.hardened_gates().begin(), trainer.hardened_gates().end(), 1),
        trainer.model().num_gates());
  }
  for (const std::string& line : repair.lines) out << line;
  if (const std::string line = loop.pool().describe(); !line.empty()) out << line << "\n";
  if (loop.several())
    out << fmt::format("start {} of {} (seed {}) {}\n", summary.chosen_start, summary.starts,
                       summary.start_seed,
                       summary.stopped_when_solved ? "solved first"
                       : loop.repaired()           ? "repaired"
                                                   : "kept: none solved; lowest hard loss");
  out << (summary.first_zero_epoch
              ? fmt::format("hard loss first reached 0 at epoch {}\n", *summary.first_zero_epoch)
              : std::string("hard loss never reached 0\n"));
  if (summary.kept) out << summary.kept->describe() << "\n";
  out << fmt::format("active gates {} (pruned circuit: {} gates)\n", summary.active_gates,
                     summary.pruned_gates);
  out << fmt::format("parameters {}\n", summary.logits_checksum);
  out << fmt::format("  perception: {}\n", histogram_line(summary.perception_op_counts));
  out << fmt::format("  update:     {}\n", histogram_line(summary.update_op_counts));
  for (const auto& [key, value] : summary.extra.items()) out << key << " " << value.dump() << "\n";
}

// For a run that ended unsolved, what may still solve it: another seed's wirings, and where its
// noise and sharpening can repeat, more extra rounds from its checkpoint (the colored G's three
// seeds unsolved after its epochs, and 5 of the lizard's 14, solve in the first two: RESULTS.md,
// "Training recipes"); a halving run, a larger budget. "" for a solved or interrupted run.
std::string unsolved_advice(const TrainingSummary& summary, const TrainingLoop& loop,
                            const ExperimentConfig& run_config, const std::string& save_path) {
  if (summary.final_hard_loss <= 0 || summary.interrupted || summary.stop_signal != 0) return "";
  std::string line = fmt::format("not solved: another seed ({}) trains other wirings",
                                 option_with_value("seed", std::to_string(run_config.seed + 1)));
  // Two rounds more, where the configuration's own checks take them (a schedule to repeat, a
  // stop when solved, no more than the most rounds).
  ExperimentConfig more_rounds = loop.chosen().model().config;
  more_rounds.rounds += 2;
  const auto taken = [](const ExperimentConfig& c) {
    try {
      validate(c);
      return true;
    } catch (const ConfigError&) {
      return false;
    }
  };
  if (loop.pool().halving() && loop.pool().budget_epochs() > 0)
    line +=
        fmt::format("; so do more starts, in a larger budget ({})",
                    option_with_value("budget", std::to_string(2 * loop.pool().budget_epochs())));
  else if (!save_path.empty() && taken(more_rounds))
    line +=
        fmt::format("; this run may still solve in more extra rounds: the same options and {} {}",
                    option_with_value("resume", save_path),
                    option_with_value("rounds", std::to_string(more_rounds.rounds)));
  return line + "\n";
}

}  // namespace

TrainingSummary run_training(Trainer& trainer, const std::string& backend_name,
                             const TrainingRunOptions& options, std::ostream& out) {
  Trainer* const one[] = {&trainer};
  return run_training(one, trainer.model().config, backend_name, options, out);
}

TrainingSummary run_training(PreparedTraining& prepared, const TrainingRunOptions& options,
                             std::ostream& out) {
  return run_training(
      prepared.trainers(), prepared.config, prepared.backend_name, options, out,
      [&](int start) { return prepared.add_start(start); },
      [&](int start) { prepared.release(start); },
      prepared.resumed_halving ? &*prepared.resumed_halving : nullptr);
}

// The recipe of every training: rounds until a candidate solves, the epochs or the budget run out
// or a stop is asked for; then the repair of an unsolved circuit, the summary and the files.
TrainingSummary run_training(std::span<Trainer* const> first_candidates,
                             const ExperimentConfig& run_config, const std::string& backend_name,
                             const TrainingRunOptions& options, std::ostream& out,
                             CandidatePool::AddStart add_start,
                             CandidatePool::ReleaseStart release_start,
                             const HalvingRecord* resumed_halving) {
  if (first_candidates.empty()) throw std::invalid_argument("run_training: no candidates");
  TrainingLoop loop(first_candidates, run_config, options, std::move(add_start),
                    std::move(release_start), resumed_halving);
  RunFiles files(options, run_config);
  const std::span<TrainingObserver* const> observers = options.observers;
  bool stop_asked = false;  // once asked for, a stop stays
  const auto stop = [&] {
    for (TrainingObserver* observer : observers)
      if (!stop_asked) stop_asked = observer->stop_requested();
    return stop_asked;
  };
  const auto show_round = [&] {
    const TrainingRound round = loop.round();
    for (TrainingObserver* observer : observers) observer->round_shown(round);
  };
  while (loop.training() && !stop()) {
    loop.repair_before_rounds(stop);
    if (!loop.training() && loop.has_shown_epoch()) show_round();  // its last line: repaired at E
    if (!loop.training() || stop()) break;
    const auto left_behind =
        loop.train_round([&](const std::string& reason) { return files.keep_log(loop, reason); });
    for (const auto& [start, reason] : left_behind)
      for (TrainingObserver* observer : observers) observer->start_left_behind(start, reason);
    if (!loop.has_shown_epoch()) continue;
    show_round();
    files.during_run(loop);
  }
  for (TrainingObserver* observer : observers) observer->rounds_ended();
  const RepairOutcome repair = loop.repair_if_unsolved(stop);
  int stop_signal = 0;
  for (const TrainingObserver* observer : observers)
    if (stop_signal == 0) stop_signal = observer->stop_signal();
  const TrainingSummary summary =
      loop.summarize(backend_name, repair, stop_signal, options.evaluate);
  files.write_at_end(loop, summary);
  print_summary(summary, loop, repair, out);
  out << unsolved_advice(summary, loop, run_config, options.save_path);
  return summary;
}

}  // namespace dlca
