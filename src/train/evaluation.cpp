// Evaluation protocols on the hard simulator, the CPU's or a Vulkan device's (see evaluation.hpp).
#include "dlca/train/evaluation.hpp"

#include <algorithm>
#include <stdexcept>

#include "dlca/circuits/circuit_kernel.hpp"
#include "dlca/circuits/simulation_grid.hpp"
#include "dlca/core/random.hpp"
#include "dlca/train/checkerboard.hpp"
#include "dlca/vulkan/vulkan_grid.hpp"

namespace dlca {

std::vector<uint8_t> evaluation_target(const Model& model, int size) {
  if (model.task.kind != TaskKind::kCheckerboard)
    throw std::invalid_argument(
        "evaluation: only checkerboard models have a target at any size (the model's task is " +
        describe_task(model.task) +
        (model.task.kind == TaskKind::kUnknown
             ? ": a version 2 file named '" + model.config.name + "'"
             : std::string()) +
        ")");
  const Target t = checkerboard_target(1, size, size);
  std::vector<uint8_t> out(t.values.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = t.values[i] > 0.5f;
  return out;
}

std::vector<int64_t> evaluate(const Model& model, const EvaluationSettings& s) {
  const int C = model.config.channels, n = s.size;
  const std::vector<uint8_t> target = evaluation_target(model, n);
  std::vector<uint8_t> state(size_t(C) * n * n);
  for (size_t i = 0; i < state.size(); ++i) state[i] = uniform01(derive_key(s.seed, 1), i) < 0.5f;
  // The state stays in the grid (on a Vulkan device or in the CPU's BitGrid); only errors return.
  const Circuit circuit = prune(model);
  const std::unique_ptr<SimulationGrid> grid =
      s.vulkan ? std::make_unique<VulkanGrid>(circuit, n, n, model.config.periodic, s.device)
               : make_cpu_grid(circuit, interpreted_kernel(circuit), n, n, model.config.periodic);
  grid->set_planes(state);
  grid->set_targets(target);  // channel 0
  Rng squares(derive_key(s.seed, 2));
  std::vector<int64_t> errors;
  const int block_start = centre_block_start(n, s.block);
  for (int step = 0; step < s.steps; ++step) {
    if (s.async)
      grid->step_masked(
          fire_masks(derive_key(derive_key(s.seed, 3), uint64_t(step)), 1, n, n, s.fire_rate)
              .data());
    else
      grid->step();
    if (s.block > 0 && (s.block_steps < 0 || step < s.block_steps))
      grid->zero_rectangle(block_start, block_start, s.block, s.block);
    if (s.random_square > 0) {
      const int y = int(squares.below(uint64_t(n))), x = int(squares.below(uint64_t(n)));
      grid->zero_rectangle(y, x, s.random_square, s.random_square);
    }
    errors.push_back(int64_t(grid->error()));
  }
  return errors;
}

}  // namespace dlca
