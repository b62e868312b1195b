// Training on the device, start of an epoch: each gate's soft op folded into its 4 affine
// coefficients and its hard op's coefficients for the hard rollout, and the count of active gates
// (hard op neither A nor B, docs/MODEL.md §11.1) of each candidate. Softmax gates: the softmax of
// the soft-pass logits (with any noise, over the forward temperature), the argmax op (first maximum
// on ties). Input-wise gates (src/core/input_wise_gates.cpp): s = (1 + sin w) / 2 per input pattern
// folded into (s00, s10 - s00, s01 - s00, s00 - s01 - s10 + s11), the truth table of the signs of
// sin w; forward-only sharpening divides the log-odds of s by the temperature. A gate hardened by
// progressive hardening uses its hard op in the soft pass too.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint gate = linear_index();
  if (gate >= pc.num_gates) return;
  vec4 soft = vec4(0.0);
  uint best = 0u;
  if (input_wise_gates()) {
    const vec4 sine = sin(input_wise_angles(gate));
    // Forward-only sharpening: the log-odds of s over the temperature (input_wise_gates.hpp).
    const float inverse_temperature = candidate_scalar(candidate_of_gate(gate), 2u);
    vec4 s = 0.5 + 0.5 * sine;
    if (inverse_temperature != 1.0) {  // as src/core/input_wise_gates.cpp: no overflow, no 1 / 0
      const vec4 r = pow(max(1.0 - abs(sine), 0.0) / (1.0 + abs(sine)), vec4(inverse_temperature));
      s = mix(r / (1.0 + r), 1.0 / (1.0 + r), greaterThanEqual(sine, vec4(0.0)));
    }
    soft = vec4(s.x, s.z - s.x, s.y - s.x, s.x - s.y - s.z + s.w);
    for (uint p = 0u; p < 4u; ++p)
      if (sine[p] >= 0.0) best |= 1u << (3u - p);
  } else {
    float p[16];
    softmax16(gate, candidate_scalar(candidate_of_gate(gate), 2u), p);
    for (uint i = 0u; i < 16u; ++i) {
      soft += p[i] * op_table[i];
      if (logits[gate * 16u + i] > logits[gate * 16u + best]) best = i;
    }
  }
  coefficients[gate] = hardened(gate) ? op_table[best] : soft;
  coefficients[pc.num_gates + gate] = op_table[best];
  if (best != 3u && best != 5u) atomicAdd(train_results[2u * candidate_of_gate(gate)], 1u);
}
