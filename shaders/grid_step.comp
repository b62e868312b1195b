// One step of a hard circuit on a bit-packed grid, interpreting the circuit's gate list (the
// fallback of the shader generated for each circuit, src/vulkan/grid_shader_source.cpp): each
// invocation builds the 9 patch words of every channel for 32 cells of a row, runs the gates over
// a row array, and writes the new words (grid_step_common.glsl).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "grid_common.glsl"
#include "grid_step_common.glsl"
layout(local_size_x = 256) in;
layout(constant_id = 0) const uint kRows = 64;  // signals of the circuit: 9 C inputs, then gates

uint rows[kRows];

void main() {
  int y;
  uint w;
  if (!grid_item(y, w)) return;
  for (uint c = 0u; c < pc.channels; ++c) {
    uint words[9];
    load_patch(c, y, w, words);
    for (uint p = 0u; p < 9u; ++p) rows[c * 9u + p] = words[p];
  }
  for (uint i = 0u; i < pc.num_ops; ++i) {
    const uvec4 op = grid_ops[i];
    const uint a = rows[op.x], b = rows[op.y];
    uint r = 0u;  // op k's truth table: bit 3 - 2 a - b of k (hard_op_bit in ops.hpp)
    if ((op.w & 1u) != 0u) r |= a & b;
    if ((op.w & 2u) != 0u) r |= a & ~b;
    if ((op.w & 4u) != 0u) r |= ~a & b;
    if ((op.w & 8u) != 0u) r |= ~a & ~b;
    rows[op.z] = r;
  }
  const uint fire = fire_word(y, w);
  for (uint c = 0u; c < pc.channels; ++c) store_word(c, y, w, fire, rows[output_rows[c]]);
}
