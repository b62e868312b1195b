// Game of Life data, exact stepper and evaluations (see game_of_life.hpp).
#include "dlca/train/game_of_life.hpp"

#include <fmt/format.h>

#include "dlca/circuits/bit_grid.hpp"
#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/cell_program.hpp"
#include "dlca/core/random.hpp"

namespace dlca {

ExperimentConfig game_of_life_config() {
  return paper_config("game_of_life", 1, 16, {9, 8, 4, 2, 1},
                      layers(17, 17, 128, {64, 32, 16, 8, 4, 2, 1}), 3, 1, 20, 3000, 0.05f, true);
}

std::vector<uint8_t> life_step(const std::vector<uint8_t>& grid, int h, int w) {
  std::vector<uint8_t> next(grid.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int alive = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (dy || dx) alive += grid[size_t((y + dy + h) % h) * w + (x + dx + w) % w];
      const bool self = grid[size_t(y) * w + x];
      next[size_t(y) * w + x] = alive == 3 || (self && alive == 2);
    }
  return next;
}

std::vector<uint8_t> life_board(int n) {
  std::vector<uint8_t> board(9);
  for (int i = 0; i < 9; ++i) board[i] = (n >> (8 - i)) & 1;
  return board;
}

GameOfLifeTask::GameOfLifeTask(const ExperimentConfig& config)
    : config_(config),
      data_key_(SeedKeys(config.seed).data),
      jax_keys_(jax::split(jax::prng_key(uint32_t(config.seed)))[0]) {
  // (jax_keys_: the notebook splits the key once first.) The target is one step of the rule; more
  // steps would train a circuit that takes that long.
  if (config.steps != 1)
    throw ConfigError(
        fmt::format("steps: game_of_life learns one step of the rule, got {}", config.steps));
}

std::vector<uint32_t> GameOfLifeTask::boards(uint64_t epoch) const {
  const size_t batch = size_t(config_.batch);
  if (config_.random_streams == RandomStreams::kDlca) {
    Rng rng(derive_key(data_key_, epoch));
    std::vector<uint32_t> out(batch);
    for (auto& b : out) b = uint32_t(rng.below(512));
    return out;
  }
  // Every epoch: (key, sample_key) = split(key); randint(sample_key, (batch,), 0, 512).
  const jax::Key sample = jax_keys_.sub(epoch);
  return jax::randint(sample, batch, 512);
}

void GameOfLifeTask::make_batch(uint64_t epoch, TaskBatch& out) const {
  const auto chosen = boards(epoch);
  out.initial_states.assign(chosen.size() * 9, 0.0f);
  out.target = Target{int(chosen.size()), 1, 3, 3, std::vector<float>(chosen.size() * 9)};
  for (size_t b = 0; b < chosen.size(); ++b) {
    const auto board = life_board(int(chosen[b]));
    const auto next = life_step(board, 3, 3);
    for (int i = 0; i < 9; ++i) {
      out.initial_states[b * 9 + i] = board[i];
      out.target.values[b * 9 + i] = next[i];
    }
  }
}

bool GameOfLifeTask::solved_by(const Model& model) const {
  return life_neighbourhoods_correct(model) == 512;
}

int life_neighbourhoods_correct(const Model& model) {
  return life_neighbourhoods_correct(build_cell_program(model), hard_ops(model));
}

int life_neighbourhoods_correct(const CellProgram& prog, const std::vector<uint8_t>& ops) {
  // Board n's centre cell sees exactly the neighbourhood n.
  const GridGeometry geo = make_grid_geometry(512, 3, 3, 1, true);
  BitGrid sim(prog, ops, geo);
  std::vector<uint8_t> boards(512 * 9);
  for (int n = 0; n < 512; ++n) {
    const auto board = life_board(n);
    std::copy(board.begin(), board.end(), boards.begin() + n * 9);
  }
  sim.set_state(boards.data());
  sim.step();
  const auto out = sim.state();
  int correct = 0;
  for (int n = 0; n < 512; ++n)
    correct += out[size_t(n) * 9 + 4] == life_step(life_board(n), 3, 3)[4];
  return correct;
}

int64_t life_wrong_cells(const Model& model, int size, int steps, uint64_t seed) {
  return life_wrong_cells(build_cell_program(model), hard_ops(model), size, steps, seed);
}

int64_t life_wrong_cells(const CellProgram& prog, const std::vector<uint8_t>& ops, int size,
                         int steps, uint64_t seed) {
  const GridGeometry geo = make_grid_geometry(1, size, size, 1, true);
  BitGrid sim(prog, ops, geo);
  std::vector<uint8_t> exact(size_t(size) * size);
  for (size_t i = 0; i < exact.size(); ++i)
    exact[i] = uniform01(derive_key(seed, 0x11fe), i) < 0.5f;
  sim.set_state(exact.data());
  int64_t wrong = 0;
  for (int s = 0; s < steps; ++s) {
    sim.step();
    exact = life_step(exact, size, size);
    const auto got = sim.state();
    for (size_t i = 0; i < exact.size(); ++i) wrong += got[i] != exact[i];
  }
  return wrong;
}

}  // namespace dlca
