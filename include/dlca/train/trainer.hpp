// The training loop above the backend contract: per epoch it asks the task for initial grids, runs
// the backend's rollout (soft loss, hard loss, gradient) and takes one AdamW step.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "dlca/core/backend.hpp"
#include "dlca/core/epoch_stats.hpp"
#include "dlca/core/model.hpp"
#include "dlca/train/adamw.hpp"
#include "dlca/train/circuit_repair.hpp"
#include "dlca/train/task.hpp"

namespace dlca {

// Thrown by Trainer::run_epoch when the soft loss or the gradient is no longer finite: the
// parameters have run away. The message names the epoch (its index, from 0, as epoch() gives it)
// and what was not finite.
class TrainingDiverged : public std::runtime_error {
 public:
  TrainingDiverged(const std::string& message, int64_t epoch)
      : std::runtime_error(message), epoch_(epoch) {}
  int64_t epoch() const { return epoch_; }

 private:
  int64_t epoch_;
};

// Thrown by the Trainer's constructor when the model was trained for another task than the one
// given ("the model was trained for checkerboard, not for image (...)").
class TaskMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Trainer {
 public:
  Trainer(Model model, const Task& task, Backend& backend);
  EpochStats run_epoch();
  // An epoch on the device in two halves around the device's work, so that the members of a
  // population train their epochs together (run_candidate_epochs): begin_device_epoch draws the
  // epoch's data and returns what the device needs (the state it trains is the one the trainer
  // last handed over, or the device's own since); finish_device_epoch checks and records the
  // device's result. run_epoch is the two around DeviceTraining::train_epoch. Throws
  // std::logic_error unless on_device().
  DeviceEpochRequest begin_device_epoch();
  EpochStats finish_device_epoch(const DeviceEpoch& result);
  // The backend's device part (null when training on the host).
  DeviceTraining* device() const { return device_; }
  // The parameters and optimiser state; when training on a device, downloaded first if stale.
  const Model& model() const {
    sync_from_device();
    return model_;
  }
  const Task& task() const { return task_; }
  int64_t epoch() const { return epoch_; }
  const AdamW& optimizer() const {
    sync_from_device();
    return optimizer_;
  }
  bool on_device() const { return on_device_; }
  // Every epoch run so far, including those before a restore.
  const std::vector<EpochStats>& history() const { return history_; }
  // Continues a run from a checkpoint: optimizer moments and step count, epoch, history. The
  // data and mask streams are keyed by epoch, so the next epoch is the one the run would have had.
  // `measured`: the current parameters' measurement when the checkpoint's last epoch was taken
  // back (undone_epoch() of the run that wrote it).
  // `hardened`: the gates progressive hardening had fixed (empty: none, else one flag per gate).
  void restore(int64_t epoch, int64_t optimizer_steps, std::vector<float> first_moment,
               std::vector<float> second_moment, std::vector<EpochStats> history,
               std::optional<EpochStats> measured = std::nullopt,
               std::vector<uint8_t> hardened = {});
  // The first epoch scored on the model's grow-and-stay window: 0, or the epoch of a checkpoint
  // resumed with a longer window (check_resume), whose history before it scored a shorter one. The
  // hard losses before it neither solve the run nor name its first epoch with hard loss 0.
  int64_t window_start() const { return window_start_; }
  void set_window_start(int64_t epoch) { window_start_ = epoch; }
  // The gates progressive hardening has fixed to their hard op (config.hpp): empty (none yet) or
  // one flag per gate. Stages are taken at the start of an epoch.
  const std::vector<uint8_t>& hardened_gates() const { return hardened_; }

  // Keeps the state before each epoch (parameters, moments, step count) so that the epoch can be
  // taken back: a copy per epoch on the host, and on a device the download of that state.
  void keep_undo_state(bool keep) { keep_undo_ = keep; }
  // Takes back the last epoch: parameters, moments and step count as they were before it, one epoch
  // less, its history entry removed. Its measurement, which is that of the parameters now current,
  // stays available as undone_epoch() until the next epoch or restore. A run that stops when solved
  // uses it to end with the very parameters that scored hard loss 0; resuming such a checkpoint
  // repeats that epoch exactly. Throws std::logic_error unless keep_undo_state(true) was set before
  // the last epoch ran.
  void undo_last_epoch();
  const std::optional<EpochStats>& undone_epoch() const { return undone_; }
  // The model with the parameters the last epoch started from (and scored its losses with), kept
  // by keep_undo_state(true); throws std::logic_error otherwise.
  Model model_before_last_epoch() const;

  // Greedy repair of the current hard circuit, scored on the data the next epoch would see
  // (circuit_repair.hpp); changes nothing. apply_repair makes its changes (logits and moments).
  RepairReport search_repair(const RepairSettings& settings);
  void apply_repair(const RepairReport& report);

 private:
  // The state as the device has it, when it has moved on (DeviceTraining owns which copy is
  // current); and the host's state handed to it after the host changed it.
  void sync_from_device() const;
  void upload_to_device();
  void prepare_data(int64_t epoch);  // data_ and masks_ of an epoch
  // The parts of an epoch shared by the host and the device: its data, temperature, noise and
  // undo snapshot; the batch of that data; the stats recorded.
  void begin_epoch();
  RolloutBatch epoch_batch() const;
  double hard_feedback() const;  // this epoch's (RolloutRequest::hard_feedback)
  EpochStats finish_epoch(double soft_loss, double hard_loss, int active_gates);

  mutable Model model_;
  int64_t window_start_ = 0;
  const Task& task_;
  Backend& backend_;
  mutable AdamW optimizer_;
  DeviceTraining* device_;    // the backend's, null when it trains on the host
  bool on_device_;            // parameters and moments live on the backend's device
  int64_t device_steps_ = 0;  // AdamW steps taken, counting those on the device
  uint64_t masks_key_;
  int64_t epoch_ = 0;
  std::vector<EpochStats> history_;
  TaskBatch data_;
  jax::EpochKeys jax_rollout_keys_;  // the notebook's per-epoch rollout keys (async masks)
  std::vector<uint8_t> masks_;       // this epoch's async fire masks
  std::vector<float> noise_;         // this epoch's logit noise (scaled), when on
  bool noise_used_ = false;          // noise_ is this epoch's
  double temperature_ = 1.0;         // this epoch's forward temperature
  std::vector<uint8_t> hardened_;    // progressive hardening's fixed gates (empty: none)
  std::chrono::steady_clock::time_point epoch_start_;
  bool keep_undo_ = false;
  struct Snapshot {
    int64_t steps = -1;  // -1: none kept for the last epoch
    std::vector<float> logits, first_moment, second_moment;
    std::vector<uint8_t> hardened;
  } before_last_epoch_;
  std::optional<EpochStats> undone_;
};

}  // namespace dlca
