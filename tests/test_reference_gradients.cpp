// Central finite differences against the reference implementation's hand-written backward pass,
// in double precision: one step (perception, update, loss), several synchronous steps on a torus,
// and asynchronous steps with zero padding.
#include <doctest/doctest.h>

#include <cmath>

#include "reference/reference_model.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

void check_against_finite_differences(const ExperimentConfig& cfg, int samples) {
  Model m = make_model(cfg);
  testing::randomize_logits(m, 42);
  const std::vector<double> logits = testing::to_double(m.logits);
  const auto init = testing::random_states(cfg, 3, false);
  const Target target = checkerboard_target(cfg.channels, cfg.height, cfg.width);
  const auto masks = testing::masks_for(cfg, 1234);
  const auto analytic = reference::run(m, logits, target, init, cfg.batch, masks, false, true);
  REQUIRE(analytic.grad.size() == logits.size());
  CHECK(testing::max_abs(analytic.grad) > 1e-3);  // the rollout really depends on the logits

  // Every parameter array is sampled: stride through all logits.
  const size_t stride = std::max<size_t>(1, logits.size() / samples);
  int checked = 0;
  for (size_t i = stride / 2; i < logits.size(); i += stride) {
    const double h = 1e-5;
    auto plus = logits, minus = logits;
    plus[i] += h;
    minus[i] -= h;
    const double lp = reference::run(m, plus, target, init, cfg.batch, masks, false, false).loss;
    const double lm = reference::run(m, minus, target, init, cfg.batch, masks, false, false).loss;
    const double fd = (lp - lm) / (2 * h);
    CAPTURE(i);
    CHECK(analytic.grad[i] == doctest::Approx(fd).epsilon(1e-6).scale(1.0));
    ++checked;
  }
  CHECK(checked >= samples / 2);
}

}  // namespace

TEST_CASE("reference gradients: one step, zero boundary (perception, update, loss)") {
  check_against_finite_differences(testing::small_config(2, 2, 2, 4, 3, 1, 2, false, false), 80);
}

TEST_CASE("reference gradients: three synchronous steps on a torus, S = 1") {
  check_against_finite_differences(testing::small_config(2, 3, 1, 3, 4, 3, 1, true, false), 80);
}

TEST_CASE("reference gradients: four asynchronous steps, zero boundary") {
  check_against_finite_differences(testing::small_config(2, 2, 2, 4, 4, 4, 1, false, true), 80);
}
