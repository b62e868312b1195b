// The fast CPU backend against the reference: final states, soft and hard loss and every logit
// gradient, on small configurations (both boundaries, async, sizes that do not fill a SIMD vector),
// at 1 and 2 threads, with checkpointing on and off, and on every Highway target compiled in.
// Also: determinism across thread counts and the activation policy.
#include <doctest/doctest.h>

#include <hwy/targets.h>

#include "dlca/cpu_backend.hpp"
#include "reference/reference_model.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

struct Case {
  const char* name;
  ExperimentConfig config;
  bool binary_init;
};

// 'random' wiring everywhere but the first perception layer: gates may read one input twice and
// some outputs may go unused.
ExperimentConfig random_wiring_config() {
  ExperimentConfig c = testing::small_config(2, 2, 2, 4, 5, 2, 2, false, false);
  for (size_t l = 1; l < c.perception_connections.size(); ++l)
    c.perception_connections[l] = Connection::kRandom;
  for (auto& kind : c.update_connections) kind = Connection::kRandom;
  return c;
}

std::vector<Case> cases() {
  return {
      {"zero boundary, 5x7, 3 steps, batch 2",
       testing::small_config(2, 2, 2, 5, 7, 3, 2, false, false), false},
      {"torus 3x3, 2 steps, batch 3, S=1", testing::small_config(3, 2, 1, 3, 3, 2, 3, true, false),
       false},
      {"async zero boundary 6x5, 4 steps", testing::small_config(2, 3, 2, 6, 5, 4, 1, false, true),
       true},
      {"async torus 4x9, 3 steps, batch 2", testing::small_config(1, 4, 1, 4, 9, 3, 2, true, true),
       false},
      {"random wiring (a == b, unused inputs)", random_wiring_config(), false},
  };
}

// Float arithmetic against double: relative to the size of the values compared.
void compare_with_reference(const Case& c, const CpuBackendOptions& options) {
  const std::string name = c.name;
  CAPTURE(name);
  CAPTURE(options.threads);
  CAPTURE(options.checkpointing);
  CAPTURE(options.tile_cells);
  Model m = make_model(c.config);
  testing::randomize_logits(m, 17);
  const auto init = testing::random_states(c.config, 23, c.binary_init);
  const Target target = checkerboard_target(c.config.channels, c.config.height, c.config.width);
  const auto masks = testing::masks_for(c.config, 555);
  const auto ref = reference::run(m, testing::to_double(m.logits), target, init, c.config.batch,
                                  masks, false, true);
  // The hard circuit sees binary states: the backend thresholds the initial state at 0.5.
  std::vector<float> binary_init = init;
  for (float& v : binary_init) v = v > 0.5f ? 1.0f : 0.0f;
  const auto ref_hard = reference::run(m, testing::to_double(m.logits), target, binary_init,
                                       c.config.batch, masks, true, false);

  CpuBackend backend(options);
  RolloutRequest request;
  request.final_state = true;
  const RolloutResult got = backend.rollout(
      m, target, {c.config.batch, init.data(), masks.empty() ? nullptr : masks.data()}, request);

  CHECK(got.soft_loss == doctest::Approx(ref.loss).epsilon(1e-5));
  CHECK(got.hard_loss == ref_hard.loss);
  REQUIRE(got.final_state.size() == ref.final_state.size());
  double state_error = 0;
  for (size_t i = 0; i < got.final_state.size(); ++i)
    state_error = std::max(state_error, std::abs(got.final_state[i] - ref.final_state[i]));
  CHECK(state_error < 1e-5);
  REQUIRE(got.grad.size() == ref.grad.size());
  const double scale = testing::max_abs(ref.grad);
  CHECK(scale > 1e-3);
  double grad_error = 0;
  for (size_t i = 0; i < got.grad.size(); ++i)
    grad_error = std::max(grad_error, std::abs(got.grad[i] - ref.grad[i]));
  CHECK(grad_error < 1e-5 * std::max(1.0, scale));
}

}  // namespace

TEST_CASE("CPU backend matches the reference") {
  for (const Case& c : cases())
    for (int threads : {1, 2})
      for (bool checkpointing : {true, false})
        compare_with_reference(
            c, {.threads = threads, .checkpointing = checkpointing, .tile_cells = 16});
  // Automatic tile size (one tile holds everything here).
  compare_with_reference(cases()[0], {});
}

TEST_CASE("CPU backend matches the reference with more tiles than gradient chunks") {
  // 20x20 cells in tiles of 16: 25 tiles; batch 2 makes 50, more than the 32 accumulator chunks.
  const Case c{"many tiles", testing::small_config(1, 2, 1, 20, 20, 2, 2, false, false), true};
  compare_with_reference(c, {.threads = 2, .checkpointing = true, .tile_cells = 16});
  compare_with_reference(c, {.threads = 1, .checkpointing = false, .tile_cells = 32});
}

TEST_CASE("CPU backend matches the reference on every compiled Highway target") {
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    const std::string target_name = hwy::TargetName(target);
    CAPTURE(target_name);
    hwy::SetSupportedTargetsForTest(target);
    for (const Case& c : cases())
      compare_with_reference(c, {.threads = 2, .checkpointing = true, .tile_cells = 16});
  }
  hwy::SetSupportedTargetsForTest(0);
}

TEST_CASE("CPU backend is bit-identical across thread counts and activation policies") {
  const Case c = cases()[2];
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
