// The table of training settings (training_settings.hpp): keys, options, ranges, fields and help,
// and what every front end does with it (applying given settings, naming options in errors).
#include "dlca/core/training_settings.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace dlca {

namespace {

using C = ExperimentConfig;
using R = SettingRange;
constexpr SettingScope kEvery = SettingScope::kEveryProgram;
constexpr SettingScope kSome = SettingScope::kSomePrograms;
constexpr SettingScope kFiles = SettingScope::kFilesOnly;
constexpr std::monostate kByHand;

// A setting only experiment files set (the network's shape, the grid), read and written by hand.
constexpr Setting from_files(const char* key, const char* help) {
  return Setting{key, nullptr, kFiles, kByHand, R::kOther, 0, 0, nullptr, help};
}

static_assert(kAutoStarts == 4, "the help of --starts says 4");
static_assert(kMaxHardenStages == 16, "the range of harden says 16");
static_assert(kMaxRounds == 16 && kRobustRounds == 2 && kRobustStayRounds == 4,
              "the range and help of rounds say 16, 2 and 4");

// The order of every program's options in --help, and of the keys of a configuration.
const std::array kSettings = {
    // The network, grid and task: from an experiment's preset or file.
    from_files("name", "the experiment's name, shown in summaries and outputs"),
    from_files("channels", "state bits per cell (C)"),
    from_files("kernels", "perception kernels (K), each a gate circuit over a cell's 3x3 patch"),
    from_files("perception_layers",
               "widths of a perception kernel: 9 (the patch), then each gate layer's"),
    from_files("perception_connections",
               "how each perception layer is wired: unique, random or first_kernel"),
    from_files(
        "update_layers",
        "widths of the update circuit: C + K C S inputs, then each gate layer's, the last C"),
    from_files("update_connections", "how each update layer is wired: unique or random"),
    from_files("height", "grid rows"),
    from_files("width", "grid columns"),
    Setting{"steps", "--steps", kSome, &C::steps, R::kPositiveInteger, 0, 0, nullptr,
            "CA steps per rollout"},
    Setting{"batch", "--batch", kSome, &C::batch, R::kPositiveInteger, 0, 0, nullptr,
            "random initial grids per epoch"},
    // Training.
    Setting{"epochs", "--epochs", kEvery, &C::epochs, R::kPositiveInteger, 0, 0, nullptr,
            "optimizer steps"},
    Setting{"lr", "--lr", kEvery, &C::learning_rate, R::kPositiveNumber, 0, 0, nullptr,
            "AdamW learning rate"},
    Setting{"adam_eps", "--adam-eps", kEvery, &C::adam_eps, R::kRate, 0, 0, &GivenOptions::adam_eps,
            "AdamW's epsilon, added to the root of the second moment, from 1.2e-38 to 1 (the "
            "notebook: 1e-8; smaller lets tiny gradients take whole steps)",
            false, false},
    Setting{"adam_beta1", "--adam-beta1", kEvery, &C::adam_beta1, R::kDecayRate, 0, 0, nullptr,
            "AdamW's decay rate of the first moment, from 0 to below 1"},
    Setting{"adam_beta2", "--adam-beta2", kEvery, &C::adam_beta2, R::kDecayRate, 0, 0, nullptr,
            "AdamW's decay rate of the second moment, from 0 to below 1"},
    Setting{"weight_decay", "--weight-decay", kEvery, &C::weight_decay, R::kNumberFromTo, 0, 1,
            nullptr, "AdamW's decoupled weight decay on every logit, from 0 to 1"},
    Setting{"periodic", nullptr, kFiles, &C::periodic, R::kSwitch, 0, 0, nullptr,
            "cells beyond the edges wrap around (a torus); false: they read 0"},
    Setting{"async", nullptr, kFiles, &C::async, R::kSwitch, 0, 0, nullptr,
            "asynchronous steps: each cell updates with probability fire_rate"},
    Setting{"fire_rate", "--fire-rate", kSome, &C::fire_rate, R::kRate, 0, 0, nullptr,
            "probability that a cell updates in an async step"},
    Setting{"loss_channels", "--loss-channels", kSome, kByHand, R::kOther, 0, 0, nullptr,
            "channels compared with the target", false},
    Setting{"loss_steps", "--loss-steps", kEvery, &C::loss_steps, R::kPositiveInteger, 0, 0,
            nullptr,
            "grow and stay: compare the last N states with the target, not only the last (with "
            "--steps T+N-1 the picture grown by step T must stay until T+N-1)"},
    Setting{"stay", "--stay", kEvery, &C::stay, R::kSwitch, 0, 0, nullptr,
            "grow and stay: every other epoch starts from the hard circuit's own state at a step "
            "k of its growth (1 to T in turn) instead of the task's start, so that the loss T "
            "steps later teaches the grown picture to stay; the run is solved only when the "
            "picture stays exact from T to 2T (synchronous pictures only; docs/training.md, "
            "\"Grow and stay\")"},
    Setting{"seed", "--seed", kEvery, &C::seed, R::kNonNegativeInteger, 0, 0, nullptr,
            "seed for wiring, data and masks"},
    Setting{"random_streams", "--random-streams", kEvery, kByHand, R::kOther, 0, 0, nullptr,
            "jax: the notebook's JAX threefry streams (its exact wiring and data for a seed); "
            "dlca: dlca's own streams (any 64-bit seed)"},
    // How to train: the recipe, then what it fills in unless given.
    Setting{"recipe", "--recipe", kEvery, kByHand, R::kOther, 0, 0, nullptr,
            "robust (the default): stop at the first epoch with hard loss 0 and keep those "
            "parameters, repair an unsolved circuit; for checkerboards and Game of Life --starts "
            "auto (4 at a time, successive halving) and input-wise gates, for an image target 4 "
            "starts to the end, noise and sharpening over the second half of the epochs; paper: "
            "the notebook's recipe, bit for bit (docs/training.md, \"Training recipes\")"},
    Setting{"gates", "--gates", kEvery, kByHand, R::kOther, 0, 0, &GivenOptions::gates,
            "how each gate is trained: softmax (the notebook's 16 logits, one per op) or "
            "inputwise (4 angles, one per input pattern: larger gradients at the pass-through "
            "start; no --noise); default: inputwise with robust for "
            "checkerboards and Game of Life, else softmax (docs/training.md, \"Training "
            "recipes\")"},
    Setting{"starts", "--starts", kEvery, kByHand, R::kOther, 0, 0, &GivenOptions::starts,
            "candidates trained side by side from seeds derived from --seed; the first to solve "
            "is kept (1 = a plain run); auto: 4 at a time with successive halving (a candidate "
            "lagging the better half at a quarter or half of its epochs stops, a new start takes "
            "its place) until one solves or --budget runs out (default: robust's, auto; 4 for an "
            "image target)"},
    Setting{"halving", nullptr, kFiles, &C::halving, R::kSwitch, 0, 0, &GivenOptions::starts,
            "successive halving of the starts (\"starts\": \"auto\" sets it)"},
    Setting{"budget_epochs", "--budget", kEvery, &C::budget_epochs, R::kNonNegativeInteger, 0, 0,
            nullptr,
            "--starts auto: epochs of candidates trained in all before the run ends unsolved (0, "
            "the default: starts x --epochs, the cost of that many full starts)",
            false},
    Setting{"budget_minutes", "--budget-minutes", kEvery, &C::budget_minutes, R::kNumberFromTo, 0,
            1e6, nullptr,
            "--starts auto: wall minutes before the run ends unsolved (as well as --budget; the "
            "run then depends on the machine's speed)",
            false, false},
    Setting{"stop_when_solved", "--stop-when-solved", kEvery, &C::stop_when_solved,
            R::kNonNegativeInteger, 0, 0, nullptr,
            "stop once the hard loss has been 0 for N consecutive epochs (0 = never)"},
    // Schedules over the epochs: sharpening, noise and hardening.
    Setting{"sharpen_to", "--sharpen-to", kEvery, &C::sharpen_to, R::kRate, 0, 0,
            &GivenOptions::schedule,
            "forward-only sharpening: the forward pass's final temperature, in (0, 1] (1 = off); "
            "the gradient still flows through the undivided softmax (input-wise gates: the "
            "log-odds of each pattern's output are divided)"},
    Setting{"sharpen_start", "--sharpen-start", kEvery, &C::sharpen_start, R::kNonNegativeInteger,
            0, 0, &GivenOptions::schedule,
            "epoch where the forward temperature starts falling from 1"},
    Setting{"sharpen_end", "--sharpen-end", kEvery, &C::sharpen_end, R::kNonNegativeInteger, 0, 0,
            &GivenOptions::schedule,
            "epoch where it reaches --sharpen-to (geometrically) and stays"},
    Setting{"noise", "--noise", kEvery, &C::noise, R::kNumberFromTo, 0, 100,
            &GivenOptions::schedule,
            "Gumbel noise of this scale on the soft pass's logits, redrawn every epoch (0 = off)",
            true, false},
    Setting{"noise_start", "--noise-start", kEvery, &C::noise_start, R::kNonNegativeInteger, 0, 0,
            &GivenOptions::schedule, "epoch from which --noise applies"},
    Setting{"noise_end", "--noise-end", kEvery, &C::noise_end, R::kNonNegativeInteger, 0, 0,
            &GivenOptions::schedule, "epoch from which --noise stops (0 = it never stops)"},
    Setting{"repeat_schedule", "--repeat-schedule", kEvery, &C::repeat_schedule,
            R::kNonNegativeInteger, 0, 0, nullptr,
            "repeat the noise and sharpening every N epochs from where the first of them begins: "
            "the temperature returns to 1 and the noise phase comes back, for as many rounds as "
            "--epochs holds (0 = once; docs/training.md, \"Repeating the schedule\")"},
    Setting{
        "rounds", "--rounds", kEvery, &C::rounds, R::kIntegerFromTo, 0, 16, &GivenOptions::rounds,
        "a run still unsolved after --epochs trains up to N more rounds of the noise and "
        "sharpening (each --repeat-schedule epochs, or from where they begin to --epochs), "
        "stopping once solved; --repair is tried before them and after (0 = none; robust on a "
        "picture grown from a fixed start: 2, with --stay 4; docs/training.md, \"More rounds\")"},
    Setting{"harden", "--harden", kEvery, &C::harden, R::kIntegerFromTo, 0, 16, nullptr,
            "progressive hardening: in N stages spread evenly from --harden-start to "
            "--harden-end, fix the most confident free gates to their hard op (1/2, 3/4, 7/8, ... "
            "of all gates after each stage) while the others train on (0 = off)"},
    Setting{"harden_start", "--harden-start", kEvery, &C::harden_start, R::kNonNegativeInteger, 0,
            0, nullptr, "epoch of the first hardening stage"},
    Setting{"harden_end", "--harden-end", kEvery, &C::harden_end, R::kNonNegativeInteger, 0, 0,
            nullptr, "epoch that ends the hardening stages (0 = the run's --epochs)"},
    Setting{"grad_norm", "--grad-norm", kEvery, &C::grad_norm, R::kSwitch, 0, 0, nullptr,
            "divide each layer's gradient by its L2 norm before AdamW (as the Growing NCA "
            "notebooks do; off in the notebook's recipe)"},
    Setting{"hard_feedback", "--hard-feedback", kEvery, &C::hard_feedback, R::kNumberFromTo, 0, 100,
            nullptr,
            "hard-error feedback: in epochs whose forward pass is sharpened (--sharpen-to below "
            "1), add this times 2 (hard - target) to the gradient of the soft final state, the "
            "hard circuit's own errors carried back through the soft circuit, from 0 to 100 (0 = "
            "off; docs/training.md, \"Hard-error feedback\")",
            true, false},
    Setting{"lr_decay_to", "--lr-decay-to", kEvery, &C::lr_decay_to, R::kNumberFromTo, 0, 1e6,
            nullptr,
            "learning-rate decay: AdamW's learning rate falls along a half cosine from --lr to "
            "this one, from --lr-decay-start to --lr-decay-end, and stays there (0 = off)",
            true, false},
    Setting{"lr_decay_start", "--lr-decay-start", kEvery, &C::lr_decay_start,
            R::kNonNegativeInteger, 0, 0, nullptr, "epoch where the learning rate starts falling"},
    Setting{"lr_decay_end", "--lr-decay-end", kEvery, &C::lr_decay_end, R::kNonNegativeInteger, 0,
            0, nullptr, "epoch where it reaches --lr-decay-to (0 = the run's --epochs)"},
    Setting{"repair", "--repair", kEvery, &C::repair, R::kSwitch, 0, 0, nullptr,
            "when training ends with hard loss above 0, try each uncertain gate's other likely ops "
            "one at a time, keeping changes that lower it, then, if a few bits are left, every op "
            "of every gate (from there, then from the trained circuit); the circuit is kept only "
            "if it reaches 0 (--no-repair: not even with --recipe robust)"},
};

// `text` with `key` written `option` where it names the setting: as a whole word (not part of a
// longer name such as noise_start), and for a key that is also a plain word (noise, gates, steps)
// only where it can be nothing else: at the start, before its value in brackets ("steps (4)"),
// or after "with" or "without".
std::string with_key_named(const std::string& text, std::string_view key, std::string_view option) {
  const auto in_word = [](char c) {
    return std::isalnum((unsigned char)c) || c == '_' || c == '-';
  };
  const auto ends_with = [&](size_t at, std::string_view word) {
    return at >= word.size() &&
           std::string_view(text).substr(at - word.size(), word.size()) == word;
  };
  const bool a_name = key.find('_') != std::string_view::npos;
  std::string out;
  size_t from = 0;
  for (size_t at = text.find(key); at != std::string::npos;
       at = text.find(key, std::max(at + 1, from))) {
    const size_t end = at + key.size();
    if ((at > 0 && in_word(text[at - 1])) || (end < text.size() && in_word(text[end]))) continue;
    if (!a_name && at > 0 && text.compare(end, 2, " (") != 0 && !ends_with(at, "with ") &&
        !ends_with(at, "without "))
      continue;
    out.append(text, from, at - from).append(option);
    from = end;
  }
  return out.append(text, from);
}

}  // namespace

std::span<const Setting> training_settings() { return kSettings; }

const Setting* find_setting(std::string_view key) {
  for (const Setting& s : kSettings)
    if (key == s.key) return &s;
  return nullptr;
}

void apply_settings(nlohmann::json& config, const nlohmann::json& given) {
  if (given.contains("recipe")) {
    config["recipe"] = given.at("recipe");
    for (const char* key : kRecipeKeys)  // the recipe's values, unless given
      if (!given.contains(key)) config.erase(key);
  }
  if (given.contains("starts") && !given.contains("halving")) config.erase("halving");
  // (validation would blame update_layers, which the user did not give)
  if (given.contains("channels") && !given.contains("update_layers") &&
      given.at("channels") != config.value("channels", nlohmann::json()))
    throw ConfigError(
        "channels: the update layers are sized for the experiment's channels (update_layers[0] = "
        "channels + kernels x channels x perception outputs); give update_layers with it, or the "
        "channels option of a picture (dlca train image, dlca sweep --target, Python's "
        "train(\"image\", ...)), which scales them");
  for (const auto& [key, value] : given.items())
    if (key != "recipe") config[key] = value;
  // (validate refuses only other values than the notebook's, which every file carries)
  if (given.contains("fire_rate") && !config.value("async", false))
    throw ConfigError(
        "fire_rate: has no effect without async (a synchronous step updates every cell)");
}

std::string with_option_names(const std::string& message,
                              const std::function<bool(const Setting&)>& offered) {
  std::string text = message;
  for (const Setting& s : kSettings)
    if (s.option && (!offered || offered(s))) text = with_key_named(text, s.key, s.option);
  return text;
}

}  // namespace dlca
