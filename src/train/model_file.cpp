// Saving and loading the "dlca-params" JSON file, with every field checked on load.
#include "dlca/model_file.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "dlca/atomic_file.hpp"
#include "dlca/config_json.hpp"

namespace dlca {

namespace {

constexpr const char* kFormat = "dlca-params";
constexpr int kVersion = 1;

nlohmann::json wiring_json(const std::vector<LayerWiring>& layers) {
  auto out = nlohmann::json::array();
  for (const auto& w : layers) out.push_back({{"a", w.a}, {"b", w.b}});
  return out;
}

std::vector<LayerWiring> wiring_from_json(const nlohmann::json& j, const std::vector<int>& widths,
                                          const char* which) {
  if (!j.is_array() || j.size() != widths.size() - 1)
    throw std::runtime_error(
        fmt::format("wiring.{}: expected {} layers", which, widths.size() - 1));
  std::vector<LayerWiring> layers;
  for (size_t l = 0; l < j.size(); ++l) {
    LayerWiring w;
    w.a = j[l].at("a").get<std::vector<uint32_t>>();
    w.b = j[l].at("b").get<std::vector<uint32_t>>();
    if (w.a.size() != size_t(widths[l + 1]) || w.b.size() != size_t(widths[l + 1]))
      throw std::runtime_error(
          fmt::format("wiring.{}[{}]: expected {} gates", which, l, widths[l + 1]));
    for (size_t g = 0; g < w.a.size(); ++g)
      if (w.a[g] >= uint32_t(widths[l]) || w.b[g] >= uint32_t(widths[l]))
        throw std::runtime_error(fmt::format("wiring.{}[{}]: input index out of range", which, l));
    layers.push_back(std::move(w));
  }
  return layers;
}

}  // namespace

std::string params_to_json(const Model& m) {
  nlohmann::json j = {
      {"format", kFormat},
      {"version", kVersion},
      {"config", config_to_json(m.config)},
      {"wiring",
       {{"perception", wiring_json(m.perception_wiring)},
        {"update", wiring_json(m.update_wiring)}}},
      {"logits", m.logits},
  };
  return j.dump() + "\n";
}

void save_params(const Model& model, const std::string& path) {
  write_file_atomically(path, params_to_json(model));
}

Model load_params(const std::string& path) {
  const std::string text = read_file(path);
  try {
    const auto j = nlohmann::json::parse(text);
    if (!j.is_object() || j.value("format", "") != kFormat)
      throw std::runtime_error(fmt::format("not a {} file", kFormat));
    if (j.value("version", -1) != kVersion)
      throw std::runtime_error(fmt::format("unsupported version {} (this build reads {})",
                                           j.value("version", -1), kVersion));
    Model m;
    m.config = config_from_json(j.at("config"));
    build_layout(m);
    m.perception_wiring =
        wiring_from_json(j.at("wiring").at("perception"), m.config.perception_layers, "perception");
    m.update_wiring =
        wiring_from_json(j.at("wiring").at("update"), m.config.update_layers, "update");
    const auto logits = j.at("logits").get<std::vector<float>>();
    if (logits.size() != m.logits.size())
      throw std::runtime_error(
          fmt::format("logits: expected {} values, found {}", m.logits.size(), logits.size()));
    for (float v : logits)
      if (!std::isfinite(v)) throw std::runtime_error("logits: contains a non-finite value");
    m.logits = logits;
    return m;
  } catch (const nlohmann::json::exception& e) {
    throw FileError(path + ": malformed (" + e.what() + ")");
  } catch (const std::exception& e) {
    throw FileError(path + ": " + e.what());
  }
}

}  // namespace dlca
