// The tables of the Vulkan backend's fused step kernels (shaders/fused_*.comp), computed without a
// device: one dispatch runs a whole step for tiles of cells, the tile's rows in workgroup shared
// memory. Rows get shared-memory slots by their lifetimes (a slot is reused once every reader of
// its previous row has run), so a tile needs only the rows live at once, not the whole program.
// Pure functions, tested on the CPU (tests/test_vulkan_tables.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "dlca/core/cell_program.hpp"
#include "vulkan/program_tables.hpp"

namespace dlca::vulkan_layout {

constexpr uint32_t kNoSlot = 0xFFFFFFFFu;  // a row without a gradient slot (its gradient is 0)

struct FusedTables {
  // Shared-memory slots per cell: forward (rows' values) and backward (rows' gradients).
  uint32_t forward_slots = 0, backward_slots = 0;
  // Per op: forward slot of input a, of input b, of the output, and the gate.
  std::vector<uint32_t> forward_ops;
  // Per op: row of input a, row of input b (activations in device memory), gradient slot of the
  // output (kNoSlot: nothing reads it), and the gate.
  std::vector<uint32_t> backward_ops;
  // Per (level, row read by the level): the row's gradient slot, 1 when this is the row's first
  // contribution (the slot starts at 0), and [begin, end) of its readers in this level in `info`.
  std::vector<uint32_t> gather;
  // Level count L; per level (first op, op count, first gather entry, end); the forward slots of
  // the patch rows [9C] and of the output rows [C]; the gradient slots of the patch rows [9C]
  // (kNoSlot: not read) and of the output rows [C]; then the readers lists: op * 2 + side.
  std::vector<uint32_t> info;
};

// Throws std::invalid_argument when a row is written twice or read before it is written.
FusedTables make_fused_tables(const CellProgram& program, const ProgramTables& tables);

// Cells (or 32-cell words) per tile for `slots` shared values per cell within `shared_bytes`, at
// most `max_tile`; 0 when not even one fits.
uint32_t fused_tile(uint32_t slots, uint64_t shared_bytes, uint32_t max_tile);

}  // namespace dlca::vulkan_layout
