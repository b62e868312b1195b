// What the big-grid simulator (dlca_run) needs of a grid: set the state, step (synchronous or
// asynchronous), damage, count and compare, read back. Implemented on the CPU by BitGrid and on a
// GPU by VulkanGrid; both give the same states for the same seed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dlca/circuits/circuit.hpp"
#include "dlca/circuits/circuit_kernel.hpp"

namespace dlca {

// Fills `row` with row y of channel c as W bytes (non-zero = 1).
using CellRowSource = std::function<void(int channel, int y, uint8_t* row)>;
// Receives row y of channel c as W bytes (0 or 1).
using CellRowSink = std::function<void(int channel, int y, const uint8_t* row)>;

// Grids take and give their cells a row at a time, straight from and into their bit planes, so
// that a start, a target or a picture of the whole grid never needs a byte per cell.
class SimulationGrid {
 public:
  virtual ~SimulationGrid() = default;
  virtual std::string name() const = 0;
  virtual int channels() const = 0;
  virtual int height() const = 0;
  virtual int width() const = 0;
  // Channels 0..k-1 from `rows` (channel by channel, rows in order); the others become 0.
  virtual void set_state_rows(int k, const CellRowSource& rows) = 0;
  // The rows that error() compares channels 0..k-1 with.
  virtual void set_target_rows(int k, const CellRowSource& rows) = 0;
  // Channels 0..k-1 of the state, channel by channel, rows in order.
  virtual void read_state_rows(int k, const CellRowSink& rows) = 0;
  virtual void step() = 0;
  // Each cell fires with probability fire_rate, drawn from (key, y * W + x).
  virtual void step_async(double fire_rate, uint64_t key) = 0;
  // Cells whose byte in fire_mask [H*W] is non-zero take their new state (evaluations' masks).
  virtual void step_masked(const uint8_t* fire_mask) = 0;
  virtual void zero_rectangle(int y0, int x0, int rows, int columns) = 0;
  // Waits until the steps and damage asked for so far have run (a device queues them; reading the
  // grid waits too). The CPU's grid runs each at once.
  virtual void finish() {}
  virtual uint64_t count(int channel) = 0;
  virtual uint64_t error() = 0;  // cells differing from the targets, summed over their channels

  // The same with whole planes [k][H][W] (small grids and tests): set_state_rows and
  // set_target_rows of the planes given; the state as [C][H][W], 0 or 1.
  void set_planes(const std::vector<uint8_t>& planes);
  void set_targets(const std::vector<uint8_t>& planes);
  std::vector<uint8_t> planes();
};

// The key of asynchronous step `step` of a run seeded `seed` (dlca_run --async --seed, and the
// Python module's Model.run).
uint64_t async_step_key(uint64_t seed, int step);

// The CPU's bit-parallel grid (BitGrid) with `kernel` (shared: it lives as long as the grid).
std::unique_ptr<SimulationGrid> make_cpu_grid(const Circuit& circuit,
                                              std::shared_ptr<const CircuitKernel> kernel,
                                              int height, int width, bool periodic);

}  // namespace dlca
