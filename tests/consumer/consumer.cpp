// Trains the installed checkerboard experiment for a few epochs through dlca's public headers and
// prints what it got: proof that an installed dlca can be built on.
#include <cstdio>

#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/train/experiment_file.hpp"
#include "dlca/train/trainer.hpp"

int main() {
  dlca::ExperimentFile file = dlca::load_experiment("checkerboard_sync", DATA_DIR);
  file.config.epochs = 3;
  const auto task = dlca::make_task(file, file.config);
  dlca::CpuBackend backend;
  dlca::Trainer trainer(dlca::make_model(file.config), *task, backend);
  dlca::EpochStats last;
  for (int epoch = 0; epoch < 3; ++epoch) last = trainer.run_epoch();
  std::printf("consumer: 3 epochs, soft loss %.4f, hard loss %.0f\n", last.soft_loss,
              last.hard_loss);
  return 0;
}
