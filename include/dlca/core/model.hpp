// A DiffLogic CA model: its configuration, fixed wiring, and the logits of every gate, stored as
// one flat array (16 per gate) in the parameter order of docs/MODEL.md §3.6: perception layers
// (K x n x 16 each), then update layers (n x 16 each). Also the derived quantities: soft
// coefficients, hard ops, active-gate count and the logit gradient from per-gate sums.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "dlca/core/config.hpp"
#include "dlca/core/ops.hpp"
#include "dlca/core/trained_task.hpp"
#include "dlca/core/wiring.hpp"

namespace dlca {

// One parameter array: `copies` x `width` gates starting at global gate index `first_gate`.
struct GateLayer {
  int first_gate = 0;
  int copies = 1;  // K for a perception layer, 1 for an update layer
  int width = 0;   // gates per copy
  int gate(int copy, int j) const { return first_gate + copy * width + j; }
  int count() const { return copies * width; }
};

// Keys derived from the seed: one for parameters and wiring, one for async masks, one for data.
struct SeedKeys {
  uint64_t params, masks, data;
  explicit SeedKeys(uint64_t seed);
};

struct Model {
  ExperimentConfig config;
  std::vector<LayerWiring> perception_wiring;  // one per perception gate layer
  std::vector<LayerWiring> update_wiring;      // one per update gate layer
  std::vector<GateLayer> perception_layers;
  std::vector<GateLayer> update_layers;
  std::vector<float> logits;  // num_gates() * 16
  TrainedTask task;           // what it was trained for (set by the Trainer; stored in model files)

  int num_gates() const { return int(logits.size() / kNumOps); }
  int num_perception_gates() const;
};

// Builds a validated model: wiring from the seed, every gate initialised as pass-through A
// (logit 10 at index 3, 0 elsewhere). Throws ConfigError.
Model make_model(const ExperimentConfig& config);
// Fills perception_layers/update_layers and sizes logits (zeros) for the config.
void build_layout(Model& model);

inline constexpr float kPassThroughLogit = 10.0f;

// Softmax of each gate's logits divided by `temperature`, folded into the 4 affine coefficients: 4
// floats per gate. Temperature 1 is the plain softmax, bit for bit.
std::vector<float> soft_coefficients(const std::vector<float>& logits, double temperature = 1.0);
// Gumbel(0, 1) noise for every logit, drawn by a counter-based stream keyed by (seed, epoch):
// the same on every backend and after a resume.
std::vector<float> logit_noise(size_t count, uint64_t seed, int64_t epoch);
// The logits of the soft pass: `logits` itself without noise, else logits + noise written to
// `storage` (noise already scaled).
const std::vector<float>& soft_pass_logits(const std::vector<float>& logits,
                                           const std::vector<float>* noise,
                                           std::vector<float>& storage);

// Each gate's op probabilities (the softmax of its logits): 16 floats per gate, gate-major.
std::vector<float> op_probabilities(const std::vector<float>& logits);
// Argmax op of each gate (first maximum on ties, as JAX).
std::vector<uint8_t> hard_ops(const std::vector<float>& logits);
// Gates whose argmax is neither A nor B; perception counted once per kernel (docs/MODEL.md §11.1).
int active_gate_count(const std::vector<float>& logits);

// Per gate, the sums over every use G = (sum g, sum g*a, sum g*b, sum g*a*b) of the upstream
// gradient g and inputs a, b. Converts them to the logit gradient: dL/dp = M G, then softmax
// backward.
void logit_gradient_from_sums(const std::vector<float>& logits,
                              const std::vector<double>& gate_sums, std::vector<float>& grad);

}  // namespace dlca
