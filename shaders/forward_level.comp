// Forward through one level of gates (ops that depend only on earlier levels): the gate's
// relaxed op c0 + c1 a + c2 b + c3 ab (docs/MODEL.md §3.1).
// x: cells of the chunk; y: ops of the level.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= pc.cell_count) return;
  const uvec4 op = ops[pc.op_begin + gl_WorkGroupID.y];
  const vec4 c = coefficient(op.w);
  const float a = act[op.x * pc.act_stride + i], b = act[op.y * pc.act_stride + i];
  act[op.z * pc.act_stride + i] = soft_gate(c, a, b);
}
