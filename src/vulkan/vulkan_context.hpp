// A small layer over the Vulkan C API for dlca's compute work: instance (optionally with the
// validation layer, counting its errors), one device and compute queue, buffers, compute pipelines
// sharing one descriptor set layout, and one-shot command submission. Errors throw VulkanError.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace dlca::vk {

class VulkanError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A Vulkan info structure with its type set and every other field zero.
template <typename T>
T make(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

const char* result_name(VkResult result);
void check(VkResult result, const char* what);  // throws VulkanError naming `what` and the result

struct DeviceSummary {
  int index = 0;
  std::string name;
  std::string type;  // "discrete GPU", "integrated GPU", "CPU", ...
  uint32_t api_version = 0;
  uint64_t device_local_bytes = 0;
  bool has_compute = false;
};

// An instance; `validation` (or the environment variable DLCA_VULKAN_VALIDATION=1) enables
// VK_LAYER_KHRONOS_validation with a messenger that prints and counts its errors.
class Instance {
 public:
  explicit Instance(bool validation);
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;
  VkInstance handle() const { return instance_; }
  std::vector<VkPhysicalDevice> physical_devices() const;
  std::vector<DeviceSummary> summaries() const;
  int validation_errors() const { return *error_count_; }

 private:
  void release() noexcept;  // destroys what exists; the constructor calls it when it throws
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  std::unique_ptr<int> error_count_ = std::make_unique<int>(0);
};

class Device;

struct Buffer {
  Buffer() = default;
  Buffer(Device& device, VkDeviceSize bytes, bool host_visible);
  ~Buffer();
  Buffer(Buffer&& other) noexcept { swap(other); }
  Buffer& operator=(Buffer&& other) noexcept {
    swap(other);
    return *this;
  }
  void swap(Buffer& other) noexcept;

  VkDevice device = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize bytes = 0;
  void* mapped = nullptr;  // host-visible buffers only

 private:
  void create(Device& owner, bool host_visible);
  void release() noexcept;  // destroys what exists; the constructor calls it when it throws
};

// One logical device with a compute queue, a command pool, a descriptor set layout of
// `bindings` storage buffers and a pipeline layout with `push_bytes` of push constants.
class Device {
 public:
  // `int64`: enable 64-bit integers in shaders (shaderInt64); throws if the device lacks them.
  Device(Instance& instance, int index, uint32_t bindings, uint32_t push_bytes, bool int64 = false);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  VkDevice handle() const { return device_; }
  VkQueue queue() const { return queue_; }
  VkCommandPool command_pool() const { return pool_; }
  VkPipelineLayout pipeline_layout() const { return pipeline_layout_; }
  VkDescriptorSet descriptor_set() const { return descriptor_set_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VkPhysicalDeviceLimits& limits() const { return properties_.limits; }
  bool timestamps() const { return timestamp_bits_ > 0; }
  uint64_t device_local_bytes() const;
  std::string name() const { return properties_.deviceName; }
  uint32_t memory_type(uint32_t allowed, VkMemoryPropertyFlags wanted,
                       VkMemoryPropertyFlags preferred) const;

  // `constants`: specialization constants with ids 0, 1, ...
  VkPipeline create_pipeline(const uint32_t* spirv, size_t bytes,
                             const std::vector<uint32_t>& constants = {});
  // Destroys a pipeline create_pipeline made before the device goes (no-op for null).
  void destroy_pipeline(VkPipeline pipeline);
  // Points binding `binding` of the descriptor set at the whole buffer.
  void bind(uint32_t binding, const Buffer& buffer);
  // Submits and waits.
  void submit_and_wait(VkCommandBuffer commands);
  VkCommandBuffer allocate_commands();
  // Copies `bytes` from `from` at `from_offset` into `to` at `to_offset`, and waits.
  void copy_now(const Buffer& from, VkDeviceSize from_offset, const Buffer& to,
                VkDeviceSize to_offset, VkDeviceSize bytes);
  // Copies host memory into `to` at `offset` (and back), in pieces through the host-visible
  // `staging` buffer, waiting for each piece.
  void upload_staged(const Buffer& staging, const void* data, const Buffer& to, VkDeviceSize offset,
                     size_t bytes);
  void download_staged(const Buffer& from, VkDeviceSize offset, const Buffer& staging, void* out,
                       size_t bytes);

 private:
  void create(Instance& instance, int index, uint32_t bindings, uint32_t push_bytes, bool int64);
  void release() noexcept;  // destroys what exists; the constructor calls it when it throws
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  uint32_t timestamp_bits_ = 0;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  VkDescriptorSet descriptor_set_ = VK_NULL_HANDLE;
  std::vector<VkPipeline> pipelines_;
};

}  // namespace dlca::vk
