// Grow and stay from the circuit's own growth (--stay, config.hpp): which epochs start from a state
// the hard circuit grew instead of the task's start, and that state. The data stay a function of
// the epoch and the parameters at its start, so a resumed run repeats them exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "dlca/core/config.hpp"
#include "dlca/core/model.hpp"

namespace dlca {

// The step k of its own growth an epoch starts from: 0 (the task's start) without --stay and on
// even epochs; on odd ones 1 + (epoch / 2) mod T, T the first state the loss compares, so that k
// goes through 1 to T in turn and the loss T steps later compares steps T + 1 to 2T.
int stay_start_step(const ExperimentConfig& config, int64_t epoch);

// Steps the batch of initial states [batch][C][H][W] `steps` times with the model's hard circuit,
// in place (each value becomes 0 or 1).
void grow_with_hard_circuit(const Model& model, int steps, std::vector<float>& states);

}  // namespace dlca
