// Zeroes every channel of the cells in a rectangle [y0, y1) x [x0, x1) of the bit-packed grid.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "grid_common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint rows_in = pc.y1 - pc.y0;
  const uint item = linear_index();  // (channel, row of the rectangle, word)
  if (item >= pc.channels * rows_in * pc.row_words) return;
  const uint w = item % pc.row_words, r = (item / pc.row_words) % rows_in;
  const uint c = item / (pc.row_words * rows_in);
  const uint first = 32u * w;
  const uint lo = max(pc.x0, first), hi = min(pc.x1, first + 32u);
  if (lo >= hi) return;
  const uint width = hi - lo;
  const uint bits = (width == 32u ? 0xFFFFFFFFu : ((1u << width) - 1u)) << (lo - first);
  grid[pc.in_offset + (c * pc.height + pc.y0 + r) * pc.row_words + w] &= ~bits;
}
