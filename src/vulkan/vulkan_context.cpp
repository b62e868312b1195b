// Vulkan instance, device, buffers and pipelines for dlca's compute backend (see the header).
#include "vulkan_context.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "dlca/core/option_names.hpp"

namespace dlca::vk {

const char* result_name(VkResult result) {
  switch (result) {
    case VK_SUCCESS:
      return "VK_SUCCESS";
    case VK_NOT_READY:
      return "VK_NOT_READY";
    case VK_TIMEOUT:
      return "VK_TIMEOUT";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY (out of host memory)";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY (out of device memory)";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST (the device was lost)";
    case VK_ERROR_LAYER_NOT_PRESENT:
      return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "VK_ERROR_INCOMPATIBLE_DRIVER (no Vulkan driver found)";
    case VK_ERROR_TOO_MANY_OBJECTS:
      return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_OUT_OF_POOL_MEMORY:
      return "VK_ERROR_OUT_OF_POOL_MEMORY";
    default:
      return "VkResult error";
  }
}

void check(VkResult result, const char* what) {
  if (result != VK_SUCCESS)
    throw VulkanError(fmt::format("{} failed: {} ({})", what, result_name(result), int(result)));
}

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
    ++*static_cast<int*>(user);
    std::fprintf(stderr, "vulkan validation error: %s\n", data->pMessage);
  } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    std::fprintf(stderr, "vulkan validation warning: %s\n", data->pMessage);
  }
  return VK_FALSE;
}

bool layer_present(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto& layer : layers)
    if (std::strcmp(layer.layerName, name) == 0) return true;
  return false;
}

const char* device_type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "CPU";
    default:
      return "other";
  }
}

int compute_queue_family(VkPhysicalDevice device, uint32_t* timestamp_bits) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  for (uint32_t i = 0; i < count; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      if (timestamp_bits) *timestamp_bits = families[i].timestampValidBits;
      return int(i);
    }
  return -1;
}

}  // namespace

namespace {
bool validation_from_environment() {
  const char* v = std::getenv("DLCA_VULKAN_VALIDATION");
  return v && *v && std::strcmp(v, "0") != 0;
}

VkApplicationInfo application_info() {
  auto app = make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "dlca";
  app.apiVersion = VK_API_VERSION_1_1;
  return app;
}

// Drivers keep memory in static variables (lavapipe: its one-time initialisation), and the loader
// unloads a driver when the last instance is destroyed: that memory then reads as a leak to
// LeakSanitizer, and the next instance loads and initialises the driver again. One bare instance,
// made before the first and never destroyed, keeps the drivers loaded for the process's life.
void keep_drivers_loaded() {
  static const VkInstance kept = [] {
    const VkApplicationInfo app = application_info();
    auto info = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    info.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    return vkCreateInstance(&info, nullptr, &instance) == VK_SUCCESS ? instance : VK_NULL_HANDLE;
  }();
  (void)kept;
}
}  // namespace

Instance::Instance(bool validation_requested) {
  keep_drivers_loaded();
  const bool validation = validation_requested || validation_from_environment();
  constexpr const char* kValidation = "VK_LAYER_KHRONOS_validation";
  if (validation && !layer_present(kValidation))
    throw VulkanError(
        "validation layer VK_LAYER_KHRONOS_validation is not installed (Debian package "
        "vulkan-validationlayers)");
  const VkApplicationInfo app = application_info();
  auto info = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  info.pApplicationInfo = &app;
  const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  auto messenger = make<VkDebugUtilsMessengerCreateInfoEXT>(
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
  messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
  messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger.pfnUserCallback = on_validation_message;
  messenger.pUserData = error_count_.get();
  if (validation) {
    info.enabledLayerCount = 1;
    info.ppEnabledLayerNames = &kValidation;
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = &extension;
    info.pNext = &messenger;  // also reports problems of vkCreateInstance itself
  }
  check(vkCreateInstance(&info, nullptr, &instance_), "vkCreateInstance");
  try {  // whatever was made is destroyed if a later step throws
    if (validation) {
      auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
          vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
      if (!create) throw VulkanError("vkCreateDebugUtilsMessengerEXT is not available");
      check(create(instance_, &messenger, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
    }
  } catch (...) {
    release();
    throw;
  }
}

Instance::~Instance() { release(); }

void Instance::release() noexcept {
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
  }
  if (instance_) vkDestroyInstance(instance_, nullptr);
  messenger_ = VK_NULL_HANDLE;
  instance_ = VK_NULL_HANDLE;
}

std::vector<VkPhysicalDevice> Instance::physical_devices() const {
  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  check(vkEnumeratePhysicalDevices(instance_, &count, devices.data()),
        "vkEnumeratePhysicalDevices");
  devices.resize(count);
  return devices;
}

std::vector<DeviceSummary> Instance::summaries() const {
  std::vector<DeviceSummary> out;
  const auto devices = physical_devices();
  for (size_t i = 0; i < devices.size(); ++i) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(devices[i], &props);
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(devices[i], &memory);
    DeviceSummary s;
    s.index = int(i);
    s.name = props.deviceName;
    s.type = device_type_name(props.deviceType);
    s.api_version = props.apiVersion;
    for (uint32_t h = 0; h < memory.memoryHeapCount; ++h)
      if (memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
        s.device_local_bytes += memory.memoryHeaps[h].size;
    s.has_compute = compute_queue_family(devices[i], nullptr) >= 0;
    out.push_back(s);
  }
  return out;
}

Buffer::Buffer(Device& owner, VkDeviceSize size, bool host_visible)
    : device(owner.handle()), bytes(size) {
  try {  // whatever was made is destroyed if a later step throws
    create(owner, host_visible);
  } catch (...) {
    release();
    throw;
  }
}

void Buffer::create(Device& owner, bool host_visible) {
  const VkDeviceSize size = bytes;
  auto info = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = size;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(device, &info, nullptr, &buffer), "vkCreateBuffer");
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, buffer, &req);
  auto alloc = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex =
      host_visible ? owner.memory_type(
                         req.memoryTypeBits,
                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                         VK_MEMORY_PROPERTY_HOST_CACHED_BIT)
                   : owner.memory_type(req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  check(vkAllocateMemory(device, &alloc, nullptr, &memory),
        fmt::format("vkAllocateMemory ({} bytes)", size).c_str());
  check(vkBindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory");
  if (host_visible) check(vkMapMemory(device, memory, 0, size, 0, &mapped), "vkMapMemory");
}

Buffer::~Buffer() { release(); }

void Buffer::release() noexcept {
  if (mapped) vkUnmapMemory(device, memory);
  if (buffer) vkDestroyBuffer(device, buffer, nullptr);
  if (memory) vkFreeMemory(device, memory, nullptr);
  mapped = nullptr;
  buffer = VK_NULL_HANDLE;
  memory = VK_NULL_HANDLE;
}

void Buffer::swap(Buffer& other) noexcept {
  std::swap(device, other.device);
  std::swap(buffer, other.buffer);
  std::swap(memory, other.memory);
  std::swap(bytes, other.bytes);
  std::swap(mapped, other.mapped);
}

Device::Device(Instance& instance, int index, uint32_t bindings, uint32_t push_bytes, bool int64) {
  try {  // whatever was made is destroyed if a later step throws
    create(instance, index, bindings, push_bytes, int64);
  } catch (...) {
    release();
    throw;
  }
}

void Device::create(Instance& instance, int index, uint32_t bindings, uint32_t push_bytes,
                    bool int64) {
  const auto devices = instance.physical_devices();
  if (devices.empty()) throw VulkanError("no Vulkan device found");
  if (index < 0 || size_t(index) >= devices.size())
    throw VulkanError(devices.size() == 1
                          ? fmt::format("{}: there is 1 Vulkan device (0)",
                                        option_with_value("device", std::to_string(index)))
                          : fmt::format("{}: there are {} Vulkan devices (0 to {})",
                                        option_with_value("device", std::to_string(index)),
                                        devices.size(), devices.size() - 1));
  physical_ = devices[size_t(index)];
  vkGetPhysicalDeviceProperties(physical_, &properties_);
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
  const int family = compute_queue_family(physical_, &timestamp_bits_);
  if (family < 0)
    throw VulkanError(
        fmt::format("Vulkan device {} ({}) has no compute queue", index, properties_.deviceName));
  if (!properties_.limits.timestampComputeAndGraphics) timestamp_bits_ = 0;

  const float priority = 1.0f;
  auto queue_info = make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queue_info.queueFamilyIndex = uint32_t(family);
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  auto device_info = make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  VkPhysicalDeviceFeatures features{};
  if (int64) {
    VkPhysicalDeviceFeatures available;
    vkGetPhysicalDeviceFeatures(physical_, &available);
    if (!available.shaderInt64)
      throw VulkanError(fmt::format("Vulkan device {} ({}) has no 64-bit integers in shaders",
                                    index, properties_.deviceName));
    features.shaderInt64 = VK_TRUE;
    device_info.pEnabledFeatures = &features;
  }
  check(vkCreateDevice(physical_, &device_info, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, uint32_t(family), 0, &queue_);

  auto pool_info = make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = uint32_t(family);
  check(vkCreateCommandPool(device_, &pool_info, nullptr, &pool_), "vkCreateCommandPool");
  auto fence_info = make<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  check(vkCreateFence(device_, &fence_info, nullptr, &fence_), "vkCreateFence");

  if (bindings > properties_.limits.maxPerStageDescriptorStorageBuffers)
    throw VulkanError(fmt::format(
        "Vulkan device {} ({}) allows {} storage buffers per shader; dlca needs {}", index,
        properties_.deviceName, properties_.limits.maxPerStageDescriptorStorageBuffers, bindings));
  std::vector<VkDescriptorSetLayoutBinding> layout_bindings(bindings);
  for (uint32_t b = 0; b < bindings; ++b) {
    layout_bindings[b].binding = b;
    layout_bindings[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    layout_bindings[b].descriptorCount = 1;
    layout_bindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  auto set_info =
      make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  set_info.bindingCount = bindings;
  set_info.pBindings = layout_bindings.data();
  check(vkCreateDescriptorSetLayout(device_, &set_info, nullptr, &set_layout_),
        "vkCreateDescriptorSetLayout");
  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  auto layout_info =
      make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout_;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  check(vkCreatePipelineLayout(device_, &layout_info, nullptr, &pipeline_layout_),
        "vkCreatePipelineLayout");
  VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, bindings};
  auto dpool_info = make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  dpool_info.maxSets = 1;
  dpool_info.poolSizeCount = 1;
  dpool_info.pPoolSizes = &pool_size;
  check(vkCreateDescriptorPool(device_, &dpool_info, nullptr, &descriptor_pool_),
        "vkCreateDescriptorPool");
  auto alloc = make<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  alloc.descriptorPool = descriptor_pool_;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &set_layout_;
  check(vkAllocateDescriptorSets(device_, &alloc, &descriptor_set_), "vkAllocateDescriptorSets");
}

Device::~Device() { release(); }

void Device::release() noexcept {
  if (!device_) return;
  vkDeviceWaitIdle(device_);
  for (VkPipeline p : pipelines_) vkDestroyPipeline(device_, p, nullptr);
  if (descriptor_pool_) vkDestroyDescriptorPool(device_, descriptor_pool_, nullptr);
  if (pipeline_layout_) vkDestroyPipelineLayout(device_, pipeline_layout_, nullptr);
  if (set_layout_) vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
  if (fence_) vkDestroyFence(device_, fence_, nullptr);
  if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
  vkDestroyDevice(device_, nullptr);
  pipelines_.clear();
  device_ = VK_NULL_HANDLE;
}

uint64_t Device::device_local_bytes() const {
  uint64_t bytes = 0;
  for (uint32_t h = 0; h < memory_.memoryHeapCount; ++h)
    if (memory_.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      bytes += memory_.memoryHeaps[h].size;
  return bytes;
}

uint32_t Device::memory_type(uint32_t allowed, VkMemoryPropertyFlags wanted,
                             VkMemoryPropertyFlags preferred) const {
  int fallback = -1;
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags flags = memory_.memoryTypes[i].propertyFlags;
    if (!(allowed & (1u << i)) || (flags & wanted) != wanted) continue;
    if ((flags & preferred) == preferred) return i;
    if (fallback < 0) fallback = int(i);
  }
  if (fallback < 0) throw VulkanError("no suitable Vulkan memory type");
  return uint32_t(fallback);
}

VkPipeline Device::create_pipeline(const uint32_t* spirv, size_t bytes,
                                   const std::vector<uint32_t>& constants) {
  auto module_info = make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  module_info.codeSize = bytes;
  module_info.pCode = spirv;
  VkShaderModule module;
  check(vkCreateShaderModule(device_, &module_info, nullptr, &module), "vkCreateShaderModule");
  auto info = make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  std::vector<VkSpecializationMapEntry> entries;
  for (uint32_t i = 0; i < constants.size(); ++i) entries.push_back({i, i * 4, 4});
  const VkSpecializationInfo specialization{uint32_t(entries.size()), entries.data(),
                                            constants.size() * 4, constants.data()};
  if (!constants.empty()) info.stage.pSpecializationInfo = &specialization;
  info.layout = pipeline_layout_;
  VkPipeline pipeline;
  const VkResult r =
      vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  vkDestroyShaderModule(device_, module, nullptr);
  check(r, "vkCreateComputePipelines");
  pipelines_.push_back(pipeline);
  return pipeline;
}

void Device::destroy_pipeline(VkPipeline pipeline) {
  const auto found = std::find(pipelines_.begin(), pipelines_.end(), pipeline);
  if (pipeline == VK_NULL_HANDLE || found == pipelines_.end()) return;
  vkDestroyPipeline(device_, pipeline, nullptr);
  pipelines_.erase(found);
}

void Device::bind(uint32_t binding, const Buffer& buffer) {
  VkDescriptorBufferInfo info{buffer.buffer, 0, VK_WHOLE_SIZE};
  auto write = make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
  write.dstSet = descriptor_set_;
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &info;
  vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
}

void Device::submit_and_wait(VkCommandBuffer commands) {
  auto info = make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  info.commandBufferCount = 1;
  info.pCommandBuffers = &commands;
  check(vkResetFences(device_, 1, &fence_), "vkResetFences");
  check(vkQueueSubmit(queue_, 1, &info, fence_), "vkQueueSubmit");
  check(vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
}

VkCommandBuffer Device::allocate_commands() {
  auto alloc = make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  alloc.commandPool = pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer commands;
  check(vkAllocateCommandBuffers(device_, &alloc, &commands), "vkAllocateCommandBuffers");
  return commands;
}

void Device::copy_now(const Buffer& from, VkDeviceSize from_offset, const Buffer& to,
                      VkDeviceSize to_offset, VkDeviceSize bytes) {
  VkCommandBuffer commands = allocate_commands();
  auto begin = make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
  const VkBufferCopy region{from_offset, to_offset, bytes};
  vkCmdCopyBuffer(commands, from.buffer, to.buffer, 1, &region);
  check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
  try {
    submit_and_wait(commands);
  } catch (...) {
    vkFreeCommandBuffers(device_, pool_, 1, &commands);
    throw;
  }
  vkFreeCommandBuffers(device_, pool_, 1, &commands);
}

void Device::upload_staged(const Buffer& staging, const void* data, const Buffer& to,
                           VkDeviceSize offset, size_t bytes) {
  for (size_t done = 0; done < bytes;) {
    const size_t piece = std::min(bytes - done, size_t(staging.bytes));
    std::memcpy(staging.mapped, static_cast<const char*>(data) + done, piece);
    copy_now(staging, 0, to, offset + done, piece);
    done += piece;
  }
}

void Device::download_staged(const Buffer& from, VkDeviceSize offset, const Buffer& staging,
                             void* out, size_t bytes) {
  for (size_t done = 0; done < bytes;) {
    const size_t piece = std::min(bytes - done, size_t(staging.bytes));
    copy_now(from, offset + done, staging, 0, piece);
    std::memcpy(static_cast<char*>(out) + done, staging.mapped, piece);
    done += piece;
  }
}

}  // namespace dlca::vk
