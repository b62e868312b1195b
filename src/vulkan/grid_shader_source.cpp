// The generated big-grid step (grid_shader_source.hpp): the embedded shared GLSL, then a main that
// loads each channel's patch words into p<s>, runs gate_statements and stores the outputs.
#include "grid_shader_source.hpp"

#include <fmt/format.h>

#include "dlca/circuits/circuit_export.hpp"
#include "grid_step_glsl.h"  // kGridCommonGlsl, kGridStepCommonGlsl (cmake/embed_text.cmake)

namespace dlca {

std::string grid_step_source(const Circuit& circuit) {
  std::string out = "#version 450\n";
  out += kGridCommonGlsl;
  out += kGridStepCommonGlsl;
  out += "layout(local_size_x = 256) in;\nvoid main() {\n  int y;\n  uint w;\n";
  out += "  if (!grid_item(y, w)) return;\n";
  const std::vector<bool> used = circuit.used_inputs();
  for (int c = 0; c < circuit.channels; ++c) {
    bool any = false;
    for (int p = 0; p < 9; ++p) any = any || used[size_t(9 * c + p)];
    if (!any) continue;
    out += fmt::format("  uint words{0}[9];\n  load_patch({0}u, y, w, words{0});\n", c);
    for (int p = 0; p < 9; ++p)
      if (used[size_t(9 * c + p)])
        out += fmt::format("  const uint p{} = words{}[{}];\n", 9 * c + p, c, p);
  }
  out += gate_statements(circuit, "  const uint", "0u", "0xFFFFFFFFu");
  out += "  const uint fire = fire_word(y, w);\n";
  for (int c = 0; c < circuit.channels; ++c)
    out += fmt::format("  store_word({}u, y, w, fire, {});\n", c,
                       statement_signal(circuit, circuit.outputs[c]));
  return out + "}\n";
}

}  // namespace dlca
