// Bindings and push constants shared by every dlca compute shader (one descriptor set layout and
// one pipeline layout serve all pipelines; see src/vulkan/vulkan_backend.cpp). Activations are
// [row][cell of the chunk] with row stride `act_stride`; states are [sample][channel][y][x].

const uint kGroupSize = 256;
const uint kSync = 0xFFFFFFFFu;  // `step` value of a synchronous step: every cell fires

// A program op: input rows a, b, output row, gate index (coefficients, gradient sums).
layout(std430, binding = 0) readonly buffer Ops { uvec4 ops[]; };
// Per row (begin, end) into `consumers`; each entry is op * 2 + side (0: input a, 1: input b).
layout(std430, binding = 1) readonly buffer RowConsumers { uvec2 row_consumers[]; };
layout(std430, binding = 2) readonly buffer Consumers { uint consumers[]; };
// Affine coefficients (1, a, b, ab) per gate: soft ones, then the hard (argmax) ones.
layout(std430, binding = 3) buffer Coefficients { vec4 coefficients[]; };
layout(std430, binding = 4) readonly buffer Neighbour { int neighbour[]; };  // [cell * 9 + p]
layout(std430, binding = 5) readonly buffer Inverse { int inverse_neighbour[]; };
layout(std430, binding = 6) readonly buffer StateBase { uint state_base[]; };  // [cell]
layout(std430, binding = 7) readonly buffer Masks { uint fire_masks[]; };  // bytes [step][y*W+x]
layout(std430, binding = 8) buffer States { float states[]; };  // soft steps, then hard ping-pong
layout(std430, binding = 9) readonly buffer TargetValues { float target_values[]; };
layout(std430, binding = 10) buffer Activations { float act[]; };
layout(std430, binding = 11) buffer Slots { float slots[]; };  // [op * 2 + side][cell of chunk]
layout(std430, binding = 12) buffer StateGradients { float d_state[]; };  // two state tensors
layout(std430, binding = 13) buffer PatchGradients { float d_patch[]; };  // [c * 9 + p][cell]
layout(std430, binding = 14) buffer Partials { vec4 partials[]; };        // [op][block]
layout(std430, binding = 15) buffer GateSums { vec4 gate_sums[]; };       // [gate]
layout(std430, binding = 16) readonly buffer GateOps { uint gate_ops[]; };  // offsets, then ops
layout(std430, binding = 17) buffer LossPartials { float loss_partials[]; };
// Program facts: output row of each channel [C], then the loss channels' count and indices, then
// the perception levels: their count P and (first op, gates per kernel) of each.
layout(std430, binding = 18) readonly buffer ProgramInfo { uint program_info[]; };
// The hard rollout's rows, bit-packed: [row][word of the chunk], bit k of word w = cell 32 w + k.
layout(std430, binding = 19) buffer HardActivations { uint hard_act[]; };
// Training on the device: logits [gate * 16 + op], AdamW moments (m, then v), the 16 ops'
// coefficients, this epoch's optimiser scalars, results (active gates, non-finite gradient flag)
// and the logit gradient.
layout(std430, binding = 20) buffer Logits { float logits[]; };
layout(std430, binding = 21) buffer Moments { float moments[]; };
layout(std430, binding = 22) readonly buffer OpTable { vec4 op_table[16]; };
// lr, beta1, beta2, eps, weight decay, clip, 1 - beta1^t, 1 - beta2^t, then the forward pass's
// inverse temperature (forward-only sharpening; 1: the plain softmax) and 1 when logit_noise holds
// this epoch's noise for the soft pass (0: none)
layout(std430, binding = 23) readonly buffer OptimizerScalars { float optimizer[10]; };
layout(std430, binding = 24) buffer TrainResults { uint train_results[2]; };
layout(std430, binding = 25) buffer LogitGradients { float logit_grad[]; };
layout(std430, binding = 26) readonly buffer LogitNoise { float logit_noise[]; };

layout(push_constant) uniform Push {
  uint cell_offset;   // first cell (global index) of the chunk being processed
  uint cell_count;    // cells in the chunk, or in the whole batch for whole-grid passes
  uint group_offset;  // workgroups already covered by earlier dispatches of the same pass
  uint op_begin;      // first op of the level
  uint act_stride;    // row stride of act and slots
  uint state_in;      // element offsets into states
  uint state_out;
  uint step;          // async step (mask row), or kSync
  uint hard;          // 1: hard coefficients, states thresholded at 0.5
  uint d_in;          // element offsets into d_state
  uint d_out;
  uint blocks;        // workgroups per chunk along the cells (row length of partials)
  uint channels;
  uint plane;         // H * W
  uint total_cells;   // batch * H * W
  uint num_gates;
  uint loss_slot;     // offset into loss_partials
  uint word_stride;   // row stride of hard_act, in words
} pc;

// Linear index of this invocation in a 1D pass split over several dispatches.
uint linear_index() { return (pc.group_offset + gl_WorkGroupID.x) * kGroupSize + gl_LocalInvocationID.x; }

bool fires(uint cell) {
  if (pc.step == kSync) return true;
  const uint i = pc.step * pc.plane + cell % pc.plane;
  return ((fire_masks[i >> 2] >> ((i & 3u) * 8u)) & 0xFFu) != 0u;
}

float state_value(uint offset, uint index) {
  const float v = states[offset + index];
  return pc.hard != 0u ? (v > 0.5 ? 1.0 : 0.0) : v;
}

// The soft pass's logit i of a gate: with this epoch's noise when there is any.
float soft_logit(uint gate, uint i) {
  const uint k = gate * 16u + i;
  return optimizer[9] != 0.0 ? logits[k] + logit_noise[k] : logits[k];
}

// Softmax of one gate's 16 soft-pass logits times `inverse_temperature` (docs/MODEL.md §3.1), in
// float.
void softmax16(uint gate, float inverse_temperature, out float p[16]) {
  float z_max = soft_logit(gate, 0u);
  for (uint i = 1u; i < 16u; ++i) z_max = max(z_max, soft_logit(gate, i));
  float sum = 0.0;
  for (uint i = 0u; i < 16u; ++i) {
    p[i] = exp((soft_logit(gate, i) - z_max) * inverse_temperature);
    sum += p[i];
  }
  for (uint i = 0u; i < 16u; ++i) p[i] /= sum;
}

// Perception: the op of gate j of level l for kernel k and channel c (ops are ordered level, k, j,
// c; see src/core/cell_program.cpp).
uint perception_levels() { return program_info[pc.channels + 1u + program_info[pc.channels]]; }
uint perception_op(uint level, uint k, uint j, uint c) {
  const uint at = pc.channels + 2u + program_info[pc.channels] + 2u * level;
  return program_info[at] + (k * program_info[at + 1u] + j) * pc.channels + c;
}

vec4 coefficient(uint gate) { return coefficients[pc.hard != 0u ? pc.num_gates + gate : gate]; }
