// Pruning a model's hard circuit (docs/MODEL.md §11.2); circuits as simulator programs.
#include "dlca/circuits/circuit.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "dlca/core/config.hpp"

namespace dlca {

void require_grid_channels(int channels) {
  if (channels < 1 || channels > kMaxChannels)
    throw std::invalid_argument(
        fmt::format("circuits must have between 1 and {} channels", kMaxChannels));
}

std::vector<bool> Circuit::used_inputs() const {
  std::vector<bool> used(num_inputs(), false);
  const auto mark = [&](uint32_t s) {
    if (s < num_inputs()) used[s] = true;
  };
  for (const CircuitGate& g : gates)
    if (gate_arity(g.op) > 0) {
      mark(g.a);
      mark(g.b);
    }
  for (uint32_t s : outputs) mark(s);
  return used;
}

namespace {

// Where a program row's op sits in the network (for a model's labels).
struct RowPlace {
  int layer = 0, index = 0;
  std::string label;
};

// Each row's op index in the program (-1 for the input rows).
std::vector<int> op_of_rows(const CellProgram& program) {
  std::vector<int> op_of_row(program.num_rows, -1);
  for (size_t i = 0; i < program.ops.size(); ++i) op_of_row[program.ops[i].out] = int(i);
  return op_of_row;
}

// The pruning walk from the output rows (docs/MODEL.md §11.2).
Circuit prune_rows(const CellProgram& prog, const std::vector<uint8_t>& ops,
                   const std::vector<int>& op_of_row, const std::vector<RowPlace>* places) {
  const int C = prog.channels;
  const uint32_t inputs = uint32_t(9 * C);
  Circuit circuit;
  circuit.channels = C;
  std::vector<int64_t> signal(prog.num_rows, -1);  // row -> circuit signal, once resolved
  // Iterative walk (networks are deep): resolve a row after the rows it reads.
  const auto resolve = [&](uint32_t root) {
    std::vector<uint32_t> stack{root};
    while (!stack.empty()) {
      const uint32_t row = stack.back();
      if (row < inputs) {
        signal[row] = row;
        stack.pop_back();
        continue;
      }
      if (signal[row] >= 0) {
        stack.pop_back();
        continue;
      }
      const GateOp& g = prog.ops[size_t(op_of_row[row])];
      const int op = ops[g.gate];
      // The rows this op reads, following pass-throughs only along the wire they select (no
      // allocation: this runs for every row of every circuit the repair scores).
      uint32_t reads[2];
      int num_reads = 0;
      if (op_reads_a(op)) reads[num_reads++] = g.a;
      if (op_reads_b(op)) reads[num_reads++] = g.b;
      bool ready = true;
      // Reads pushed last-first, so A's cone is resolved before B's, as a recursive walk would.
      for (int k = num_reads - 1; k >= 0; --k)
        if (const uint32_t r = reads[k]; r >= inputs && signal[r] < 0) {
          stack.push_back(r);
          ready = false;
        }
      if (!ready) continue;
      stack.pop_back();
      const auto sig = [&](uint32_t r) { return uint32_t(r < inputs ? r : signal[r]); };
      if (op == kOpPassA || op == kOpPassB) {
        signal[row] = sig(reads[0]);
        continue;
      }
      CircuitGate gate;
      if (places) {
        gate.layer = (*places)[row].layer;
        gate.index = (*places)[row].index;
        gate.label = (*places)[row].label;
      }
      if (op == kOpFalse || op == kOpTrue) {
        gate.op = uint8_t(op);
      } else if (op == kOpNotA || op == 10) {
        gate.op = kOpNotA;
        gate.a = gate.b = sig(reads[0]);
      } else {
        gate.op = uint8_t(op);
        gate.a = sig(g.a);
        gate.b = sig(g.b);
      }
      signal[row] = inputs + circuit.gates.size();
      circuit.gates.push_back(std::move(gate));
    }
  };
  for (int c = 0; c < C; ++c) {
    const uint32_t row = prog.output_rows[c];
    resolve(row);
    circuit.outputs.push_back(uint32_t(signal[row]));
  }
  return circuit;
}

}  // namespace

Circuit prune(const Model& model) {
  const CellProgram prog = build_cell_program(model);
  const ExperimentConfig& cfg = model.config;
  const int C = cfg.channels, K = cfg.kernels;
  std::vector<RowPlace> places(prog.num_rows);
  size_t i = 0;
  int global_layer = 0;
  for (size_t l = 0; l < model.perception_layers.size(); ++l, ++global_layer) {
    const int width = model.perception_layers[l].width;
    for (int k = 0; k < K; ++k)  // build_cell_program's order: kernel, gate, channel
      for (int j = 0; j < width; ++j)
        for (int c = 0; c < C; ++c, ++i)
          places[prog.ops[i].out] = {global_layer, (c * K + k) * width + j,
                                     fmt::format("p_{}_{}_{}_{}", l, c, k, j)};
  }
  for (size_t l = 0; l < model.update_layers.size(); ++l, ++global_layer)
    for (int j = 0; j < model.update_layers[l].width; ++j, ++i)
      places[prog.ops[i].out] = {global_layer, j, fmt::format("u_{}_{}", l, j)};
  return prune_rows(prog, hard_ops(model), op_of_rows(prog), &places);
}

Circuit prune(const CellProgram& program, const std::vector<uint8_t>& ops) {
  for (const GateOp& g : program.ops)
    if (g.gate >= ops.size()) throw std::invalid_argument("prune: no op for a gate of the program");
  return prune_rows(program, ops, op_of_rows(program), nullptr);
}

CircuitProgram to_program(const Circuit& circuit) {
  CircuitProgram out;
  CellProgram& prog = out.program;
  prog.channels = circuit.channels;
  prog.num_rows = circuit.num_inputs() + uint32_t(circuit.gates.size());
  for (size_t i = 0; i < circuit.gates.size(); ++i) {
    const CircuitGate& g = circuit.gates[i];
    prog.ops.push_back({g.a, g.b, circuit.num_inputs() + uint32_t(i), uint32_t(i)});
    out.ops.push_back(g.op);
  }
  prog.output_rows = circuit.outputs;
  return out;
}

std::vector<uint8_t> evaluate_cell(const Circuit& circuit, const std::vector<uint8_t>& inputs) {
  std::vector<uint8_t> value(inputs.begin(), inputs.begin() + circuit.num_inputs());
  for (const CircuitGate& g : circuit.gates)
    value.push_back(hard_op_bit(g.op, value[g.a] != 0, value[g.b] != 0));
  std::vector<uint8_t> next;
  for (uint32_t s : circuit.outputs) next.push_back(value[s]);
  return next;
}

}  // namespace dlca
