// Central finite differences against the reference implementation's hand-written backward pass,
// in double precision: one step (perception, update, loss), several synchronous steps on a torus,
// and asynchronous steps with zero padding; and the forward-only sharpening gradient, which is not
// the gradient of one function but is built from one that is (see its test).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "reference/reference_model.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

// harden_half: every other gate fixed to its hard op (progressive hardening) in every run.
void check_against_finite_differences(const ExperimentConfig& cfg, int samples,
                                      bool harden_half = false) {
  Model m = make_model(cfg);
  testing::randomize_logits(m, 42);
  const std::vector<double> logits = testing::to_double(m.logits);
  const auto init = testing::random_states(cfg, 3, false);
  const Target target = checkerboard_target(cfg.channels, cfg.height, cfg.width);
  const auto masks = testing::masks_for(cfg, 1234);
  std::vector<uint8_t> hardened;
  if (harden_half)  // every other gate: gates of every layer are fixed and free
    for (int g = 0; g < m.num_gates(); ++g) hardened.push_back(uint8_t(g % 2));
  const auto loss = [&](const std::vector<double>& z) {
    return reference::run(m, z, target, init, cfg.batch, masks, false, false, 1.0, hardened).loss;
  };
  const auto analytic =
      reference::run(m, logits, target, init, cfg.batch, masks, false, true, 1.0, hardened);
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
    const double fd = (loss(plus) - loss(minus)) / (2 * h);
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

TEST_CASE("reference gradients: a loss over the last steps (grow and stay)") {
  ExperimentConfig sync = testing::small_config(2, 2, 2, 4, 5, 4, 2, true, false);
  sync.loss_steps = 3;  // states 2, 3 and 4
  check_against_finite_differences(sync, 80);
  ExperimentConfig async = testing::small_config(2, 2, 2, 4, 4, 4, 1, false, true);
  async.loss_steps = 4;  // every state after the start
  async.gates = GateKind::kInputWise;
  check_against_finite_differences(async, 80);
}

TEST_CASE("reference gradients: input-wise gates, synchronous on a torus and asynchronous") {
  ExperimentConfig torus = testing::small_config(2, 3, 1, 3, 4, 3, 1, true, false);
  torus.gates = GateKind::kInputWise;
  check_against_finite_differences(torus, 80);
  ExperimentConfig async = testing::small_config(2, 2, 2, 4, 4, 4, 1, false, true);
  async.gates = GateKind::kInputWise;
  check_against_finite_differences(async, 80);
}

TEST_CASE("reference gradients: progressive hardening, softmax and input-wise gates") {
  // Half the gates fixed to their hard op: their forward no longer depends on their parameters
  // (finite differences 0), the free gates' gradients flow through the fixed ones.
  ExperimentConfig sync = testing::small_config(2, 3, 1, 3, 4, 3, 1, true, false);
  check_against_finite_differences(sync, 80, true);
  ExperimentConfig async = testing::small_config(2, 2, 2, 4, 4, 4, 1, false, true);
  async.gates = GateKind::kInputWise;
  check_against_finite_differences(async, 80, true);
}

TEST_CASE(
    "reference gradients: forward-only sharpening, from finite differences of the sharpened "
    "loss") {
  // With forward temperature T the gradient is J(p)^T u, where p = softmax(z), J its Jacobian and
  // u = dL/dq the loss's gradient in the op weights q = softmax(z / T) of the forward pass. The
  // exact gradient of the sharpened loss L(softmax(z / T)) is (1/T) J(q)^T u, whose entries are
  // (1/T) q_j (u_j - q.u): finite differences of that loss give u up to a constant per gate, and
  // p_j (u_j - p.u) does not depend on the constant.
  const ExperimentConfig cfg = testing::small_config(2, 2, 2, 4, 4, 2, 2, false, false);
  const double T = 0.5;
  Model m = make_model(cfg);
  testing::randomize_logits(m, 7);
  const std::vector<double> logits = testing::to_double(m.logits);
  const auto init = testing::random_states(cfg, 5, false);
  const Target target = checkerboard_target(cfg.channels, cfg.height, cfg.width);
  const auto sharpened_loss = [&](const std::vector<double>& z) {
    std::vector<double> divided = z;
    for (double& v : divided) v /= T;
    return reference::run(m, divided, target, init, cfg.batch, {}, false, false).loss;
  };
  const auto analytic = reference::run(m, logits, target, init, cfg.batch, {}, false, true, T);
  CHECK(testing::max_abs(analytic.grad) > 1e-3);
  const auto plain = reference::run(m, logits, target, init, cfg.batch, {}, false, true);
  double change = 0;  // sharpening changes the gradient
  for (size_t i = 0; i < plain.grad.size(); ++i)
    change = std::max(change, std::abs(analytic.grad[i] - plain.grad[i]));
  CHECK(change > 1e-3);

  const int gates = int(logits.size() / 16);
  int checked = 0;
  for (int g = gates / 7; g < gates; g += std::max(1, gates / 6)) {
    const double* z = &logits[size_t(g) * 16];
    std::array<double, 16> p, q, w;
    double zmax = *std::max_element(z, z + 16), sp = 0, sq = 0;
    for (int i = 0; i < 16; ++i) {
      sp += p[i] = std::exp(z[i] - zmax);
      sq += q[i] = std::exp((z[i] - zmax) / T);
    }
    for (int i = 0; i < 16; ++i) {
      p[i] /= sp;
      q[i] /= sq;
      const double h = 1e-5;
      auto plus = logits, minus = logits;
      plus[size_t(g) * 16 + i] += h;
      minus[size_t(g) * 16 + i] -= h;
      const double fd = (sharpened_loss(plus) - sharpened_loss(minus)) / (2 * h);
      w[i] = T * fd / q[i];  // u_i - q.u
    }
    double pw = 0;
    for (int i = 0; i < 16; ++i) pw += p[i] * w[i];
    for (int j = 0; j < 16; ++j) {
      CAPTURE(g);
      CAPTURE(j);
      CHECK(analytic.grad[size_t(g) * 16 + j] ==
            doctest::Approx(p[j] * (w[j] - pw)).epsilon(1e-5).scale(1.0));
    }
    ++checked;
  }
  CHECK(checked >= 5);
}
