// Names of the 16 logic operations, in the notebook's index order.
#include "dlca/core/ops.hpp"

namespace dlca {

std::string_view op_name(int op) {
  static constexpr std::array<std::string_view, kNumOps> kNames = {
      "FALSE", "AND",  "A AND NOT B", "A",          "NOT A AND B", "B",          "XOR",  "OR",
      "NOR",   "XNOR", "NOT B",       "A OR NOT B", "NOT A",       "NOT A OR B", "NAND", "TRUE"};
  if (op < 0 || op >= kNumOps) return "?";
  return kNames[op];
}

}  // namespace dlca
