// The command recorder of the Vulkan training backend (see recorder.hpp).
#include "vulkan/recorder.hpp"

#include <algorithm>

namespace dlca::vk {

using vulkan_layout::kGroupSize;
using vulkan_layout::Push;

Recorder::Recorder(const Device& device, VkCommandBuffer commands, VkQueryPool queries,
                   uint32_t max_queries, uint32_t max_groups)
    : device_(device),
      commands_(commands),
      queries_(queries),
      max_queries_(max_queries),
      max_groups_(max_groups) {
  auto begin = make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  check(vkBeginCommandBuffer(commands_, &begin), "vkBeginCommandBuffer");
  if (queries_) vkCmdResetQueryPool(commands_, queries_, 0, max_queries_);
  const VkDescriptorSet set = device_.descriptor_set();
  vkCmdBindDescriptorSets(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, device_.pipeline_layout(), 0,
                          1, &set, 0, nullptr);
}

VkCommandBuffer Recorder::finish() {
  check(vkEndCommandBuffer(commands_), "vkEndCommandBuffer");
  return commands_;
}

void Recorder::stamp(const char* phase_ended) {
  if (!queries_ || query_ >= max_queries_) return;
  if (query_ > 0) names_.push_back(phase_ended);
  vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_, query_++);
}

void Recorder::copy(const Buffer& from, size_t from_offset, const Buffer& to, size_t to_offset,
                    size_t bytes) {
  if (bytes == 0) return;
  const VkBufferCopy region{from_offset, to_offset, bytes};
  vkCmdCopyBuffer(commands_, from.buffer, to.buffer, 1, &region);
}

void Recorder::fill_zero(const Buffer& buffer) {
  vkCmdFillBuffer(commands_, buffer.buffer, 0, VK_WHOLE_SIZE, 0);
}

void Recorder::barrier(VkAccessFlags extra_access, VkPipelineStageFlags extra_stage) {
  auto mb = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                     VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | extra_access;
  vkCmdPipelineBarrier(
      commands_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | extra_stage, 0, 1,
      &mb, 0, nullptr, 0, nullptr);
}

void Recorder::use(VkPipeline pipeline) {
  if (pipeline == bound_) return;
  bound_ = pipeline;
  vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, bound_);
}

void Recorder::push_constants(const Push& push) {
  vkCmdPushConstants(commands_, device_.pipeline_layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                     sizeof(Push), &push);
}

void Recorder::pass(VkPipeline pipeline, Push push, uint64_t items) {
  use(pipeline);
  const uint64_t groups = (items + kGroupSize - 1) / kGroupSize;
  for (uint64_t done = 0; done < groups; done += max_groups_) {
    push.group_offset = uint32_t(done);
    push_constants(push);
    vkCmdDispatch(commands_, uint32_t(std::min<uint64_t>(max_groups_, groups - done)), 1, 1);
    ++dispatches_;
  }
  barrier();
}

void Recorder::level(VkPipeline pipeline, Push push, std::pair<uint32_t, uint32_t> ops,
                     uint32_t cells_per_group) {
  use(pipeline);
  const uint32_t x_groups = (push.cell_count + cells_per_group - 1) / cells_per_group;
  for (uint32_t done = 0; done < ops.second; done += max_groups_) {
    push.op_begin = ops.first + done;
    push_constants(push);
    vkCmdDispatch(commands_, x_groups, std::min(max_groups_, ops.second - done), 1);
    ++dispatches_;
  }
  barrier();
}

void Recorder::grid(VkPipeline pipeline, const Push& push, uint32_t x_groups, uint32_t y_groups) {
  use(pipeline);
  push_constants(push);
  vkCmdDispatch(commands_, x_groups, y_groups, 1);
  ++dispatches_;
  barrier();
}

}  // namespace dlca::vk
