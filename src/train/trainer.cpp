// One training epoch: data from the task, rollout on the backend, AdamW on the logits.
#include "dlca/train/trainer.hpp"

#include "dlca/core/cell_program.hpp"
#include "dlca/core/grid.hpp"
#include "dlca/core/option_names.hpp"
#include "dlca/train/gate_hardening.hpp"
#include "dlca/train/picture_kept.hpp"
#include "dlca/train/stay_data.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace dlca {

namespace {

// A rollout whose numbers are no longer finite: the parameters have run away. `epoch` is the
// epoch's index, from 0, as everywhere (docs/formats.md, "How epochs are counted").
[[noreturn]] void diverged(int64_t epoch, const char* what) {
  throw TrainingDiverged(fmt::format("epoch {}: {}: training diverged (a smaller {} may help)",
                                     epoch, what, option_name("lr")),
                         epoch);
}

}  // namespace

Trainer::Trainer(Model model, const Task& task, Backend& backend)
    : model_(std::move(model)),
      task_(task),
      backend_(backend),
      optimizer_(model_.logits.size(),
                 AdamWSettings{.learning_rate = model_.config.learning_rate,
                               .beta1 = model_.config.adam_beta1,
                               .beta2 = model_.config.adam_beta2,
                               .eps = model_.config.adam_eps,
                               .weight_decay = model_.config.weight_decay,
                               .normalize_per_tensor = model_.config.grad_norm},
                 parameter_tensor_bounds(model_)),
      device_(backend.device_training()),
      on_device_(device_ != nullptr),
      masks_key_(SeedKeys(model_.config.seed).masks),
      jax_rollout_keys_(jax::split(jax::prng_key(uint32_t(model_.config.seed)))[0]) {
  // The model records its task; one that already has a stored task (a resumed version 3 file)
  // must be trained on the same one.
  TrainedTask described = task.describe();
  if (model_.task.kind != TaskKind::kUnknown && !model_.task.inferred &&
      !model_.task.same_as(described)) {
    const std::string was = describe_task(model_.task);
    std::string now = describe_task(described);
    if (now == was) now += " with other target pixels";  // e.g. another file of the same name
    throw TaskMismatch("the model was trained for " + was + ", not for " + now);
  }
  check_task_fits(described, model_.config);
  model_.task = std::move(described);
  upload_to_device();
}

void Trainer::restore(int64_t epoch, int64_t optimizer_steps, std::vector<float> first_moment,
                      std::vector<float> second_moment, std::vector<EpochStats> history,
                      std::optional<EpochStats> measured, std::vector<uint8_t> hardened) {
  if (epoch < 0 || history.size() != size_t(epoch))
    throw std::invalid_argument("Trainer::restore: history does not match the epoch");
  if (!hardened.empty() && hardened.size() != size_t(model_.num_gates()))
    throw std::invalid_argument("Trainer::restore: hardened gates do not match the model");
  hardened_ = std::move(hardened);
  optimizer_.restore(optimizer_steps, std::move(first_moment), std::move(second_moment));
  upload_to_device();
  epoch_ = epoch;
  history_ = std::move(history);
  before_last_epoch_.steps = -1;
  undone_ = measured;
  if (undone_) undone_->epoch = epoch;
}

void Trainer::undo_last_epoch() {
  Snapshot& s = before_last_epoch_;
  if (s.steps < 0 || history_.empty())
    throw std::logic_error("Trainer::undo_last_epoch: no state kept from before the last epoch");
  model_.logits = std::move(s.logits);
  hardened_ = std::move(s.hardened);
  optimizer_.restore(s.steps, std::move(s.first_moment), std::move(s.second_moment));
  s.steps = -1;
  upload_to_device();
  --epoch_;
  undone_ = history_.back();
  history_.pop_back();
}

Model Trainer::model_before_last_epoch() const {
  if (before_last_epoch_.steps < 0)
    throw std::logic_error("Trainer::model_before_last_epoch: no state kept from before it");
  Model before = model();
  before.logits = before_last_epoch_.logits;
  return before;
}

void Trainer::sync_from_device() const {
  if (!on_device_) return;
  std::vector<float> m, v;
  if (device_->download_training_state(model_.logits, m, v))
    optimizer_.restore(device_steps_, std::move(m), std::move(v));
}

void Trainer::upload_to_device() {
  if (!on_device_) return;
  device_->upload_training_state(model_, optimizer_.first_moment(), optimizer_.second_moment());
  device_steps_ = optimizer_.steps_taken();
}

void Trainer::prepare_data(int64_t epoch) {
  task_.make_batch(uint64_t(epoch), data_);
  const ExperimentConfig& cfg = model_.config;
  // --stay: an odd epoch starts from the hard circuit's own growth, as the parameters are now.
  if (const int grown_steps = stay_start_step(cfg, epoch); grown_steps > 0) {
    sync_from_device();
    grow_with_hard_circuit(model_, grown_steps, data_.initial_states);
  }
  if (cfg.async)
    masks_ = cfg.random_streams == RandomStreams::kJax
                 ? jax_fire_masks(jax_rollout_keys_.sub(uint64_t(epoch)), cfg.steps, cfg.height,
                                  cfg.width, cfg.fire_rate)
                 : fire_masks(epoch_mask_key(masks_key_, uint64_t(epoch)), cfg.steps, cfg.height,
                              cfg.width, cfg.fire_rate);
}

RepairReport Trainer::search_repair(const RepairSettings& settings) {
  sync_from_device();
  const ExperimentConfig& cfg = model_.config;
  const CellProgram program = build_cell_program(model_);
  if (cfg.stay) {
    // Grow and stay: the circuit is scored from the task's start (one sample: a picture's are all
    // alike) over the whole window, T to 2T (picture_kept.hpp), not on data its own growth made
    // before the repair changed it.
    TaskBatch batch;
    task_.make_batch(uint64_t(epoch_), batch);
    const GridGeometry one =
        make_grid_geometry(1, cfg.height, cfg.width, cfg.channels, cfg.periodic);
    const int first = kept_first_step(cfg), last = kept_last_step(cfg);
    RepairProblem problem{&program, &one, last, &cfg.loss_channels, {}, last - first + 1};
    problem.batches.push_back({batch.initial_states.data(), nullptr, &batch.target});
    return dlca::search_repair(problem, cfg.gates, model_.logits, settings);
  }
  const GridGeometry geometry =
      make_grid_geometry(cfg.batch, cfg.height, cfg.width, cfg.channels, cfg.periodic);
  // The data of the next epochs, each distinct batch once.
  std::vector<std::pair<TaskBatch, std::vector<uint8_t>>> data;
  for (int k = 0; k < std::max(1, settings.batches); ++k) {
    prepare_data(epoch_ + k);
    const bool seen = std::any_of(data.begin(), data.end(), [&](const auto& d) {
      return d.first.initial_states == data_.initial_states && d.second == masks_ &&
             d.first.target.values == data_.target.values;
    });
    if (!seen) data.emplace_back(data_, cfg.async ? masks_ : std::vector<uint8_t>());
  }
  RepairProblem problem{&program, &geometry, cfg.steps, &cfg.loss_channels, {}, cfg.loss_steps};
  for (const auto& [batch, masks] : data)
    problem.batches.push_back(
        {batch.initial_states.data(), cfg.async ? masks.data() : nullptr, &batch.target});
  return dlca::search_repair(problem, cfg.gates, model_.logits, settings);
}

void Trainer::apply_repair(const RepairReport& report) {
  sync_from_device();
  std::vector<float> m = optimizer_.first_moment(), v = optimizer_.second_moment();
  dlca::apply_repair(report.changes, model_.config.gates, model_.logits, {&m, &v});
  optimizer_.restore(optimizer_.steps_taken(), std::move(m), std::move(v));
  upload_to_device();
  before_last_epoch_.steps = -1;
}

void Trainer::begin_epoch() {
  epoch_start_ = std::chrono::steady_clock::now();
  prepare_data(epoch_);
  const ExperimentConfig& cfg = model_.config;
  temperature_ = forward_temperature(cfg, epoch_);
  optimizer_.set_learning_rate(learning_rate_at(cfg, epoch_));
  const float noise = noise_scale(cfg, epoch_);
  if (noise > 0) {
    noise_ = logit_noise(model_.logits.size(), cfg.seed, epoch_);
    for (float& g : noise_) g *= noise;
  }
  noise_used_ = noise > 0;
  undone_.reset();
  before_last_epoch_.steps = -1;
  if (keep_undo_) {
    sync_from_device();
    Snapshot& s = before_last_epoch_;  // assign: the buffers are reused from epoch to epoch
    s.steps = optimizer_.steps_taken();
    s.logits.assign(model_.logits.begin(), model_.logits.end());
    s.hardened.assign(hardened_.begin(), hardened_.end());
    s.first_moment.assign(optimizer_.first_moment().begin(), optimizer_.first_moment().end());
    s.second_moment.assign(optimizer_.second_moment().begin(), optimizer_.second_moment().end());
  }
  // A stage of progressive hardening begins: it judges the current parameters (changing none).
  // Without hardening, nothing is looked at (this runs every epoch).
  if (cfg.harden == 0) return;
  const size_t harden_to = hardened_gate_target(cfg, epoch_, size_t(model_.num_gates()));
  if (size_t(std::count(hardened_.begin(), hardened_.end(), uint8_t(1))) < harden_to) {
    sync_from_device();
    harden_most_confident(cfg.gates, model_.logits, hardened_, harden_to);
  }
}

RolloutBatch Trainer::epoch_batch() const {
  const ExperimentConfig& cfg = model_.config;
  return {cfg.batch, data_.initial_states.data(), cfg.async ? masks_.data() : nullptr};
}

EpochStats Trainer::finish_epoch(double soft_loss, double hard_loss, int active_gates) {
  EpochStats stats;
  stats.epoch = epoch_;
  stats.soft_loss = soft_loss;
  stats.hard_loss = hard_loss;
  stats.active_gates = active_gates;
  ++epoch_;
  stats.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - epoch_start_)
          .count();
  history_.push_back(stats);
  return stats;
}

// The hard-error feedback of this epoch: the configuration's while the forward pass is sharpened.
double Trainer::hard_feedback() const {
  return temperature_ < 1.0 ? double(model_.config.hard_feedback) : 0.0;
}

DeviceEpochRequest Trainer::begin_device_epoch() {
  if (!on_device_) throw std::logic_error("Trainer::begin_device_epoch: not training on a device");
  begin_epoch();
  return {.model = &model_,
          .settings = optimizer_.settings(),
          .step = device_steps_ + 1,
          .forward_temperature = temperature_,
          .logit_noise = noise_used_ ? &noise_ : nullptr,
          .hardened_gates = &hardened_,
          .hard_feedback = hard_feedback(),
          .target = &data_.target,
          .batch = epoch_batch()};
}

EpochStats Trainer::finish_device_epoch(const DeviceEpoch& d) {
  if (!std::isfinite(d.soft_loss)) diverged(epoch_, "soft loss is NaN or infinite");
  if (!d.finite_gradient) diverged(epoch_, "gradient contains NaN or infinity");
  ++device_steps_;
  return finish_epoch(d.soft_loss, d.hard_loss, d.active_gates);
}

EpochStats Trainer::run_epoch() {
  if (on_device_) return finish_device_epoch(device_->train_epoch(begin_device_epoch()));
  begin_epoch();
  RolloutResult r = backend_.rollout(model_, data_.target, epoch_batch(),
                                     RolloutRequest{.forward_temperature = temperature_,
                                                    .logit_noise = noise_used_ ? &noise_ : nullptr,
                                                    .hardened_gates = &hardened_,
                                                    .hard_feedback = hard_feedback()});
  if (!std::isfinite(r.soft_loss)) diverged(epoch_, "soft loss is NaN or infinite");
  if (!std::all_of(r.grad.begin(), r.grad.end(), [](float g) { return std::isfinite(g); }))
    diverged(epoch_, "gradient contains NaN or infinity");
  const int active = active_gate_count(model_);
  optimizer_.step(model_.logits, r.grad, hardened_);
  return finish_epoch(r.soft_loss, r.hard_loss, active);
}

}  // namespace dlca
