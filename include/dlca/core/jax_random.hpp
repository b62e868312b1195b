// JAX's default random streams (jax 0.4.33, threefry2x32, non-partitionable split), so dlca can
// reproduce the notebook's exact wiring and data (docs/MODEL.md §9.1): PRNGKey, split, random_bits,
// permutation (a sort by random words) and randint.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dlca::jax {

using Key = std::array<uint32_t, 2>;

// The Threefry-2x32 block cipher, 20 rounds.
std::array<uint32_t, 2> threefry2x32(Key key, std::array<uint32_t, 2> count);
// jax.random.PRNGKey(seed) for seed < 2^32: [0, seed].
Key prng_key(uint32_t seed);
// jax.random.split(key, num).
std::vector<Key> split(Key key, int num = 2);
// jax.random.bits / _random_bits(key, 32, (n,)).
std::vector<uint32_t> random_bits(Key key, size_t n);
// jax.random.uniform's float in [0, 1) from one random word: the top 23 bits as the mantissa of a
// float in [1, 2), minus 1.
float uniform_from_bits(uint32_t bits);
// jax.random.permutation(key, n).
std::vector<uint32_t> permutation(Key key, uint32_t n);
// jax.random.randint(key, (n,), 0, span) for 0 < span <= 2^16.
std::vector<uint32_t> randint(Key key, size_t n, uint32_t span);

// The notebook's per-epoch keys: starting from `start`, every epoch does (key, sub) = split(key)
// and uses sub. sub(e) is epoch e's key; asking for epochs in order costs one split each.
class EpochKeys {
 public:
  explicit EpochKeys(Key start) : start_(start), key_(start) {}
  Key sub(uint64_t epoch);

 private:
  Key start_, key_;
  uint64_t next_epoch_ = 0;
  Key last_{};
};

}  // namespace dlca::jax
