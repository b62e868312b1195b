// Model files version 3 store the task: round trips of each kind, a version 2 file (written before
// version 3) still loads with its task inferred by the one rule, a stored task that cannot fit its
// configuration is refused, training refuses a model of another task, and the defaults
// docs/training.md documents (random streams) are those of the configuration and of files without
// the key.
#include <doctest/doctest.h>

#include <cstdio>

#include "dlca/core/config_json.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/image_target.hpp"
#include "dlca/train/checkerboard.hpp"
#include "dlca/train/evaluation.hpp"
#include "dlca/train/experiment_file.hpp"
#include "dlca/train/game_of_life.hpp"
#include "dlca/train/image_task.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/trainer.hpp"
#include "scratch_dir.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

// A model trained one epoch on `task`, saved as a checkpoint and loaded back.
Model round_trip(const ExperimentConfig& c, const Task& task, const std::string& path) {
  CpuBackend cpu;
  Trainer trainer(make_model(c), task, cpu);
  trainer.run_epoch();
  const TrainingState state = training_state_of(trainer);
  save_model_file(path, trainer.model(), &state);
  Model back = load_model(path);
  return back;
}

}  // namespace

TEST_CASE("model files store the task: checkerboard, Game of Life and image round-trip") {
  testing::ScratchDir dir;
  const std::string path = dir / "dlca_test_task.json";
  ExperimentConfig cb = testing::small_config(2, 2, 2, 5, 6, 2, 1, false, false);
  cb.name = "renamed";     // the task is stored, not read from the name
  cb.loss_channels = {0};  // the checkerboard's one target plane
  const Model a = round_trip(cb, CheckerboardTask(cb), path);
  CHECK(a.task.kind == TaskKind::kCheckerboard);
  CHECK_FALSE(a.task.inferred);
  CHECK(evaluation_target(a, 4) ==
        std::vector<uint8_t>{0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0});

  ExperimentConfig gol = game_of_life_config();
  gol.update_layers = {1 + 16 * 1 * 1, 16, 8, 4, 2, 1};
  gol.update_connections.assign(gol.update_layers.size() - 1, Connection::kUnique);
  const Model b = round_trip(gol, GameOfLifeTask(gol), path);
  CHECK(b.task.kind == TaskKind::kGameOfLife);
  CHECK_THROWS_AS(evaluation_target(b, 8), std::invalid_argument);

  ExperimentConfig img = testing::small_config(3, 2, 2, 5, 6, 2, 1, true, false);
  std::vector<uint8_t> planes(3 * 5 * 6);
  for (size_t i = 0; i < planes.size(); ++i) planes[i] = uint8_t(i % 7 < 3);
  const Model c = round_trip(img, ImageTask(img, planes, 3, true, "t.png, 8colour"), path);
  CHECK(c.task.kind == TaskKind::kImage);
  CHECK(c.task.target == planes);
  CHECK(c.task.planes == 3);
  CHECK(c.task.seed_cell);
  CHECK(c.task.source == "t.png, 8colour");
  CHECK(describe_task(c.task) == "image (6x5, 3 planes, seed cell, t.png, 8colour)");
}

TEST_CASE("a version 2 model file still loads; its task is inferred from the name") {
  const Model m = load_model(DLCA_SOURCE_DIR "/tests/data/model_v2_checkerboard.json");
  CHECK(m.config.name == "checkerboard_tiny");
  CHECK(m.task.kind == TaskKind::kCheckerboard);
  CHECK(m.task.inferred);
  CHECK(active_gate_count(m) == 40);
  ExperimentConfig c = m.config;
  c.name = "game_of_life";
  CHECK(task_inferred_from_name(c).kind == TaskKind::kGameOfLife);
  c.name = "my_checkerboard";  // one rule: the name must start with "checkerboard"
  CHECK(task_inferred_from_name(c).kind == TaskKind::kUnknown);
}

TEST_CASE("a stored task that cannot fit its configuration is refused by name") {
  testing::ScratchDir dir;
  const std::string path = dir / "dlca_test_task_bad.json";
  const std::string prefix = dir.path.string() + "/";
  ExperimentConfig c = testing::small_config(2, 2, 2, 4, 4, 2, 1, false, false);
  c.loss_channels = {0};  // the checkerboard's one target plane
  CpuBackend cpu;
  CheckerboardTask task(c);
  Trainer trainer(make_model(c), task, cpu);
  nlohmann::json j = nlohmann::json::parse(model_file_text(trainer.model(), nullptr));
  j.erase("checksum");
  const auto refusal = [&](const nlohmann::json& t) {
    nlohmann::json copy = j;
    copy["task"] = t;
    write_file_atomically(path, seal_model_file(copy));
    try {
      load_model(path);
    } catch (const FileError& e) {
      return std::string(e.what()).substr(prefix.size());  // "NAME: reason"
    }
    return std::string();
  };
  CHECK(refusal({{"kind", "game_of_life"}}) ==
        "dlca_test_task_bad.json: config: task: game_of_life needs 1 channel on a 3x3 grid, the "
        "config has 2 on 4x4");
  const nlohmann::json image = {{"kind", "image"},
                                {"seed_cell", "none"},
                                {"source", ""},
                                {"planes", 1},
                                {"height", 4},
                                {"width", 4},
                                {"rows", {"f", "0", "a", "5"}}};
  CHECK(refusal(image).empty());
  nlohmann::json wrong = image;
  wrong["height"] = 5;
  wrong["rows"].push_back("0");
  CHECK(refusal(wrong) ==
        "dlca_test_task_bad.json: config: task: the image target is 4x5 but the config's grid is "
        "4x4");
  wrong = image;
  wrong["planes"] = 3;
  CHECK(refusal(wrong).find("task.rows: must be planes x height strings") != std::string::npos);
  wrong = image;
  wrong["rows"][1] = "g";
  CHECK(refusal(wrong).find("task.rows: not lower-case hex digits") != std::string::npos);
  CHECK(refusal({{"kind", "lizard"}}).find("task.kind: must be checkerboard") != std::string::npos);
  j.erase("task");
  write_file_atomically(path, seal_model_file(j));
  CHECK_THROWS_WITH(load_model(path), (path + ": task: missing").c_str());
}

TEST_CASE("training refuses a model that was trained for another task") {
  ExperimentConfig c = testing::small_config(1, 2, 2, 3, 3, 1, 1, true, false);
  CpuBackend cpu;
  CheckerboardTask checkerboard(c);
  Trainer first(make_model(c), checkerboard, cpu);
  CHECK(first.model().task.kind == TaskKind::kCheckerboard);
  std::vector<uint8_t> planes(9, 1);
  ImageTask image(c, planes, 1, false, "");
  CHECK_THROWS_WITH(Trainer(first.model(), image, cpu),
                    "the model was trained for checkerboard, not for image (3x3, 1 plane, empty "
                    "start)");
}

TEST_CASE(
    "the paper's image targets are the masks of docs/MODEL.md §10.4-10.5, as the experiment files "
    "make them") {
  for (const char* name : {"lizard", "colored_g"}) {
    const ExperimentFile file = load_experiment(name, DLCA_SOURCE_DIR "/targets");
    const auto task = make_task(file.task, file.config);
    const TrainedTask described = task->describe();
    CHECK(described.target == (std::string(name) == "lizard" ? lizard_mask() : colored_g_masks()));
  }
}

TEST_CASE("the random streams default to jax, as documented, also in files without the key") {
  CHECK(ExperimentConfig().random_streams == RandomStreams::kJax);
  nlohmann::json j = config_to_json(testing::small_config(1, 2, 2, 4, 4, 1, 1, false, false));
  j.erase("random_streams");
  CHECK(config_from_json(j).random_streams == RandomStreams::kJax);
}
