// The Vulkan big-grid simulator (see dlca/vulkan/vulkan_grid.hpp): bit planes in one device buffer
// holding the current and the next state, a step per dispatch (steps submitted together until the
// host reads the grid), counts reduced per workgroup.
#include "dlca/vulkan/vulkan_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>

#include <fmt/format.h>

#include "dlca/circuits/bit_rows.hpp"
#include "dlca/core/random.hpp"
#include "glsl_compiler.hpp"
#include "grid_shader_source.hpp"
#include "vulkan_context.hpp"

// SPIR-V of shaders/grid_*.comp, generated at build time.
#include "grid_count.spv.h"
#include "grid_step.spv.h"
#include "grid_zero.spv.h"

namespace dlca {

namespace {

constexpr uint32_t kGroupSize = 256;
enum GridBinding : uint32_t {
  kStates,
  kOps,
  kOutputs,
  kPartials,
  kTarget,
  kFireMask,
  kGridBindings
};
constexpr uint32_t kMaskedStep = 0xFFFFFFFFu;  // fire_threshold: use the fire-mask buffer

struct GridPush {
  uint32_t in_offset = 0, out_offset = 0, height = 0, width = 0, row_words = 0, channels = 0,
           periodic = 0, fire_threshold = 0, key_lo = 0, key_hi = 0, num_ops = 0, y0 = 0, x0 = 0,
           y1 = 0, x1 = 0, channel = 0, group_offset = 0;
};

}  // namespace

struct VulkanGrid::Impl {
  vk::Instance instance;
  vk::Device device;
  VkPipeline step_pipeline, zero_pipeline, count_pipeline;
  uint32_t height, width, row_words, channels;
  bool periodic;
  size_t state_words;    // one state: C * H * row_words
  uint32_t current = 0;  // word offset of the current state (0 or state_words)
  uint32_t num_ops, target_channels = 0;
  vk::Buffer states, ops, outputs, partials, target, mask, staging;
  bool generated = false;
  std::string shader_note;

  Impl(const Circuit& circuit, int h, int w, bool wrap, int device_index, bool validation,
       GridShader shader)
      : instance(validation),
        device(instance, device_index, kGridBindings, sizeof(GridPush), true),
        height(uint32_t(h)),
        width(uint32_t(w)),
        row_words((uint32_t(w) + 31) / 32),
        channels(uint32_t(circuit.channels)),
        periodic(wrap) {
    const CircuitProgram program = to_program(circuit);
    const CellProgram& prog = program.program;
    std::vector<uint32_t> op_words;
    for (const GateOp& op : prog.ops)
      op_words.insert(op_words.end(), {op.a, op.b, op.out, program.ops[op.gate]});
    num_ops = uint32_t(prog.ops.size());
    state_words = size_t(channels) * height * row_words;
    const uint64_t limit = device.limits().maxStorageBufferRange;
    if (2 * state_words * 4 > limit)
      throw vk::VulkanError(fmt::format(
          "a {}x{} grid of {} channels needs {} bytes of state, more than the device's storage "
          "binding limit of {} bytes",
          width, height, channels, 2 * state_words * 4, limit));
    const size_t groups = (size_t(height) * row_words + kGroupSize - 1) / kGroupSize;
    states = vk::Buffer(device, 2 * state_words * 4, false);
    ops = vk::Buffer(device, std::max<size_t>(op_words.size(), 4) * 4, false);
    outputs = vk::Buffer(device, std::max<size_t>(channels, 4) * 4, false);
    partials = vk::Buffer(device, std::max<size_t>(groups, 4) * 4, false);
    target = vk::Buffer(device, state_words * 4, false);
    mask = vk::Buffer(device, size_t(height) * row_words * 4, false);
    staging = vk::Buffer(device, std::max<size_t>(state_words, 1024) * 4, true);
    for (auto [b, buffer] : {std::pair{kStates, &states},
                             {kOps, &ops},
                             {kOutputs, &outputs},
                             {kPartials, &partials},
                             {kTarget, &target},
                             {kFireMask, &mask}})
      device.bind(b, *buffer);
    step_pipeline = create_step_pipeline(circuit, prog.num_rows, shader);
    zero_pipeline = device.create_pipeline(grid_zero_spv, sizeof(grid_zero_spv));
    count_pipeline = device.create_pipeline(grid_count_spv, sizeof(grid_count_spv));
    upload(ops, 0, op_words.data(), op_words.size() * 4);
    upload(outputs, 0, prog.output_rows.data(), prog.output_rows.size() * 4);
  }

  // The generated step shader when it compiles (and is wanted), else the interpreter.
  VkPipeline create_step_pipeline(const Circuit& circuit, uint32_t num_rows, GridShader shader) {
    const char* env = std::getenv("DLCA_VULKAN_GENERATED");
    if (shader == GridShader::kAuto && env && std::string(env) == "0") {
      shader = GridShader::kInterpreted;
      shader_note = "DLCA_VULKAN_GENERATED=0";
    }
    if (shader != GridShader::kInterpreted) {
      try {
        const std::vector<uint32_t> spirv = compile_compute_shader(grid_step_source(circuit));
        VkPipeline pipeline = device.create_pipeline(spirv.data(), spirv.size() * 4);
        generated = true;
        return pipeline;
      } catch (const std::exception& e) {
        if (shader == GridShader::kGenerated)
          throw vk::VulkanError(std::string("the circuit's shader: ") + e.what());
        shader_note = e.what();
      }
    }
    return device.create_pipeline(grid_step_spv, sizeof(grid_step_spv), {num_rows});
  }

  void upload(const vk::Buffer& to, size_t offset, const void* data, size_t bytes) {
    device.upload_staged(staging, data, to, offset, bytes);
  }
  void download(const vk::Buffer& from, size_t offset, void* out, size_t bytes) {
    device.download_staged(from, offset, staging, out, bytes);
  }

  GridPush base() const {
    GridPush p;
    p.in_offset = current;
    p.out_offset = uint32_t(state_words) - current;
    p.height = height;
    p.width = width;
    p.row_words = row_words;
    p.channels = channels;
    p.periodic = periodic;
    p.num_ops = num_ops;
    return p;
  }

  // Steps and damage are recorded into one command buffer, a barrier between passes, and submitted
  // together when the host next needs the grid (flush), or every kMaxPendingPasses passes: one
  // submit-and-wait per step cost a GPU about as much as the step itself.
  static constexpr int kMaxPendingPasses = 512;
  VkCommandBuffer pending = VK_NULL_HANDLE;
  int pending_passes = 0;

  // Records `items` invocations of `pipeline`, split into dispatches within the device's limit.
  void record(VkPipeline pipeline, GridPush push, uint64_t items) {
    if (pending == VK_NULL_HANDLE) {
      VkCommandBuffer cb = device.allocate_commands();
      auto begin = vk::make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
      begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
      if (vkBeginCommandBuffer(cb, &begin) != VK_SUCCESS) {
        vkFreeCommandBuffers(device.handle(), device.command_pool(), 1, &cb);
        throw vk::VulkanError("vkBeginCommandBuffer failed");
      }
      pending = cb;
      const VkDescriptorSet set = device.descriptor_set();
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, device.pipeline_layout(), 0, 1,
                              &set, 0, nullptr);
    } else {  // the previous pass's writes before this pass's reads and writes
      auto mb = vk::make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
      mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
      mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
      vkCmdPipelineBarrier(pending, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
    }
    vkCmdBindPipeline(pending, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    const uint64_t groups = (items + kGroupSize - 1) / kGroupSize;
    const uint32_t limit = device.limits().maxComputeWorkGroupCount[0];
    for (uint64_t done = 0; done < groups; done += limit) {
      push.group_offset = uint32_t(done);
      vkCmdPushConstants(pending, device.pipeline_layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                         sizeof(push), &push);
      vkCmdDispatch(pending, uint32_t(std::min<uint64_t>(limit, groups - done)), 1, 1);
    }
    if (++pending_passes >= kMaxPendingPasses) flush();
  }

  // Submits the recorded passes and waits for them.
  void flush() {
    if (pending == VK_NULL_HANDLE) return;
    VkCommandBuffer cb = pending;
    pending = VK_NULL_HANDLE;
    pending_passes = 0;
    try {
      vk::check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
      device.submit_and_wait(cb);
    } catch (...) {
      vkFreeCommandBuffers(device.handle(), device.command_pool(), 1, &cb);
      throw;
    }
    vkFreeCommandBuffers(device.handle(), device.command_pool(), 1, &cb);
  }

  // Records a pass and runs everything recorded.
  void run(VkPipeline pipeline, GridPush push, uint64_t items) {
    record(pipeline, push, items);
    flush();
  }

  ~Impl() {
    if (pending != VK_NULL_HANDLE)  // recorded work nobody asked for: dropped
      vkFreeCommandBuffers(device.handle(), device.command_pool(), 1, &pending);
  }

  void step(uint32_t fire_threshold, uint64_t key) {
    GridPush p = base();
    p.fire_threshold = fire_threshold;
    p.key_lo = uint32_t(key);
    p.key_hi = uint32_t(key >> 32);
    record(step_pipeline, p, uint64_t(height) * row_words);
    current = p.out_offset;
  }

  uint64_t count(uint32_t channel, bool against_target) {
    GridPush p = base();
    p.channel = channel;
    p.num_ops = against_target;
    const uint64_t words = uint64_t(height) * row_words;
    run(count_pipeline, p, words);
    std::vector<uint32_t> counts((words + kGroupSize - 1) / kGroupSize);
    download(partials, 0, counts.data(), counts.size() * 4);
    uint64_t n = 0;
    for (uint32_t c : counts) n += c;
    return n;
  }

  // Packs `planes` planes of rows (channels 0..k-1 from `rows`, the others 0) straight into the
  // staging buffer, then copies them into `to` at word `offset`.
  void upload_rows(uint32_t planes, uint32_t k, const CellRowSource& rows, const vk::Buffer& to,
                   size_t offset) {
    auto* words = static_cast<uint32_t*>(staging.mapped);
    std::vector<uint8_t> row(width, 0);
    for (uint32_t c = 0; c < planes; ++c)
      for (uint32_t y = 0; y < height; ++y) {
        if (c < k)
          rows(int(c), int(y), row.data());
        else
          std::fill(row.begin(), row.end(), 0);
        pack_bit_row(row.data(), int(width), words + (size_t(c) * height + y) * row_words);
      }
    device.copy_now(staging, 0, to, offset * 4, size_t(planes) * height * row_words * 4);
  }
};

VulkanGrid::VulkanGrid(const Circuit& circuit, int height, int width, bool periodic, int device,
                       bool validation, GridShader shader) {
  require_grid_channels(circuit.channels);  // as the CPU's BitGrid
  try {
    impl_ = std::make_unique<Impl>(circuit, height, width, periodic, device, validation, shader);
  } catch (const vk::VulkanError& e) {
    throw std::runtime_error(std::string("Vulkan: ") + e.what());
  }
}
VulkanGrid::~VulkanGrid() = default;

std::string VulkanGrid::name() const {
  return "vulkan (" + impl_->device.name() +
         (impl_->generated ? ", the circuit's shader)" : ", interpreting shader)");
}
int VulkanGrid::validation_errors() const { return impl_->instance.validation_errors(); }
bool VulkanGrid::generated_shader() const { return impl_->generated; }
const std::string& VulkanGrid::shader_note() const { return impl_->shader_note; }

int VulkanGrid::channels() const { return int(impl_->channels); }
int VulkanGrid::height() const { return int(impl_->height); }
int VulkanGrid::width() const { return int(impl_->width); }

void VulkanGrid::set_state_rows(int k, const CellRowSource& rows) {
  Impl& I = *impl_;
  I.flush();
  I.upload_rows(I.channels, uint32_t(std::clamp(k, 0, int(I.channels))), rows, I.states, I.current);
}

void VulkanGrid::step() { impl_->step(0, 0); }

void VulkanGrid::step_async(double fire_rate, uint64_t key) {
  // The shader fires draw k when k + 1 < threshold: k < firing_draws, training's rule (random.hpp).
  impl_->step(firing_draws(float(fire_rate)) + 1, key);
}

void VulkanGrid::step_masked(const uint8_t* fire_mask) {
  Impl& I = *impl_;
  I.flush();  // the mask buffer is rewritten: the step that read it must have run
  I.upload_rows(
      1, 1,
      [&](int, int y, uint8_t* row) { std::copy_n(fire_mask + size_t(y) * I.width, I.width, row); },
      I.mask, 0);
  I.step(kMaskedStep, 0);
}

void VulkanGrid::zero_rectangle(int y0, int x0, int rows, int columns) {
  Impl& I = *impl_;
  const int y1 = std::min(int(I.height), y0 + rows), x1 = std::min(int(I.width), x0 + columns);
  y0 = std::max(0, y0);
  x0 = std::max(0, x0);
  if (y0 >= y1 || x0 >= x1) return;
  GridPush p = I.base();
  p.y0 = uint32_t(y0);
  p.y1 = uint32_t(y1);
  p.x0 = uint32_t(x0);
  p.x1 = uint32_t(x1);
  I.record(I.zero_pipeline, p, uint64_t(I.channels) * uint32_t(y1 - y0) * I.row_words);
}

uint64_t VulkanGrid::count(int channel) { return impl_->count(uint32_t(channel), false); }

void VulkanGrid::finish() { impl_->flush(); }

void VulkanGrid::set_target_rows(int k, const CellRowSource& rows) {
  Impl& I = *impl_;
  I.flush();
  I.target_channels = uint32_t(std::clamp(k, 0, int(I.channels)));
  if (I.target_channels > 0) I.upload_rows(I.target_channels, I.target_channels, rows, I.target, 0);
}

uint64_t VulkanGrid::error() {
  uint64_t e = 0;
  for (uint32_t c = 0; c < impl_->target_channels; ++c) e += impl_->count(c, true);
  return e;
}

void VulkanGrid::read_state_rows(int k, const CellRowSink& rows) {
  Impl& I = *impl_;
  I.flush();
  const uint32_t planes = uint32_t(std::clamp(k, 0, int(I.channels)));
  if (planes == 0) return;
  // The planes come back through the staging buffer (it holds a whole state) and are unpacked
  // from there a row at a time.
  I.device.copy_now(I.states, size_t(I.current) * 4, I.staging, 0,
                    size_t(planes) * I.height * I.row_words * 4);
  const auto* words = static_cast<const uint32_t*>(I.staging.mapped);
  std::vector<uint8_t> row(I.width);
  for (uint32_t c = 0; c < planes; ++c)
    for (uint32_t y = 0; y < I.height; ++y) {
      unpack_bit_row(words + (size_t(c) * I.height + y) * I.row_words, int(I.width), row.data());
      rows(int(c), int(y), row.data());
    }
}

}  // namespace dlca
