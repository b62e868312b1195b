// Hard rollout through one level of gates (beside forward_level.comp): each gate's argmax op on 32
// cells per word, its truth table read off the op's affine coefficients (f(a,b) = c0 + c1 a +
// c2 b + c3 ab). x: words of the chunk; y: ops of the level.
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
  uint out_bits = 0u;
  if (c.x > 0.5) out_bits |= ~a & ~b;
  if (c.x + c.z > 0.5) out_bits |= ~a & b;
  if (c.x + c.y > 0.5) out_bits |= a & ~b;
  if (c.x + c.y + c.z + c.w > 0.5) out_bits |= a & b;
  hard_act[op.z * pc.word_stride + w] = out_bits;
}
