// Validation of experiment configurations and the built-in checkerboard configuration.
#include "dlca/core/config.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "dlca/core/option_names.hpp"

namespace dlca {

const char* connection_name(Connection c) {
  switch (c) {
    case Connection::kUnique:
      return "unique";
    case Connection::kRandom:
      return "random";
    case Connection::kFirstKernel:
      return "first_kernel";
  }
  return "?";
}

Connection parse_connection(const std::string& name) {
  if (name == "unique") return Connection::kUnique;
  if (name == "random") return Connection::kRandom;
  if (name == "first_kernel") return Connection::kFirstKernel;
  throw ConfigError(
      fmt::format("connection: unknown kind '{}' (unique, random, first_kernel)", name));
}

const char* recipe_name(Recipe r) { return r == Recipe::kRobust ? "robust" : "paper"; }

Recipe parse_recipe(const std::string& name) {
  if (name == "paper") return Recipe::kPaper;
  if (name == "robust") return Recipe::kRobust;
  throw ConfigError(fmt::format("recipe: must be \"paper\" or \"robust\", got \"{}\"", name));
}

const char* gate_kind_name(GateKind g) {
  return g == GateKind::kInputWise ? "inputwise" : "softmax";
}

GateKind parse_gate_kind(const std::string& name) {
  if (name == "softmax") return GateKind::kSoftmax;
  if (name == "inputwise") return GateKind::kInputWise;
  throw ConfigError(fmt::format("gates: must be \"softmax\" or \"inputwise\", got \"{}\"", name));
}

namespace {

constexpr const char* kRepeatWithoutSchedule =
    "has no effect without noise or sharpening to repeat";
constexpr const char* kFeedbackUnsharpened =
    "has no effect without sharpen_to below 1 (it acts in the sharpened epochs; robust sharpens "
    "only pictures)";
constexpr const char* kRoundsWithHalving =
    "not with starts auto (a halving run's budget says how long it trains)";

// The first epoch of the noise or sharpening that is on (0 when neither is).
int64_t schedule_start(const ExperimentConfig& c) {
  const bool sharpening = c.sharpen_to != 1.0f, noise = c.noise != 0.0f;
  return sharpening && noise ? std::min(c.sharpen_start, c.noise_start)
         : sharpening        ? c.sharpen_start
         : noise             ? c.noise_start
                             : 0;
}

// Rounds need a round of at least one epoch: a schedule that starts before `epochs`, or a period.
// And a round is one whole period of the schedule: with a period given, `epochs` must end one
// (a round that began inside a period would end inside the next, noise still on).
void check_round_length(const ExperimentConfig& c) {
  if (c.rounds <= 0 || (c.noise == 0.0f && c.sharpen_to == 1.0f)) return;
  const int64_t start = schedule_start(c);
  if (schedule_period(c) <= 0)
    throw ConfigError(fmt::format(
        "rounds: the noise and sharpening start at epoch {}, not before epochs ({}): give "
        "repeat_schedule for the rounds' length",
        start, c.epochs));
  const int64_t period = c.repeat_schedule;
  if (period > 0 && (c.epochs < start || (c.epochs - start) % period != 0)) {
    const int64_t periods = std::max<int64_t>(1, (c.epochs - start + period - 1) / period);
    throw ConfigError(fmt::format(
        "rounds: begin at epochs ({}), which must end a period of repeat_schedule ({}) from "
        "where the noise and sharpening start ({}): epochs {} would",
        c.epochs, period, start, start + periods * period));
  }
}

// A checkpoint of the run, to its last epoch (its rounds too), must be one dlca reads back.
void check_checkpoint_size(const ExperimentConfig& c) {
  const uint64_t bytes = checkpoint_bytes_estimate(c);
  if (bytes <= kMaxModelFileBytes) return;
  const uint64_t one_candidate = bytes / (c.starts > 1 ? uint64_t(c.starts) + 1 : 1);
  ExperimentConfig no_rounds = c;
  no_rounds.rounds = 0;
  const char* field =
      c.rounds > 0 && checkpoint_bytes_estimate(no_rounds) <= kMaxModelFileBytes ? "rounds"
      : uint64_t(std::max<int64_t>(last_epoch(c), 0)) * 40 * 2 > one_candidate
          ? "epochs"                                                    // the history is most of it
      : c.starts > 1 && one_candidate <= kMaxModelFileBytes ? "starts"  // one alone would fit
                                                            : "update_layers";
  throw ConfigError(fmt::format(
      "{}: too large: a checkpoint would take about {:.1f} GB ({} candidate(s)), more than dlca "
      "reads back ({:.1f} GB); use fewer gates, starts, epochs or rounds",
      field, double(bytes) / 1e9, c.starts, double(kMaxModelFileBytes) / 1e9));
}

// Whether robust may still fill in noise and sharpening (with_recipe_schedule), which a repeated
// schedule given alone then repeats.
bool schedule_left_to_recipe(const ExperimentConfig& c) {
  return c.recipe == Recipe::kRobust && !c.given.schedule && c.noise == 0.0f &&
         c.sharpen_to == 1.0f;
}

ExperimentConfig fill_recipe_schedule(ExperimentConfig c, bool grown_from_fixed_start) {
  if (c.recipe != Recipe::kRobust) return c;
  if (!grown_from_fixed_start) {
    // Measured on the synchronous and asynchronous checkerboard and Game of Life: input-wise gates
    // solve every seed tried in fewer epochs than softmax gates (results/log/training.md,
    // "Input-wise gates").
    if (!c.given.gates && c.noise == 0.0f && c.sharpen_to == 1.0f) c.gates = GateKind::kInputWise;
    return c;
  }
  // Measured on the colored G: four starts that all train to the end solve more seeds, sooner,
  // than halving, whose rungs at a quarter and half of the epochs come before the noise and
  // sharpening that solve it (results/log/training.md, "Starts that stop early").
  if (!c.given.starts) c.halving = false;
  // Measured on the colored G and the lizard: AdamW's epsilon far below the gradients of these
  // deep, long rollouts lets every logit take whole steps (docs/training.md, "Training recipes").
  if (c.adam_eps == kNotebookAdamEps && !c.given.adam_eps) c.adam_eps = 1e-16f;
  // Logit noise and sharpening act on softmax logits: input-wise gates have neither.
  if (c.gates == GateKind::kInputWise) return c;
  // Measured on the colored G: the three seeds of 20 still unsolved after 3000 epochs each solve
  // in the first or second extra round of noise and sharpening (results/log/training.md, "Repeating
  // the noise and sharpening"); a solved run stops before them, so only failing runs pay for them.
  // A picture trained to stay gets more of them: the README's heart stays only in the fourth extra
  // round, epochs 7500-9000 ("Stay from the circuit's own growth"). (Not where a schedule the user
  // gave starts at or after the epochs: no round could be made.)
  const auto with_rounds = [](ExperimentConfig r) {
    if (r.given.rounds || r.halving || r.stop_when_solved <= 0) return r;
    r.rounds = r.stay ? kRobustStayRounds : kRobustRounds;
    if (schedule_period(r) <= 0) r.rounds = 0;
    return r;
  };
  if (c.noise != 0.0f || c.sharpen_to != 1.0f) return with_rounds(c);
  if (c.given.schedule) return c;
  // Measured on the colored G at 3000 epochs (noise 1500-2600, sharpening 1500-3000): the noise
  // ends before the lowest temperature, so the run settles on a circuit the stop keeps.
  const int64_t epochs = c.epochs;
  c.noise = 0.1f;
  c.noise_start = int(epochs / 2);
  c.noise_end = int((epochs * 13 + 7) / 15);  // rounded: 2600 of 3000
  c.sharpen_to = 0.05f;
  c.sharpen_start = int(epochs / 2);
  c.sharpen_end = int(epochs);
  return with_rounds(c);
}

}  // namespace

ExperimentConfig with_recipe_schedule(ExperimentConfig config, bool grown_from_fixed_start) {
  ExperimentConfig c = fill_recipe_schedule(std::move(config), grown_from_fixed_start);
  // A repeat given for robust's schedule where robust has none for this task (validate leaves it
  // to here while that schedule is still to come).
  if (c.noise == 0.0f && c.sharpen_to == 1.0f) {
    if (c.repeat_schedule > 0)
      throw ConfigError(std::string("repeat_schedule: ") + kRepeatWithoutSchedule);
    if (c.rounds > 0) throw ConfigError(std::string("rounds: ") + kRepeatWithoutSchedule);
    if (c.hard_feedback != 0.0f)
      throw ConfigError(std::string("hard_feedback: ") + kFeedbackUnsharpened);
  }
  // (validate refuses rounds with halving the user asked for; this, robust's halving of a task
  // that is not a picture, where robust gives no rounds of its own.)
  if (c.rounds > 0 && c.halving)
    throw ConfigError(std::string("rounds: ") + kRoundsWithHalving +
                      "; robust halves the starts of this task: give starts N");
  check_round_length(c);
  check_checkpoint_size(c);
  return c;
}

int64_t schedule_period(const ExperimentConfig& c) {
  if (c.noise == 0.0f && c.sharpen_to == 1.0f) return 0;
  if (c.repeat_schedule > 0) return c.repeat_schedule;
  return c.rounds > 0 ? std::max<int64_t>(0, c.epochs - schedule_start(c)) : 0;
}

int64_t last_epoch(const ExperimentConfig& c) {
  return c.epochs + int64_t(c.rounds) * schedule_period(c);
}

int64_t rounds_begun(const ExperimentConfig& c, int64_t epochs_trained) {
  const int64_t period = schedule_period(c), past = epochs_trained - c.epochs;
  return c.rounds > 0 && period > 0 && past > 0 ? (past + period - 1) / period : 0;
}

int64_t schedule_epoch(const ExperimentConfig& c, int64_t epoch) {
  const int64_t period = schedule_period(c);
  if (period <= 0) return epoch;
  const int64_t first = schedule_start(c);
  if (epoch < first + period) return epoch;
  return first + (epoch - first) % period;
}

double forward_temperature(const ExperimentConfig& c, int64_t at_epoch) {
  const int64_t epoch = schedule_epoch(c, at_epoch);
  if (c.sharpen_to == 1.0f || epoch < c.sharpen_start) return 1.0;
  if (epoch >= c.sharpen_end) return double(c.sharpen_to);
  const double progress = double(epoch - c.sharpen_start) / double(c.sharpen_end - c.sharpen_start);
  return std::exp(std::log(double(c.sharpen_to)) * progress);
}

float noise_scale(const ExperimentConfig& c, int64_t at_epoch) {
  const int64_t epoch = schedule_epoch(c, at_epoch);
  return epoch >= c.noise_start && (c.noise_end == 0 || epoch < c.noise_end) ? c.noise : 0.0f;
}

float learning_rate_at(const ExperimentConfig& c, int64_t epoch) {
  if (c.lr_decay_to == 0.0f || epoch < c.lr_decay_start) return c.learning_rate;
  const int64_t end = c.lr_decay_end != 0 ? c.lr_decay_end : c.epochs;
  if (epoch >= end) return c.lr_decay_to;
  const double progress = double(epoch - c.lr_decay_start) / double(end - c.lr_decay_start);
  const double to = c.lr_decay_to;
  return float(to + (double(c.learning_rate) - to) * 0.5 * (1.0 + std::cos(M_PI * progress)));
}

std::vector<int64_t> hardening_stage_epochs(const ExperimentConfig& c) {
  const int64_t start = c.harden_start, end = c.harden_end != 0 ? c.harden_end : c.epochs;
  std::vector<int64_t> epochs;
  for (int k = 0; k < c.harden; ++k) epochs.push_back(start + k * (end - start) / c.harden);
  return epochs;
}

double hardened_share(const ExperimentConfig& c, int64_t epoch) {
  int stages = 0;
  for (int64_t stage : hardening_stage_epochs(c)) stages += stage <= epoch;
  return 1.0 - std::ldexp(1.0, -stages);
}

void take_schedule(const ExperimentConfig& from, ExperimentConfig& to) {
  to.sharpen_to = from.sharpen_to;
  to.sharpen_start = from.sharpen_start;
  to.sharpen_end = from.sharpen_end;
  to.noise = from.noise;
  to.noise_start = from.noise_start;
  to.noise_end = from.noise_end;
  to.repeat_schedule = from.repeat_schedule;
  to.harden = from.harden;
  to.harden_start = from.harden_start;
  to.harden_end = from.harden_end;
  to.lr_decay_to = from.lr_decay_to;
  to.lr_decay_start = from.lr_decay_start;
  to.lr_decay_end = from.lr_decay_end;
}

namespace {

[[noreturn]] void reject(const std::string& field, const std::string& reason) {
  throw ConfigError(field + ": " + reason);
}

void require_positive(const char* field, long long value) {
  if (value <= 0) reject(field, fmt::format("must be positive, got {}", value));
}

// Checks one gate layer n -> m of the given wiring kind; `field` names it in errors.
void validate_layer(const std::string& field, Connection kind, int n, int m,
                    bool first_perception) {
  switch (kind) {
    case Connection::kUnique:
      if (2LL * m < n)
        reject(field, fmt::format("'unique' needs at least half as many gates as inputs ({} -> {})",
                                  n, m));
      if ((long long)m > (long long)n * (n - 1) / 2)
        reject(field, fmt::format("'unique' cannot make {} distinct pairs from {} inputs", m, n));
      break;
    case Connection::kRandom:
      break;
    case Connection::kFirstKernel:
      if (!first_perception)
        reject(field, "'first_kernel' is only allowed as the first perception layer");
      if (n != 9 || m != 8)
        reject(field, fmt::format("'first_kernel' must be 9 -> 8, got {} -> {}", n, m));
      break;
  }
}

}  // namespace

void use_recipe(ExperimentConfig& config, Recipe recipe) {
  config.recipe = recipe;
  const RecipeDefaults defaults = recipe_defaults(recipe);
  config.starts = defaults.starts;
  config.stop_when_solved = defaults.stop_when_solved;
  config.repair = defaults.repair;
  config.halving = defaults.halving;
  config.given.starts = false;
}

namespace {

// Sizes, multi-start and the halving budget.
void validate_run(const ExperimentConfig& c) {
  require_positive("channels", c.channels);
  require_positive("kernels", c.kernels);
  require_positive("height", c.height);
  require_positive("width", c.width);
  require_positive("steps", c.steps);
  require_positive("batch", c.batch);
  require_positive("epochs", c.epochs);
  if (c.starts < 1 || c.starts > 64)
    reject("starts", fmt::format("must be between 1 and 64, got {}", c.starts));
  if (c.budget_epochs < 0 || c.budget_epochs > kMaxCandidateEpochs)
    reject("budget_epochs", fmt::format("must be from 0 (4 x epochs) to {}, got {}",
                                        kMaxCandidateEpochs, c.budget_epochs));
  if (!(c.budget_minutes >= 0.0f && c.budget_minutes <= 1e6f))
    reject("budget_minutes", fmt::format("must be from 0 (none) to 1e6, got {}", c.budget_minutes));
  if (!c.halving && (c.budget_epochs != 0 || c.budget_minutes != 0.0f))
    reject(c.budget_epochs != 0 ? "budget_epochs" : "budget_minutes",
           "has no effect without halving (" + option_with_value("starts", "auto") + ")");
}

// The schedules over the epochs: sharpening, logit noise, progressive hardening.
void validate_schedules(const ExperimentConfig& c) {
  if (!(c.sharpen_to > 0.0f && c.sharpen_to <= 1.0f))
    reject("sharpen_to", fmt::format("must be in (0, 1] (1: no sharpening), got {}", c.sharpen_to));
  if (c.sharpen_start < 0)
    reject("sharpen_start", fmt::format("must be non-negative, got {}", c.sharpen_start));
  if (c.sharpen_end < c.sharpen_start)
    reject("sharpen_end", fmt::format("must not be before sharpen_start ({}), got {}",
                                      c.sharpen_start, c.sharpen_end));
  if (!(c.noise >= 0.0f && c.noise <= 100.0f))
    reject("noise", fmt::format("must be between 0 (off) and 100, got {}", c.noise));
  if (c.noise_start < 0)
    reject("noise_start", fmt::format("must be non-negative, got {}", c.noise_start));
  if (c.noise_end != 0 && c.noise_end <= c.noise_start)
    reject("noise_end", fmt::format("must be 0 (never) or after noise_start ({}), got {}",
                                    c.noise_start, c.noise_end));
  if (c.noise == 0.0f && (c.noise_start != 0 || c.noise_end != 0))
    reject(c.noise_start != 0 ? "noise_start" : "noise_end", "has no effect without noise above 0");
  if (c.sharpen_to == 1.0f && (c.sharpen_start != 0 || c.sharpen_end != 0))
    reject(c.sharpen_start != 0 ? "sharpen_start" : "sharpen_end",
           "has no effect without sharpen_to below 1");
  if (!(c.hard_feedback >= 0.0f && c.hard_feedback <= 100.0f))
    reject("hard_feedback",
           fmt::format("must be between 0 (off) and 100, got {}", c.hard_feedback));
  // (With robust's own schedule still to come, with_recipe_schedule checks it.)
  if (c.hard_feedback != 0.0f && c.sharpen_to == 1.0f && !schedule_left_to_recipe(c))
    reject("hard_feedback", kFeedbackUnsharpened);
  if (c.repeat_schedule < 0)
    reject("repeat_schedule",
           fmt::format("must be 0 (once) or a period in epochs, got {}", c.repeat_schedule));
  // (With robust's own schedule still to come, with_recipe_schedule checks it.)
  if (c.repeat_schedule > 0 && c.noise == 0.0f && c.sharpen_to == 1.0f &&
      !schedule_left_to_recipe(c))
    reject("repeat_schedule", kRepeatWithoutSchedule);
  if (c.rounds < 0 || c.rounds > kMaxRounds)
    reject("rounds", fmt::format("must be from 0 (none) to {}, got {}", kMaxRounds, c.rounds));
  if (c.rounds > 0 && c.noise == 0.0f && c.sharpen_to == 1.0f && !schedule_left_to_recipe(c))
    reject("rounds", kRepeatWithoutSchedule);
  // (robust's halving, unless starts were given, is not for the pictures it gives rounds to.)
  if (c.rounds > 0 && c.halving && (c.recipe != Recipe::kRobust || c.given.starts))
    reject("rounds", kRoundsWithHalving);
  if (c.rounds > 0 && c.stop_when_solved == 0)
    reject("rounds", "needs stop_when_solved above 0 (the rounds are for a run still unsolved)");
  check_round_length(c);
  if (c.harden < 0 || c.harden > kMaxHardenStages)
    reject("harden",
           fmt::format("must be from 0 (off) to {} stages, got {}", kMaxHardenStages, c.harden));
  if (c.harden_start < 0)
    reject("harden_start", fmt::format("must be non-negative, got {}", c.harden_start));
  if (c.harden_end != 0 && c.harden_end <= c.harden_start)
    reject("harden_end",
           fmt::format("must be 0 (the run's epochs) or after harden_start ({}), got {}",
                       c.harden_start, c.harden_end));
  if (c.harden != 0 && c.harden_start < 1)
    reject("harden_start",
           "must be at least 1 with harden stages (a stage at epoch 0 would fix "
           "gates that have not trained)");
  if (c.harden != 0 && c.harden_start >= c.epochs)
    reject("harden_start", fmt::format("must be before the run's last epoch ({}), got {}", c.epochs,
                                       c.harden_start));
  if (c.harden != 0 && (c.harden_end != 0 ? c.harden_end : c.epochs) - c.harden_start < c.harden)
    reject(c.harden_end != 0 ? "harden_end" : "harden",
           fmt::format("{} stages need at least {} epochs from harden_start ({}) to {}", c.harden,
                       c.harden, c.harden_start,
                       c.harden_end != 0 ? "harden_end" : "the run's epochs"));
  if (c.harden == 0 && (c.harden_start != 0 || c.harden_end != 0))
    reject(c.harden_start != 0 ? "harden_start" : "harden_end",
           "has no effect without harden stages above 0");
  // Noise acts on the 16 logits of a softmax gate; an input-wise gate has none. (Sharpening
  // divides the log-odds of an input-wise gate's outputs: input_wise_gates.hpp.)
  if (c.gates == GateKind::kInputWise && c.noise != 0.0f)
    reject("noise", "acts on softmax logits: not available with inputwise gates");
}

// The stop rule, AdamW and the asynchronous fire rate.
void validate_optimizer(const ExperimentConfig& c) {
  if (c.stop_when_solved < 0)
    reject("stop_when_solved", fmt::format("must be non-negative, got {}", c.stop_when_solved));
  if (!(std::isfinite(c.learning_rate) && c.learning_rate > 0))
    reject("lr", fmt::format("must be a positive finite number, got {}", c.learning_rate));
  if (!(c.lr_decay_to == 0.0f || (c.lr_decay_to > 0 && c.lr_decay_to <= c.learning_rate)))
    reject("lr_decay_to", fmt::format("must be 0 (off) or above 0 and at most lr ({}), got {}",
                                      c.learning_rate, c.lr_decay_to));
  if (c.lr_decay_start < 0)
    reject("lr_decay_start", fmt::format("must be non-negative, got {}", c.lr_decay_start));
  if (c.lr_decay_end != 0 && c.lr_decay_end <= c.lr_decay_start)
    reject("lr_decay_end",
           fmt::format("must be 0 (the run's epochs) or after lr_decay_start ({}), got {}",
                       c.lr_decay_start, c.lr_decay_end));
  if (c.lr_decay_to != 0.0f && c.lr_decay_end == 0 && c.lr_decay_start >= c.epochs)
    reject("lr_decay_start", fmt::format("must be before the run's last epoch ({}), got {}",
                                         c.epochs, c.lr_decay_start));
  if (c.lr_decay_to == 0.0f && (c.lr_decay_start != 0 || c.lr_decay_end != 0))
    reject(c.lr_decay_start != 0 ? "lr_decay_start" : "lr_decay_end",
           "has no effect without lr_decay_to above 0");
  if (!(c.adam_eps >= std::numeric_limits<float>::min() && c.adam_eps <= 1))
    reject("adam_eps", fmt::format("must be in [{:g}, 1], got {}",
                                   double(std::numeric_limits<float>::min()), c.adam_eps));
  for (auto [key, beta] : {std::pair{"adam_beta1", c.adam_beta1}, {"adam_beta2", c.adam_beta2}})
    if (!(beta >= 0 && beta < 1))
      reject(key, fmt::format("must be a number from 0 to below 1, got {}", beta));
  if (!(c.weight_decay >= 0 && c.weight_decay <= 1))
    reject("weight_decay", fmt::format("must be in [0, 1], got {}", c.weight_decay));
  // Each epoch multiplies every logit by 1 - lr * weight_decay: at 1 or more they flip sign or
  // grow.
  if (double(c.learning_rate) * c.weight_decay >= 1)
    reject("weight_decay",
           fmt::format("its product with lr must be below 1 (each epoch multiplies every logit "
                       "by 1 minus that product), got weight_decay {} with lr {} (lower one of "
                       "them)",
                       c.weight_decay, c.learning_rate));
  if (!(c.fire_rate > 0 && c.fire_rate <= 1))
    reject("fire_rate", fmt::format("must be in (0, 1], got {}", c.fire_rate));
  // Every file carries fire_rate; another value than the notebook's on a synchronous run is one
  // asked for (sweep --set, Python) that would change nothing.
  if (!c.async && c.fire_rate != kNotebookFireRate)
    reject("fire_rate", fmt::format("has no effect without async (a synchronous step updates "
                                    "every cell), got {} with async false",
                                    c.fire_rate));
}

// The grid and the network: sizes, layers and their wiring.
void validate_network(const ExperimentConfig& c) {
  if ((long long)c.height * c.width * c.batch > (1LL << 26))
    reject("height", "grid cells times batch exceed 2^26");

  if (c.channels > kMaxChannels)
    reject("channels", fmt::format("at most {}, got {}", kMaxChannels, c.channels));
  if (c.kernels > kMaxChannels)
    reject("kernels", fmt::format("at most {}, got {}", kMaxChannels, c.kernels));
  if (c.steps > kMaxSteps) reject("steps", fmt::format("at most {}, got {}", kMaxSteps, c.steps));
  long long gates = 0;  // bounded before anything is allocated for them
  for (size_t i = 1; i < c.perception_layers.size(); ++i)
    gates += (long long)c.kernels * std::max(c.perception_layers[i], 0);
  for (size_t i = 1; i < c.update_layers.size(); ++i) gates += std::max(c.update_layers[i], 0);
  if (gates > (1LL << 22))
    reject("update_layers", fmt::format("the network has {} gates, more than 2^22", gates));

  if (c.perception_layers.size() < 2)
    reject("perception_layers", "needs an input width and at least one gate layer");
  for (size_t i = 0; i < c.perception_layers.size(); ++i)
    require_positive(fmt::format("perception_layers[{}]", i).c_str(), c.perception_layers[i]);
  if (c.perception_layers[0] != 9)
    reject("perception_layers[0]",
           fmt::format("must be 9 (the 3x3 patch), got {}", c.perception_layers[0]));
  if (c.perception_connections.size() != c.perception_layers.size() - 1)
    reject("perception_connections",
           fmt::format("needs {} entries (one per gate layer), got {}",
                       c.perception_layers.size() - 1, c.perception_connections.size()));
  for (size_t l = 1; l < c.perception_layers.size(); ++l)
    validate_layer(fmt::format("perception_layers[{}]", l), c.perception_connections[l - 1],
                   c.perception_layers[l - 1], c.perception_layers[l], l == 1);

  if (c.update_layers.size() < 2)
    reject("update_layers", "needs an input width and at least one gate layer");
  for (size_t i = 0; i < c.update_layers.size(); ++i)
    require_positive(fmt::format("update_layers[{}]", i).c_str(), c.update_layers[i]);
  const long long n0 =
      (long long)c.channels + (long long)c.kernels * c.channels * c.perception_layers.back();
  if (c.update_layers[0] != n0)
    reject("update_layers[0]",
           fmt::format("must be channels + kernels*channels*perception outputs = {}, got {}", n0,
                       c.update_layers[0]));
  if (c.update_layers.back() != c.channels)
    reject("update_layers", fmt::format("last layer width {} must equal channels ({})",
                                        c.update_layers.back(), c.channels));
  if (c.update_connections.size() != c.update_layers.size() - 1)
    reject("update_connections",
           fmt::format("needs {} entries (one per gate layer), got {}", c.update_layers.size() - 1,
                       c.update_connections.size()));
  for (size_t l = 1; l < c.update_layers.size(); ++l)
    validate_layer(fmt::format("update_layers[{}]", l), c.update_connections[l - 1],
                   c.update_layers[l - 1], c.update_layers[l], false);
}

// What the model file of a run holds, the random streams and the loss.
void validate_files_and_loss(const ExperimentConfig& c) {
  check_checkpoint_size(c);

  if (c.random_streams == RandomStreams::kJax && c.seed > 0xFFFFFFFFull)
    reject("seed", fmt::format("must be below 2^32 with JAX random streams, got {}", c.seed));
  if (c.loss_channels.empty()) reject("loss_channels", "must name at least one channel");
  if (c.loss_steps < 1 || c.loss_steps > c.steps)
    reject("loss_steps",
           fmt::format("must be from 1 to steps ({}), got {}", c.steps, c.loss_steps));
  if (c.stay && c.async)
    reject("stay",
           "needs synchronous steps: an asynchronous picture's later steps depend on "
           "random fire masks");
  std::set<int> seen;
  for (int ch : c.loss_channels) {
    if (ch < 0 || ch >= c.channels)
      reject("loss_channels", fmt::format("channel {} is outside 0..{}", ch, c.channels - 1));
    if (!seen.insert(ch).second)
      reject("loss_channels", fmt::format("channel {} is listed twice", ch));
  }
}

}  // namespace

void validate(const ExperimentConfig& c) {
  validate_run(c);
  validate_schedules(c);
  validate_optimizer(c);
  validate_network(c);
  validate_files_and_loss(c);
}

void require_target_planes(const ExperimentConfig& c, int planes) {
  for (int ch : c.loss_channels)
    if (ch >= planes)
      throw ConfigError(fmt::format(
          "loss_channels: channel {} has no target (the target has {} plane{}, channel{} {})", ch,
          planes, planes == 1 ? "" : "s", planes == 1 ? "" : "s",
          planes == 1 ? "0" : fmt::format("0..{}", planes - 1)));
}

uint64_t checkpoint_bytes_estimate(const ExperimentConfig& c) {
  uint64_t gates = 0;
  for (size_t l = 1; l < c.perception_layers.size(); ++l)
    gates += uint64_t(c.kernels) * uint64_t(c.perception_layers[l]);
  for (size_t l = 1; l < c.update_layers.size(); ++l) gates += uint64_t(c.update_layers[l]);
  // Logits and both moments of the kept model, and of every candidate when there are several;
  // about 20 bytes per number as JSON text (measured on a trained lizard checkpoint); and each
  // one's history, four numbers per epoch, about 40 bytes.
  const uint64_t copies = c.starts > 1 ? uint64_t(c.starts) + 1 : 1;
  return (gates * uint64_t(parameters_per_gate(c.gates)) * 3 * 20 +
          uint64_t(std::max<int64_t>(last_epoch(c), 0)) * 40) *
         copies;
}

ExperimentConfig paper_config(std::string name, int channels, int kernels,
                              std::vector<int> perception_layers, std::vector<int> update_layers,
                              int size, int steps, int batch, int epochs, float learning_rate,
                              bool periodic, std::vector<int> loss_channels) {
  ExperimentConfig c;
  c.name = std::move(name);
  c.channels = channels;
  c.kernels = kernels;
  c.perception_layers = std::move(perception_layers);
  c.perception_connections.assign(c.perception_layers.size() - 1, Connection::kUnique);
  c.perception_connections[0] = Connection::kFirstKernel;
  c.update_layers = std::move(update_layers);
  c.update_connections.assign(c.update_layers.size() - 1, Connection::kUnique);
  c.height = c.width = size;
  c.steps = steps;
  c.batch = batch;
  c.epochs = epochs;
  c.learning_rate = learning_rate;
  c.periodic = periodic;
  c.async = false;
  c.fire_rate = kNotebookFireRate;
  c.loss_channels = std::move(loss_channels);
  c.seed = 23;
  c.random_streams = RandomStreams::kJax;  // the notebook's exact wiring and data for a seed
  return c;
}

std::vector<int> layers(int first, int copies, int width, std::vector<int> tail) {
  std::vector<int> out = {first};
  out.insert(out.end(), size_t(copies), width);
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

ExperimentConfig checkerboard_sync_config() {
  return paper_config("checkerboard_sync", 8, 16, {9, 8, 4, 2},
                      layers(264, 10, 256, {128, 64, 32, 16, 8, 8}), 16, 20, 2, 500, 0.05f, false);
}

ExperimentConfig checkerboard_async_config() {
  ExperimentConfig c =
      paper_config("checkerboard_async", 8, 16, {9, 8, 4, 2},
                   layers(264, 14, 256, {128, 64, 32, 16, 8, 8}), 14, 50, 1, 800, 0.05f, false);
  c.async = true;
  return c;
}

}  // namespace dlca
