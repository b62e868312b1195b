// Training on the device, end of an epoch: one AdamW step with element-wise clipping on every
// parameter (docs/MODEL.md §8, as src/train/adamw.cpp), unless a gradient of its candidate was
// not finite or its gate is hardened (progressive hardening: parameters and moments stay). With
// --grad-norm the gradient is first scaled by its tensor's 1 / (norm + 1e-8) (tensor_norm.comp).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint i = linear_index();
  const uint n = pc.num_gates * gate_parameters();
  const uint candidate = candidate_of_gate(i / gate_parameters());
  if (i >= n || train_results[2u * candidate + 1u] != 0u || hardened(i / gate_parameters())) return;
  const float lr = candidate_scalar(candidate, 4u), beta1 = optimizer[1], beta2 = optimizer[2],
              eps = optimizer[3];
  const float decay = optimizer[4], clip_value = optimizer[5];
  const float scale = optimizer[7] != 0.0 ? tensor_scale(i / gate_parameters()) : 1.0;
  const float g = clamp(logit_grad[i] * scale, -clip_value, clip_value);
  const float m = beta1 * moments[i] + (1.0 - beta1) * g;
  const float v = beta2 * moments[n + i] + (1.0 - beta2) * g * g;
  moments[i] = m;
  moments[n + i] = v;
  const float m_hat = m / candidate_scalar(candidate, 0u),
              v_hat = v / candidate_scalar(candidate, 1u);
  // The step clamped to [-4, 4] against g*g underflowing while m does not (adam_step in
  // include/dlca/train/adamw.hpp): never acts when nothing underflows.
  const float step = clamp(m_hat / (sqrt(v_hat) + eps), -4.0, 4.0);
  logits[i] -= lr * (step + decay * logits[i]);
}
