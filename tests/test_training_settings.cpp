// Tests of the table of training settings (training_settings.hpp): every key once, every setting
// with a field read and written through it, settings given on top of a configuration as every
// front end applies them, and errors reworded with the command line's option names.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <type_traits>
#include <variant>

#include "dlca/core/config_json.hpp"
#include "dlca/core/model.hpp"
#include "dlca/core/option_names.hpp"
#include "dlca/core/training_settings.hpp"

using namespace dlca;

TEST_CASE("the settings table: keys and options once each, the configuration's keys exactly") {
  std::set<std::string> keys, options;
  for (const Setting& s : training_settings()) {
    CHECK_MESSAGE(keys.insert(s.key).second, s.key);
    if (s.option) CHECK_MESSAGE(options.insert(s.option).second, s.option);
    CHECK_MESSAGE((s.scope == SettingScope::kFilesOnly) == (s.option == nullptr), s.key);
    CHECK_MESSAGE(find_setting(s.key) == &s, s.key);
    CHECK_MESSAGE(std::string(s.help).size() > 8, s.key);  // (what dlca.settings() says of it)
    // A range the readers act on, for every setting with a field; none for those read by hand.
    const bool by_hand = std::holds_alternative<std::monostate>(s.field);
    CHECK_MESSAGE(by_hand == (s.range == SettingRange::kOther), s.key);
  }
  CHECK(find_setting("no_such_key") == nullptr);
  std::set<std::string> written;
  const nlohmann::json json = config_to_json(checkerboard_sync_config());
  for (const auto& [key, value] : json.items()) written.insert(key);
  CHECK(written == keys);
  CHECK(config_keys().size() == keys.size());
}

TEST_CASE("every setting with a field is written and read back through the table") {
  // Each field set to a value in its range other than the paper's, one at a time.
  for (const Setting& s : training_settings()) {
    const std::string key = s.key;
    ExperimentConfig c = checkerboard_sync_config();
    c.async = key == "fire_rate";  // (so that fire_rate may differ)
    bool changed = true;
    std::visit(
        [&](auto field) {
          using Field = decltype(field);
          if constexpr (std::is_same_v<Field, std::monostate>) {
            changed = false;
          } else if constexpr (std::is_same_v<Field, bool ExperimentConfig::*>) {
            c.*field = !(c.*field);
          } else if constexpr (std::is_same_v<Field, float ExperimentConfig::*>) {
            c.*field = s.range == SettingRange::kNumberFromTo ? float(s.high) / 2 : 0.5f;
          } else {
            c.*field += 1;
          }
        },
        s.field);
    if (!changed || key == "halving") continue;  // (halving: with starts, in the next case)
    if (key.starts_with("sharpen") || key == "hard_feedback")
      c.sharpen_to = 0.5f, c.sharpen_end = 10;
    if (key.starts_with("noise") || key == "repeat_schedule" || key == "rounds") c.noise = 0.5f;
    if (key.starts_with("harden")) c.harden = 1, c.harden_start = 2;
    if (key == "harden_end") c.harden_end = 400;
    if (key.starts_with("budget")) c.halving = true;
    if (key == "rounds") c.halving = false;  // (rounds are not for a halving run)
    if (key == "loss_steps") c.loss_steps = 2;
    if (key.starts_with("lr_decay")) c.lr_decay_to = 0.01f;  // (at most lr)
    CAPTURE(key);
    REQUIRE_NOTHROW(validate(c));
    const nlohmann::json written = config_to_json(c);
    const ExperimentConfig read = config_from_json(written);
    CHECK(config_to_json(read) == written);
    CHECK(written.at(s.key) != config_to_json(checkerboard_sync_config()).at(s.key));
  }
}

TEST_CASE("settings given on top of a configuration: the recipe first, its values unless given") {
  nlohmann::json config = config_to_json(checkerboard_sync_config());
  config["recipe"] = "paper";
  config["starts"] = 1;
  config["repair"] = false;
  config["halving"] = true;
  SUBCASE("a recipe drops the values it fills in, unless they are given too") {
    apply_settings(config, {{"recipe", "robust"}, {"repair", false}, {"lr", 0.1}});
    CHECK(config.at("recipe") == "robust");
    CHECK_FALSE(config.contains("starts"));
    CHECK_FALSE(config.contains("stop_when_solved"));
    CHECK_FALSE(config.contains("halving"));
    CHECK(config.at("repair") == false);
    CHECK(config.at("lr") == 0.1);
    const ExperimentConfig read = config_from_json(config);
    CHECK(read.halving);  // robust's
    CHECK(read.stop_when_solved == 1);
    CHECK_FALSE(read.repair);
  }
  SUBCASE("a count of starts without halving drops the configuration's halving") {
    apply_settings(config, {{"starts", 3}});
    CHECK(config.at("starts") == 3);
    CHECK_FALSE(config.contains("halving"));
    CHECK(config.at("recipe") == "paper");
    CHECK_FALSE(config_from_json(config).halving);
  }
  SUBCASE("starts with halving keeps both") {
    apply_settings(config, {{"starts", 3}, {"halving", true}});
    CHECK(config_from_json(config).halving);
  }
}

TEST_CASE("errors reworded with the command line's option names") {
  CHECK(with_option_names("harden_start: must be at least 1") ==
        "--harden-start: must be at least 1");
  CHECK(with_option_names("sharpen_end: must not be before sharpen_start (5), got 2") ==
        "--sharpen-end: must not be before --sharpen-start (5), got 2");
  CHECK(with_option_names("harden_end: 3 stages need at least 3 epochs from harden_start (10) to "
                          "harden_end") ==
        "--harden-end: 3 stages need at least 3 epochs from --harden-start (10) to --harden-end");
  CHECK(with_option_names("lr: must be a positive finite number, got 0") ==
        "--lr: must be a positive finite number, got 0");
  CHECK(with_option_names("budget_epochs: has no effect without halving (--starts auto)") ==
        "--budget: has no effect without halving (--starts auto)");
  // A key that is a prefix of another is not taken for it.
  CHECK(with_option_names("noise_start: has no effect without noise above 0") ==
        "--noise-start: has no effect without --noise above 0");
  // Keys that are plain words too are named only where they cannot be words.
  CHECK(with_option_names("noise: acts on softmax logits: not available with inputwise gates") ==
        "--noise: acts on softmax logits: not available with inputwise gates");
  CHECK(with_option_names("update_layers: the network has 9 gates, use fewer steps") ==
        "update_layers: the network has 9 gates, use fewer steps");
  CHECK(
      with_option_names("weight_decay: its product with lr must be below 1, got weight_decay "
                        "0.5 with lr 3") ==
      "--weight-decay: its product with --lr must be below 1, got --weight-decay 0.5 with --lr 3");
  // Only the settings the user gave are named as options: values from a file keep their keys.
  const auto only = [](std::string key) {
    return [key](const Setting& s) { return s.key == key; };
  };
  CHECK(with_option_names("noise_start: has no effect without noise above 0", only("noise")) ==
        "noise_start: has no effect without --noise above 0");
  CHECK(with_option_names("height: grid cells times batch exceed 2^26") ==
        "height: grid cells times batch exceed 2^26");
  CHECK(with_option_names("loss_channels: channel 3 is outside 0..0", only("lr")) ==
        "loss_channels: channel 3 is outside 0..0");
  CHECK(with_option_names("loss_channels: channel 3 is outside 0..0") ==
        "--loss-channels: channel 3 is outside 0..0");
  // A real refusal of validate(), as a program shows it.
  ExperimentConfig c = checkerboard_sync_config();
  c.loss_steps = c.steps + 1;
  try {
    validate(c);
    FAIL("accepted");
  } catch (const ConfigError& e) {
    CHECK(with_option_names(e.what()).starts_with("--loss-steps: must be from 1 to --steps ("));
  }
}

TEST_CASE("options named in messages in the front end's own terms") {
  REQUIRE(option_wording() == OptionWording::kCommandLine);  // the programs' default
  CHECK(option_name("tile_cells") == "--tile-cells");
  CHECK(option_name("budget_epochs") == "--budget");  // the settings table's option
  CHECK(option_with_value("resume", "m.json") == "--resume m.json");
  set_option_wording(OptionWording::kKeywords);  // the Python module's
  CHECK(option_name("tile_cells") == "tile_cells");
  CHECK(option_name("budget_epochs") == "budget_epochs");
  CHECK(option_with_value("resume", "it's.json") == "resume='it\\'s.json'");
  CHECK(option_with_value("seed", "4") == "seed=4");
  CHECK(option_with_value("resume", "123") == "resume='123'");  // a file, whatever its name
  CHECK(option_with_value("max_memory", "1e3") == "max_memory='1e3'");
  CHECK(option_with_value("starts", "auto") == "starts='auto'");
  set_option_wording(OptionWording::kSweepSettings);  // dlca sweep's: --set, but its own options
  CHECK(option_name("lr") == "--set lr");
  CHECK(option_with_value("starts", "auto") == "--set starts=auto");
  CHECK(option_with_value("budget_epochs", "100") == "--set budget_epochs=100");
  CHECK(option_with_value("epochs", "500") == "--epochs 500");
  CHECK(option_name("stop_when_solved") == "--stop-when-solved");
  set_option_wording(OptionWording::kCommandLine);
}
