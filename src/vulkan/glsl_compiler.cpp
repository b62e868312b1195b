// compile_compute_shader through glslang's C++ interface (ShaderLang.h): parse, link, then
// GlslangToSpv; the process-wide initialisation happens once, on first use.
#include "glsl_compiler.hpp"

#include <mutex>
#include <sstream>
#include <stdexcept>

#ifdef DLCA_HAVE_GLSLANG
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#endif

namespace dlca {

#ifdef DLCA_HAVE_GLSLANG

namespace {

// The first non-empty line of a glslang log.
std::string first_line(const char* log) {
  std::istringstream lines(log ? log : "");
  std::string line;
  while (std::getline(lines, line))
    if (line.find_first_not_of(" \t") != std::string::npos) return line;
  return "no message";
}

}  // namespace

bool glsl_compiler_built() { return true; }

std::vector<uint32_t> compile_compute_shader(const std::string& source) {
  static std::once_flag initialised;
  std::call_once(initialised, [] { glslang::InitializeProcess(); });
  glslang::TShader shader(EShLangCompute);
  const char* text = source.c_str();
  shader.setStrings(&text, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1);
  shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_3);
  const auto messages = EShMessages(EShMsgSpvRules | EShMsgVulkanRules);
  if (!shader.parse(GetDefaultResources(), 450, false, messages))
    throw std::runtime_error("glslang: " + first_line(shader.getInfoLog()));
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages))
    throw std::runtime_error("glslang: " + first_line(program.getInfoLog()));
  std::vector<uint32_t> spirv;
  // Unoptimised SPIR-V: the device's own compiler does the optimising.
  glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), spirv);
  if (spirv.empty()) throw std::runtime_error("glslang: no SPIR-V came out");
  return spirv;
}

#else

bool glsl_compiler_built() { return false; }

std::vector<uint32_t> compile_compute_shader(const std::string&) {
  throw std::runtime_error(
      "this dlca was built without the glslang library (install the Debian package glslang-dev "
      "and rebuild)");
}

#endif

}  // namespace dlca
