// Conversion between ExperimentConfig and JSON, with errors that name the offending key.
#include "dlca/core/config_json.hpp"

#include <limits>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "dlca/core/json_numbers.hpp"
#include "dlca/core/json_text.hpp"
#include "dlca/core/training_settings.hpp"

namespace dlca {

namespace {

std::vector<std::string> connection_names(const std::vector<Connection>& kinds) {
  std::vector<std::string> names;
  for (Connection k : kinds) names.push_back(connection_name(k));
  return names;
}

template <typename T>
void read(const nlohmann::json& json, const char* key, T& out) {
  if (!json.contains(key)) return;
  try {
    out = json.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    const char* kind = std::is_same_v<T, bool>          ? "must be true or false"
                       : std::is_same_v<T, std::string> ? "must be a string"
                                                        : "has the wrong type";
    throw ConfigError(fmt::format("{}: {}, got {}", key, kind, brief_json(json.at(key))));
  }
}

// Integer fields: JSON integers of at least `low` (8.7, true and -1 are refused by name).
template <typename T>
void read_integer(const nlohmann::json& json, const char* key, T& out, int64_t low) {
  if (json.contains(key)) out = json_integer<T>(json.at(key), key, low);
}

void read_integers(const nlohmann::json& json, const char* key, std::vector<int>& out,
                   int64_t low) {
  if (!json.contains(key)) return;
  const nlohmann::json& list = json.at(key);
  if (!list.is_array())
    throw ConfigError(fmt::format("{}: must be a list of integers, got {}", key, brief_json(list)));
  out.clear();
  for (size_t i = 0; i < list.size(); ++i)
    out.push_back(json_integer<int>(list[i], fmt::format("{}[{}]", key, i), low));
}

void read_float(const nlohmann::json& json, const char* key, float& out,
                double low = -std::numeric_limits<float>::max(),
                double high = std::numeric_limits<float>::max()) {
  if (json.contains(key)) out = json_float(json.at(key), key, low, high);
}

std::vector<Connection> read_connections(const nlohmann::json& json, const char* key,
                                         std::vector<Connection> fallback) {
  if (!json.contains(key)) return fallback;
  std::vector<std::string> names;
  read(json, key, names);
  std::vector<Connection> kinds;
  for (const auto& n : names) {
    try {
      kinds.push_back(parse_connection(n));
    } catch (const ConfigError& e) {
      throw ConfigError(fmt::format("{}: unknown connection '{}'", key, n));
    }
  }
  return kinds;
}

// A setting with a field of ExperimentConfig, read from `json` in the range the table gives it
// (what depends on other settings is validate()'s).
void read_setting(const nlohmann::json&, const Setting&, ExperimentConfig&, std::monostate) {}

template <typename T>
void read_setting(const nlohmann::json& json, const Setting& s, ExperimentConfig& c,
                  T ExperimentConfig::*field) {
  T& out = c.*field;
  if constexpr (std::is_same_v<T, bool>) {
    read(json, s.key, out);
  } else if constexpr (std::is_integral_v<T>) {
    const int64_t low = s.range == SettingRange::kPositiveInteger ? 1
                        : s.range == SettingRange::kIntegerFromTo ? int64_t(s.low)
                                                                  : 0;
    read_integer(json, s.key, out, low);
  } else {  // a number: closed intervals here, open bounds (above 0) in validate()
    const bool bounded = s.range_in_files && s.range == SettingRange::kNumberFromTo;
    const bool unit =
        s.range_in_files && (s.range == SettingRange::kDecayRate || s.range == SettingRange::kRate);
    read_float(json, s.key, out,
               bounded ? s.low
               : unit  ? 0.0
                       : -std::numeric_limits<float>::max(),
               bounded ? s.high
               : unit  ? 1.0
                       : std::numeric_limits<float>::max());
  }
}

}  // namespace

const std::vector<const char*>& config_keys() {
  static const std::vector<const char*> keys = [] {
    std::vector<const char*> all;
    for (const Setting& s : training_settings()) all.push_back(s.key);
    return all;
  }();
  return keys;
}

nlohmann::json config_to_json(const ExperimentConfig& c) {
  nlohmann::json j = {
      {"name", c.name},
      {"channels", c.channels},
      {"kernels", c.kernels},
      {"perception_layers", c.perception_layers},
      {"perception_connections", connection_names(c.perception_connections)},
      {"update_layers", c.update_layers},
      {"update_connections", connection_names(c.update_connections)},
      {"height", c.height},
      {"width", c.width},
      {"loss_channels", c.loss_channels},
      {"random_streams", c.random_streams == RandomStreams::kJax ? "jax" : "dlca"},
      {"recipe", recipe_name(c.recipe)},
      {"starts", c.starts},
      {"gates", gate_kind_name(c.gates)},
  };
  // (Keys added since the first files, such as loss_steps, halving, harden and grad_norm, are
  // absent in older files: config_from_json then keeps ExperimentConfig's defaults, which are off.)
  for (const Setting& s : training_settings())
    std::visit(
        [&](auto field) {
          if constexpr (!std::is_same_v<decltype(field), std::monostate>) j[s.key] = c.*field;
        },
        s.field);
  return j;
}

ExperimentConfig config_from_json(const nlohmann::json& json) {
  if (!json.is_object()) throw ConfigError("config: must be a JSON object");
  for (const auto& [key, value] : json.items()) {
    bool known = false;
    for (const char* k : config_keys()) known = known || key == k;
    if (!known) throw ConfigError(fmt::format("{}: unknown configuration key", key));
  }
  ExperimentConfig c;
  read(json, "name", c.name);
  read_integer(json, "channels", c.channels, 1);
  read_integer(json, "kernels", c.kernels, 1);
  read_integers(json, "perception_layers", c.perception_layers, 1);
  c.perception_connections = read_connections(json, "perception_connections", {});
  read_integers(json, "update_layers", c.update_layers, 1);
  c.update_connections = read_connections(json, "update_connections", {});
  read_integer(json, "height", c.height, 1);
  read_integer(json, "width", c.width, 1);
  read_integers(json, "loss_channels", c.loss_channels, 0);
  std::string streams = "jax";  // the default, as ExperimentConfig's
  read(json, "random_streams", streams);
  if (streams != "dlca" && streams != "jax")
    throw ConfigError(
        fmt::format("random_streams: must be \"dlca\" or \"jax\", got \"{}\"", streams));
  c.random_streams = streams == "jax" ? RandomStreams::kJax : RandomStreams::kDlca;
  // A recipe gives starts, stop_when_solved, repair and halving their values unless the file sets
  // them (read below, with every setting that has a field).
  std::string recipe = recipe_name(c.recipe);
  read(json, "recipe", recipe);
  use_recipe(c, parse_recipe(recipe));
  for (const Setting& s : training_settings()) {
    if (!json.contains(s.key)) continue;
    if (s.given) c.given.*s.given = true;
    std::visit([&](auto field) { read_setting(json, s, c, field); }, s.field);
  }
  // "starts": a count is that many candidates, without halving unless "halving" says so; "auto" is
  // 4 at once with successive halving (--starts auto), whatever "halving" says.
  if (json.contains("starts") && !json.contains("halving")) c.halving = false;
  if (json.contains("starts") && json.at("starts") == "auto") {
    if (!c.halving && json.contains("halving"))
      throw ConfigError("halving: false contradicts \"starts\": \"auto\"");
    c.starts = kAutoStarts;
    c.halving = true;
  } else if (json.contains("starts") && json.at("starts").is_string()) {
    throw ConfigError(fmt::format("starts: must be a positive integer or \"auto\", got {}",
                                  brief_json(json.at("starts"))));
  } else {
    read_integer(json, "starts", c.starts, 1);
  }
  std::string gates = gate_kind_name(c.gates);
  read(json, "gates", gates);
  c.gates = parse_gate_kind(gates);
  validate(c);
  return c;
}

void drop_recipe_filled_keys(nlohmann::json& config_json, const GivenOptions& given) {
  const ExperimentConfig notebook;
  if (!given.adam_eps && config_json.value("adam_eps", 0.0f) == notebook.adam_eps)
    config_json.erase("adam_eps");
  if (!given.gates && config_json.value("gates", "") == gate_kind_name(notebook.gates))
    config_json.erase("gates");
  // The recipe's: robust halves, but not for a picture grown from a fixed start.
  if (!given.starts) {
    config_json.erase("starts");
    config_json.erase("halving");
  }
  if (!given.rounds) config_json.erase("rounds");  // (robust's for a picture)
  if (given.schedule) return;
  // robust's noise and sharpening schedule (with_recipe_schedule): the settings it marks given.
  const nlohmann::json off = config_to_json(notebook);
  for (const Setting& s : training_settings())
    if (s.given == &GivenOptions::schedule && config_json.contains(s.key) &&
        config_json.at(s.key) != off.at(s.key))
      return;
  for (const Setting& s : training_settings())
    if (s.given == &GivenOptions::schedule) config_json.erase(s.key);
}

}  // namespace dlca
