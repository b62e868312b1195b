// Tests of the op table, model layout and initialisation, coefficients, hard ops and the
// bit-sliced hard rollout against the reference's soft formulas with one-hot weights.
#include <doctest/doctest.h>

#include <cmath>

#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/cell_program.hpp"
#include "reference/reference_model.hpp"
#include "test_helpers.hpp"

using namespace dlca;

TEST_CASE("op coefficients equal the notebook's relaxations and the truth tables") {
  for (int op = 0; op < kNumOps; ++op) {
    const auto& c = kOpCoefficients[op];
    for (double a : {0.0, 0.3, 1.0})
      for (double b : {0.0, 0.71, 1.0})
        CHECK(c[0] + c[1] * a + c[2] * b + c[3] * a * b ==
              doctest::Approx(reference::op_value(op, a, b)));
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) {
        const bool expected = reference::op_value(op, a, b) > 0.5;
        CHECK(hard_op_bit(op, a, b) == expected);
        const uint64_t word = hard_op_word(op, a ? ~0ull : 0ull, b ? ~0ull : 0ull);
        CHECK(word == (expected ? ~0ull : 0ull));
      }
  }
  CHECK(op_name(6) == "XOR");
  CHECK(op_name(3) == "A");
}

TEST_CASE("reference op derivatives match finite differences") {
  for (int op = 0; op < kNumOps; ++op)
    for (double a : {0.1, 0.5, 0.9})
      for (double b : {0.2, 0.6}) {
        const double h = 1e-6;
        const double fa =
            (reference::op_value(op, a + h, b) - reference::op_value(op, a - h, b)) / (2 * h);
        const double fb =
            (reference::op_value(op, a, b + h) - reference::op_value(op, a, b - h)) / (2 * h);
        CHECK(reference::op_da(op, a, b) == doctest::Approx(fa).epsilon(1e-8));
        CHECK(reference::op_db(op, a, b) == doctest::Approx(fb).epsilon(1e-8));
      }
}

TEST_CASE("checkerboard model layout and pass-through initialisation") {
  const Model m = make_model(checkerboard_sync_config());
  CHECK(m.num_gates() == 3040);
  CHECK(m.num_perception_gates() == 224);
  CHECK(m.config.update_layers[0] == 264);
  CHECK(m.logits.size() == 3040u * 16);
  CHECK(active_gate_count(m.logits) == 0);
  const auto coeffs = soft_coefficients(m.logits);
  // docs/MODEL.md §3.3: p_A = e^10 / (e^10 + 15); the soft gate is ~0.000363 + 0.999274 a.
  CHECK(coeffs[0] == doctest::Approx(0.000363).epsilon(0.01));
  CHECK(coeffs[1] == doctest::Approx(0.999274).epsilon(1e-5));
  CHECK(std::abs(coeffs[3]) < 1e-6);
  const auto ops = hard_ops(m.logits);
  for (uint8_t op : ops) CHECK(op == kOpPassA);
  // The cell program: one op per gate evaluation (perception once per channel).
  const CellProgram prog = build_cell_program(m);
  CHECK(prog.ops.size() == 224u * 8 + 2816);
  CHECK(prog.output_rows.size() == 8u);
}

TEST_CASE("hard ops take the first maximum and active gates skip A and B") {
  std::vector<float> logits(4 * 16, 0.0f);
  logits[0 * 16 + 3] = 1;  // A
  logits[1 * 16 + 5] = 1;  // B
  logits[2 * 16 + 6] = 1;  // XOR
  logits[2 * 16 + 9] = 1;  // tie: first maximum wins
  // gate 3: all zeros, first maximum is FALSE
  const auto ops = hard_ops(logits);
  CHECK(ops == std::vector<uint8_t>{3, 5, 6, 0});
  CHECK(active_gate_count(logits) == 2);
}

TEST_CASE(
    "bit-sliced hard rollout equals the soft formulas with one-hot weights on binary inputs") {
  for (bool periodic : {false, true})
    for (bool async : {false, true}) {
      CAPTURE(periodic);
      CAPTURE(async);
      const ExperimentConfig cfg = testing::small_config(3, 2, 2, 5, 7, 4, 3, periodic, async);
      Model m = make_model(cfg);
      testing::randomize_logits(m, 11, 4.0f);
      const auto init = testing::random_states(cfg, 5, true);
      const Target target = checkerboard_target(cfg.channels, cfg.height, cfg.width);
      const auto masks = testing::masks_for(cfg, 99);
      const auto ref = reference::run(m, testing::to_double(m.logits), target, init, cfg.batch,
                                      masks, true, false);
      const GridGeometry geo =
          make_grid_geometry(cfg.batch, cfg.height, cfg.width, cfg.channels, periodic);
      const HardRollout hard =
          hard_rollout(build_cell_program(m), hard_ops(m.logits), geo, init.data(), cfg.steps,
                       masks.empty() ? nullptr : masks.data(), target, cfg.loss_channels);
      REQUIRE(hard.final_state.size() == ref.final_state.size());
      int mismatches = 0, ones = 0;
      for (size_t i = 0; i < ref.final_state.size(); ++i) {
        mismatches += double(hard.final_state[i]) != ref.final_state[i];
        ones += hard.final_state[i];
      }
      CHECK(mismatches == 0);
      CHECK(ones > 0);  // a non-trivial state, so the comparison means something
      CHECK(hard.loss == ref.loss);
    }
}
