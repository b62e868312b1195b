// Game of Life pieces: the exact stepper on known patterns, the board encoding, the training
// batches, and the neighbourhood evaluation against the reference implementation's hard circuit.
#include <doctest/doctest.h>

#include "dlca/train/game_of_life.hpp"
#include "reference/reference_model.hpp"
#include "test_helpers.hpp"

using namespace dlca;

TEST_CASE("exact Game of Life step: blinker, block, glider period on a torus") {
  std::vector<uint8_t> g(25, 0);
  g[2 * 5 + 1] = g[2 * 5 + 2] = g[2 * 5 + 3] = 1;  // horizontal blinker
  const auto v = life_step(g, 5, 5);
  std::vector<uint8_t> vertical(25, 0);
  vertical[1 * 5 + 2] = vertical[2 * 5 + 2] = vertical[3 * 5 + 2] = 1;
  CHECK(v == vertical);
  CHECK(life_step(v, 5, 5) == g);
  std::vector<uint8_t> block(16, 0);
  block[5] = block[6] = block[9] = block[10] = 1;
  CHECK(life_step(block, 4, 4) == block);
  std::vector<uint8_t> glider(64, 0);
  for (int i : {1, 10, 16, 17, 18}) glider[i] = 1;
  auto moved = glider;
  for (int s = 0; s < 4; ++s) moved = life_step(moved, 8, 8);
  std::vector<uint8_t> shifted(64, 0);  // one cell down and right after 4 steps
  for (int i = 0; i < 64; ++i)
    if (glider[i]) shifted[((i / 8 + 1) % 8) * 8 + (i % 8 + 1) % 8] = 1;
  CHECK(moved == shifted);
}

TEST_CASE("board n: the top-left cell is the most significant bit") {
  CHECK(life_board(256) == std::vector<uint8_t>{1, 0, 0, 0, 0, 0, 0, 0, 0});
  CHECK(life_board(1) == std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 0, 1});
  CHECK(life_board(16) == std::vector<uint8_t>{0, 0, 0, 0, 1, 0, 0, 0, 0});
}

TEST_CASE("training batches: 20 boards with replacement and their exact next states") {
  for (auto streams : {RandomStreams::kJax, RandomStreams::kDlca}) {
    ExperimentConfig c = game_of_life_config();
    c.random_streams = streams;
    GameOfLifeTask task(c);
    TaskBatch batch;
    task.make_batch(7, batch);
    REQUIRE(batch.initial_states.size() == 20u * 9);
    REQUIRE(batch.target.samples == 20);
    const auto boards = task.boards(7);
    for (int b = 0; b < 20; ++b) {
      CHECK(boards[b] < 512u);
      const auto next = life_step(life_board(int(boards[b])), 3, 3);
      for (int i = 0; i < 9; ++i) {
        CHECK(batch.initial_states[b * 9 + i] == float(life_board(int(boards[b]))[i]));
        CHECK(batch.target.values[b * 9 + i] == float(next[i]));
      }
    }
    CHECK(task.boards(7) == boards);  // asking again (or out of order) gives the same epoch
    CHECK(task.boards(8) != boards);
  }
}

TEST_CASE("neighbourhood evaluation agrees with the reference's hard circuit") {
  ExperimentConfig c = testing::small_config(1, 3, 1, 3, 3, 1, 512, true, false);
  Model m = make_model(c);
  testing::randomize_logits(m, 31, 4.0f);
  std::vector<float> boards(512 * 9);
  for (int n = 0; n < 512; ++n)
    for (int i = 0; i < 9; ++i) boards[n * 9 + i] = life_board(n)[i];
  const Target none{1, 1, 3, 3, std::vector<float>(9, 0.0f)};
  const auto ref =
      reference::run(m, testing::to_double(m.logits), none, boards, 512, {}, true, false);
  int expected = 0;
  for (int n = 0; n < 512; ++n)
    expected += ref.final_state[n * 9 + 4] == life_step(life_board(n), 3, 3)[4];
  CHECK(life_neighbourhoods_correct(m) == expected);
  CHECK(expected > 0);
  CHECK(expected < 512);
}
