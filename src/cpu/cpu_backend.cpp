// The fast CPU backend (see cpu_backend.hpp). One epoch: forward over all steps storing only grid
// states, loss, then backward step by step (recomputing a tile's activations when checkpointing),
// scattering patch gradients back to the previous state, and finally the hard loss, bit-sliced.
#include "dlca/cpu/cpu_backend.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <hwy/aligned_allocator.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>

#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/cell_program.hpp"
#include "dlca/core/parallel_for_index.hpp"
#include "flush_denormals.hpp"
#include "gate_kernels.hpp"

namespace dlca {

namespace {

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// At most this many gradient accumulators; tiles are split among them in contiguous runs. Fixed
// (not derived from the thread count), so the summation order never depends on the machine.
constexpr int kMaxChunks = 32;

}  // namespace

// The buffers of CpuBackend::Impl: in a named namespace, as a member's type from the anonymous
// one is a -Wsubobject-linkage warning when this file is compiled inside a unity file.
namespace cpu_backend_buffers {

struct AlignedBuffer {
  hwy::AlignedFreeUniquePtr<float[]> data;
  size_t size = 0;
  float* get(size_t n) {
    if (size < n) {
      data = hwy::AllocateAligned<float>(n);
      if (!data) throw std::bad_alloc();
      size = n;
    }
    return data.get();
  }
};

struct Scratch {
  AlignedBuffer act, grad;
};

}  // namespace cpu_backend_buffers

using cpu_backend_buffers::AlignedBuffer;
using cpu_backend_buffers::Scratch;

int arena_concurrency(int requested) {
  return requested > 0 ? std::min(requested, tbb::info::default_concurrency())
                       : tbb::task_arena::automatic;
}

int default_tile_cells(uint32_t rows) {
  // Activations + gradients of one tile: well inside L2, and small enough to give several tiles per
  // thread (measured on the checkerboard: 32 cells per tile beat 16, 48, 64 and 128).
  constexpr size_t kBudgetBytes = size_t(5) << 18;  // 1.25 MiB
  const size_t cells = kBudgetBytes / (2 * sizeof(float) * std::max<uint32_t>(rows, 1));
  return int(
      std::clamp<size_t>(cells / kernels::kRowAlign * kernels::kRowAlign, kernels::kRowAlign, 512));
}

int tile_cells_for(int requested, uint32_t rows, int64_t cells) {
  const int64_t tile = requested > 0 ? requested : default_tile_cells(rows);
  return int(std::min<int64_t>(
      tile, int64_t(round_up(size_t(std::max<int64_t>(cells, 1)), kernels::kRowAlign))));
}

namespace {

uint64_t sum_from_1(const std::vector<int>& v) {
  uint64_t s = 0;
  for (size_t i = 1; i < v.size(); ++i) s += uint64_t(std::max(v[i], 0));
  return s;
}

// The rows of the configuration's cell program (cell_program.hpp): the patch, every perception
// gate once per channel, the update gates.
uint64_t program_rows(const ExperimentConfig& cfg) {
  const uint64_t C = uint64_t(std::max(cfg.channels, 0)), K = uint64_t(std::max(cfg.kernels, 0));
  return 9 * C + C * K * sum_from_1(cfg.perception_layers) + sum_from_1(cfg.update_layers);
}

}  // namespace

int training_tile_cells(const ExperimentConfig& cfg, int requested) {
  return tile_cells_for(requested, uint32_t(std::min<uint64_t>(program_rows(cfg), UINT32_MAX)),
                        int64_t(cfg.batch) * cfg.height * cfg.width);
}

uint64_t cpu_training_bytes(const ExperimentConfig& cfg, const CpuBackendOptions& options) {
  const uint64_t C = uint64_t(std::max(cfg.channels, 0)), K = uint64_t(std::max(cfg.kernels, 0));
  const uint64_t rows = program_rows(cfg);
  const uint64_t gates = K * sum_from_1(cfg.perception_layers) + sum_from_1(cfg.update_layers);
  const uint64_t cells = uint64_t(std::max(cfg.batch, 0)) * uint64_t(std::max(cfg.height, 0)) *
                         uint64_t(std::max(cfg.width, 0));
  const uint64_t steps = uint64_t(std::max(cfg.steps, 0)), state = cells * C;
  const uint64_t tile =
      uint64_t(tile_cells_for(options.tile_cells, uint32_t(std::min<uint64_t>(rows, UINT32_MAX)),
                              int64_t(std::min<uint64_t>(cells, INT64_MAX))));
  const uint64_t stride = round_up(tile, kernels::kRowAlign), tiles = (cells + tile - 1) / tile;
  const uint64_t threads = options.threads > 0
                               ? uint64_t(options.threads)
                               : uint64_t(std::max(1, tbb::this_task_arena::max_concurrency()));
  uint64_t floats = (steps + 1) * state  // every step's grid states
                    + 4 * state          // gradients of the state, initial state, final state
                    + 9 * C * cells      // patch gradients
                    + 2 * threads * rows * stride;  // activations and gradients of a tile
  if (!options.checkpointing) floats += steps * tiles * rows * stride;
  uint64_t bytes = 4 * floats;
  bytes += cells * 9 * 4 * 2 + cells * 8;         // neighbour tables
  bytes += uint64_t(kMaxChunks) * gates * 4 * 8;  // per-chunk gate sums
  bytes += gates * 16 * 4 * 6;                    // logits, moments, gradient, coefficients
  bytes += (cfg.async ? steps * cells : 0);       // fire masks
  bytes += 2 * rows * (cells / 8 + 8);            // the bit-sliced hard rollout
  return bytes;
}

struct CpuBackend::Impl {
  tbb::task_arena arena;
  tbb::enumerable_thread_specific<Scratch> scratch;
  AlignedBuffer stored;  // keep-all activations: [step][tile][rows][stride]
  explicit Impl(int threads) : arena(arena_concurrency(threads)) {}
};

CpuBackend::CpuBackend(CpuBackendOptions options)
    : options_(options), impl_(std::make_unique<Impl>(options.threads)) {}
CpuBackend::~CpuBackend() = default;

std::string CpuBackend::name() const {
  return std::string("cpu (") + kernels::selected_target() + ")";
}

namespace {

// Everything one rollout's tiles share.
struct RolloutPlan {
  const CellProgram* program;
  const GridGeometry* geometry;
  const float* coeffs;
  const uint8_t* masks;  // [step][y*W+x] or null (sync)
  int tile_cells, num_tiles, num_chunks;
  size_t stride, tile_floats;

  int first_cell(int tile) const { return tile * tile_cells; }
  int tile_size(int tile) const {
    return std::min(tile_cells, geometry->cells() - first_cell(tile));
  }
  bool fires(int step, int cell) const {
    return !masks || masks[size_t(step) * geometry->plane() + cell % geometry->plane()];
  }
  std::pair<int, int> chunk_tiles(int chunk) const {
    return {int(int64_t(num_tiles) * chunk / num_chunks),
            int(int64_t(num_tiles) * (chunk + 1) / num_chunks)};
  }
};

// The plan of one rollout: the grid cut into tiles of `requested_tile_cells` (0: chosen), at most
// kMaxChunks gradient chunks, rows padded for the kernels.
RolloutPlan make_rollout_plan(const CellProgram& prog, const GridGeometry& geo, const float* coeffs,
                              const uint8_t* masks, int requested_tile_cells) {
  RolloutPlan plan;
  plan.program = &prog;
  plan.geometry = &geo;
  plan.coeffs = coeffs;
  plan.masks = masks;
  plan.tile_cells = tile_cells_for(requested_tile_cells, prog.num_rows, geo.cells());
  plan.num_tiles = (geo.cells() + plan.tile_cells - 1) / plan.tile_cells;
  plan.num_chunks = std::min(plan.num_tiles, kMaxChunks);
  plan.stride = round_up(size_t(plan.tile_cells), kernels::kRowAlign);
  plan.tile_floats = size_t(prog.num_rows) * plan.stride;
  return plan;
}

// Calls compare(index into the state, target value) for every value the loss compares: each cell's
// loss channels.
template <class Compare>
void for_each_compared(const GridGeometry& geo, const Target& target,
                       const std::vector<int>& loss_channels, Compare&& compare) {
  for (int cell = 0; cell < geo.cells(); ++cell) {
    const int yx = cell % geo.plane();
    for (int c : loss_channels)
      compare(geo.state_base[cell] + size_t(c) * geo.plane(),
              target.at(cell / geo.plane(), c, yx / geo.width, yx % geo.width));
  }
}

// Adds one state's squared difference to the target over the loss channels to `loss`; `d`, when
// given, receives 2 * difference.
void add_state_loss(const float* state, const GridGeometry& geo, const Target& target,
                    const std::vector<int>& loss_channels, double& loss, float* d) {
  for_each_compared(geo, target, loss_channels, [&](size_t idx, float wanted) {
    const float diff = state[idx] - wanted;
    loss += double(diff) * diff;
    if (d) d[idx] += 2.0f * diff;
  });
}

// Hard-error feedback (RolloutRequest::hard_feedback): d += beta * 2 (hard - target) over the loss
// channels, `hard` the hard circuit's final state (0 or 1).
void add_hard_feedback(const uint8_t* hard, const GridGeometry& geo, const Target& target,
                       const std::vector<int>& loss_channels, float beta, float* d) {
  for_each_compared(geo, target, loss_channels, [&](size_t idx, float wanted) {
    d[idx] += beta * (2.0f * (float(hard[idx]) - wanted));
  });
}

// Gathers the tile's patches from `in` and evaluates the program; writes the new state to `out`
// (if given), keeping the old value where an async cell does not fire.
void forward_tile(const RolloutPlan& plan, int tile, int step, const float* in, float* out,
                  float* act) {
  const auto& geo = *plan.geometry;
  const auto& prog = *plan.program;
  const int c0 = plan.first_cell(tile), n = plan.tile_size(tile), hw = geo.plane();
  for (int c = 0; c < geo.channels; ++c)
    for (int p = 0; p < 9; ++p) {
      float* row = act + CellProgram::patch_row(c, p) * plan.stride;
      for (int i = 0; i < n; ++i) {
        const int32_t nb = geo.neighbour[size_t(c0 + i) * 9 + p];
        row[i] = nb < 0 ? 0.0f : in[geo.state_base[nb] + size_t(c) * hw];
      }
      std::fill(row + n, row + plan.stride, 0.0f);
    }
  kernels::forward_ops(prog.ops.data(), prog.ops.size(), plan.coeffs, act, plan.stride);
  if (!out) return;
  for (int c = 0; c < geo.channels; ++c) {
    const float* row = act + prog.output_rows[c] * plan.stride;
    for (int i = 0; i < n; ++i) {
      const size_t idx = geo.state_base[c0 + i] + size_t(c) * hw;
      out[idx] = plan.fires(step, c0 + i) ? row[i] : in[idx];
    }
  }
}

// Backward through one tile's step: upstream gradient of the new state d_out, activations in act;
// writes the tile's patch gradients into d_patch [c*9+p][cell] and adds to gate_sums.
void backward_tile(const RolloutPlan& plan, int tile, int step, const float* d_out,
                   const float* act, float* grad, float* d_patch, double* gate_sums) {
  const auto& geo = *plan.geometry;
  const auto& prog = *plan.program;
  const int c0 = plan.first_cell(tile), n = plan.tile_size(tile), hw = geo.plane(),
            cells = geo.cells();
  std::memset(grad, 0, plan.tile_floats * sizeof(float));
  for (int c = 0; c < geo.channels; ++c) {
    float* row = grad + prog.output_rows[c] * plan.stride;
    for (int i = 0; i < n; ++i)
      row[i] = plan.fires(step, c0 + i) ? d_out[geo.state_base[c0 + i] + size_t(c) * hw] : 0.0f;
  }
  kernels::backward_ops(prog.ops.data(), prog.ops.size(), plan.coeffs, act, grad, plan.stride,
                        gate_sums);
  for (int c = 0; c < geo.channels; ++c)
    for (int p = 0; p < 9; ++p)
      std::memcpy(d_patch + size_t(c * 9 + p) * cells + c0,
                  grad + CellProgram::patch_row(c, p) * plan.stride, size_t(n) * sizeof(float));
}

// d_in = gradient of the state before the step: patch gradients of every cell that saw it, plus the
// pass-through of cells that did not fire.
void scatter_tile(const RolloutPlan& plan, int tile, int step, const float* d_out,
                  const float* d_patch, float* d_in) {
  const auto& geo = *plan.geometry;
  const int c0 = plan.first_cell(tile), n = plan.tile_size(tile), hw = geo.plane(),
            cells = geo.cells();
  for (int i = 0; i < n; ++i) {
    const int cell = c0 + i;
    const bool fired = plan.fires(step, cell);
    for (int c = 0; c < geo.channels; ++c) {
      const size_t idx = geo.state_base[cell] + size_t(c) * hw;
      float d = fired ? 0.0f : d_out[idx];
      for (int p = 0; p < 9; ++p) {
        const int32_t from = geo.inverse[size_t(cell) * 9 + p];
        if (from >= 0) d += d_patch[size_t(c * 9 + p) * cells + from];
      }
      d_in[idx] = d;
    }
  }
}

}  // namespace

RolloutResult CpuBackend::rollout(const Model& model, const Target& target,
                                  const RolloutBatch& batch, const RolloutRequest& request) {
  const ExperimentConfig& cfg = model.config;
  if (batch.batch <= 0 || !batch.initial_state) throw std::invalid_argument("rollout: empty batch");
  const GridGeometry geo =
      make_grid_geometry(batch.batch, cfg.height, cfg.width, cfg.channels, cfg.periodic);
  const CellProgram prog = build_cell_program(model);
  std::vector<float> noisy;
  const std::vector<float>& soft_logits =
      soft_pass_logits(model.logits, request.logit_noise, noisy);
  std::vector<float> coeffs =
      soft_coefficients(cfg.gates, soft_logits, request.forward_temperature);
  const std::vector<uint8_t> no_hardened;
  const std::vector<uint8_t>& hardened =
      request.hardened_gates ? *request.hardened_gates : no_hardened;
  use_hardened_ops(cfg.gates, model.logits, hardened, coeffs);
  if (cfg.async && !batch.fire_masks)
    throw std::invalid_argument("rollout: async config without fire masks");
  const uint8_t* masks = cfg.async ? batch.fire_masks : nullptr;

  const RolloutPlan plan = make_rollout_plan(prog, geo, coeffs.data(), masks, options_.tile_cells);

  const int steps = cfg.steps;
  const size_t state_size = geo.state_size();
  std::vector<float> states(size_t(steps + 1) * state_size);
  std::copy(batch.initial_state, batch.initial_state + state_size, states.begin());
  const bool keep_all = request.gradient && !options_.checkpointing;
  float* stored =
      keep_all ? impl_->stored.get(size_t(steps) * plan.num_tiles * plan.tile_floats) : nullptr;
  const auto activations = [&](int step, int tile) {
    return keep_all ? stored + (size_t(step) * plan.num_tiles + tile) * plan.tile_floats
                    : impl_->scratch.local().act.get(plan.tile_floats);
  };
  // Every thread that runs a tile flushes denormals (flush_denormals.hpp).
  const auto for_each_tile = [&](auto&& body) {
    impl_->arena.execute([&] {
      parallel_for_index(
          plan.num_tiles,
          [&](int tile) {
            const FlushDenormals scope;
            body(tile);
          },
          tbb::simple_partitioner());
    });
  };

  for (int s = 0; s < steps; ++s) {
    const float* in = &states[size_t(s) * state_size];
    float* out = &states[size_t(s + 1) * state_size];
    for_each_tile([&](int tile) { forward_tile(plan, tile, s, in, out, activations(s, tile)); });
  }

  RolloutResult result;
  const float* final_state = &states[size_t(steps) * state_size];
  // The loss compares states steps - loss_steps + 1 .. steps with the target (config.hpp); its
  // gradient enters the backward pass at each of them. `d`, when given, receives 2 * difference.
  const int first_loss_state = steps - cfg.loss_steps + 1;
  const auto state_loss = [&](int state_index, float* d) {
    add_state_loss(&states[size_t(state_index) * state_size], geo, target, cfg.loss_channels,
                   result.soft_loss, d);
  };
  std::vector<float> d_state(state_size, 0.0f);
  state_loss(steps, d_state.data());
  // The hard circuit on the same inputs, before the backward pass when its final state feeds it.
  const auto run_hard = [&] {
    HardRollout hard;
    impl_->arena.execute([&] {  // the simulator's blocks run on this backend's threads
      hard = hard_rollout(prog, hard_ops(model), geo, batch.initial_state, steps, masks, target,
                          cfg.loss_channels, cfg.loss_steps);
    });
    return hard;
  };
  const bool feedback = request.gradient && request.hard_feedback != 0.0;
  if (feedback) {
    const HardRollout hard = run_hard();
    if (request.hard_loss) result.hard_loss = hard.loss;
    add_hard_feedback(hard.final_state.data(), geo, target, cfg.loss_channels,
                      float(request.hard_feedback), d_state.data());
  }
  if (!request.gradient)  // else each earlier state's loss is added in the backward pass
    for (int state_index = first_loss_state; state_index < steps; ++state_index)
      state_loss(state_index, nullptr);
  if (request.final_state) result.final_state.assign(final_state, final_state + state_size);

  if (request.gradient) {
    const size_t sums_per_chunk = size_t(model.num_gates()) * 4;
    std::vector<double> chunk_sums(size_t(plan.num_chunks) * sums_per_chunk, 0.0);
    std::vector<float> d_patch(size_t(geo.channels) * 9 * geo.cells());
    std::vector<float> d_prev(state_size);
    for (int s = steps - 1; s >= 0; --s) {
      if (s + 1 < steps && s + 1 >= first_loss_state) state_loss(s + 1, d_state.data());
      const float* in = &states[size_t(s) * state_size];
      impl_->arena.execute([&] {
        parallel_for_index(
            plan.num_chunks,
            [&](int chunk) {
              const FlushDenormals scope;
              Scratch& local = impl_->scratch.local();
              float* grad = local.grad.get(plan.tile_floats);
              const auto [first, last] = plan.chunk_tiles(chunk);
              for (int tile = first; tile < last; ++tile) {
                float* act = activations(s, tile);
                if (!keep_all) forward_tile(plan, tile, s, in, nullptr, act);
                backward_tile(plan, tile, s, d_state.data(), act, grad, d_patch.data(),
                              &chunk_sums[size_t(chunk) * sums_per_chunk]);
              }
            },
            tbb::simple_partitioner());
      });
      if (s > 0)  // the gradient of the initial state is not needed
        for_each_tile([&](int tile) {
          scatter_tile(plan, tile, s, d_state.data(), d_patch.data(), d_prev.data());
        });
      std::swap(d_state, d_prev);
    }
    std::vector<double> gate_sums(sums_per_chunk, 0.0);
    for (int chunk = 0; chunk < plan.num_chunks; ++chunk)
      for (size_t i = 0; i < sums_per_chunk; ++i)
        gate_sums[i] += chunk_sums[size_t(chunk) * sums_per_chunk + i];
    logit_gradient_from_sums(cfg.gates, soft_logits, gate_sums, result.grad);
    zero_hardened_gradient(cfg.gates, hardened, result.grad);
  }

  if (request.hard_loss && !feedback) result.hard_loss = run_hard().loss;
  return result;
}

}  // namespace dlca
