// Reading JSON text for dlca's files (experiment, model, circuit and sweep files): like
// nlohmann::json::parse, but an object that names a key twice is refused instead of silently
// keeping the last value ({"lr": 0.1, "lr": 0.5} is a typo or a merge gone wrong, never intended),
// and so is nesting deeper than any dlca file uses (a hostile file of 100,000 nested arrays would
// otherwise overflow the stack when the value is later copied or printed).
#pragma once

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace dlca {

// The deepest nesting parse_json_text accepts; dlca's own files nest at most 6 levels.
inline constexpr int kMaxJsonDepth = 64;

// Thrown for JSON that parses but that dlca refuses: what() is 'the key "lr" is given twice' or
// 'nested deeper than 64 levels'.
struct JsonTextError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses `text` as JSON. Throws nlohmann::json::parse_error for malformed text and JsonTextError
// for an object with a repeated key (at any depth) or nesting deeper than kMaxJsonDepth.
nlohmann::json parse_json_text(const std::string& text);

// An error's message without nlohmann's "[json.exception.out_of_range.403] " prefix, so that a
// one-line error reads as dlca's own ("key 'training' not found"); text that is not UTF-8 is named
// by its byte offset, not quoted.
std::string plain_error_text(const std::exception& error);
// "invalid UTF-8 near byte N; ..." when `error` is a parse error on text that is not UTF-8, else
// "".
std::string invalid_utf8_text(const std::exception& error);

// `text` for a one-line error message, cut to about `limit` bytes ("..." marks a cut; never in
// the middle of a UTF-8 character).
std::string brief_text(std::string text, size_t limit);
// `value` as JSON text for an error message, cut to about `limit` characters.
std::string brief_json(const nlohmann::json& value, size_t limit = 80);

}  // namespace dlca
