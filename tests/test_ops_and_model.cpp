// Tests of the op table, model layout and initialisation, coefficients, hard ops and the
// bit-sliced hard rollout against the reference's soft formulas with one-hot weights.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <numbers>

#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/cell_program.hpp"
#include "dlca/core/input_wise_gates.hpp"
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

TEST_CASE("an op reads an input exactly when its truth table depends on it") {
  for (int op = 0; op < kNumOps; ++op) {
    CAPTURE(op);
    bool depends_a = false, depends_b = false;
    for (int x = 0; x < 2; ++x) {
      depends_a |= hard_op_bit(op, false, x) != hard_op_bit(op, true, x);
      depends_b |= hard_op_bit(op, x, false) != hard_op_bit(op, x, true);
    }
    CHECK(op_reads_a(op) == depends_a);
    CHECK(op_reads_b(op) == depends_b);
  }
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
  CHECK(active_gate_count(m) == 0);
  const auto coeffs = soft_coefficients(GateKind::kSoftmax, m.logits);
  // docs/MODEL.md §3.3: p_A = e^10 / (e^10 + 15); the soft gate is ~0.000363 + 0.999274 a.
  CHECK(coeffs[0] == doctest::Approx(0.000363).epsilon(0.01));
  CHECK(coeffs[1] == doctest::Approx(0.999274).epsilon(1e-5));
  CHECK(std::abs(coeffs[3]) < 1e-6);
  const auto ops = hard_ops(m);
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
  const auto ops = hard_ops(GateKind::kSoftmax, logits);
  CHECK(ops == std::vector<uint8_t>{3, 5, 6, 0});
  CHECK(active_gate_count(GateKind::kSoftmax, logits) == 2);
}

TEST_CASE("input-wise gates: pass-through start, every op reachable, probabilities, gradient") {
  ExperimentConfig cfg = checkerboard_sync_config();
  cfg.gates = GateKind::kInputWise;
  const Model m = make_model(cfg);
  CHECK(m.num_gates() == 3040);
  CHECK(m.logits.size() == 3040u * 4);
  CHECK(active_gate_count(m) == 0);
  for (uint8_t op : hard_ops(m)) CHECK(op == kOpPassA);
  // Near the pass-through a (coefficients ~(0, 1, 0, 0)) with a gradient that has not vanished.
  const auto coeffs = soft_coefficients(GateKind::kInputWise, m.logits);
  for (size_t g = 0; g < 3040; ++g) {
    CHECK(coeffs[g * 4] < 0.0025);
    CHECK(coeffs[g * 4 + 1] > 0.995);
    for (int p = 0; p < 4; ++p) CHECK(std::abs(std::cos(m.logits[g * 4 + p])) >= 0.0499);
  }
  CHECK(m.logits != make_model(checkerboard_sync_config()).logits);  // not all the same start
  // Every op: set it, read it back, and at w = +-pi/2 the fold is the op's own coefficients and
  // its probability is 1.
  for (int op = 0; op < kNumOps; ++op) {
    CAPTURE(op);
    float w[4] = {0.3f, -2.0f, 3.0f, -0.1f};
    input_wise_set_op(w, op);
    CHECK(input_wise_op(w) == op);
    for (float& v : w) v = v < 0 ? -std::numbers::pi_v<float> / 2 : std::numbers::pi_v<float> / 2;
    double c[4];
    input_wise_coefficients(w, c);
    for (int q = 0; q < 4; ++q) CHECK(c[q] == doctest::Approx(kOpCoefficients[op][q]));
    float probabilities[16];
    input_wise_op_probabilities(w, probabilities);
    CHECK(probabilities[op] == doctest::Approx(1.0));
  }
  // Probabilities of any angles sum to 1, and the gradient is the fold's transpose times cos / 2:
  // central differences of sum_q G_q c_q(w).
  const float w[4] = {0.4f, -1.1f, 2.5f, 0.05f};
  float probabilities[16];
  input_wise_op_probabilities(w, probabilities);
  double total = 0;
  for (float p : probabilities) total += p;
  CHECK(total == doctest::Approx(1.0));
  const double sums[4] = {0.7, -1.3, 0.4, 2.1};
  float grad[4];
  input_wise_gradient(w, sums, grad);
  for (int p = 0; p < 4; ++p) {
    const auto objective = [&](float delta) {
      float moved[4] = {w[0], w[1], w[2], w[3]};
      moved[p] += delta;
      double c[4];
      input_wise_coefficients(moved, c);
      return sums[0] * c[0] + sums[1] * c[1] + sums[2] * c[2] + sums[3] * c[3];
    };
    CHECK(grad[p] == doctest::Approx((objective(1e-3f) - objective(-1e-3f)) / 2e-3).epsilon(1e-3));
  }
}

TEST_CASE("forward-only sharpening of input-wise gates divides the log-odds of s") {
  // s_T = (1 + sin w)^(1/T) / ((1 + sin w)^(1/T) + (1 - sin w)^(1/T)): the odds s / (1 - s) to
  // the power 1/T. T = 1 is the plain fold bit for bit; a low T tends to the hard op's
  // coefficients; the order of s and 1 - s is kept.
  const float w[4] = {0.4f, -1.1f, 2.5f, 0.05f};
  double plain[4], at_one[4];
  input_wise_coefficients(w, plain);
  input_wise_coefficients(w, at_one, 1.0);
  for (int q = 0; q < 4; ++q) CHECK(at_one[q] == plain[q]);
  const auto pattern_outputs = [](const double c[4]) {  // s00, s01, s10, s11 from the fold
    return std::array<double, 4>{c[0], c[0] + c[2], c[0] + c[1], c[0] + c[1] + c[2] + c[3]};
  };
  double half[4], cold[4];
  input_wise_coefficients(w, half, 0.5);
  input_wise_coefficients(w, cold, 0.01);
  const auto s = pattern_outputs(plain), s_half = pattern_outputs(half);
  const uint8_t op = input_wise_op(w);
  for (int p = 0; p < 4; ++p) {
    CAPTURE(p);
    const double odds = s[p] / (1 - s[p]);
    CHECK(s_half[p] / (1 - s_half[p]) == doctest::Approx(odds * odds).epsilon(1e-9));
    CHECK((s_half[p] >= 0.5) == (s[p] >= 0.5));
    CHECK(std::abs(s_half[p] - 0.5) >= std::abs(s[p] - 0.5));
  }
  for (int q = 0; q < 4; ++q)
    CHECK(cold[q] == doctest::Approx(kOpCoefficients[op][q]).epsilon(1e-3));
  // Any temperature of the range stays finite, also at sin w = +-1.
  const float edge[4] = {std::numbers::pi_v<float> / 2, -std::numbers::pi_v<float> / 2, 0.4f,
                         -0.3f};
  double frozen[4];
  input_wise_coefficients(edge, frozen, 1e-7);
  for (int q = 0; q < 4; ++q) CHECK(frozen[q] == kOpCoefficients[input_wise_op(edge)][q]);
  // The model's fold of every gate takes the temperature too.
  std::vector<float> angles(3 * kInputPatterns);
  for (size_t i = 0; i < angles.size(); ++i) angles[i] = w[i % 4];
  const auto folded = soft_coefficients(GateKind::kInputWise, angles, 0.5);
  for (size_t i = 0; i < folded.size(); ++i) CHECK(folded[i] == float(half[i % 4]));
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
          hard_rollout(build_cell_program(m), hard_ops(m), geo, init.data(), cfg.steps,
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
