// Training runs of multi-start candidates on the CPU for the tests, as the programs run them
// (run_training with new starts made and freed), with a backend that diverges on demand.
#pragma once

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/train/checkerboard.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/multi_start.hpp"
#include "dlca/train/training_run.hpp"

namespace dlca::testing {

// A CPU backend whose soft loss turns NaN from its (after + 1)-th training rollout on: the
// candidate that has it diverges there.
class DivergingBackend : public Backend {
 public:
  DivergingBackend(int after, int threads)
      : cpu_(CpuBackendOptions{.threads = threads}), after_(after) {}
  std::string name() const override { return "cpu"; }
  RolloutResult rollout(const Model& model, const Target& target, const RolloutBatch& batch,
                        const RolloutRequest& request) override {
    RolloutResult out = cpu_.rollout(model, target, batch, request);
    if (request.gradient && ++calls_ > after_) out.soft_loss = std::nan("");
    return out;
  }

 private:
  CpuBackend cpu_;
  int after_, calls_ = 0;
};

inline std::unique_ptr<Task> checkerboard_task(const ExperimentConfig& c) {
  return std::make_unique<CheckerboardTask>(c);
}

// A run of `config` on the CPU with `threads` in all; `diverging[k]` > 0: start k's backend
// diverges after that many epochs. New starts (a halving run) are made and freed as the programs
// do. The task is `make_task`'s (the checkerboard's unless given); `on_release` sees each start
// released before its trainer is freed.
struct Run {
  std::vector<TrainingCandidate> candidates;
  TrainingSummary summary;
};
inline Run train_candidates(const ExperimentConfig& config, int threads,
                            std::vector<int> diverging = {}, const std::string& save = "",
                            int stop_after = 0, ModelFile* resumed = nullptr,
                            const MakeTask& make_task = checkerboard_task,
                            const std::function<void(const Run&, int start)>& on_release = {}) {
  Run run;
  diverging.resize(64, 0);
  const MakeBackend backend_of = [&](int start, int t) -> std::unique_ptr<Backend> {
    if (diverging[size_t(start)] > 0)
      return std::make_unique<DivergingBackend>(diverging[size_t(start)], t);
    return std::make_unique<CpuBackend>(CpuBackendOptions{.threads = t});
  };
  std::optional<HalvingRecord> halving;
  if (resumed && resumed->multi_start) halving = resumed->multi_start->halving;
  run.candidates = make_candidates(config, make_task, backend_of, threads, resumed, "test");
  std::vector<Trainer*> trainers;
  for (auto& c : run.candidates) trainers.push_back(c.trainer.get());
  TrainingRunOptions options;
  options.epochs = last_epoch(config);  // (with its rounds, as start_training sets it)
  options.threads = threads;
  options.save_path = save;
  int rounds = 0;
  CallbackObserver stopper;
  stopper.on_round = [&](const TrainingRound&) { return ++rounds < stop_after; };
  if (stop_after > 0) options.observers = {&stopper};
  std::ostringstream out;
  const int per_start = threads_per_start(threads, config.starts);
  run.summary = run_training(
      trainers, config, "cpu", options, out,
      [&](int start) {
        run.candidates.push_back(new_candidate(config, start, make_task, backend_of, per_start));
        return run.candidates.back().trainer.get();
      },
      [&](int start) {
        if (on_release) on_release(run, start);
        run.candidates[size_t(start)] = {};
      },
      halving ? &*halving : nullptr);
  return run;
}

}  // namespace dlca::testing
