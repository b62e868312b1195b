// Evaluation protocols: damage geometry (docs/MODEL.md §10.1: the 20x20 block is rows and
// columns 22..41 on 64x64; random squares clip at the edge) and known answers from a circuit with
// constant outputs.
#include <doctest/doctest.h>

#include <numeric>

#include "dlca/circuits/circuit_kernel.hpp"
#include "dlca/circuits/simulation_grid.hpp"
#include "dlca/train/evaluation.hpp"
#include "fire_rule_checks.hpp"
#include "test_helpers.hpp"

using namespace dlca;

TEST_CASE("the centre block and clipped squares") {
  CHECK(centre_block_start(64, 20) == 22);
  const Circuit circuit = testing::not_circuit();  // one channel
  const auto grid = make_cpu_grid(circuit, interpreted_kernel(circuit), 64, 64, true);
  grid->set_planes(std::vector<uint8_t>(64 * 64, 1));
  grid->zero_rectangle(22, 22, 20, 20);
  const std::vector<uint8_t> state = grid->planes();
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x)
      CHECK(state[size_t(y) * 64 + x] == !(y >= 22 && y <= 41 && x >= 22 && x <= 41));
  grid->set_planes(std::vector<uint8_t>(64 * 64, 1));
  grid->zero_rectangle(60, 58, 10, 10);  // clipped at the edge: 4 x 6 cells
  CHECK(grid->count(0) == 64 * 64 - 4 * 6);
}

TEST_CASE("a constant-FALSE circuit's error is the target's count of ones, damage or not") {
  ExperimentConfig c = testing::small_config(2, 2, 2, 8, 8, 3, 1, false, false);
  c.name = "small";  // the stored task decides, not the name
  Model m = make_model(c);
  m.task = TrainedTask(TaskKind::kCheckerboard);
  const GateLayer& last = m.update_layers.back();
  for (int j = 0; j < last.width; ++j) {
    float* z = &m.logits[size_t(last.gate(0, j)) * kNumOps];
    z[0] = 20.0f;  // FALSE beats the pass-through logit of 10
  }
  EvaluationSettings s;
  s.size = 12;
  s.steps = 5;
  for (int variant = 0; variant < 3; ++variant) {
    s.async = variant == 1;
    s.fire_rate = 1.0f;  // every cell fires: an exact answer through the async path
    s.block = variant == 2 ? 4 : 0;
    s.random_square = variant == 2 ? 3 : 0;
    const auto errors = evaluate(m, s);
    REQUIRE(errors.size() == 5u);
    for (int64_t e : errors) CHECK(e == 12 * 12 / 2);
  }
  m.config.name = "checkerboard_named";  // a name is not a task
  m.task = TrainedTask(TaskKind::kImage);
  CHECK_THROWS_WITH_AS(evaluate(m, s), doctest::Contains("the model's task is image"),
                       std::invalid_argument);
  m.task = TrainedTask(TaskKind::kGameOfLife);
  CHECK_THROWS_AS(evaluate(m, s), std::invalid_argument);
}
