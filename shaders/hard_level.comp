// Hard rollout through one level of gates (beside forward_level.comp): each gate's argmax op on 32
// cells per word (hard_gate in common.glsl). x: words of the chunk; y: ops of the level.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 64) in;

void main() {
  const uint w = gl_GlobalInvocationID.x;
  if (w >= (pc.cell_count + 31u) / 32u) return;
  const uvec4 op = ops[pc.op_begin + gl_WorkGroupID.y];
  const vec4 c = coefficients[pc.num_gates + op.w];
  const uint a = hard_act[op.x * pc.word_stride + w], b = hard_act[op.y * pc.word_stride + w];
  hard_act[op.z * pc.word_stride + w] = hard_gate(c, a, b);
}
