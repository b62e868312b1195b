// Progressive hardening (--harden): its stages, the gates each stage fixes, AdamW leaving fixed
// gates alone, a training whose fixed gates keep their parameters and whose undo takes a stage
// back, and the fixed gates in checkpoints (stored, and refused when damaged).
#include <doctest/doctest.h>

#include <algorithm>

#include "dlca/core/config_json.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/adamw.hpp"
#include "dlca/train/gate_hardening.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/trainer.hpp"
#include "dlca/train/training_setup.hpp"
#include "scratch_dir.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

size_t fixed_count(const std::vector<uint8_t>& hardened) {
  return size_t(std::count(hardened.begin(), hardened.end(), uint8_t(1)));
}

}  // namespace

TEST_CASE("hardening stages: evenly spread, halving the free share each") {
  ExperimentConfig c;
  c.epochs = 1000;
  CHECK(hardened_share(c, 999) == 0);  // off
  c.harden = 4;
  c.harden_start = 600;  // to the run's end: stages at 600, 700, 800, 900
  CHECK(hardened_share(c, 599) == 0);
  CHECK(hardened_share(c, 600) == 0.5);
  CHECK(hardened_share(c, 699) == 0.5);
  CHECK(hardened_share(c, 700) == 0.75);
  CHECK(hardened_share(c, 800) == 0.875);
  CHECK(hardened_share(c, 900) == 0.9375);
  CHECK(hardened_share(c, 5000) == 0.9375);
  c.harden_end = 610;  // stages at 600, 602, 605, 607 (rounded down)
  CHECK(hardened_share(c, 601) == 0.5);
  CHECK(hardened_share(c, 602) == 0.75);
  CHECK(hardened_share(c, 605) == 0.875);
  CHECK(hardened_share(c, 606) == 0.875);
  CHECK(hardened_share(c, 607) == 0.9375);
  CHECK(hardening_stage_epochs(c) == std::vector<int64_t>{600, 602, 605, 607});
  CHECK(hardened_gate_target(c, 602, 10) == 8);  // 7.5 rounds to 8
  CHECK(hardened_gate_target(c, 599, 10) == 0);
}

TEST_CASE("hardening options are checked by name") {
  const auto problem = [](auto change) {
    ExperimentConfig c = testing::small_checkerboard();
    change(c);
    try {
      validate(c);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(problem([](ExperimentConfig& c) { c.harden = 17; }).starts_with("harden: must be from 0"));
  CHECK(problem([](ExperimentConfig& c) {
          c.harden_start = 5;
        }).starts_with("harden_start: has no effect without harden"));
  CHECK(problem([](ExperimentConfig& c) {
          c.harden = 2;
          c.harden_start = 50;
          c.harden_end = 50;
        }).starts_with("harden_end: must be 0 (the run's epochs) or after harden_start (50)"));
  CHECK(problem([](ExperimentConfig& c) {
          c.harden = 2;
          c.harden_start = 300;  // = epochs
        }).starts_with("harden_start: must be before the run's last epoch (300)"));
  CHECK(problem([](ExperimentConfig& c) {
          c.harden = 2;
        }).starts_with("harden_start: must be at least 1 with harden stages"));
  CHECK(problem([](ExperimentConfig& c) {
          c.harden = 4;
          c.harden_start = 297;
        }).starts_with("harden: 4 stages need at least 4 epochs from harden_start (297)"));
  CHECK(problem([](ExperimentConfig& c) {
          c.harden = 3;
          c.harden_start = 5;
          c.harden_end = 7;
        }).starts_with("harden_end: 3 stages need at least 3 epochs"));
  CHECK(problem([](ExperimentConfig& c) {  // a stage start past the run, whatever the end
          c.harden = 2;
          c.harden_start = 400;
          c.harden_end = 500;
        })
            .starts_with("harden_start: must be before the run's last epoch (300)"));
  CHECK(problem([](ExperimentConfig& c) {
          c.harden = 2;
          c.harden_start = 100;
        }).empty());
  ExperimentConfig c = testing::small_checkerboard();
  c.harden = 3;
  c.harden_start = 7;
  c.harden_end = 19;
  const ExperimentConfig back = config_from_json(config_to_json(c));
  CHECK(back.harden == 3);
  CHECK(back.harden_start == 7);
  CHECK(back.harden_end == 19);
}

TEST_CASE("a stage fixes the most confident free gates, the lower index first among equals") {
  // Softmax gates: confidence is the largest softmax probability.
  std::vector<float> logits(4 * 16, 0.0f);
  logits[0 * 16 + 3] = 2;  // gate 0: confident
  logits[1 * 16 + 5] = 1;  // gate 1: less so
  logits[2 * 16 + 3] = 2;  // gate 2: as gate 0
  const auto confidence = hard_op_confidence(GateKind::kSoftmax, logits);
  CHECK(confidence[0] == confidence[2]);
  CHECK(confidence[0] > confidence[1]);
  CHECK(confidence[1] > confidence[3]);
  std::vector<uint8_t> hardened;
  harden_most_confident(GateKind::kSoftmax, logits, hardened, 1);
  CHECK(hardened == std::vector<uint8_t>{1, 0, 0, 0});
  harden_most_confident(GateKind::kSoftmax, logits, hardened, 3);
  CHECK(hardened == std::vector<uint8_t>{1, 1, 1, 0});
  harden_most_confident(GateKind::kSoftmax, logits, hardened, 2);  // already more: unchanged
  CHECK(fixed_count(hardened) == 3);
  // Input-wise gates: the hard op's probability, the product of max(s, 1 - s) over the patterns.
  std::vector<float> angles = {1.5f, -1.5f, 1.5f, 1.5f, 0.1f, 1.5f, 1.5f, 1.5f};
  std::vector<uint8_t> two;
  harden_most_confident(GateKind::kInputWise, angles, two, 1);
  CHECK(two == std::vector<uint8_t>{1, 0});
  CHECK_THROWS_AS(harden_most_confident(GateKind::kInputWise, angles, two, 3),
                  std::invalid_argument);
}

TEST_CASE("AdamW leaves frozen gates' parameters and moments as they are") {
  AdamW optimizer(6, AdamWSettings{});
  std::vector<float> params = {1, 2, 3, 4, 5, 6};
  const std::vector<float> grad = {0.5f, -0.5f, 0.25f, 1, -1, 2};
  optimizer.step(params, grad, {0, 1, 0});  // groups of 2 parameters
  CHECK(params[2] == 3);
  CHECK(params[3] == 4);
  CHECK(optimizer.first_moment()[2] == 0);
  CHECK(optimizer.second_moment()[3] == 0);
  CHECK(params[0] != 1);
  CHECK(params[5] != 6);
  CHECK_THROWS_AS(optimizer.step(params, grad, {0, 1, 0, 1}), std::invalid_argument);
}

TEST_CASE("training with hardening: stages fix gates that then keep their parameters") {
  for (const GateKind gates : {GateKind::kSoftmax, GateKind::kInputWise}) {
    CAPTURE(gate_kind_name(gates));
    ExperimentConfig c = testing::small_checkerboard();
    c.gates = gates;
    c.harden = 3;
    c.harden_start = 4;
    c.harden_end = 10;  // stages at epochs 4, 6 and 8
    const CheckerboardTask task(c);
    CpuBackend cpu({.threads = 2});
    Trainer trainer(make_model(c), task, cpu);
    trainer.keep_undo_state(true);
    const size_t gates_total = size_t(trainer.model().num_gates()),
                 per_gate = size_t(parameters_per_gate(gates));
    for (int e = 0; e < 4; ++e) trainer.run_epoch();
    CHECK(trainer.hardened_gates().empty());
    trainer.run_epoch();  // epoch 4: the first stage
    CHECK(fixed_count(trainer.hardened_gates()) == hardened_gate_target(c, 4, gates_total));
    // Its gates are the most confident of the parameters before epoch 4.
    trainer.undo_last_epoch();
    CHECK(trainer.hardened_gates().empty());
    const std::vector<float> before = trainer.model().logits;
    std::vector<uint8_t> expected;
    harden_most_confident(gates, before, expected, hardened_gate_target(c, 4, gates_total));
    trainer.run_epoch();
    CHECK(trainer.hardened_gates() == expected);
    for (int e = 5; e < 12; ++e) trainer.run_epoch();
    const std::vector<uint8_t>& fixed = trainer.hardened_gates();
    CHECK(fixed_count(fixed) == size_t(std::llround(0.875 * double(gates_total))));
    size_t moved = 0;
    for (size_t i = 0; i < before.size(); ++i) {
      if (expected[i / per_gate]) CHECK(trainer.model().logits[i] == before[i]);
      moved += trainer.model().logits[i] != before[i];
    }
    CHECK(moved > 0);  // the free gates train on
  }
}

TEST_CASE("checkpoints store the hardened gates and refuse damaged lists") {
  testing::ScratchDir dir;
  const std::string path = dir / "hardened.json";
  ExperimentConfig c = testing::small_checkerboard();
  c.harden = 1;
  c.harden_start = 2;
  const CheckerboardTask task(c);
  CpuBackend cpu({.threads = 1});
  Trainer trainer(make_model(c), task, cpu);
  for (int e = 0; e < 3; ++e) trainer.run_epoch();
  const TrainingState state = training_state_of(trainer);
  save_model_file(path, trainer.model(), &state);
  const std::string text = read_file(path, 1 << 26);
  nlohmann::json j = nlohmann::json::parse(text);
  const auto& list = j["training"]["hardened"];
  REQUIRE(list.is_array());
  CHECK(list.size() == fixed_count(trainer.hardened_gates()));
  CHECK(load_checkpoint(path).training->hardened == trainer.hardened_gates());
  const auto refused = [&](nlohmann::json hardened, const std::string& reason) {
    nlohmann::json damaged = j;
    damaged["training"]["hardened"] = std::move(hardened);
    damaged.erase("checksum");
    write_file_atomically(path, seal_model_file(damaged));
    CHECK_THROWS_WITH_AS(load_checkpoint(path), doctest::Contains(reason.c_str()), FileError);
  };
  refused(nlohmann::json::array(), "training.hardened: must be a non-empty list");
  refused({3, 2}, "training.hardened: gate 2 is not a gate index");
  refused({trainer.model().num_gates()}, "is not a gate index (below");
  refused({-1}, "training.hardened");
  refused("all", "training.hardened: must be a non-empty list");
}
