// Experiment configurations as JSON: the readable form used in model files and configuration files.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "dlca/core/config.hpp"

namespace dlca {

// The keys of a configuration, in their natural order (name, network, grid, training, ...).
const std::vector<const char*>& config_keys();
nlohmann::json config_to_json(const ExperimentConfig& config);
// Reads every known key, rejects unknown keys and wrong types by name; then validate()s.
// Keys the user gave are marked in the result's `given` (GivenOptions).
ExperimentConfig config_from_json(const nlohmann::json& json);
// For a configuration written out to be changed and read back (sweep --set, Python keywords):
// removes adam_eps, gates, starts and halving, rounds, and the noise and sharpening keys, that
// `given` does not mark (and that hold the notebook's values), so that config_from_json of the
// result marks only what was given and the recipe fills in the rest for the task.
void drop_recipe_filled_keys(nlohmann::json& config_json, const GivenOptions& given);

}  // namespace dlca
