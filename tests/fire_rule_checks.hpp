// The asynchronous fire rule at its edges, for any SimulationGrid: a cell whose draw equals the
// fire rate fires (training's `draw <= fire_rate`, grid.cpp's fire_masks), rate 1 fires every cell
// and rate 0 none. Shared by the CPU and Vulkan hardening tests.
#pragma once

#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <vector>

#include "dlca/circuits/circuit.hpp"
#include "dlca/circuits/simulation_grid.hpp"
#include "dlca/core/grid.hpp"
#include "dlca/core/random.hpp"

namespace dlca::testing {

// One channel whose rule is NOT of the cell itself: from all zeros, the cells that fire become 1.
inline Circuit not_circuit() {
  Circuit c;
  c.channels = 1;
  c.gates.push_back({uint8_t(kOpNotA), Circuit::input(0, 4), Circuit::input(0, 4), 0, 0, ""});
  c.outputs = {c.num_inputs()};
  return c;
}

// make_grid(circuit, height, width) gives a fresh grid of the circuit.
inline void check_fire_rule(
    const std::function<std::unique_ptr<SimulationGrid>(const Circuit&, int, int)>& make_grid) {
  const int H = 3, W = 70;
  const Circuit circuit = not_circuit();
  const auto fired = [&](double rate, uint64_t key) {
    auto grid = make_grid(circuit, H, W);
    grid->set_planes(std::vector<uint8_t>(size_t(H) * W, 0));
    grid->step_async(rate, key);
    return grid->planes();
  };
  const uint64_t mask_key = 99, key = derive_key(mask_key, 0);  // fire_masks' key of step 0
  for (int cell : {0, 37, 64, 209}) {  // the rate equal to this cell's draw
    CAPTURE(cell);
    const float rate = uniform01(key, uint64_t(cell));
    const std::vector<uint8_t> got = fired(rate, key);
    CHECK(got[size_t(cell)] == 1);
    CHECK(got == fire_masks(mask_key, 1, H, W, rate));  // training's masks, bit for bit
  }
  CHECK(fired(1.0, key) == std::vector<uint8_t>(size_t(H) * W, 1));
  CHECK(fired(0.0, key) == std::vector<uint8_t>(size_t(H) * W, 0));
}

}  // namespace dlca::testing
