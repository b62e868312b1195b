// The big-grid simulator on a Vulkan device: the state as bit planes in device memory (32 cells per
// word), one compute dispatch per step (queued until the grid is read), the same results as the
// CPU's BitGrid for the same circuit, boundary, seed and damage. A step runs a shader generated for
// the circuit (its gates as straight-line word operations, compiled at start-up with the glslang
// library), or the shader that interprets any circuit's gate list (shaders/grid_step.comp).
#pragma once

#include <memory>

#include "dlca/circuits/simulation_grid.hpp"

namespace dlca {

// Which shader steps the grid. kAuto: the generated one, or the interpreter when it cannot be
// compiled (shader_note says why; DLCA_VULKAN_GENERATED=0 in the environment picks the
// interpreter); kGenerated: the generated one or an error; kInterpreted: the interpreter.
enum class GridShader { kAuto, kGenerated, kInterpreted };

class VulkanGrid : public SimulationGrid {
 public:
  // Throws std::runtime_error (one line) when no usable device, the grid does not fit, or
  // kGenerated cannot be compiled.
  VulkanGrid(const Circuit& circuit, int height, int width, bool periodic, int device = 0,
             bool validation = false, GridShader shader = GridShader::kAuto);
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
  void finish() override;
  uint64_t count(int channel) override;
  void set_target_rows(int k, const CellRowSource& rows) override;
  uint64_t error() override;
  void read_state_rows(int k, const CellRowSink& rows) override;
  int validation_errors() const;
  // Whether steps run the shader generated for the circuit; when not, why not ("" if asked for).
  bool generated_shader() const;
  const std::string& shader_note() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dlca
