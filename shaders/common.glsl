// Bindings and push constants shared by every dlca compute shader (one descriptor set layout and
// one pipeline layout serve all pipelines; see src/vulkan/vulkan_backend.cpp). Activations are
// [row][cell of the chunk] with row stride `act_stride`; states are [sample][channel][y][x].

const uint kGroupSize = 256;
const uint kSync = 0xFFFFFFFFu;  // `step` value of a synchronous step: every cell fires
// loss_gradient (the last: the hard-error feedback added, no loss scored)
const uint kLossOnly = 0u, kLossSet = 1u, kLossAdd = 2u, kLossHardFeedback = 3u;

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
// The fused backward kernel writes a tile's activations and reads them back in one dispatch: it
// defines ACTIVATIONS_COHERENT before including this file.
#ifdef ACTIVATIONS_COHERENT
#define ACTIVATIONS_QUALIFIER coherent
#else
#define ACTIVATIONS_QUALIFIER
#endif
layout(std430, binding = 10) ACTIVATIONS_QUALIFIER buffer Activations { float act[]; };
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
// Shared by the candidates: [0] unused, beta1, beta2, eps, weight decay, clip, at [6] 1 when
// hardened_gates holds this epoch's flags (progressive hardening; 0: no gate is hardened), at [7] 1
// when each tensor's gradient is normalised (--grad-norm; tensor_norms), [8] and [9] unused, then
// 1 for input-wise gates at [10] (4 angles a gate in `logits`; 0: 16 logits). Per candidate k from
// kOptimizerCandidateBase + 6 k: 1 - beta1^t, 1 - beta2^t (its AdamW step t), the forward pass's
// inverse temperature (forward-only sharpening; 1: the plain softmax), 1 when logit_noise holds its
// noise for this epoch's soft pass (0: none), its learning rate (a decay's: candidates at different
// epochs have different ones) and its hard-error feedback beta (--hard-feedback; 0: none).
layout(std430, binding = 23) readonly buffer OptimizerScalars { float optimizer[]; };
const uint kOptimizerCandidateBase = 16u;
float candidate_scalar(uint candidate, uint which) {
  return optimizer[kOptimizerCandidateBase + 6u * candidate + which];
}
// train_results: per candidate (active gates, non-finite gradient flag).
layout(std430, binding = 24) buffer TrainResults { uint train_results[]; };
layout(std430, binding = 25) buffer LogitGradients { float logit_grad[]; };
layout(std430, binding = 26) readonly buffer LogitNoise { float logit_noise[]; };
// The fused step kernels' tables (src/vulkan/fused_tables.hpp): per op the forward slots (a, b,
// out, gate) and the backward view (row a, row b, gradient slot of out, gate); per (level, row
// read) its gradient gather; the levels, the patch and output rows' slots and the readers lists.
layout(std430, binding = 27) readonly buffer FusedOps { uvec4 fused_ops[]; };
layout(std430, binding = 28) readonly buffer FusedBackwardOps { uvec4 fused_backward_ops[]; };
layout(std430, binding = 29) readonly buffer FusedGather { uvec4 fused_gather[]; };
layout(std430, binding = 30) readonly buffer FusedInfo { uint fused_info[]; };
// Per gate, 1 where progressive hardening fixed it to its hard op (read only when optimizer[6] is
// 1). From num_gates on, for --grad-norm (read only when optimizer[7] is 1): the parameter tensors'
// count T, the first gate of each of one candidate's T tensors and the end, then per candidate and
// tensor the scale 1 / (L2 norm of its gradient + 1e-8) as float bits (tensor_norm.comp).
layout(std430, binding = 31) buffer GateTables { uint gate_tables[]; };

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
  uint candidates;    // models trained side by side (a population): channels, gates, losses and
                      // masks are candidate-major blocks; 1 for one model
  uint loss_gradient; // loss pass: 0 the loss only; 1 also d_state = 2 diff; 2 d_state += 2 diff;
                      // 3 d_state += beta 2 diff (the hard final state's; no loss)
} pc;

// Linear index of this invocation in a 1D pass split over several dispatches.
uint linear_index() { return (pc.group_offset + gl_WorkGroupID.x) * kGroupSize + gl_LocalInvocationID.x; }

// Whether `cell` updates channel c this step. Masks are [step][candidate][y*W+x]: a population's
// candidates each have their own.
uint candidate_of_channel(uint c) { return c / (pc.channels / pc.candidates); }
bool fires(uint cell, uint c) {
  if (pc.step == kSync) return true;
  const uint i = (pc.step * pc.candidates + candidate_of_channel(c)) * pc.plane + cell % pc.plane;
  return ((fire_masks[i >> 2] >> ((i & 3u) * 8u)) & 0xFFu) != 0u;
}

float state_value(uint offset, uint index) {
  const float v = states[offset + index];
  return pc.hard != 0u ? (v > 0.5 ? 1.0 : 0.0) : v;
}

// Neither NaN nor infinite, read off the exponent bits: isnan/isinf may be folded to false by a
// driver's compiler that assumes finite floats (suspected in a divergence seen on an H100).
bool is_finite(float x) { return (floatBitsToUint(x) & 0x7F800000u) != 0x7F800000u; }

bool input_wise_gates() { return optimizer[10] != 0.0; }
uint gate_parameters() { return input_wise_gates() ? 4u : 16u; }
// A gate fixed to its hard op by progressive hardening: its soft pass uses that op, and AdamW
// leaves its parameters and moments as they are.
bool hardened(uint gate) { return optimizer[6] != 0.0 && gate_tables[gate] != 0u; }
uint tensor_norms(uint i) { return gate_tables[pc.num_gates + i]; }
// --grad-norm: the scale of the gradient of the parameter tensor that holds a gate.
float tensor_scale(uint gate) {
  const uint gates = pc.num_gates / pc.candidates, local = gate % gates;
  const uint tensors = tensor_norms(0u);
  uint t = 0u;
  while (t + 1u < tensors && tensor_norms(2u + t) <= local) ++t;
  return uintBitsToFloat(tensor_norms(2u + tensors + (gate / gates) * tensors + t));
}
// An input-wise gate's 4 angles, one per input pattern (a, b) = 00, 01, 10, 11.
vec4 input_wise_angles(uint gate) {
  const uint k = gate * 4u;
  return vec4(logits[k], logits[k + 1u], logits[k + 2u], logits[k + 3u]);
}

// The candidate a gate belongs to (gates are candidate-major blocks), and where that candidate's
// results (active gates, non-finite gradient flag) are kept in train_results.
uint candidate_of_gate(uint gate) { return gate / (pc.num_gates / pc.candidates); }

// The soft pass's logit i of a gate: with this epoch's noise when there is any.
float soft_logit(uint gate, uint i) {
  const uint k = gate * 16u + i;
  return candidate_scalar(candidate_of_gate(gate), 3u) != 0.0 ? logits[k] + logit_noise[k]
                                                              : logits[k];
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

// The fused kernels' tables (see FusedTables::info): level l's first op, op count and gather
// entries; the slots of patch row r and of channel c's output row.
const uint kNoSlot = 0xFFFFFFFFu;
uint fused_levels() { return fused_info[0]; }
uvec4 fused_level(uint l) {
  const uint at = 1u + 4u * l;
  return uvec4(fused_info[at], fused_info[at + 1u], fused_info[at + 2u], fused_info[at + 3u]);
}
uint fused_patch_slot(uint row) { return fused_info[1u + 4u * fused_levels() + row]; }
uint fused_output_slot(uint c) { return fused_info[1u + 4u * fused_levels() + 9u * pc.channels + c]; }
uint fused_patch_gradient_slot(uint row) {
  return fused_info[1u + 4u * fused_levels() + 10u * pc.channels + row];
}
uint fused_output_gradient_slot(uint c) {
  return fused_info[1u + 4u * fused_levels() + 19u * pc.channels + c];
}
// A tile's phases are separated by this: shared and buffer writes visible to the workgroup.
void tile_barrier() {
  memoryBarrierShared();
  memoryBarrierBuffer();
  barrier();
}

// A gate's argmax op on 32 cells a word: its truth table read off the op's affine coefficients
// (f(a,b) = c0 + c1 a + c2 b + c3 ab).
uint hard_gate(vec4 c, uint a, uint b) {
  uint out_bits = 0u;
  if (c.x > 0.5) out_bits |= ~a & ~b;
  if (c.x + c.z > 0.5) out_bits |= ~a & b;
  if (c.x + c.y > 0.5) out_bits |= a & ~b;
  if (c.x + c.y + c.z + c.w > 0.5) out_bits |= a & b;
  return out_bits;
}

// A gate's relaxed op c0 + c1 a + c2 b + c3 ab (docs/MODEL.md §3.1), in the one order every path
// uses (so the fused and level-by-level paths compute the same values).
float soft_gate(vec4 c, float a, float b) { return fma(fma(c.w, a, c.z), b, fma(c.y, a, c.x)); }

// Patch row `row` (c * 9 + p) of cell i of the chunk: the neighbour's state before the step, 0
// outside a zero-padded grid.
float patch_value(uint row, uint i) {
  const int nb = neighbour[(pc.cell_offset + i) * 9u + row % 9u];
  return nb < 0 ? 0.0 : state_value(pc.state_in, state_base[nb] + (row / 9u) * pc.plane);
}
