// Hard (boolean) rollouts, bit-sliced: each gate's argmax op applied with bitwise operations to
// 64 cells per machine word. Used for the hard loss every epoch and for hard evaluations.
#pragma once

#include <cstdint>
#include <vector>

#include "dlca/cell_program.hpp"
#include "dlca/grid.hpp"

namespace dlca {

struct HardRollout {
  std::vector<uint8_t> final_state;  // [batch][C][H][W], 0 or 1
  double loss = 0;                   // wrong bits over the loss channels after the last step
};

// initial_state values are thresholded at 0.5. masks: fire_masks() for async, empty for sync.
HardRollout hard_rollout(const CellProgram& program, const std::vector<uint8_t>& ops,
                         const GridGeometry& geometry, const float* initial_state, int steps,
                         const std::vector<uint8_t>& masks, const Target& target,
                         const std::vector<int>& loss_channels);

}  // namespace dlca
