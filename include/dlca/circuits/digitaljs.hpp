// Importing DigitalJS circuits such as those published with the paper (docs/MODEL.md §11.3, §12).
// Inputs are Buttons i_{9*channel + position}, outputs are Outputs o_{channel}, gates are 2-input
// devices of the 16-op family (And, Or, Xor, Nor, Xnor, Nand, AAndNotB, NotAAndB, AOrNotB,
// NotAOrB), 1-input Not, and the constants True and False. The result is a Circuit (circuit.hpp),
// the representation pruned models have; to_program() makes it runnable on the bit-sliced
// simulator.
#pragma once

#include <string>
#include <vector>

#include "dlca/circuits/circuit.hpp"

namespace dlca {

// Throws FileError("PATH: reason") for a missing or malformed file, unknown device types, dangling
// wires (to a device or port that does not exist, or an input port left unconnected, even on a
// device no output reaches), devices used against their role (an Output driving something, a
// Button driven by something), cycles anywhere, or inputs and outputs not numbered as above.
// Devices that no output reaches are left out. Every walk is iterative: any depth loads.
Circuit load_digitaljs(const std::string& path);

// The circuit in the published files' format: Buttons i_{9c+p} for the inputs it reads, gates
// l_{layer}_{index} with their p_/u_ labels, Outputs o_{c}, connectors from "out" to "in1"/"in2"
// (or "in" for Not), and drawing positions by layer. load_digitaljs reads it back unchanged.
std::string circuit_to_digitaljs(const Circuit& circuit);

}  // namespace dlca
