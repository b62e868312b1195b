// After the backward pass: each gate's sums over all its ops (a perception gate runs once per
// channel) and all blocks, in a fixed order.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint gate = linear_index();
  if (gate >= pc.num_gates) return;
  vec4 sum = vec4(0.0);
  for (uint k = gate_ops[gate]; k < gate_ops[gate + 1u]; ++k) {
    const uint o = gate_ops[k];
    for (uint block = 0u; block < pc.blocks; ++block) sum += partials[o * pc.blocks + block];
  }
  gate_sums[gate] = sum;
}
