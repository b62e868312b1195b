// The Vulkan backend's tables and buffer sizes for a plan (see program_tables.hpp).
#include "vulkan/program_tables.hpp"

#include <algorithm>
#include <stdexcept>

#include "dlca/core/ops.hpp"
#include "vulkan/fused_tables.hpp"

namespace dlca::vulkan_layout {

ProgramTables make_program_tables(const CellProgram& prog, const Model& model, int candidates) {
  const ExperimentConfig& cfg = model.config;
  const int C = cfg.channels * candidates, num_gates = model.num_gates() * candidates;
  ProgramTables t;
  uint32_t next = 0;
  for (const GateLayer& layer : model.perception_layers) {
    t.levels.push_back({next, uint32_t(layer.count() * C)});
    next += t.levels.back().second;
  }
  for (const GateLayer& layer : model.update_layers) {
    t.levels.push_back({next, uint32_t(layer.width * candidates)});
    next += t.levels.back().second;
  }
  if (next != prog.ops.size())
    throw std::invalid_argument(
        "vulkan backend: the program's ops do not match the model's layers");
  t.perception_levels = model.perception_layers.size();
  t.perception_trees = uint32_t(cfg.kernels * C);

  // Consumers of every row, in op order; gate -> ops.
  std::vector<std::vector<uint32_t>> consumers_of(prog.num_rows);
  std::vector<std::vector<uint32_t>> ops_of(static_cast<size_t>(num_gates));
  t.op_words.reserve(prog.ops.size() * 4);
  for (size_t o = 0; o < prog.ops.size(); ++o) {
    const GateOp& op = prog.ops[o];
    if (op.a >= prog.num_rows || op.b >= prog.num_rows || op.gate >= uint32_t(num_gates))
      throw std::invalid_argument("vulkan backend: an op reads a row or gate out of range");
    consumers_of[op.a].push_back(uint32_t(2 * o));
    consumers_of[op.b].push_back(uint32_t(2 * o + 1));
    ops_of[op.gate].push_back(uint32_t(o));
    t.op_words.insert(t.op_words.end(), {op.a, op.b, op.out, op.gate});
  }
  for (const auto& list : consumers_of) {
    t.row_ranges.push_back(uint32_t(t.consumers.size()));
    t.consumers.insert(t.consumers.end(), list.begin(), list.end());
    t.row_ranges.push_back(uint32_t(t.consumers.size()));
  }
  t.gate_ops.assign(size_t(num_gates) + 1, 0);
  for (int g = 0; g < num_gates; ++g)
    t.gate_ops[size_t(g) + 1] = t.gate_ops[size_t(g)] + uint32_t(ops_of[size_t(g)].size());
  for (uint32_t& offset : t.gate_ops) offset += uint32_t(num_gates) + 1;
  for (const auto& list : ops_of) t.gate_ops.insert(t.gate_ops.end(), list.begin(), list.end());

  t.program_info.assign(prog.output_rows.begin(), prog.output_rows.end());
  t.program_info.push_back(uint32_t(cfg.loss_channels.size()) * uint32_t(candidates));
  for (int k = 0; k < candidates; ++k)
    for (int c : cfg.loss_channels) t.program_info.push_back(uint32_t(k * cfg.channels + c));
  t.program_info.push_back(uint32_t(model.perception_layers.size()));
  for (size_t l = 0; l < model.perception_layers.size(); ++l)
    t.program_info.insert(t.program_info.end(),
                          {t.levels[l].first, uint32_t(model.perception_layers[l].width)});
  const size_t per_gate = size_t(parameters_per_gate(model.config.gates));
  const std::vector<size_t> bounds = parameter_tensor_bounds(model);
  t.tensor_norms.push_back(uint32_t(bounds.size() - 1));
  for (size_t b : bounds) t.tensor_norms.push_back(uint32_t(b / per_gate));
  t.tensor_norms.resize(t.tensor_norms.size() + (bounds.size() - 1) * size_t(candidates), 0u);
  return t;
}

std::array<uint64_t, kBindingCount> binding_bytes(const ProgramTables& t, const FusedTables& f,
                                                  const PlanShape& s) {
  const auto floats = [](uint64_t n) { return std::max<uint64_t>(n, 4) * 4; };
  const uint64_t gate_floats = s.num_gates * kNumOps;
  std::array<uint64_t, kBindingCount> bytes{};
  bytes[kOps] = floats(t.op_words.size());
  bytes[kRowConsumers] = floats(t.row_ranges.size());
  bytes[kConsumers] = floats(t.consumers.size());
  bytes[kCoefficients] = floats(s.num_gates * 8);
  bytes[kNeighbour] = floats(s.cells * 9);
  bytes[kInverse] = floats(s.cells * 9);
  bytes[kStateBase] = floats(s.cells);
  // bytes [step][candidate][cell], packed 4 a word
  bytes[kMasks] = floats(((s.async ? s.steps : 0) * s.candidates * s.plane + 3) / 4);
  bytes[kStates] = floats((s.steps + 3) * s.state_size);  // soft steps 0..S, two hard steps
  bytes[kTargetValues] = floats(s.state_size);
  bytes[kActivations] = floats(s.num_rows * s.chunk_cells);
  bytes[kSlots] = floats(s.fused ? 0 : 2 * s.num_ops * s.chunk_cells);
  bytes[kStateGradients] = floats(2 * s.state_size);
  bytes[kPatchGradients] = floats(9 * s.channels * s.cells);
  bytes[kPartials] = floats(s.num_ops * s.blocks * 4);
  bytes[kGateSums] = floats(s.num_gates * 4);
  bytes[kGateOps] = floats(t.gate_ops.size());
  bytes[kLossPartials] = floats(2 * s.loss_steps * s.candidates * s.loss_groups);
  bytes[kProgramInfo] = floats(t.program_info.size());
  bytes[kHardActivations] = floats(s.num_rows * ((s.chunk_cells + 31) / 32));
  bytes[kLogits] = floats(gate_floats);
  bytes[kMoments] = floats(gate_floats * 2);
  bytes[kOpTable] = floats(kNumOps * 4);
  bytes[kOptimizerScalars] = floats(optimizer_scalar_floats(uint32_t(s.candidates)));
  bytes[kTrainResults] = floats(2 * s.candidates);
  bytes[kLogitGradients] = floats(gate_floats);
  bytes[kLogitNoise] = floats(gate_floats);
  bytes[kFusedOps] = floats(s.fused ? f.forward_ops.size() : 0);
  bytes[kFusedBackwardOps] = floats(s.fused ? f.backward_ops.size() : 0);
  bytes[kFusedGather] = floats(s.fused ? f.gather.size() : 0);
  bytes[kFusedInfo] = floats(s.fused ? f.info.size() : 0);
  // A word per gate (1 where hardened), then the tensor norms' table.
  bytes[kGateTables] = floats(s.num_gates + t.tensor_norms.size());
  return bytes;
}

}  // namespace dlca::vulkan_layout
