// GLSL of a big-grid step compiled for one circuit: the gates as straight-line operations on
// 32-bit words (as the C kernel the CPU compiles, circuit_kernel.hpp), around the same patch,
// firing and store code as the interpreting shader (shaders/grid_step_common.glsl).
#pragma once

#include <string>

#include "dlca/circuits/circuit.hpp"

namespace dlca {

// A complete compute shader (#version 450, workgroups of 256) for the grid simulator's bindings
// and push constants (shaders/grid_common.glsl).
std::string grid_step_source(const Circuit& circuit);

}  // namespace dlca
