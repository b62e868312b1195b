// Live cells of one channel (or, with a target plane, cells differing from it): one partial count
// per workgroup, added on the host.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "grid_common.glsl"
layout(local_size_x = 256) in;

shared uint counts[kGroupSize];

void main() {
  const uint item = linear_index(), l = gl_LocalInvocationID.x;
  const uint words = pc.height * pc.row_words;
  uint n = 0u;
  if (item < words) {
    uint v = grid[pc.in_offset + pc.channel * words + item];
    if (pc.num_ops != 0u) v ^= target_plane[pc.channel * words + item];  // num_ops 1: target
    n = bitCount(v);
  }
  counts[l] = n;
  barrier();
  for (uint s = kGroupSize / 2u; s > 0u; s >>= 1u) {
    if (l < s) counts[l] += counts[l + s];
    barrier();
  }
  if (l == 0u) partial_counts[pc.group_offset + gl_WorkGroupID.x] = counts[0];
}
