// The parameter file written by --save: JSON with the configuration, the wiring and the logits.
// Format "dlca-params" version 1 (documented in README.md):
//   {"format": "dlca-params", "version": 1, "config": {...config keys...},
//    "wiring": {"perception": [{"a": [...], "b": [...]}, ...], "update": [...]},
//    "logits": [num_gates * 16 floats, gate-major, in Model's layer order]}
#pragma once

#include <string>

#include "dlca/model.hpp"

namespace dlca {

std::string params_to_json(const Model& model);
void save_params(const Model& model, const std::string& path);  // atomic; throws FileError
// Throws FileError("PATH: reason") for anything missing, malformed or inconsistent.
Model load_params(const std::string& path);

}  // namespace dlca
