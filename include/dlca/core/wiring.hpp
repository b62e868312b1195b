// Gate wiring (docs/MODEL.md §4): which two outputs of the previous layer feed each gate of a
// layer. 'unique' (distinct pairs by increasing offset), 'random', and 'first_kernel' (neighbour,
// centre), each followed by a random permutation of the gates.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "dlca/core/config.hpp"
#include "dlca/core/jax_random.hpp"

namespace dlca {

struct LayerWiring {
  std::vector<uint32_t> a;  // first input (A) of each gate
  std::vector<uint32_t> b;  // second input (B) of each gate
  size_t size() const { return a.size(); }
};

// The 'unique' pair list before the permutation step, first m pairs. Throws ConfigError.
std::vector<std::pair<uint32_t, uint32_t>> unique_pairs(int inputs, int gates);

LayerWiring unique_wiring(int inputs, int gates, uint64_t key);
LayerWiring random_wiring(int inputs, int gates, uint64_t key);
// 8 gates: a = neighbour position (0,1,2,3,5,6,7,8), b = centre (4), permuted.
LayerWiring first_kernel_wiring(uint64_t key);

LayerWiring make_wiring(Connection kind, int inputs, int gates, uint64_t key);
// The same with JAX's random streams, as the notebook draws them from the layer key.
LayerWiring make_wiring(Connection kind, int inputs, int gates, jax::Key key);

}  // namespace dlca
