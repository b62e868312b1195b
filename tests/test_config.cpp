// Tests that impossible configurations are rejected with the offending field named, and that
// configurations round-trip through JSON.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>

#include "dlca/core/config_json.hpp"
#include "dlca/core/model.hpp"
#include "dlca/core/training_settings.hpp"

using namespace dlca;

namespace {

// Applies `change` to the checkerboard config and returns validate()'s message ("" if accepted).
std::string rejection(const std::function<void(ExperimentConfig&)>& change) {
  ExperimentConfig c = checkerboard_sync_config();
  change(c);
  try {
    validate(c);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

}  // namespace

TEST_CASE("the paper's checkerboard configuration is valid") {
  CHECK(rejection([](auto&) {}) == "");
}

TEST_CASE("impossible configurations are rejected by field") {
  CHECK(starts_with(rejection([](auto& c) { c.update_layers[3] = 100; }),
                    "update_layers[3]"));  // 256 -> 100
  CHECK(starts_with(rejection([](auto& c) { c.update_layers.back() = 4; }), "update_layers"));
  CHECK(
      starts_with(rejection([](auto& c) { c.perception_layers[1] = 7; }), "perception_layers[1]"));
  CHECK(starts_with(
      rejection([](auto& c) { c.perception_connections[1] = Connection::kFirstKernel; }),
      "perception_layers[2]"));
  CHECK(
      starts_with(rejection([](auto& c) { c.perception_layers[0] = 8; }), "perception_layers[0]"));
  CHECK(starts_with(rejection([](auto& c) { c.update_layers[0] = 265; }), "update_layers[0]"));
  CHECK(starts_with(rejection([](auto& c) { c.channels = 0; }), "channels"));
  CHECK(starts_with(rejection([](auto& c) { c.kernels = -1; }), "kernels"));
  CHECK(starts_with(rejection([](auto& c) { c.height = 0; }), "height"));
  CHECK(starts_with(rejection([](auto& c) { c.width = -3; }), "width"));
  CHECK(starts_with(rejection([](auto& c) { c.steps = 0; }), "steps"));
  CHECK(starts_with(rejection([](auto& c) { c.batch = 0; }), "batch"));
  CHECK(starts_with(rejection([](auto& c) { c.epochs = 0; }), "epochs"));
  CHECK(starts_with(rejection([](auto& c) { c.learning_rate = 0; }), "lr"));
  CHECK(starts_with(rejection([](auto& c) { c.learning_rate = std::nanf(""); }), "lr"));
  CHECK(starts_with(rejection([](auto& c) { c.fire_rate = 1.5f; }), "fire_rate"));
  // A fire rate asked for on a synchronous run would change nothing (sweep --set, Python).
  CHECK(rejection([](auto& c) { c.fire_rate = 0.3f; }) ==
        "fire_rate: has no effect without async (a synchronous step updates every cell), got 0.3 "
        "with async false");
  CHECK(rejection([](auto& c) {
          c.async = true;
          c.fire_rate = 0.3f;
        }).empty());
  CHECK(starts_with(rejection([](auto& c) { c.loss_channels = {8}; }), "loss_channels"));
  // A model whose checkpoint dlca could not read back (over 1 GiB) is refused before training.
  CHECK(starts_with(rejection([](auto& c) {
                      c.update_layers.insert(c.update_layers.begin() + 2, 10000, 256);
                      c.update_connections.assign(c.update_layers.size() - 1, Connection::kUnique);
                    }),
                    "update_layers: too large: a checkpoint would take about"));
  CHECK(starts_with(rejection([](auto& c) {
                      c.update_layers.insert(c.update_layers.begin() + 2, 400, 256);
                      c.update_connections.assign(c.update_layers.size() - 1, Connection::kUnique);
                      c.starts = 64;
                    }),
                    "starts: too large"));
  CHECK(starts_with(rejection([](auto& c) { c.epochs = 2000000000; }), "epochs: too large"));
  CHECK(rejection([](auto& c) { c.epochs = 1000000; }).empty());
  CHECK(starts_with(rejection([](auto& c) { c.loss_channels = {}; }), "loss_channels"));
  CHECK(starts_with(rejection([](auto& c) { c.loss_channels = {0, 0}; }), "loss_channels"));
  CHECK(starts_with(rejection([](auto& c) { c.sharpen_to = 0; }), "sharpen_to"));
  CHECK(starts_with(rejection([](auto& c) { c.sharpen_to = 1.5f; }), "sharpen_to"));
  CHECK(starts_with(rejection([](auto& c) { c.sharpen_to = std::nanf(""); }), "sharpen_to"));
  CHECK(starts_with(rejection([](auto& c) { c.sharpen_start = -1; }), "sharpen_start"));
  CHECK(starts_with(rejection([](auto& c) { c.adam_eps = 0; }), "adam_eps"));
  CHECK(starts_with(rejection([](auto& c) { c.adam_eps = 2; }), "adam_eps"));
  CHECK(starts_with(rejection([](auto& c) { c.adam_eps = std::nanf(""); }), "adam_eps"));
  CHECK(starts_with(rejection([](auto& c) { c.adam_eps = 1e-39f; }), "adam_eps"));  // denormal
  CHECK(starts_with(rejection([](auto& c) { c.adam_beta1 = 1; }), "adam_beta1"));
  CHECK(starts_with(rejection([](auto& c) { c.adam_beta1 = -0.1f; }), "adam_beta1"));
  CHECK(starts_with(rejection([](auto& c) { c.adam_beta2 = 1; }), "adam_beta2"));
  CHECK(starts_with(rejection([](auto& c) { c.adam_beta2 = std::nanf(""); }), "adam_beta2"));
  CHECK(starts_with(rejection([](auto& c) { c.weight_decay = -0.01f; }), "weight_decay"));
  CHECK(starts_with(rejection([](auto& c) { c.weight_decay = 1.5f; }), "weight_decay"));
  CHECK(starts_with(rejection([](auto& c) { c.weight_decay = std::nanf(""); }), "weight_decay"));
  CHECK(starts_with(rejection([](auto& c) {
                      c.learning_rate = 2;
                      c.weight_decay = 0.5f;
                    }),
                    "weight_decay: its product with lr must be below 1"));
  CHECK(starts_with(rejection([](auto& c) { c.noise = -0.5f; }), "noise"));
  CHECK(starts_with(rejection([](auto& c) { c.noise = INFINITY; }), "noise"));
  CHECK(starts_with(rejection([](auto& c) { c.noise_start = -2; }), "noise_start"));
  CHECK(starts_with(rejection([](auto& c) { c.noise_end = -1; }), "noise_end"));
  CHECK(starts_with(rejection([](auto& c) { c.repeat_schedule = -5; }), "repeat_schedule"));
  CHECK(rejection([](auto& c) {
          c.repeat_schedule = 50;
          c.recipe = Recipe::kPaper;
        }) == "repeat_schedule: has no effect without noise or sharpening to repeat");
  CHECK(rejection([](auto& c) {
          c.repeat_schedule = 50;
          c.given.schedule = true;  // robust, with a schedule of its own given: none
        }) == "repeat_schedule: has no effect without noise or sharpening to repeat");
  CHECK(starts_with(rejection([](auto& c) {
                      c.sharpen_start = 10;
                      c.sharpen_end = 5;
                    }),
                    "sharpen_end"));
  CHECK(starts_with(rejection([](auto& c) { c.update_connections.pop_back(); }),
                    "update_connections"));
  CHECK(starts_with(rejection([](auto& c) { c.perception_layers = {9}; }), "perception_layers"));
  CHECK(starts_with(rejection([](auto& c) { c.update_layers[5] = 0; }), "update_layers[5]"));
  CHECK(
      starts_with(rejection([](auto& c) { c.seed = 1ull << 32; }), "seed"));  // JAX keys are 32-bit
  CHECK(rejection([](auto& c) {
          c.seed = 1ull << 40;
          c.random_streams = RandomStreams::kDlca;
        }) == "");
  CHECK_THROWS_AS(make_model([] {
                    auto c = checkerboard_sync_config();
                    c.update_layers[2] = 1000;
                    return c;
                  }()),
                  ConfigError);
}

TEST_CASE("a recipe gives starts, stop_when_solved and repair unless the file sets them") {
  nlohmann::json j = config_to_json(checkerboard_sync_config());
  for (const char* key : kRecipeKeys) j.erase(key);
  j["recipe"] = "robust";
  ExperimentConfig c = config_from_json(j);
  CHECK(c.starts == 4);
  CHECK(c.stop_when_solved == 1);
  CHECK(c.repair);
  j["repair"] = false;
  j["starts"] = 2;
  c = config_from_json(j);
  CHECK(c.starts == 2);
  CHECK(c.stop_when_solved == 1);
  CHECK_FALSE(c.repair);
  j.erase("repair");
  j.erase("starts");
  j["recipe"] = "paper";
  c = config_from_json(j);
  CHECK(c.starts == 1);
  CHECK(c.stop_when_solved == 0);
  CHECK_FALSE(c.repair);
  // A file that names no recipe gets the default, robust, with its values.
  j.erase("recipe");
  c = config_from_json(j);
  CHECK(c.recipe == Recipe::kRobust);
  CHECK(c.starts == 4);
  CHECK(c.stop_when_solved == 1);
  CHECK(c.repair);
}

TEST_CASE("a recipe chosen after a file's starts gives its own, as every front end does") {
  // A picture's file with the notebook's recipe and one start, then robust chosen on top of it:
  // robust's four full starts (no halving) for a picture, as Python and sweeps give (they drop the
  // file's starts with apply_settings), not halving because the file's starts stayed "given".
  nlohmann::json j = config_to_json(checkerboard_sync_config());
  j["recipe"] = "paper";
  j["starts"] = 1;
  ExperimentConfig c = config_from_json(j);
  REQUIRE(c.given.starts);
  use_recipe(c, Recipe::kRobust);  // the command line's --recipe robust
  CHECK_FALSE(c.given.starts);
  CHECK(c.starts == 4);
  CHECK_FALSE(with_recipe_schedule(c, true).halving);
  apply_settings(j, {{"recipe", "robust"}});  // the same from Python or a sweep
  const ExperimentConfig applied = config_from_json(j);
  CHECK(applied.starts == c.starts);
  CHECK(with_recipe_schedule(applied, true).halving == with_recipe_schedule(c, true).halving);
}

TEST_CASE("a fire rate given for a synchronous configuration is refused, whatever its value") {
  nlohmann::json j = config_to_json(checkerboard_sync_config());
  const nlohmann::json notebook_rate = {{"fire_rate", 0.6}};
  CHECK_THROWS_WITH_AS(apply_settings(j, notebook_rate),
                       doctest::Contains("fire_rate: has no effect without async"), ConfigError);
  nlohmann::json a = config_to_json(checkerboard_async_config());
  apply_settings(a, {{"fire_rate", 0.5}});
  CHECK(config_from_json(a).fire_rate == 0.5f);
}

TEST_CASE("robust's schedule for targets grown from a fixed start, relative to the epochs") {
  ExperimentConfig c = checkerboard_sync_config();
  c.epochs = 3000;
  c.recipe = Recipe::kRobust;
  const ExperimentConfig g = with_recipe_schedule(c, true);
  CHECK(g.noise == 0.1f);
  CHECK(g.noise_start == 1500);
  CHECK(g.noise_end == 2600);
  CHECK(g.sharpen_to == 0.05f);
  CHECK(g.sharpen_start == 1500);
  CHECK(g.sharpen_end == 3000);
  CHECK(g.adam_eps == 1e-16f);
  CHECK(g.starts == c.starts);
  // Four starts that all train to the end, unless starts (or halving) were given; halving stays
  // for the other tasks.
  REQUIRE(c.halving);
  CHECK(!g.halving);
  CHECK(with_recipe_schedule(c, false).halving);
  ExperimentConfig given = c;
  given.given.starts = true;
  CHECK(with_recipe_schedule(given, true).halving);
  c.halving = false;  // (below: what else changes)
  c.epochs = 3500;
  CHECK(with_recipe_schedule(c, true).noise_end == 3033);
  for (int epochs : {1, 2, 3, 7}) {  // a valid schedule for any run length
    c.epochs = epochs;
    CHECK_NOTHROW(validate(with_recipe_schedule(c, true)));
  }
  // Unchanged: the paper recipe; noise or sharpening given keep their schedule (and get the
  // epsilon), an epsilon given is kept. Not grown from a fixed start: input-wise gates and
  // nothing else, unless gates were given.
  const auto unchanged = [](const ExperimentConfig& x, bool fixed_start) {
    return config_to_json(with_recipe_schedule(x, fixed_start)) == config_to_json(x);
  };
  ExperimentConfig input_wise = c;
  input_wise.gates = GateKind::kInputWise;
  CHECK(config_to_json(with_recipe_schedule(c, false)) == config_to_json(input_wise));
  ExperimentConfig softmax_given = c;
  softmax_given.given.gates = true;
  CHECK(unchanged(softmax_given, false));
  // A schedule of one's own is kept, with robust's rounds of it (kRobustRounds).
  const auto with_rounds = [](ExperimentConfig x) {
    x.rounds = kRobustRounds;
    return config_to_json(x);
  };
  ExperimentConfig own = c;
  own.sharpen_to = 0.2f;
  own.adam_eps = 1e-16f;
  CHECK(config_to_json(with_recipe_schedule(own, true)) == with_rounds(own));
  own = c;
  own.noise = 0.3f;
  own.adam_eps = 1e-16f;
  CHECK(config_to_json(with_recipe_schedule(own, true)) == with_rounds(own));
  own = c;
  own.adam_eps = 1e-10f;
  CHECK(with_recipe_schedule(own, true).adam_eps == 1e-10f);
  CHECK(with_recipe_schedule(own, true).noise == 0.1f);
  own = c;
  own.recipe = Recipe::kPaper;
  CHECK(unchanged(own, true));
  CHECK(unchanged(own, false));
  // Given at the notebook's values (--adam-eps 1e-8, --noise 0): kept as given.
  own = c;
  own.given.adam_eps = true;
  CHECK(with_recipe_schedule(own, true).adam_eps == kNotebookAdamEps);
  CHECK(with_recipe_schedule(own, true).noise == 0.1f);
  own = c;
  own.given.schedule = true;
  CHECK(with_recipe_schedule(own, true).noise == 0.0f);
  CHECK(with_recipe_schedule(own, true).sharpen_to == 1.0f);
  CHECK(with_recipe_schedule(own, true).adam_eps == 1e-16f);
}

TEST_CASE("a configuration read from JSON marks the keys robust would fill in, when given") {
  ExperimentConfig c = checkerboard_sync_config();
  nlohmann::json j = config_to_json(c);  // every key written, so every one given
  CHECK(config_from_json(j).given.adam_eps);
  CHECK(config_from_json(j).given.schedule);
  drop_recipe_filled_keys(j, {});  // the notebook's values, not given: dropped
  CHECK_FALSE(j.contains("adam_eps"));
  CHECK_FALSE(j.contains("noise"));
  CHECK_FALSE(j.contains("sharpen_end"));
  CHECK_FALSE(j.contains("rounds"));
  CHECK_FALSE(config_from_json(j).given.adam_eps);
  CHECK_FALSE(config_from_json(j).given.schedule);
  CHECK_FALSE(config_from_json(j).given.rounds);
  j["noise_end"] = 0;  // one key of the schedule marks it all
  CHECK(config_from_json(j).given.schedule);
  // Given, or not the notebook's: kept.
  j = config_to_json(c);
  drop_recipe_filled_keys(j, {.adam_eps = true, .schedule = true, .rounds = true});
  CHECK(j.contains("rounds"));
  CHECK(config_from_json(j).given.rounds);
  CHECK(j.contains("adam_eps"));
  CHECK(j.contains("noise_start"));
  c.adam_eps = 1e-12f;
  c.sharpen_to = 0.5f;
  j = config_to_json(c);
  drop_recipe_filled_keys(j, {});
  CHECK(j.at("adam_eps") == 1e-12f);
  CHECK(j.at("sharpen_to") == 0.5f);
  CHECK(j.contains("noise"));
}

TEST_CASE("configurations round-trip through JSON; unknown keys and wrong types are named") {
  const ExperimentConfig c = checkerboard_sync_config();
  const ExperimentConfig back = config_from_json(config_to_json(c));
  CHECK(config_to_json(back) == config_to_json(c));
  auto j = config_to_json(c);
  j["stpes"] = 3;
  CHECK_THROWS_WITH_AS(config_from_json(j), doctest::Contains("stpes"), ConfigError);
  j = config_to_json(c);
  j["steps"] = "many";
  CHECK_THROWS_WITH_AS(config_from_json(j), doctest::Contains("steps"), ConfigError);
  j = config_to_json(c);
  j["random_streams"] = "numpy";
  CHECK_THROWS_WITH_AS(config_from_json(j), doctest::Contains("random_streams"), ConfigError);
  j = config_to_json(c);
  j["repair"] = 1;
  CHECK_THROWS_WITH_AS(config_from_json(j), "repair: must be true or false, got 1", ConfigError);
  j = config_to_json(c);
  j["adam_eps"] = 1e-50;  // a float would read it as 0
  CHECK_THROWS_WITH_AS(config_from_json(j),
                       doctest::Contains("adam_eps: is too close to 0 for a float"), ConfigError);
  j["adam_eps"] = 0;
  CHECK_THROWS_WITH_AS(config_from_json(j), doctest::Contains("adam_eps: must be in"), ConfigError);
  j = config_to_json(c);
  j["weight_decay"] = 2;
  CHECK_THROWS_WITH_AS(config_from_json(j), doctest::Contains("weight_decay: must be"),
                       ConfigError);
  j = config_to_json(c);
  j["adam_beta1"] = 0.8;
  j["adam_beta2"] = 0.95;
  j["weight_decay"] = 0;
  const ExperimentConfig tuned = config_from_json(j);
  CHECK(tuned.adam_beta1 == 0.8f);
  CHECK(tuned.adam_beta2 == 0.95f);
  CHECK(tuned.weight_decay == 0);
  j = config_to_json(c);
  j["name"] = 7;
  CHECK_THROWS_WITH_AS(config_from_json(j), "name: must be a string, got 7", ConfigError);
  j = config_to_json(c);
  j["update_connections"][0] = "sideways";
  CHECK_THROWS_WITH_AS(config_from_json(j), doctest::Contains("update_connections"), ConfigError);
}

TEST_CASE(
    "the sharpening schedule: 1 before it starts, geometric from 1 to sharpen_to, then flat") {
  ExperimentConfig c = checkerboard_sync_config();
  for (int64_t e : {0, 100, 5000}) CHECK(forward_temperature(c, e) == 1.0);  // off by default
  c.sharpen_to = 0.01f;
  c.sharpen_start = 100;
  c.sharpen_end = 300;
  CHECK(forward_temperature(c, 99) == 1.0);
  CHECK(forward_temperature(c, 100) == 1.0);
  CHECK(forward_temperature(c, 200) == doctest::Approx(0.1).epsilon(1e-6));  // halfway, in logs
  CHECK(forward_temperature(c, 250) == doctest::Approx(std::pow(0.01, 0.75)).epsilon(1e-6));
  CHECK(forward_temperature(c, 300) == double(0.01f));
  CHECK(forward_temperature(c, 100000) == double(0.01f));
  c.sharpen_end = 100;  // a step at sharpen_start
  CHECK(forward_temperature(c, 99) == 1.0);
  CHECK(forward_temperature(c, 100) == double(0.01f));
  c.adam_eps = 1e-12f;
  const ExperimentConfig back = config_from_json(config_to_json(c));
  CHECK(back.adam_eps == 1e-12f);
  CHECK(config_from_json(config_to_json(checkerboard_sync_config())).adam_eps == 1e-8f);
  CHECK(back.sharpen_to == c.sharpen_to);
  CHECK(back.sharpen_start == 100);
  CHECK(back.sharpen_end == 100);
}

TEST_CASE("the learning-rate decay: lr before it starts, a half cosine to lr_decay_to, then flat") {
  ExperimentConfig c = checkerboard_sync_config();
  for (int64_t e : {0, 100, 5000}) CHECK(learning_rate_at(c, e) == c.learning_rate);  // off
  c.learning_rate = 0.06f;
  c.lr_decay_to = 0.006f;
  c.lr_decay_start = 100;
  c.lr_decay_end = 300;
  validate(c);
  CHECK(learning_rate_at(c, 0) == 0.06f);
  CHECK(learning_rate_at(c, 100) == 0.06f);  // exactly lr at the start
  CHECK(learning_rate_at(c, 200) == doctest::Approx(0.033).epsilon(1e-6));  // halfway
  CHECK(learning_rate_at(c, 150) ==
        doctest::Approx(0.006 + 0.054 * (1 + std::cos(M_PI / 4)) / 2).epsilon(1e-6));
  CHECK(learning_rate_at(c, 299) > 0.006f);
  CHECK(learning_rate_at(c, 300) == 0.006f);
  CHECK(learning_rate_at(c, 100000) == 0.006f);  // and through any rounds after
  c.lr_decay_end = 0;                            // to the run's epochs
  CHECK(learning_rate_at(c, c.epochs) == 0.006f);
  CHECK(learning_rate_at(c, (100 + c.epochs) / 2) == doctest::Approx(0.033).epsilon(1e-4));
  const ExperimentConfig back = config_from_json(config_to_json(c));
  CHECK(back.lr_decay_to == 0.006f);
  CHECK(back.lr_decay_start == 100);
  const auto refused = [&](auto change) {
    ExperimentConfig bad = c;
    change(bad);
    try {
      validate(bad);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(refused([](ExperimentConfig& b) {
          b.lr_decay_to = 0.1f;
        }).starts_with("lr_decay_to: must be 0 (off) or above 0 and at most lr (0.06), got 0.1"));
  CHECK(refused([](ExperimentConfig& b) { b.lr_decay_to = -1; }).starts_with("lr_decay_to:"));
  CHECK(refused([](ExperimentConfig& b) {
          b.lr_decay_end = 50;
        }).starts_with("lr_decay_end: must be 0 (the run's epochs) or after lr_decay_start (100)"));
  CHECK(refused([](ExperimentConfig& b) {
          b.lr_decay_start = b.epochs;
        }).starts_with("lr_decay_start: must be before the run's last epoch"));
  CHECK(refused([](ExperimentConfig& b) {
          b.lr_decay_to = 0;
        }).starts_with("lr_decay_start: has no effect without lr_decay_to above 0"));
}

TEST_CASE("a repeated schedule: noise and sharpening read every period again from their start") {
  ExperimentConfig c = checkerboard_sync_config();
  c.sharpen_to = 0.05f;
  c.sharpen_start = 150;
  c.sharpen_end = 300;
  c.noise = 0.1f;
  c.noise_start = 150;
  c.noise_end = 260;
  for (int64_t e : {0, 149, 150, 299, 300, 450, 5000}) CHECK(schedule_epoch(c, e) == e);  // off
  c.repeat_schedule = 150;
  // The first round is the schedule itself; from 300 on every epoch is read 150 epochs back.
  for (int64_t e : {0, 149, 150, 299}) CHECK(schedule_epoch(c, e) == e);
  CHECK(schedule_epoch(c, 300) == 150);
  CHECK(schedule_epoch(c, 449) == 299);
  CHECK(schedule_epoch(c, 450) == 150);
  CHECK(schedule_epoch(c, 1000) == 250);
  CHECK(forward_temperature(c, 299) < 0.06);
  CHECK(forward_temperature(c, 300) == 1.0);  // the temperature back at 1
  CHECK(forward_temperature(c, 525) == forward_temperature(c, 225));
  CHECK(noise_scale(c, 420) == 0.0f);  // 270: after noise_end in its round
  CHECK(noise_scale(c, 400) == 0.1f);
  // The round starts with whichever of the two begins first.
  c.noise_start = 100;
  CHECK(schedule_epoch(c, 249) == 249);
  CHECK(schedule_epoch(c, 250) == 100);
  CHECK(forward_temperature(c, 250) == 1.0);
  CHECK(noise_scale(c, 250) == 0.1f);
  c.noise = 0.0f, c.noise_start = 0, c.noise_end = 0;  // sharpening alone
  CHECK(schedule_epoch(c, 300) == 150);
  CHECK(config_from_json(config_to_json(c)).repeat_schedule == 150);
}

TEST_CASE("a repeat given alone repeats robust's schedule, where robust has one for the task") {
  ExperimentConfig c = checkerboard_sync_config();  // robust, the default
  c.epochs = 3000;
  c.repeat_schedule = 1500;
  validate(c);  // robust's noise and sharpening are still to come
  const ExperimentConfig picture = with_recipe_schedule(c, true);
  CHECK(picture.noise == 0.1f);
  CHECK(picture.repeat_schedule == 1500);
  CHECK(forward_temperature(picture, 3000) == 1.0);  // the second round begins
  CHECK(noise_scale(picture, 3000) == 0.1f);
  // robust has no noise or sharpening for the checkerboard: nothing to repeat.
  CHECK_THROWS_WITH_AS(with_recipe_schedule(c, false),
                       "repeat_schedule: has no effect without noise or sharpening to repeat",
                       ConfigError);
}

TEST_CASE("hard-error feedback: a number from 0 to 100, only where the forward pass is sharpened") {
  ExperimentConfig c = checkerboard_sync_config();  // robust, the default
  c.epochs = 3000;
  c.hard_feedback = 0.25f;
  validate(c);  // robust's sharpening is still to come
  const ExperimentConfig picture = with_recipe_schedule(c, true);
  CHECK(picture.hard_feedback == 0.25f);
  CHECK(config_from_json(config_to_json(picture)).hard_feedback == 0.25f);
  // robust has no sharpening for the checkerboard, nor paper anywhere: it would change nothing.
  const std::string unsharpened =
      "hard_feedback: has no effect without sharpen_to below 1 (it acts in the sharpened epochs; "
      "robust sharpens only pictures)";
  CHECK_THROWS_WITH_AS(with_recipe_schedule(c, false), unsharpened.c_str(), ConfigError);
  ExperimentConfig paper = c;
  paper.recipe = Recipe::kPaper;
  CHECK_THROWS_WITH_AS(validate(paper), unsharpened.c_str(), ConfigError);
  paper.sharpen_to = 0.5f, paper.sharpen_start = 10, paper.sharpen_end = 20;
  validate(paper);
  for (float bad : {-0.5f, 101.0f, std::nanf("")}) {
    paper.hard_feedback = bad;
    CHECK_THROWS_WITH_AS(validate(paper), doctest::Contains("hard_feedback: must be between 0"),
                         ConfigError);
  }
}

TEST_CASE("more rounds: robust gives a picture two after its epochs, the schedule repeating") {
  ExperimentConfig c = checkerboard_sync_config();  // robust, the default
  c.epochs = 3000;
  const ExperimentConfig picture = with_recipe_schedule(c, true);
  CHECK(picture.rounds == kRobustRounds);
  CHECK(picture.repeat_schedule == 0);
  CHECK(schedule_period(picture) == 1500);
  CHECK(last_epoch(picture) == 6000);
  ExperimentConfig once = picture;  // within its epochs the rounds change nothing
  once.rounds = 0;
  CHECK(last_epoch(once) == 3000);
  // The rounds a run began by the epochs it trained (a sweep row's extra_rounds): none within its
  // epochs, the first from epoch 3000 (3001 trained), the second from 4500.
  for (const auto& [trained, begun] : std::vector<std::pair<int64_t, int64_t>>{
           {1200, 0}, {3000, 0}, {3001, 1}, {4500, 1}, {4501, 2}, {6000, 2}})
    CHECK(rounds_begun(picture, trained) == begun);
  CHECK(rounds_begun(once, 4501) == 0);
  for (int64_t e = 0; e < 3000; e += 7) {
    CHECK(forward_temperature(picture, e) == forward_temperature(once, e));
    CHECK(noise_scale(picture, e) == noise_scale(once, e));
  }
  CHECK(schedule_epoch(picture, 3000) == 1500);
  CHECK(schedule_epoch(picture, 5999) == 2999);
  CHECK(forward_temperature(picture, 3000) == 1.0);
  CHECK(noise_scale(picture, 3000) == 0.1f);
  CHECK(config_from_json(config_to_json(picture)).rounds == kRobustRounds);
  // A picture trained to stay: more of them.
  ExperimentConfig staying = c;
  staying.stay = true;
  CHECK(with_recipe_schedule(staying, true).rounds == kRobustStayRounds);
  CHECK(last_epoch(with_recipe_schedule(staying, true)) == 9000);
  // Given (also 0), with halving, or without a stop when solved: not robust's.
  ExperimentConfig given = c;
  given.rounds = 0;
  given.given.rounds = true;
  CHECK(with_recipe_schedule(given, true).rounds == 0);
  ExperimentConfig halving = c;
  halving.starts = kAutoStarts;
  halving.halving = true;
  halving.given.starts = true;
  CHECK(with_recipe_schedule(halving, true).rounds == 0);
  ExperimentConfig no_stop = c;
  no_stop.stop_when_solved = 0;
  CHECK(with_recipe_schedule(no_stop, true).rounds == 0);
  // The checkerboard (input-wise gates, no schedule) and paper: none.
  CHECK(with_recipe_schedule(c, false).rounds == 0);
  ExperimentConfig paper = c;
  use_recipe(paper, Recipe::kPaper);
  CHECK(with_recipe_schedule(paper, true).rounds == 0);
  // A schedule of one's own gets them too, with its own period.
  ExperimentConfig own = c;
  own.noise = 0.2f, own.noise_start = 1000, own.given.schedule = true;
  own.repeat_schedule = 500;
  CHECK(last_epoch(with_recipe_schedule(own, true)) == 4000);
}

TEST_CASE("more rounds: refused where they cannot apply") {
  // (rejection() of a configuration with noise over epochs 50-100 and one start.)
  const auto of_rounds = [](std::function<void(ExperimentConfig&)> change) {
    return rejection([&](ExperimentConfig& c) {
      c.epochs = 100;
      c.noise = 0.1f;
      c.noise_start = 50;
      c.rounds = 2;
      c.starts = 1, c.halving = false, c.given.starts = true;
      change(c);
    });
  };
  const auto rejection = of_rounds;
  CHECK(rejection([](auto&) {}).empty());
  CHECK(rejection([](auto& c) { c.rounds = 17; }) == "rounds: must be from 0 (none) to 16, got 17");
  CHECK(rejection([](auto& c) { c.rounds = -1; }) == "rounds: must be from 0 (none) to 16, got -1");
  CHECK(rejection([](auto& c) {
          use_recipe(c, Recipe::kPaper);
          c.noise = 0.0f, c.noise_start = 0;
        }) == "rounds: has no effect without noise or sharpening to repeat");
  CHECK(rejection([](auto& c) { c.starts = 4, c.halving = true; }) ==
        "rounds: not with starts auto (a halving run's budget says how long it trains)");
  CHECK(starts_with(rejection([](auto& c) { c.stop_when_solved = 0; }), "rounds: needs"));
  CHECK(starts_with(rejection([](auto& c) { c.noise_start = 100; }),
                    "rounds: the noise and sharpening start at epoch 100, not before epochs"));
  CHECK(rejection([](auto& c) { c.noise_start = 100, c.repeat_schedule = 20; }).empty());
  // With a period given, the rounds are whole periods: the epochs end one.
  CHECK(rejection([](auto& c) { c.repeat_schedule = 25; }).empty());
  CHECK(rejection([](auto& c) { c.repeat_schedule = 30; }) ==
        "rounds: begin at epochs (100), which must end a period of repeat_schedule (30) from "
        "where the noise and sharpening start (50): epochs 110 would");
  // A checkpoint to the last epoch must be one dlca reads back: here the rounds make it too big.
  CHECK(starts_with(rejection([](auto& c) { c.epochs = 14000000, c.noise_start = 7000000; }),
                    "rounds: too large: a checkpoint would take about"));
  CHECK(rejection([](auto& c) {
          c.epochs = 14000000, c.noise_start = 7000000, c.rounds = 0;
        }).empty());
  // robust with no schedule for the task: refused once resolved.
  ExperimentConfig c = checkerboard_sync_config();
  c.rounds = 1;
  c.given.rounds = true;
  validate(c);
  CHECK_THROWS_WITH_AS(with_recipe_schedule(c, false),
                       "rounds: has no effect without noise or sharpening to repeat", ConfigError);
  c.epochs = 3000;  // a picture: robust's schedule, with the rounds given
  CHECK(last_epoch(with_recipe_schedule(c, true)) == 4500);
  // robust's halving of a task that is not a picture, with a schedule given and rounds.
  ExperimentConfig halved = checkerboard_sync_config();
  REQUIRE(halved.halving);
  halved.noise = 0.1f, halved.noise_start = 250, halved.given.schedule = true;
  halved.rounds = 2, halved.given.rounds = true;
  validate(halved);
  CHECK_THROWS_WITH_AS(with_recipe_schedule(halved, false),
                       "rounds: not with starts auto (a halving run's budget says how long it "
                       "trains); robust halves the starts of this task: give starts N",
                       ConfigError);
  // robust's own rounds are not given where the user's schedule starts at the epochs.
  ExperimentConfig late = checkerboard_sync_config();
  late.epochs = 3000;
  late.noise = 0.1f, late.noise_start = 3000, late.given.schedule = true;
  validate(late);
  CHECK(with_recipe_schedule(late, true).rounds == 0);
}

TEST_CASE("logit noise: Gumbel(0, 1), the same for the same seed and epoch, new each epoch") {
  const std::vector<float> a = logit_noise(20000, 23, 5), b = logit_noise(20000, 23, 5);
  CHECK(a == b);
  CHECK(logit_noise(20000, 23, 6) != a);
  CHECK(logit_noise(20000, 24, 5) != a);
  double mean = 0;
  for (float g : a) mean += g;
  mean /= double(a.size());
  CHECK(mean == doctest::Approx(0.5772).epsilon(0.03));  // the Euler-Mascheroni constant
  ExperimentConfig c = checkerboard_sync_config();
  c.noise = 0.5f;
  c.noise_start = 10;
  CHECK(noise_scale(c, 9) == 0.0f);
  CHECK(noise_scale(c, 10) == 0.5f);
  c.noise_end = 20;
  CHECK(noise_scale(c, 19) == 0.5f);
  CHECK(noise_scale(c, 20) == 0.0f);
  c.noise_end = 10;
  CHECK_THROWS_WITH_AS(validate(c), doctest::Contains("noise_end"), ConfigError);
}
