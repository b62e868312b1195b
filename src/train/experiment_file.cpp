// Loading experiment files and building their tasks (see experiment_file.hpp).
#include "dlca/train/experiment_file.hpp"

#include <filesystem>

#include <fmt/format.h>
#include <sys/stat.h>
#include <nlohmann/json.hpp>

#include "dlca/core/config_json.hpp"
#include "dlca/core/json_numbers.hpp"
#include "dlca/core/json_text.hpp"
#include "dlca/core/option_names.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/data_dir.hpp"
#include "dlca/io/image_target.hpp"
#include "dlca/train/checkerboard.hpp"
#include "dlca/train/game_of_life.hpp"
#include "dlca/train/image_task.hpp"

namespace dlca {

namespace {

TaskSpec task_from_json(const nlohmann::json& j, const std::filesystem::path& dir) {
  if (!j.is_object()) throw ConfigError("task: must be a JSON object");
  TaskSpec t;
  for (const auto& [key, value] : j.items())
    if (key != "kind" && key != "image" && key != "colours" && key != "threshold" &&
        key != "seed_cell")
      throw ConfigError(fmt::format("task.{}: unknown key", key));
  for (const char* key : {"kind", "image", "colours", "seed_cell"})
    if (j.contains(key) && !j.at(key).is_string())
      throw ConfigError(
          fmt::format("task.{}: must be a string, got {}", key, brief_json(j.at(key))));
  try {
    t.kind = j.value("kind", t.kind);
    if (t.kind != "checkerboard" && t.kind != "game_of_life" && t.kind != "image")
      throw ConfigError(
          fmt::format("task.kind: must be checkerboard, game_of_life or image, got '{}'", t.kind));
    if (t.kind != "image")
      for (const char* key : {"image", "colours", "threshold", "seed_cell"})
        if (j.contains(key))
          throw ConfigError(fmt::format("task.{}: only for image tasks (kind is {})", key, t.kind));
    if (t.kind == "image") {
      if (!j.contains("image")) throw ConfigError("task.image: an image task needs a PNG file");
      if (j.at("image").get<std::string>().empty())
        throw ConfigError("task.image: must name a PNG file, got an empty string");
      t.image = (dir / j.at("image").get<std::string>()).string();
      // A pipe would give its bytes to the first of the reads a training makes (the memory
      // estimate, the task, a sweep's checksum) and leave the next one waiting.
      struct stat st {};
      if (::stat(t.image.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        throw FileError(
            fmt::format("task.image: {}: not a regular file (a pipe or device); an "
                        "experiment's picture is read more than once",
                        t.image));
      t.colours = j.value("colours", t.colours);
      if (t.colours != "mono" && t.colours != "8colour")
        throw ConfigError(
            fmt::format("task.colours: must be mono or 8colour, got '{}'", t.colours));
      if (j.contains("threshold") && t.colours != "mono")
        throw ConfigError("task.threshold: only for mono images (8colour rounds each of R, G, B)");
      if (j.contains("threshold"))
        t.threshold = json_float(j.at("threshold"), "task.threshold", 0, 1);
      const std::string seed = j.value("seed_cell", std::string("center"));
      if (seed != "center" && seed != "none")
        throw ConfigError(fmt::format("task.seed_cell: must be center or none, got '{}'", seed));
      t.seed_cell = seed == "center";
    }
  } catch (const nlohmann::json::exception&) {
    throw ConfigError("task: a value has the wrong type");
  }
  return t;
}

}  // namespace

bool names_a_file(const std::string& name_or_path) {
  return std::filesystem::path(name_or_path).extension() == ".json" ||
         name_or_path.find('/') != std::string::npos;  // ./exp.txt, /dev/fd/63: a path
}

ExperimentFile load_experiment(const std::string& name_or_path) {
  return load_experiment(name_or_path,
                         names_a_file(name_or_path) ? std::string() : data_dir().string());
}

ExperimentFile load_experiment(const std::string& name_or_path, const std::string& targets_dir) {
  check_file_name(name_or_path);
  std::filesystem::path path = name_or_path;
  if (!names_a_file(name_or_path)) {
    path = std::filesystem::path(targets_dir) / (name_or_path + ".json");
    std::error_code error;
    if (!std::filesystem::exists(path, error)) {
      if (std::filesystem::is_directory(name_or_path, error))
        throw FileError(
            fmt::format("'{}': is a directory, not an experiment (a name such as "
                        "checkerboard_sync, or a .json file)",
                        name_or_path));
      std::string names;
      for (const std::string& name : experiment_names(targets_dir))
        names += (names.empty() ? "" : ", ") + name;
      const bool here = std::filesystem::is_regular_file(name_or_path, error);
      throw FileError(fmt::format(
          "'{}': no experiment of that name in {} ({}; or give a .json file){}", name_or_path,
          targets_dir, names.empty() ? "it has none" : "it has " + names,
          here
              ? fmt::format(" (the file {0} here is read as a file when named ./{0})", name_or_path)
              : ""));
    }
  }
  const std::string text = read_file(path.string(), size_t(1) << 24);
  nlohmann::json j;
  try {
    j = parse_json_text(text);
  } catch (const nlohmann::json::exception& e) {
    throw FileError(path.string() + ": malformed JSON (" + plain_error_text(e) + ")");
  } catch (const JsonTextError& e) {
    throw FileError(path.string() + ": " + e.what());
  }
  ExperimentFile file = experiment_from_json(j, path.parent_path(), path.string());
  file.path = path.string();
  return file;
}

ExperimentFile experiment_from_json(const nlohmann::json& j, const std::filesystem::path& dir,
                                    const std::string& label) {
  try {
    if (j.is_object() && j.contains("logits"))
      throw ConfigError("is a dlca model file, not an experiment (continue its training with " +
                        option_with_value("resume", "FILE") +
                        ", run its circuit with dlca run --model FILE)");
    if (j.is_object() && j.contains("devices") && j.contains("connectors"))
      throw ConfigError(
          "is a DigitalJS circuit, not an experiment (run it with dlca run --circuit FILE)");
    if (!j.is_object() || !j.contains("config")) throw ConfigError("config: missing");
    for (const auto& [key, value] : j.items())
      if (key != "config" && key != "task") throw ConfigError(fmt::format("{}: unknown key", key));
    ExperimentFile file;
    file.config = config_from_json(j.at("config"));
    file.task = task_from_json(j.value("task", nlohmann::json::object()), dir);
    return file;
  } catch (const ConfigError& e) {
    throw ConfigError(label + ": " + e.what());
  } catch (const FileError& e) {  // its picture is not a file that can be read (a pipe)
    throw FileError(label + ": " + e.what());
  }
}

std::unique_ptr<Task> make_task(const TaskSpec& spec, const ExperimentConfig& c) {
  if (spec.kind == "checkerboard") return std::make_unique<CheckerboardTask>(c);
  if (spec.kind == "game_of_life") {
    if (c.channels != 1 || c.height != 3 || c.width != 3)
      throw ConfigError("task.kind: game_of_life needs 1 channel on a 3x3 grid");
    return std::make_unique<GameOfLifeTask>(c);
  }
  const PictureColours colours = parse_picture_colours(spec.colours);
  if (c.channels < picture_planes(colours))
    throw ConfigError(fmt::format("channels: 8colour targets need at least 3 channels"));
  return std::make_unique<ImageTask>(
      c, read_cell_planes(spec.image, c.height, c.width, colours, spec.threshold),
      picture_planes(colours), spec.seed_cell, picture_source(spec.image, colours, spec.threshold));
}

std::unique_ptr<Task> make_task(const ExperimentFile& file, const ExperimentConfig& config) {
  // Errors name the experiment file; one made in memory (from Python) has none to name.
  const std::string where = file.path.empty() ? std::string() : file.path + ": ";
  try {
    return make_task(file.task, config);
  } catch (const ConfigError& e) {
    throw ConfigError(where + e.what());
  } catch (const FileError& e) {
    throw FileError(where + "task.image: " + e.what());
  }
}

}  // namespace dlca
