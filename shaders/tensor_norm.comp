// Training on the device, --grad-norm: for each candidate's parameter tensors (workgroup x: the
// tensor, y: the candidate) the L2 norm of the logit gradient, stored as 1 / (norm + 1e-8) for
// adamw.comp to scale that tensor's gradient by (as AdamW::step in src/train/adamw.cpp).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

shared float partial[256];

void main() {
  const uint tensor = gl_WorkGroupID.x, candidate = gl_WorkGroupID.y;
  const uint lane = gl_LocalInvocationID.x, tensors = tensor_norms(0u);
  const uint base = candidate * (pc.num_gates / pc.candidates) * gate_parameters();
  const uint begin = base + tensor_norms(1u + tensor) * gate_parameters();
  const uint end = base + tensor_norms(2u + tensor) * gate_parameters();
  float sum = 0.0;
  for (uint i = begin + lane; i < end; i += kGroupSize) sum += logit_grad[i] * logit_grad[i];
  partial[lane] = sum;
  barrier();
  for (uint stride = kGroupSize / 2u; stride > 0u; stride >>= 1u) {
    if (lane < stride) partial[lane] += partial[lane + stride];
    barrier();
  }
  if (lane == 0u)
    gate_tables[pc.num_gates + 2u + tensors + candidate * tensors + tensor] =
        floatBitsToUint(1.0 / (sqrt(partial[0]) + 1e-8));
}
