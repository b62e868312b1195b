// GLSL compute shaders compiled to SPIR-V at run time, with the glslang library (Debian package
// glslang-dev), for shaders generated per circuit. Builds without glslang say so when asked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dlca {

// Whether this dlca was built with the glslang library.
bool glsl_compiler_built();

// SPIR-V (Vulkan 1.1) of a complete compute shader. Throws std::runtime_error with the first
// line of glslang's log when it does not compile, or when dlca was built without glslang.
std::vector<uint32_t> compile_compute_shader(const std::string& source);

}  // namespace dlca
