// Hard rollout, first pass of a step (beside gather_patches.comp): the 3x3 patch rows of 32 cells
// per word, thresholded at 0.5.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint words = (pc.cell_count + 31u) / 32u;
  const uint item = linear_index();  // (row = c * 9 + p, word of chunk)
  if (item >= pc.channels * 9u * words) return;
  const uint row = item / words, w = item % words;
  const uint c = row / 9u, p = row % 9u;
  uint bits = 0u;
  for (uint k = 0u; k < 32u; ++k) {
    const uint i = 32u * w + k;
    if (i >= pc.cell_count) break;
    const int nb = neighbour[(pc.cell_offset + i) * 9u + p];
    if (nb >= 0 && states[pc.state_in + state_base[nb] + c * pc.plane] > 0.5) bits |= 1u << k;
  }
  hard_act[row * pc.word_stride + w] = bits;
}
