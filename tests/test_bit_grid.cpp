// The big-grid simulator against the bit-sliced HardSimulator: random circuits, odd grid sizes
// (rows not a whole number of words), both boundaries, interpreted and compiled kernels; its
// asynchronous step takes each cell's old or new state and does not depend on the thread count.
#include <doctest/doctest.h>

#include <tbb/global_control.h>

#include "dlca/circuits/bit_grid.hpp"
#include "dlca/circuits/circuit_kernel.hpp"
#include "dlca/circuits/hard_rollout.hpp"
#include "optional_parts.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

Circuit random_circuit(int C, uint64_t key) {
  Model m = make_model(testing::small_config(C, 4, 2, 6, 5, 2, 1, true, false));
  testing::randomize_logits(m, key, 3.0f);
  return prune(m);
}

void load(BitGrid& grid, const std::vector<uint8_t>& state) {  // [C][H][W]
  for (int c = 0; c < grid.channels(); ++c)
    for (int y = 0; y < grid.height(); ++y)
      for (int x = 0; x < grid.width(); ++x)
        grid.set(c, y, x, state[(size_t(c) * grid.height() + y) * grid.width() + x]);
}

std::vector<uint8_t> contents(const BitGrid& grid) {
  std::vector<uint8_t> out;
  for (int c = 0; c < grid.channels(); ++c)
    for (int y = 0; y < grid.height(); ++y)
      for (int x = 0; x < grid.width(); ++x) out.push_back(grid.get(c, y, x));
  return out;
}

}  // namespace

namespace {

// Four steps of BitGrid with the interpreted or the compiled kernel against the HardSimulator.
void check_steps_like_hard_simulator(bool compiled) {
  for (int C : {1, 2}) {
    const Circuit circuit = random_circuit(C, 60 + C);
    const std::shared_ptr<const CircuitKernel> kernel =
        compiled ? compiled_kernel(circuit) : interpreted_kernel(circuit);
    const CircuitProgram program = to_program(circuit);
    for (auto [H, W] : {std::pair{5, 7}, std::pair{9, 64}, std::pair{3, 130}, std::pair{40, 65}})
      for (bool periodic : {true, false}) {
        CAPTURE(C);
        CAPTURE(H);
        CAPTURE(W);
        CAPTURE(periodic);
        CAPTURE(kernel->name());
        const auto init = testing::random_bits(size_t(C) * H * W, H * 1000 + W);
        BitGrid grid(circuit, kernel, H, W, periodic);
        load(grid, init);
        const GridGeometry geo = make_grid_geometry(1, H, W, C, periodic);
        HardSimulator sim(program.program, program.ops, geo);
        sim.set_state(init);
        for (int s = 0; s < 4; ++s) {
          grid.step();
          sim.step();
          REQUIRE(contents(grid) == sim.state());
        }
      }
  }
}

}  // namespace

TEST_CASE("BitGrid steps like the HardSimulator on odd sizes and both boundaries") {
  check_steps_like_hard_simulator(false);
}

TEST_CASE("BitGrid with the compiled kernel steps like the HardSimulator") {
  DLCA_SKIP_IF(testing::c_compiler_missing());
  check_steps_like_hard_simulator(true);
}

TEST_CASE("BitGrid's asynchronous step: old or new per cell, independent of threads") {
  const Circuit circuit = random_circuit(2, 5);
  const std::shared_ptr<const CircuitKernel> kernel = interpreted_kernel(circuit);
  const int H = 33, W = 70;
  const auto init = testing::random_bits(size_t(2) * H * W, 3);
  std::vector<uint8_t> results[2];
  for (int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    BitGrid sync(circuit, kernel, H, W, true), async(circuit, kernel, H, W, true);
    load(sync, init);
    load(async, init);
    sync.step();
    async.step_async(0.6, 99);
    const auto a = contents(async), s = contents(sync);
    int fired = 0, changed_cells = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      REQUIRE((a[i] == init[i] || a[i] == s[i]));
      if (s[i] != init[i]) {
        ++changed_cells;
        fired += a[i] == s[i];
      }
    }
    CHECK(double(fired) / changed_cells == doctest::Approx(0.6).epsilon(0.1));
    results[threads - 1] = a;
  }
  CHECK(results[0] == results[1]);
}
