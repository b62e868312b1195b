// Forward, last pass of a step: the new state of each cell of the chunk from the output rows; an
// asynchronous cell that does not fire keeps its old value.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint item = linear_index();  // (channel, cell of chunk)
  if (item >= pc.channels * pc.cell_count) return;
  const uint c = item / pc.cell_count, i = item % pc.cell_count, cell = pc.cell_offset + i;
  const uint index = state_base[cell] + c * pc.plane;
  states[pc.state_out + index] =
      fires(cell, c) ? act[program_info[c] * pc.act_stride + i] : state_value(pc.state_in, index);
}
