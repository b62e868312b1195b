// A hard circuit of one cell: the pruned boolean circuit that a trained model becomes
// (docs/MODEL.md §11.2), and the representation DigitalJS files import into and every export is
// written from. Signals 0 .. 9C-1 are the patch inputs (channel c, position p is signal 9c + p);
// signal 9C + i is the output of gate i. Gates only read earlier signals, so their order is an
// evaluation order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dlca/core/cell_program.hpp"
#include "dlca/core/model.hpp"

namespace dlca {

inline constexpr int kOpFalse = 0;
inline constexpr int kOpNotA = 12;
inline constexpr int kOpTrue = 15;

// How many inputs a pruned gate reads: 0 for the constants, 1 for NOT (stored as NOT A), else 2.
constexpr int gate_arity(int op) {
  return op == kOpFalse || op == kOpTrue ? 0 : op == kOpNotA ? 1 : 2;
}

struct CircuitGate {
  uint8_t op = 0;  // never A, B or NOT B (NOT B is stored as NOT A of its input)
  uint32_t a = 0;  // signal of input A (the NOT's input); 0 and unused for constants
  uint32_t b = 0;  // signal of input B; equal to a for NOT, 0 for constants
  int layer = 0;   // global gate layer, perception layers first (DigitalJS ids l_{layer}_{index})
  int index = 0;   // position in its layer
  std::string label;  // p_{layer}_{channel}_{kernel}_{gate} or u_{layer}_{gate}, as published
};

struct Circuit {
  int channels = 0;
  std::vector<CircuitGate> gates;
  std::vector<uint32_t> outputs;  // signal of each channel's new state

  uint32_t num_inputs() const { return uint32_t(9 * channels); }
  static uint32_t input(int channel, int position) { return uint32_t(channel * 9 + position); }
  // Whether input signal s is read by any gate or output.
  std::vector<bool> used_inputs() const;
};

// Throws std::invalid_argument unless a grid can hold `channels` state channels (1 to
// kMaxChannels): the check every grid that steps a circuit makes, on the CPU and on a device.
void require_grid_channels(int channels);

// The model's hard circuit (argmax per gate), pruned: only gates the outputs reach, pass-through
// chains as wires, NOT A / NOT B as a one-input NOT, constants kept. Perception is instantiated per
// channel.
Circuit prune(const Model& model);
// The same for any cell program with one op per gate (ops[GateOp::gate]), without labels or layers:
// the circuit that the bit-sliced simulator runs for a training or evaluation rollout.
Circuit prune(const CellProgram& program, const std::vector<uint8_t>& ops);

// The circuit as a gate program for the bit-sliced simulator: rows 0..9C-1 are the patch, row
// 9C + i is gate i, and ops[i] is gate i's op.
struct CircuitProgram {
  CellProgram program;
  std::vector<uint8_t> ops;
};
CircuitProgram to_program(const Circuit& circuit);

// One cell, one bit per signal: inputs[9C] -> next state [C]. The plain reference for tests.
std::vector<uint8_t> evaluate_cell(const Circuit& circuit, const std::vector<uint8_t>& inputs);

}  // namespace dlca
