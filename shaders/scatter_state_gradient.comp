// Backward, end of a step: dL/d(state before the step) = the patch gradients of every cell that
// saw this cell (inverse neighbour table), plus the old value's pass-through where a cell did not
// fire.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint item = linear_index();  // (channel, cell)
  if (item >= pc.channels * pc.total_cells) return;
  const uint c = item / pc.total_cells, cell = item % pc.total_cells;
  const uint index = state_base[cell] + c * pc.plane;
  float d = fires(cell, c) ? 0.0 : d_state[pc.d_out + index];
  for (uint p = 0u; p < 9u; ++p) {
    const int from = inverse_neighbour[cell * 9u + p];
    if (from >= 0) d += d_patch[(c * 9u + p) * pc.total_cells + uint(from)];
  }
  d_state[pc.d_in + index] = d;
}
