// Evaluation protocols on the bit-sliced hard simulator (see evaluation.hpp).
#include "dlca/train/evaluation.hpp"

#include <algorithm>
#include <stdexcept>

#include "dlca/circuits/bit_grid.hpp"
#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/cell_program.hpp"
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

void zero_square(std::vector<uint8_t>& state, int channels, int size, int y0, int x0, int side) {
  const int y1 = std::min(size, y0 + side), x1 = std::min(size, x0 + side);
  y0 = std::max(0, y0);
  x0 = std::max(0, x0);
  for (int c = 0; c < channels; ++c)
    for (int y = y0; y < y1; ++y)
      std::fill(state.begin() + (size_t(c) * size + y) * size + x0,
                state.begin() + (size_t(c) * size + y) * size + x1, 0);
}

void zero_centre_block(std::vector<uint8_t>& state, int channels, int size, int side) {
  const int start = size / 2 - side / 2;
  zero_square(state, channels, size, start, start, side);
}

namespace {

// The same protocol on a Vulkan device: the state stays there; only the errors come back.
std::vector<int64_t> evaluate_on_vulkan(const Model& model, const EvaluationSettings& s,
                                        const std::vector<uint8_t>& target,
                                        const std::vector<uint8_t>& initial) {
  const int n = s.size;
  VulkanGrid grid(prune(model), n, n, model.config.periodic, s.device);
  grid.set_planes(initial);
  grid.set_targets(target);  // channel 0
  Rng squares(derive_key(s.seed, 2));
  std::vector<int64_t> errors;
  for (int step = 0; step < s.steps; ++step) {
    if (s.async)
      grid.step_masked(
          fire_masks(derive_key(derive_key(s.seed, 3), uint64_t(step)), 1, n, n, s.fire_rate)
              .data());
    else
      grid.step();
    if (s.block > 0 && (s.block_steps < 0 || step < s.block_steps))
      grid.zero_rectangle(n / 2 - s.block / 2, n / 2 - s.block / 2, s.block, s.block);
    if (s.random_square > 0) {
      const int y = int(squares.below(uint64_t(n))), x = int(squares.below(uint64_t(n)));
      grid.zero_rectangle(y, x, s.random_square, s.random_square);
    }
    errors.push_back(int64_t(grid.error()));
  }
  return errors;
}

}  // namespace

std::vector<int64_t> evaluate(const Model& model, const EvaluationSettings& s) {
  const int C = model.config.channels, n = s.size;
  const std::vector<uint8_t> target = evaluation_target(model, n);
  const GridGeometry geo = make_grid_geometry(1, n, n, C, model.config.periodic);
  const CellProgram prog = build_cell_program(model);
  BitGrid sim(prog, hard_ops(model.logits), geo);
  std::vector<uint8_t> state(size_t(C) * n * n);
  for (size_t i = 0; i < state.size(); ++i) state[i] = uniform01(derive_key(s.seed, 1), i) < 0.5f;
  if (s.vulkan) return evaluate_on_vulkan(model, s, target, state);
  sim.set_state(state.data());
  Rng squares(derive_key(s.seed, 2));
  std::vector<int64_t> errors;
  for (int step = 0; step < s.steps; ++step) {
    if (s.async)
      sim.step_masked(
          fire_masks(derive_key(derive_key(s.seed, 3), uint64_t(step)), 1, n, n, s.fire_rate)
              .data());
    else
      sim.step();
    const bool block = s.block > 0 && (s.block_steps < 0 || step < s.block_steps);
    state = sim.state();
    if (block || s.random_square > 0) {
      if (block) zero_centre_block(state, C, n, s.block);
      if (s.random_square > 0) {
        const int y = int(squares.below(uint64_t(n))), x = int(squares.below(uint64_t(n)));
        zero_square(state, C, n, y, x, s.random_square);
      }
      sim.set_state(state.data());
    }
    int64_t error = 0;
    for (size_t i = 0; i < target.size(); ++i) error += state[i] != target[i];
    errors.push_back(error);
  }
  return errors;
}

}  // namespace dlca
