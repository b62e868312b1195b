// The Vulkan instance kept for the whole test process, and the check whether a device is there
// (vulkan_driver.hpp).
#include "vulkan_driver.hpp"

#include <vulkan/vulkan.h>

#include <cstring>
#include <stdexcept>
#include <vector>

namespace dlca::testing {

namespace {

constexpr const char* kValidation = "VK_LAYER_KHRONOS_validation";

bool validation_layer_present() {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS) return false;
  for (const VkLayerProperties& layer : layers)
    if (std::strcmp(layer.layerName, kValidation) == 0) return true;
  return false;
}

// Why the Vulkan tests cannot run, or empty.
std::string probe() {
  if (!validation_layer_present())
    return "the Vulkan validation layer is not installed (Debian package vulkan-validationlayers)";
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "dlca tests";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = 1;
  info.ppEnabledLayerNames = &kValidation;
  // Never destroyed: holds the driver and the layer loaded until the process exits.
  static VkInstance instance = VK_NULL_HANDLE;
  const VkResult created = vkCreateInstance(&info, nullptr, &instance);
  if (created == VK_ERROR_INCOMPATIBLE_DRIVER)
    return "no Vulkan driver (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER)";
  if (created != VK_SUCCESS)
    throw std::runtime_error("vkCreateInstance failed: " + std::to_string(int(created)));
  uint32_t count = 0;
  if (vkEnumeratePhysicalDevices(instance, &count, nullptr) != VK_SUCCESS)
    throw std::runtime_error("vkEnumeratePhysicalDevices failed");
  if (count == 0) return "no Vulkan device";
  return {};
}

}  // namespace

std::string vulkan_missing() {
  static const std::string reason = probe();
  return reason;
}

}  // namespace dlca::testing
