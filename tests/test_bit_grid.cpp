// dlca's bit-sliced simulator against the plain per-cell definition of a step: random circuits,
// batches of one or more grids, odd grid sizes (rows not a whole number of words), both
// boundaries, interpreted and compiled kernels, fire masks; its asynchronous step takes each
// cell's old or new state and does not depend on the thread count.
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

// One step by the plain definition: each cell's 9C inputs gathered through the geometry's
// neighbour table (0 outside a zero-padded grid), the circuit evaluated one cell at a time, and
// with a fire mask ([H*W], shared by the batch) the old state kept where it is 0.
std::vector<uint8_t> reference_step(const Circuit& circuit, const GridGeometry& geo,
                                    const std::vector<uint8_t>& state, const uint8_t* mask) {
  std::vector<uint8_t> next(state.size());
  const int C = geo.channels;
  for (int cell = 0; cell < geo.cells(); ++cell) {
    std::vector<uint8_t> inputs(size_t(9) * C);
    for (int c = 0; c < C; ++c)
      for (int p = 0; p < 9; ++p) {
        const int32_t nb = geo.neighbour[size_t(cell) * 9 + p];
        inputs[size_t(9) * c + p] = nb >= 0 && state[geo.state_base[nb] + size_t(c) * geo.plane()];
      }
    const std::vector<uint8_t> out = evaluate_cell(circuit, inputs);
    const bool fires = !mask || mask[cell % geo.plane()];
    for (int c = 0; c < C; ++c) {
      const size_t i = geo.state_base[cell] + size_t(c) * geo.plane();
      next[i] = fires ? out[size_t(c)] : state[i];
    }
  }
  return next;
}

// Four steps of BitGrid (a batch, the interpreted or the compiled kernel; and built from the
// circuit's program as training builds it) against the reference, synchronous and with masks.
void check_steps_like_reference(bool compiled) {
  for (int C : {1, 2}) {
    const Circuit circuit = random_circuit(C, 60 + C);
    const std::shared_ptr<const CircuitKernel> kernel =
        compiled ? compiled_kernel(circuit) : interpreted_kernel(circuit);
    const CircuitProgram program = to_program(circuit);
    for (auto [H, W] : {std::pair{5, 7}, std::pair{9, 64}, std::pair{3, 130}, std::pair{40, 65},
                        std::pair{1, 1}, std::pair{70, 9}, std::pair{520, 3}})
      for (int batch : {1, 3})
        for (bool periodic : {true, false})
          for (bool masked : {false, true}) {
            CAPTURE(C);
            CAPTURE(H);
            CAPTURE(W);
            CAPTURE(batch);
            CAPTURE(periodic);
            CAPTURE(masked);
            CAPTURE(kernel->name());
            const auto init = testing::random_bits(size_t(batch) * C * H * W, H * 1000 + W);
            const GridGeometry geo = make_grid_geometry(batch, H, W, C, periodic);
            BitGrid grid(circuit, kernel, H, W, periodic, batch);
            grid.set_state(init.data());
            BitGrid from_program(program.program, program.ops, geo);
            from_program.set_state(init.data());
            std::vector<uint8_t> expected = init;
            for (int s = 0; s < 4; ++s) {
              const auto mask = testing::random_bits(size_t(H) * W, 77 + uint64_t(s));
              if (masked) {
                grid.step_masked(mask.data());
                from_program.step_masked(mask.data());
              } else {
                grid.step();
                from_program.step();
              }
              expected = reference_step(circuit, geo, expected, masked ? mask.data() : nullptr);
              REQUIRE(grid.state() == expected);
              REQUIRE(from_program.state() == expected);
            }
          }
  }
}

}  // namespace

TEST_CASE("BitGrid steps like the per-cell reference: batches, odd sizes, both boundaries, masks") {
  check_steps_like_reference(false);
}

TEST_CASE("BitGrid with the compiled kernel steps like the per-cell reference") {
  DLCA_SKIP_IF(testing::c_compiler_missing());
  check_steps_like_reference(true);
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
