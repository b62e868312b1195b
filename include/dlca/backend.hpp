// The contract every backend (CPU, Vulkan) implements: given a model, a batch of initial grids and
// the target, run the rollout and return the soft loss, the hard loss and the logit gradients.
// The optimiser, experiments and command-line programs sit above this and do not know which ran.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dlca/grid.hpp"
#include "dlca/model.hpp"

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
};

struct RolloutResult {
  double soft_loss = 0;     // sum of squared errors over the loss channels after the last step
  double hard_loss = 0;     // the same with hard gates: the number of wrong bits
  std::vector<float> grad;  // dL/dlogits, laid out as Model::logits
  std::vector<float> final_state;  // [batch][C][H][W] when requested
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual RolloutResult rollout(const Model& model, const Target& target, const RolloutBatch& batch,
                                const RolloutRequest& request) = 0;
};

}  // namespace dlca
