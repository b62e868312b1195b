// The loss of one state of the loss window (the last loss_steps states): sum over the loss
// channels of (state - target)^2, one partial sum per workgroup (added on the host in workgroup
// order); with loss_gradient also dL/dstate = 2 diff, set (the last state) or added (an earlier
// one, during the backward pass). kLossHardFeedback: state_in is the hard final state, and
// beta * 2 diff is added to dL/dstate (beta: the candidate's hard-error feedback), no loss scored.
// A population's candidates each get their own row of workgroups: workgroup g covers cells of
// candidate g / G (G workgroups a candidate) and only that candidate's loss channels.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

shared float partial[kGroupSize];

void main() {
  const uint groups = (pc.total_cells + kGroupSize - 1u) / kGroupSize;  // per candidate
  const uint group = pc.group_offset + gl_WorkGroupID.x;
  const uint candidate = group / groups;
  const uint cell = (group % groups) * kGroupSize + gl_LocalInvocationID.x;
  float sum = 0.0;
  if (cell < pc.total_cells && candidate < pc.candidates) {
    const uint count = program_info[pc.channels] / pc.candidates;  // loss channels a candidate
    for (uint k = candidate * count; k < (candidate + 1u) * count; ++k) {
      const uint c = program_info[pc.channels + 1u + k];
      const uint index = state_base[cell] + c * pc.plane;
      const float diff = states[pc.state_in + index] - target_values[index];
      sum += diff * diff;
      if (pc.loss_gradient == kLossSet) d_state[pc.d_out + index] = 2.0 * diff;
      if (pc.loss_gradient == kLossAdd) d_state[pc.d_out + index] += 2.0 * diff;
      if (pc.loss_gradient == kLossHardFeedback)
        d_state[pc.d_out + index] += candidate_scalar(candidate, 5u) * (2.0 * diff);
    }
  }
  if (pc.loss_gradient == kLossHardFeedback) return;  // (the same for the whole dispatch)
  const uint l = gl_LocalInvocationID.x;
  partial[l] = sum;
  barrier();
  for (uint s = kGroupSize / 2u; s > 0u; s >>= 1u) {
    if (l < s) partial[l] += partial[l + s];
    barrier();
  }
  if (l == 0u) loss_partials[pc.loss_slot + group] = partial[0];
}
