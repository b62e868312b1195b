// Hardening of the Vulkan simulator and context (issue 11): the grid fires cells by training's
// rule, and Instance / Device / Buffer constructors that throw part-way leave no handle behind
// (checked by the validation layer's object tracking and by LeakSanitizer in the sanitizer build).
#include <doctest/doctest.h>

#include "dlca/vulkan_grid.hpp"
#include "fire_rule_checks.hpp"

using namespace dlca;

TEST_CASE("VulkanGrid fires a cell whose draw equals the fire rate, like training") {
  testing::check_fire_rule([](const Circuit& circuit, int height, int width) {
    return std::make_unique<VulkanGrid>(circuit, height, width, true, 0, true);
  });
}
