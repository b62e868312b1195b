// Model construction (layout, wiring from the seed, pass-through initialisation) and the per-gate
// conversions between logits and what the backends use: soft coefficients, hard ops, gradients.
#include "dlca/core/model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dlca/core/input_wise_gates.hpp"
#include "dlca/core/jax_random.hpp"
#include "dlca/core/random.hpp"

namespace dlca {

SeedKeys::SeedKeys(uint64_t seed)
    : params(derive_key(seed, 1)), masks(derive_key(seed, 2)), data(derive_key(seed, 3)) {}

int Model::num_perception_gates() const {
  int n = 0;
  for (const auto& l : perception_layers) n += l.count();
  return n;
}

void build_layout(Model& m) {
  const auto& c = m.config;
  m.perception_layers.clear();
  m.update_layers.clear();
  int gate = 0;
  for (int l = 1; l < int(c.perception_layers.size()); ++l) {
    m.perception_layers.push_back({gate, c.kernels, c.perception_layers[l]});
    gate += m.perception_layers.back().count();
  }
  for (int l = 1; l < int(c.update_layers.size()); ++l) {
    m.update_layers.push_back({gate, 1, c.update_layers[l]});
    gate += m.update_layers.back().count();
  }
  m.logits.assign(size_t(gate) * size_t(parameters_per_gate(c.gates)), 0.0f);
}

std::vector<size_t> parameter_tensor_bounds(const Model& model) {
  const size_t per_gate = size_t(parameters_per_gate(model.config.gates));
  std::vector<size_t> bounds;
  for (const auto* layers : {&model.perception_layers, &model.update_layers})
    for (const GateLayer& layer : *layers) bounds.push_back(size_t(layer.first_gate) * per_gate);
  bounds.push_back(model.logits.size());
  return bounds;
}

Model make_model(const ExperimentConfig& config) {
  validate(config);
  Model m;
  m.config = config;
  build_layout(m);
  const auto& c = config;
  if (c.random_streams == RandomStreams::kJax) {
    // init_state: (key, sub) = split(PRNGKey(seed)); init_diff_logic_ca(sub): the update network
    // from the first split's sub-key, the perception network from the second's; each layer then
    // takes (key, sub) = split(key) and draws its wiring from sub (docs/MODEL.md §9.1).
    const jax::Key params = jax::split(jax::prng_key(uint32_t(c.seed)))[1];
    const auto first = jax::split(params);
    const auto second = jax::split(first[0]);
    const auto wire_network = [&](jax::Key key, const std::vector<int>& widths,
                                  const std::vector<Connection>& kinds,
                                  std::vector<LayerWiring>& out) {
      for (size_t l = 1; l < widths.size(); ++l) {
        const auto keys = jax::split(key);
        key = keys[0];
        out.push_back(make_wiring(kinds[l - 1], widths[l - 1], widths[l], keys[1]));
      }
    };
    wire_network(first[1], c.update_layers, c.update_connections, m.update_wiring);
    wire_network(second[1], c.perception_layers, c.perception_connections, m.perception_wiring);
  } else {
    // The same structure with dlca's streams: one key per network, one sub-key per layer.
    const SeedKeys keys(c.seed);
    const uint64_t update_key = derive_key(keys.params, 1);
    const uint64_t perception_key = derive_key(keys.params, 2);
    for (int l = 1; l < int(c.update_layers.size()); ++l)
      m.update_wiring.push_back(make_wiring(c.update_connections[l - 1], c.update_layers[l - 1],
                                            c.update_layers[l], derive_key(update_key, l)));
    for (int l = 1; l < int(c.perception_layers.size()); ++l)
      m.perception_wiring.push_back(make_wiring(c.perception_connections[l - 1],
                                                c.perception_layers[l - 1], c.perception_layers[l],
                                                derive_key(perception_key, l)));
  }
  if (c.gates == GateKind::kInputWise) {
    // dlca's stream for both kinds of random streams: the notebook has no input-wise gates.
    const uint64_t key = derive_key(SeedKeys(c.seed).params, 0x495750ull);  // "IWP"
    for (int g = 0; g < m.num_gates(); ++g)
      input_wise_pass_through(&m.logits[size_t(g) * kInputPatterns], derive_key(key, uint64_t(g)));
  } else {
    for (int g = 0; g < m.num_gates(); ++g)
      m.logits[size_t(g) * kNumOps + kOpPassA] = kPassThroughLogit;
  }
  return m;
}

namespace {

// Max-subtracted softmax of one gate's 16 logits divided by `temperature`, in double (temperature 1
// divides exactly).
std::array<double, kNumOps> softmax16(const float* z, double temperature = 1.0) {
  std::array<double, kNumOps> p;
  const float zmax = *std::max_element(z, z + kNumOps);
  double sum = 0;
  for (int i = 0; i < kNumOps; ++i)
    sum += p[i] = std::exp((double(z[i]) - double(zmax)) / temperature);
  for (double& v : p) v /= sum;
  return p;
}

}  // namespace

std::vector<float> soft_coefficients(GateKind kind, const std::vector<float>& logits,
                                     double temperature) {
  const size_t gates = logits.size() / size_t(parameters_per_gate(kind));
  std::vector<float> coeffs(gates * 4);
  if (kind == GateKind::kInputWise) {
    double c[4];
    for (size_t g = 0; g < gates; ++g) {
      input_wise_coefficients(&logits[g * kInputPatterns], c, temperature);
      for (int q = 0; q < 4; ++q) coeffs[g * 4 + q] = float(c[q]);
    }
    return coeffs;
  }
  for (size_t g = 0; g < gates; ++g) {
    const auto p = softmax16(&logits[g * kNumOps], temperature);
    for (int q = 0; q < 4; ++q) {
      double c = 0;
      for (int i = 0; i < kNumOps; ++i) c += p[i] * kOpCoefficients[i][q];
      coeffs[g * 4 + q] = float(c);
    }
  }
  return coeffs;
}

std::vector<float> logit_noise(size_t count, uint64_t seed, int64_t epoch) {
  const uint64_t key = derive_key(derive_key(seed, 0x4E4F495345ull), uint64_t(epoch));  // "NOISE"
  std::vector<float> noise(count);
  for (size_t i = 0; i < count; ++i) {
    const double u = (double(derive_key(key, i) >> 11) + 0.5) * 0x1p-53;  // in (0, 1)
    noise[i] = float(-std::log(-std::log(u)));
  }
  return noise;
}

const std::vector<float>& soft_pass_logits(const std::vector<float>& logits,
                                           const std::vector<float>* noise,
                                           std::vector<float>& storage) {
  if (!noise) return logits;
  storage.resize(logits.size());
  for (size_t i = 0; i < logits.size(); ++i) storage[i] = logits[i] + (*noise)[i];
  return storage;
}

std::vector<float> op_probabilities(GateKind kind, const std::vector<float>& logits) {
  const size_t gates = logits.size() / size_t(parameters_per_gate(kind));
  std::vector<float> probabilities(gates * kNumOps);
  if (kind == GateKind::kInputWise) {
    for (size_t g = 0; g < gates; ++g)
      input_wise_op_probabilities(&logits[g * kInputPatterns], &probabilities[g * kNumOps]);
    return probabilities;
  }
  for (size_t g = 0; g < gates; ++g) {
    const auto p = softmax16(&logits[g * kNumOps]);
    std::copy(p.begin(), p.end(), &probabilities[g * kNumOps]);
  }
  return probabilities;
}

std::vector<float> op_probabilities(const Model& model) {
  return op_probabilities(model.config.gates, model.logits);
}

namespace {

// One gate's hard op from its parameters: the argmax op (first maximum on ties, as JAX), or the
// truth table of its input-wise angles' signs.
uint8_t hard_op_of(GateKind kind, const float* parameters) {
  if (kind == GateKind::kInputWise) return input_wise_op(parameters);
  return uint8_t(std::max_element(parameters, parameters + kNumOps) - parameters);
}

}  // namespace

std::vector<uint8_t> hard_ops(GateKind kind, const std::vector<float>& logits) {
  const size_t per_gate = size_t(parameters_per_gate(kind)), gates = logits.size() / per_gate;
  std::vector<uint8_t> ops(gates);
  for (size_t g = 0; g < gates; ++g) ops[g] = hard_op_of(kind, &logits[g * per_gate]);
  return ops;
}

std::vector<uint8_t> hard_ops(const Model& model) {
  return hard_ops(model.config.gates, model.logits);
}

int active_gate_count(GateKind kind, const std::vector<float>& logits) {
  int n = 0;
  for (uint8_t op : hard_ops(kind, logits)) n += (op != kOpPassA && op != kOpPassB);
  return n;
}

int active_gate_count(const Model& model) {
  return active_gate_count(model.config.gates, model.logits);
}

void use_hardened_ops(GateKind kind, const std::vector<float>& parameters,
                      const std::vector<uint8_t>& hardened, std::vector<float>& coefficients) {
  if (hardened.empty()) return;
  const int per_gate = parameters_per_gate(kind);
  if (hardened.size() * size_t(per_gate) != parameters.size() ||
      coefficients.size() != hardened.size() * 4)
    throw std::invalid_argument("hardened gates: one flag per gate expected");
  for (size_t g = 0; g < hardened.size(); ++g) {
    if (!hardened[g]) continue;
    const uint8_t op = hard_op_of(kind, &parameters[g * size_t(per_gate)]);
    std::copy(kOpCoefficients[op].begin(), kOpCoefficients[op].end(), &coefficients[g * 4]);
  }
}

void zero_hardened_gradient(GateKind kind, const std::vector<uint8_t>& hardened,
                            std::vector<float>& grad) {
  const size_t per_gate = size_t(parameters_per_gate(kind));
  for (size_t g = 0; g < hardened.size(); ++g)
    if (hardened[g]) std::fill_n(&grad[g * per_gate], per_gate, 0.0f);
}

void logit_gradient_from_sums(GateKind kind, const std::vector<float>& logits,
                              const std::vector<double>& gate_sums, std::vector<float>& grad) {
  const size_t gates = logits.size() / size_t(parameters_per_gate(kind));
  grad.assign(logits.size(), 0.0f);
  if (kind == GateKind::kInputWise) {
    for (size_t g = 0; g < gates; ++g)
      input_wise_gradient(&logits[g * kInputPatterns], &gate_sums[g * 4],
                          &grad[g * kInputPatterns]);
    return;
  }
  for (size_t g = 0; g < gates; ++g) {
    const auto p = softmax16(&logits[g * kNumOps]);
    const double* G = &gate_sums[g * 4];
    std::array<double, kNumOps> dp;
    double mean = 0;
    for (int i = 0; i < kNumOps; ++i) {
      const auto& M = kOpCoefficients[i];
      dp[i] = M[0] * G[0] + M[1] * G[1] + M[2] * G[2] + M[3] * G[3];
      mean += p[i] * dp[i];
    }
    for (int j = 0; j < kNumOps; ++j) grad[g * kNumOps + j] = float(p[j] * (dp[j] - mean));
  }
}

}  // namespace dlca
