// Importing DigitalJS circuits such as those published with the paper (SPEC §8.2): inputs are
// Buttons i_{9*channel + position}, outputs are Outputs o_{channel}, gates are 2-input devices of
// the 16-op family (And, Or, Xor, Nor, Xnor, Nand, AAndNotB, NotAAndB, AOrNotB, NotAOrB), 1-input
// Not, and the constants True and False. The result is a CellProgram with one hard op per gate, so
// the bit-sliced HardSimulator runs it like a trained model.
#pragma once

#include <string>
#include <vector>

#include "dlca/cell_program.hpp"

namespace dlca {

struct ImportedCircuit {
  CellProgram program;       // patch rows 0..9C-1, then one row per gate
  std::vector<uint8_t> ops;  // hard op of each gate (GateOp::gate indexes it)
  int gates = 0;             // gates reachable from the outputs
};

// Throws FileError("PATH: reason") for a missing or malformed file, unknown device types, dangling
// wires, cycles, or inputs and outputs that are not numbered as above.
ImportedCircuit load_digitaljs(const std::string& path);

}  // namespace dlca
