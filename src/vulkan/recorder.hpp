// Recording a command buffer of compute passes for the Vulkan training backend: the steps an
// epoch is made of (copies, fills, 1D passes, levels of gates, fused perception), each followed
// by the barrier it needs, split into dispatches within the device's workgroup limit, counted,
// and timed per phase when profiling. vulkan_backend.cpp's `record` writes the epoch's recipe
// with it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "vulkan/training_layout.hpp"
#include "vulkan_context.hpp"

namespace dlca::vk {

class Recorder {
 public:
  // Begins `commands` and binds the device's descriptor set. `queries` (may be null) is reset and
  // receives a timestamp per stamp() when not null; `max_groups` bounds a dispatch dimension.
  Recorder(const Device& device, VkCommandBuffer commands, VkQueryPool queries,
           uint32_t max_queries, uint32_t max_groups);
  // Ends the command buffer.
  VkCommandBuffer finish();

  // Marks the end of a phase (the first call marks the start): its name goes to phase_names().
  void stamp(const char* phase_ended);
  void copy(const Buffer& from, size_t from_offset, const Buffer& to, size_t to_offset,
            size_t bytes);
  void fill_zero(const Buffer& buffer);
  // Makes every earlier write visible to every later read or write (and, with the extra flags,
  // to the host).
  void barrier(VkAccessFlags extra_access = 0, VkPipelineStageFlags extra_stage = 0);
  // A 1D pass over `items` (one invocation each, kGroupSize a workgroup), then a barrier.
  void pass(VkPipeline pipeline, vulkan_layout::Push push, uint64_t items);
  // A level of gates: x = workgroups over the chunk's cells (`cells_per_group` each), y = the
  // level's ops (first op, count), split at the limit; then a barrier.
  void level(VkPipeline pipeline, vulkan_layout::Push push, std::pair<uint32_t, uint32_t> ops,
             uint32_t cells_per_group);
  // One dispatch of x_groups x y_groups, then a barrier.
  void grid(VkPipeline pipeline, const vulkan_layout::Push& push, uint32_t x_groups,
            uint32_t y_groups);

  int dispatches() const { return dispatches_; }
  const std::vector<std::string>& phase_names() const { return names_; }

 private:
  void use(VkPipeline pipeline);
  void push_constants(const vulkan_layout::Push& push);
  const Device& device_;
  VkCommandBuffer commands_;
  VkQueryPool queries_;
  uint32_t max_queries_, max_groups_;
  VkPipeline bound_ = VK_NULL_HANDLE;
  int dispatches_ = 0;
  uint32_t query_ = 0;
  std::vector<std::string> names_;
};

}  // namespace dlca::vk
