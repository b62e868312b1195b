// JAX's threefry streams against values nobody in this project computed: Threefry-2x32 known
// answers (Random123, as in JAX's own tests), jax.random.split(PRNGKey(0)) as JAX's documentation
// prints it, and the wiring of the published Game of Life circuit (docs/MODEL.md §4.5, §12).
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "dlca/core/grid.hpp"
#include "dlca/core/jax_random.hpp"
#include "dlca/core/model.hpp"
#include "dlca/train/game_of_life.hpp"

using namespace dlca;

TEST_CASE("threefry2x32 known answers") {
  using W = std::array<uint32_t, 2>;
  CHECK(jax::threefry2x32({0, 0}, {0, 0}) == W{0x6b200159u, 0x99ba4efeu});
  CHECK(jax::threefry2x32({~0u, ~0u}, {~0u, ~0u}) == W{0x1cb996fcu, 0xbb002be7u});
  CHECK(jax::threefry2x32({0x13198a2eu, 0x03707344u}, {0x243f6a88u, 0x85a308d3u}) ==
        W{0xc4923a9cu, 0x483df7a0u});
}

TEST_CASE("jax.random.split(PRNGKey(0)) as JAX documents it") {
  const auto keys = jax::split(jax::prng_key(0));
  CHECK(keys[0] == jax::Key{4146024105u, 967050713u});
  CHECK(keys[1] == jax::Key{2718843009u, 1272950319u});
}

TEST_CASE("permutation and randint are what they claim") {
  const auto p = jax::permutation(jax::prng_key(5), 300);
  auto sorted = p;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < 300; ++i) CHECK(sorted[i] == i);
  const auto bits = jax::randint(jax::prng_key(1), 10000, 2);
  const auto ones = std::count(bits.begin(), bits.end(), 1u);
  CHECK(ones > 4800);
  CHECK(ones < 5200);
  for (uint32_t v : jax::randint(jax::prng_key(2), 1000, 512)) CHECK(v < 512);
}

TEST_CASE("seed 23 with JAX streams gives the published Game of Life circuit's perception wiring") {
  // The notebook's GoL model (docs/MODEL.md §10.3). In gol_circuit.json, second-layer gate g of
  // every kernel combines: g0 NW and SE, g1 S and W, g2 SW and NE, g3 N and E.
  const ExperimentConfig c = game_of_life_config();  // seed 23, JAX streams
  const Model m = make_model(c);
  const LayerWiring& first = m.perception_wiring[0];
  const LayerWiring& second = m.perception_wiring[1];
  const auto neighbours = [&](int g) {
    return std::set<uint32_t>{first.a[second.a[g]], first.a[second.b[g]]};
  };
  enum { NW = 0, N = 1, NE = 2, W = 3, E = 5, SW = 6, S = 7, SE = 8 };
  CHECK(neighbours(0) == std::set<uint32_t>{NW, SE});
  CHECK(neighbours(1) == std::set<uint32_t>{S, W});
  CHECK(neighbours(2) == std::set<uint32_t>{SW, NE});
  CHECK(neighbours(3) == std::set<uint32_t>{N, E});
  for (uint32_t b : first.b) CHECK(b == 4);  // the centre on input B
}

TEST_CASE("jax uniform floats and fire masks") {
  CHECK(jax::uniform_from_bits(0) == 0.0f);
  CHECK(jax::uniform_from_bits(0xFFFFFFFFu) == doctest::Approx(1.0f - 1.0f / 8388608.0f));
  CHECK(jax::uniform_from_bits(0x80000000u) == 0.5f);
  const auto masks = jax_fire_masks(jax::prng_key(3), 20, 16, 16, 0.6f);
  REQUIRE(masks.size() == 20u * 256);
  const auto fired = std::count(masks.begin(), masks.end(), uint8_t{1});
  CHECK(fired > 0.55 * masks.size());
  CHECK(fired < 0.65 * masks.size());
  CHECK(!std::equal(masks.begin(), masks.begin() + 256, masks.begin() + 256));  // fresh every step
}
