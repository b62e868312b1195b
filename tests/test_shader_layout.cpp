// The host's mirror of the training shaders' shared layout (src/vulkan/training_layout.hpp)
// against shaders/common.glsl itself: every binding in order with its block name, the push
// constants field by field, the optimizer scalars' count, the workgroup size of every shader and
// the synchronous-step marker. Reads the sources, so it runs without a Vulkan device.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../src/vulkan/training_layout.hpp"

using namespace dlca::vulkan_layout;

namespace {

std::string source(const std::string& relative) {
  std::ifstream in(std::string(DLCA_SOURCE_DIR) + "/" + relative);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::smatch> matches(const std::string& text, const std::regex& pattern) {
  return {std::sregex_iterator(text.begin(), text.end(), pattern), std::sregex_iterator()};
}

// The names declared in a block of `uint a;` / `uint32_t a = 0, b = 0;` style declarations.
std::vector<std::string> field_names(const std::string& block, const std::regex& pattern) {
  std::vector<std::string> names;
  for (const auto& m : matches(block, pattern)) names.push_back(m[1]);
  return names;
}

std::string between(const std::string& text, const std::string& open, const std::string& close) {
  const size_t a = text.find(open);
  REQUIRE(a != std::string::npos);
  const size_t b = text.find(close, a + open.size());
  REQUIRE(b != std::string::npos);
  return text.substr(a + open.size(), b - a - open.size());
}

}  // namespace

TEST_CASE("shaders/common.glsl and the host agree on bindings, push constants and sizes") {
  const std::string glsl = source("shaders/common.glsl");

  const auto bindings =
      matches(glsl, std::regex(R"(layout\(std430, binding = (\d+)\)[^\n]*buffer (\w+) \{)"));
  REQUIRE(bindings.size() == kBindingCount);
  for (uint32_t b = 0; b < kBindingCount; ++b) {
    CAPTURE(b);
    CHECK(std::stoul(bindings[b][1]) == b);
    CHECK(bindings[b][2] == kBindingNames[b].glsl_block);
  }

  const std::vector<std::string> glsl_push = field_names(
      between(glsl, "layout(push_constant) uniform Push {", "} pc;"), std::regex(R"(uint (\w+);)"));
  const std::vector<std::string> host_push =
      field_names(between(source("src/vulkan/training_layout.hpp"), "struct Push {", "};"),
                  std::regex(R"((\w+) = )"));
  CHECK(glsl_push == host_push);
  CHECK(glsl_push.size() * 4 == sizeof(Push));

  std::smatch m;
  REQUIRE(
      std::regex_search(glsl, m, std::regex(R"(const uint kOptimizerCandidateBase = (\d+)u;)")));
  CHECK(std::stoul(m[1]) == kOptimizerCandidateBase);
  REQUIRE(std::regex_search(glsl, m, std::regex(R"(const uint kGroupSize = (\d+);)")));
  CHECK(std::stoul(m[1]) == kGroupSize);
  REQUIRE(std::regex_search(glsl, m, std::regex(R"(const uint kSync = (0x[0-9A-Fa-f]+)u;)")));
  CHECK(std::stoul(m[1], nullptr, 16) == kSync);

  // Every training shader includes common.glsl and runs kGroupSize invocations per workgroup,
  // hard_level.comp kHardLevelGroup.
  int shaders = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(DLCA_SOURCE_DIR) + "/shaders")) {
    if (entry.path().extension() != ".comp") continue;
    const std::string text = source("shaders/" + entry.path().filename().string());
    if (text.find("#include \"common.glsl\"") == std::string::npos) continue;  // the grid's
    CAPTURE(entry.path().filename().string());
    const uint32_t group =
        entry.path().filename() == "hard_level.comp" ? kHardLevelGroup : kGroupSize;
    CHECK(text.find("layout(local_size_x = " + std::to_string(group) + ") in;") !=
          std::string::npos);
    ++shaders;
  }
  CHECK(shaders >= 16);
}
