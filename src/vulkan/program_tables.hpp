// What the Vulkan training backend uploads for a plan, computed without a device: the tables the
// shaders read for a cell program (levels, ops, consumers, gate ops, program info) and the size
// of every buffer binding. Pure functions, tested on the CPU (tests/test_vulkan_tables.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "dlca/core/cell_program.hpp"
#include "dlca/core/model.hpp"
#include "vulkan/training_layout.hpp"

namespace dlca::vulkan_layout {

struct ProgramTables {
  // (first op, op count) per level: each perception layer (all kernels and channels), then each
  // update layer; levels[0, perception_levels) are the perception network's.
  std::vector<std::pair<uint32_t, uint32_t>> levels;
  size_t perception_levels = 0;
  uint32_t perception_trees = 0;     // kernels x channels: one fused perception workgroup row each
  std::vector<uint32_t> op_words;    // per op: row a, row b, row out, gate
  std::vector<uint32_t> row_ranges;  // per row: [begin, end) of its readers in `consumers`
  std::vector<uint32_t> consumers;   // readers of each row in op order: 2*op (A) or 2*op + 1 (B)
  // Offsets [num_gates + 1] (counted from the start of this table), then each gate's ops.
  std::vector<uint32_t> gate_ops;
  // The output rows [C], the loss channels (count, then each), the perception layers (count,
  // then first op and width of each).
  // With several candidates, the loss channels are candidate-major (k C + c).
  std::vector<uint32_t> program_info;
  // --grad-norm: the parameter tensors' count T, the first gate of each of one candidate's tensors
  // and its gate count, then room for the T scales of each candidate (shaders/tensor_norm.comp);
  // on the device it follows a word per gate of the population (GateTables in common.glsl).
  std::vector<uint32_t> tensor_norms;
};

// The tables of `program`: `model`'s, or with `candidates` > 1 the population_program of that many
// models shaped as `model` (every level, channel, gate and loss channel `candidates` times). Throws
// std::invalid_argument when the program's ops do not match the model's layers.
ProgramTables make_program_tables(const CellProgram& program, const Model& model,
                                  int candidates = 1);

// The shape of a plan: the program, the batch's grids and the chunking of its cells.
struct PlanShape {
  uint64_t num_gates = 0, num_ops = 0, num_rows = 0;
  uint64_t steps = 0, state_size = 0, cells = 0, plane = 0, channels = 0;
  uint64_t candidates = 1;  // a population's models (channels and gates count all of them)
  bool async = false;
  uint64_t chunk_cells = 0, blocks = 0, loss_groups = 0;
  uint64_t loss_steps = 1;  // states the loss scores (each its own row of loss partial sums)
  // The fused step kernels run it (no gradient slots in device memory; the fused tables bound).
  bool fused = false;
};

struct FusedTables;

// Bytes of every binding's buffer (at least 16), indexed by Binding.
std::array<uint64_t, kBindingCount> binding_bytes(const ProgramTables& tables,
                                                  const FusedTables& fused, const PlanShape& shape);

}  // namespace dlca::vulkan_layout
