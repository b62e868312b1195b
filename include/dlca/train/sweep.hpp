// Sweeps: one experiment trained over a list of seeds and a grid of configuration values, each run
// recorded as it finishes (DIR/runs/<id>.json) so an interrupted sweep resumes without repeating
// finished runs, and gathered into DIR/runs.csv, DIR/runs.json and DIR/summary.md. Used by
// dlca_sweep (locally with --jobs, or spread over MPI ranks); the runs depend only on seed and
// options, never on how many run at once or on how many threads each has.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "dlca/io/file_lock.hpp"
#include "dlca/train/experiment_file.hpp"

namespace dlca {

class TrainingObserver;  // dlca/train/training_observer.hpp

// --set KEY=V1,V2: a configuration key and the values to try, as typed.
struct SweepSetting {
  std::string key;
  std::vector<std::string> values;
};

// "1-10", "1,5,9", "1-3,7": seeds in the order given. Throws std::invalid_argument with the reason.
std::vector<uint64_t> parse_seeds(const std::string& text);
// "lr=0.03,0.05": splits on commas outside brackets, so a list value stays whole
// ("perception_layers=[8,4],[16]"). Throws std::invalid_argument with the reason.
SweepSetting parse_setting(const std::string& text);

struct SweepSpec {
  std::string experiment;  // --config as given (a name from targets/ or a path), or --target's
  bool picture = false;    // experiment is a picture (--target), its task chosen as dlca train
                           // image --target chooses it (picture_experiment.hpp)
  // With --target, the options of the picture's choices that were given, in the order of
  // dlca sweep --help ({"size", "16"}, {"colours", "mono"}, ...): named in the folder and command.
  std::vector<std::pair<std::string, std::string>> picture_options;
  std::vector<uint64_t> seeds;
  std::vector<SweepSetting> settings;
  std::optional<int64_t> epochs;        // --epochs for every run
  std::optional<int> stop_when_solved;  // --stop-when-solved for every run
  std::string recipe;                   // --recipe for every run ("": the experiment's)
};

// The folder of a sweep given no --out: sweeps/ and a name made of what decides its runs, as
// summary.md's command gives them (the experiment or picture, its options such as --size, the seeds
// as one sorted list, each --set, --epochs, --stop-when-solved, --recipe), so that the same command
// finds it again and resumes it. An experiment or picture named by a file also gets a checksum of
// its absolute path (two e.json in two folders are two experiments); a name longer than 120
// characters keeps its start and a checksum of the whole.
std::string default_sweep_directory(const SweepSpec& spec);

// One training of the sweep: a seed and one combination of the settings' values.
struct SweepRun {
  size_t index = 0;  // in grid order (first --set slowest), then seed
  size_t combination = 0;
  uint64_t seed = 0;
  std::string options;  // "lr=0.03;steps=20" ("" without --set)
  std::string id;       // file name stem: runs/<id>.json, models/<id>.json
  ExperimentConfig config;
  int64_t last_epoch = 0;  // the most it trains: its epochs and its recipe's rounds (last_epoch)
};

// What a finished run reports: one row of runs.csv.
struct SweepRow {
  uint64_t seed = 0;
  std::string options;
  std::optional<int64_t> first_zero_epoch;
  double final_soft_loss = 0, final_hard_loss = 0;
  int active_gates = 0, pruned_gates = 0;
  double wall_seconds = 0;
  std::string model;   // relative to the sweep directory
  int64_t epochs = 0;  // epochs trained (fewer than asked when stopped as solved)
  std::string logits_checksum;
  // A run whose loss or gradient stopped being finite: the index of the epoch where it did (that
  // of the last candidate left), as the training's own message names it, equal to `epochs`, those
  // trained before it (rows of older builds counted it from 1: read as the index). Its final losses
  // are then NaN (null in runs.json, empty in runs.csv), and it has no model file (model and
  // logits_checksum empty).
  std::optional<int64_t> diverged_epoch;
  // With --rounds: how many more rounds of noise and sharpening the run began after its epochs (0:
  // it stopped within them); none without --rounds, and in rows of older builds.
  std::optional<int64_t> extra_rounds;
  // The hard loss before and after the last repair tried (--repair), which reached 0 when the run
  // was solved by it; none when no repair ran.
  std::optional<double> repair_hard_loss_before, repair_hard_loss_after;
  // Which search that repair was (kRepairSearchNames: "narrow", "every op", "every op from the
  // trained circuit"); none when no repair ran, and in rows of older builds.
  std::optional<std::string> repair_search;
  // An image run: the most wrong bits of its hard circuit at any step from the trained step T to
  // 2T (0: the grown picture stays exact; picture_kept.hpp); none for other tasks, asynchronous
  // runs, diverged runs and rows of older builds.
  std::optional<double> kept_most_wrong_bits;
  nlohmann::json to_json() const;
  static SweepRow from_json(const nlohmann::json& json);  // throws on a malformed row
};

// A run is solved when it ends with hard loss 0; one that reached 0 and lost it again is not.
bool solved(const SweepRow& row);

class Sweep {
 public:
  // Builds every run's configuration (the experiment's, with --epochs, --stop-when-solved and the
  // settings applied to its JSON and read back by config_from_json, so a bad key or value is
  // refused as in an experiment file). Throws ConfigError naming the setting. An empty
  // `directory` (no --out) is default_sweep_directory's.
  Sweep(SweepSpec spec, ExperimentFile experiment, std::string directory);

  const std::vector<SweepRun>& runs() const { return runs_; }
  const std::string& directory() const { return directory_; }

  // Creates the directory (or checks that it holds this same sweep, refusing another's), writes
  // DIR/sweep.json and reads the rows of the runs already finished. Throws ConfigError when --out
  // holds another sweep or is not a sweep's directory, FileError when a file cannot be read or
  // written or a finished run's row is damaged.
  void open();
  // Lets another sweep open the directory (destroying the sweep does too).
  void close() { lock_.reset(); }
  bool finished(size_t run) const { return rows_[run].has_value(); }
  size_t finished_count() const;

  // Trains one run on the CPU with `threads` threads (0: all), saving its model under
  // DIR/models/; `watch`, when given, sees its rounds as they are trained. Returns nothing when a
  // signal stopped it before its end (not recorded).
  std::optional<SweepRow> train(const SweepRun& run, int threads,
                                TrainingObserver* watch = nullptr) const;
  // Records a finished run: DIR/runs/<id>.json, then runs.csv, runs.json and summary.md again.
  void record(size_t run, const SweepRow& row);

  // The finished rows in run order, as CSV and JSON; the summary per combination as Markdown.
  std::string csv() const;
  nlohmann::json rows_json() const;
  std::string summary_markdown() const;

 private:
  nlohmann::json identity() const;  // what must match to resume
  // What would stop a combination's runs when they start, found before any run: its task (a
  // loss channel without a target plane) and the memory one run needs. `options`: its --set text.
  // Returns the epoch its runs train to at most, with their recipe resolved (last_epoch).
  int64_t check_combination(const ExperimentConfig& config, const std::string& options) const;
  void write_tables() const;

  SweepSpec spec_;
  ExperimentFile experiment_;
  // An image task's picture as the sweep was opened (task_json): every run checks that it still
  // is, so that one table never mixes two targets.
  nlohmann::json task_;
  std::string directory_;
  std::string directory_label_;  // how errors name it: "--out DIR", or the default folder
  std::vector<SweepRun> runs_;
  std::vector<std::string> combinations_;  // options text per combination
  std::vector<std::optional<SweepRow>> rows_;
  std::shared_ptr<FileLock> lock_;  // DIR/.lock, locked while the sweep is open
};

// One line per finished run for the progress output.
std::string progress_line(const SweepRow& row, size_t done, size_t total);

// Runs the unfinished runs of an opened sweep on this machine, `jobs` at once, threads split
// between them. Prints a progress line per finished run to `out`, and every
// `report_every_seconds` while runs train, one line of where each run in flight stands (a sweep
// of long runs would otherwise say nothing until its first run ends). Returns false when a
// signal stopped it.
bool run_sweep_locally(Sweep& sweep, int jobs, int threads, std::ostream& out,
                       double report_every_seconds = 60);

}  // namespace dlca
