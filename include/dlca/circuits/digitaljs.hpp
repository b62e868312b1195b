// Importing DigitalJS circuits such as those published with the paper (docs/MODEL.md §11.3, §12).
// Inputs are Buttons i_{9*channel + position}, outputs are Outputs o_{channel}, gates are 2-input
// devices of the 16-op family: stock DigitalJS's And, Or, Xor, Nor, Xnor, Nand, 1-input Not and
// 1-bit Constants ("constant": "0" or "1"), and the paper's modified DigitalJS's AAndNotB,
// NotAAndB, AOrNotB, NotAOrB, True and False. The result is a Circuit (circuit.hpp), the
// representation pruned models have; to_program() makes it runnable on the bit-sliced simulator.
#pragma once

#include <string>
#include <vector>

#include "dlca/circuits/circuit.hpp"

namespace dlca {

// Throws FileError("PATH: reason") for a missing or malformed file, unknown device types, dangling
// wires (to a device or port that does not exist, or an input port left unconnected, even on a
// device no output reaches), devices used against their role (an Output driving something, a
// Button driven by something), cycles anywhere, or inputs and outputs not numbered as above.
// Devices that no output reaches are left out. Every walk is iterative: any depth loads. A Not
// device named <gate>_in1_not or <gate>_in2_not that drives only that port of the And or Or <gate>
// (as the stock export writes them) is read back as part of that gate: And with Not on in2 is
// AAndNotB, and so on.
Circuit load_digitaljs(const std::string& path);

// Stock: the device types of the DigitalJS npm package, which opens it. Paper: the types of the
// modified DigitalJS the paper's circuits were published for (AAndNotB, ..., True, False).
enum class DigitalJsFormat { stock, paper };

// The circuit in the published files' layout: Buttons i_{9c+p} for the inputs it reads, gates
// l_{layer}_{index} with their p_/u_ labels, Outputs o_{c}, connectors from "out" to "in1"/"in2"
// (or "in" for Not), and drawing positions by layer. In the stock format an A-and-not-B style gate
// is an And or Or with a Not device <gate>_in1_not or <gate>_in2_not before the negated input, and
// the constants are Constant devices. load_digitaljs reads either format back unchanged.
std::string circuit_to_digitaljs(const Circuit& circuit,
                                 DigitalJsFormat format = DigitalJsFormat::stock);

}  // namespace dlca
