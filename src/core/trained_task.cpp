// The stored task of a model (see trained_task.hpp): description, the version 2 inference rule,
// consistency with the configuration, and its JSON form.
#include "dlca/core/trained_task.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace dlca {

bool TrainedTask::same_as(const TrainedTask& o) const {
  return kind == o.kind && seed_cell == o.seed_cell && planes == o.planes && height == o.height &&
         width == o.width && target == o.target;
}

const char* task_kind_name(TaskKind kind) {
  switch (kind) {
    case TaskKind::kCheckerboard:
      return "checkerboard";
    case TaskKind::kGameOfLife:
      return "game_of_life";
    case TaskKind::kImage:
      return "image";
    default:
      return "unknown";
  }
}

std::string describe_task(const TrainedTask& t) {
  if (t.kind != TaskKind::kImage) return task_kind_name(t.kind);
  return fmt::format("image ({}x{}, {} plane{}, {}{})", t.width, t.height, t.planes,
                     t.planes == 1 ? "" : "s", t.seed_cell ? "seed cell" : "empty start",
                     t.source.empty() ? "" : ", " + t.source);
}

TrainedTask task_inferred_from_name(const ExperimentConfig& c) {
  TrainedTask t;
  t.inferred = true;
  if (c.name.rfind("checkerboard", 0) == 0) t.kind = TaskKind::kCheckerboard;
  if (c.name == "game_of_life") t.kind = TaskKind::kGameOfLife;
  return t;
}

void check_task_fits(const TrainedTask& t, const ExperimentConfig& c) {
  if (t.kind == TaskKind::kGameOfLife && (c.channels != 1 || c.height != 3 || c.width != 3))
    throw ConfigError(
        fmt::format("task: game_of_life needs 1 channel on a 3x3 grid, the config has {} on {}x{}",
                    c.channels, c.height, c.width));
  if (c.stay && t.kind != TaskKind::kImage)
    throw ConfigError(
        fmt::format("stay: only a picture can be grown to stay, not {}", task_kind_name(t.kind)));
  if (t.kind != TaskKind::kImage) return;
  if (t.height != c.height || t.width != c.width)
    throw ConfigError(fmt::format("task: the image target is {}x{} but the config's grid is {}x{}",
                                  t.width, t.height, c.width, c.height));
  if (t.planes < 1 || t.planes > c.channels)
    throw ConfigError(fmt::format("task.planes: must be 1 to the config's {} channels, got {}",
                                  c.channels, t.planes));
  if (t.target.size() != size_t(t.planes) * t.height * t.width)
    throw ConfigError("task.rows: the target does not have planes x height x width cells");
}

nlohmann::json task_to_json(const TrainedTask& t) {
  if (t.kind == TaskKind::kUnknown)
    throw std::invalid_argument("a model file needs the task the model was trained for");
  nlohmann::json j = {{"kind", task_kind_name(t.kind)}};
  if (t.kind != TaskKind::kImage) return j;
  auto rows = nlohmann::json::array();
  for (int r = 0; r < t.planes * t.height; ++r) {
    std::string row;
    for (int x = 0; x < t.width; x += 4) {
      int digit = 0;
      for (int k = 0; k < 4; ++k)
        digit = digit << 1 | (x + k < t.width && t.target[size_t(r) * t.width + x + k]);
      row.push_back("0123456789abcdef"[digit]);
    }
    rows.push_back(row);
  }
  j["seed_cell"] = t.seed_cell ? "center" : "none";
  j["source"] = t.source;
  j["planes"] = t.planes;
  j["height"] = t.height;
  j["width"] = t.width;
  j["rows"] = rows;
  return j;
}

namespace {

int positive_int(const nlohmann::json& j, const char* key, int most) {
  const auto& v = j.at(key);
  if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > most)
    throw ConfigError(fmt::format("task.{}: must be an integer from 1 to {}", key, most));
  return v.get<int>();
}

}  // namespace

TrainedTask task_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
    throw ConfigError("task: must be an object with a \"kind\"");
  TrainedTask t;
  const std::string kind = j["kind"].get<std::string>();
  const std::vector<std::string> image_keys = {"kind",   "seed_cell", "source", "planes",
                                               "height", "width",     "rows"};
  for (const auto& [key, value] : j.items())
    if (key != "kind" && (kind != "image" ||
                          std::find(image_keys.begin(), image_keys.end(), key) == image_keys.end()))
      throw ConfigError(fmt::format("task.{}: unknown key for a {} task", key, kind));
  if (kind == "checkerboard") {
    t.kind = TaskKind::kCheckerboard;
  } else if (kind == "game_of_life") {
    t.kind = TaskKind::kGameOfLife;
  } else if (kind == "image") {
    t.kind = TaskKind::kImage;
    const auto& seed = j.at("seed_cell");
    if (seed != "center" && seed != "none")
      throw ConfigError("task.seed_cell: must be \"center\" or \"none\"");
    t.seed_cell = seed == "center";
    if (!j.at("source").is_string()) throw ConfigError("task.source: must be a string");
    t.source = j["source"].get<std::string>();
    t.planes = positive_int(j, "planes", 1 << 16);
    t.height = positive_int(j, "height", 1 << 16);
    t.width = positive_int(j, "width", 1 << 16);
    const auto& rows = j.at("rows");
    const size_t digits = size_t(t.width + 3) / 4;
    if (!rows.is_array() || rows.size() != size_t(t.planes) * t.height)
      throw ConfigError("task.rows: must be planes x height strings");
    t.target.reserve(size_t(t.planes) * t.height * t.width);
    for (const auto& row : rows) {
      if (!row.is_string() || row.get_ref<const std::string&>().size() != digits)
        throw ConfigError(fmt::format("task.rows: each must be {} hex digits", digits));
      const std::string& text = row.get_ref<const std::string&>();
      for (int x = 0; x < t.width; ++x) {
        const char c = text[size_t(x) / 4];
        const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (digit < 0) throw ConfigError("task.rows: not lower-case hex digits");
        t.target.push_back(uint8_t(digit >> (3 - x % 4) & 1));
      }
    }
  } else {
    throw ConfigError(
        fmt::format("task.kind: must be checkerboard, game_of_life or image, got '{}'", kind));
  }
  return t;
}

}  // namespace dlca
