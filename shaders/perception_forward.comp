// Forward through the whole perception network in one dispatch (beside forward_level.comp): each
// kernel's tree of gates on one channel reads only that channel's patch of the same cell, so one
// invocation runs all its levels. x: cells of the chunk; y: kernel * C + channel.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= pc.cell_count) return;
  const uint k = gl_WorkGroupID.y / pc.channels, c = gl_WorkGroupID.y % pc.channels;
  const uint levels = perception_levels();
  for (uint l = 0u; l < levels; ++l) {
    const uint width = program_info[pc.channels + 3u + program_info[pc.channels] + 2u * l];
    for (uint j = 0u; j < width; ++j) {
      const uvec4 op = ops[perception_op(l, k, j, c)];
      const vec4 q = coefficient(op.w);
      const float a = act[op.x * pc.act_stride + i], b = act[op.y * pc.act_stride + i];
      act[op.z * pc.act_stride + i] = soft_gate(q, a, b);
    }
  }
}
