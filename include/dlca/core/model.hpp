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
  // The trained parameters, parameters_per_gate(config.gates) per gate: 16 logits (softmax gates)
  // or 4 angles (input-wise gates).
  std::vector<float> logits;
  TrainedTask task;  // what it was trained for (set by the Trainer; stored in model files)

  int num_gates() const { return int(logits.size() / size_t(parameters_per_gate(config.gates))); }
  int num_perception_gates() const;
};

// The model's parameter tensors, as the notebook has them (one per gate layer: a perception
// layer's K copies together): where each begins in Model::logits, then the parameter count.
std::vector<size_t> parameter_tensor_bounds(const Model& model);

// Builds a validated model: wiring from the seed, every gate initialised as pass-through A (softmax
// gates: logit 10 at index 3, 0 elsewhere; input-wise gates: input_wise_pass_through). Throws
// ConfigError.
Model make_model(const ExperimentConfig& config);
// Fills perception_layers/update_layers and sizes the parameters (zeros) for the config.
void build_layout(Model& model);

inline constexpr float kPassThroughLogit = 10.0f;

// The functions below read a gate array laid out as Model::logits, for either kind of gate.

// Each gate's soft op folded into its 4 affine coefficients: softmax gates take the softmax of
// their logits divided by `temperature` (1: the plain softmax, bit for bit); input-wise gates
// input_wise_coefficients (temperature must be 1).
std::vector<float> soft_coefficients(GateKind gates, const std::vector<float>& parameters,
                                     double temperature = 1.0);
// Gumbel(0, 1) noise for every logit, drawn by a counter-based stream keyed by (seed, epoch):
// the same on every backend and after a resume.
std::vector<float> logit_noise(size_t count, uint64_t seed, int64_t epoch);
// The logits of the soft pass: `logits` itself without noise, else logits + noise written to
// `storage` (noise already scaled).
const std::vector<float>& soft_pass_logits(const std::vector<float>& logits,
                                           const std::vector<float>* noise,
                                           std::vector<float>& storage);

// Each gate's op probabilities, 16 floats per gate, gate-major: the softmax of its logits, or for
// input-wise gates input_wise_op_probabilities.
std::vector<float> op_probabilities(GateKind gates, const std::vector<float>& parameters);
std::vector<float> op_probabilities(const Model& model);
// Each gate's hard op: the argmax op (first maximum on ties, as JAX), or for input-wise gates the
// truth table of its angles' signs.
std::vector<uint8_t> hard_ops(GateKind gates, const std::vector<float>& parameters);
std::vector<uint8_t> hard_ops(const Model& model);
// Gates whose hard op is neither A nor B; perception counted once per kernel (docs/MODEL.md §11.1).
int active_gate_count(GateKind gates, const std::vector<float>& parameters);
int active_gate_count(const Model& model);

// Progressive hardening (config.hpp): `hardened` is empty (none) or one flag per gate, 1 where the
// gate is fixed to its hard op. use_hardened_ops writes each fixed gate's hard op (of the clean
// `parameters`) over its soft coefficients; zero_hardened_gradient zeroes its parameters' gradient.
void use_hardened_ops(GateKind gates, const std::vector<float>& parameters,
                      const std::vector<uint8_t>& hardened, std::vector<float>& coefficients);
void zero_hardened_gradient(GateKind gates, const std::vector<uint8_t>& hardened,
                            std::vector<float>& grad);

// Per gate, the sums over every use G = (sum g, sum g*a, sum g*b, sum g*a*b) of the upstream
// gradient g and inputs a, b. Converts them to the parameters' gradient: for softmax gates
// dL/dp = M G, then softmax backward; for input-wise gates input_wise_gradient.
void logit_gradient_from_sums(GateKind gates, const std::vector<float>& parameters,
                              const std::vector<double>& gate_sums, std::vector<float>& grad);

}  // namespace dlca
