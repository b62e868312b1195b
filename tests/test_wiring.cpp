// Tests of the wiring generators against docs/MODEL.md §4.2's worked examples and properties.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "dlca/core/config.hpp"
#include "dlca/core/model.hpp"
#include "dlca/core/random.hpp"
#include "dlca/core/wiring.hpp"

using namespace dlca;
using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;

TEST_CASE("unique pairs: worked examples of docs/MODEL.md §4.2") {
  SUBCASE("17 -> 128") {
    const Pairs p = unique_pairs(17, 128);
    REQUIRE(p.size() == 128);
    for (int i = 0; i < 16; ++i) CHECK(p[i].second - p[i].first == 1);
    CHECK(p[0] == std::make_pair(0u, 1u));
    CHECK(p[8] == std::make_pair(1u, 2u));
    CHECK(p[126] == std::make_pair(0u, 13u));
    CHECK(p[127] == std::make_pair(1u, 14u));
    for (int d = 2; d <= 12; ++d)
      CHECK(std::count_if(p.begin(), p.end(),
                          [&](auto q) { return int(q.second - q.first) == d; }) == 17 - d);
  }
  SUBCASE("128 -> 128: even-odd, odd-even, then (0,2)") {
    const Pairs p = unique_pairs(128, 128);
    for (int j = 0; j < 64; ++j)
      CHECK(p[j] == std::make_pair(uint32_t(2 * j), uint32_t(2 * j + 1)));
    for (int j = 0; j < 63; ++j)
      CHECK(p[64 + j] == std::make_pair(uint32_t(2 * j + 1), uint32_t(2 * j + 2)));
    CHECK(p[127] == std::make_pair(0u, 2u));
  }
  SUBCASE("264 -> 256 and 640 -> 512") {
    const Pairs p = unique_pairs(264, 256);
    CHECK(p[131] == std::make_pair(262u, 263u));
    CHECK(p[132] == std::make_pair(1u, 2u));
    CHECK(p[255] == std::make_pair(247u, 248u));
    const Pairs q = unique_pairs(640, 512);
    CHECK(q[319] == std::make_pair(638u, 639u));
    CHECK(q[320 + 191] == std::make_pair(383u, 384u));
  }
  SUBCASE("8 -> 8 and the perception tree layers") {
    CHECK(unique_pairs(8, 8) ==
          Pairs{{0, 1}, {2, 3}, {4, 5}, {6, 7}, {1, 2}, {3, 4}, {5, 6}, {0, 2}});
    CHECK(unique_pairs(8, 4) == Pairs{{0, 1}, {2, 3}, {4, 5}, {6, 7}});
    CHECK(unique_pairs(4, 2) == Pairs{{0, 1}, {2, 3}});
    CHECK(unique_pairs(2, 1) == Pairs{{0, 1}});
  }
  SUBCASE("impossible layers are refused") {
    CHECK_THROWS_AS(unique_pairs(10, 4), ConfigError);  // 2m < n
    CHECK_THROWS_AS(unique_pairs(4, 7), ConfigError);   // more than n(n-1)/2 pairs
  }
}

TEST_CASE("unique wiring is a permutation of the pair list, every input used") {
  for (auto [n, m] : {std::pair{17, 128}, {128, 128}, {264, 256}, {256, 128}, {8, 8}, {640, 512}}) {
    CAPTURE(n);
    const LayerWiring w = unique_wiring(n, m, derive_key(5, n));
    const Pairs expected = unique_pairs(n, m);
    Pairs got;
    std::set<uint32_t> used;
    for (size_t g = 0; g < w.size(); ++g) {
      CHECK(w.a[g] < w.b[g]);
      got.emplace_back(w.a[g], w.b[g]);
      used.insert(w.a[g]);
      used.insert(w.b[g]);
    }
    CHECK(got != expected);  // the permutation step reordered the gates
    Pairs sorted_got = got, sorted_expected = expected;
    std::sort(sorted_got.begin(), sorted_got.end());
    std::sort(sorted_expected.begin(), sorted_expected.end());
    CHECK(sorted_got == sorted_expected);
    CHECK(used.size() == size_t(n));
  }
}

TEST_CASE("first_kernel wiring: neighbour on A, centre on B, permuted") {
  const LayerWiring w = first_kernel_wiring(3);
  REQUIRE(w.size() == 8);
  std::vector<uint32_t> a = w.a;
  for (uint32_t b : w.b) CHECK(b == 4);
  CHECK(a != std::vector<uint32_t>{0, 1, 2, 3, 5, 6, 7, 8});
  std::sort(a.begin(), a.end());
  CHECK(a == std::vector<uint32_t>{0, 1, 2, 3, 5, 6, 7, 8});
}

TEST_CASE("random wiring uses each input floor(2m/n) or ceil(2m/n) times") {
  const int n = 10, m = 13;
  const LayerWiring w = random_wiring(n, m, 77);
  std::vector<int> uses(n, 0);
  for (size_t g = 0; g < w.size(); ++g) {
    ++uses[w.a[g]];
    ++uses[w.b[g]];
  }
  for (int u : uses) CHECK((u == 2 || u == 3));
}

TEST_CASE("random_permutation is a permutation and depends on the key") {
  const auto p = random_permutation(1, 1000), q = random_permutation(2, 1000);
  CHECK(p != q);
  auto sorted = p;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < 1000; ++i) CHECK(sorted[i] == i);
  CHECK(random_permutation(1, 1000) == p);
}

TEST_CASE("every layer of the checkerboard model uses all its inputs") {
  const Model m = make_model(checkerboard_sync_config());
  for (size_t l = 0; l < m.update_wiring.size(); ++l) {
    std::set<uint32_t> used(m.update_wiring[l].a.begin(), m.update_wiring[l].a.end());
    used.insert(m.update_wiring[l].b.begin(), m.update_wiring[l].b.end());
    CHECK(used.size() == size_t(m.config.update_layers[l]));
  }
}
