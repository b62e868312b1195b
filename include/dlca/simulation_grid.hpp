// What the big-grid simulator (dlca_run) needs of a grid: set the state, step (synchronous or
// asynchronous), damage, count and compare, read back. Implemented on the CPU by BitGrid and on a
// GPU by VulkanGrid; both give the same states for the same seed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dlca/circuit.hpp"
#include "dlca/circuit_kernel.hpp"

namespace dlca {

class SimulationGrid {
 public:
  virtual ~SimulationGrid() = default;
  virtual std::string name() const = 0;
  // Channel planes [k][H][W] (non-zero = 1) for channels 0..k-1; the others become 0.
  virtual void set_planes(const std::vector<uint8_t>& planes) = 0;
  virtual void step() = 0;
  // Each cell fires with probability fire_rate, drawn from (key, y * W + x).
  virtual void step_async(double fire_rate, uint64_t key) = 0;
  virtual void zero_rectangle(int y0, int x0, int rows, int columns) = 0;
  virtual uint64_t count(int channel) = 0;
  // Planes [k][H][W] that error() compares channels 0..k-1 with.
  virtual void set_targets(const std::vector<uint8_t>& planes) = 0;
  virtual uint64_t error() = 0;  // cells differing from the targets, summed over their channels
  virtual std::vector<uint8_t> planes() = 0;  // [C][H][W], 0 or 1
};

// The CPU's bit-parallel grid (BitGrid) with `kernel` (shared: it lives as long as the grid).
std::unique_ptr<SimulationGrid> make_cpu_grid(const Circuit& circuit,
                                              std::shared_ptr<const CircuitKernel> kernel,
                                              int height, int width, bool periodic);

}  // namespace dlca
