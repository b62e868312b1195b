// Command-line options shared by every training program (train_checkerboard, train_gol, ...), and
// the code that turns them into a run on the CPU backend. Only the programs' main files include it.
#pragma once

#include <cstdio>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "dlca/cpu_backend.hpp"
#include "dlca/training_run.hpp"

namespace dlca::cli {

struct TrainingCli {
  ExperimentConfig config;
  CpuBackendOptions backend;
  TrainingRunOptions run;
  bool keep_activations = false;
  std::string streams;

  explicit TrainingCli(ExperimentConfig preset) : config(std::move(preset)) {
    streams = config.random_streams == RandomStreams::kJax ? "jax" : "dlca";
  }

  // The options every training program has.
  void add_to(CLI::App& app) {
    app.add_option("--epochs", config.epochs, "optimizer steps")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--seed", config.seed, "seed for wiring, data and masks")->capture_default_str();
    app.add_option("--threads", backend.threads, "worker threads (0 = all cores)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--lr", config.learning_rate, "AdamW learning rate")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option(
           "--random-streams", streams,
           "jax: the notebook's JAX threefry streams (its exact wiring and data for a seed); "
           "dlca: dlca's own streams (any 64-bit seed)")
        ->capture_default_str()
        ->check(CLI::IsMember({"dlca", "jax"}));
    app.add_option("--log", run.log_path,
                   "write a CSV of every epoch (epoch,soft_loss,hard_loss,active_gates,ms)");
    app.add_option("--save", run.save_path,
                   "write the trained parameters and wiring (dlca-params JSON)");
    app.add_option("--summary", run.summary_path, "write the final summary as JSON");
    app.add_flag("--keep-activations", keep_activations,
                 "store every step's activations instead of recomputing them (more memory)");
    app.add_option("--tile-cells", backend.tile_cells, "cells per parallel tile (0 = automatic)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--print-every", run.print_every, "epochs between lines when not on a terminal")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_flag("--quiet", run.quiet, "no progress output");
  }

  // Trains with the parsed options; returns the process exit status.
  template <typename MakeTask>
  int train(const char* program, MakeTask&& make_task) {
    config.random_streams = streams == "jax" ? RandomStreams::kJax : RandomStreams::kDlca;
    backend.checkpointing = !keep_activations;
    run.epochs = config.epochs;
    try {
      Model model = make_model(config);
      const auto task = make_task(config);  // a Task, or a pointer to one
      const Task* task_ptr;
      if constexpr (requires { *task; })
        task_ptr = &*task;
      else
        task_ptr = &task;
      CpuBackend cpu(backend);
      Trainer trainer(std::move(model), *task_ptr, cpu);
      const auto summary = run_training(trainer, cpu.name(), run, std::cout);
      return summary.interrupted ? 130 : 0;
    } catch (const ConfigError& e) {
      std::fprintf(stderr, "%s: invalid configuration: %s\n", program, e.what());
      return 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", program, e.what());
      return 1;
    }
  }
};

}  // namespace dlca::cli
