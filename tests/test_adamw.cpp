// AdamW with element-wise clipping against values worked out by hand (docs/MODEL.md §8).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "dlca/train/adamw.hpp"

using namespace dlca;

TEST_CASE("first AdamW step: sign of the gradient plus weight decay, clipped at 100") {
  AdamW opt(4, AdamWSettings{.learning_rate = 0.05f});
  std::vector<float> params = {1.0f, -2.0f, 0.5f, 3.0f};
  const std::vector<float> grad = {0.5f, 150.0f, -1e-3f, 0.0f};
  opt.step(params, grad);
  // t=1: m_hat = g, v_hat = g^2, update = g/(|g| + 1e-8) + 0.01*theta.
  CHECK(params[0] == doctest::Approx(1.0 - 0.05 * (0.5 / (0.5 + 1e-8) + 0.01)).epsilon(1e-6));
  CHECK(params[1] == doctest::Approx(-2.0 - 0.05 * (100.0 / (100.0 + 1e-8) - 0.02)).epsilon(1e-6));
  CHECK(params[2] == doctest::Approx(0.5 - 0.05 * (-1e-3 / (1e-3 + 1e-8) + 0.005)).epsilon(1e-6));
  CHECK(params[3] == doctest::Approx(3.0 * (1 - 0.05 * 0.01)).epsilon(1e-7));  // decay only
  CHECK(opt.first_moment()[1] == doctest::Approx(10.0));                       // clipped g = 100
  CHECK(opt.second_moment()[1] == doctest::Approx(100.0));
}

TEST_CASE("second AdamW step by hand, and a gradient above the clip equals one at the clip") {
  AdamW a(1, AdamWSettings{.learning_rate = 0.1f}), b(1, AdamWSettings{.learning_rate = 0.1f});
  std::vector<float> pa = {0.25f}, pb = {0.25f};
  a.step(pa, {2.0f});
  a.step(pa, {-1.0f});
  b.step(pb, {2.0f});
  b.step(pb, {-1.0f});
  double theta = 0.25, m = 0, v = 0;
  for (int t = 1; t <= 2; ++t) {
    const double g = t == 1 ? 2.0 : -1.0;
    m = 0.9 * m + 0.1 * g;
    v = 0.99 * v + 0.01 * g * g;
    const double mh = m / (1 - std::pow(0.9, t)), vh = v / (1 - std::pow(0.99, t));
    theta -= 0.1 * (mh / (std::sqrt(vh) + 1e-8) + 0.01 * theta);
  }
  CHECK(pa[0] == doctest::Approx(theta).epsilon(1e-6));

  AdamW big(1, {}), clipped(1, {});
  std::vector<float> p1 = {1.0f}, p2 = {1.0f};
  big.step(p1, {1e6f});
  clipped.step(p2, {100.0f});
  CHECK(p1[0] == p2[0]);
}

TEST_CASE("normalised per tensor: each tensor's gradient over its L2 norm before the step") {
  // Tensors [0, 2) and [2, 3): gradients (3, 4) and (-0.5) become (0.6, 0.8) and (-1) up to the
  // 1e-8; with weight decay 0 the first step is lr * sign, the second shows the scaled moments.
  const AdamWSettings settings{
      .learning_rate = 0.1f, .weight_decay = 0, .normalize_per_tensor = true};
  AdamW normalised(3, settings, {0, 2, 3});
  AdamW plain(3, AdamWSettings{.learning_rate = 0.1f, .weight_decay = 0});
  std::vector<float> a = {0, 0, 0}, b = a;
  normalised.step(a, {3, 4, -0.5f});
  plain.step(b, {0.6f, 0.8f, -1});
  for (int i = 0; i < 3; ++i) CHECK(a[i] == doctest::Approx(b[i]).epsilon(1e-6));
  CHECK(normalised.first_moment()[1] == doctest::Approx(0.1f * 0.8f).epsilon(1e-6));
  CHECK(normalised.second_moment()[2] == doctest::Approx(0.01f).epsilon(1e-5));
  // A zero gradient stays zero; bounds that do not cover the parameters are refused.
  std::vector<float> c = {1, 1, 1};
  AdamW(3, settings, {0, 2, 3}).step(c, {0, 0, 0});
  CHECK(c == std::vector<float>{1, 1, 1});
  CHECK_THROWS_AS(AdamW(3, settings, {0, 2}), std::invalid_argument);
  CHECK_THROWS_AS(AdamW(3, settings, {0, 3, 2, 3}), std::invalid_argument);
}

TEST_CASE("a non-finite gradient is refused without changing anything") {
  AdamW opt(2, {});
  std::vector<float> params = {1.0f, 2.0f};
  CHECK_THROWS(opt.step(params, {0.1f, std::nanf("")}));
  CHECK(params == std::vector<float>{1.0f, 2.0f});
  CHECK(opt.steps_taken() == 0);
}

TEST_CASE("the step's clamp never acts while nothing underflows") {
  // Float recurrences as AdamW runs them, over gradients of every ordinary size and sign.
  uint64_t state = 12345;
  const auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return double(state >> 11) / double(1ull << 53);
  };
  for (int sequence = 0; sequence < 200; ++sequence) {
    float m = 0, v = 0;
    for (int t = 1; t <= 300; ++t) {
      const double u = next();
      const float g = u < 0.1 ? 0.0f : float((next() < 0.5 ? -1 : 1) * std::pow(10.0, -8 + 10 * u));
      m = 0.9f * m + (1.0f - 0.9f) * g;
      v = 0.99f * v + (1.0f - 0.99f) * g * g;
      const float m_hat = m / (1.0f - std::pow(0.9f, float(t)));
      const float v_hat = v / (1.0f - std::pow(0.99f, float(t)));
      for (float eps : {1e-8f, 1e-16f, 1e-30f}) {
        const float exact = m_hat / (std::sqrt(v_hat) + eps);
        REQUIRE(std::abs(exact) <= 2.35f);
        REQUIRE(adam_step(m_hat, v_hat, eps) == exact);
      }
    }
  }
}

TEST_CASE("a gradient whose square underflows takes at most 4 learning rates with a tiny epsilon") {
  // 0.01 * (1e-23)^2 is below the smallest float, so v stays 0 while m does not: without the
  // clamp each step would be 0.05 * 1e-23 / 1e-30 = 5e5.
  AdamW opt(1, AdamWSettings{.learning_rate = 0.05f, .eps = 1e-30f, .weight_decay = 0});
  std::vector<float> params = {0.0f};
  for (int t = 1; t <= 5; ++t) {
    const float before = params[0];
    opt.step(params, {1e-23f});
    CHECK(opt.second_moment()[0] == 0.0f);
    CHECK(before - params[0] > 0.0f);
    CHECK(before - params[0] <= 4 * 0.05f * 1.0001f);
  }
}
