// Setting up a training run from a configuration: its candidates (one, or --starts of them), each
// with its task and backend, from scratch or from a checkpoint, after checking that the run fits
// in memory. Shared by the training programs and the Python module.
#pragma once

#include <stdexcept>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dlca/train/backend_choice.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/multi_start.hpp"

namespace dlca {

struct PreparedTraining {
  ExperimentConfig config;                    // the run's
  std::vector<TrainingCandidate> candidates;  // by start; a released one holds no trainer
  std::string backend_name;                   // candidate 0's backend
  std::string note;                           // why "auto" chose its backend (empty otherwise)
  VulkanBackend* vulkan = nullptr;            // candidate 0's backend when it is the Vulkan one
  // A resumed checkpoint (not a halving run's) already at the run's epochs: no training, only the
  // outputs are written (start_training).
  bool nothing_to_train = false;
  // Where a resumed halving run's checkpoint stood (CandidatePool), when it continues one.
  std::optional<HalvingRecord> resumed_halving;
  // Builds a new start's candidate (a halving run's; add_start).
  std::function<TrainingCandidate(int start)> make_start;
  // Every start's trainer, null for those released.
  std::vector<Trainer*> trainers() const;
  // Appends start `start` (the next one) and returns its trainer.
  Trainer* add_start(int start);
  // Frees a start that will not train or be chosen again: its trainer and task, and its backend
  // unless it is candidate 0's (which the others' device population and backend_name rely on).
  void release(int start);
};

// Whether a run of `requested` continues one of `saved` with a longer grow-and-stay window: the
// loss still begins at the same step T (steps - loss_steps + 1) and goes on to a later step, so
// that a picture grown at T is trained on to stay (docs/training.md, "Grow and stay").
bool stays_longer(const ExperimentConfig& saved, const ExperimentConfig& requested);

// Throws ResumeMismatch unless `checkpoint` (read from `path`) can be continued by a run of
// `config`: the same configuration apart from how long to train and a longer grow-and-stay window
// (stays_longer; the message names every differing field), and an epoch count not below the
// checkpoint's.
void check_resume(const ModelFile& checkpoint, const std::string& path,
                  const ExperimentConfig& config);

// The configuration with its recipe's schedule resolved for the task (with_recipe_schedule:
// robust's noise and sharpening for a target grown from a fixed start, an image task). Every
// training entry point calls it once the configuration is final, before prepare_training.
// `resumed`: the checkpoint a run continues. A robust image run given no schedule of its own takes
// the checkpoint's (derived from the epochs it was started with), so that it can be resumed to
// more epochs than it first had.
ExperimentConfig resolve_recipe(const ExperimentConfig& config, const MakeTask& make_task,
                                const ModelFile* resumed = nullptr);

// Memory a CPU training of `config` needs: every candidate's rollouts, and writing a checkpoint
// (its JSON is built in memory first: about 4 times the file, plus the text).
uint64_t cpu_training_memory_bytes(const ExperimentConfig& config,
                                   const CpuBackendOptions& options);

// Validates the configuration and the checkpoint (check_resume) first.
// `choice.cpu` is every candidate's CPU backend (its threads split between candidates);
// `resumed`/`resume_path`: a checkpoint to continue (make_candidates checks it fits the run);
// `max_memory` 0 = what the machine has. Throws with a one-line reason.
PreparedTraining prepare_training(const ExperimentConfig& config, const MakeTask& make_task,
                                  const BackendChoice& choice, ModelFile* resumed,
                                  const std::string& resume_path, uint64_t max_memory);

// The epochs a trainer measured, with the one a solved stop took back (the log's rows).
std::vector<EpochStats> measured_epochs(const Trainer& trainer);

}  // namespace dlca
