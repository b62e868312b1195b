// The layout the training shaders share with the host (shaders/common.glsl): workgroup size,
// buffer bindings with their GLSL block names, the optimizer scalars and the push constants.
// tests/test_shader_layout.cpp reads common.glsl and checks it against this file.
#pragma once

#include <cstdint>

namespace dlca::vulkan_layout {

constexpr uint32_t kGroupSize = 256;      // local_size_x of every shader but one:
constexpr uint32_t kHardLevelGroup = 64;  // hard_level.comp's (a word of 32 cells per invocation)
constexpr uint32_t kSync = 0xFFFFFFFFu;   // `step` of a synchronous step: every cell fires
// `loss_gradient` of a loss pass: the loss only, or also dL/dstate = 2 diff set or added; or, on
// the hard final state, the hard-error feedback beta * 2 diff added (no loss scored).
constexpr uint32_t kLossOnly = 0, kLossSet = 1, kLossAdd = 2, kLossHardFeedback = 3;

// Binding numbers of shaders/common.glsl, in order.
enum Binding : uint32_t {
  kOps,
  kRowConsumers,
  kConsumers,
  kCoefficients,
  kNeighbour,
  kInverse,
  kStateBase,
  kMasks,
  kStates,
  kTargetValues,
  kActivations,
  kSlots,
  kStateGradients,
  kPatchGradients,
  kPartials,
  kGateSums,
  kGateOps,
  kLossPartials,
  kProgramInfo,
  kHardActivations,
  kLogits,
  kMoments,
  kOpTable,
  kOptimizerScalars,
  kTrainResults,
  kLogitGradients,
  kLogitNoise,
  kFusedOps,
  kFusedBackwardOps,
  kFusedGather,
  kFusedInfo,
  kGateTables,
  kBindingCount
};

// Per binding, named: its buffer block's name in common.glsl, and the name error messages use.
// The entries are in binding order (checked below); test_shader_layout.cpp checks the GLSL side.
struct BindingName {
  Binding binding;
  const char* glsl_block;
  const char* shown;
};
inline constexpr BindingName kBindingNames[kBindingCount] = {
    {kOps, "Ops", "ops"},
    {kRowConsumers, "RowConsumers", "row consumers"},
    {kConsumers, "Consumers", "consumers"},
    {kCoefficients, "Coefficients", "coefficients"},
    {kNeighbour, "Neighbour", "neighbours"},
    {kInverse, "Inverse", "inverse neighbours"},
    {kStateBase, "StateBase", "state bases"},
    {kMasks, "Masks", "fire masks"},
    {kStates, "States", "states"},
    {kTargetValues, "TargetValues", "target"},
    {kActivations, "Activations", "activations"},
    {kSlots, "Slots", "slots"},
    {kStateGradients, "StateGradients", "state gradients"},
    {kPatchGradients, "PatchGradients", "patch gradients"},
    {kPartials, "Partials", "gradient partial sums"},
    {kGateSums, "GateSums", "gate sums"},
    {kGateOps, "GateOps", "gate ops"},
    {kLossPartials, "LossPartials", "loss partial sums"},
    {kProgramInfo, "ProgramInfo", "program info"},
    {kHardActivations, "HardActivations", "hard activations"},
    {kLogits, "Logits", "logits"},
    {kMoments, "Moments", "moments"},
    {kOpTable, "OpTable", "op table"},
    {kOptimizerScalars, "OptimizerScalars", "optimizer scalars"},
    {kTrainResults, "TrainResults", "train results"},
    {kLogitGradients, "LogitGradients", "logit gradients"},
    {kLogitNoise, "LogitNoise", "logit noise"},
    {kFusedOps, "FusedOps", "fused ops"},
    {kFusedBackwardOps, "FusedBackwardOps", "fused backward ops"},
    {kFusedGather, "FusedGather", "fused gathers"},
    {kFusedInfo, "FusedInfo", "fused info"},
    {kGateTables, "GateTables", "gate tables"},
};
constexpr bool bindings_in_order() {
  for (uint32_t b = 0; b < kBindingCount; ++b)
    if (kBindingNames[b].binding != b) return false;
  return true;
}
static_assert(bindings_in_order(), "kBindingNames must list every binding in enum order");

// The optimizer-scalars buffer: kOptimizerSharedScalars floats shared by a population's candidates
// (AdamW's settings, ...; common.glsl), then from kOptimizerCandidateBase 6 per candidate: its
// bias corrections 1 - beta1^t and 1 - beta2^t (its own AdamW step t), the forward pass's inverse
// temperature, 1 when the logit-noise buffer holds its noise this epoch (else 0), its learning
// rate (--lr-decay-to) and its hard-error feedback (--hard-feedback; 0: none). So candidates at
// different epochs (a halving run's new starts) still train in one submission.
constexpr uint32_t kOptimizerSharedScalars = 11;
constexpr uint32_t kOptimizerCandidateBase = 16;
constexpr uint32_t kOptimizerCandidateScalars = 6;
constexpr uint32_t optimizer_scalar_floats(uint32_t candidates) {
  return kOptimizerCandidateBase + kOptimizerCandidateScalars * candidates;
}

// The push-constant block, field for field (32-bit unsigned each, in this order).
struct Push {
  uint32_t cell_offset = 0, cell_count = 0, group_offset = 0, op_begin = 0, act_stride = 0,
           state_in = 0, state_out = 0, step = kSync, hard = 0, d_in = 0, d_out = 0, blocks = 0,
           channels = 0, plane = 0, total_cells = 0, num_gates = 0, loss_slot = 0, word_stride = 0,
           candidates = 1, loss_gradient = 0;
};

}  // namespace dlca::vulkan_layout
