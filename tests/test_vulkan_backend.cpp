// The Vulkan backend on lavapipe (or any device), under the validation layer: forward outputs,
// losses and every gradient against the reference on the shared small cases; agreement with the
// CPU backend, also when the work is split into many dispatches and chunks of cells; a short
// checkerboard training against the CPU's. Any validation error fails the test.
#include <doctest/doctest.h>

#include <cmath>

#include "backend_checks.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/train/image_task.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/trainer.hpp"
#include "dlca/vulkan/vulkan_backend.hpp"
#include "optional_parts.hpp"
#include "vulkan_driver.hpp"

using namespace dlca;

namespace {

VulkanBackendOptions validated(uint32_t max_workgroups = 0, uint64_t max_binding_bytes = 0) {
  VulkanBackendOptions o;
  o.validation = true;
  o.max_workgroups = max_workgroups;
  o.max_binding_bytes = max_binding_bytes;
  return o;
}

double max_difference(const std::vector<float>& a, const std::vector<float>& b) {
  REQUIRE(a.size() == b.size());
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, double(std::abs(a[i] - b[i])));
  return m;
}

}  // namespace

TEST_CASE("Vulkan backend lists at least one device") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  const auto devices = list_vulkan_devices();
  REQUIRE(!devices.empty());
  CHECK(!devices[0].name.empty());
}

TEST_CASE("Vulkan backend matches the reference") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  VulkanBackend backend(validated());
  // Float sums in another order than the CPU's double accumulators.
  for (const auto& c : testing::backend_cases()) testing::compare_with_reference(c, backend, 2e-5);
  for (const auto& c : testing::input_wise_backend_cases())
    testing::compare_with_reference(c, backend, 2e-5);
  // Forward-only sharpening (rollouts with the host's coefficients).
  for (const auto& c : testing::backend_cases()) {
    testing::compare_with_reference(c, backend, 2e-5, 0.4);
    testing::compare_with_reference(c, backend, 2e-5, 0.4, 0.5f);  // and logit noise
  }
  // Progressive hardening: every other gate fixed to its hard op.
  for (const auto& c : testing::backend_cases())
    testing::compare_with_reference(c, backend, 2e-5, 1, 0, true);
  for (const auto& c : testing::input_wise_backend_cases())
    testing::compare_with_reference(c, backend, 2e-5, 1, 0, true);
  // Hard-error feedback: the hard final state's errors join the soft one's gradient.
  for (const auto& c : testing::backend_cases())
    testing::compare_with_reference(c, backend, 2e-5, 0.4, 0, false, 0.25);
  for (const auto& c : testing::input_wise_backend_cases())
    testing::compare_with_reference(c, backend, 2e-5, 1, 0, false, 3.0);
  CHECK(backend.validation_errors() == 0);
}

TEST_CASE("Vulkan backend splits work beyond one dispatch and one binding") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  // 20x20 cells, batch 3: 1200 cells. At most 2 workgroups per dispatch dimension and 128 KiB per
  // binding force many dispatches per pass and several chunks of cells; the results must be
  // those of the unsplit run.
  ExperimentConfig c = testing::small_config(2, 2, 2, 20, 20, 3, 3, false, true);
  Model m = make_model(c);
  testing::randomize_logits(m, 3);
  const auto init = testing::random_states(c, 4, false);
  const auto masks = testing::masks_for(c, 5);
  const Target target = checkerboard_target(c.channels, c.height, c.width);
  RolloutRequest request;
  request.final_state = true;
  const RolloutBatch batch{c.batch, init.data(), masks.data()};

  VulkanBackend whole(validated());
  const RolloutResult a = whole.rollout(m, target, batch, request);
  CHECK(whole.profile().chunks == 1);
  VulkanBackend split(validated(2, 128 << 10));
  const RolloutResult b = split.rollout(m, target, batch, request);
  CHECK(split.profile().chunks > 1);
  CHECK(split.profile().dispatches > whole.profile().dispatches);
  CHECK(b.soft_loss == doctest::Approx(a.soft_loss).epsilon(1e-6));
  CHECK(b.hard_loss == a.hard_loss);
  CHECK(max_difference(a.final_state, b.final_state) == 0.0);
  CHECK(max_difference(a.grad, b.grad) <
        1e-5 * std::max(1.0, testing::max_abs(testing::to_double(a.grad))));

  CpuBackend cpu;
  const RolloutResult r = cpu.rollout(m, target, batch, request);
  CHECK(b.soft_loss == doctest::Approx(r.soft_loss).epsilon(1e-5));
  CHECK(b.hard_loss == r.hard_loss);
  CHECK(max_difference(r.grad, b.grad) <
        1e-4 * std::max(1.0, testing::max_abs(testing::to_double(r.grad))));
  CHECK(whole.validation_errors() == 0);
  CHECK(split.validation_errors() == 0);
}

TEST_CASE("Vulkan backend refuses work that cannot fit one binding, naming the buffer") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  ExperimentConfig c = testing::small_config(1, 2, 1, 8, 8, 2, 1, false, false);
  Model m = make_model(c);
  const auto init = testing::random_states(c, 4, true);
  const Target target = checkerboard_target(c.channels, c.height, c.width);
  VulkanBackend tiny(validated(0, 256));
  CHECK_THROWS_WITH_AS(tiny.rollout(m, target, {c.batch, init.data(), nullptr}, {}),
                       doctest::Contains("storage binding limit"), std::runtime_error);
}

TEST_CASE("Vulkan and CPU trainings of a small checkerboard agree for 20 epochs") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  // Stated tolerance: per-epoch soft losses within 1e-4 relative, identical hard losses, final
  // logits within 1e-3 (AdamW steps of 0.05 amplify last-bit differences of the gradients).
  // Both ways of training on Vulkan: AdamW on the device (parameters resident) and on the host;
  // plain, and with a sharpening schedule over epochs 5-15, noise (the device computes the
  // sharpened, noisy coefficients itself from the uploaded noise), a larger AdamW epsilon and the
  // hard-error feedback (from epoch 5, where the sharpening starts).
  // Input-wise gates: the same, with the betas and weight decay changed and sharpening. A loss over
  // the last 4 states (grow and stay), asynchronous, with a learning-rate decay. Progressive
  // hardening's fixed gates (every other gate, from the start), softmax and input-wise: their
  // parameters must not move. The gradient normalised per layer (--grad-norm), input-wise with
  // hardening and softmax alone.
  for (const bool on_device : {true, false})
    for (const int variant : {0, 1, 2, 3, 4, 5, 6}) {
      // (variant 4: fixed gates under sharpening and noise, which they must ignore)
      const bool sharpened = variant == 1 || variant == 4,
                 input_wise = variant == 2 || variant == 5;
      const bool hardened = variant >= 4;
      CAPTURE(on_device);
      CAPTURE(variant);
      ExperimentConfig c = testing::small_checkerboard();
      if (input_wise) {
        c.gates = GateKind::kInputWise;
        c.adam_beta1 = 0.8f;
        c.weight_decay = 0.03f;
      }
      if (sharpened || variant == 2) {  // input-wise gates: the log-odds of s over the temperature
        c.sharpen_to = 0.2f;
        c.sharpen_start = 5;
        c.sharpen_end = 15;
      }
      if (sharpened) {  // and logit noise from epoch 8
        c.noise = 0.5f;
        c.noise_start = 8;
        c.adam_eps = 0.01f;   // the device's AdamW takes the configuration's epsilon too,
        c.adam_beta1 = 0.8f;  // betas and weight decay
        c.adam_beta2 = 0.95f;
        c.weight_decay = 0.03f;
        if (variant == 1) c.hard_feedback = 0.5f;
      }
      c.grad_norm = variant >= 5;  // each layer's gradient over its norm (--grad-norm)
      if (variant == 3) {          // and the learning rate falling over epochs 3-15
        c.loss_steps = 4;
        c.async = true;
        c.lr_decay_to = 0.005f;
        c.lr_decay_start = 3;
        c.lr_decay_end = 15;
      }
      const CheckerboardTask task(c);
      CpuBackend cpu;
      VulkanBackendOptions options = validated();
      options.train_on_device = on_device;
      VulkanBackend vulkan(options);
      Trainer on_cpu(make_model(c), task, cpu), on_vulkan(make_model(c), task, vulkan);
      const std::vector<float> start = on_cpu.model().logits;
      std::vector<uint8_t> fixed;
      for (int g = 0; g < on_cpu.model().num_gates(); ++g) fixed.push_back(uint8_t(g % 2));
      if (hardened)
        for (Trainer* t : {&on_cpu, &on_vulkan}) {
          const size_t n = t->model().logits.size();
          t->restore(0, 0, std::vector<float>(n), std::vector<float>(n), {}, std::nullopt, fixed);
        }
      for (int epoch = 0; epoch < 20; ++epoch) {
        CAPTURE(epoch);
        const EpochStats a = on_cpu.run_epoch(), b = on_vulkan.run_epoch();
        CHECK(b.soft_loss == doctest::Approx(a.soft_loss).epsilon(1e-4));
        CHECK(b.hard_loss == a.hard_loss);
        CHECK(b.active_gates == a.active_gates);
      }
      // An input-wise angle's gradient is a difference of the four gate sums (input_wise_gradient),
      // which the device sums in float: small gradients keep about 1 % of relative error there
      // (measured), and AdamW's steps, scaled to the gradients, take it at any size. Measured:
      // 2.7e-3 after 20 epochs, a twentieth of one step of lr 0.05.
      CHECK(max_difference(on_cpu.model().logits, on_vulkan.model().logits) <
            (input_wise && on_device ? 5e-3 : 1e-3));
      if (hardened) {
        const size_t per_gate = size_t(parameters_per_gate(c.gates));
        for (const Trainer* t : {&on_cpu, &on_vulkan}) {
          size_t moved = 0, fixed_moved = 0;
          for (size_t i = 0; i < start.size(); ++i) {
            const bool changed = t->model().logits[i] != start[i];
            moved += changed;
            fixed_moved += changed && fixed[i / per_gate];
          }
          CHECK(fixed_moved == 0);
          CHECK(moved > start.size() / 4);  // the free gates train
        }
      }
      CHECK(vulkan.validation_errors() == 0);
    }
}

TEST_CASE("Vulkan and CPU trainings of a picture grown to stay (--stay) agree for 12 epochs") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  // The odd epochs start from the hard circuit's own growth, which the trainer makes on the host
  // from the parameters as they are (downloaded from the device first when they live there): the
  // same tolerances as the checkerboard's trainings above.
  for (const bool on_device : {true, false}) {
    CAPTURE(on_device);
    ExperimentConfig c = testing::small_config(2, 2, 2, 6, 5, 3, 1, false, false);
    c.loss_channels = {0};
    c.stay = true;
    use_recipe(c, Recipe::kPaper);
    const ImageTask task(c, testing::random_bits(30, 11), 1, true, "");
    Model start = make_model(c);
    testing::randomize_logits(start, 5);
    CpuBackend cpu;
    VulkanBackendOptions options = validated();
    options.train_on_device = on_device;
    VulkanBackend vulkan(options);
    Trainer on_cpu(start, task, cpu), on_vulkan(start, task, vulkan);
    for (int epoch = 0; epoch < 12; ++epoch) {
      CAPTURE(epoch);
      const EpochStats a = on_cpu.run_epoch(), b = on_vulkan.run_epoch();
      CHECK(b.soft_loss == doctest::Approx(a.soft_loss).epsilon(1e-4));
      CHECK(b.hard_loss == a.hard_loss);
    }
    CHECK(max_difference(on_cpu.model().logits, on_vulkan.model().logits) < 1e-3);
    CHECK(vulkan.validation_errors() == 0);
  }
}

TEST_CASE("Vulkan device training: reading the state back and resuming change nothing") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  // 12 epochs straight, against 6 epochs, a download of logits and moments (as a checkpoint
  // save does), then 6 more in the same trainer and in a new trainer restored from the download.
  const ExperimentConfig c = testing::small_checkerboard();
  const CheckerboardTask task(c);
  VulkanBackend a_backend(validated()), b_backend(validated()), c_backend(validated());
  Trainer a(make_model(c), task, a_backend), b(make_model(c), task, b_backend);
  REQUIRE(a.on_device());
  for (int e = 0; e < 12; ++e) a.run_epoch();
  for (int e = 0; e < 6; ++e) b.run_epoch();
  TrainingState saved = training_state_of(b);
  Model saved_model = b.model();
  for (int e = 0; e < 6; ++e) b.run_epoch();
  Trainer resumed(std::move(saved_model), task, c_backend);
  restore_training(resumed, std::move(saved));
  for (int e = 0; e < 6; ++e) resumed.run_epoch();
  CHECK(b.model().logits == a.model().logits);
  CHECK(resumed.model().logits == a.model().logits);
  CHECK(resumed.optimizer().second_moment() == a.optimizer().second_moment());
  CHECK(resumed.optimizer().steps_taken() == 12);
  for (int e = 0; e < 12; ++e) {
    CAPTURE(e);
    CHECK(resumed.history()[e].soft_loss == a.history()[e].soft_loss);
    CHECK(resumed.history()[e].hard_loss == a.history()[e].hard_loss);
  }
}

TEST_CASE("Vulkan device training: undoing an epoch restores the state before it") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  // A solved stop takes back the last epoch's update; on the device that state is downloaded
  // before each epoch. 3 epochs and an undo equal 2 epochs, and the undone measurement is the
  // third epoch's.
  const ExperimentConfig c = testing::small_checkerboard();
  const CheckerboardTask task(c);
  VulkanBackend a_backend(validated()), b_backend(validated());
  Trainer a(make_model(c), task, a_backend), b(make_model(c), task, b_backend);
  REQUIRE(a.on_device());
  a.keep_undo_state(true);
  for (int e = 0; e < 3; ++e) a.run_epoch();
  const EpochStats third = a.history().back();
  a.undo_last_epoch();
  for (int e = 0; e < 2; ++e) b.run_epoch();
  CHECK(a.epoch() == 2);
  CHECK(a.model().logits == b.model().logits);
  CHECK(a.optimizer().second_moment() == b.optimizer().second_moment());
  CHECK(a.optimizer().steps_taken() == 2);
  REQUIRE(a.undone_epoch());
  CHECK(a.undone_epoch()->soft_loss == third.soft_loss);
  // Training on continues as if the undone epoch had not run: epoch 2 again, the same result.
  const EpochStats again = a.run_epoch();
  CHECK(again.soft_loss == third.soft_loss);
  CHECK(again.epoch == 2);
  CHECK(a_backend.validation_errors() == 0);
}
