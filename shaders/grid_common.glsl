// Bindings and push constants of the bit-packed grid simulator's shaders (src/vulkan/vulkan_grid.cpp):
// each channel is a bit plane of `height` rows of `row_words` 32-bit words, bit k of word w of a
// row is the cell x = 32 w + k; bits beyond the width are 0.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

const uint kGroupSize = 256;

layout(std430, binding = 0) buffer GridStates { uint grid[]; };         // two states: in and out
layout(std430, binding = 1) readonly buffer GridOps { uvec4 grid_ops[]; };  // a, b, out, op
layout(std430, binding = 2) readonly buffer GridOutputs { uint output_rows[]; };  // [C]
layout(std430, binding = 3) buffer GridPartials { uint partial_counts[]; };
layout(std430, binding = 4) readonly buffer GridTarget { uint target_plane[]; };
layout(std430, binding = 5) readonly buffer GridFireMask { uint fire_mask[]; };  // [H][row_words]

layout(push_constant) uniform GridPush {
  uint in_offset, out_offset;  // word offsets of the two states
  uint height, width, row_words, channels, periodic;
      uint fire_threshold;  // async: a cell fires when its 24-bit draw + 1 is below this; 0: sync;
                        // 0xFFFFFFFF: the cells set in fire_mask fire
  uint key_lo, key_hi;  // async: the step's key
  uint num_ops;
  uint y0, x0, y1, x1;  // zero_rectangle: [y0, y1) x [x0, x1)
  uint channel;         // count / differences
  uint group_offset;
} pc;

uint linear_index() { return (pc.group_offset + gl_WorkGroupID.x) * kGroupSize + gl_LocalInvocationID.x; }

// Mask of the bits of word w that are cells.
uint cell_mask(uint w) {
  const uint first = 32u * w;
  return pc.width - first >= 32u ? 0xFFFFFFFFu : (1u << (pc.width - first)) - 1u;
}
