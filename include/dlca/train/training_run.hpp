// Running a whole training for any front end: its rounds, watched by the observers the front end
// hands over (progress, Ctrl-C, a callback: training_observer.hpp), the per-epoch CSV log,
// periodic checkpoints, the final summary (printed and as JSON), and the saved checkpoint. A stop
// asked for ends the run after the current epoch and still writes everything. A trainer restored
// from a checkpoint continues where it stopped; the log and summary then cover the whole run.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dlca/io/output_paths.hpp"
#include "dlca/train/candidate_pool.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/picture_kept.hpp"
#include "dlca/train/trainer.hpp"
#include "dlca/train/training_observer.hpp"
#include "dlca/train/training_setup.hpp"

namespace dlca {

struct TrainingRunOptions {
  int64_t epochs = 0;
  std::string log_path;        // CSV: epoch,soft_loss,hard_loss,active_gates,ms; loss SVG beside it
  std::string gif_path;        // rollout GIF of the trained hard rule
  std::string histogram_path;  // per-op gate histogram, SVG
  std::string summary_path;    // JSON summary
  std::string save_path;       // model file (a checkpoint: it can be resumed)
  int64_t checkpoint_every = 0;  // rewrite save_path every N epochs (0: only at the end)
  int threads = 0;               // several candidates: how many train at once (0 = every core)
  // Run on the final model before the summary is written; its keys are added to the summary JSON.
  // They are printed after the summary as "key value".
  std::function<nlohmann::json(const Model&)> evaluate;
  // What watches the run, in this order (training_observer.hpp): the programs hand over a
  // progress display and SignalStop, the sweep SignalSeen, the Python module its callback and
  // Ctrl-C. None: the run is silent and only its epochs, a solve or the budget end it.
  std::vector<TrainingObserver*> observers;
  // A --save that cannot be written at the end (a full disk, its folder removed) is written to
  // the temporary folder instead and the error says where (the command-line programs; the Python
  // module hands the model over with its exception instead).
  bool rescue_unsaved_model = false;
  // The --tile-cells a CPU run was given (none: automatic), recorded in its checkpoints
  // (TrainingState::tile_cells).
  std::optional<int> tile_cells;
};

struct TrainingSummary {
  std::string experiment;
  std::string backend;
  std::string recipe;  // the recipe's name (config.hpp, Recipe)
  int64_t epochs = 0;
  double final_soft_loss = 0, final_hard_loss = 0;
  std::optional<int64_t> first_zero_epoch;  // first epoch whose hard loss was 0
  int active_gates = 0;                     // of the final parameters
  std::string logits_checksum;              // logits_checksum() of the final parameters
  int pruned_gates = 0;                     // gates of the pruned circuit (docs/MODEL.md §11.2)
  int64_t resumed_from_epoch = 0;           // 0 unless the run continued a checkpoint
  double wall_seconds = 0;                  // of this invocation
  double median_epoch_ms = 0;
  bool interrupted = false;          // stopped by a signal before `epochs`, or while repairing
  bool stopped_when_solved = false;  // stopped early by the config's stop_when_solved
  int stop_signal = 0;               // SIGINT or SIGTERM when a signal stopped the run
  // Multi-start: how many candidates, which one the run kept (the one that solved, else the one
  // with the lowest hard loss, the lowest start on ties) and its seed. 1, 0 and the seed otherwise.
  int starts = 1;
  int chosen_start = 0;
  uint64_t start_seed = 0;
  // --repair: what the repair of the kept candidate found (hard loss before and after, gates
  // changed, hard rollouts, seconds); null when none ran. A repair that reaches 0 is applied and
  // the run counts as solved at its last epoch; one that does not changes nothing.
  nlohmann::json repair;
  // Several candidates: CandidatePool::record() (starts tried, halted, diverged; a halving run's
  // budget and what it used); null for one.
  nlohmann::json candidates;
  std::optional<HalvingRecord> halving;  // a halving run's state at the end (for its record)
  // Hard circuit's op counts (argmax), perception (per kernel) and update separately.
  std::vector<int> perception_op_counts, update_op_counts;
  // An image model: how its hard circuit keeps the picture from the trained step T to 2T; none for
  // other tasks (picture_kept.hpp).
  std::optional<PictureKept> kept;
  nlohmann::json extra;  // keys from TrainingRunOptions::evaluate
  nlohmann::json to_json() const;
};

// The files a run writes, named by option, for check_output_paths.
std::vector<NamedPath> training_output_paths(const TrainingRunOptions& options);

// Whether a run from epoch `from` to `epochs` writes a checkpoint every `every` epochs (at the
// epochs divisible by it) before its last, which writes its file anyway; when not, the option
// changes nothing and the programs refuse it.
inline bool checkpoints_before_end(int64_t every, int64_t from, int64_t epochs) {
  return every <= 0 || from >= epochs || (from / every + 1) * every < epochs;
}

// The multi-start record of a checkpoint of `candidates` (what --save holds): until the run is
// settled (solved, or repaired) every candidate's parameters and state, which a resume continues;
// once settled only the epoch, the file then holding the chosen candidate alone. Each state
// records the run's --tile-cells.
// A halving run's `candidates` hold null for starts released, and `halving` says where it stands.
MultiStartRecord multi_start_record(std::span<Trainer* const> candidates, uint64_t run_seed,
                                    size_t chosen, bool settled, std::optional<int> tile_cells,
                                    const HalvingRecord* halving = nullptr);

TrainingSummary run_training(Trainer& trainer, const std::string& backend_name,
                             const TrainingRunOptions& options, std::ostream& out);
// A multi-start run: the candidates train one epoch at a time each, side by side (in parallel on
// the CPU); the log, model, pictures and summary are those of the chosen candidate. `run` is the
// run's configuration (its seed the one the candidates' seeds were derived from; its starts,
// halving and budget). A candidate whose epoch diverges stops there
// while others go on (the run fails with TrainingDiverged when none is left). A halving run
// (--starts auto) adds starts with `add_start` and frees those halted with `release_start`.
TrainingSummary run_training(std::span<Trainer* const> candidates, const ExperimentConfig& run,
                             const std::string& backend_name, const TrainingRunOptions& options,
                             std::ostream& out, CandidatePool::AddStart add_start = nullptr,
                             CandidatePool::ReleaseStart release_start = nullptr,
                             const HalvingRecord* resumed_halving = nullptr);
// The same for a prepared run: its new starts and releases go through `prepared`.
TrainingSummary run_training(PreparedTraining& prepared, const TrainingRunOptions& options,
                             std::ostream& out);

}  // namespace dlca
