// Building a run's candidates and backends (see training_setup.hpp).
#include "dlca/training_setup.hpp"

#include "dlca/memory_budget.hpp"

namespace dlca {

std::vector<Trainer*> PreparedTraining::trainers() const {
  std::vector<Trainer*> all;
  for (const TrainingCandidate& c : candidates) all.push_back(c.trainer.get());
  return all;
}

PreparedTraining prepare_training(const ExperimentConfig& config, const MakeTask& make_task,
                                  const BackendChoice& choice, ModelFile* resumed,
                                  const std::string& resume_path, uint64_t max_memory) {
  PreparedTraining prepared;
  const auto backend_of = [&](int start, int threads) {
    BackendChoice own = choice;
    own.cpu.threads = threads;
    ChosenBackend chosen = make_backend(own);
    if (start == 0) {
      prepared.note = chosen.note;
      prepared.vulkan = chosen.vulkan;
    }
    return std::move(chosen.backend);
  };
  prepared.candidates =
      make_candidates(config, make_task, backend_of, choice.cpu.threads, resumed, resume_path);
  prepared.backend_name = prepared.candidates[0].backend->name();
  if (!prepared.vulkan)  // before the rollouts allocate their grids
    check_memory(uint64_t(config.starts) * cpu_training_bytes(config, choice.cpu),
                 "training on the CPU", max_memory);
  return prepared;
}

std::vector<EpochStats> measured_epochs(const Trainer& trainer) {
  std::vector<EpochStats> all = trainer.history();
  if (trainer.undone_epoch()) all.push_back(*trainer.undone_epoch());
  return all;
}

}  // namespace dlca
