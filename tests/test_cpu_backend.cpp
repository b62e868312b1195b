// The fast CPU backend against the reference: final states, soft and hard loss and every logit
// gradient, on small configurations (both boundaries, async, sizes that do not fill a SIMD vector),
// at 1 and 2 threads, with checkpointing on and off, and on every Highway target compiled in.
// Also: determinism across thread counts and the activation policy.
#include <doctest/doctest.h>

#include <hwy/targets.h>

#include "backend_checks.hpp"
#include "dlca/cpu/cpu_backend.hpp"

using namespace dlca;

namespace {

using testing::BackendCase;

void compare_with_reference(const BackendCase& c, const CpuBackendOptions& options) {
  CAPTURE(options.threads);
  CAPTURE(options.checkpointing);
  CAPTURE(options.tile_cells);
  CpuBackend backend(options);
  testing::compare_with_reference(c, backend);
}

std::vector<BackendCase> cases() { return testing::backend_cases(); }

}  // namespace

TEST_CASE("CPU backend matches the reference") {
  for (const BackendCase& c : cases())
    for (int threads : {1, 2})
      for (bool checkpointing : {true, false})
        compare_with_reference(
            c, {.threads = threads, .checkpointing = checkpointing, .tile_cells = 16});
  // Automatic tile size (one tile holds everything here).
  compare_with_reference(cases()[0], {});
}

TEST_CASE("CPU backend matches the reference with input-wise gates") {
  for (const BackendCase& c : testing::input_wise_backend_cases())
    for (int threads : {1, 2})
      compare_with_reference(c,
                             {.threads = threads, .checkpointing = threads == 1, .tile_cells = 16});
}

TEST_CASE("CPU backend matches the reference with a loss over the last steps") {
  for (BackendCase c : cases()) {
    c.config.loss_steps = c.config.steps;  // every state after the start
    for (int threads : {1, 2})
      compare_with_reference(c,
                             {.threads = threads, .checkpointing = threads == 1, .tile_cells = 16});
    c.config.loss_steps = 2;
    c.config.gates = GateKind::kInputWise;
    compare_with_reference(c, {.threads = 2, .checkpointing = true, .tile_cells = 16});
    // Without the gradient the loss still counts every state compared (a separate path).
    const testing::RolloutInputs in(c, 5, 6, 7);
    CpuBackend backend({.threads = 2});
    RolloutRequest with, without;
    without.gradient = false;
    CHECK(backend.rollout(in.model, in.target, in.batch(), without).soft_loss ==
          doctest::Approx(backend.rollout(in.model, in.target, in.batch(), with).soft_loss)
              .epsilon(1e-6));
  }
}

TEST_CASE("CPU backend matches the reference under forward-only sharpening and logit noise") {
  for (const BackendCase& c : cases()) {
    CpuBackend backend({.threads = 2, .checkpointing = true, .tile_cells = 16});
    testing::compare_with_reference(c, backend, 1e-5, 0.4);
    testing::compare_with_reference(c, backend, 1e-5, 0.4, 0.5f);  // and logit noise
  }
}

TEST_CASE("CPU backend matches the reference with hard-error feedback (--hard-feedback)") {
  // Its gradient is the reference's against the target shifted by the hard circuit's errors
  // (feedback_target); sharpened as in training, softmax and input-wise gates, 1 and 2 threads.
  for (const auto& c : cases())
    for (int threads : {1, 2}) {
      CpuBackend backend({.threads = threads, .checkpointing = threads == 1, .tile_cells = 16});
      testing::compare_with_reference(c, backend, 1e-5, 0.4, 0.0f, false, 0.25);
    }
  for (const auto& c : testing::input_wise_backend_cases()) {
    CpuBackend backend({.threads = 2, .tile_cells = 16});
    testing::compare_with_reference(c, backend, 1e-5, 1.0, 0.0f, false, 3.0);
  }
}

TEST_CASE("CPU backend matches the reference with hardened gates (progressive hardening)") {
  CpuBackend backend({.threads = 2, .checkpointing = true, .tile_cells = 16});
  for (const BackendCase& c : cases())
    testing::compare_with_reference(c, backend, 1e-5, 1, 0, true);
  for (const auto& c : testing::input_wise_backend_cases())
    testing::compare_with_reference(c, backend, 1e-5, 1, 0, true);
  testing::compare_with_reference(cases()[0], backend, 1e-5, 0.4, 0, true);  // and sharpening
}

TEST_CASE("CPU backend matches the reference with more tiles than gradient chunks") {
  // 20x20 cells in tiles of 16: 25 tiles; batch 2 makes 50, more than the 32 accumulator chunks.
  const BackendCase c{"many tiles", testing::small_config(1, 2, 1, 20, 20, 2, 2, false, false),
                      true};
  compare_with_reference(c, {.threads = 2, .checkpointing = true, .tile_cells = 16});
  compare_with_reference(c, {.threads = 1, .checkpointing = false, .tile_cells = 32});
}

TEST_CASE("CPU backend matches the reference on every compiled Highway target") {
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    const std::string target_name = hwy::TargetName(target);
    CAPTURE(target_name);
    hwy::SetSupportedTargetsForTest(target);
    for (const BackendCase& c : cases())
      compare_with_reference(c, {.threads = 2, .checkpointing = true, .tile_cells = 16});
  }
  hwy::SetSupportedTargetsForTest(0);
}

TEST_CASE("CPU backend is bit-identical across thread counts and activation policies") {
  const BackendCase c = cases()[2];
  Model m = make_model(c.config);
  testing::randomize_logits(m, 5);
  const auto init = testing::random_states(c.config, 8, false);
  const Target target = checkerboard_target(c.config.channels, c.config.height, c.config.width);
  const auto run = [&](int threads, bool checkpointing) {
    CpuBackend backend({.threads = threads, .checkpointing = checkpointing, .tile_cells = 16});
    const auto masks = testing::masks_for(c.config, 9);
    return backend.rollout(
        m, target, {c.config.batch, init.data(), masks.empty() ? nullptr : masks.data()}, {});
  };
  const RolloutResult base = run(1, true);
  for (auto [threads, checkpointing] : {std::pair{2, true}, {1, false}, {2, false}}) {
    const RolloutResult other = run(threads, checkpointing);
    CHECK(other.soft_loss == base.soft_loss);
    CHECK(other.hard_loss == base.hard_loss);
    CHECK(other.grad == base.grad);
  }
}
