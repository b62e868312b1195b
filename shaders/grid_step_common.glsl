// The parts of a big-grid step (beside src/circuits/bit_grid.cpp, the CPU's) that do not depend on
// how the gates run: which 32 cells of a row an invocation owns, the 9 patch words of a channel
// for them (neighbours across word, row and grid edges, wrapped or zero), which of them fire, and
// the new words. Shared by the interpreter (grid_step.comp) and the shader generated for one
// circuit at run time (src/vulkan/grid_shader_source.cpp); follows grid_common.glsl.

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

// The row y and word w this invocation steps; false when it has none.
bool grid_item(out int y, out uint w) {
  const uint item = linear_index();
  y = int(item / pc.row_words);
  w = item % pc.row_words;
  return item < pc.height * pc.row_words;
}

// Patch position 3 (dy + 1) + (dx + 1) of channel c for the 32 cells of word w of row y.
void load_patch(uint c, int y, uint w, out uint words[9]) {
  const uint last = pc.width - 1u;
  const bool last_word = w == last / 32u;
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
    const uint base = uint(dy + 1) * 3u;
    words[base] = left;
    words[base + 1u] = m;
    words[base + 2u] = right;
  }
}

// The cells of word w of row y that update: all when synchronous; an asynchronous cell fires when
// dlca's counter-based draw uniform01(key, y * W + x) <= fire rate, training's rule
// (fire_threshold = firing_draws(fire rate) + 1 of random.hpp, so that 0 can mean synchronous),
// or as the uploaded fire mask says.
uint fire_word(int y, uint w) {
  if (pc.fire_threshold == 0xFFFFFFFFu) return fire_mask[uint(y) * pc.row_words + w];
  if (pc.fire_threshold == 0u) return 0xFFFFFFFFu;
  uint fire = 0u;
  const uint64_t key = (uint64_t(pc.key_hi) << 32) | uint64_t(pc.key_lo);
  for (uint k = 0u; k < 32u && 32u * w + k < pc.width; ++k) {
    const uint64_t counter = uint64_t(uint(y) * pc.width + 32u * w + k);
    const uint64_t draw = mix64(key ^ mix64(counter ^ 0x243F6A8885A308D3ul)) >> 40;
    if (uint(draw) + 1u < pc.fire_threshold) fire |= 1u << k;
  }
  return fire;
}

// Writes channel c's word: the circuit's output where a cell fires, the old state elsewhere.
void store_word(uint c, int y, uint w, uint fire, uint next) {
  const uint index = (c * pc.height + uint(y)) * pc.row_words + w;
  const uint old_word = grid[pc.in_offset + index];
  grid[pc.out_offset + index] = ((next & fire) | (old_word & ~fire)) & cell_mask(w);
}
