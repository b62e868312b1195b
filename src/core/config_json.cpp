// Conversion between ExperimentConfig and JSON, with errors that name the offending key.
#include "dlca/core/config_json.hpp"

#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include "dlca/core/json_numbers.hpp"
#include "dlca/core/json_text.hpp"

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

}  // namespace

const std::vector<const char*>& config_keys() {
  static const std::vector<const char*> keys = {"name",
                                                "channels",
                                                "kernels",
                                                "perception_layers",
                                                "perception_connections",
                                                "update_layers",
                                                "update_connections",
                                                "height",
                                                "width",
                                                "steps",
                                                "batch",
                                                "epochs",
                                                "lr",
                                                "adam_eps",
                                                "adam_beta1",
                                                "adam_beta2",
                                                "weight_decay",
                                                "periodic",
                                                "async",
                                                "fire_rate",
                                                "loss_channels",
                                                "loss_steps",
                                                "seed",
                                                "random_streams",
                                                "stop_when_solved",
                                                "recipe",
                                                "starts",
                                                "halving",
                                                "budget_epochs",
                                                "budget_minutes",
                                                "sharpen_to",
                                                "sharpen_start",
                                                "sharpen_end",
                                                "noise",
                                                "noise_start",
                                                "noise_end",
                                                "repair",
                                                "gates",
                                                "harden",
                                                "harden_start",
                                                "harden_end",
                                                "grad_norm"};
  return keys;
}

nlohmann::json config_to_json(const ExperimentConfig& c) {
  return {
      {"name", c.name},
      {"channels", c.channels},
      {"kernels", c.kernels},
      {"perception_layers", c.perception_layers},
      {"perception_connections", connection_names(c.perception_connections)},
      {"update_layers", c.update_layers},
      {"update_connections", connection_names(c.update_connections)},
      {"height", c.height},
      {"width", c.width},
      {"steps", c.steps},
      {"batch", c.batch},
      {"epochs", c.epochs},
      {"lr", c.learning_rate},
      {"adam_eps", c.adam_eps},
      {"adam_beta1", c.adam_beta1},
      {"adam_beta2", c.adam_beta2},
      {"weight_decay", c.weight_decay},
      {"periodic", c.periodic},
      {"async", c.async},
      {"fire_rate", c.fire_rate},
      {"loss_channels", c.loss_channels},
      {"seed", c.seed},
      {"random_streams", c.random_streams == RandomStreams::kJax ? "jax" : "dlca"},
      {"stop_when_solved", c.stop_when_solved},
      {"recipe", recipe_name(c.recipe)},
      {"starts", c.starts},
      {"sharpen_to", c.sharpen_to},
      {"sharpen_start", c.sharpen_start},
      {"sharpen_end", c.sharpen_end},
      {"noise", c.noise},
      {"noise_start", c.noise_start},
      {"noise_end", c.noise_end},
      {"repair", c.repair},
      {"gates", gate_kind_name(c.gates)},
      {"loss_steps", c.loss_steps},  // absent in files written before it: 1
      {"halving", c.halving},        // absent before: false, and no budget
      {"budget_epochs", c.budget_epochs},
      {"budget_minutes", c.budget_minutes},
      {"harden", c.harden},  // absent in files written before it: 0, off
      {"harden_start", c.harden_start},
      {"harden_end", c.harden_end},
      {"grad_norm", c.grad_norm},  // absent before: false
  };
}

namespace {

// The keys of robust's noise and sharpening schedule (with_recipe_schedule).
constexpr const char* kScheduleKeys[] = {"noise",      "noise_start",   "noise_end",
                                         "sharpen_to", "sharpen_start", "sharpen_end"};

}  // namespace

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
  read_integer(json, "steps", c.steps, 1);
  read_integer(json, "batch", c.batch, 1);
  read_integer(json, "epochs", c.epochs, 1);
  read_float(json, "lr", c.learning_rate);
  read_float(json, "adam_eps", c.adam_eps);
  read_float(json, "adam_beta1", c.adam_beta1, 0, 1);
  read_float(json, "adam_beta2", c.adam_beta2, 0, 1);
  read_float(json, "weight_decay", c.weight_decay, 0, 1);
  read(json, "periodic", c.periodic);
  read(json, "async", c.async);
  read_float(json, "fire_rate", c.fire_rate, 0, 1);
  read_integers(json, "loss_channels", c.loss_channels, 0);
  read_integer(json, "loss_steps", c.loss_steps, 1);
  read_integer(json, "seed", c.seed, 0);
  std::string streams = "jax";  // the default, as ExperimentConfig's
  read(json, "random_streams", streams);
  if (streams != "dlca" && streams != "jax")
    throw ConfigError(
        fmt::format("random_streams: must be \"dlca\" or \"jax\", got \"{}\"", streams));
  c.random_streams = streams == "jax" ? RandomStreams::kJax : RandomStreams::kDlca;
  // A recipe gives starts, stop_when_solved and repair their values unless the file sets them.
  std::string recipe = recipe_name(c.recipe);
  read(json, "recipe", recipe);
  c.recipe = parse_recipe(recipe);
  const RecipeDefaults defaults = recipe_defaults(c.recipe);
  c.starts = defaults.starts;
  c.stop_when_solved = defaults.stop_when_solved;
  c.repair = defaults.repair;
  c.halving = defaults.halving;
  read_integer(json, "stop_when_solved", c.stop_when_solved, 0);
  // "starts": a count is that many candidates, without halving unless "halving" says so; "auto" is
  // 4 at once with successive halving (--starts auto), whatever "halving" says.
  if (json.contains("starts")) c.halving = false;
  read(json, "halving", c.halving);
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
  read_integer(json, "budget_epochs", c.budget_epochs, 0);
  read_float(json, "budget_minutes", c.budget_minutes);
  read_float(json, "sharpen_to", c.sharpen_to, 0, 1);
  read_integer(json, "sharpen_start", c.sharpen_start, 0);
  read_integer(json, "sharpen_end", c.sharpen_end, 0);
  read_float(json, "noise", c.noise);
  read_integer(json, "noise_start", c.noise_start, 0);
  read_integer(json, "noise_end", c.noise_end, 0);
  read(json, "repair", c.repair);
  read_integer(json, "harden", c.harden, 0);
  read_integer(json, "harden_start", c.harden_start, 0);
  read_integer(json, "harden_end", c.harden_end, 0);
  read(json, "grad_norm", c.grad_norm);
  std::string gates = gate_kind_name(c.gates);
  read(json, "gates", gates);
  c.gates = parse_gate_kind(gates);
  c.given.adam_eps = json.contains("adam_eps");
  c.given.gates = json.contains("gates");
  c.given.starts = json.contains("starts") || json.contains("halving");
  for (const char* key : kScheduleKeys) c.given.schedule = c.given.schedule || json.contains(key);
  validate(c);
  return c;
}

void drop_recipe_filled_keys(nlohmann::json& config_json, const GivenOptions& given) {
  const ExperimentConfig notebook;
  if (!given.adam_eps && config_json.value("adam_eps", 0.0f) == notebook.adam_eps)
    config_json.erase("adam_eps");
  if (!given.gates && config_json.value("gates", "") == gate_kind_name(notebook.gates))
    config_json.erase("gates");
  if (!given.starts) {  // the recipe's (robust: halving, but not for a picture grown from a seed)
    config_json.erase("starts");
    config_json.erase("halving");
  }
  if (given.schedule) return;
  const nlohmann::json off = config_to_json(notebook);
  for (const char* key : kScheduleKeys)
    if (config_json.contains(key) && config_json.at(key) != off.at(key)) return;
  for (const char* key : kScheduleKeys) config_json.erase(key);
}

}  // namespace dlca
