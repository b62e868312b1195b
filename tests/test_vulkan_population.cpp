// The candidates of a multi-start trained together on one Vulkan device (a population: one
// submission, the dispatches of one candidate's epoch) against each trained alone: the same
// losses, active gates, parameters and moments, epoch by epoch; synchronous and asynchronous
// steps (each candidate its own fire masks), logit noise and input-wise gates; a rollout in
// between, undo snapshots and one candidate's undone epoch (its state uploaded while the others'
// live on the device; the candidates then train together a different epoch each: their AdamW
// steps, forward temperatures and noise differ) change nothing.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include <tbb/task_arena.h>

#include "dlca/train/checkerboard.hpp"
#include "dlca/train/multi_start.hpp"
#include "dlca/train/trainer.hpp"
#include "dlca/vulkan/vulkan_backend.hpp"
#include "optional_parts.hpp"
#include "test_helpers.hpp"
#include "vulkan_driver.hpp"

using namespace dlca;

TEST_CASE("Vulkan population: candidates trained together equal each trained alone") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  for (const int variant : {0, 1, 2}) {
    CAPTURE(variant);
    ExperimentConfig run = testing::small_checkerboard();
    run.starts = 4 - variant;
    if (variant == 1) {  // async, logit noise from epoch 5, sharpening over epochs 2-7, the
      run.async = true;  // learning rate falling over epochs 1-6 (per candidate after the undo)
      run.lr_decay_to = 0.01f;
      run.lr_decay_start = 1;
      run.lr_decay_end = 6;
      run.fire_rate = 0.6f;
      run.noise = 0.5f;
      run.noise_start = 5;
      run.sharpen_to = 0.5f;
      run.sharpen_start = 2;
      run.sharpen_end = 7;
      run.hard_feedback = 0.25f;  // each candidate's own while its forward pass is sharpened
    }
    if (variant == 0) run.loss_steps = 3;  // each candidate's loss over its last 3 states
    if (variant == 2) {  // each candidate's layers normalised by their own gradient norms
      run.gates = GateKind::kInputWise;
      run.grad_norm = true;
    }
    if (variant > 0) {  // progressive hardening: stages at epochs 3 and 5 (after variant 1's undo
      run.harden = 2;   // below, candidate 1 is a stage behind the others at epoch 5)
      run.harden_start = 3;
      run.harden_end = 7;
    }
    VulkanBackendOptions options;
    options.validation = true;
    std::vector<std::unique_ptr<CheckerboardTask>> tasks;
    std::vector<std::unique_ptr<VulkanBackend>> together, alone;
    std::vector<std::unique_ptr<Trainer>> population, single;
    together.push_back(std::make_unique<VulkanBackend>(options));
    for (int k = 0; k < run.starts; ++k) {
      const ExperimentConfig c = start_config(run, k);
      tasks.push_back(std::make_unique<CheckerboardTask>(c));
      if (k > 0) together.push_back(together[0]->add_member());
      alone.push_back(std::make_unique<VulkanBackend>(options));
      population.push_back(std::make_unique<Trainer>(make_model(c), *tasks[k], *together[k]));
      single.push_back(std::make_unique<Trainer>(make_model(c), *tasks[k], *alone[k]));
      // A download of the state before each epoch, and an undo of one member's epoch below.
      population[k]->keep_undo_state(variant == 1);
      single[k]->keep_undo_state(variant == 1);
    }
    std::vector<Trainer*> trainers;
    for (auto& t : population) trainers.push_back(t.get());
    tbb::task_arena arena(1);
    for (int epoch = 0; epoch < 8; ++epoch) {
      CAPTURE(epoch);
      if (epoch == 4 && !run.async) {  // a rollout of candidate 1's parameters on its device
        const Model m = population[1]->model();
        TaskBatch data;
        tasks[1]->make_batch(0, data);
        const RolloutResult r = together[1]->rollout(
            m, data.target, {run.batch, data.initial_states.data(), nullptr}, {.gradient = false});
        CHECK(std::isfinite(r.soft_loss));
      }
      if (epoch == 5 && variant == 1) {  // candidate 1 takes its last epoch back (a live upload)
        population[1]->undo_last_epoch();
        single[1]->undo_last_epoch();
      }
      const std::vector<CandidateEpoch> both = run_candidate_epochs(trainers, arena);
      // After the undo, candidate 1 is an epoch behind the others (its step, temperature and, at
      // epoch 5, noise differ): they still train together.
      CHECK(together[0]->profile().candidates == run.starts);
      for (int k = 0; k < run.starts; ++k) {
        CAPTURE(k);
        const EpochStats a = single[k]->run_epoch();
        REQUIRE(both[k].diverged.empty());
        CHECK(both[k].stats.soft_loss == a.soft_loss);
        CHECK(both[k].stats.hard_loss == a.hard_loss);
        CHECK(both[k].stats.active_gates == a.active_gates);
      }
      // The dispatches of one candidate's epoch serve them all.
      CHECK(together[0]->profile().dispatches <= alone[0]->profile().dispatches + 2);
      if (epoch == 5 && variant == 1) CHECK(population[1]->history().size() == 5);
    }
    for (int k = 0; k < run.starts; ++k) {
      CAPTURE(k);
      CHECK(population[k]->model().logits == single[k]->model().logits);
      CHECK(population[k]->optimizer().first_moment() == single[k]->optimizer().first_moment());
      CHECK(population[k]->optimizer().second_moment() == single[k]->optimizer().second_moment());
      CHECK(population[k]->epoch() == single[k]->epoch());
      CHECK(population[k]->hardened_gates() == single[k]->hardened_gates());
      CHECK(population[k]->hardened_gates().empty() == (variant == 0));
    }
    CHECK(together[0]->validation_errors() == 0);
  }
}
