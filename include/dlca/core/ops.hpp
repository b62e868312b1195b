// The 16 two-input boolean operations of a logic gate in the notebook's order (docs/MODEL.md §2):
// their affine coefficients over (1, a, b, ab), names, and hard (boolean, bit-sliced) evaluation.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace dlca {

inline constexpr int kNumOps = 16;
inline constexpr int kOpPassA = 3;  // "A": the pass-through op every gate starts as
inline constexpr int kOpPassB = 5;  // "B"

// Whether op_i(a, b) depends on input A: every op but FALSE, TRUE, B and NOT B; on input B: every
// op but FALSE, TRUE, A and NOT A. The circuit's pruning and the repair's search follow these.
constexpr bool op_reads_a(int op) { return op != 0 && op != 15 && op != kOpPassB && op != 10; }
constexpr bool op_reads_b(int op) { return op != 0 && op != 15 && op != kOpPassA && op != 12; }

// op_i(a, b) = c0 + c1*a + c2*b + c3*a*b, rows in index order.
inline constexpr std::array<std::array<float, 4>, kNumOps> kOpCoefficients = {{
    {0, 0, 0, 0},    // 0 FALSE
    {0, 0, 0, 1},    // 1 AND
    {0, 1, 0, -1},   // 2 A AND NOT B
    {0, 1, 0, 0},    // 3 A
    {0, 0, 1, -1},   // 4 NOT A AND B
    {0, 0, 1, 0},    // 5 B
    {0, 1, 1, -2},   // 6 XOR
    {0, 1, 1, -1},   // 7 OR
    {1, -1, -1, 1},  // 8 NOR
    {1, -1, -1, 2},  // 9 XNOR
    {1, 0, -1, 0},   // 10 NOT B
    {1, 0, -1, 1},   // 11 A OR NOT B
    {1, -1, 0, 0},   // 12 NOT A
    {1, -1, 0, 1},   // 13 NOT A OR B
    {1, 0, 0, -1},   // 14 NAND
    {1, 0, 0, 0},    // 15 TRUE
}};

// Human-readable name of op i ("AND", "A AND NOT B", ...).
std::string_view op_name(int op);

// Boolean value of op on single bits: the truth table is the binary digits of the index.
constexpr bool hard_op_bit(int op, bool a, bool b) {
  return ((op >> (3 - 2 * int(a) - int(b))) & 1) != 0;
}

// The op applied bitwise to 64 independent (a, b) pairs.
constexpr uint64_t hard_op_word(int op, uint64_t a, uint64_t b) {
  switch (op) {
    case 0:
      return 0;
    case 1:
      return a & b;
    case 2:
      return a & ~b;
    case 3:
      return a;
    case 4:
      return ~a & b;
    case 5:
      return b;
    case 6:
      return a ^ b;
    case 7:
      return a | b;
    case 8:
      return ~(a | b);
    case 9:
      return ~(a ^ b);
    case 10:
      return ~b;
    case 11:
      return a | ~b;
    case 12:
      return ~a;
    case 13:
      return ~a | b;
    case 14:
      return ~(a & b);
    default:
      return ~uint64_t{0};
  }
}

}  // namespace dlca
