// The Vulkan backend (see dlca/vulkan/vulkan_backend.hpp). A plan holds everything fixed for one
// model shape and batch: the program tables, device buffers sized for it, the chunking of cells,
// and the recorded command buffers; each rollout only writes the staging buffer (coefficients,
// initial state, masks, target), submits once and reads losses and gate sums back.
#include "dlca/vulkan/vulkan_backend.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "dlca/core/cell_program.hpp"
#include "dlca/core/grid.hpp"
#include "dlca/core/ops.hpp"
#include "training_layout.hpp"
#include "vulkan_context.hpp"

// SPIR-V of shaders/*.comp, generated at build time by glslangValidator.
#include "adamw.spv.h"
#include "backward_level.spv.h"
#include "forward_level.spv.h"
#include "gate_coefficients.spv.h"
#include "gather_patches.spv.h"
#include "hard_gather.spv.h"
#include "hard_level.spv.h"
#include "hard_write.spv.h"
#include "logit_gradient.spv.h"
#include "loss.spv.h"
#include "patch_gradient.spv.h"
#include "perception_backward.spv.h"
#include "perception_forward.spv.h"
#include "reduce_gate_sums.spv.h"
#include "scatter_state_gradient.spv.h"
#include "write_state.spv.h"

namespace dlca {

bool vulkan_built() { return true; }

namespace {

using namespace vulkan_layout;

// Activations (or gradient slots) per chunk of cells, at most: fewer, larger chunks need fewer
// dispatches (measured on an H100, 32 x 64x64 checkerboard: 334 ms per epoch with 1 GiB chunks,
// 418 ms with 256 MiB, 1253 ms with 32 MiB). Also at most 1/8 of the device's memory.
constexpr uint64_t kDefaultChunkBytes = uint64_t(1) << 30;

enum Pipeline {
  kGather,
  kForward,
  kWrite,
  kLoss,
  kBackward,
  kPatchGradient,
  kScatter,
  kReduce,
  kHardGather,
  kHardLevel,
  kHardWrite,
  kGateCoefficients,
  kLogitGradient,
  kAdamW,
  kPerceptionForward,
  kPerceptionBackward,
  kPipelineCount
};

std::string version_string(uint32_t v) {
  return fmt::format("{}.{}.{}", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v),
                     VK_API_VERSION_PATCH(v));
}

uint32_t groups_for(uint64_t items) { return uint32_t((items + kGroupSize - 1) / kGroupSize); }

// Everything that fixes a plan: the program and the batch's shape.
struct PlanKey {
  std::vector<GateOp> ops;
  std::vector<uint32_t> output_rows;
  int batch, height, width, channels, steps;
  bool periodic, async;
  std::vector<int> loss_channels;
  bool operator==(const PlanKey& o) const {
    return batch == o.batch && height == o.height && width == o.width && channels == o.channels &&
           steps == o.steps && periodic == o.periodic && async == o.async &&
           loss_channels == o.loss_channels && output_rows == o.output_rows &&
           ops.size() == o.ops.size() &&
           std::equal(ops.begin(), ops.end(), o.ops.begin(), [](const GateOp& x, const GateOp& y) {
             return x.a == y.a && x.b == y.b && x.out == y.out && x.gate == y.gate;
           });
  }
};

// Where each piece lives in the staging buffer (byte offsets).
struct StagingLayout {
  size_t coefficients, initial_state, masks, target, noise, upload_end;
  size_t optimizer, losses, gate_sums, final_state, train_results, total;
};

}  // namespace

struct VulkanBackend::Impl {
  VulkanBackendOptions options;
  vk::Instance instance;
  vk::Device device;
  std::array<VkPipeline, kPipelineCount> pipelines{};
  VulkanProfile profile;
  VkQueryPool queries = VK_NULL_HANDLE;
  static constexpr uint32_t kMaxQueries = 8;

  // The current plan.
  std::optional<PlanKey> key;
  int num_gates = 0, num_ops = 0, steps = 0;
  size_t state_size = 0;
  uint32_t cells = 0, chunk_cells = 0, chunks = 0, blocks = 0, loss_groups = 0;
  std::vector<std::pair<uint32_t, uint32_t>> levels;  // (first op, op count)
  size_t perception_levels = 0;   // levels[0, perception_levels) are the perception network's
  uint32_t perception_trees = 0;  // kernels x channels: one fused perception workgroup row each
  std::array<vk::Buffer, kBindingCount> buffers;
  vk::Buffer staging;
  StagingLayout layout{};
  std::map<int, VkCommandBuffer> commands;  // by request flags
  std::map<int, int> dispatch_counts;
  std::map<int, std::vector<std::string>> phase_names;

  Impl(VulkanBackendOptions o)
      : options(o),
        instance(o.validation),
        device(instance, o.device, kBindingCount, sizeof(Push)) {
    const std::array<std::pair<const uint32_t*, size_t>, kPipelineCount> code = {{
        {gather_patches_spv, sizeof(gather_patches_spv)},
        {forward_level_spv, sizeof(forward_level_spv)},
        {write_state_spv, sizeof(write_state_spv)},
        {loss_spv, sizeof(loss_spv)},
        {backward_level_spv, sizeof(backward_level_spv)},
        {patch_gradient_spv, sizeof(patch_gradient_spv)},
        {scatter_state_gradient_spv, sizeof(scatter_state_gradient_spv)},
        {reduce_gate_sums_spv, sizeof(reduce_gate_sums_spv)},
        {hard_gather_spv, sizeof(hard_gather_spv)},
        {hard_level_spv, sizeof(hard_level_spv)},
        {hard_write_spv, sizeof(hard_write_spv)},
        {gate_coefficients_spv, sizeof(gate_coefficients_spv)},
        {logit_gradient_spv, sizeof(logit_gradient_spv)},
        {adamw_spv, sizeof(adamw_spv)},
        {perception_forward_spv, sizeof(perception_forward_spv)},
        {perception_backward_spv, sizeof(perception_backward_spv)},
    }};
    for (size_t i = 0; i < code.size(); ++i)
      pipelines[i] = device.create_pipeline(code[i].first, code[i].second);
    if (device.timestamps()) {
      auto info = vk::make<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
      info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      info.queryCount = kMaxQueries;
      vk::check(vkCreateQueryPool(device.handle(), &info, nullptr, &queries), "vkCreateQueryPool");
    }
  }

  ~Impl() {
    vkDeviceWaitIdle(device.handle());
    free_commands();
    if (queries) vkDestroyQueryPool(device.handle(), queries, nullptr);
  }

  void free_commands() {
    for (auto& [flags, cb] : commands)
      vkFreeCommandBuffers(device.handle(), device.command_pool(), 1, &cb);
    commands.clear();
    dispatch_counts.clear();
    phase_names.clear();
  }

  uint32_t max_groups() const {
    const uint32_t device_max = std::min(device.limits().maxComputeWorkGroupCount[0],
                                         device.limits().maxComputeWorkGroupCount[1]);
    return options.max_workgroups ? std::min(options.max_workgroups, device_max) : device_max;
  }
  uint64_t max_binding() const {
    const uint64_t device_max = device.limits().maxStorageBufferRange;
    return options.max_binding_bytes ? std::min(options.max_binding_bytes, device_max) : device_max;
  }

  uint64_t default_chunk_bytes() const {
    return std::max<uint64_t>(std::min(kDefaultChunkBytes, device.device_local_bytes() / 8),
                              uint64_t(16) << 20);
  }
  // Training state: host copies waiting for upload (or last downloaded), and whether the device
  // holds the current one.
  std::vector<float> pending_logits, pending_m, pending_v;
  bool device_state_live = false;

  // `trains_now`: also upload the pending training state.
  void prepare(const Model& model, const Target& target, const RolloutBatch& batch,
               bool trains_now);
  void submit(int flags);
  double loss_sum(int slot) const;  // 0: soft, 1: hard
  void upload(Binding b, const void* data, size_t bytes);
  void download(Binding b, void* out, size_t bytes);
  void download_state();
  void build_plan(PlanKey new_key, const CellProgram& prog, const Model& model,
                  const GridGeometry& geo);
  VkCommandBuffer record(int flags);
};

void VulkanBackend::Impl::build_plan(PlanKey new_key, const CellProgram& prog, const Model& model,
                                     const GridGeometry& geo) {
  vkDeviceWaitIdle(device.handle());
  free_commands();
  key.reset();
  const ExperimentConfig& cfg = model.config;
  num_gates = model.num_gates();
  num_ops = int(prog.ops.size());
  steps = cfg.steps;
  state_size = geo.state_size();
  cells = uint32_t(geo.cells());
  const int C = cfg.channels;

  // Levels: each perception layer (all kernels and channels), then each update layer.
  levels.clear();
  uint32_t next = 0;
  for (const GateLayer& layer : model.perception_layers) {
    levels.push_back({next, uint32_t(layer.count() * C)});
    next += levels.back().second;
  }
  for (const GateLayer& layer : model.update_layers) {
    levels.push_back({next, uint32_t(layer.width)});
    next += levels.back().second;
  }
  if (next != prog.ops.size()) throw vk::VulkanError("vulkan backend: program levels mismatch");

  // Consumers of every row, in op order; gate -> ops.
  std::vector<std::vector<uint32_t>> consumers_of(prog.num_rows);
  std::vector<std::vector<uint32_t>> ops_of(static_cast<size_t>(num_gates));
  std::vector<uint32_t> op_words;
  op_words.reserve(size_t(num_ops) * 4);
  for (size_t o = 0; o < prog.ops.size(); ++o) {
    const GateOp& op = prog.ops[o];
    consumers_of[op.a].push_back(uint32_t(2 * o));
    consumers_of[op.b].push_back(uint32_t(2 * o + 1));
    ops_of[op.gate].push_back(uint32_t(o));
    op_words.insert(op_words.end(), {op.a, op.b, op.out, op.gate});
  }
  std::vector<uint32_t> row_ranges, consumer_list;
  for (const auto& list : consumers_of) {
    row_ranges.push_back(uint32_t(consumer_list.size()));
    consumer_list.insert(consumer_list.end(), list.begin(), list.end());
    row_ranges.push_back(uint32_t(consumer_list.size()));
  }
  std::vector<uint32_t> gate_ops(size_t(num_gates) + 1);
  for (int g = 0; g < num_gates; ++g) gate_ops[size_t(g) + 1] = gate_ops[g] + ops_of[g].size();
  for (auto& v : gate_ops) v += uint32_t(num_gates) + 1;
  for (const auto& list : ops_of) gate_ops.insert(gate_ops.end(), list.begin(), list.end());
  std::vector<uint32_t> program_info(prog.output_rows.begin(), prog.output_rows.end());
  program_info.push_back(uint32_t(cfg.loss_channels.size()));
  for (int c : cfg.loss_channels) program_info.push_back(uint32_t(c));
  program_info.push_back(uint32_t(model.perception_layers.size()));
  for (size_t l = 0; l < model.perception_layers.size(); ++l)
    program_info.insert(program_info.end(),
                        {levels[l].first, uint32_t(model.perception_layers[l].width)});
  perception_levels = model.perception_layers.size();
  perception_trees = uint32_t(cfg.kernels * C);

  // Chunks of cells: activations and slots of a chunk within one binding, blocks within one
  // dispatch dimension.
  const uint64_t binding = max_binding();
  const uint64_t per_cell = uint64_t(std::max<uint32_t>(prog.num_rows, 2 * num_ops)) * 4;
  uint64_t fit = std::min<uint64_t>(
                     binding, options.chunk_bytes ? options.chunk_bytes : default_chunk_bytes()) /
                 per_cell;
  fit = std::min<uint64_t>(fit, uint64_t(max_groups()) * kGroupSize);
  if (fit == 0)
    throw vk::VulkanError(fmt::format(
        "vulkan backend: one cell's activations ({} bytes) exceed the device's storage binding "
        "limit ({} bytes)",
        per_cell, binding));
  if (fit >= kGroupSize) fit = fit / kGroupSize * kGroupSize;
  chunk_cells = uint32_t(std::min<uint64_t>(fit, cells));
  chunks = (cells + chunk_cells - 1) / chunk_cells;
  blocks = groups_for(chunk_cells);
  loss_groups = groups_for(cells);

  const auto floats = [](uint64_t n) { return std::max<uint64_t>(n, 4) * 4; };
  const std::array<uint64_t, kBindingCount> sizes = {
      floats(op_words.size()),
      floats(row_ranges.size()),
      floats(consumer_list.size()),
      floats(uint64_t(num_gates) * 8),
      floats(geo.neighbour.size()),
      floats(geo.inverse.size()),
      floats(geo.state_base.size()),
      floats((uint64_t(cfg.async ? steps : 0) * geo.plane() + 3) / 4),
      floats(uint64_t(steps + 3) * state_size),
      floats(state_size),
      floats(uint64_t(prog.num_rows) * chunk_cells),
      floats(uint64_t(2) * num_ops * chunk_cells),
      floats(2 * state_size),
      floats(uint64_t(9) * C * cells),
      floats(uint64_t(num_ops) * blocks * 4),
      floats(uint64_t(num_gates) * 4),
      floats(gate_ops.size()),
      floats(2 * uint64_t(loss_groups)),
      floats(program_info.size()),
      floats(uint64_t(prog.num_rows) * ((chunk_cells + 31) / 32)),
      floats(uint64_t(num_gates) * kNumOps),
      floats(uint64_t(num_gates) * kNumOps * 2),
      floats(kNumOps * 4),
      floats(kOptimizerScalarCount),
      floats(2),
      floats(uint64_t(num_gates) * kNumOps),
      floats(uint64_t(num_gates) * kNumOps),
  };
  for (uint32_t b = 0; b < kBindingCount; ++b) {
    if (sizes[b] > binding)
      throw vk::VulkanError(fmt::format(
          "vulkan backend: the {} buffer needs {} bytes, more than the device's storage binding "
          "limit of {} bytes (use a smaller batch or grid)",
          kBindingNames[b].shown, sizes[b], binding));
    buffers[b] = vk::Buffer(device, sizes[b], false);
    device.bind(b, buffers[b]);
  }

  // Staging: uploads first, then downloads.
  StagingLayout& L = layout;
  size_t at = 0;
  const auto take = [&](size_t bytes) {
    const size_t start = at;
    at += (bytes + 15) / 16 * 16;
    return start;
  };
  L.coefficients = take(sizes[kCoefficients]);
  L.initial_state = take(state_size * 4);
  L.masks = take(sizes[kMasks]);
  L.target = take(sizes[kTargetValues]);
  L.optimizer = take(sizes[kOptimizerScalars]);
  L.noise = take(sizes[kLogitNoise]);
  L.upload_end = at;
  L.train_results = take(sizes[kTrainResults]);
  L.losses = take(sizes[kLossPartials]);
  L.gate_sums = take(sizes[kGateSums]);
  L.final_state = take(state_size * 4);
  L.total = at;
  staging = vk::Buffer(device, L.total, true);

  // Constant tables: uploaded once, through the staging buffer in pieces.
  const auto upload_vector = [&](Binding b, const auto& v) {
    upload(b, v.data(), v.size() * sizeof(v[0]));
  };
  upload_vector(kOps, op_words);
  upload_vector(kRowConsumers, row_ranges);
  upload_vector(kConsumers, consumer_list);
  upload_vector(kNeighbour, geo.neighbour);
  upload_vector(kInverse, geo.inverse);
  upload_vector(kStateBase, geo.state_base);
  upload_vector(kGateOps, gate_ops);
  upload_vector(kProgramInfo, program_info);
  upload_vector(kOpTable, kOpCoefficients);
  key = std::move(new_key);
}

namespace {
// kTrain: coefficients from the device's logits, and the gradient and AdamW step on the device.
// kNoise (with kTrain): this epoch's logit noise uploaded for the soft pass.
enum Flags { kGradient = 1, kHard = 2, kFinalState = 4, kProfile = 8, kTrain = 16, kNoise = 32 };
}  // namespace

VkCommandBuffer VulkanBackend::Impl::record(int flags) {
  VkCommandBuffer cb = device.allocate_commands();
  commands[flags] = cb;
  auto begin = vk::make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  vk::check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
  const bool profiling = (flags & kProfile) && queries;
  int dispatches = 0;
  uint32_t query = 0;
  std::vector<std::string>& names = phase_names[flags];
  names.clear();
  if (profiling) vkCmdResetQueryPool(cb, queries, 0, kMaxQueries);
  const VkDescriptorSet set = device.descriptor_set();
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, device.pipeline_layout(), 0, 1, &set,
                          0, nullptr);
  const auto stamp = [&](const char* phase_ended) {
    if (!profiling) return;
    if (query > 0) names.push_back(phase_ended);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, query++);
  };
  const auto barrier = [&](VkAccessFlags dst_access = 0, VkPipelineStageFlags dst_stage = 0) {
    auto mb = vk::make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                       VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | dst_access;
    vkCmdPipelineBarrier(
        cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | dst_stage, 0, 1,
        &mb, 0, nullptr, 0, nullptr);
  };
  const auto copy = [&](const vk::Buffer& from, size_t from_offset, const vk::Buffer& to,
                        size_t to_offset, size_t bytes) {
    if (bytes == 0) return;
    const VkBufferCopy region{from_offset, to_offset, bytes};
    vkCmdCopyBuffer(cb, from.buffer, to.buffer, 1, &region);
  };
  VkPipeline bound = VK_NULL_HANDLE;
  const auto use = [&](Pipeline p) {
    if (pipelines[p] == bound) return;
    bound = pipelines[p];
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, bound);
  };
  const auto push_constants = [&](const Push& push) {
    vkCmdPushConstants(cb, device.pipeline_layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push),
                       &push);
  };
  const uint32_t limit = max_groups();
  // A 1D pass over `items`, split into dispatches of at most `limit` workgroups.
  const auto pass = [&](Pipeline p, Push push, uint64_t items) {
    use(p);
    const uint64_t groups = (items + kGroupSize - 1) / kGroupSize;
    for (uint64_t done = 0; done < groups; done += limit) {
      push.group_offset = uint32_t(done);
      push_constants(push);
      vkCmdDispatch(cb, uint32_t(std::min<uint64_t>(limit, groups - done)), 1, 1);
      ++dispatches;
    }
    barrier();
  };
  // One level of gates over a chunk: x = blocks of cells, y = ops (split at `limit`).
  const auto level = [&](Pipeline p, Push push, std::pair<uint32_t, uint32_t> ops) {
    use(p);
    const uint32_t x_groups =  // hard: words of 32 cells
        p == kHardLevel ? (push.cell_count + 32 * kHardLevelGroup - 1) / (32 * kHardLevelGroup)
                        : groups_for(push.cell_count);
    for (uint32_t done = 0; done < ops.second; done += limit) {
      push.op_begin = ops.first + done;
      push_constants(push);
      vkCmdDispatch(cb, x_groups, std::min(limit, ops.second - done), 1);
      ++dispatches;
    }
    barrier();
  };

  const uint32_t S = uint32_t(state_size), C = uint32_t(key->channels);
  Push base;
  base.act_stride = chunk_cells;
  base.blocks = blocks;
  base.channels = C;
  base.plane = uint32_t(key->height * key->width);
  base.total_cells = cells;
  base.num_gates = uint32_t(num_gates);
  base.word_stride = (chunk_cells + 31) / 32;
  const auto chunk_push = [&](Push push, uint32_t chunk) {
    push.cell_offset = chunk * chunk_cells;
    push.cell_count = std::min(chunk_cells, cells - push.cell_offset);
    return push;
  };
  const auto step_of = [&](int s) { return key->async ? uint32_t(s) : kSync; };
  // Gathers the chunk's patches and runs every level forward.
  // The perception trees in one dispatch (y: kernel x channel) when they fit its y dimension.
  const bool fuse_perception = perception_trees <= limit;
  const auto perception = [&](Pipeline p, Push push) {
    use(p);
    push_constants(push);
    vkCmdDispatch(cb, groups_for(push.cell_count), perception_trees, 1);
    ++dispatches;
    barrier();
  };
  const auto forward_chunk = [&](const Push& push) {
    pass(kGather, push, uint64_t(9) * C * push.cell_count);
    for (size_t l = 0; l < levels.size(); ++l) {
      if (fuse_perception && l < perception_levels) {
        if (l == 0) perception(kPerceptionForward, push);
        continue;
      }
      level(kForward, push, levels[l]);
    }
  };
  const auto rollout = [&](bool hard, const auto& in_offset, const auto& out_offset) {
    for (int s = 0; s < steps; ++s)
      for (uint32_t chunk = 0; chunk < chunks; ++chunk) {
        Push push = chunk_push(base, chunk);
        push.hard = hard;
        push.step = step_of(s);
        push.state_in = in_offset(s);
        push.state_out = out_offset(s);
        if (hard) {  // bit-packed: 32 cells per word
          pass(kHardGather, push, uint64_t(9) * C * ((push.cell_count + 31) / 32));
          for (const auto& l : levels) level(kHardLevel, push, l);
          pass(kHardWrite, push, uint64_t(C) * push.cell_count);
        } else {
          forward_chunk(push);
          pass(kWrite, push, uint64_t(C) * push.cell_count);
        }
      }
  };

  stamp("");
  const bool train = flags & kTrain;
  if (train) {
    copy(staging, layout.optimizer, buffers[kOptimizerScalars], 0, kOptimizerScalarCount * 4);
    if (flags & kNoise)
      copy(staging, layout.noise, buffers[kLogitNoise], 0, buffers[kLogitNoise].bytes);
    vkCmdFillBuffer(cb, buffers[kTrainResults].buffer, 0, VK_WHOLE_SIZE, 0);
  } else {
    copy(staging, layout.coefficients, buffers[kCoefficients], 0, buffers[kCoefficients].bytes);
  }
  copy(staging, layout.initial_state, buffers[kStates], 0, size_t(S) * 4);
  if (key->async) copy(staging, layout.masks, buffers[kMasks], 0, buffers[kMasks].bytes);
  copy(staging, layout.target, buffers[kTargetValues], 0, buffers[kTargetValues].bytes);
  if (flags & kGradient) vkCmdFillBuffer(cb, buffers[kStateGradients].buffer, 0, VK_WHOLE_SIZE, 0);
  barrier();
  if (train) pass(kGateCoefficients, base, uint64_t(num_gates));
  stamp("upload");

  rollout(
      false, [&](int s) { return uint32_t(s) * S; }, [&](int s) { return uint32_t(s + 1) * S; });
  Push loss = base;
  loss.state_in = uint32_t(steps) * S;
  pass(kLoss, loss, cells);
  stamp("forward");

  if (flags & kHard) {
    const uint32_t hard_base = uint32_t(steps + 1) * S;
    rollout(
        true, [&](int s) { return s == 0 ? 0u : hard_base + uint32_t((s - 1) % 2) * S; },
        [&](int s) { return hard_base + uint32_t(s % 2) * S; });
    Push hard_loss = base;
    hard_loss.hard = 1;
    hard_loss.state_in = hard_base + uint32_t((steps - 1) % 2) * S;
    hard_loss.loss_slot = loss_groups;
    pass(kLoss, hard_loss, cells);
    stamp("hard rollout");
  }

  if (flags & kGradient) {
    vkCmdFillBuffer(cb, buffers[kPartials].buffer, 0, VK_WHOLE_SIZE, 0);
    barrier();
    uint32_t d_out = 0, d_in = S;
    for (int s = steps - 1; s >= 0; --s) {
      for (uint32_t chunk = 0; chunk < chunks; ++chunk) {
        Push push = chunk_push(base, chunk);
        push.step = step_of(s);
        push.state_in = uint32_t(s) * S;
        push.d_out = d_out;
        forward_chunk(push);  // recompute this step's activations from the stored state
        for (size_t l = levels.size(); l-- > (fuse_perception ? perception_levels : 0);)
          level(kBackward, push, levels[l]);
        if (fuse_perception) perception(kPerceptionBackward, push);
        pass(kPatchGradient, push, uint64_t(9) * C * push.cell_count);
      }
      if (s > 0) {  // the initial state's gradient is not needed
        Push push = base;
        push.step = step_of(s);
        push.d_out = d_out;
        push.d_in = d_in;
        pass(kScatter, push, uint64_t(C) * cells);
        std::swap(d_out, d_in);
      }
    }
    pass(kReduce, base, uint64_t(num_gates));
    stamp("backward");
  }
  if (train) {
    pass(kLogitGradient, base, uint64_t(num_gates));
    pass(kAdamW, base, uint64_t(num_gates) * kNumOps);
    stamp("optimizer");
  }

  copy(buffers[kLossPartials], 0, staging, layout.losses, buffers[kLossPartials].bytes);
  if (flags & kGradient)
    copy(buffers[kGateSums], 0, staging, layout.gate_sums, buffers[kGateSums].bytes);
  if (flags & kFinalState)
    copy(buffers[kStates], size_t(steps) * S * 4, staging, layout.final_state, size_t(S) * 4);
  if (train) copy(buffers[kTrainResults], 0, staging, layout.train_results, 8);
  barrier(VK_ACCESS_HOST_READ_BIT, VK_PIPELINE_STAGE_HOST_BIT);
  stamp("download");
  vk::check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
  dispatch_counts[flags] = dispatches;
  return cb;
}

VulkanBackend::VulkanBackend(VulkanBackendOptions options)
    : impl_(std::make_unique<Impl>(options)) {}
VulkanBackend::~VulkanBackend() = default;

std::string VulkanBackend::name() const { return "vulkan (" + impl_->device.name() + ")"; }
int VulkanBackend::validation_errors() const { return impl_->instance.validation_errors(); }
const VulkanProfile& VulkanBackend::profile() const { return impl_->profile; }

// Builds the plan for this model and batch if needed and writes the epoch's inputs (initial
// states, masks, target) to the staging buffer.
void VulkanBackend::Impl::prepare(const Model& model, const Target& target,
                                  const RolloutBatch& batch, bool trains_now) {
  const ExperimentConfig& cfg = model.config;
  if (batch.batch <= 0 || !batch.initial_state) throw std::invalid_argument("rollout: empty batch");
  if (cfg.async && !batch.fire_masks)
    throw std::invalid_argument("rollout: async config without fire masks");
  const CellProgram prog = build_cell_program(model);
  PlanKey new_key{prog.ops,     prog.output_rows, batch.batch,  cfg.height, cfg.width,
                  cfg.channels, cfg.steps,        cfg.periodic, cfg.async,  cfg.loss_channels};
  if (!key || !(*key == new_key)) {
    if (device_state_live) {  // keep the training state across the rebuild
      download_state();
      device_state_live = false;
    }
    const GridGeometry geo =
        make_grid_geometry(batch.batch, cfg.height, cfg.width, cfg.channels, cfg.periodic);
    build_plan(std::move(new_key), prog, model, geo);
  }
  // Uploads through the staging buffer overwrite the epoch's inputs: they go first.
  if (!device_state_live && trains_now) {
    const size_t n = size_t(num_gates) * kNumOps;
    if (pending_logits.size() != n || pending_m.size() != n || pending_v.size() != n)
      throw std::logic_error("train_epoch: no training state uploaded for this model");
    std::vector<float> moments(pending_m);
    moments.insert(moments.end(), pending_v.begin(), pending_v.end());
    upload(kLogits, pending_logits.data(), n * 4);
    upload(kMoments, moments.data(), moments.size() * 4);
    device_state_live = true;
  }
  char* mapped = static_cast<char*>(staging.mapped);
  std::memcpy(mapped + layout.initial_state, batch.initial_state, state_size * 4);
  if (cfg.async)
    std::memcpy(mapped + layout.masks, batch.fire_masks,
                size_t(cfg.steps) * cfg.height * cfg.width);
  float* target_values = reinterpret_cast<float*>(mapped + layout.target);
  const int plane = cfg.height * cfg.width;
  for (int b = 0; b < batch.batch; ++b)
    for (int c : cfg.loss_channels)
      for (int y = 0; y < cfg.height; ++y)
        for (int x = 0; x < cfg.width; ++x)
          target_values[(size_t(b) * cfg.channels + c) * plane + y * cfg.width + x] =
              target.at(b, c, y, x);
}

// Submits the command buffer for `flags` (recording it the first time) and waits.
void VulkanBackend::Impl::submit(int flags) {
  auto found = commands.find(flags);
  device.submit_and_wait(found != commands.end() ? found->second : record(flags));
  profile.dispatches = dispatch_counts[flags];
  profile.submits = 1;
  profile.chunks = int(chunks);
  profile.phase_ms.clear();
  if (!(flags & kProfile)) return;
  const auto& names = phase_names[flags];
  std::vector<uint64_t> stamps(names.size() + 1);
  vk::check(
      vkGetQueryPoolResults(device.handle(), queries, 0, uint32_t(stamps.size()), stamps.size() * 8,
                            stamps.data(), 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
      "vkGetQueryPoolResults");
  const double period_ms = device.limits().timestampPeriod * 1e-6;
  for (size_t i = 0; i < names.size(); ++i)
    profile.phase_ms.push_back({names[i], double(stamps[i + 1] - stamps[i]) * period_ms});
}

double VulkanBackend::Impl::loss_sum(int slot) const {
  const float* losses =
      reinterpret_cast<const float*>(static_cast<const char*>(staging.mapped) + layout.losses);
  double sum = 0;
  for (uint32_t g = 0; g < loss_groups; ++g) sum += losses[size_t(slot) * loss_groups + g];
  return sum;
}

// Copies a device buffer's first `bytes` into `out`, through the staging buffer in pieces.
void VulkanBackend::Impl::download(Binding b, void* out, size_t bytes) {
  device.download_staged(buffers[b], 0, staging, out, bytes);
}

void VulkanBackend::Impl::upload(Binding b, const void* data, size_t bytes) {
  device.upload_staged(staging, data, buffers[b], 0, bytes);
}

void VulkanBackend::Impl::download_state() {
  const size_t n = size_t(num_gates) * kNumOps;
  pending_logits.resize(n);
  std::vector<float> moments(2 * n);
  download(kLogits, pending_logits.data(), n * 4);
  download(kMoments, moments.data(), 2 * n * 4);
  pending_m.assign(moments.begin(), moments.begin() + long(n));
  pending_v.assign(moments.begin() + long(n), moments.end());
}

RolloutResult VulkanBackend::rollout(const Model& model, const Target& target,
                                     const RolloutBatch& batch, const RolloutRequest& request) {
  Impl& I = *impl_;
  I.prepare(model, target, batch, false);
  // The host's parameters: soft and hard coefficients.
  char* staging = static_cast<char*>(I.staging.mapped);
  std::vector<float> noisy;
  const std::vector<float>& soft_logits =
      soft_pass_logits(model.logits, request.logit_noise, noisy);
  const std::vector<float> soft = soft_coefficients(soft_logits, request.forward_temperature);
  const std::vector<uint8_t> hard = hard_ops(model.logits);
  float* coefficients = reinterpret_cast<float*>(staging + I.layout.coefficients);
  std::memcpy(coefficients, soft.data(), soft.size() * 4);
  for (size_t g = 0; g < hard.size(); ++g)
    std::memcpy(coefficients + (hard.size() + g) * 4, kOpCoefficients[hard[g]].data(), 16);

  const bool profiling = I.options.profile && I.queries;
  I.submit((request.gradient ? kGradient : 0) | (request.hard_loss ? kHard : 0) |
           (request.final_state ? kFinalState : 0) | (profiling ? kProfile : 0));

  RolloutResult result;
  result.soft_loss = I.loss_sum(0);
  if (request.hard_loss) result.hard_loss = I.loss_sum(1);
  if (request.gradient) {
    const float* sums = reinterpret_cast<const float*>(staging + I.layout.gate_sums);
    std::vector<double> gate_sums(sums, sums + size_t(I.num_gates) * 4);
    logit_gradient_from_sums(soft_logits, gate_sums, result.grad);
  }
  if (request.final_state) {
    const float* state = reinterpret_cast<const float*>(staging + I.layout.final_state);
    result.final_state.assign(state, state + I.state_size);
  }
  return result;
}

DeviceTraining* VulkanBackend::device_training() {
  return impl_->options.train_on_device ? this : nullptr;
}

void VulkanBackend::upload_training_state(const Model& model,
                                          const std::vector<float>& first_moment,
                                          const std::vector<float>& second_moment) {
  Impl& I = *impl_;
  I.pending_logits = model.logits;
  I.pending_m = first_moment;
  I.pending_v = second_moment;
  I.device_state_live = false;  // uploaded by the next train_epoch, once the plan exists
}

DeviceEpoch VulkanBackend::train_epoch(const Model& model, const AdamWSettings& settings,
                                       int64_t step, double forward_temperature,
                                       const std::vector<float>* logit_noise, const Target& target,
                                       const RolloutBatch& batch) {
  Impl& I = *impl_;
  I.prepare(model, target, batch, true);
  const float scalars[kOptimizerScalarCount] = {settings.learning_rate,
                                                settings.beta1,
                                                settings.beta2,
                                                settings.eps,
                                                settings.weight_decay,
                                                settings.clip,
                                                1.0f - std::pow(settings.beta1, float(step)),
                                                1.0f - std::pow(settings.beta2, float(step)),
                                                float(1.0 / forward_temperature),
                                                logit_noise ? 1.0f : 0.0f};
  char* staging = static_cast<char*>(I.staging.mapped);
  std::memcpy(staging + I.layout.optimizer, scalars, sizeof(scalars));
  if (logit_noise) {
    if (logit_noise->size() != model.logits.size())
      throw std::invalid_argument("train_epoch: logit noise does not match the logits");
    std::memcpy(staging + I.layout.noise, logit_noise->data(), logit_noise->size() * 4);
  }
  const bool profiling = I.options.profile && I.queries;
  I.submit(kGradient | kHard | kTrain | (logit_noise ? kNoise : 0) | (profiling ? kProfile : 0));
  uint32_t results[2];
  std::memcpy(results, staging + I.layout.train_results, sizeof(results));
  return {I.loss_sum(0), I.loss_sum(1), int(results[0]), results[1] == 0};
}

void VulkanBackend::download_training_state(std::vector<float>& logits,
                                            std::vector<float>& first_moment,
                                            std::vector<float>& second_moment) {
  Impl& I = *impl_;
  if (I.device_state_live) I.download_state();
  logits = I.pending_logits;
  first_moment = I.pending_m;
  second_moment = I.pending_v;
}

std::vector<VulkanDeviceInfo> list_vulkan_devices() {
  try {
    vk::Instance instance(false);
    std::vector<VulkanDeviceInfo> out;
    for (const auto& s : instance.summaries())
      if (s.has_compute)
        out.push_back(
            {s.index, s.name, s.type, version_string(s.api_version), s.device_local_bytes});
    return out;
  } catch (const vk::VulkanError& e) {
    throw std::runtime_error(std::string("Vulkan: ") + e.what());
  }
}

}  // namespace dlca
