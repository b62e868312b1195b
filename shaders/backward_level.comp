// Backward through one level of gates, beside forward_level.comp. The gradient of a gate's output
// is gathered from its consumers' slots (or dL/dstate for an output row), so no two invocations
// write one place; each op leaves dA and dB in its own slots and adds its per-gate sums
// (g, g a, g b, g a b) of this workgroup's cells to partials[op][block], in a fixed order.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

shared vec4 partial[kGroupSize];

void main() {
  const uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
  const uint o = pc.op_begin + gl_WorkGroupID.y;
  vec4 sums = vec4(0.0);
  if (i < pc.cell_count) {
    const uvec4 op = ops[o];
    float g = 0.0;
    // An output row's gradient is dL/d(new state): only the op's own candidate's channels.
    const uint own = pc.channels / pc.candidates, first = candidate_of_gate(op.w) * own;
    for (uint c = first; c < first + own; ++c)
      if (program_info[c] == op.z) {
        const uint cell = pc.cell_offset + i;
        if (fires(cell, c)) g = d_state[pc.d_out + state_base[cell] + c * pc.plane];
      }
    const uvec2 range = row_consumers[op.z];
    for (uint e = range.x; e < range.y; ++e) g += slots[consumers[e] * pc.act_stride + i];
    const vec4 c = coefficient(op.w);
    const float a = act[op.x * pc.act_stride + i], b = act[op.y * pc.act_stride + i];
    slots[(2u * o) * pc.act_stride + i] = g * fma(c.w, b, c.y);
    slots[(2u * o + 1u) * pc.act_stride + i] = g * fma(c.w, a, c.z);
    const float ga = g * a;
    sums = vec4(g, ga, g * b, ga * b);
  }
  partial[l] = sums;
  barrier();
  for (uint s = kGroupSize / 2u; s > 0u; s >>= 1u) {
    if (l < s) partial[l] += partial[l + s];
    barrier();
  }
  if (l == 0u) partials[o * pc.blocks + gl_WorkGroupID.x] += partial[0];
}
