// The big-grid simulator on a Vulkan device: the state as bit planes in device memory (32 cells per
// word), one compute dispatch per step (shaders/grid_step.comp), the same results as the CPU's
// BitGrid for the same circuit, boundary, seed and damage.
#pragma once

#include <memory>

#include "dlca/circuits/simulation_grid.hpp"

namespace dlca {

class VulkanGrid : public SimulationGrid {
 public:
  // Throws std::runtime_error (one line) when no usable device or the grid does not fit.
  VulkanGrid(const Circuit& circuit, int height, int width, bool periodic, int device = 0,
             bool validation = false);
  ~VulkanGrid() override;
  std::string name() const override;
  int channels() const override;
  int height() const override;
  int width() const override;
  void set_state_rows(int k, const CellRowSource& rows) override;
  void step() override;
  void step_async(double fire_rate, uint64_t key) override;
  // An asynchronous step with a given fire mask ([H][W] bytes, non-zero = the cell updates).
  void step_masked(const uint8_t* fire_mask) override;
  void zero_rectangle(int y0, int x0, int rows, int columns) override;
  uint64_t count(int channel) override;
  void set_target_rows(int k, const CellRowSource& rows) override;
  uint64_t error() override;
  void read_state_rows(int k, const CellRowSink& rows) override;
  int validation_errors() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dlca
