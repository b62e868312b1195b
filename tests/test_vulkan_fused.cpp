// The Vulkan backend's fused step kernels against its level-by-level path and the reference, on
// lavapipe (or any device) under the validation layer: random configurations (both boundaries,
// async, odd sizes, several batches), tiles of one cell, a workgroup looping over many tiles,
// several chunks, and a program whose tile does not fit the shared memory (the fallback).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "backend_checks.hpp"
#include "dlca/vulkan/vulkan_backend.hpp"
#include "optional_parts.hpp"
#include "vulkan/fused_tables.hpp"
#include "vulkan/program_tables.hpp"
#include "vulkan_driver.hpp"

using namespace dlca;

namespace {

VulkanBackendOptions variant(bool fused, uint64_t max_shared_bytes = 0, uint32_t max_workgroups = 0,
                             uint64_t max_binding_bytes = 0) {
  VulkanBackendOptions o;
  o.validation = true;
  o.fused = fused;
  o.max_shared_bytes = max_shared_bytes;
  o.max_workgroups = max_workgroups;
  o.max_binding_bytes = max_binding_bytes;
  return o;
}

// Shared bytes per cell the program's fused kernels need (the larger of forward and backward).
uint64_t bytes_per_cell(const ExperimentConfig& c) {
  const Model m = make_model(c);
  const CellProgram prog = build_cell_program(m);
  const auto f =
      vulkan_layout::make_fused_tables(prog, vulkan_layout::make_program_tables(prog, m));
  return 4 * uint64_t(std::max(f.forward_slots, f.backward_slots));
}

std::vector<testing::BackendCase> random_cases(int count, uint32_t seed) {
  std::mt19937 random(seed);
  const auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(random);
  };
  std::vector<testing::BackendCase> cases;
  for (int i = 0; i < count; ++i) {
    const int C = pick(1, 3), K = pick(2, 3), H = pick(3, 11), W = pick(3, 11);
    const int S = C == 1 ? 2 : pick(1, 2);  // at least 4 update inputs for 'unique' wiring
    const int steps = pick(1, 4), batch = pick(1, 3);
    const bool periodic = pick(0, 1) == 1, async = pick(0, 1) == 1;
    cases.push_back({"random", testing::small_config(C, K, S, H, W, steps, batch, periodic, async),
                     pick(0, 1) == 1});
  }
  return cases;
}

}  // namespace

TEST_CASE("Vulkan fused kernels and the level-by-level path agree with the reference") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  auto cases = testing::backend_cases();
  for (const auto& c : testing::input_wise_backend_cases()) cases.push_back(c);
  for (const auto& c : random_cases(6, 11)) cases.push_back(c);
  for (const auto& c : cases) {
    CAPTURE(c.config.channels);
    CAPTURE(c.config.height);
    CAPTURE(c.config.width);
    CAPTURE(c.config.async);
    CAPTURE(c.config.periodic);
    const uint64_t per_cell = bytes_per_cell(c.config);
    VulkanBackend fused(variant(true)), levels(variant(false));
    VulkanBackend one_cell_tiles(variant(true, per_cell));    // a tile of exactly one cell
    VulkanBackend few_groups(variant(true, 0, 2, 64 << 10));  // workgroups loop over tiles
    VulkanBackend too_small(variant(true, per_cell - 4));     // no tile fits: the fallback
    for (VulkanBackend* b : {&fused, &levels, &one_cell_tiles, &few_groups, &too_small})
      testing::compare_with_reference(c, *b, 2e-5);
    CHECK(fused.profile().fused);
    CHECK(one_cell_tiles.profile().fused);
    CHECK(one_cell_tiles.profile().tile_cells == 1);
    CHECK(few_groups.profile().fused);
    CHECK_FALSE(levels.profile().fused);
    CHECK_FALSE(too_small.profile().fused);
    CHECK(fused.profile().dispatches < levels.profile().dispatches);
    for (VulkanBackend* b : {&fused, &levels, &one_cell_tiles, &few_groups, &too_small})
      CHECK(b->validation_errors() == 0);
  }
}

TEST_CASE("Vulkan fused kernels compute each cell's step as the level path does") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  // The same arithmetic per cell and the same loss reduction: identical states and losses; the
  // gradients differ only in the order their sums are added.
  for (const auto& c : random_cases(4, 29)) {
    const testing::RolloutInputs in(c, 5, 6, 7);
    const Model& m = in.model;
    const Target& target = in.target;
    const RolloutBatch batch = in.batch();
    RolloutRequest request;
    request.final_state = true;
    VulkanBackend fused(variant(true)), levels(variant(false));
    const RolloutResult a = fused.rollout(m, target, batch, request);
    const RolloutResult b = levels.rollout(m, target, batch, request);
    CHECK(a.soft_loss == b.soft_loss);
    CHECK(a.hard_loss == b.hard_loss);
    CHECK(a.final_state == b.final_state);
    double error = 0;
    for (size_t i = 0; i < a.grad.size(); ++i)
      error = std::max(error, double(std::abs(a.grad[i] - b.grad[i])));
    CHECK(error < 1e-5 * std::max(1.0, testing::max_abs(testing::to_double(b.grad))));
  }
}
