// Conversion between ExperimentConfig and JSON, with errors that name the offending key.
#include "dlca/config_json.hpp"

#include <fmt/format.h>

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
    throw ConfigError(fmt::format("{}: has the wrong type ({})", key, json.at(key).dump()));
  }
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
      {"periodic", c.periodic},
      {"async", c.async},
      {"fire_rate", c.fire_rate},
      {"loss_channels", c.loss_channels},
      {"seed", c.seed},
      {"random_streams", c.random_streams == RandomStreams::kJax ? "jax" : "dlca"},
  };
}

ExperimentConfig config_from_json(const nlohmann::json& json) {
  if (!json.is_object()) throw ConfigError("config: must be a JSON object");
  static const char* kKnown[] = {"name",
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
                                 "periodic",
                                 "async",
                                 "fire_rate",
                                 "loss_channels",
                                 "seed",
                                 "random_streams"};
  for (const auto& [key, value] : json.items()) {
    bool known = false;
    for (const char* k : kKnown) known = known || key == k;
    if (!known) throw ConfigError(fmt::format("{}: unknown configuration key", key));
  }
  ExperimentConfig c;
  read(json, "name", c.name);
  read(json, "channels", c.channels);
  read(json, "kernels", c.kernels);
  read(json, "perception_layers", c.perception_layers);
  c.perception_connections = read_connections(json, "perception_connections", {});
  read(json, "update_layers", c.update_layers);
  c.update_connections = read_connections(json, "update_connections", {});
  read(json, "height", c.height);
  read(json, "width", c.width);
  read(json, "steps", c.steps);
  read(json, "batch", c.batch);
  read(json, "epochs", c.epochs);
  read(json, "lr", c.learning_rate);
  read(json, "periodic", c.periodic);
  read(json, "async", c.async);
  read(json, "fire_rate", c.fire_rate);
  read(json, "loss_channels", c.loss_channels);
  read(json, "seed", c.seed);
  std::string streams = "jax";  // the default, as ExperimentConfig's
  read(json, "random_streams", streams);
  if (streams != "dlca" && streams != "jax")
    throw ConfigError(
        fmt::format("random_streams: must be \"dlca\" or \"jax\", got \"{}\"", streams));
  c.random_streams = streams == "jax" ? RandomStreams::kJax : RandomStreams::kDlca;
  validate(c);
  return c;
}

}  // namespace dlca
