// Exports of a hard circuit (circuit.hpp) that need nothing from dlca: C source of a function over
// bit-packed words, a JavaScript kernel for the browser page, and Verilog (a combinational module
// for one cell plus a grid wrapper). The DigitalJS export sits beside its import in digitaljs.hpp.
#pragma once

#include <string>

#include "dlca/circuits/circuit.hpp"

namespace dlca {

// A C99 file defining
//   void NAME(const uint64_t *const *patch, uint64_t *const *next, size_t words);
// patch[9c + p] points to `words` words whose bit i is patch position p (row-major 3x3, 4 = the
// cell itself) of channel c for cell 64w + i; next[c] receives the new state of channel c.
std::string circuit_to_c(const Circuit& circuit, const std::string& name);

// A JavaScript function expression `(function (patch, next, words) {...})` over Int32Array words,
// 32 cells a word, with the same patch/next layout as circuit_to_c (the browser page's kernel).
std::string circuit_to_javascript(const Circuit& circuit);

// The straight-line body of the word-parallel kernels (the C and JavaScript exports, the Vulkan
// simulator's generated shader), where ~ & | ^ act on whole words: one statement
// "PREFIX g<i> = EXPR;" per gate, in order, over the patch values p<s> (s < 9C, declared by the
// caller); `zero` and `one` are the language's all-0 and all-1 words.
std::string gate_statements(const Circuit& circuit, const std::string& prefix,
                            const std::string& zero, const std::string& one);
// The name signal s has in those statements: p<s> for a patch value, g<i> for gate i.
std::string statement_signal(const Circuit& circuit, uint32_t s);

// Verilog-2001: module NAME_cell (input [9C-1:0] patch, output [C-1:0] next), with patch bit 9c + p
// as above; and module NAME_grid #(WIDTH, HEIGHT, PERIODIC) (clk, load, init, state) holding a
// WIDTH x HEIGHT grid, state bit (c * HEIGHT + y) * WIDTH + x, that loads `init` when `load` is
// high and otherwise takes one synchronous step per rising clock edge (periodic or zero boundary).
std::string circuit_to_verilog(const Circuit& circuit, const std::string& name);

// Why `name` cannot be the exported C function / Verilog module prefix, or "" when it can. C
// refuses what is not an identifier, identifiers reserved to the implementation (_X, __x),
// keywords (C89 to C23, GNU asm), main, and the names the included <stddef.h>/<stdint.h> declare;
// circuit_to_c and circuit_to_verilog throw std::invalid_argument("'NAME' reason") for them.
std::string c_name_problem(const std::string& name);
std::string verilog_name_problem(const std::string& name);

// A name both exports accept, made from `text` (an experiment's name): every other character
// becomes _, "c_" goes before a name that does not start with a letter, and "_" after a C keyword
// or a header's name (int -> int_).
std::string identifier_from(const std::string& text);

}  // namespace dlca
