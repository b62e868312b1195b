// Grow and stay from the circuit's own growth (--stay): which epochs start from which step of it,
// the hard loss of each epoch against hard rollouts of that length, an exact resume, a run solved
// only when its picture stays, the repair scored over the whole window, the candidate an unsolved
// run keeps and those a halving run releases ranked over that window, and the refusals.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "candidate_runs.hpp"
#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/cell_program.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/train/candidate_pool.hpp"
#include "dlca/train/checkerboard.hpp"
#include "dlca/train/image_task.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/picture_kept.hpp"
#include "dlca/train/stay_data.hpp"
#include "dlca/train/trainer.hpp"
#include "dlca/train/training_run.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

// A 6x5 picture of two channels, the target on channel 0, grown from a seed cell in `steps`,
// trained to stay.
ExperimentConfig stay_config(int steps = 3, int loss_steps = 1) {
  ExperimentConfig c = testing::small_config(2, 2, 2, 6, 5, steps, 1, false, false);
  c.loss_channels = {0};
  c.loss_steps = loss_steps;
  c.stay = true;
  use_recipe(c, Recipe::kPaper);  // one start, no halving: the plain trainer
  return c;
}

ImageTask stay_task(const ExperimentConfig& c, std::vector<uint8_t> target = {}) {
  if (target.empty()) target = testing::random_bits(30, 11);
  return ImageTask(c, std::move(target), 1, true, "");
}

// The hard loss of `model`'s circuit run `steps` steps from the task's start.
double hard_loss_after(const Model& model, const ImageTask& task, int steps) {
  TaskBatch batch;
  task.make_batch(0, batch);
  const ExperimentConfig& c = model.config;
  return hard_rollout(build_cell_program(model), hard_ops(model),
                      make_grid_geometry(1, c.height, c.width, c.channels, c.periodic),
                      batch.initial_states.data(), steps, nullptr, batch.target, c.loss_channels,
                      c.loss_steps)
      .loss;
}

// Every candidate's task: stay_task's picture.
std::unique_ptr<Task> stay_task_of(const ExperimentConfig& config) {
  return std::make_unique<ImageTask>(stay_task(config));
}

// Candidates of the stay picture, `starts` at once (with halving: new starts in freed places),
// each trained `epochs`, stopped when solved, not repaired; the high learning rate spreads them.
ExperimentConfig candidates_config(int starts, int epochs, bool halving) {
  ExperimentConfig c = stay_config();
  c.starts = starts;
  c.halving = halving;
  c.epochs = epochs;
  c.learning_rate = 0.3f;
  c.stop_when_solved = 1;
  c.repair = false;
  return c;
}

}  // namespace

TEST_CASE("stay: the odd epochs start from steps 1 to T of the circuit's growth, in turn") {
  ExperimentConfig c = stay_config(3, 1);  // T = 3
  std::vector<int> steps;
  for (int64_t epoch = 0; epoch < 8; ++epoch) steps.push_back(stay_start_step(c, epoch));
  CHECK(steps == std::vector<int>{0, 1, 0, 2, 0, 3, 0, 1});
  c = stay_config(5, 3);  // the loss on states 3 to 5: T = 3 again
  CHECK(stay_start_step(c, 5) == 3);
  CHECK(stay_start_step(c, 7) == 1);
  c.stay = false;
  CHECK(stay_start_step(c, 5) == 0);
}

TEST_CASE("stay: each epoch's hard loss is the circuit's from the task's start, k steps longer") {
  for (const int loss_steps : {1, 2}) {
    CAPTURE(loss_steps);
    const ExperimentConfig c = stay_config(3, loss_steps);
    const ImageTask task = stay_task(c);
    Model model = make_model(c);
    testing::randomize_logits(model, 5);
    CpuBackend cpu;
    Trainer trainer(model, task, cpu);
    bool growth_differs = false;  // (so that an epoch that ignored --stay would be seen)
    for (int64_t epoch = 0; epoch < 8; ++epoch) {
      CAPTURE(epoch);
      const Model before = trainer.model();
      const int k = stay_start_step(c, epoch);
      const double expected = hard_loss_after(before, task, k + c.steps);
      growth_differs = growth_differs || expected != hard_loss_after(before, task, c.steps);
      CHECK(trainer.run_epoch().hard_loss == expected);
    }
    CHECK(growth_differs);
  }
}

TEST_CASE("stay: a resumed run repeats the epochs of the straight one bit for bit") {
  const ExperimentConfig c = stay_config();
  const ImageTask task = stay_task(c);
  CpuBackend a_backend, b_backend, c_backend;
  Trainer straight(make_model(c), task, a_backend), halted(make_model(c), task, b_backend);
  for (int e = 0; e < 9; ++e) straight.run_epoch();
  for (int e = 0; e < 5; ++e) halted.run_epoch();
  Trainer resumed(halted.model(), task, c_backend);
  restore_training(resumed, training_state_of(halted));
  for (int e = 0; e < 4; ++e) resumed.run_epoch();
  CHECK(resumed.model().logits == straight.model().logits);
  ExperimentConfig growing = c;  // (the same epochs without --stay train otherwise)
  growing.stay = false;
  CpuBackend d_backend;
  Trainer grown(make_model(growing), task, d_backend);
  for (int e = 0; e < 9; ++e) grown.run_epoch();
  CHECK(grown.model().logits != straight.model().logits);
  CHECK(resumed.optimizer().second_moment() == straight.optimizer().second_moment());
  for (int e = 0; e < 9; ++e) {
    CAPTURE(e);
    CHECK(resumed.history()[e].soft_loss == straight.history()[e].soft_loss);
    CHECK(resumed.history()[e].hard_loss == straight.history()[e].hard_loss);
  }
}

TEST_CASE("stay: a picture is solved only when it stays, and the repair scores the whole window") {
  ExperimentConfig c = stay_config();
  const ImageTask task = stay_task(c);
  Model m = make_model(c);
  testing::set_every_gate(m, 0);  // FALSE: an empty grid from step 1 on, each target 1 wrong
  const std::vector<uint8_t> target = task.describe().target;
  const double ones = std::accumulate(target.begin(), target.end(), 0.0);
  REQUIRE(ones > 0);
  CHECK_FALSE(task.solved_by(m));
  m.config.stay = false;
  CHECK(task.solved_by(m));  // growing alone, a picture task trusts the hard loss
  m.config.stay = true;
  const ImageTask empty = stay_task(c, std::vector<uint8_t>(30, 0));
  Model kept = make_model(c);
  testing::set_every_gate(kept, 0);
  kept.task = empty.describe();
  CHECK(empty.solved_by(kept));
  // The repair scores the circuit from the task's start on every state from T = 3 to 2T = 6.
  CpuBackend cpu;
  Trainer trainer(m, task, cpu);
  RepairSettings settings;
  settings.max_evaluations = 1;
  const RepairReport report = trainer.search_repair(settings);
  CHECK(report.hard_loss_before == 4 * ones);
  CHECK(report.batches == 1);
  // A candidate's standing at the end (which halving keeps, which the run keeps) is that window's.
  CHECK(end_hard_loss(trainer) == 4 * ones);
  trainer.run_epoch();  // epoch 0 grows from the start: one state, T = 3
  CHECK(trainer.history().back().hard_loss == ones);
  CHECK(end_hard_loss(trainer) == 4 * ones);
}

TEST_CASE("stay: a run's hard loss in its summary is its circuit's over T to 2T") {
  ExperimentConfig c = stay_config();
  c.epochs = 4;
  c.stop_when_solved = 1;
  const ImageTask task = stay_task(c);
  Model m = make_model(c);
  testing::randomize_logits(m, 9, 4.0f);
  CpuBackend cpu;
  Trainer trainer(m, task, cpu);
  std::ostringstream out;
  TrainingRunOptions options;
  options.epochs = 4;
  const TrainingSummary summary = run_training(trainer, "cpu", options, out);
  REQUIRE(summary.kept);
  const double window =
      std::accumulate(summary.kept->wrong_bits.begin(), summary.kept->wrong_bits.end(), 0.0);
  REQUIRE(window > 0);  // (4 epochs do not keep a random picture)
  CHECK(summary.final_hard_loss == window);
  CHECK_FALSE(summary.first_zero_epoch);
  CHECK(summary.kept->first_step == 3);
  CHECK(summary.kept->last_step == 6);
}

TEST_CASE("stay: refused for asynchronous steps and for tasks that are not pictures") {
  ExperimentConfig async = stay_config();
  async.async = true;
  CHECK_THROWS_WITH(validate(async), doctest::Contains("stay: needs synchronous steps"));
  ExperimentConfig board = testing::small_checkerboard();
  board.stay = true;
  CHECK_THROWS_WITH(check_task_fits(CheckerboardTask(board).describe(), board),
                    doctest::Contains("stay: only a picture can be grown to stay"));
}

TEST_CASE("stay: of several candidates, an unsolved run keeps the one closest over the window") {
  const ExperimentConfig c = candidates_config(4, 12, false);
  const testing::Run run = testing::train_candidates(c, 1, {}, "", 0, nullptr, stay_task_of);
  REQUIRE_FALSE(run.summary.first_zero_epoch);
  std::vector<double> window, last;
  for (const TrainingCandidate& candidate : run.candidates) {
    window.push_back(end_hard_loss(*candidate.trainer));
    last.push_back(candidate.trainer->history().back().hard_loss);
  }
  INFO("window ", fmt::format("{}", fmt::join(window, " ")), ", last ",
       fmt::format("{}", fmt::join(last, " ")));
  const auto lowest = [](const std::vector<double>& losses) {
    return size_t(std::min_element(losses.begin(), losses.end()) - losses.begin());
  };
  // The leader by the last epoch's one state is further over the window than another candidate:
  // the run must not keep it.
  REQUIRE(window[lowest(last)] > window[lowest(window)]);
  CHECK(run.summary.chosen_start == int(lowest(window)));
  CHECK(run.summary.final_hard_loss == window[lowest(window)]);
}

TEST_CASE("stay: a halving run releases the finished candidates furthest over the window") {
  ExperimentConfig c = candidates_config(1, 8, true);  // 8 epochs: no rungs, every start finishes
  c.budget_epochs = 64;
  int releases = 0, one_state_differs = 0;
  const auto on_release = [&](const testing::Run& run, int start) {
    const Trainer& released = *run.candidates[size_t(start)].trainer;
    REQUIRE(released.epoch() == c.epochs);
    ++releases;
    const double released_window = end_hard_loss(released);
    for (size_t k = 0; k < run.candidates.size(); ++k) {
      const Trainer* held = run.candidates[k].trainer.get();
      if (k == size_t(start) || !held || held->epoch() < c.epochs) continue;
      CHECK(released_window >= end_hard_loss(*held));
      // Ranked by the last epoch's one state, `held` would have gone instead.
      const double a = released.history().back().hard_loss, b = held->history().back().hard_loss;
      if (a < b || (a == b && size_t(start) < k)) ++one_state_differs;
    }
  };
  const testing::Run run =
      testing::train_candidates(c, 1, {}, "", 0, nullptr, stay_task_of, on_release);
  REQUIRE_FALSE(run.summary.first_zero_epoch);
  CHECK(releases >= 5);
  REQUIRE(one_state_differs > 0);
}
