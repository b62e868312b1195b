// One whole hard step in one dispatch (beside hard_gather/hard_level/hard_write.comp): each
// workgroup takes tiles of kTile words (32 cells each) of the chunk, thresholds their patch rows
// into bits in shared memory, runs every level's argmax gates as bit operations there (a barrier
// between levels; slots as in fused_forward.comp) and writes the new state.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;
layout(constant_id = 0) const uint kTile = 1;         // words per tile
layout(constant_id = 1) const uint kSharedWords = 1;  // kTile * forward slots

shared uint tile_bits[kSharedWords];  // [slot][word of the tile]

void main() {
  const uint lid = gl_LocalInvocationID.x, C = pc.channels;
  const uint words = (pc.cell_count + 31u) / 32u, tiles = (words + kTile - 1u) / kTile;
  for (uint tile = gl_WorkGroupID.x; tile < tiles; tile += gl_NumWorkGroups.x) {
    const uint first_word = tile * kTile;
    for (uint item = lid; item < 9u * C * kTile; item += kGroupSize) {
      const uint row = item / kTile, t = item % kTile, c = row / 9u, p = row % 9u;
      uint bits = 0u;
      for (uint k = 0u; k < 32u; ++k) {
        const uint i = 32u * (first_word + t) + k;
        if (i >= pc.cell_count) break;
        const int nb = neighbour[(pc.cell_offset + i) * 9u + p];
        if (nb >= 0 && states[pc.state_in + state_base[nb] + c * pc.plane] > 0.5) bits |= 1u << k;
      }
      tile_bits[fused_patch_slot(row) * kTile + t] = bits;
    }
    tile_barrier();
    for (uint l = 0u; l < fused_levels(); ++l) {
      const uvec4 level = fused_level(l);
      for (uint item = lid; item < level.y * kTile; item += kGroupSize) {
        const uint t = item % kTile;
        const uvec4 op = fused_ops[level.x + item / kTile];
        const vec4 c = coefficients[pc.num_gates + op.w];
        const uint a = tile_bits[op.x * kTile + t], b = tile_bits[op.y * kTile + t];
        tile_bits[op.z * kTile + t] = hard_gate(c, a, b);
      }
      tile_barrier();
    }
    for (uint item = lid; item < C * 32u * kTile; item += kGroupSize) {
      const uint c = item / (32u * kTile), t = item % (32u * kTile), i = 32u * first_word + t;
      if (i >= pc.cell_count) continue;
      const uint cell = pc.cell_offset + i, index = state_base[cell] + c * pc.plane;
      const uint bit = (tile_bits[fused_output_slot(c) * kTile + t / 32u] >> (t % 32u)) & 1u;
      states[pc.state_out + index] =
          fires(cell, c) ? float(bit) : (states[pc.state_in + index] > 0.5 ? 1.0 : 0.0);
    }
    tile_barrier();
  }
}
