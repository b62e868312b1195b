// One step of a hard circuit on a bit-packed grid (beside src/sim/bit_grid.cpp, the CPU's): each
// invocation builds the 9 patch words of every channel for 32 cells of a row (neighbours across
// word, row and grid edges, wrapped or zero), evaluates the gates, and writes the new words; an
// asynchronous cell fires when dlca's counter-based draw uniform01(key, y * W + x) <= fire rate,
// training's rule (fire_threshold = firing_draws(fire rate) + 1 of random.hpp, so that 0 can mean
// synchronous).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "grid_common.glsl"
layout(local_size_x = 256) in;
layout(constant_id = 0) const uint kRows = 64;  // signals of the circuit: 9 C inputs, then gates

uint rows[kRows];

uint row_word(uint c, int y, uint w) {
  if (y < 0 || y >= int(pc.height)) {
    if (pc.periodic == 0u) return 0u;
    y = (y + int(pc.height)) % int(pc.height);
  }
  return grid[pc.in_offset + (c * pc.height + uint(y)) * pc.row_words + w];
}

uint cell_bit(uint c, int y, uint x) { return (row_word(c, y, x / 32u) >> (x % 32u)) & 1u; }

uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ul;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ul;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBul;
  return x ^ (x >> 31);
}

void main() {
  const uint item = linear_index();
  if (item >= pc.height * pc.row_words) return;
  const int y = int(item / pc.row_words);
  const uint w = item % pc.row_words, last = pc.width - 1u;
  const bool last_word = w == last / 32u;
  for (uint c = 0u; c < pc.channels; ++c)
    for (int dy = -1; dy <= 1; ++dy) {
      const uint m = row_word(c, y + dy, w);
      uint left = m << 1, right = m >> 1;  // cell x - 1, cell x + 1
      if (w > 0u)
        left |= row_word(c, y + dy, w - 1u) >> 31;
      else if (pc.periodic != 0u)
        left |= cell_bit(c, y + dy, last);
      if (!last_word)
        right |= row_word(c, y + dy, w + 1u) << 31;
      else if (pc.periodic != 0u)
        right |= cell_bit(c, y + dy, 0u) << (last % 32u);
      const uint base = c * 9u + uint(dy + 1) * 3u;
      rows[base] = left;
      rows[base + 1u] = m;
      rows[base + 2u] = right;
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
  uint fire = 0xFFFFFFFFu;
  if (pc.fire_threshold == 0xFFFFFFFFu) {
    fire = fire_mask[uint(y) * pc.row_words + w];
  } else if (pc.fire_threshold != 0u) {
    fire = 0u;
    const uint64_t key = (uint64_t(pc.key_hi) << 32) | uint64_t(pc.key_lo);
    for (uint k = 0u; k < 32u && 32u * w + k < pc.width; ++k) {
      const uint64_t counter = uint64_t(uint(y) * pc.width + 32u * w + k);
      const uint64_t draw = mix64(key ^ mix64(counter ^ 0x243F6A8885A308D3ul)) >> 40;
      if (uint(draw) + 1u < pc.fire_threshold) fire |= 1u << k;
    }
  }
  const uint mask = cell_mask(w);
  for (uint c = 0u; c < pc.channels; ++c) {
    const uint index = (c * pc.height + uint(y)) * pc.row_words + w;
    const uint old_word = grid[pc.in_offset + index];
    grid[pc.out_offset + index] = ((rows[output_rows[c]] & fire) | (old_word & ~fire)) & mask;
  }
}
