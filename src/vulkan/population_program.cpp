// Merging the programs of a population's candidates (see population_program.hpp).
#include "vulkan/population_program.hpp"

#include <stdexcept>

namespace dlca::vulkan_layout {

namespace {

bool same_shape(const Model& a, const Model& b) {
  const auto widths = [](const std::vector<GateLayer>& layers) {
    std::vector<int> w;
    for (const GateLayer& l : layers) w.push_back(l.count());
    return w;
  };
  return a.config.channels == b.config.channels && a.config.kernels == b.config.kernels &&
         a.num_gates() == b.num_gates() &&
         widths(a.perception_layers) == widths(b.perception_layers) &&
         widths(a.update_layers) == widths(b.update_layers);
}

}  // namespace

CellProgram population_program(std::span<const Model* const> members) {
  if (members.empty()) throw std::invalid_argument("population_program: no members");
  const Model& first = *members[0];
  if (members.size() == 1) return build_cell_program(first);
  for (const Model* m : members)
    if (!same_shape(*m, first))
      throw std::invalid_argument("population_program: the candidates differ in shape");
  const uint32_t K = uint32_t(members.size()), C = uint32_t(first.config.channels);
  const uint32_t G = uint32_t(first.num_gates());
  std::vector<CellProgram> programs;
  for (const Model* m : members) programs.push_back(build_cell_program(*m));
  const uint32_t own_rows = programs[0].num_rows - 9 * C;  // a candidate's rows past its patches

  // Candidate k's row r in the merged program: patch rows by merged channel, then each candidate's
  // other rows in one block.
  const auto row = [&](uint32_t k, uint32_t r) {
    if (r < 9 * C) return (k * C + r / 9) * 9 + r % 9;
    return 9 * K * C + k * own_rows + (r - 9 * C);
  };
  const auto merged = [&](uint32_t k, const GateOp& op) {
    return GateOp{row(k, op.a), row(k, op.b), row(k, op.out), k * G + op.gate};
  };

  CellProgram out;
  out.channels = int(K * C);
  out.num_rows = 9 * K * C + K * own_rows;
  size_t first_op = 0;
  for (const GateLayer& layer : first.perception_layers) {
    // Ops of the level in (kernel, gate, channel) order: C consecutive ops per (kernel, gate).
    for (size_t kj = 0; kj < size_t(layer.count()); ++kj)
      for (uint32_t k = 0; k < K; ++k)
        for (uint32_t c = 0; c < C; ++c)
          out.ops.push_back(merged(k, programs[k].ops[first_op + kj * C + c]));
    first_op += size_t(layer.count()) * C;
  }
  out.perception_op_count = out.ops.size();
  for (const GateLayer& layer : first.update_layers) {
    for (uint32_t k = 0; k < K; ++k)
      for (size_t j = 0; j < size_t(layer.width); ++j)
        out.ops.push_back(merged(k, programs[k].ops[first_op + j]));
    first_op += size_t(layer.width);
  }
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t c = 0; c < C; ++c) out.output_rows.push_back(row(k, programs[k].output_rows[c]));
  return out;
}

}  // namespace dlca::vulkan_layout
