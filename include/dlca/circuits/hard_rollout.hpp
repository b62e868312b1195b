// A hard (boolean) rollout of a batch: the program's argmax circuit stepped on a BitGrid
// (bit_grid.hpp, dlca's one bit-sliced simulator). Used for the hard loss every epoch, for hard
// evaluations and by the repair search.
#pragma once

#include <cstdint>
#include <vector>

#include "dlca/core/cell_program.hpp"
#include "dlca/core/grid.hpp"

namespace dlca {

struct HardRollout {
  std::vector<uint8_t> final_state;  // [batch][C][H][W], 0 or 1
  double loss = 0;  // wrong bits over the loss channels after each of the last loss_steps steps
};

// initial_state values are thresholded at 0.5. masks: [step][H*W] for async, null for sync.
// loss_steps: how many of the last states are compared with the target (config.hpp).
HardRollout hard_rollout(const CellProgram& program, const std::vector<uint8_t>& ops,
                         const GridGeometry& geometry, const float* initial_state, int steps,
                         const uint8_t* masks, const Target& target,
                         const std::vector<int>& loss_channels, int loss_steps = 1);

}  // namespace dlca
