// Whether a grown picture stays (picture_kept.hpp): the hard circuit stepped on a BitGrid from the
// image task's own start, compared with its target after every step from T to 2T.
#include "dlca/train/picture_kept.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "dlca/circuits/bit_grid.hpp"
#include "dlca/core/cell_program.hpp"
#include "dlca/train/image_task.hpp"

namespace dlca {

double PictureKept::most_wrong() const {
  return wrong_bits.empty() ? 0 : *std::max_element(wrong_bits.begin(), wrong_bits.end());
}

double PictureKept::total_wrong() const {
  return std::accumulate(wrong_bits.begin(), wrong_bits.end(), 0.0);
}

nlohmann::json PictureKept::to_json() const {
  return {{"from", first_step}, {"to", last_step}, {"wrong_bits", wrong_bits}, {"exact", exact()}};
}

std::string PictureKept::describe() const {
  if (exact())
    return fmt::format("the grown picture stays exact at every step from {} to {}", first_step,
                       last_step);
  if (wrong_bits.front() == 0) {
    const auto first_wrong =
        std::find_if(wrong_bits.begin(), wrong_bits.end(), [](double w) { return w != 0; });
    return fmt::format(
        "the grown picture does not stay: exact at step {}, first wrong at step {}, up to {:g} "
        "wrong bits by step {}",
        first_step, first_step + (first_wrong - wrong_bits.begin()), most_wrong(), last_step);
  }
  const double least = *std::min_element(wrong_bits.begin(), wrong_bits.end());
  return least == most_wrong()
             ? fmt::format(
                   "the hard circuit's picture from step {} to {}: {:g} wrong bits at "
                   "every step",
                   first_step, last_step, least)
             : fmt::format("the hard circuit's picture from step {} to {}: {:g} to {:g} wrong bits",
                           first_step, last_step, least, most_wrong());
}

int kept_first_step(const ExperimentConfig& c) { return std::max(1, c.steps - c.loss_steps + 1); }

int kept_last_step(const ExperimentConfig& c) { return std::max(2 * kept_first_step(c), c.steps); }

std::optional<PictureKept> picture_kept(const Model& model) {
  const ExperimentConfig& c = model.config;
  const TrainedTask& t = model.task;
  if (t.kind != TaskKind::kImage || c.async) return std::nullopt;
  // The task as it trained: its start and target, for a batch of one.
  ExperimentConfig one = c;
  one.batch = 1;
  const ImageTask task(one, t.target, t.planes, t.seed_cell, t.source);
  TaskBatch batch;
  task.make_batch(0, batch);
  PictureKept kept;
  kept.first_step = kept_first_step(c);
  kept.last_step = kept_last_step(c);
  BitGrid grid(build_cell_program(model), hard_ops(model),
               make_grid_geometry(1, c.height, c.width, c.channels, c.periodic));
  grid.set_state(batch.initial_states.data());
  for (int step = 1; step <= kept.last_step; ++step) {
    grid.step();
    if (step >= kept.first_step)
      kept.wrong_bits.push_back(grid.loss(batch.target, c.loss_channels));
  }
  return kept;
}

}  // namespace dlca
