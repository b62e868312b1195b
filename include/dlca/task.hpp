// What an experiment trains towards: a target, and the initial grids of each epoch.
// The trainer asks a Task for data; the backend never sees where it came from.
#pragma once

#include <cstdint>
#include <vector>

#include "dlca/grid.hpp"

namespace dlca {

class Task {
 public:
  virtual ~Task() = default;
  virtual const Target& target() const = 0;
  // The initial grids of one epoch, [batch][C][H][W].
  virtual void initial_states(uint64_t epoch, std::vector<float>& out) const = 0;
};

}  // namespace dlca
