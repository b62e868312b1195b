// Training on the device, start of an epoch: each gate's softmax (of its soft-pass logits, with any
// noise, over the forward temperature) folded into its 4 affine coefficients, its argmax op's
// coefficients (first maximum on ties) for the hard rollout, and the count of active gates (argmax
// neither A nor B, docs/MODEL.md §11.1).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint gate = linear_index();
  if (gate >= pc.num_gates) return;
  float p[16];
  softmax16(gate, optimizer[8], p);
  vec4 soft = vec4(0.0);
  uint best = 0u;
  for (uint i = 0u; i < 16u; ++i) {
    soft += p[i] * op_table[i];
    if (logits[gate * 16u + i] > logits[gate * 16u + best]) best = i;
  }
  coefficients[gate] = soft;
  coefficients[pc.num_gates + gate] = op_table[best];
  if (best != 3u && best != 5u) atomicAdd(train_results[0], 1u);
}
