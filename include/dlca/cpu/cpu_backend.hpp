// The fast CPU backend: cells are the SIMD dimension (Highway), tiles of cells run in parallel
// (oneTBB) with per-tile gradient accumulators added in tile order, so results are bit-identical
// at any thread count. Activations are either recomputed per step in the backward pass from the
// stored grid states (checkpointing, the default) or kept for every step.
#pragma once

#include <cstdint>
#include <memory>

#include "dlca/core/backend.hpp"
#include "dlca/core/config.hpp"

namespace dlca {

struct CpuBackendOptions {
  int threads = 0;            // 0: all hardware threads
  bool checkpointing = true;  // recompute each step's activations in the backward pass
  int tile_cells = 0;  // cells per tile; 0 chooses from the model's size. Fixes the summation
                       // order, so results depend on it (never on the thread count).
};

class CpuBackend : public Backend {
 public:
  explicit CpuBackend(CpuBackendOptions options = {});
  ~CpuBackend() override;
  std::string name() const override;
  RolloutResult rollout(const Model& model, const Target& target, const RolloutBatch& batch,
                        const RolloutRequest& request) override;
  const CpuBackendOptions& options() const { return options_; }

 private:
  struct Impl;
  CpuBackendOptions options_;
  std::unique_ptr<Impl> impl_;
};

// The concurrency of a TBB arena for `requested` threads (0: all cores): at most the machine's
// cores, since TBB gives no arena more workers than that (and warns on stderr when asked to).
int arena_concurrency(int requested);

// The tile size chosen automatically for a program of `rows` rows (activations and gradients of one
// tile stay within about 1 MiB).
int default_tile_cells(uint32_t rows);

// The tile size used: `requested` (0: default_tile_cells(rows)), clamped to the batch's `cells`
// rounded up to a SIMD row (a larger tile only holds padding).
int tile_cells_for(int requested, uint32_t rows, int64_t cells);
// The tile a training of `config` uses for a requested --tile-cells (0: automatic).
int training_tile_cells(const ExperimentConfig& config, int requested);

// An estimate of the host memory training `config` needs on this backend (grid states of every
// step, state and patch gradients, activations of the tiles, per-thread scratch, model and
// optimizer), computed from the configuration alone, before anything is allocated.
uint64_t cpu_training_bytes(const ExperimentConfig& config, const CpuBackendOptions& options);

}  // namespace dlca
