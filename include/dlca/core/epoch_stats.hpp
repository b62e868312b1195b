// What one training epoch measured: the record of a run's history, kept by the trainer, written to
// the CSV log and the model file, and drawn by the loss plots.
#pragma once

#include <cstdint>

namespace dlca {

struct EpochStats {
  int64_t epoch = 0;  // 0-based; the losses are those of the parameters after `epoch` updates
  double soft_loss = 0;
  double hard_loss = 0;
  int active_gates = 0;     // of the parameters the losses were measured with
  double milliseconds = 0;  // wall time of the whole epoch (data, rollout, hard loss, optimiser)
};

}  // namespace dlca
