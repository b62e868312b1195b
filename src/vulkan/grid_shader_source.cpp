// The generated big-grid step (grid_shader_source.hpp): the embedded shared GLSL, then a main that
// loads each channel's patch words into p<s>, runs gate_statements and stores the outputs.
#include "grid_shader_source.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dlca/circuits/circuit_export.hpp"
#include "grid_step_glsl.h"  // kGridCommonGlsl, kGridStepCommonGlsl (cmake/embed_text.cmake)

namespace dlca {

namespace {

// Up to this many channels read, each channel's patch words are loaded by a call of their own.
constexpr size_t kInlinedChannels = 16;

}  // namespace

std::string grid_step_source(const Circuit& circuit) {
  std::string out = "#version 450\n";
  out += kGridCommonGlsl;
  out += kGridStepCommonGlsl;
  out += "layout(local_size_x = 256) in;\nvoid main() {\n  int y;\n  uint w;\n";
  out += "  if (!grid_item(y, w)) return;\n";
  const std::vector<bool> used = circuit.used_inputs();
  std::vector<int> read_channels;
  for (int c = 0; c < circuit.channels; ++c) {
    bool any = false;
    for (int p = 0; p < 9; ++p) any = any || used[size_t(9 * c + p)];
    if (any) read_channels.push_back(c);
  }
  // A few channels: each one's patch loaded by its own inlined call. Many: one loop over the
  // channels read (their numbers in a constant array), as an inlined call per channel makes the
  // device's compiler take seconds per channel.
  const bool inlined_loads = read_channels.size() <= kInlinedChannels;
  if (inlined_loads) {
    for (const int c : read_channels)
      out += fmt::format("  uint words{0}[9];\n  load_patch({0}u, y, w, words{0});\n", c);
  } else {
    out += fmt::format(
        "  const uint read_channels[{0}] = uint[{0}]({1}u);\n  uint words[{0}][9];\n"
        "  for (uint k = 0u; k < {0}u; ++k) load_patch(read_channels[k], y, w, words[k]);\n",
        read_channels.size(), fmt::join(read_channels, "u, "));
  }
  for (size_t k = 0; k < read_channels.size(); ++k) {
    const int c = read_channels[k];
    const std::string words =
        inlined_loads ? fmt::format("words{}", c) : fmt::format("words[{}]", k);
    for (int p = 0; p < 9; ++p)
      if (used[size_t(9 * c + p)])
        out += fmt::format("  const uint p{} = {}[{}];\n", 9 * c + p, words, p);
  }
  out += gate_statements(circuit, "  const uint", "0u", "0xFFFFFFFFu");
  out += "  const uint fire = fire_word(y, w);\n";
  if (size_t(circuit.channels) <= kInlinedChannels) {
    for (int c = 0; c < circuit.channels; ++c)
      out += fmt::format("  store_word({}u, y, w, fire, {});\n", c,
                         statement_signal(circuit, circuit.outputs[c]));
  } else {  // many channels: one loop over the new words
    std::vector<std::string> next;
    for (const uint32_t s : circuit.outputs) next.push_back(statement_signal(circuit, s));
    out += fmt::format(
        "  const uint next[{0}] = uint[{0}]({1});\n"
        "  for (uint c = 0u; c < {0}u; ++c) store_word(c, y, w, fire, next[c]);\n",
        circuit.channels, fmt::join(next, ", "));
  }
  return out + "}\n";
}

}  // namespace dlca
