// Small configurations that every backend is checked on against the reference (both boundaries,
// async, sizes that do not fill a SIMD vector, random wiring), and the check itself: final states,
// soft and hard loss and every logit gradient.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "dlca/core/backend.hpp"
#include "dlca/train/checkerboard.hpp"
#include "reference/reference_model.hpp"
#include "test_helpers.hpp"

namespace dlca::testing {

struct BackendCase {
  const char* name;
  ExperimentConfig config;
  bool binary_init;
};

// 'random' wiring everywhere but the first perception layer: gates may read one input twice and
// some outputs may go unused.
inline ExperimentConfig random_wiring_config() {
  ExperimentConfig c = small_config(2, 2, 2, 4, 5, 2, 2, false, false);
  for (size_t l = 1; l < c.perception_connections.size(); ++l)
    c.perception_connections[l] = Connection::kRandom;
  for (auto& kind : c.update_connections) kind = Connection::kRandom;
  return c;
}

// A case's model with random logits, its random start, masks and checkerboard target, as one
// rollout's inputs (seeds fixed by the caller).
struct RolloutInputs {
  Model model;
  std::vector<float> init;
  std::vector<uint8_t> masks;
  Target target;
  RolloutInputs(const BackendCase& c, uint64_t logit_seed, uint64_t state_seed, uint64_t mask_seed)
      : model(make_model(c.config)),
        init(random_states(c.config, state_seed, c.binary_init)),
        masks(masks_for(c.config, mask_seed)),
        target(checkerboard_target(c.config.channels, c.config.height, c.config.width)) {
    randomize_logits(model, logit_seed);
  }
  RolloutBatch batch() const {
    return {model.config.batch, init.data(), masks.empty() ? nullptr : masks.data()};
  }
};

inline std::vector<BackendCase> backend_cases() {
  return {
      {"zero boundary, 5x7, 3 steps, batch 2", small_config(2, 2, 2, 5, 7, 3, 2, false, false),
       false},
      {"torus 3x3, 2 steps, batch 3, S=1", small_config(3, 2, 1, 3, 3, 2, 3, true, false), false},
      {"async zero boundary 6x5, 4 steps", small_config(2, 3, 2, 6, 5, 4, 1, false, true), true},
      {"async torus 4x9, 3 steps, batch 2", small_config(1, 4, 1, 4, 9, 3, 2, true, true), false},
      {"random wiring (a == b, unused inputs)", random_wiring_config(), false},
  };
}

// The same cases with input-wise gates (4 angles per gate instead of 16 logits).
inline std::vector<BackendCase> input_wise_backend_cases() {
  std::vector<BackendCase> cases = backend_cases();
  for (BackendCase& c : cases) c.config.gates = GateKind::kInputWise;
  return cases;
}

// The checkerboard target shifted by the hard-error feedback beta (RolloutRequest::hard_feedback):
// per sample, t - beta (h - t) on the loss channels, h the hard circuit's final state. With one
// compared state, 2 (s - shifted) = 2 (s - t) + beta 2 (h - t): the reference's gradient against
// it is the gradient with the feedback.
inline Target feedback_target(const Target& target, const ExperimentConfig& c,
                              const std::vector<double>& hard_final, double beta) {
  Target shifted = target;
  shifted.samples = c.batch;
  shifted.values.clear();
  for (int b = 0; b < c.batch; ++b)
    for (int ch = 0; ch < c.channels; ++ch)
      for (int y = 0; y < c.height; ++y)
        for (int x = 0; x < c.width; ++x) {
          const bool compared = std::find(c.loss_channels.begin(), c.loss_channels.end(), ch) !=
                                c.loss_channels.end();
          const double t = target.at(b, ch, y, x),
                       h = hard_final[((size_t(b) * c.channels + ch) * c.height + y) * c.width + x];
          shifted.values.push_back(float(compared ? t - beta * (h - t) : t));
        }
  return shifted;
}

// Float arithmetic against double: relative to the size of the values compared. A forward
// temperature other than 1 checks forward-only sharpening; with `noise` Gumbel noise of that scale
// is added to the soft pass's logits (the reference is simply run on the noisy logits); with
// hard_feedback the gradient is the reference's against feedback_target (one compared state).
inline void compare_with_reference(const BackendCase& c, Backend& backend, double tolerance = 1e-5,
                                   double forward_temperature = 1.0, float noise = 0.0f,
                                   bool harden_half = false, double hard_feedback = 0.0) {
  const std::string name = c.name;
  CAPTURE(name);
  Model m = make_model(c.config);
  randomize_logits(m, 17);
  const auto init = random_states(c.config, 23, c.binary_init);
  const Target target = checkerboard_target(c.config.channels, c.config.height, c.config.width);
  const auto masks = masks_for(c.config, 555);
  std::vector<float> scaled_noise = logit_noise(m.logits.size(), 99, 7), noisy = m.logits;
  for (size_t i = 0; i < noisy.size(); ++i) noisy[i] += scaled_noise[i] *= noise;
  // Every other gate fixed to its hard op. (The backends take it from the clean logits, the
  // reference from the ones it is given: so not together with noise here.)
  REQUIRE(!(harden_half && noise > 0));
  std::vector<uint8_t> hardened;
  if (harden_half)
    for (int g = 0; g < m.num_gates(); ++g) hardened.push_back(uint8_t(g % 2));
  auto ref = reference::run(m, to_double(noise > 0 ? noisy : m.logits), target, init,
                            c.config.batch, masks, false, true, forward_temperature, hardened);

  // The hard circuit sees binary states: the backend thresholds the initial state at 0.5.
  std::vector<float> binary_init = init;
  for (float& v : binary_init) v = v > 0.5f ? 1.0f : 0.0f;
  const auto ref_hard = reference::run(m, to_double(m.logits), target, binary_init, c.config.batch,
                                       masks, true, false);
  if (hard_feedback != 0.0) {
    REQUIRE(c.config.loss_steps == 1);
    const Target shifted = feedback_target(target, c.config, ref_hard.final_state, hard_feedback);
    const std::vector<double> with_feedback =
        reference::run(m, to_double(noise > 0 ? noisy : m.logits), shifted, init, c.config.batch,
                       masks, false, true, forward_temperature, hardened)
            .grad;
    double change = 0;  // the hard circuit is wrong somewhere: the feedback moves the gradient
    for (size_t i = 0; i < with_feedback.size(); ++i)
      change = std::max(change, std::abs(with_feedback[i] - ref.grad[i]));
    CHECK(change > 100 * tolerance * std::max(1.0, max_abs(ref.grad)));
    ref.grad = with_feedback;
  }

  RolloutRequest request;
  request.final_state = true;
  request.forward_temperature = forward_temperature;
  request.hard_feedback = hard_feedback;
  if (noise > 0) request.logit_noise = &scaled_noise;
  if (harden_half) request.hardened_gates = &hardened;
  const RolloutResult got = backend.rollout(
      m, target, {c.config.batch, init.data(), masks.empty() ? nullptr : masks.data()}, request);

  CHECK(got.soft_loss == doctest::Approx(ref.loss).epsilon(tolerance));
  CHECK(got.hard_loss == ref_hard.loss);
  REQUIRE(got.final_state.size() == ref.final_state.size());
  double state_error = 0;
  for (size_t i = 0; i < got.final_state.size(); ++i)
    state_error = std::max(state_error, std::abs(got.final_state[i] - ref.final_state[i]));
  CHECK(state_error < tolerance);
  REQUIRE(got.grad.size() == ref.grad.size());
  const double scale = max_abs(ref.grad);
  CHECK(scale > 1e-3);
  double grad_error = 0;
  for (size_t i = 0; i < got.grad.size(); ++i)
    grad_error = std::max(grad_error, std::abs(got.grad[i] - ref.grad[i]));
  CHECK(grad_error < tolerance * std::max(1.0, scale));
}

}  // namespace dlca::testing
