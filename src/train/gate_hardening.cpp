// Progressive hardening: the gates fixed at each stage, the most confident first.
#include "dlca/train/gate_hardening.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "dlca/core/model.hpp"
#include "dlca/core/ops.hpp"

namespace dlca {

std::vector<float> hard_op_confidence(GateKind gates, const std::vector<float>& parameters) {
  const std::vector<float> probabilities = op_probabilities(gates, parameters);
  const std::vector<uint8_t> ops = hard_ops(gates, parameters);
  std::vector<float> confidence(ops.size());
  for (size_t g = 0; g < ops.size(); ++g) {
    const float p = probabilities[g * kNumOps + ops[g]];
    confidence[g] = std::isnan(p) ? 0.0f : p;  // keeps the ordering of the sort strict
  }
  return confidence;
}

void harden_most_confident(GateKind gates, const std::vector<float>& parameters,
                           std::vector<uint8_t>& hardened, size_t count) {
  const size_t num_gates = parameters.size() / size_t(parameters_per_gate(gates));
  if (hardened.empty()) hardened.assign(num_gates, 0);
  if (hardened.size() != num_gates || count > num_gates)
    throw std::invalid_argument("harden_most_confident: one flag per gate, at most every gate");
  size_t fixed = size_t(std::count(hardened.begin(), hardened.end(), uint8_t(1)));
  if (fixed >= count) return;
  const std::vector<float> confidence = hard_op_confidence(gates, parameters);
  std::vector<size_t> order(num_gates);
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return confidence[a] > confidence[b]; });
  for (size_t g : order) {
    if (fixed == count) break;
    if (!hardened[g]) {
      hardened[g] = 1;
      ++fixed;
    }
  }
}

size_t hardened_gate_target(const ExperimentConfig& config, int64_t epoch, size_t num_gates) {
  return size_t(std::llround(hardened_share(config, epoch) * double(num_gates)));
}

}  // namespace dlca
