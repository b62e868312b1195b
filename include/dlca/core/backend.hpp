// The contract every backend (CPU, Vulkan) implements: given a model, a batch of initial grids and
// the target, run the rollout and return the soft loss, the hard loss and the logit gradients.
// The optimiser, experiments and command-line programs sit above this and do not know which ran.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dlca/core/grid.hpp"
#include "dlca/core/model.hpp"
#include "dlca/core/optimizer_settings.hpp"

namespace dlca {

struct RolloutBatch {
  int batch = 1;
  const float* initial_state = nullptr;  // [batch][C][H][W], values in [0, 1]
  const uint8_t* fire_masks = nullptr;   // async only: [step][y*W + x], 1 where the cell updates
};

struct RolloutRequest {
  bool gradient = true;      // compute grad
  bool hard_loss = true;     // also run the hard (boolean) circuit on the same inputs and masks
  bool final_state = false;  // return the soft final state
  // Forward-only sharpening (docs/MODEL.md §3.5): the soft rollout's gates use softmax(logits / T)
  // with T = forward_temperature, the logit gradient the softmax of the undivided logits. 1: the
  // plain softmax.
  double forward_temperature = 1.0;
  // Noise added to the logits of the soft pass (forward and softmax backward), laid out as
  // Model::logits; the hard pass uses the clean logits. Null: none.
  const std::vector<float>* logit_noise = nullptr;
  // Progressive hardening: one flag per gate, 1 where the gate is fixed to its hard op (the soft
  // pass uses that op's coefficients, its gradient is 0). Null or empty: none.
  const std::vector<uint8_t>* hardened_gates = nullptr;
  // Hard-error feedback (ExperimentConfig::hard_feedback): with gradient, the gradient of the soft
  // final state gets hard_feedback * 2 (hard - target) added over the loss channels, hard being the
  // hard circuit's final state on the same inputs (and masks). 0: none.
  double hard_feedback = 0.0;
};

struct RolloutResult {
  double soft_loss = 0;     // sum of squared errors over the loss channels after the last step
  double hard_loss = 0;     // the same with hard gates: the number of wrong bits
  std::vector<float> grad;  // dL/dlogits, laid out as Model::logits
  std::vector<float> final_state;  // [batch][C][H][W] when requested
};

// One epoch run entirely on a backend's device (see Backend::device_training).
struct DeviceEpoch {
  double soft_loss = 0, hard_loss = 0;
  int active_gates = 0;         // of the parameters the losses were measured with
  bool finite_gradient = true;  // false: the AdamW step was skipped
};

// One candidate's epoch on a device: its parameters (Model::logits as the trainer has them; on
// the device they are the uploaded ones), AdamW's settings and 1-based step number (for the bias
// corrections), forward_temperature, logit_noise, hardened_gates and hard_feedback as in
// RolloutRequest (AdamW leaves a hardened gate's parameters and moments as they are), and its data.
struct DeviceEpochRequest {
  const Model* model = nullptr;
  AdamWSettings settings;
  int64_t step = 1;
  double forward_temperature = 1.0;
  const std::vector<float>* logit_noise = nullptr;
  const std::vector<uint8_t>* hardened_gates = nullptr;
  double hard_feedback = 0.0;
  const Target* target = nullptr;
  RolloutBatch batch;
};

class DevicePopulation;

// An optional part of a backend: training with the logits and AdamW's moments kept on its device
// (the Vulkan backend). It is the one owner of which copy of a trainer's state is current: the
// trainer hands its state over whenever it changes it on the host (start, restore, undo, repair),
// runs whole epochs on the device (rollout, gradient, AdamW), and asks for the state back whenever
// it reads it (saving, the end of a run), getting it only when the device has moved on.
class DeviceTraining {
 public:
  virtual ~DeviceTraining() = default;
  // The trainer's state, now the current one (sent to the device before the next epoch).
  virtual void upload_training_state(const Model& model, const std::vector<float>& first_moment,
                                     const std::vector<float>& second_moment) = 0;
  virtual DeviceEpoch train_epoch(const DeviceEpochRequest& request) = 0;
  // The current state into the arguments, returning true; false, leaving them as they are, when
  // the trainer already has it (no epoch trained since it was uploaded or last downloaded).
  virtual bool download_training_state(std::vector<float>& logits, std::vector<float>& first_moment,
                                       std::vector<float>& second_moment) = 0;
  // The population this is a member of, when it has one: the candidates of a multi-start whose
  // backends share a device (VulkanBackend::add_member). Null: none.
  virtual DevicePopulation* population() { return nullptr; }
};

// Members of one population train their epochs together: one submission, the same dispatches as
// one member's epoch, each member's results as its train_epoch would give them (the candidate as
// an outer batch dimension of parameters, moments, wiring and states).
class DevicePopulation {
 public:
  virtual ~DevicePopulation() = default;
  // requests[i] is the epoch of members[i] (distinct members of this population, any subset).
  virtual std::vector<DeviceEpoch> train_epochs(std::span<DeviceTraining* const> members,
                                                std::span<const DeviceEpochRequest> requests) = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual RolloutResult rollout(const Model& model, const Target& target, const RolloutBatch& batch,
                                const RolloutRequest& request) = 0;
  // Optional parts are asked for, never thrown from: null when this backend (or its current
  // options) does not have the part; the trainer then runs AdamW on the host.
  virtual DeviceTraining* device_training() { return nullptr; }
};

}  // namespace dlca
