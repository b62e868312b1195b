// A population: the programs of K models of one architecture (K candidates of a multi-start, each
// with its own wiring) merged into one program over K x C channels that the Vulkan backend runs
// in the same dispatches as one model. Candidate k owns channels [kC, (k+1)C), gates
// [kG, (k+1)G), its own rows, and no op reads another candidate's row, so each candidate computes
// exactly what it computes alone. Pure, tested on the CPU (tests/test_vulkan_tables.cpp).
#pragma once

#include <span>

#include "dlca/core/cell_program.hpp"
#include "dlca/core/model.hpp"

namespace dlca::vulkan_layout {

// The merged program of `members` (one model or several of the same shape). Levels stay levels:
// each perception level lists its ops in (kernel, gate, channel) order over all K x C channels, as
// a one-model program does over C; each update level lists candidate 0's ops, then candidate 1's.
// Throws std::invalid_argument when the members differ in shape.
CellProgram population_program(std::span<const Model* const> members);

}  // namespace dlca::vulkan_layout
