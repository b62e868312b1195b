// Training on the device, after the backward pass: each gate's parameter gradient from its sums
// G = (sum g, sum g a, sum g b, sum g a b), which are dL/d(coefficients). Softmax gates:
// dL/dp_i = M_i . G, then the backward of the softmax of the undivided logits (also under
// forward-only sharpening). Input-wise gates: through the fold to dL/ds, then dL/dw = cos(w) / 2 *
// dL/ds. Flags a non-finite gradient of a candidate (its AdamW step is then skipped and the host
// reports it). A hardened gate's gradient is 0, as its soft pass used its hard op (the tensor norms
// of --grad-norm read it).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint gate = linear_index();
  if (gate >= pc.num_gates) return;
  const vec4 sums = gate_sums[gate];
  bool finite = true;
  if (hardened(gate)) {
    for (uint i = 0u; i < gate_parameters(); ++i) logit_grad[gate * gate_parameters() + i] = 0.0;
    return;
  }
  if (input_wise_gates()) {
    const vec4 d_s =
        vec4(sums.x - sums.y - sums.z + sums.w, sums.z - sums.w, sums.y - sums.w, sums.w);
    const vec4 g = 0.5 * cos(input_wise_angles(gate)) * d_s;
    for (uint p = 0u; p < 4u; ++p) {
      finite = finite && is_finite(g[p]);
      logit_grad[gate * 4u + p] = g[p];
    }
  } else {
    float p[16], dp[16];
    softmax16(gate, 1.0, p);
    float mean = 0.0;
    for (uint i = 0u; i < 16u; ++i) {
      dp[i] = dot(op_table[i], sums);
      mean += p[i] * dp[i];
    }
    for (uint i = 0u; i < 16u; ++i) {
      const float g = p[i] * (dp[i] - mean);
      finite = finite && is_finite(g);
      logit_grad[gate * 16u + i] = g;
    }
  }
  if (!finite) atomicOr(train_results[2u * candidate_of_gate(gate) + 1u], 1u);
}
