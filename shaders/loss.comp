// The loss after the last step: sum over the loss channels of (state - target)^2, one partial sum
// per workgroup (added on the host in workgroup order); for the soft loss also dL/dstate = 2 diff.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

shared float partial[kGroupSize];

void main() {
  const uint cell = linear_index();
  float sum = 0.0;
  if (cell < pc.total_cells) {
    const uint count = program_info[pc.channels];
    for (uint k = 0u; k < count; ++k) {
      const uint c = program_info[pc.channels + 1u + k];
      const uint index = state_base[cell] + c * pc.plane;
      const float diff = states[pc.state_in + index] - target_values[index];
      sum += diff * diff;
      if (pc.hard == 0u) d_state[pc.d_out + index] = 2.0 * diff;
    }
  }
  const uint l = gl_LocalInvocationID.x;
  partial[l] = sum;
  barrier();
  for (uint s = kGroupSize / 2u; s > 0u; s >>= 1u) {
    if (l < s) partial[l] += partial[l + s];
    barrier();
  }
  if (l == 0u) loss_partials[pc.loss_slot + pc.group_offset + gl_WorkGroupID.x] = partial[0];
}
