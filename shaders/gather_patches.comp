// Forward, first pass of a step: the 3x3 patch rows (docs/MODEL.md §5.1) of every cell of the
// chunk, per channel, read from the state before the step (zero outside a zero-padded grid).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint item = linear_index();  // (row = c * 9 + p, cell of chunk)
  if (item >= pc.channels * 9u * pc.cell_count) return;
  const uint row = item / pc.cell_count, i = item % pc.cell_count;
  act[row * pc.act_stride + i] = patch_value(row, i);
}
