// JSON text with repeated keys refused (see dlca/core/json_text.hpp).
#include "dlca/core/json_text.hpp"

#include <set>
#include <vector>

#include <fmt/format.h>

namespace dlca {

nlohmann::json parse_json_text(const std::string& text) {
  std::vector<std::set<std::string>> keys_of_open_objects;
  const auto check_keys = [&](int /*depth*/, nlohmann::json::parse_event_t event,
                              nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) keys_of_open_objects.emplace_back();
    if (event == Event::object_end) keys_of_open_objects.pop_back();
    if (event == Event::key &&
        !keys_of_open_objects.back().insert(parsed.get<std::string>()).second)
      throw DuplicateJsonKey(
          fmt::format("the key \"{}\" is given twice", parsed.get<std::string>()));
    return true;
  };
  return nlohmann::json::parse(text, check_keys);
}

}  // namespace dlca
