// Backward, after the levels of a chunk: the gradient of every patch row (c, p) of each cell,
// gathered from the slots of the gates that read it, into the whole-batch d_patch.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint item = linear_index();  // (row = c * 9 + p, cell of chunk)
  if (item >= pc.channels * 9u * pc.cell_count) return;
  const uint row = item / pc.cell_count, i = item % pc.cell_count;
  float g = 0.0;
  const uvec2 range = row_consumers[row];
  for (uint e = range.x; e < range.y; ++e) g += slots[consumers[e] * pc.act_stride + i];
  d_patch[row * pc.total_cells + pc.cell_offset + i] = g;
}
