// The per-cell circuit of one CA step flattened into a straight-line program of gate ops over
// "rows" (one value per cell of a tile): patch rows first, then every perception gate once per
// channel, then the update network. Backends evaluate it with cells as the vector dimension; its
// reversed order is the backward pass. Built once per model; independent of grid and batch.
#pragma once

#include <cstdint>
#include <vector>

#include "dlca/core/model.hpp"

namespace dlca {

struct GateOp {
  uint32_t a;     // row of input A
  uint32_t b;     // row of input B
  uint32_t out;   // row written
  uint32_t gate;  // global gate index: coefficients and gradient sums
};

struct CellProgram {
  int channels = 0;
  uint32_t num_rows = 0;
  std::vector<GateOp> ops;            // in evaluation order
  std::vector<uint32_t> output_rows;  // row holding the new state of channel c
  size_t perception_op_count = 0;     // ops[0, perception_op_count) are perception gates

  // The row of patch position p (0..8, docs/MODEL.md §5.1) of channel c; rows 0 .. 9C-1.
  static uint32_t patch_row(int channel, int position) { return uint32_t(channel * 9 + position); }
};

CellProgram build_cell_program(const Model& model);

}  // namespace dlca
