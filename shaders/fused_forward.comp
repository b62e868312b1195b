// One whole soft step in one dispatch (beside forward_level.comp, which runs it level by level):
// each workgroup takes tiles of kTile cells of the chunk, gathers their patch rows into shared
// memory, runs every level of the program there (a barrier between levels; rows share slots by
// their lifetimes, src/vulkan/fused_tables.hpp) and writes the new state. Same arithmetic per cell
// as the level-by-level path, so the same values.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;
layout(constant_id = 0) const uint kTile = 1;          // cells per tile
layout(constant_id = 1) const uint kSharedFloats = 1;  // kTile * forward slots

shared float tile_rows[kSharedFloats];  // [slot][cell of the tile]

void main() {
  const uint lid = gl_LocalInvocationID.x, C = pc.channels;
  const uint tiles = (pc.cell_count + kTile - 1u) / kTile;
  for (uint tile = gl_WorkGroupID.x; tile < tiles; tile += gl_NumWorkGroups.x) {
    const uint first_cell = tile * kTile;
    for (uint item = lid; item < 9u * C * kTile; item += kGroupSize) {
      const uint row = item / kTile, t = item % kTile, i = first_cell + t;
      const float v = i < pc.cell_count ? patch_value(row, i) : 0.0;
      tile_rows[fused_patch_slot(row) * kTile + t] = v;
    }
    tile_barrier();
    for (uint l = 0u; l < fused_levels(); ++l) {
      const uvec4 level = fused_level(l);
      for (uint item = lid; item < level.y * kTile; item += kGroupSize) {
        const uint t = item % kTile;
        const uvec4 op = fused_ops[level.x + item / kTile];
        const vec4 c = coefficient(op.w);
        const float a = tile_rows[op.x * kTile + t], b = tile_rows[op.y * kTile + t];
        tile_rows[op.z * kTile + t] = soft_gate(c, a, b);
      }
      tile_barrier();
    }
    for (uint item = lid; item < C * kTile; item += kGroupSize) {
      const uint c = item / kTile, t = item % kTile, i = first_cell + t;
      if (i >= pc.cell_count) continue;
      const uint cell = pc.cell_offset + i, index = state_base[cell] + c * pc.plane;
      states[pc.state_out + index] = fires(cell, c) ? tile_rows[fused_output_slot(c) * kTile + t]
                                                    : state_value(pc.state_in, index);
    }
    tile_barrier();  // the next tile reuses the slots
  }
}
