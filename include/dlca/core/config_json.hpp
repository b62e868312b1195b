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
ExperimentConfig config_from_json(const nlohmann::json& json);

}  // namespace dlca
