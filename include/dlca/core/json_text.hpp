// Reading JSON text for dlca's files (experiment, model and circuit files): like
// nlohmann::json::parse, but an object that names a key twice is refused instead of silently
// keeping the last value ({"lr": 0.1, "lr": 0.5} is a typo or a merge gone wrong, never intended).
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace dlca {

// Thrown for a key given twice in one object: what() is 'the key "lr" is given twice'.
struct DuplicateJsonKey : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses `text` as JSON. Throws nlohmann::json::parse_error for malformed text and
// DuplicateJsonKey for an object with a repeated key (at any depth).
nlohmann::json parse_json_text(const std::string& text);

}  // namespace dlca
