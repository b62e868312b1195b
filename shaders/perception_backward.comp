// Backward through the whole perception network in one dispatch (beside perception_forward.comp
// and backward_level.comp): one workgroup per block of cells of one (kernel, channel) walks the
// tree's levels in reverse; each gate gathers its output gradient from its consumers' slots (the
// update network's, from the previous dispatch, or this invocation's own), leaves dA and dB in its
// slots and adds its per-gate sums of the workgroup's cells to partials[op][block] in a fixed tree.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

shared vec4 partial[kGroupSize];

void main() {
  const uint i = gl_GlobalInvocationID.x, l_id = gl_LocalInvocationID.x;
  const bool live = i < pc.cell_count;
  const uint k = gl_WorkGroupID.y / pc.channels, c = gl_WorkGroupID.y % pc.channels;
  const uint levels = perception_levels();
  for (uint level = levels; level-- > 0u;) {
    const uint width = program_info[pc.channels + 3u + program_info[pc.channels] + 2u * level];
    for (uint j = 0u; j < width; ++j) {
      const uint o = perception_op(level, k, j, c);
      vec4 sums = vec4(0.0);
      if (live) {
        const uvec4 op = ops[o];
        float g = 0.0;
        const uvec2 range = row_consumers[op.z];
        for (uint e = range.x; e < range.y; ++e) g += slots[consumers[e] * pc.act_stride + i];
        const vec4 q = coefficient(op.w);
        const float a = act[op.x * pc.act_stride + i], b = act[op.y * pc.act_stride + i];
        slots[(2u * o) * pc.act_stride + i] = g * fma(q.w, b, q.y);
        slots[(2u * o + 1u) * pc.act_stride + i] = g * fma(q.w, a, q.z);
        const float ga = g * a;
        sums = vec4(g, ga, g * b, ga * b);
      }
      partial[l_id] = sums;
      barrier();
      for (uint s = kGroupSize / 2u; s > 0u; s >>= 1u) {
        if (l_id < s) partial[l_id] += partial[l_id + s];
        barrier();
      }
      if (l_id == 0u) partials[o * pc.blocks + gl_WorkGroupID.x] += partial[0];
      barrier();  // partial[] is reused by the next gate
    }
  }
}
