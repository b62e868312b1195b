// Progressive hardening (config.hpp, docs/training.md "Progressive hardening"): which gates are
// fixed to their hard op at each stage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dlca/core/config.hpp"

namespace dlca {

// Each gate's confidence in its hard op: that op's probability under the soft gate
// (op_probabilities; for softmax gates the largest softmax probability).
std::vector<float> hard_op_confidence(GateKind gates, const std::vector<float>& parameters);

// Fixes the most confident gates still free (the lower index first among equals) until `count`
// gates are fixed. `hardened`: empty (none yet) or one flag per gate; it comes back with one flag
// per gate.
void harden_most_confident(GateKind gates, const std::vector<float>& parameters,
                           std::vector<uint8_t>& hardened, size_t count);

// How many gates of `num_gates` progressive hardening has fixed at the start of `epoch`.
size_t hardened_gate_target(const ExperimentConfig& config, int64_t epoch, size_t num_gates);

}  // namespace dlca
