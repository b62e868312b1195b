// Gate wiring generators of docs/MODEL.md §4, each ending with the gate permutation drawn from the
// layer key.
#include "dlca/core/wiring.hpp"

#include <fmt/format.h>

#include "dlca/core/random.hpp"

namespace dlca {

namespace {

// Gate g takes the perm[g]-th pair.
LayerWiring permute_pairs(const std::vector<std::pair<uint32_t, uint32_t>>& pairs,
                          const std::vector<uint32_t>& perm) {
  LayerWiring w;
  w.a.resize(pairs.size());
  w.b.resize(pairs.size());
  for (size_t g = 0; g < pairs.size(); ++g) {
    w.a[g] = pairs[perm[g]].first;
    w.b[g] = pairs[perm[g]].second;
  }
  return w;
}

std::vector<std::pair<uint32_t, uint32_t>> first_kernel_pairs() {
  static constexpr uint32_t kNeighbours[8] = {0, 1, 2, 3, 5, 6, 7, 8};
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (uint32_t p : kNeighbours) pairs.emplace_back(p, 4u);
  return pairs;
}

// 'random' (docs/MODEL.md §4.4): slots is a permutation of 2m, relabel one of n.
LayerWiring random_from_permutations(int n, int m, const std::vector<uint32_t>& slots,
                                     const std::vector<uint32_t>& relabel) {
  LayerWiring w;
  for (int g = 0; g < m; ++g) {
    w.a.push_back(relabel[slots[g] % n]);
    w.b.push_back(relabel[slots[m + g] % n]);
  }
  return w;
}

void check_random_sizes(int n, int m) {
  if (n <= 0 || m <= 0)
    throw ConfigError(fmt::format("random wiring: sizes must be positive ({} -> {})", n, m));
}

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> unique_pairs(int n, int m) {
  if (n <= 0 || m <= 0)
    throw ConfigError(fmt::format("unique wiring: sizes must be positive ({} -> {})", n, m));
  if (2LL * m < n)
    throw ConfigError(
        fmt::format("unique wiring: number of gates must not be smaller than half of the inputs "
                    "({} -> {})",
                    n, m));
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  const auto enough = [&] { return pairs.size() >= size_t(m); };
  for (int j = 0; j < n / 2; ++j) pairs.emplace_back(2 * j, 2 * j + 1);
  if (!enough())
    for (int j = 0; j < (n - 1) / 2; ++j) pairs.emplace_back(2 * j + 1, 2 * j + 2);
  for (int d = 2; !enough() && d < n; ++d)
    for (int i = 0; i + d < n; ++i) pairs.emplace_back(i, i + d);
  if (!enough())
    throw ConfigError(fmt::format(
        "unique wiring: could not generate {} unique connections from {} inputs", m, n));
  pairs.resize(m);
  return pairs;
}

LayerWiring unique_wiring(int n, int m, uint64_t key) {
  return permute_pairs(unique_pairs(n, m), random_permutation(key, uint32_t(m)));
}

LayerWiring random_wiring(int n, int m, uint64_t key) {
  check_random_sizes(n, m);
  return random_from_permutations(n, m, random_permutation(derive_key(key, 2), uint32_t(2 * m)),
                                  random_permutation(derive_key(key, 1), uint32_t(n)));
}

LayerWiring first_kernel_wiring(uint64_t key) {
  return permute_pairs(first_kernel_pairs(), random_permutation(key, 8));
}

LayerWiring make_wiring(Connection kind, int n, int m, uint64_t key) {
  switch (kind) {
    case Connection::kUnique:
      return unique_wiring(n, m, key);
    case Connection::kRandom:
      return random_wiring(n, m, key);
    case Connection::kFirstKernel:
      return first_kernel_wiring(key);
  }
  throw ConfigError("connection: unknown kind");
}

LayerWiring make_wiring(Connection kind, int n, int m, jax::Key key) {
  switch (kind) {
    case Connection::kUnique:
      return permute_pairs(unique_pairs(n, m), jax::permutation(key, uint32_t(m)));
    case Connection::kRandom: {
      check_random_sizes(n, m);
      const auto keys = jax::split(key);  // (k1, k2)
      return random_from_permutations(n, m, jax::permutation(keys[1], uint32_t(2 * m)),
                                      jax::permutation(keys[0], uint32_t(n)));
    }
    case Connection::kFirstKernel:
      return permute_pairs(first_kernel_pairs(), jax::permutation(key, 8));
  }
  throw ConfigError("connection: unknown kind");
}

}  // namespace dlca
