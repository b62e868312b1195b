// Deterministic, platform-independent randomness: keys derived by hashing (like JAX's split, but
// with splitmix64), a small generator for sequential draws, permutations, and the counter-based
// per-cell draws (async fire masks, random initial states) that the backward pass can regenerate.
#pragma once

#include <cstdint>
#include <vector>

namespace dlca {

// splitmix64's finaliser: a bijective 64-bit mix.
constexpr uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A child key of `key`, one per tag. Different tags give independent streams.
constexpr uint64_t derive_key(uint64_t key, uint64_t tag) {
  return mix64(key ^ mix64(tag ^ 0x243F6A8885A308D3ull));
}

// Counter-based draw: a uniform float in [0, 1) for (key, counter), 24 random bits.
constexpr float uniform01(uint64_t key, uint64_t counter) {
  return float(derive_key(key, counter) >> 40) * (1.0f / 16777216.0f);
}

// The asynchronous fire rule of training, the notebook's `draw <= fire_rate`, shared by every
// simulator: fire rate 1 fires every cell; a rate of 0 or below (which training refuses) none.
constexpr bool fires(float draw, float fire_rate) { return fire_rate > 0 && draw <= fire_rate; }

// How many of uniform01's 2^24 values k / 2^24 fire at `fire_rate`: those with k < the result.
constexpr uint32_t firing_draws(float fire_rate) {
  if (!(fire_rate > 0)) return 0;
  if (fire_rate >= 1) return uint32_t{1} << 24;
  return uint32_t(double(fire_rate) * 16777216.0) + 1;  // k <= floor(fire_rate * 2^24)
}

// A sequential generator (splitmix64) for wiring and other one-off draws.
class Rng {
 public:
  explicit Rng(uint64_t key) : state_(key) {}
  uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    return mix64(state_);
  }
  // Uniform integer in [0, bound), unbiased (Lemire's method). bound > 0.
  uint64_t below(uint64_t bound);

 private:
  uint64_t state_;
};

// A uniformly random permutation of {0, ..., n-1} drawn from `key` (Fisher-Yates).
std::vector<uint32_t> random_permutation(uint64_t key, uint32_t n);

}  // namespace dlca
