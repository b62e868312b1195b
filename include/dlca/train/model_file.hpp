// Model files: one versioned JSON format for trained models and resumable training checkpoints.
//   {"format": "dlca-model", "version": 3, "kind": "model" | "checkpoint",
//    "config": {...experiment configuration...},
//    "wiring": {"perception": [{"a": [...], "b": [...]}, ...], "update": [...]},
//    "logits": [num_gates * 16 floats, gate-major, in Model's layer order],
//    "task": {"kind": "checkerboard" | "game_of_life" | "image", ...} (see trained_task.hpp),
//    "training": {                      (checkpoints only)
//      "epoch": epochs completed,
//      "optimizer": {"steps": t, "first_moment": [...], "second_moment": [...]},
//      "random": {"streams": "jax" | "dlca", "seed": s, "next_epoch": epoch},
//      "history": {"soft_loss": [...], "hard_loss": [...], "active_gates": [...], "ms": [...]}},
//    "multi_start": {                   (multi-start runs only)
//      "run_seed": s, "starts": K, "chosen": k, "solved_epoch": e | null,
//      "candidates": [{"seed": s_j, "logits": [...], "training": {...}}, ...],
//      "halving": {...} (--starts auto; see HalvingRecord)},
//    "checksum": "crc32:XXXXXXXX"}
// A multi-start run's file is its chosen candidate's (config with that candidate's seed and starts
// 1), plus "multi_start": the run's seed and start count, which candidate was chosen, and, in a
// checkpoint of a run not yet solved, every candidate's parameters and training state so that the
// whole run resumes (a solved run keeps only the candidate that solved).
// The random generators are counter-based (keyed by seed and epoch), so their state is the seed
// and the next epoch. The checksum is the CRC-32 of the compact JSON text of every other key
// (nlohmann::json::dump() of the object without "checksum"). Floats are written so that they read
// back bit-identically. Files are written atomically (temporary file, then rename).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dlca/core/model.hpp"
#include "dlca/train/trainer.hpp"

namespace dlca {

// Version 3 adds "task" (trained_task.hpp); version 2 files still load, their task inferred from
// the experiment's name (task_inferred_from_name).
inline constexpr int kModelFileVersion = 3;

// What a checkpoint holds beyond the model: enough to continue the run bit-identically.
struct TrainingState {
  int64_t epoch = 0;
  int64_t optimizer_steps = 0;
  std::vector<float> first_moment, second_moment;
  std::vector<EpochStats> history;  // every epoch so far (losses, active gates, wall time)
  // A run stopped when solved takes its last epoch back, so that its parameters are those that
  // scored hard loss 0: that measurement of the current parameters (Trainer::undone_epoch()).
  std::optional<EpochStats> measured;
  // The --tile-cells a CPU run was given: the order of its float sums, which a resume must keep
  // to continue bit-identically. None for the automatic size (and a GPU run): the file then reads
  // in older dlca builds too.
  std::optional<int> tile_cells;
  // Trained on a Vulkan device: its float sums differ from the CPU's, so a resume must stay there.
  // False for the CPU (the key is then left out, so that older dlca builds read the file).
  bool vulkan = false;
  // The gates progressive hardening has fixed (Trainer::hardened_gates(): empty, or one flag per
  // gate); stored as the list of their indices, left out when none.
  std::vector<uint8_t> hardened;
};

// One candidate of a multi-start run, in a checkpoint.
struct StartState {
  int start = 0;      // its start (in a halving run's file only those kept are listed, as "start")
  uint64_t seed = 0;  // start_seed(run_seed, start)
  std::vector<float> logits;
  TrainingState training;
};

// Where a halving run (--starts auto) stood, so that a checkpoint continues it:
//   {"slots": S, "epochs_used": U, "fates": ["training" | "finished" | "halted" | "diverged" |
//    "out_of_budget", ... by start], "diverged_epochs": [e or 0, ... by start],
//    "rungs": [epoch, ...], "rung_scores": [[score, ...] per rung]}
// Its candidates are those still held (training, finished, diverged, out of budget), by start.
struct HalvingRecord {
  int slots = 1;  // the run's `starts`: how many train at once
  int64_t epochs_used = 0;
  std::vector<std::string> fates;
  // By start: how many epochs it had tried when it diverged, the diverging one included (the
  // index of that epoch plus 1); 0 for a start that did not diverge.
  std::vector<int64_t> diverged_epochs;
  std::vector<int64_t> rungs;  // the epochs of its rungs (they follow from --epochs)
  std::vector<std::vector<double>> rung_scores;
};

struct MultiStartRecord {
  uint64_t run_seed = 0;
  int starts = 1;                        // starts of the run (of a halving run: tried so far)
  int chosen = 0;                        // the candidate whose model the file holds
  std::optional<int64_t> solved_epoch;   // the epoch whose hard loss 0 stopped the run
  std::vector<StartState> candidates;    // every candidate in start order (those held), or none
  std::optional<HalvingRecord> halving;  // a halving run's, until it is settled
  // The configuration the run was started with (the chosen model's, with the run's seed and
  // starts).
  ExperimentConfig run_config(const ExperimentConfig& chosen_config) const;
};

struct ModelFile {
  Model model;
  std::optional<TrainingState> training;  // present in checkpoints
  std::optional<MultiStartRecord> multi_start;
};

// The trainer's state, to save as a checkpoint; and the reverse.
TrainingState training_state_of(const Trainer& trainer);
void restore_training(Trainer& trainer, TrainingState state);

std::string model_file_text(const Model& model, const TrainingState* training,
                            const MultiStartRecord* multi_start = nullptr);
// Writes a checkpoint when `training` is given, else a plain model. Throws FileError.
void save_model_file(const std::string& path, const Model& model,
                     const TrainingState* training = nullptr,
                     const MultiStartRecord* multi_start = nullptr);
// Adds the checksum to a model file's JSON object and returns its text (tests use it to write
// files whose checksum is right but whose content is not).
std::string seal_model_file(nlohmann::json body);
// "crc32:XXXXXXXX" of any bytes: model files' checksums, and the fingerprint of a sweep's
// target image.
std::string crc32_text(const void* data, size_t bytes);
// "crc32:XXXXXXXX" of the logits' bytes: a short fingerprint to compare two runs' parameters.
std::string logits_checksum(const std::vector<float>& logits);
// Reads either kind. Throws FileError("PATH: reason") for anything missing, truncated, corrupted
// (checksum), of another format, version or kind, or inconsistent; never returns a partial model.
ModelFile load_model_file(const std::string& path);
// The model of a model file of either kind.
Model load_model(const std::string& path);
// A checkpoint's model and training state; a plain model file is refused by name.
ModelFile load_checkpoint(const std::string& path);

}  // namespace dlca
