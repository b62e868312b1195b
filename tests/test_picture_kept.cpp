// Whether a grown picture stays (picture_kept): the wrong bits from the trained step T to 2T are
// the hard loss of rollouts of those lengths, from the task's own start; known answers from
// circuits with constant outputs; and which models have no picture to keep.
#include <doctest/doctest.h>

#include <numeric>

#include <fmt/format.h>

#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/cell_program.hpp"
#include "dlca/train/image_task.hpp"
#include "dlca/train/picture_kept.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

// A 6x5 picture model of two channels, the target on channel 0, grown from a seed cell.
Model picture_model(int steps, int loss_steps) {
  ExperimentConfig c = testing::small_config(2, 2, 2, 6, 5, steps, 1, false, false);
  c.loss_channels = {0};
  c.loss_steps = loss_steps;
  Model m = make_model(c);
  m.task = TrainedTask(TaskKind::kImage);
  m.task.seed_cell = true;
  m.task.planes = 1;
  m.task.height = 6;
  m.task.width = 5;
  m.task.target = testing::random_bits(30, 11);
  return m;
}

}  // namespace

TEST_CASE("picture_kept: the wrong bits at each step are the hard loss of a rollout that long") {
  for (const auto& [steps, loss_steps] : {std::pair{3, 1}, std::pair{4, 2}}) {
    Model m = picture_model(steps, loss_steps);
    testing::randomize_logits(m, 5, 4.0f);
    const auto kept = picture_kept(m);
    REQUIRE(kept);
    CHECK(kept->first_step == 3);  // the first state the loss compares
    CHECK(kept->last_step == 6);
    REQUIRE(kept->wrong_bits.size() == 4u);
    const ImageTask task(m.config, m.task.target, 1, true, "");
    TaskBatch batch;
    task.make_batch(0, batch);
    const CellProgram program = build_cell_program(m);
    const GridGeometry geometry = make_grid_geometry(1, 6, 5, 2, false);
    for (int k = 0; k < 4; ++k)
      CHECK(kept->wrong_bits[size_t(k)] == hard_rollout(program, hard_ops(m), geometry,
                                                        batch.initial_states.data(), 3 + k, nullptr,
                                                        batch.target, m.config.loss_channels)
                                               .loss);
  }
}

TEST_CASE("picture_kept: known answers from constant circuits, and how they are told") {
  Model m = picture_model(3, 1);
  const double ones = std::accumulate(m.task.target.begin(), m.task.target.end(), 0.0);
  REQUIRE(ones > 0);
  REQUIRE(ones < 30);
  testing::set_every_gate(m, 0);  // FALSE: every cell 0 after each step, so each target 1 is wrong
  auto kept = picture_kept(m);
  REQUIRE(kept);
  CHECK(kept->wrong_bits == std::vector<double>(4, ones));
  CHECK_FALSE(kept->exact());
  CHECK(kept->describe() ==
        fmt::format("the hard circuit's picture from step 3 to 6: {:g} wrong bits at every step",
                    ones));
  testing::set_every_gate(m, 15);  // TRUE: each target 0 wrong
  CHECK(picture_kept(m)->wrong_bits == std::vector<double>(4, 30 - ones));
  m.task.target.assign(30, 0);  // an empty picture, kept by FALSE
  testing::set_every_gate(m, 0);
  kept = picture_kept(m);
  CHECK(kept->exact());
  CHECK(kept->describe() == "the grown picture stays exact at every step from 3 to 6");
  CHECK(kept->to_json() ==
        nlohmann::json{{"from", 3}, {"to", 6}, {"wrong_bits", {0, 0, 0, 0}}, {"exact", true}});
  const PictureKept fades{19, 38, {0, 0, 4, 2}};
  CHECK(fades.most_wrong() == 4);
  CHECK(fades.describe() ==
        "the grown picture does not stay: exact at step 19, first wrong at step 21, up to 4 "
        "wrong bits by step 38");
  CHECK(PictureKept{3, 6, {5, 1, 2, 7}}.describe() ==
        "the hard circuit's picture from step 3 to 6: 1 to 7 wrong bits");
}

TEST_CASE("picture_kept: none for tasks without a picture and for asynchronous models") {
  Model m = picture_model(3, 1);
  m.config.async = true;
  CHECK_FALSE(picture_kept(m));
  Model board = make_model(testing::small_checkerboard());
  board.task = TrainedTask(TaskKind::kCheckerboard);
  CHECK_FALSE(picture_kept(board));
}
