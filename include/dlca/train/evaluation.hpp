// The paper's evaluation protocols for a trained rule (docs/MODEL.md §10.1, §10.2), run as hard,
// bit-sliced rollouts on a single square grid: generalisation to larger grids, fault tolerance (a
// centre block zeroed after every step), self-healing (zeroed only for the first steps),
// asynchronous inference, and the robustness protocol (random squares zeroed after every
// asynchronous step). Each returns the error against the target after every step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dlca/core/model.hpp"

namespace dlca {

struct EvaluationSettings {
  int size = 64;  // grid side
  int steps = 80;
  bool async = false;  // asynchronous steps with fire_rate
  float fire_rate = kNotebookFireRate;
  int block = 0;          // side of the centre block zeroed after each step (0 = none)
  int block_steps = -1;   // zero the block only after the first block_steps steps (-1 = every step)
  int random_square = 0;  // side of a random square zeroed after each step (0 = none)
  uint64_t seed = 1;      // initial grid, fire masks and squares
  bool vulkan = false;    // run on a Vulkan device (VulkanGrid) instead of the CPU; same results
  int device = 0;
};

// The channel-0 target for a model on a size x size grid: the checkerboard (square 2) for a model
// whose task is the checkerboard. Throws std::invalid_argument for other tasks.
std::vector<uint8_t> evaluation_target(const Model& model, int size);

// The first row and column of the centre block of a side on a size x size grid: the block is rows
// and columns [size/2 - side/2, size/2 - side/2 + side) of every channel.
inline int centre_block_start(int size, int side) { return size / 2 - side / 2; }

// Error per step: sum over the grid of |channel 0 - target| after the step (and its damage).
std::vector<int64_t> evaluate(const Model& model, const EvaluationSettings& settings);

}  // namespace dlca
