// Threefry-2x32 and the JAX random functions built on it (see jax_random.hpp).
#include "dlca/core/jax_random.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

namespace dlca::jax {

std::array<uint32_t, 2> threefry2x32(Key key, std::array<uint32_t, 2> x) {
  static constexpr int kRotations[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  const uint32_t ks[3] = {key[0], key[1], key[0] ^ key[1] ^ 0x1BD11BDAu};
  x[0] += ks[0];
  x[1] += ks[1];
  for (uint32_t i = 0; i < 5; ++i) {
    for (int r : kRotations[i % 2]) {
      x[0] += x[1];
      x[1] = std::rotl(x[1], r);
      x[1] ^= x[0];
    }
    x[0] += ks[(i + 1) % 3];
    x[1] += ks[(i + 2) % 3] + i + 1;
  }
  return x;
}

namespace {

// jax.prng.threefry_2x32 over a count vector: the first and second halves are the two words of
// each block; the outputs' first words come first. An odd count is padded with one 0.
std::vector<uint32_t> threefry_counts(Key key, std::vector<uint32_t> count) {
  const size_t n = count.size();
  if (n % 2) count.push_back(0);
  const size_t half = count.size() / 2;
  std::vector<uint32_t> out(count.size());
  for (size_t i = 0; i < half; ++i) {
    const auto y = threefry2x32(key, {count[i], count[half + i]});
    out[i] = y[0];
    out[half + i] = y[1];
  }
  out.resize(n);
  return out;
}

std::vector<uint32_t> iota(size_t n) {
  std::vector<uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

}  // namespace

Key prng_key(uint32_t seed) { return {0u, seed}; }

std::vector<Key> split(Key key, int num) {
  const auto bits = threefry_counts(key, iota(size_t(num) * 2));
  std::vector<Key> keys(num);
  for (int i = 0; i < num; ++i) keys[i] = {bits[2 * i], bits[2 * i + 1]};
  return keys;
}

std::vector<uint32_t> random_bits(Key key, size_t n) { return threefry_counts(key, iota(n)); }

float uniform_from_bits(uint32_t bits) {
  return std::bit_cast<float>((bits >> 9) | 0x3F800000u) - 1.0f;
}

std::vector<uint32_t> permutation(Key key, uint32_t n) {
  std::vector<uint32_t> x = iota(n);
  // _shuffle: ceil(3 ln n / ln(2^32 - 1)) rounds of sorting by fresh random words.
  int rounds = 0;
  for (double cover = 1; n > 1 && cover < double(n) * double(n) * double(n); cover *= 4294967295.0)
    ++rounds;
  for (int r = 0; r < rounds; ++r) {
    const auto keys = split(key);
    key = keys[0];
    const auto sort_keys = random_bits(keys[1], n);
    std::vector<uint32_t> order = iota(n);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t i, uint32_t j) { return sort_keys[i] < sort_keys[j]; });
    std::vector<uint32_t> next(n);
    for (uint32_t i = 0; i < n; ++i) next[i] = x[order[i]];
    x = std::move(next);
  }
  return x;
}

std::vector<uint32_t> randint(Key key, size_t n, uint32_t span) {
  const auto keys = split(key);
  const auto higher = random_bits(keys[0], n), lower = random_bits(keys[1], n);
  const uint32_t multiplier = uint32_t((uint64_t(65536) % span) * (uint64_t(65536) % span) % span);
  std::vector<uint32_t> out(n);
  for (size_t i = 0; i < n; ++i)
    out[i] = uint32_t((uint64_t(higher[i] % span) * multiplier + lower[i] % span) % span);
  return out;
}

Key EpochKeys::sub(uint64_t epoch) {
  if (epoch + 1 == next_epoch_) return last_;
  if (epoch < next_epoch_) {
    key_ = start_;
    next_epoch_ = 0;
  }
  for (; next_epoch_ <= epoch; ++next_epoch_) {
    const auto keys = split(key_);
    key_ = keys[0];
    last_ = keys[1];
  }
  return last_;
}

}  // namespace dlca::jax
