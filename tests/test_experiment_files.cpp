// The shipped experiment files hold exactly the built-in presets (docs/MODEL.md §10's numbers),
// their tasks build, and a user's file with a bad value is refused naming the file and the field.
#include <doctest/doctest.h>

#include "dlca/core/config_json.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/experiment_file.hpp"
#include "dlca/train/game_of_life.hpp"
#include "dlca/train/image_task.hpp"
#include "scratch_dir.hpp"

using namespace dlca;

TEST_CASE("shipped experiment files equal the built-in presets") {
  const std::string dir = DLCA_SOURCE_DIR "/targets";
  const std::pair<const char*, ExperimentConfig> presets[] = {
      {"checkerboard_sync", checkerboard_sync_config()},
      {"checkerboard_async", checkerboard_async_config()},
      {"game_of_life", game_of_life_config()},
      {"lizard", lizard_config()},
      {"colored_g", colored_g_config()}};
  for (const auto& [name, preset] : presets) {
    CAPTURE(name);
    const ExperimentFile file = load_experiment(name, dir);
    CHECK(config_to_json(file.config) == config_to_json(preset));
    const auto task = make_task(file.task, file.config);
    TaskBatch batch;
    task->make_batch(0, batch);
    CHECK(batch.initial_states.size() ==
          size_t(preset.batch) * preset.channels * preset.height * preset.width);
  }
  CHECK(load_experiment("lizard", dir).task.seed_cell);
  CHECK(!load_experiment("colored_g", dir).task.seed_cell);
}

TEST_CASE("a user's experiment file with a bad value is refused by file and field") {
  testing::ScratchDir dir;
  const std::string path = dir / "dlca_test_experiment.json";
  const auto refusal = [&](const std::string& text) {
    write_file_atomically(path, text);
    try {
      load_experiment(path, ".");
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string config =
      R"("config": {"channels": 2, "kernels": 1, "perception_layers": [9, 8, 4, 2],
      "perception_connections": ["first_kernel", "unique", "unique"], "update_layers": [6, 4, 2],
      "update_connections": ["unique", "unique"], "height": 6, "width": 6})";
  CHECK(refusal("{" + config + "}") == "");
  CHECK(refusal("{" + config + R"(, "task": {"kind": "painting"}})").find("task.kind") !=
        std::string::npos);
  CHECK(refusal("{" + config + R"(, "task": {"kind": "image"}})").find("task.image") !=
        std::string::npos);
  CHECK(refusal("{" + config + R"(, "extra": 1})").find("extra") != std::string::npos);
  // A value of the wrong type is named (it was "task: a value has the wrong type").
  CHECK(refusal("{" + config + R"(, "task": {"kind": null}})")
            .find("task.kind: must be a string, got null") != std::string::npos);
  CHECK(refusal("{" + config + R"(, "task": {"kind": "image", "image": 5}})")
            .find("task.image: must be a string, got 5") != std::string::npos);
  std::string bad = "{" + config + "}";
  bad.replace(bad.find("[6, 4, 2]"), 9, "[6, 1, 2]");
  const std::string message = refusal(bad);
  CHECK(message.find("dlca_test_experiment.json") != std::string::npos);
  CHECK(message.find("update_layers[1]") != std::string::npos);
  CHECK(refusal("{not json").find("malformed") != std::string::npos);
  // A key given twice is refused, not settled by keeping the last value.
  std::string twice = "{" + config + "}";
  twice.replace(twice.find("\"height\": 6"), 11, "\"height\": 6, \"height\": 8");
  CHECK(refusal(twice).find("the key \"height\" is given twice") != std::string::npos);
  CHECK(refusal("{" + config + ", " + config + "}").find("the key \"config\" is given twice") !=
        std::string::npos);
  // Nesting deeper than any dlca file is refused while parsing (copying or printing 100,000
  // nested arrays overflowed the stack).
  const std::string deep =
      "{" + config + R"(, "task": )" + std::string(100000, '[') + std::string(100000, ']') + "}";
  CHECK(refusal(deep).find("nested deeper than 64 levels") != std::string::npos);
  // Entries that would have no effect are refused, not ignored.
  std::string extra_connection = "{" + config + "}";
  extra_connection.replace(extra_connection.find(R"(["unique", "unique"])"), 20,
                           R"(["unique", "unique", "unique"])");
  CHECK(refusal(extra_connection)
            .find("update_connections: needs 2 entries (one per gate layer), got 3") !=
        std::string::npos);
  CHECK(refusal("{" + config + R"(, "task": {"kind": "checkerboard", "threshold": 0.5}})")
            .find("task.threshold: only for image tasks (kind is checkerboard)") !=
        std::string::npos);
  CHECK(
      refusal(
          "{" + config +
          R"(, "task": {"kind": "image", "image": "x.png", "colours": "8colour", "threshold": 0.5}})")
          .find("task.threshold: only for mono images") != std::string::npos);
}
