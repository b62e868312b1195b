// A consumer of one layer: links dlca::circuits (and the layers below it) only, no trainer or
// backend, and runs the hard circuit of a freshly initialised checkerboard model on a small grid.
#include <cstdio>

#include "dlca/circuits/bit_grid.hpp"
#include "dlca/circuits/circuit.hpp"
#include "dlca/circuits/circuit_kernel.hpp"
#include "dlca/core/config.hpp"
#include "dlca/core/model.hpp"

int main() {
  dlca::ExperimentConfig config = dlca::checkerboard_sync_config();
  const dlca::Circuit circuit = dlca::prune(dlca::make_model(config));
  dlca::BitGrid grid(circuit, dlca::interpreted_kernel(circuit), 16, 16, config.periodic);
  grid.set(0, 8, 8, true);
  for (int step = 0; step < 5; ++step) grid.step();
  std::printf("circuits only: %zu gates, %llu live cells after 5 steps\n", circuit.gates.size(),
              (unsigned long long)grid.count(0));
  return 0;
}
