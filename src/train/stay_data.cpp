// Grow and stay from the circuit's own growth (stay_data.hpp): the epoch's start step and the hard
// circuit's state there, stepped on a BitGrid.
#include "dlca/train/stay_data.hpp"

#include <stdexcept>

#include "dlca/circuits/bit_grid.hpp"
#include "dlca/core/cell_program.hpp"
#include "dlca/train/picture_kept.hpp"

namespace dlca {

int stay_start_step(const ExperimentConfig& c, int64_t epoch) {
  if (!c.stay || epoch % 2 == 0) return 0;
  return int(1 + (epoch / 2) % kept_first_step(c));
}

void grow_with_hard_circuit(const Model& model, int steps, std::vector<float>& states) {
  const ExperimentConfig& c = model.config;
  if (states.size() != size_t(c.batch) * c.channels * c.height * c.width)
    throw std::invalid_argument("grow_with_hard_circuit: states do not match the model's grid");
  BitGrid grid(build_cell_program(model), hard_ops(model),
               make_grid_geometry(c.batch, c.height, c.width, c.channels, c.periodic));
  grid.set_state(states.data());
  for (int step = 0; step < steps; ++step) grid.step();
  const std::vector<uint8_t> grown = grid.state();
  for (size_t i = 0; i < grown.size(); ++i) states[i] = float(grown[i]);
}

}  // namespace dlca
