// Hard rollouts of a batch on the bit-sliced simulator.
#include "dlca/circuits/hard_rollout.hpp"

#include "dlca/circuits/bit_grid.hpp"

namespace dlca {

HardRollout hard_rollout(const CellProgram& program, const std::vector<uint8_t>& ops,
                         const GridGeometry& geometry, const float* initial_state, int steps,
                         const uint8_t* masks, const Target& target,
                         const std::vector<int>& loss_channels, int loss_steps) {
  BitGrid grid(program, ops, geometry);
  grid.set_state(initial_state);
  double loss = 0;
  for (int s = 0; s < steps; ++s) {
    if (masks)
      grid.step_masked(masks + size_t(s) * geometry.plane());
    else
      grid.step();
    if (s + 1 > steps - loss_steps) loss += grid.loss(target, loss_channels);
  }
  return {grid.state(), loss};
}

}  // namespace dlca
