// Numbers in experiment and model files: integer fields must be JSON integers of the right sign
// (8.7, true, -1 and "8" are refused by field name), floats finite numbers, in the configuration
// and in a checkpoint's training state (behind a correct checksum).
#include <doctest/doctest.h>

#include <cstdio>

#include "dlca/core/config_json.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/checkerboard.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/trainer.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

// The ConfigError message for the checkerboard configuration with `key` set to `value`.
std::string config_refusal(const std::string& key, const nlohmann::json& value) {
  nlohmann::json j = config_to_json(checkerboard_sync_config());
  j[key] = value;
  try {
    config_from_json(j);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("integer fields of a configuration must be integers of the right sign") {
  CHECK(config_refusal("channels", 8.7) == "channels: must be a positive integer, got 8.7");
  CHECK(config_refusal("batch", true) == "batch: must be a positive integer, got true");
  CHECK(config_refusal("steps", "20") == "steps: must be a positive integer, got \"20\"");
  CHECK(config_refusal("epochs", -1) == "epochs: must be a positive integer, got -1");
  CHECK(config_refusal("height", 8.0) == "height: must be a positive integer, got 8.0");
  CHECK(config_refusal("seed", -1) == "seed: must be a non-negative integer, got -1");
  CHECK(config_refusal("width", 4294967296LL) ==
        "width: must be at most 2147483647, got 4294967296");
  // Beyond 64 bits the JSON reader holds a float: too large, not "a non-negative integer".
  CHECK(config_refusal("seed", nlohmann::json::parse("18446744073709551616")) ==
        "seed: must be at most 18446744073709551615, got 1.8446744073709552e+19");
  CHECK(config_refusal("perception_layers", {9, 8, 4, 2.5}) ==
        "perception_layers[3]: must be a positive integer, got 2.5");
  CHECK(config_refusal("loss_channels", {true}) ==
        "loss_channels[0]: must be a non-negative integer, got true");
  CHECK(config_refusal("update_layers", 3) == "update_layers: must be a list of integers, got 3");
  CHECK(config_refusal("lr", true) == "lr: must be a finite number, got true");
  CHECK(config_refusal("fire_rate", "0.5") == "fire_rate: must be a finite number, got \"0.5\"");
  CHECK(config_refusal("seed", 0).empty());  // the bounds themselves are fine
}

TEST_CASE("integers of a checkpoint's training state are checked by field") {
  const std::string path = "dlca_test_file_numbers.json";
  const Model m = make_model(testing::small_config(1, 2, 2, 4, 4, 1, 1, true, false));
  CheckerboardTask task(m.config);
  CpuBackend cpu;
  Trainer trainer(m, task, cpu);
  while (trainer.epoch() < 2) trainer.run_epoch();
  const TrainingState state = training_state_of(trainer);
  nlohmann::json j = nlohmann::json::parse(model_file_text(trainer.model(), &state));
  j.erase("checksum");
  const auto refusal = [&](auto&& change) {
    nlohmann::json copy = j;
    change(copy);
    write_file_atomically(path, seal_model_file(copy));
    try {
      load_checkpoint(path);
    } catch (const FileError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(refusal([](auto&) {}).empty());
  CHECK(refusal([](auto& c) { c["training"]["history"]["active_gates"][1] = 8.7; }) ==
        path + ": training.history.active_gates[1]: must be a non-negative integer, got 8.7");
  CHECK(refusal([](auto& c) { c["training"]["random"]["seed"] = -1; }) ==
        path + ": training.random.seed: must be a non-negative integer, got -1");
  CHECK(refusal([](auto& c) { c["training"]["random"]["next_epoch"] = 2.0; }) ==
        path + ": training.random.next_epoch: must be a non-negative integer, got 2.0");
  CHECK(refusal([](auto& c) { c["config"]["kernels"] = true; }) ==
        path + ": config: kernels: must be a positive integer, got true");
  std::remove(path.c_str());
}

TEST_CASE("float fields: beyond a float's range, or rounded onto a bound they are not on") {
  CHECK(config_refusal("lr", 1e39) ==
        "lr: is beyond a float's range (at most 3.4028235e+38 in size), got 1e+39");
  // 0.99999999999 is 1.0f: sharpening would be silently off.
  CHECK(config_refusal("sharpen_to", 0.99999999999) ==
        "sharpen_to: is 1 as a float, a bound it is not on, got 0.99999999999");
  CHECK(config_refusal("fire_rate", 0.99999999999).find("a bound it is not on") !=
        std::string::npos);
  CHECK(config_refusal("sharpen_to", 0.9999999).empty());  // a float below 1
}
