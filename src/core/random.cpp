// Sequential generator helpers: unbiased bounded integers and permutations.
#include "dlca/core/random.hpp"

#include <numeric>
#include <utility>

namespace dlca {

uint64_t Rng::below(uint64_t bound) {
  // Lemire's nearly-divisionless method with rejection, on 64x64->128 products.
  unsigned __int128 product = (unsigned __int128)next() * bound;
  uint64_t low = uint64_t(product);
  if (low < bound) {
    const uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      product = (unsigned __int128)next() * bound;
      low = uint64_t(product);
    }
  }
  return uint64_t(product >> 64);
}

std::vector<uint32_t> random_permutation(uint64_t key, uint32_t n) {
  std::vector<uint32_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0u);
  Rng rng(key);
  for (uint32_t i = n; i > 1; --i) {
    const uint32_t j = uint32_t(rng.below(i));
    std::swap(perm[i - 1], perm[j]);
  }
  return perm;
}

}  // namespace dlca
