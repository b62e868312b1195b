// Exports of a hard circuit (circuit.hpp) that need nothing from dlca: C source of a function over
// bit-packed words, and Verilog (a combinational module for one cell plus a grid wrapper). The
// DigitalJS export sits beside its import in digitaljs.hpp.
#pragma once

#include <string>

#include "dlca/circuit.hpp"

namespace dlca {

// A C99 file defining
//   void NAME(const uint64_t *const *patch, uint64_t *const *next, size_t words);
// patch[9c + p] points to `words` words whose bit i is patch position p (row-major 3x3, 4 = the
// cell itself) of channel c for cell 64w + i; next[c] receives the new state of channel c.
std::string circuit_to_c(const Circuit& circuit, const std::string& name);

// Verilog-2001: module NAME_cell (input [9C-1:0] patch, output [C-1:0] next), with patch bit 9c + p
// as above; and module NAME_grid #(WIDTH, HEIGHT, PERIODIC) (clk, load, init, state) holding a
// WIDTH x HEIGHT grid, state bit (c * HEIGHT + y) * WIDTH + x, that loads `init` when `load` is
// high and otherwise takes one synchronous step per rising clock edge (periodic or zero boundary).
std::string circuit_to_verilog(const Circuit& circuit, const std::string& name);

// A valid C identifier / Verilog module name made from `text` (letters, digits, underscores).
std::string identifier_from(const std::string& text);

}  // namespace dlca
