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
//    "checksum": "crc32:XXXXXXXX"}
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

#include "dlca/model.hpp"
#include "dlca/trainer.hpp"

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
};

struct ModelFile {
  Model model;
  std::optional<TrainingState> training;  // present in checkpoints
};

// The trainer's state, to save as a checkpoint; and the reverse.
TrainingState training_state_of(const Trainer& trainer);
void restore_training(Trainer& trainer, TrainingState state);

std::string model_file_text(const Model& model, const TrainingState* training);
// Writes a checkpoint when `training` is given, else a plain model. Throws FileError.
void save_model_file(const std::string& path, const Model& model,
                     const TrainingState* training = nullptr);
// Adds the checksum to a model file's JSON object and returns its text (tests use it to write
// files whose checksum is right but whose content is not).
std::string seal_model_file(nlohmann::json body);
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
