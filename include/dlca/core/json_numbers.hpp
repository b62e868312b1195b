// Strict numbers from JSON files (experiment and model files): an integer field must be a JSON
// integer (not 8.7, not true, not "8") within its bounds, a float field a finite JSON number that
// fits a float. Errors name the field and the value: "channels: must be a positive integer, got
// 8.7".
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "dlca/core/config.hpp"

namespace dlca {

// Empty when `value` is an integer in [low, high], else why not ("must be a positive integer, got
// 8.7").
std::string integer_problem(const nlohmann::json& value, int64_t low, uint64_t high);
// Empty when `value` is a finite number in [low, high] (bounds as floats) that a float holds
// without flushing it toward 0 (0 itself, or at least 1.2e-38 in magnitude), else why not.
std::string float_problem(const nlohmann::json& value, double low, double high);

// `value` as a T, or throws Error("FIELD: reason").
template <typename T, typename Error = ConfigError>
T json_integer(const nlohmann::json& value, const std::string& field, int64_t low) {
  const std::string problem = integer_problem(value, low, uint64_t(std::numeric_limits<T>::max()));
  if (!problem.empty()) throw Error(field + ": " + problem);
  return value.get<T>();
}

template <typename Error = ConfigError>
float json_float(const nlohmann::json& value, const std::string& field,
                 double low = -std::numeric_limits<float>::max(),
                 double high = std::numeric_limits<float>::max()) {
  const std::string problem = float_problem(value, low, high);
  if (!problem.empty()) throw Error(field + ": " + problem);
  return value.get<float>();
}

}  // namespace dlca
