// Hardening of the Vulkan simulator and context (issue 11): the grid fires cells by training's
// rule, and Instance / Device / Buffer constructors that throw part-way leave no handle behind
// (checked by the validation layer's object tracking and by LeakSanitizer in the sanitizer build).
#include <doctest/doctest.h>

#include "dlca/vulkan/vulkan_grid.hpp"
#include "fire_rule_checks.hpp"
#include "optional_parts.hpp"
#include "vulkan/vulkan_context.hpp"
#include "vulkan_driver.hpp"

using namespace dlca;

TEST_CASE("VulkanGrid fires a cell whose draw equals the fire rate, like training") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  testing::check_fire_rule([](const Circuit& circuit, int height, int width) {
    return std::make_unique<VulkanGrid>(circuit, height, width, true, 0, true);
  });
}

// Constructors that throw after creating Vulkan objects destroy them: under the validation layer
// (ctest case vulkan.partial_construction, which fails on "validation error") a leaked device or
// buffer is reported when its device or instance is destroyed; LeakSanitizer sees the rest.
TEST_CASE("Vulkan constructors that throw part-way destroy what they made") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  vk::Instance instance(true);
  // More storage buffers than any device allows: thrown after the device, pool and fence exist.
  CHECK_THROWS_WITH_AS(vk::Device(instance, 0, 1u << 30, 16),
                       doctest::Contains("storage buffers per shader"), vk::VulkanError);
  vk::Device device(instance, 0, 2, 16);
  // A buffer no device can back: thrown after vkCreateBuffer, at the allocation.
  CHECK_THROWS_AS(vk::Buffer(device, VkDeviceSize(1) << 56, false), vk::VulkanError);
  CHECK(instance.validation_errors() == 0);
}
