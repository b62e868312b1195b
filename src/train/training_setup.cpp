// Building a run's candidates and backends (see training_setup.hpp).
#include "dlca/train/training_setup.hpp"

#include <array>
#include <string_view>

#include <fmt/format.h>

#include "dlca/core/config_json.hpp"
#include "dlca/core/memory_budget.hpp"
#include "dlca/core/option_names.hpp"
#include "dlca/train/candidate_pool.hpp"

namespace dlca {

namespace {

// A configuration value as the user would type it: floats by fmt's shortest form (0.05, not
// 0.05000000074505806), the rest as JSON.
std::string shown_value(const nlohmann::json& value) {
  return value.is_number_float() ? fmt::format("{}", value.get<float>()) : value.dump();
}

// Keys that say only how long to train: a checkpoint may be resumed with other values.
// Also the repair at the end, which does not change the epochs.
bool is_run_length(std::string_view key) {
  return key == "epochs" || key == "stop_when_solved" || key == "repair" ||
         key == "budget_epochs" || key == "budget_minutes" || key == "rounds";
}

// Keys of the per-epoch schedules (sharpening, noise and progressive hardening: take_schedule's).
bool is_schedule(std::string_view key) {
  return key == "sharpen_to" || key == "sharpen_start" || key == "sharpen_end" || key == "noise" ||
         key == "noise_start" || key == "noise_end" || key == "harden" || key == "harden_start" ||
         key == "harden_end" || key == "repeat_schedule" || key == "lr_decay_to" ||
         key == "lr_decay_start" || key == "lr_decay_end";
}

// Whether two schedules give the same forward temperature, noise, hardened share and learning rate
// at every epoch before `epochs`: then a checkpoint written under one continues bit for bit under
// the other (a plain run's checkpoint can be continued with a schedule that starts later).
bool same_schedule_until(const ExperimentConfig& a, const ExperimentConfig& b, int64_t epochs) {
  for (int64_t e = 0; e < epochs; ++e)
    if (forward_temperature(a, e) != forward_temperature(b, e) ||
        noise_scale(a, e) != noise_scale(b, e) || hardened_share(a, e) != hardened_share(b, e) ||
        learning_rate_at(a, e) != learning_rate_at(b, e))
      return false;
  return true;
}

// The keys that set the states the loss compares (grow and stay).
bool is_loss_window(std::string_view key) { return key == "steps" || key == "loss_steps"; }

// Throws unless the checkpoint's configuration equals this run's, apart from how long to train, a
// sharpening schedule that differs only after the checkpoint's epoch and a longer grow-and-stay
// window (stays_longer); the message names every differing field, in the order of the
// configuration.
void require_same_config(const std::string& path, const ExperimentConfig& saved,
                         const ExperimentConfig& requested, int64_t saved_epoch) {
  const nlohmann::json a = config_to_json(saved), b = config_to_json(requested);
  const bool schedule_agrees = same_schedule_until(saved, requested, saved_epoch);
  const bool window_kept = stays_longer(saved, requested);
  std::string differences;
  for (const char* key : config_keys())
    if (!is_run_length(key) && !(is_schedule(key) && schedule_agrees) &&
        !(is_loss_window(key) && window_kept) && a.at(key) != b.at(key))
      differences += fmt::format("{}the checkpoint's {} is {} but this run's is {}",
                                 differences.empty() ? "" : "; ", key, shown_value(a.at(key)),
                                 shown_value(b.at(key)));
  // Equal keys, other rounds: the rounds' period follows --epochs when repeat_schedule is 0.
  if (differences.empty() && !schedule_agrees &&
      schedule_period(saved) != schedule_period(requested))
    differences = fmt::format(
        "its noise and sharpening repeat every {} epochs (from the {} it was started with), and "
        "this run's {} would repeat them every {}, before its epoch {}; give {}{}",
        schedule_period(saved), option_with_value("epochs", std::to_string(saved.epochs)),
        option_with_value("epochs", std::to_string(requested.epochs)), schedule_period(requested),
        saved_epoch, option_with_value("epochs", std::to_string(saved.epochs)),
        saved.rounds > 0
            ? fmt::format(", with {} above {} to train on", option_name("rounds"), saved.rounds)
            : std::string());
  // Equal keys, other stages or decay: hardening's end and the learning rate's follow --epochs when
  // harden_end or lr_decay_end is 0.
  if (differences.empty() && !schedule_agrees) {
    bool stages_differ = false;
    for (int64_t e = 0; e < saved_epoch; ++e)
      stages_differ = stages_differ || hardened_share(saved, e) != hardened_share(requested, e);
    // (what follows --epochs, the key that fixes it, what would change, what to keep)
    const auto [what, end_key, changed, kept] =
        stages_differ
            ? std::array{"hardening stages follow", "harden_end", "some", "them"}
            : std::array{"learning-rate decay follows", "lr_decay_end", "the learning rate", "it"};
    differences = fmt::format(
        "its {} the {} it was started with ({} 0), and this run's {} would change {} before its "
        "epoch {}; give {} to keep {}",
        what, option_with_value("epochs", std::to_string(saved.epochs)), end_key,
        option_with_value("epochs", std::to_string(requested.epochs)), changed, saved_epoch,
        option_with_value(end_key, std::to_string(saved.epochs)), kept);
  }
  const bool window_differs =
      saved.steps != requested.steps || saved.loss_steps != requested.loss_steps;
  if (!differences.empty())
    throw ResumeMismatch(fmt::format(
        "{}: {} (give the options of the run that wrote it{})", option_with_value("resume", path),
        differences,
        window_differs && !window_kept
            ? fmt::format("; to train a grown picture to stay longer, make {} and {} both larger "
                          "by the same number",
                          option_name("steps"), option_name("loss_steps"))
            : std::string()));
}

}  // namespace

bool stays_longer(const ExperimentConfig& saved, const ExperimentConfig& requested) {
  return requested.steps > saved.steps &&
         requested.steps - requested.loss_steps == saved.steps - saved.loss_steps;
}

void check_resume(const ModelFile& checkpoint, const std::string& path,
                  const ExperimentConfig& config) {
  // A multi-start run's checkpoint continues the whole run; once solved (only the chosen candidate
  // kept), that candidate alone (--starts 1 with its seed). An unsolved one is never cut down to
  // one candidate, not even when the chosen one has the run's own seed and --starts was forgotten.
  const bool whole_run = checkpoint.multi_start &&
                         (!checkpoint.multi_start->candidates.empty() ||
                          !(config.starts == 1 && config.seed == checkpoint.model.config.seed));
  // The epochs trained so far: the furthest candidate's, in a multi-start run's checkpoint.
  int64_t saved_epoch = checkpoint.training ? checkpoint.training->epoch : 0;
  if (checkpoint.multi_start)
    for (const StartState& c : checkpoint.multi_start->candidates)
      saved_epoch = std::max(saved_epoch, c.training.epoch);
  if (whole_run && checkpoint.multi_start->candidates.empty())
    throw settled_run_error(path, *checkpoint.multi_start);
  // A halving run's rungs follow from its epochs: they stay, or the scores recorded at them would
  // be read as another epoch's.
  if (whole_run && checkpoint.multi_start->halving && config.halving &&
      checkpoint.multi_start->halving->rungs != halving_rungs(config.epochs))
    throw ResumeMismatch(
        fmt::format("{}: a {} run halves at a quarter and half of {}; resume it with "
                    "the {} it was started with ({} may grow)",
                    option_with_value("resume", path), option_with_value("starts", "auto"),
                    option_name("epochs"), option_name("epochs"), option_name("budget_epochs")));
  // A longer window changes what the loss compares: a halving run's scores at its rungs and its
  // finished candidates would be judged against scores of the other window, and a run with no
  // epochs left would only relabel the model.
  const bool longer_window = stays_longer(checkpoint.model.config, config);
  if (longer_window && whole_run && checkpoint.multi_start->halving)
    throw ResumeMismatch(fmt::format(
        "{}: a {} run cannot go on with a longer {} window: its candidates were scored on the "
        "shorter one (continue the one it keeps alone, with {} and its seed)",
        option_with_value("resume", path), option_with_value("starts", "auto"),
        option_name("loss_steps"), option_with_value("starts", "1")));
  if (longer_window && last_epoch(config) <= saved_epoch)
    throw ResumeMismatch(fmt::format(
        "{}: the checkpoint is at epoch {}, and a longer {} window needs epochs to train on: give "
        "{} above it",
        option_with_value("resume", path), saved_epoch, option_name("loss_steps"),
        option_name("epochs")));
  if (last_epoch(config) < saved_epoch)
    throw ResumeMismatch(fmt::format(
        "{}: the checkpoint is at epoch {}, past epoch {}, where this run ends "
        "({}, else the experiment's \"epochs\", is the total to reach{})",
        option_with_value("resume", path), saved_epoch, last_epoch(config), option_name("epochs"),
        config.rounds > 0 ? fmt::format(", before {} more",
                                        option_with_value("rounds", std::to_string(config.rounds)))
        : saved_epoch > checkpoint.model.config.epochs
            ? fmt::format(" without the {} it was trained with", option_name("rounds"))
            : std::string()));
  require_same_config(path,
                      whole_run ? checkpoint.multi_start->run_config(checkpoint.model.config)
                                : checkpoint.model.config,
                      config, saved_epoch);
}

std::vector<Trainer*> PreparedTraining::trainers() const {
  std::vector<Trainer*> all;
  for (const TrainingCandidate& c : candidates) all.push_back(c.trainer.get());
  return all;
}

Trainer* PreparedTraining::add_start(int start) {
  if (size_t(start) != candidates.size() || !make_start)
    throw std::logic_error("add_start: not the next start");
  candidates.push_back(make_start(start));
  return candidates.back().trainer.get();
}

void PreparedTraining::release(int start) {
  TrainingCandidate& c = candidates.at(size_t(start));
  c.trainer.reset();
  c.task.reset();
  if (c.backend.get() != static_cast<Backend*>(vulkan)) c.backend.reset();
}

ExperimentConfig resolve_recipe(const ExperimentConfig& config, const MakeTask& make_task,
                                const ModelFile* resumed) {
  if (config.recipe != Recipe::kRobust) return config;
  validate(config);  // before a task builds its data for an impossible grid
  ExperimentConfig c = config;
  if (resumed && c.noise == 0.0f && c.sharpen_to == 1.0f && !c.given.schedule) {
    const ExperimentConfig& saved = resumed->model.config;  // every candidate has the same schedule
    c.noise = saved.noise, c.noise_start = saved.noise_start, c.noise_end = saved.noise_end;
    c.sharpen_to = saved.sharpen_to, c.sharpen_start = saved.sharpen_start;
    c.sharpen_end = saved.sharpen_end;
    c.given.schedule = true;  // the checkpoint's, also when it had none (--noise 0 given then)
  }
  if (resumed && !c.given.gates) {  // the checkpoint's kind of gates, as its schedule
    c.gates = resumed->model.config.gates;
    c.given.gates = true;
  }
  return with_recipe_schedule(c, make_task(c)->describe().kind == TaskKind::kImage);
}

uint64_t cpu_training_memory_bytes(const ExperimentConfig& config,
                                   const CpuBackendOptions& options) {
  return uint64_t(config.starts) * cpu_training_bytes(config, options) +
         5 * checkpoint_bytes_estimate(config);
}

PreparedTraining prepare_training(const ExperimentConfig& config, const MakeTask& make_task,
                                  const BackendChoice& choice, ModelFile* resumed,
                                  const std::string& resume_path, uint64_t max_memory) {
  validate(config);  // before a task builds its data for an impossible grid
  if (resumed) check_resume(*resumed, resume_path, config);
  PreparedTraining prepared;
  prepared.config = config;
  bool first_backend = true;
  const auto backend_of = [&](int, int threads) -> std::unique_ptr<Backend> {
    // The candidates on a Vulkan device form one population: their epochs run together.
    if (prepared.vulkan) return prepared.vulkan->add_member();
    BackendChoice own = choice;
    own.cpu.threads = threads;
    ChosenBackend chosen = make_backend(own);
    if (first_backend) {
      prepared.note = chosen.note;
      prepared.vulkan = chosen.vulkan;
      prepared.backend_name = chosen.backend->name();
      first_backend = false;
    }
    return std::move(chosen.backend);
  };
  if (resumed && config.halving && resumed->multi_start && resumed->multi_start->halving)
    prepared.resumed_halving = resumed->multi_start->halving;
  prepared.candidates =
      make_candidates(config, make_task, backend_of, choice.cpu.threads, resumed, resume_path);
  if (config.halving) {  // new starts as the first ones: members of its population, or own threads
    const int per_start = threads_per_start(choice.cpu.threads, config.starts);
    VulkanBackend* const vulkan = prepared.vulkan;
    prepared.make_start = [config, make_task, choice, per_start, vulkan](int start) {
      const MakeBackend backend_of = [&](int, int threads) -> std::unique_ptr<Backend> {
        if (vulkan) return vulkan->add_member();
        BackendChoice own = choice;
        own.cpu.threads = threads;
        return std::move(make_backend(own).backend);
      };
      return new_candidate(config, start, make_task, backend_of, per_start);
    };
  }
  // The backend sets the order of float sums: a resume stays on the one that trained it (a
  // checkpoint without "backend" was trained on the CPU).
  if (resumed) {  // the file's state and each multi-start candidate's (moved from: flags kept)
    std::vector<bool> trained_on_vulkan;
    if (resumed->training) trained_on_vulkan.push_back(resumed->training->vulkan);
    if (resumed->multi_start)
      for (const StartState& c : resumed->multi_start->candidates)
        trained_on_vulkan.push_back(c.training.vulkan);
    const auto name = [](bool vulkan) { return vulkan ? "a Vulkan device" : "the CPU"; };
    for (const bool vulkan : trained_on_vulkan)
      if (vulkan != (prepared.vulkan != nullptr))
        throw ConfigError(fmt::format(
            "{}: was trained on {}, this run is on {}; give {} to continue it bit-identically",
            option_with_value("resume", resume_path), name(vulkan),
            name(prepared.vulkan != nullptr),
            option_with_value("backend", vulkan ? "vulkan" : "cpu")));
  }
  // A CPU run's tile size sets the order of its float sums: a resume keeps the tile it used (a
  // checkpoint without "tile_cells" was trained with the automatic size).
  if (resumed && resumed->training && !prepared.vulkan) {
    const int trained = resumed->training->tile_cells.value_or(0);
    if (training_tile_cells(config, trained) != training_tile_cells(config, choice.cpu.tile_cells))
      throw ConfigError(fmt::format(
          "{}: {} was trained with {}-cell tiles ({}), this run would use {}; give {} to "
          "continue it bit-identically",
          option_name("tile_cells"), resume_path, training_tile_cells(config, trained),
          trained == 0 ? option_name("tile_cells") + " left out"
                       : option_with_value("tile_cells", std::to_string(trained)),
          training_tile_cells(config, choice.cpu.tile_cells),
          option_with_value("tile_cells", std::to_string(trained))));
  }
  if (!prepared.vulkan)  // before the rollouts allocate their grids
    check_memory(cpu_training_memory_bytes(config, choice.cpu), "training on the CPU", max_memory);
  return prepared;
}

std::vector<EpochStats> measured_epochs(const Trainer& trainer) {
  std::vector<EpochStats> all = trainer.history();
  if (trainer.undone_epoch()) all.push_back(*trainer.undone_epoch());
  return all;
}

}  // namespace dlca
