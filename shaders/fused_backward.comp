// One whole backward step in one dispatch (beside backward_level.comp and the other level-by-level
// passes): each workgroup takes tiles of kTile cells of the chunk, recomputes their activations
// (in shared memory, and every row into the chunk's activations in device memory, which the
// gradients read), then walks the levels in reverse with the rows' gradients in shared memory:
// per level, each op adds its sums over the tile's cells (g, g a, g b, g a b) to
// partials[op][workgroup] (one owner, tiles in order: deterministic), and each row the level reads
// gathers its readers' contributions in op order. Ends with the patch rows' gradients in d_patch.
#version 450
#extension GL_GOOGLE_include_directive : require
#define ACTIVATIONS_COHERENT
#include "common.glsl"
layout(local_size_x = 256) in;
layout(constant_id = 0) const uint kTile = 1;          // cells per tile
layout(constant_id = 1) const uint kSharedFloats = 1;  // kTile * max(forward, backward slots)

shared float tile_rows[kSharedFloats];  // [slot][cell of the tile]: values, then gradients

// The gradient of op o's output for cell t of the tile (0 when nothing reads it).
float output_gradient(uvec4 bop, uint t) {
  return bop.z == kNoSlot ? 0.0 : tile_rows[bop.z * kTile + t];
}

void main() {
  const uint lid = gl_LocalInvocationID.x, C = pc.channels, L = fused_levels();
  const uint tiles = (pc.cell_count + kTile - 1u) / kTile;
  for (uint tile = gl_WorkGroupID.x; tile < tiles; tile += gl_NumWorkGroups.x) {
    const uint first_cell = tile * kTile;
    // Forward again, keeping every row in device memory.
    for (uint item = lid; item < 9u * C * kTile; item += kGroupSize) {
      const uint row = item / kTile, t = item % kTile, i = first_cell + t;
      const float v = i < pc.cell_count ? patch_value(row, i) : 0.0;
      if (i < pc.cell_count) act[row * pc.act_stride + i] = v;
      tile_rows[fused_patch_slot(row) * kTile + t] = v;
    }
    tile_barrier();
    for (uint l = 0u; l < L; ++l) {
      const uvec4 level = fused_level(l);
      for (uint item = lid; item < level.y * kTile; item += kGroupSize) {
        const uint o = level.x + item / kTile, t = item % kTile, i = first_cell + t;
        const uvec4 op = fused_ops[o];
        const vec4 c = coefficient(op.w);
        const float a = tile_rows[op.x * kTile + t], b = tile_rows[op.y * kTile + t];
        const float v = soft_gate(c, a, b);
        tile_rows[op.z * kTile + t] = v;
        if (i < pc.cell_count) act[ops[o].z * pc.act_stride + i] = v;
      }
      tile_barrier();
    }
    // The outputs' gradients: dL/d(new state) where the cell fired.
    for (uint item = lid; item < C * kTile; item += kGroupSize) {
      const uint c = item / kTile, t = item % kTile, i = first_cell + t;
      float g = 0.0;
      if (i < pc.cell_count) {
        const uint cell = pc.cell_offset + i;
        if (fires(cell, c)) g = d_state[pc.d_out + state_base[cell] + c * pc.plane];
      }
      tile_rows[fused_output_gradient_slot(c) * kTile + t] = g;
    }
    tile_barrier();
    for (uint l = L; l-- > 0u;) {
      const uvec4 level = fused_level(l);
      // Each op's sums over the tile's cells, in cell order.
      for (uint k = lid; k < level.y; k += kGroupSize) {
        const uint o = level.x + k;
        const uvec4 bop = fused_backward_ops[o];
        if (bop.z == kNoSlot) continue;
        vec4 sums = vec4(0.0);
        for (uint t = 0u; t < kTile && first_cell + t < pc.cell_count; ++t) {
          const uint i = first_cell + t;
          const float g = tile_rows[bop.z * kTile + t];
          const float a = act[bop.x * pc.act_stride + i], b = act[bop.y * pc.act_stride + i];
          const float ga = g * a;
          sums += vec4(g, ga, g * b, ga * b);
        }
        partials[o * pc.blocks + gl_WorkGroupID.x] += sums;
      }
      // Each row the level reads: its readers' contributions, in op order.
      for (uint item = lid; item < (level.w - level.z) * kTile; item += kGroupSize) {
        const uint t = item % kTile, i = first_cell + t;
        const uvec4 entry = fused_gather[level.z + item / kTile];
        float d = entry.y != 0u ? 0.0 : tile_rows[entry.x * kTile + t];
        if (i < pc.cell_count)
          for (uint e = entry.z; e < entry.w; ++e) {
            const uint reader = fused_info[e];
            const uvec4 bop = fused_backward_ops[reader >> 1u];
            const vec4 c = coefficient(bop.w);
            const float g = output_gradient(bop, t);
            d += (reader & 1u) == 0u ? g * fma(c.w, act[bop.y * pc.act_stride + i], c.y)
                                     : g * fma(c.w, act[bop.x * pc.act_stride + i], c.z);
          }
        tile_rows[entry.x * kTile + t] = d;
      }
      tile_barrier();
    }
    for (uint item = lid; item < 9u * C * kTile; item += kGroupSize) {
      const uint row = item / kTile, t = item % kTile, i = first_cell + t;
      if (i >= pc.cell_count) continue;
      const uint slot = fused_patch_gradient_slot(row);
      d_patch[row * pc.total_cells + pc.cell_offset + i] =
          slot == kNoSlot ? 0.0 : tile_rows[slot * kTile + t];
    }
    tile_barrier();
  }
}
