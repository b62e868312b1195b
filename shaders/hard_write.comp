// Hard rollout, last pass of a step (beside write_state.comp): each cell's new bit from the packed
// output rows; an asynchronous cell that does not fire keeps its old (thresholded) value.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint item = linear_index();  // (channel, cell of chunk)
  if (item >= pc.channels * pc.cell_count) return;
  const uint c = item / pc.cell_count, i = item % pc.cell_count, cell = pc.cell_offset + i;
  const uint index = state_base[cell] + c * pc.plane;
  const uint bit = (hard_act[program_info[c] * pc.word_stride + i / 32u] >> (i % 32u)) & 1u;
  states[pc.state_out + index] =
      fires(cell, c) ? float(bit) : (states[pc.state_in + index] > 0.5 ? 1.0 : 0.0);
}
