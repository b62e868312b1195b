// Flattens perception (per kernel and channel) and the update network into one gate program,
// following docs/MODEL.md §5.3 for the update network's input order (c, s, k).
#include "dlca/core/cell_program.hpp"

namespace dlca {

CellProgram build_cell_program(const Model& m) {
  const auto& cfg = m.config;
  const int C = cfg.channels, K = cfg.kernels;
  CellProgram prog;
  prog.channels = C;
  uint32_t next_row = uint32_t(9 * C);

  // perception_row[l][(k * width + j) * C + c]: output row of perception gate layer l.
  std::vector<std::vector<uint32_t>> perception_row(m.perception_layers.size());
  for (size_t l = 0; l < m.perception_layers.size(); ++l) {
    const GateLayer& layer = m.perception_layers[l];
    const LayerWiring& w = m.perception_wiring[l];
    perception_row[l].resize(size_t(layer.count()) * C);
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < layer.width; ++j)
        for (int c = 0; c < C; ++c) {
          const auto input_row = [&](uint32_t wire) {
            if (l == 0) return CellProgram::patch_row(c, int(wire));
            return perception_row[l - 1]
                                 [(size_t(k) * m.perception_layers[l - 1].width + wire) * C + c];
          };
          const uint32_t out = next_row++;
          perception_row[l][(size_t(k) * layer.width + j) * C + c] = out;
          prog.ops.push_back(
              {input_row(w.a[j]), input_row(w.b[j]), out, uint32_t(layer.gate(k, j))});
        }
  }
  prog.perception_op_count = prog.ops.size();

  // Update input i: the cell's own state (i < C), else bit s of kernel k on channel c.
  const int S = cfg.perception_outputs();
  const GateLayer& last_perception = m.perception_layers.back();
  std::vector<uint32_t> rows(cfg.update_layers[0]);
  for (int i = 0; i < cfg.update_layers[0]; ++i) {
    if (i < C) {
      rows[i] = CellProgram::patch_row(i, 4);
    } else {
      const int r = i - C, c = r / (S * K), s = (r / K) % S, k = r % K;
      rows[i] = perception_row.back()[(size_t(k) * last_perception.width + s) * C + c];
    }
  }
  for (size_t l = 0; l < m.update_layers.size(); ++l) {
    const GateLayer& layer = m.update_layers[l];
    const LayerWiring& w = m.update_wiring[l];
    std::vector<uint32_t> out_rows(layer.width);
    for (int j = 0; j < layer.width; ++j) {
      out_rows[j] = next_row++;
      prog.ops.push_back({rows[w.a[j]], rows[w.b[j]], out_rows[j], uint32_t(layer.gate(0, j))});
    }
    rows = std::move(out_rows);
  }
  prog.output_rows = rows;
  prog.num_rows = next_row;
  return prog;
}

}  // namespace dlca
