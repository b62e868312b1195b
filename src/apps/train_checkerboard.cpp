// train_checkerboard: trains the paper's synchronous checkerboard (SPEC §7.2) on the CPU backend.
// Defaults are the paper's configuration: seed 23, 500 epochs, batch 2, 20 steps, lr 0.05.
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include "dlca/atomic_file.hpp"
#include "dlca/checkerboard.hpp"
#include "dlca/cpu_backend.hpp"
#include "dlca/training_run.hpp"

int main(int argc, char** argv) {
  dlca::ExperimentConfig config = dlca::checkerboard_sync_config();
  dlca::CpuBackendOptions backend_options;
  dlca::TrainingRunOptions run;
  bool keep_activations = false;
  std::string streams = "jax";

  CLI::App app{
      "Train a Differentiable Logic CA to grow a checkerboard (Miotti et al. 2025, synchronous).\n"
      "Defaults reproduce the paper's configuration."};
  app.add_option("--epochs", config.epochs, "optimizer steps")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--seed", config.seed, "seed for wiring, data and masks")->capture_default_str();
  app.add_option("--threads", backend_options.threads, "worker threads (0 = all cores)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--lr", config.learning_rate, "AdamW learning rate")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--batch", config.batch, "random initial grids per epoch")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--steps", config.steps, "CA steps per rollout")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--size", config.height, "grid side (square grid)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--random-streams", streams,
                 "jax: the notebook's JAX threefry streams (its exact wiring and data for a "
                 "seed); dlca: dlca's own streams (any 64-bit seed)")
      ->capture_default_str()
      ->check(CLI::IsMember({"dlca", "jax"}));
  app.add_option("--log", run.log_path,
                 "write a CSV of every epoch (epoch,soft_loss,hard_loss,active_gates,ms)");
  app.add_option("--save", run.save_path,
                 "write the trained parameters and wiring (dlca-params JSON)");
  app.add_option("--summary", run.summary_path, "write the final summary as JSON");
  app.add_flag("--keep-activations", keep_activations,
               "store every step's activations instead of recomputing them (more memory)");
  app.add_option("--tile-cells", backend_options.tile_cells,
                 "cells per parallel tile (0 = automatic)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--print-every", run.print_every, "epochs between lines when not on a terminal")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_flag("--quiet", run.quiet, "no progress output");
  CLI11_PARSE(app, argc, argv);

  config.width = config.height;
  config.random_streams = streams == "jax" ? dlca::RandomStreams::kJax : dlca::RandomStreams::kDlca;
  backend_options.checkpointing = !keep_activations;
  run.epochs = config.epochs;
  try {
    dlca::Model model = dlca::make_model(config);
    dlca::CheckerboardTask task(config);
    dlca::CpuBackend backend(backend_options);
    dlca::Trainer trainer(std::move(model), task, backend);
    const auto summary = dlca::run_training(trainer, backend.name(), run, std::cout);
    return summary.interrupted ? 130 : 0;
  } catch (const dlca::ConfigError& e) {
    std::fprintf(stderr, "train_checkerboard: invalid configuration: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "train_checkerboard: %s\n", e.what());
    return 1;
  }
}
