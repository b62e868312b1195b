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
#include "dlca/core/option_names.hpp"
#include "vulkan/fused_tables.hpp"
#include "vulkan/population_program.hpp"
#include "vulkan/program_tables.hpp"
#include "vulkan/recorder.hpp"
#include "vulkan/training_layout.hpp"
#include "vulkan_context.hpp"

// SPIR-V of shaders/*.comp, generated at build time by glslangValidator: the training pipelines'
// table (generated from src/vulkan/CMakeLists.txt) and the fused step kernels, made per plan.
#include "fused_backward.spv.h"
#include "fused_forward.spv.h"
#include "fused_hard.spv.h"
#include "training_shaders.h"

namespace dlca {

bool vulkan_built() { return true; }

namespace {

using namespace vulkan_layout;

// Activations (or gradient slots) per chunk of cells, at most: fewer, larger chunks need fewer
// dispatches (measured on an H100, 32 x 64x64 checkerboard: 334 ms per epoch with 1 GiB chunks,
// 418 ms with 256 MiB, 1253 ms with 32 MiB). Also at most 1/8 of the device's memory.
constexpr uint64_t kDefaultChunkBytes = uint64_t(1) << 30;
// Fused kernels: cells (or words) per tile at most, and workgroups of the backward kernel at most
// (each owns a column of the per-op partial sums, so they bound that buffer).
constexpr uint32_t kMaxTile = 64;
constexpr uint32_t kMaxFusedBackwardGroups = 512;

using namespace training_shaders;  // enum Pipeline, one per training shader, and their code

// The fused step kernels' pipelines, made per plan (their tile sizes are specialization constants).
enum FusedPipeline { kFusedForward, kFusedHard, kFusedBackward, kFusedPipelineCount };

std::string version_string(uint32_t v) {
  return fmt::format("{}.{}.{}", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v),
                     VK_API_VERSION_PATCH(v));
}

// DLCA_VULKAN_FUSED=1 in the environment runs the fused step kernels, =0 the level-by-level path
// (for comparisons).
VulkanBackendOptions with_environment(VulkanBackendOptions o) {
  const char* fused = std::getenv("DLCA_VULKAN_FUSED");
  if (fused && std::string(fused) == "1") o.fused = true;
  if (fused && std::string(fused) == "0") o.fused = false;
  return o;
}

uint32_t groups_for(uint64_t items) { return uint32_t((items + kGroupSize - 1) / kGroupSize); }

// Everything that fixes a plan: the (merged) program and the batch's shape. `channels` and
// `loss_channels` are one candidate's.
struct PlanKey {
  std::vector<GateOp> ops;
  std::vector<uint32_t> output_rows;
  int candidates, batch, height, width, channels, steps;
  bool periodic, async;
  std::vector<int> loss_channels;
  int loss_steps;
  bool operator==(const PlanKey& o) const {
    return candidates == o.candidates && loss_steps == o.loss_steps && batch == o.batch &&
           height == o.height && width == o.width && channels == o.channels && steps == o.steps &&
           periodic == o.periodic && async == o.async && loss_channels == o.loss_channels &&
           output_rows == o.output_rows && ops.size() == o.ops.size() &&
           std::equal(ops.begin(), ops.end(), o.ops.begin(), [](const GateOp& x, const GateOp& y) {
             return x.a == y.a && x.b == y.b && x.out == y.out && x.gate == y.gate;
           });
  }
};

// Where each piece lives in the staging buffer (byte offsets).
struct StagingLayout {
  size_t coefficients, initial_state, masks, target, noise, hardened, upload_end;
  size_t optimizer, losses, gate_sums, final_state, train_results, total;
};

// One model's epoch (or rollout) in a plan: candidate k of the plan is inputs[k].
struct EpochInput {
  const Model* model = nullptr;
  const Target* target = nullptr;
  RolloutBatch batch;
  int member = -1;  // the population member training it; -1: a rollout of the host's parameters
  const std::vector<float>* logit_noise = nullptr;  // training: this epoch's, when it has any
  const std::vector<uint8_t>* hardened = nullptr;   // training: progressive hardening's flags
};

}  // namespace

struct VulkanBackend::Impl : DevicePopulation {
  VulkanBackendOptions options;
  vk::Instance instance;
  vk::Device device;
  std::array<VkPipeline, kPipelineCount> pipelines{};
  VulkanProfile profile;
  VkQueryPool queries = VK_NULL_HANDLE;
  static constexpr uint32_t kMaxQueries = 8;

  // The current plan. num_gates and channels count every candidate's.
  std::optional<PlanKey> key;
  int candidates = 1, num_gates = 0, num_ops = 0, steps = 0;
  int loss_steps = 1;             // the loss scores states steps - loss_steps + 1 .. steps
  int gate_parameters = kNumOps;  // of the model trained on the device: 16 logits or 4 angles
  size_t state_size = 0;
  uint32_t cells = 0, chunk_cells = 0, chunks = 0, blocks = 0, loss_groups = 0;
  std::vector<std::pair<uint32_t, uint32_t>> levels;  // (first op, op count)
  size_t perception_levels = 0;   // levels[0, perception_levels) are the perception network's
  uint32_t perception_trees = 0;  // kernels x channels: one fused perception workgroup row each
  uint32_t tensors = 0;           // parameter tensors of one candidate (--grad-norm)
  std::array<vk::Buffer, kBindingCount> buffers;
  // The fused path (when the plan's tiles fit the device's shared memory): pipelines, tile sizes
  // (cells; words for the hard rollout) and workgroups per dispatch.
  bool fused = false;
  std::array<VkPipeline, kFusedPipelineCount> fused_pipelines{};
  uint32_t forward_tile = 0, hard_tile = 0, backward_tile = 0;
  uint32_t forward_groups = 0, hard_groups = 0, backward_groups = 0;
  vk::Buffer staging;
  StagingLayout layout{};
  std::map<int, VkCommandBuffer> commands;  // by request flags
  std::map<int, int> dispatch_counts;
  std::map<int, std::vector<std::string>> phase_names;

  Impl(VulkanBackendOptions o)
      : options(with_environment(o)),
        instance(o.validation),
        device(instance, o.device, kBindingCount, sizeof(Push)) {
    for (size_t i = 0; i < kPipelineCount; ++i)
      pipelines[i] = device.create_pipeline(kShaderCode[i].words, kShaderCode[i].bytes);
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
    free_fused_pipelines();
    if (queries) vkDestroyQueryPool(device.handle(), queries, nullptr);
  }

  void free_fused_pipelines() {
    for (VkPipeline& p : fused_pipelines) {
      device.destroy_pipeline(p);
      p = VK_NULL_HANDLE;
    }
    fused = false;
  }
  // Chooses the fused path when the options allow it and a tile of one cell (word) fits the
  // shared memory; makes its pipelines and fills the tile sizes. The rollouts' dispatches cover
  // every cell; the backward's, `largest_chunk` cells (its activations are kept per chunk).
  void plan_fused(const FusedTables& tables, uint32_t largest_chunk);
  uint64_t shared_bytes() const {
    const uint64_t device_max = device.limits().maxComputeSharedMemorySize;
    return options.max_shared_bytes ? std::min(options.max_shared_bytes, device_max) : device_max;
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
  // The population's members (VulkanBackend::add_member): each one's training state as the host
  // last had it (uploaded, or downloaded), and which members' state the device holds, in the
  // plan's candidate order (empty: none). `pending_current`: the host copies of the live members
  // equal the device's (nothing trained since they were downloaded).
  struct MemberState {
    const DeviceTraining* view = nullptr;  // the member's backend; null once it is gone
    std::vector<float> logits, first_moment, second_moment;
    // The trainer's copy is the current state (it uploaded it, or downloaded it since the member
    // last trained).
    bool trainer_current = false;
  };
  std::vector<MemberState> members;
  std::vector<int> live;
  bool pending_current = false;
  int member_index(const DeviceTraining* view) const;
  bool holds(int member) const { return std::find(live.begin(), live.end(), member) != live.end(); }

  // Builds the plan for these inputs if needed and writes their data to the staging buffer.
  // `trains_now`: the device holds the inputs' members' training state afterwards (uploaded from
  // the host copies when it held another's).
  void prepare(std::span<const EpochInput> inputs, bool trains_now);
  void submit(int flags);
  double loss_sum(int slot, int candidate = 0) const;  // slot 0: soft, 1: hard
  std::vector<DeviceEpoch> train_epochs(std::span<DeviceTraining* const> members,
                                        std::span<const DeviceEpochRequest> requests) override;
  // The epochs of `inputs` (their members), requests[k] that of inputs[k] (AdamW's settings the
  // first's, the step, temperature and noise each one's own).
  std::vector<DeviceEpoch> train_together(std::span<const EpochInput> inputs,
                                          std::span<const DeviceEpochRequest> requests);
  void upload(Binding b, const void* data, size_t bytes);
  void download(Binding b, void* out, size_t bytes);
  void download_state();
  void build_plan(PlanKey new_key, const CellProgram& prog, const Model& model,
                  const GridGeometry& geo);
  // The parts of build_plan, in order.
  void plan_chunks(uint64_t per_cell);
  void make_buffers(const std::array<uint64_t, kBindingCount>& sizes);
  void make_staging(const std::array<uint64_t, kBindingCount>& sizes);
  void upload_tables(const ProgramTables& tables, const FusedTables& fused_tables,
                     const GridGeometry& geo);
  VkCommandBuffer record(int flags);
  // The parts of record, in order.
  void record_inputs(vk::Recorder& r, int flags);
  void record_rollout(vk::Recorder& r, bool hard);
  // Where the hard rollout's two alternating states begin in the states buffer (after the soft
  // rollout's steps + 1).
  uint32_t hard_base() const { return uint32_t(steps + 1) * uint32_t(state_size); }
  void record_backward(vk::Recorder& r);
  void record_optimizer(vk::Recorder& r, int flags);
  void record_outputs(vk::Recorder& r, int flags);
  void record_forward_chunk(vk::Recorder& r, const Push& push);
  // The loss of window state `state` (at element `offset` of the states), scored into its slot;
  // `gradient` (kLossOnly, kLossSet, kLossAdd) what it does to d_state at `d_out`.
  void record_loss(vk::Recorder& r, bool hard, int state, uint32_t offset, uint32_t gradient,
                   uint32_t d_out);
  int first_loss_state() const { return steps - loss_steps + 1; }
  Push base_push() const;                            // the plan's constants
  Push chunk_push(Push push, uint32_t chunk) const;  // and a chunk's cells
  Push whole_batch_push() const;                     // and every cell
  uint32_t step_flag(int step) const;                // `step` of a push: kSync when synchronous
  // The perception trees in one dispatch (y: kernel x channel) when they fit its y dimension.
  bool fuse_perception() const { return perception_trees <= max_groups(); }
};

void VulkanBackend::Impl::build_plan(PlanKey new_key, const CellProgram& prog, const Model& model,
                                     const GridGeometry& geo) {
  vkDeviceWaitIdle(device.handle());
  free_commands();
  free_fused_pipelines();
  key.reset();
  const ExperimentConfig& cfg = model.config;
  candidates = new_key.candidates;
  loss_steps = new_key.loss_steps;
  num_gates = model.num_gates() * candidates;
  num_ops = int(prog.ops.size());
  steps = cfg.steps;
  state_size = geo.state_size();
  cells = uint32_t(geo.cells());
  const int C = cfg.channels * candidates;

  ProgramTables tables = make_program_tables(prog, model, candidates);
  const FusedTables fused_tables = make_fused_tables(prog, tables);
  const bool may_fuse =
      options.fused && fused_tile(std::max(fused_tables.forward_slots, fused_tables.backward_slots),
                                  shared_bytes(), kMaxTile) > 0;
  levels = tables.levels;
  perception_levels = tables.perception_levels;
  perception_trees = tables.perception_trees;

  // Fused: a chunk's activations only (the gradients stay in shared memory).
  plan_chunks(uint64_t(may_fuse ? prog.num_rows : std::max<uint32_t>(prog.num_rows, 2 * num_ops)) *
              4);
  if (may_fuse) plan_fused(fused_tables, chunk_cells);

  const std::array<uint64_t, kBindingCount> sizes =
      binding_bytes(tables, fused_tables,
                    {.num_gates = uint64_t(num_gates),
                     .num_ops = uint64_t(num_ops),
                     .num_rows = prog.num_rows,
                     .steps = uint64_t(steps),
                     .state_size = state_size,
                     .cells = cells,
                     .plane = uint64_t(geo.plane()),
                     .channels = uint64_t(C),
                     .candidates = uint64_t(candidates),
                     .async = cfg.async,
                     .chunk_cells = chunk_cells,
                     .blocks = blocks,
                     .loss_groups = loss_groups,
                     .loss_steps = uint64_t(loss_steps),
                     .fused = fused});
  make_buffers(sizes);
  make_staging(sizes);
  upload_tables(tables, fused_tables, geo);
  key = std::move(new_key);
}

// Chunks of cells for `per_cell` bytes of activations a cell: a chunk's activations and slots
// within one binding, its blocks within one dispatch dimension.
void VulkanBackend::Impl::plan_chunks(uint64_t per_cell) {
  const uint64_t binding = max_binding();
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
}

// The device buffers of the plan, each within the device's storage binding limit.
void VulkanBackend::Impl::make_buffers(const std::array<uint64_t, kBindingCount>& sizes) {
  const uint64_t binding = max_binding();
  for (uint32_t b = 0; b < kBindingCount; ++b) {
    if (sizes[b] > binding)
      throw vk::VulkanError(fmt::format(
          "vulkan backend: the {} buffer needs {} bytes, more than the device's storage binding "
          "limit of {} bytes (use a smaller batch or grid{})",
          kBindingNames[b].shown, sizes[b], binding,
          candidates > 1
              ? ", or fewer than " + option_with_value("starts", std::to_string(candidates))
              : ""));
    buffers[b] = vk::Buffer(device, sizes[b], false);
    device.bind(b, buffers[b]);
  }
}

// The staging buffer's layout: uploads first, then downloads.
void VulkanBackend::Impl::make_staging(const std::array<uint64_t, kBindingCount>& sizes) {
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
  L.hardened = take(size_t(num_gates) * 4);
  L.upload_end = at;
  L.train_results = take(sizes[kTrainResults]);
  L.losses = take(sizes[kLossPartials]);
  L.gate_sums = take(sizes[kGateSums]);
  L.final_state = take(state_size * 4);
  L.total = at;
  staging = vk::Buffer(device, L.total, true);
}

// Constant tables: uploaded once, through the staging buffer in pieces.
void VulkanBackend::Impl::upload_tables(const ProgramTables& tables,
                                        const FusedTables& fused_tables, const GridGeometry& geo) {
  const auto upload_vector = [&](Binding b, const auto& v) {
    upload(b, v.data(), v.size() * sizeof(v[0]));
  };
  upload_vector(kOps, tables.op_words);
  upload_vector(kRowConsumers, tables.row_ranges);
  upload_vector(kConsumers, tables.consumers);
  upload_vector(kNeighbour, geo.neighbour);
  upload_vector(kInverse, geo.inverse);
  upload_vector(kStateBase, geo.state_base);
  upload_vector(kGateOps, tables.gate_ops);
  upload_vector(kProgramInfo, tables.program_info);
  std::vector<uint32_t> gate_tables(size_t(num_gates), 0u);  // no gate hardened yet
  gate_tables.insert(gate_tables.end(), tables.tensor_norms.begin(), tables.tensor_norms.end());
  upload_vector(kGateTables, gate_tables);
  tensors = tables.tensor_norms[0];
  upload_vector(kOpTable, kOpCoefficients);
  if (fused) {
    upload_vector(kFusedOps, fused_tables.forward_ops);
    upload_vector(kFusedBackwardOps, fused_tables.backward_ops);
    upload_vector(kFusedGather, fused_tables.gather);
    upload_vector(kFusedInfo, fused_tables.info);
  }
}

void VulkanBackend::Impl::plan_fused(const FusedTables& tables, uint32_t largest_chunk) {
  const uint64_t shared = shared_bytes();
  forward_tile = fused_tile(tables.forward_slots, shared, kMaxTile);
  hard_tile = forward_tile;  // words: 32 cells each
  backward_tile =
      fused_tile(std::max(tables.forward_slots, tables.backward_slots), shared, kMaxTile);
  const auto tiles = [](uint64_t items, uint32_t tile) { return (items + tile - 1) / tile; };
  const uint64_t limit = max_groups();
  forward_groups = uint32_t(std::min<uint64_t>(tiles(cells, forward_tile), limit));  // all cells
  hard_groups = uint32_t(std::min<uint64_t>(tiles((cells + 31) / 32, hard_tile), limit));
  // Each backward workgroup owns a column of per-op partial sums: their buffer must fit a binding
  // (a population's many ops leave fewer columns).
  const uint64_t columns = std::max<uint64_t>(max_binding() / (uint64_t(num_ops) * 16), 1);
  backward_groups = uint32_t(std::min<uint64_t>(
      {tiles(largest_chunk, backward_tile), limit, uint64_t(kMaxFusedBackwardGroups), columns}));
  blocks = backward_groups;  // the partial sums' columns: one per backward workgroup
  const auto make = [&](const uint32_t* code, size_t bytes, uint32_t tile, uint32_t slots) {
    return device.create_pipeline(code, bytes, {tile, tile * std::max(slots, 1u)});
  };
  fused_pipelines[kFusedForward] =
      make(fused_forward_spv, sizeof(fused_forward_spv), forward_tile, tables.forward_slots);
  fused_pipelines[kFusedHard] =
      make(fused_hard_spv, sizeof(fused_hard_spv), hard_tile, tables.forward_slots);
  fused_pipelines[kFusedBackward] =
      make(fused_backward_spv, sizeof(fused_backward_spv), backward_tile,
           std::max(tables.forward_slots, tables.backward_slots));
  fused = true;
}

namespace {
// kTrain: coefficients from the device's logits, and the gradient and AdamW step on the device.
// kNoise (with kTrain): this epoch's logit noise uploaded for the soft pass. kHardened (with
// kTrain): progressive hardening's flags uploaded.
enum Flags {
  kGradient = 1,
  kHard = 2,
  kFinalState = 4,
  kProfile = 8,
  kTrain = 16,
  kNoise = 32,
  kHardened = 64,
  kGradNorm = 128,  // with kTrain: each tensor's gradient normalised (--grad-norm)
  // With kGradient and kHard: the hard rollout's final state feeds the soft one's gradient
  // (--hard-feedback; each candidate's beta among the optimizer scalars, uploaded).
  kHardFeedback = 256
};
}  // namespace

// The pieces of an epoch, in the order `record` puts them.

Push VulkanBackend::Impl::base_push() const {
  Push base;
  base.act_stride = chunk_cells;
  base.blocks = blocks;
  base.channels = uint32_t(key->channels * candidates);
  base.plane = uint32_t(key->height * key->width);
  base.total_cells = cells;
  base.num_gates = uint32_t(num_gates);
  base.word_stride = (chunk_cells + 31) / 32;
  base.candidates = uint32_t(candidates);
  return base;
}

Push VulkanBackend::Impl::whole_batch_push() const {
  Push push = base_push();
  push.cell_count = cells;
  return push;
}

Push VulkanBackend::Impl::chunk_push(Push push, uint32_t chunk) const {
  push.cell_offset = chunk * chunk_cells;
  push.cell_count = std::min(chunk_cells, cells - push.cell_offset);
  return push;
}

uint32_t VulkanBackend::Impl::step_flag(int step) const {
  return key->async ? uint32_t(step) : kSync;
}

// The epoch's inputs from the staging buffer: coefficients (or, training on the device, the
// optimizer's scalars, the noise and the coefficients computed from the device's logits), the
// initial states, the masks and the target; gradients zeroed.
void VulkanBackend::Impl::record_inputs(vk::Recorder& r, int flags) {
  const size_t S = state_size;
  if (flags & (kTrain | kHardFeedback))
    r.copy(staging, layout.optimizer, buffers[kOptimizerScalars], 0,
           buffers[kOptimizerScalars].bytes);
  if (flags & kTrain) {
    if (flags & kNoise)
      r.copy(staging, layout.noise, buffers[kLogitNoise], 0, buffers[kLogitNoise].bytes);
    if (flags & kHardened)
      r.copy(staging, layout.hardened, buffers[kGateTables], 0, size_t(num_gates) * 4);
    r.fill_zero(buffers[kTrainResults]);
  } else {
    r.copy(staging, layout.coefficients, buffers[kCoefficients], 0, buffers[kCoefficients].bytes);
  }
  r.copy(staging, layout.initial_state, buffers[kStates], 0, S * 4);
  if (key->async) r.copy(staging, layout.masks, buffers[kMasks], 0, buffers[kMasks].bytes);
  r.copy(staging, layout.target, buffers[kTargetValues], 0, buffers[kTargetValues].bytes);
  if (flags & kGradient) r.fill_zero(buffers[kStateGradients]);
  r.barrier();
  if (flags & kTrain) r.pass(pipelines[kGateCoefficients], base_push(), uint64_t(num_gates));
}

// One chunk's patches gathered and every level run forward (the perception trees in one dispatch
// when they fit its y dimension).
void VulkanBackend::Impl::record_forward_chunk(vk::Recorder& r, const Push& push) {
  const uint32_t C = uint32_t(key->channels * candidates);
  r.pass(pipelines[kGatherPatches], push, uint64_t(9) * C * push.cell_count);
  for (size_t l = 0; l < levels.size(); ++l) {
    if (fuse_perception() && l < perception_levels) {
      if (l == 0)
        r.grid(pipelines[kPerceptionForward], push, groups_for(push.cell_count), perception_trees);
      continue;
    }
    r.level(pipelines[kForwardLevel], push, levels[l], kGroupSize);
  }
}

// The soft rollout (every step's state kept: steps 0..S), or the hard one (bit-packed, 32 cells a
// word; two alternating states after the initial one), chunk by chunk, then its loss.
void VulkanBackend::Impl::record_rollout(vk::Recorder& r, bool hard) {
  const uint32_t S = uint32_t(state_size), C = uint32_t(key->channels * candidates);
  const uint32_t hard_base = this->hard_base();
  // Fused, the rollouts keep no activations in device memory: one dispatch per step covers every
  // cell, whatever the chunks.
  const uint32_t rollout_chunks = fused ? 1 : chunks;
  for (int s = 0; s < steps; ++s) {
    for (uint32_t chunk = 0; chunk < rollout_chunks; ++chunk) {
      Push push = fused ? whole_batch_push() : chunk_push(base_push(), chunk);
      push.hard = hard;
      push.step = step_flag(s);
      if (hard) {
        push.state_in = s == 0 ? 0u : hard_base + uint32_t((s - 1) % 2) * S;
        push.state_out = hard_base + uint32_t(s % 2) * S;
        if (fused) {
          r.grid(fused_pipelines[kFusedHard], push, hard_groups, 1);
          continue;
        }
        r.pass(pipelines[kHardGather], push, uint64_t(9) * C * ((push.cell_count + 31) / 32));
        for (const auto& l : levels) r.level(pipelines[kHardLevel], push, l, 32 * kHardLevelGroup);
        r.pass(pipelines[kHardWrite], push, uint64_t(C) * push.cell_count);
      } else {
        push.state_in = uint32_t(s) * S;
        push.state_out = uint32_t(s + 1) * S;
        if (fused) {
          r.grid(fused_pipelines[kFusedForward], push, forward_groups, 1);
          continue;
        }
        record_forward_chunk(r, push);
        r.pass(pipelines[kWriteState], push, uint64_t(C) * push.cell_count);
      }
    }
    // The hard states alternate: each one in the loss window is scored as soon as it exists.
    if (hard && s + 1 >= first_loss_state())
      record_loss(r, true, s + 1, hard_base + uint32_t(s % 2) * S, kLossOnly, 0);
  }
  // The soft states are all kept: the window's losses after the rollout, dL/dstate of the last
  // (the others' gradients join the backward pass at their step).
  if (!hard)
    for (int state = first_loss_state(); state <= steps; ++state)
      record_loss(r, false, state, uint32_t(state) * S, state == steps ? kLossSet : kLossOnly, 0);
}

void VulkanBackend::Impl::record_loss(vk::Recorder& r, bool hard, int state, uint32_t offset,
                                      uint32_t gradient, uint32_t d_out) {
  Push loss = base_push();
  loss.hard = hard;
  loss.state_in = offset;
  loss.loss_gradient = gradient;
  loss.d_out = d_out;
  // Each candidate's own row of loss_groups workgroups (loss.comp), per state of the window.
  const uint32_t window_slot = uint32_t((hard ? loss_steps : 0) + state - first_loss_state());
  loss.loss_slot = window_slot * uint32_t(candidates) * loss_groups;
  r.pass(pipelines[kLoss], loss, uint64_t(candidates) * loss_groups * kGroupSize);
}

// Back through the steps: each chunk's activations recomputed from the stored state, the levels
// backward, the patch gradients, then the state gradient scattered to the previous step; finally
// the per-gate sums reduced in a fixed order.
void VulkanBackend::Impl::record_backward(vk::Recorder& r) {
  const uint32_t S = uint32_t(state_size), C = uint32_t(key->channels * candidates);
  r.fill_zero(buffers[kPartials]);
  r.barrier();
  uint32_t d_out = 0, d_in = S;
  for (int s = steps - 1; s >= 0; --s) {
    for (uint32_t chunk = 0; chunk < chunks; ++chunk) {
      Push push = chunk_push(base_push(), chunk);
      push.step = step_flag(s);
      push.state_in = uint32_t(s) * S;
      push.d_out = d_out;
      if (fused) {
        r.grid(fused_pipelines[kFusedBackward], push, backward_groups, 1);
        continue;
      }
      record_forward_chunk(r, push);
      for (size_t l = levels.size(); l-- > (fuse_perception() ? perception_levels : 0);)
        r.level(pipelines[kBackwardLevel], push, levels[l], kGroupSize);
      if (fuse_perception())
        r.grid(pipelines[kPerceptionBackward], push, groups_for(push.cell_count), perception_trees);
      r.pass(pipelines[kPatchGradient], push, uint64_t(9) * C * push.cell_count);
    }
    if (s > 0) {  // the initial state's gradient is not needed
      Push push = base_push();
      push.step = step_flag(s);
      push.d_out = d_out;
      push.d_in = d_in;
      r.pass(pipelines[kScatterStateGradient], push, uint64_t(C) * cells);
      // A state of the loss window before the last: its loss's gradient joins here.
      if (s >= first_loss_state()) record_loss(r, false, s, uint32_t(s) * S, kLossAdd, d_in);
      std::swap(d_out, d_in);
    }
  }
  r.pass(pipelines[kReduceGateSums], base_push(), uint64_t(num_gates));
}

// The logit gradient from the gate sums, and AdamW on the device's logits and moments.
void VulkanBackend::Impl::record_optimizer(vk::Recorder& r, int flags) {
  r.pass(pipelines[kLogitGradient], base_push(), uint64_t(num_gates));
  if (flags & kGradNorm) r.grid(pipelines[kTensorNorm], base_push(), tensors, uint32_t(candidates));
  // Enough invocations for 16 logits a gate; with input-wise gates those past 4 a gate return.
  r.pass(pipelines[kAdamw], base_push(), uint64_t(num_gates) * kNumOps);
}

// The results to the staging buffer, visible to the host: losses, gate sums, final state, the
// device step's results.
void VulkanBackend::Impl::record_outputs(vk::Recorder& r, int flags) {
  const size_t S = state_size;
  r.copy(buffers[kLossPartials], 0, staging, layout.losses, buffers[kLossPartials].bytes);
  if (flags & kGradient)
    r.copy(buffers[kGateSums], 0, staging, layout.gate_sums, buffers[kGateSums].bytes);
  if (flags & kFinalState)
    r.copy(buffers[kStates], size_t(steps) * S * 4, staging, layout.final_state, S * 4);
  if (flags & kTrain)
    r.copy(buffers[kTrainResults], 0, staging, layout.train_results, size_t(candidates) * 8);
  r.barrier(VK_ACCESS_HOST_READ_BIT, VK_PIPELINE_STAGE_HOST_BIT);
}

// An epoch's command buffer for the request `flags`: the recipe.
VkCommandBuffer VulkanBackend::Impl::record(int flags) {
  const bool profiling = (flags & kProfile) && queries;
  VkCommandBuffer cb = device.allocate_commands();
  commands[flags] = cb;  // freed with the plan, also if recording throws
  vk::Recorder r(device, cb, profiling ? queries : VK_NULL_HANDLE, kMaxQueries, max_groups());
  r.stamp("");
  record_inputs(r, flags);
  r.stamp("upload");
  record_rollout(r, false);
  r.stamp("forward");
  if (flags & kHard) {
    record_rollout(r, true);
    // The hard final state's errors join the soft final state's gradient (d_state's first tensor,
    // where the backward pass starts).
    if ((flags & kHardFeedback) && (flags & kGradient))
      record_loss(r, true, steps, hard_base() + uint32_t((steps - 1) % 2 * state_size),
                  kLossHardFeedback, 0);
    r.stamp("hard rollout");
  }
  if (flags & kGradient) {
    record_backward(r);
    r.stamp("backward");
  }
  if (flags & kTrain) {
    record_optimizer(r, flags);
    r.stamp("optimizer");
  }
  record_outputs(r, flags);
  r.stamp("download");
  dispatch_counts[flags] = r.dispatches();
  phase_names[flags] = r.phase_names();
  return r.finish();
}

VulkanBackend::VulkanBackend(VulkanBackendOptions options)
    : VulkanBackend(std::make_shared<Impl>(options), 0) {}

VulkanBackend::VulkanBackend(std::shared_ptr<Impl> impl, int member)
    : impl_(std::move(impl)), member_(member) {
  if (impl_->members.size() <= size_t(member)) impl_->members.resize(size_t(member) + 1);
  impl_->members[size_t(member)].view = this;
}

VulkanBackend::~VulkanBackend() {
  Impl::MemberState& mine = impl_->members[size_t(member_)];
  mine = {};  // its state is gone; the device's copy is never read again
}

std::unique_ptr<VulkanBackend> VulkanBackend::add_member() {
  if (!impl_->options.train_on_device)  // host-side AdamW runs candidates on threads at once
    throw std::invalid_argument("vulkan backend: a population's members train on the device");
  return std::unique_ptr<VulkanBackend>(new VulkanBackend(impl_, int(impl_->members.size())));
}

std::string VulkanBackend::name() const { return "vulkan (" + impl_->device.name() + ")"; }
int VulkanBackend::validation_errors() const { return impl_->instance.validation_errors(); }
const VulkanProfile& VulkanBackend::profile() const { return impl_->profile; }

int VulkanBackend::Impl::member_index(const DeviceTraining* view) const {
  for (size_t m = 0; m < members.size(); ++m)
    if (members[m].view == view) return int(m);
  throw std::invalid_argument("vulkan backend: a population's member is not one of its backends");
}

void VulkanBackend::Impl::prepare(std::span<const EpochInput> inputs, bool trains_now) {
  const Model& first = *inputs[0].model;
  const ExperimentConfig& cfg = first.config;
  for (const EpochInput& in : inputs) {
    const ExperimentConfig& c = in.model->config;
    if (in.batch.batch <= 0 || !in.batch.initial_state)
      throw std::invalid_argument("rollout: empty batch");
    if (c.async && !in.batch.fire_masks)
      throw std::invalid_argument("rollout: async config without fire masks");
    if (in.batch.batch != inputs[0].batch.batch || c.height != cfg.height || c.width != cfg.width ||
        c.steps != cfg.steps || c.periodic != cfg.periodic || c.async != cfg.async ||
        c.loss_channels != cfg.loss_channels || c.gates != cfg.gates ||
        c.loss_steps != cfg.loss_steps)
      throw std::invalid_argument("vulkan backend: a population's candidates differ in shape");
  }
  std::vector<const Model*> models;
  for (const EpochInput& in : inputs) models.push_back(in.model);
  const CellProgram prog = population_program(models);
  const int K = int(inputs.size()), C = cfg.channels;
  PlanKey new_key{
      prog.ops,  prog.output_rows, K,         inputs[0].batch.batch, cfg.height,    cfg.width, C,
      cfg.steps, cfg.periodic,     cfg.async, cfg.loss_channels,     cfg.loss_steps};
  if (!key || !(*key == new_key)) {
    download_state();  // keep the training state across the rebuild
    live.clear();
    const GridGeometry geo =
        make_grid_geometry(inputs[0].batch.batch, cfg.height, cfg.width, K * C, cfg.periodic);
    build_plan(std::move(new_key), prog, first, geo);
  }
  gate_parameters = parameters_per_gate(cfg.gates);
  // Uploads through the staging buffer overwrite the epoch's inputs: they go first.
  std::vector<int> wanted;
  for (const EpochInput& in : inputs) wanted.push_back(in.member);
  if (trains_now && live != wanted) {
    download_state();
    const size_t n = size_t(num_gates / K) * size_t(gate_parameters);
    std::vector<float> logits, moments;
    for (const int m : wanted) {
      const MemberState& state = members[size_t(m)];
      if (state.logits.size() != n || state.first_moment.size() != n ||
          state.second_moment.size() != n)
        throw std::logic_error("train_epoch: no training state uploaded for this model");
      logits.insert(logits.end(), state.logits.begin(), state.logits.end());
    }
    for (const int m : wanted)
      moments.insert(moments.end(), members[size_t(m)].first_moment.begin(),
                     members[size_t(m)].first_moment.end());
    for (const int m : wanted)
      moments.insert(moments.end(), members[size_t(m)].second_moment.begin(),
                     members[size_t(m)].second_moment.end());
    live.clear();  // until both uploads are done, the device holds no member's state
    upload(kLogits, logits.data(), logits.size() * 4);
    upload(kMoments, moments.data(), moments.size() * 4);
    live = wanted;
    pending_current = true;
  }
  // Inputs in the merged layout: states [batch][candidate][channel][y][x], masks
  // [step][candidate][y][x], the target as the states.
  char* mapped = static_cast<char*>(staging.mapped);
  const size_t plane = size_t(cfg.height) * size_t(cfg.width), one = size_t(C) * plane;
  float* state = reinterpret_cast<float*>(mapped + layout.initial_state);
  float* target_values = reinterpret_cast<float*>(mapped + layout.target);
  for (int k = 0; k < K; ++k) {
    const EpochInput& in = inputs[size_t(k)];
    for (int b = 0; b < in.batch.batch; ++b) {
      std::memcpy(state + (size_t(b) * K + size_t(k)) * one, in.batch.initial_state + b * one,
                  one * 4);
      for (int c : cfg.loss_channels)
        for (int y = 0; y < cfg.height; ++y)
          for (int x = 0; x < cfg.width; ++x)
            target_values[(size_t(b) * K + size_t(k)) * one + size_t(c) * plane +
                          size_t(y) * cfg.width + x] = in.target->at(b, c, y, x);
    }
    if (cfg.async)
      for (int step = 0; step < cfg.steps; ++step)
        std::memcpy(mapped + layout.masks + (size_t(step) * K + size_t(k)) * plane,
                    in.batch.fire_masks + size_t(step) * plane, plane);
  }
}

// Submits the command buffer for `flags` (recording it the first time) and waits.
void VulkanBackend::Impl::submit(int flags) {
  auto found = commands.find(flags);
  if (flags & kTrain) pending_current = false;  // the device's state moves on (even if this throws)
  device.submit_and_wait(found != commands.end() ? found->second : record(flags));
  profile.dispatches = dispatch_counts[flags];
  profile.submits = 1;
  profile.chunks = int(chunks);
  profile.fused = fused;
  profile.tile_cells = fused ? int(backward_tile) : 0;
  profile.candidates = candidates;
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

double VulkanBackend::Impl::loss_sum(int slot, int candidate) const {
  const float* losses =
      reinterpret_cast<const float*>(static_cast<const char*>(staging.mapped) + layout.losses);
  double sum = 0;  // the window's states in order, each candidate's workgroups in order
  for (int state = 0; state < loss_steps; ++state) {
    const size_t row = size_t(slot * loss_steps + state) * size_t(candidates) + size_t(candidate);
    for (uint32_t g = 0; g < loss_groups; ++g) sum += losses[row * loss_groups + g];
  }
  return sum;
}

// Copies a device buffer's first `bytes` into `out`, through the staging buffer in pieces.
void VulkanBackend::Impl::download(Binding b, void* out, size_t bytes) {
  device.download_staged(buffers[b], 0, staging, out, bytes);
}

void VulkanBackend::Impl::upload(Binding b, const void* data, size_t bytes) {
  device.upload_staged(staging, data, buffers[b], 0, bytes);
}

// The live members' training state to their host copies (nothing when those are current).
void VulkanBackend::Impl::download_state() {
  if (live.empty() || pending_current) return;
  const size_t K = live.size(), n = size_t(num_gates) * size_t(gate_parameters) / K;
  std::vector<float> logits(K * n), moments(2 * K * n);
  download(kLogits, logits.data(), logits.size() * 4);
  download(kMoments, moments.data(), moments.size() * 4);
  const auto part = [n](const std::vector<float>& all, size_t offset) {
    return std::vector<float>(all.begin() + long(offset), all.begin() + long(offset + n));
  };
  for (size_t k = 0; k < K; ++k) {
    MemberState& state = members[size_t(live[k])];
    state.logits = part(logits, k * n);
    state.first_moment = part(moments, k * n);
    state.second_moment = part(moments, (K + k) * n);
  }
  pending_current = true;
}

RolloutResult VulkanBackend::rollout(const Model& model, const Target& target,
                                     const RolloutBatch& batch, const RolloutRequest& request) {
  Impl& I = *impl_;
  const EpochInput input{&model, &target, batch, -1};
  I.prepare({&input, 1}, false);
  // The host's parameters: soft and hard coefficients.
  char* staging = static_cast<char*>(I.staging.mapped);
  std::vector<float> noisy;
  const std::vector<float>& soft_logits =
      soft_pass_logits(model.logits, request.logit_noise, noisy);
  std::vector<float> soft =
      soft_coefficients(model.config.gates, soft_logits, request.forward_temperature);
  const std::vector<uint8_t> no_hardened;
  const std::vector<uint8_t>& hardened =
      request.hardened_gates ? *request.hardened_gates : no_hardened;
  use_hardened_ops(model.config.gates, model.logits, hardened, soft);
  const std::vector<uint8_t> hard = hard_ops(model);
  float* coefficients = reinterpret_cast<float*>(staging + I.layout.coefficients);
  std::memcpy(coefficients, soft.data(), soft.size() * 4);
  for (size_t g = 0; g < hard.size(); ++g)
    std::memcpy(coefficients + (hard.size() + g) * 4, kOpCoefficients[hard[g]].data(), 16);

  const bool feedback = request.gradient && request.hard_feedback != 0.0;
  if (feedback) {  // its beta, the one optimizer scalar the rollout reads
    std::vector<float> scalars(optimizer_scalar_floats(1), 0.0f);
    scalars[kOptimizerCandidateBase + 5] = float(request.hard_feedback);
    std::memcpy(staging + I.layout.optimizer, scalars.data(), scalars.size() * 4);
  }
  const bool profiling = I.options.profile && I.queries;
  I.submit((request.gradient ? kGradient : 0) | (request.hard_loss || feedback ? kHard : 0) |
           (feedback ? kHardFeedback : 0) | (request.final_state ? kFinalState : 0) |
           (profiling ? kProfile : 0));

  RolloutResult result;
  result.soft_loss = I.loss_sum(0);
  if (request.hard_loss) result.hard_loss = I.loss_sum(1);
  if (request.gradient) {
    const float* sums = reinterpret_cast<const float*>(staging + I.layout.gate_sums);
    std::vector<double> gate_sums(sums, sums + size_t(I.num_gates) * 4);
    logit_gradient_from_sums(model.config.gates, soft_logits, gate_sums, result.grad);
    zero_hardened_gradient(model.config.gates, hardened, result.grad);
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

DevicePopulation* VulkanBackend::population() { return impl_.get(); }

void VulkanBackend::upload_training_state(const Model& model,
                                          const std::vector<float>& first_moment,
                                          const std::vector<float>& second_moment) {
  Impl& I = *impl_;
  // The device's copy of this member goes stale: the others' are kept on the host first, and
  // the next epoch uploads every member it trains.
  if (I.holds(member_)) {
    I.download_state();
    I.live.clear();
  }
  Impl::MemberState& state = I.members[size_t(member_)];
  state.logits = model.logits;
  state.first_moment = first_moment;
  state.second_moment = second_moment;
  state.trainer_current = true;
}

DeviceEpoch VulkanBackend::train_epoch(const DeviceEpochRequest& request) {
  DeviceTraining* self = this;
  return impl_->train_epochs({&self, 1}, {&request, 1})[0];
}

std::vector<DeviceEpoch> VulkanBackend::Impl::train_epochs(
    std::span<DeviceTraining* const> trained, std::span<const DeviceEpochRequest> requests) {
  if (trained.size() != requests.size() || trained.empty())
    throw std::invalid_argument("train_epochs: one request per member");
  // Members train together when they share AdamW's settings but the learning rate (always so for
  // the candidates of one run, whatever epoch each is at: steps, learning rates, temperatures and
  // noise are per candidate); otherwise each in its own submission.
  const DeviceEpochRequest& first = requests[0];
  const auto same_scalars = [&](const DeviceEpochRequest& r) {
    const AdamWSettings &a = r.settings, &b = first.settings;
    return a.beta1 == b.beta1 && a.beta2 == b.beta2 && a.eps == b.eps &&
           a.weight_decay == b.weight_decay && a.clip == b.clip &&
           a.normalize_per_tensor == b.normalize_per_tensor;
  };
  std::vector<EpochInput> inputs;
  for (size_t k = 0; k < trained.size(); ++k)
    inputs.push_back({requests[k].model, requests[k].target, requests[k].batch,
                      member_index(trained[k]), requests[k].logit_noise,
                      requests[k].hardened_gates});
  if (std::all_of(requests.begin(), requests.end(), same_scalars))
    return train_together(inputs, requests);
  std::vector<DeviceEpoch> out;
  for (size_t k = 0; k < inputs.size(); ++k)
    out.push_back(train_together({&inputs[k], 1}, {&requests[k], 1})[0]);
  return out;
}

std::vector<DeviceEpoch> VulkanBackend::Impl::train_together(
    std::span<const EpochInput> inputs, std::span<const DeviceEpochRequest> requests) {
  prepare(inputs, true);
  const AdamWSettings& settings = requests[0].settings;
  std::vector<float> scalars(optimizer_scalar_floats(uint32_t(inputs.size())), 0.0f);
  // ([0] is unused: each candidate's learning rate is its own, below.)
  const float shared[kOptimizerSharedScalars] = {
      0.0f,
      settings.beta1,
      settings.beta2,
      settings.eps,
      settings.weight_decay,
      settings.clip,
      0.0f,
      0.0f,
      0.0f,
      0.0f,
      requests[0].model->config.gates == GateKind::kInputWise ? 1.0f : 0.0f};
  std::copy(std::begin(shared), std::end(shared), scalars.begin());
  const bool hardened = std::any_of(inputs.begin(), inputs.end(), [](const EpochInput& in) {
    return in.hardened && !in.hardened->empty();
  });
  scalars[6] = hardened ? 1.0f : 0.0f;
  scalars[7] = settings.normalize_per_tensor ? 1.0f : 0.0f;
  bool noise = false, feedback = false;
  for (size_t k = 0; k < requests.size(); ++k) {  // each candidate's own epoch
    const DeviceEpochRequest& r = requests[k];
    float* own = scalars.data() + kOptimizerCandidateBase + kOptimizerCandidateScalars * k;
    own[0] = 1.0f - std::pow(settings.beta1, float(r.step));
    own[1] = 1.0f - std::pow(settings.beta2, float(r.step));
    own[2] = float(1.0 / r.forward_temperature);
    own[3] = r.logit_noise ? 1.0f : 0.0f;
    own[4] = r.settings.learning_rate;
    own[5] = float(r.hard_feedback);
    noise = noise || r.logit_noise;
    feedback = feedback || r.hard_feedback != 0.0;
  }
  char* mapped = static_cast<char*>(staging.mapped);
  std::memcpy(mapped + layout.optimizer, scalars.data(), scalars.size() * 4);
  if (noise) {  // each member's noise, laid out as its logits, in the plan's candidate order
    size_t at = layout.noise;
    for (const EpochInput& in : inputs) {
      if (in.logit_noise && in.logit_noise->size() != in.model->logits.size())
        throw std::invalid_argument("train_epoch: logit noise does not match the logits");
      if (in.logit_noise)
        std::memcpy(mapped + at, in.logit_noise->data(), in.logit_noise->size() * 4);
      at += in.model->logits.size() * 4;
    }
  }
  if (hardened) {  // each member's flags, one word per gate, in the plan's candidate order
    uint32_t* flags = reinterpret_cast<uint32_t*>(mapped + layout.hardened);
    for (const EpochInput& in : inputs) {
      const size_t gates = size_t(in.model->num_gates());
      if (in.hardened && !in.hardened->empty() && in.hardened->size() != gates)
        throw std::invalid_argument("train_epoch: hardened gates do not match the model");
      for (size_t g = 0; g < gates; ++g)
        flags[g] = in.hardened && !in.hardened->empty() ? (*in.hardened)[g] : 0u;
      flags += gates;
    }
  }
  for (const EpochInput& in : inputs) members[size_t(in.member)].trainer_current = false;
  const bool profiling = options.profile && queries;
  submit(kGradient | kHard | kTrain | (noise ? kNoise : 0) | (hardened ? kHardened : 0) |
         (settings.normalize_per_tensor ? kGradNorm : 0) | (feedback ? kHardFeedback : 0) |
         (profiling ? kProfile : 0));
  std::vector<uint32_t> results(2 * inputs.size());
  std::memcpy(results.data(), mapped + layout.train_results, results.size() * 4);
  std::vector<DeviceEpoch> out;
  for (size_t k = 0; k < inputs.size(); ++k)
    out.push_back(
        {loss_sum(0, int(k)), loss_sum(1, int(k)), int(results[2 * k]), results[2 * k + 1] == 0});
  return out;
}

bool VulkanBackend::download_training_state(std::vector<float>& logits,
                                            std::vector<float>& first_moment,
                                            std::vector<float>& second_moment) {
  Impl& I = *impl_;
  Impl::MemberState& state = I.members[size_t(member_)];
  if (state.trainer_current) return false;
  if (I.holds(member_)) I.download_state();
  logits = state.logits;
  first_moment = state.first_moment;
  second_moment = state.second_moment;
  state.trainer_current = true;
  return true;
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
