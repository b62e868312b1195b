// Training on the device, after the backward pass: each gate's logit gradient from its sums
// G = (sum g, sum g a, sum g b, sum g a b): dL/dp_i = M_i . G, then the backward of the softmax of
// the undivided logits (also under forward-only sharpening); flags a
// non-finite gradient (the AdamW step is then skipped and the host reports it).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint gate = linear_index();
  if (gate >= pc.num_gates) return;
  float p[16], dp[16];
  softmax16(gate, 1.0, p);
  const vec4 sums = gate_sums[gate];
  float mean = 0.0;
  for (uint i = 0u; i < 16u; ++i) {
    dp[i] = dot(op_table[i], sums);
    mean += p[i] * dp[i];
  }
  bool finite = true;
  for (uint i = 0u; i < 16u; ++i) {
    const float g = p[i] * (dp[i] - mean);
    finite = finite && !isnan(g) && !isinf(g);
    logit_grad[gate * 16u + i] = g;
  }
  if (!finite) atomicOr(train_results[1], 1u);
}
