// Multi-start candidates: their seeds and configurations, and building them fresh or from a
// checkpoint.
#include "dlca/train/multi_start.hpp"

#include <algorithm>
#include <exception>
#include <functional>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "dlca/core/option_names.hpp"
#include "dlca/core/parallel_for_index.hpp"
#include "dlca/core/random.hpp"

namespace dlca {

uint64_t start_seed(uint64_t run_seed, int start) {
  if (start == 0) return run_seed;
  return derive_key(run_seed, 0x5354415254ull + uint64_t(start)) & 0xFFFFFFFFull;  // "START" + k
}

ExperimentConfig start_config(const ExperimentConfig& run, int start) {
  ExperimentConfig c = run;
  c.seed = start_seed(run.seed, start);
  c.starts = 1;
  c.halving = false;  // a candidate is one plain run; the pool does the halving
  c.budget_epochs = 0;
  c.budget_minutes = 0.0f;
  return c;
}

int threads_per_start(int threads, int starts) {
  const int total = threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
  if (starts <= 1) return threads;
  return std::max(1, total / starts);
}

namespace {

// Candidate `start` of `run` with `model`, and its state when it continues a checkpoint.
TrainingCandidate candidate_with(const ExperimentConfig& run, int start, Model model,
                                 std::optional<TrainingState> state, const MakeTask& make_task,
                                 const MakeBackend& make_backend, int threads, bool resumed,
                                 const std::string& resumed_path) {
  TrainingCandidate c;
  c.task = make_task(start_config(run, start));
  c.backend = make_backend(start, threads);
  model.config.epochs = run.epochs;
  model.config.stop_when_solved = run.stop_when_solved;
  model.config.rounds = run.rounds;
  model.config.repair = run.repair;
  // The schedules may differ from the checkpoint's after its epoch, and the grow-and-stay window
  // may go on to a later step (check_resume).
  take_schedule(run, model.config);
  const bool longer_window = model.config.steps != run.steps;
  model.config.steps = run.steps;
  model.config.loss_steps = run.loss_steps;
  try {
    c.trainer = std::make_unique<Trainer>(std::move(model), *c.task, *c.backend);
  } catch (const TaskMismatch& e) {  // a checkpoint of another task: the options contradict it
    if (!resumed) throw;
    throw ResumeMismatch(
        fmt::format("{}: {}", option_with_value("resume", resumed_path), e.what()));
  }
  if (state) {
    restore_training(*c.trainer, std::move(*state));
    if (longer_window) c.trainer->set_window_start(c.trainer->epoch());
  }
  return c;
}

// The candidates a halving run's checkpoint holds, by start (null for those it no longer held).
std::vector<TrainingCandidate> resumed_halving_run(const ExperimentConfig& run,
                                                   const MakeTask& make_task,
                                                   const MakeBackend& make_backend, int threads,
                                                   ModelFile& resumed,
                                                   const std::string& resumed_path) {
  MultiStartRecord* record = resumed.multi_start ? &*resumed.multi_start : nullptr;
  if (record && !record->halving && record->candidates.empty())
    throw settled_run_error(resumed_path, *record);
  if (!record || !record->halving)
    throw ResumeMismatch(fmt::format("{}: not a checkpoint of a {} run",
                                     option_with_value("resume", resumed_path),
                                     option_with_value("starts", "auto")));
  std::vector<TrainingCandidate> out(size_t(record->starts));
  for (StartState& saved : record->candidates) {
    const int k = saved.start;
    Model model = k == record->chosen ? std::move(resumed.model) : make_model(start_config(run, k));
    model.logits = std::move(saved.logits);
    out[size_t(k)] = candidate_with(run, k, std::move(model), std::move(saved.training), make_task,
                                    make_backend, threads, true, resumed_path);
  }
  return out;
}

}  // namespace

ResumeMismatch settled_run_error(const std::string& path, const MultiStartRecord& record) {
  const uint64_t seed = start_seed(record.run_seed, record.chosen);
  return ResumeMismatch(fmt::format(
      "{}: the run was settled by start {} (seed {}); the file keeps only "
      "that candidate (continue it alone with {} {})",
      option_with_value("resume", path), record.chosen, seed,
      option_with_value("seed", std::to_string(seed)), option_with_value("starts", "1")));
}

TrainingCandidate new_candidate(const ExperimentConfig& run, int start, const MakeTask& make_task,
                                const MakeBackend& make_backend, int threads) {
  return candidate_with(run, start, make_model(start_config(run, start)), std::nullopt, make_task,
                        make_backend, threads, false, "");
}

std::vector<TrainingCandidate> make_candidates(const ExperimentConfig& run,
                                               const MakeTask& make_task,
                                               const MakeBackend& make_backend, int threads,
                                               ModelFile* resumed,
                                               const std::string& resumed_path) {
  const int per_start = threads_per_start(threads, run.starts);
  std::vector<TrainingCandidate> out;
  if (resumed && run.halving)
    return resumed_halving_run(run, make_task, make_backend, per_start, *resumed, resumed_path);
  for (int k = 0; k < run.starts; ++k) {
    if (!resumed) {
      out.push_back(new_candidate(run, k, make_task, make_backend, per_start));
      continue;
    }
    Model model;
    std::optional<TrainingState> state;
    if (run.starts == 1) {  // a plain checkpoint, or one candidate of a multi-start run
      model = std::move(resumed->model);
      state = std::move(resumed->training);
    } else {
      MultiStartRecord* record = resumed->multi_start ? &*resumed->multi_start : nullptr;
      if (record && record->candidates.empty()) throw settled_run_error(resumed_path, *record);
      if (!record)
        throw ResumeMismatch(fmt::format("{}: a single-start checkpoint, not one of {} starts",
                                         option_with_value("resume", resumed_path), run.starts));
      StartState& saved = record->candidates.at(size_t(k));
      const ExperimentConfig config = start_config(run, k);
      model = k == record->chosen ? std::move(resumed->model) : make_model(config);
      model.logits = std::move(saved.logits);
      state = std::move(saved.training);
    }
    out.push_back(candidate_with(run, k, std::move(model), std::move(state), make_task,
                                 make_backend, per_start, true, resumed_path));
  }
  return out;
}

namespace {

// The population every candidate trains in, when they all train on the device of one (so that
// their epochs run together); null otherwise.
DevicePopulation* shared_population(std::span<Trainer* const> candidates) {
  DevicePopulation* shared = nullptr;
  for (const Trainer* t : candidates) {
    DevicePopulation* p = t->device() ? t->device()->population() : nullptr;
    if (!p || (shared && p != shared)) return nullptr;
    shared = p;
  }
  return shared;
}

}  // namespace

std::vector<CandidateEpoch> run_candidate_epochs(std::span<Trainer* const> candidates,
                                                 tbb::task_arena& arena) {
  std::vector<CandidateEpoch> results(candidates.size());
  // One candidate's epoch, or why it diverged; any other failure is thrown.
  const auto record = [&](size_t k, const std::function<EpochStats()>& epoch) {
    try {
      results[k].stats = epoch();
    } catch (const TrainingDiverged& e) {
      results[k].diverged = e.what();
    }
  };
  DevicePopulation* population = candidates.size() > 1 ? shared_population(candidates) : nullptr;
  if (population) {
    std::vector<DeviceTraining*> members;
    std::vector<DeviceEpochRequest> requests;
    for (Trainer* t : candidates) {
      members.push_back(t->device());
      requests.push_back(t->begin_device_epoch());
    }
    const std::vector<DeviceEpoch> epochs = population->train_epochs(members, requests);
    for (size_t k = 0; k < candidates.size(); ++k)
      record(k, [&] { return candidates[k]->finish_device_epoch(epochs[k]); });
    return results;
  }
  const bool on_device = std::any_of(candidates.begin(), candidates.end(),
                                     [](const Trainer* t) { return t->on_device(); });
  if (candidates.size() == 1 || on_device) {
    for (size_t k = 0; k < candidates.size(); ++k)
      record(k, [&] { return candidates[k]->run_epoch(); });
  } else {
    arena.execute([&] {
      parallel_for_index(candidates.size(),
                         [&](size_t k) { record(k, [&] { return candidates[k]->run_epoch(); }); });
    });
  }
  return results;
}

}  // namespace dlca
