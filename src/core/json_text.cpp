// JSON text with repeated keys and runaway nesting refused (see dlca/core/json_text.hpp).
#include "dlca/core/json_text.hpp"

#include <set>
#include <vector>

#include <fmt/format.h>

namespace dlca {

nlohmann::json parse_json_text(const std::string& text) {
  std::vector<std::set<std::string>> keys_of_open_objects;
  const auto check = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if ((event == Event::object_start || event == Event::array_start) && depth >= kMaxJsonDepth)
      throw JsonTextError(fmt::format("nested deeper than {} levels", kMaxJsonDepth));
    if (event == Event::object_start) keys_of_open_objects.emplace_back();
    if (event == Event::object_end) keys_of_open_objects.pop_back();
    if (event == Event::key &&
        !keys_of_open_objects.back().insert(parsed.get<std::string>()).second)
      throw JsonTextError(fmt::format("the key \"{}\" is given twice", parsed.get<std::string>()));
    return true;
  };
  return nlohmann::json::parse(text, check);
}

std::string plain_error_text(const std::exception& error) {
  const std::string text = error.what();
  const size_t end = text.find("] ");
  return text.rfind("[json.exception.", 0) == 0 && end != std::string::npos ? text.substr(end + 2)
                                                                            : text;
}

std::string brief_json(const nlohmann::json& value, size_t limit) {
  return brief_text(value.dump(), limit);
}

std::string brief_text(std::string text, size_t limit) {
  if (text.size() <= limit) return text;
  text.resize(limit);
  while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80)
    text.pop_back();  // do not cut a UTF-8 character in two
  if (!text.empty() && static_cast<unsigned char>(text.back()) >= 0xC0) text.pop_back();
  return text + "...";
}

}  // namespace dlca
