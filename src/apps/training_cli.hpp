// Command-line options shared by every training program (train_checkerboard, train_gol, ...), and
// the code that turns them into a run on the chosen backend (CPU or a Vulkan device). Only the
// programs' main files include it.
#pragma once

#include <cstdio>
#include <iostream>

#include <fmt/format.h>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "backend_options.hpp"
#include "cli_numbers.hpp"

#include "dlca/core/config_json.hpp"
#include "dlca/core/memory_budget.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/image_target.hpp"
#include "dlca/io/output_paths.hpp"
#include "dlca/train/backend_choice.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/multi_start.hpp"
#include "dlca/train/training_run.hpp"
#include "dlca/train/training_setup.hpp"

namespace dlca::cli {

// After a preset option (--config, --preset, --async) changed the variables the options are bound
// to, makes --help show the new values as the defaults.
inline void refresh_shown_defaults(CLI::App& app) {
  for (CLI::Option* option : app.get_options())
    if (!option->get_default_str().empty()) option->capture_default_str();
}

struct TrainingCli {
  ExperimentConfig config;
  CpuBackendOptions backend;
  BackendChoice choice;
  TrainingRunOptions run;
  bool keep_activations = false;
  std::string streams;
  std::string resume_path;
  std::string max_memory;
  // No output named: the model, log and summary go to a new folder runs/<experiment>-seed<S>/,
  // unless --no-save.
  bool no_save = false;
  static constexpr const char* kRunsFolder = "runs";
  // The schedule's epoch options (--noise-start, ...) and the fields they set, to refuse them where
  // they would have no effect.
  std::vector<std::pair<CLI::Option*, int ExperimentConfig::*>> schedule_epochs;
  // Options whose values `robust` would otherwise fill in (GivenOptions).
  CLI::Option* adam_eps_option = nullptr;
  // Options that change nothing in some runs: refused there (CPU backend options on a Vulkan run,
  // --print-every with --quiet).
  CLI::Option* print_every_option = nullptr;
  std::vector<CLI::Option*> cpu_only_options;
  std::vector<CLI::Option*> schedule_options;
  // Files the program reads (--config, --target, ...), checked against the outputs before work.
  std::vector<NamedPath> inputs;

  explicit TrainingCli(ExperimentConfig preset) { use_preset(std::move(preset)); }

  // Starts again from `preset` (the options given on the command line are applied after it).
  void use_preset(ExperimentConfig preset) {
    config = std::move(preset);
    streams = config.random_streams == RandomStreams::kJax ? "jax" : "dlca";
  }

  // The options every training program has.
  void add_to(CLI::App& app) {
    app.add_option("--epochs", config.epochs, "optimizer steps")
        ->capture_default_str()
        ->transform(positive_integer());
    app.add_option("--seed", config.seed, "seed for wiring, data and masks")
        ->capture_default_str()
        ->transform(non_negative_integer<uint64_t>());
    app.add_option("--threads", backend.threads, "worker threads (0 = all cores)")
        ->capture_default_str()
        ->transform(dlca::cli::thread_count());
    add_backend_options(app, choice.kind, choice.device);
    app.add_flag("--profile", choice.profile,
                 "Vulkan: print dispatches and submits per epoch and GPU time per phase");
    app.add_option("--lr", config.learning_rate, "AdamW learning rate")
        ->capture_default_str()
        ->transform(positive_number<float>());
    adam_eps_option =
        app.add_option(
               "--adam-eps", config.adam_eps,
               "AdamW's epsilon, added to the root of the second moment, from 1.2e-38 to 1 (the "
               "notebook: 1e-8; smaller lets tiny gradients take whole steps)")
            ->transform(rate<float>());
    app.add_option("--adam-beta1", config.adam_beta1,
                   "AdamW's decay rate of the first moment, from 0 to below 1")
        ->capture_default_str()
        ->transform(decay_rate<float>());
    app.add_option("--adam-beta2", config.adam_beta2,
                   "AdamW's decay rate of the second moment, from 0 to below 1")
        ->capture_default_str()
        ->transform(decay_rate<float>());
    app.add_option("--weight-decay", config.weight_decay,
                   "AdamW's decoupled weight decay on every logit, from 0 to 1")
        ->capture_default_str()
        ->transform(number_from_to<float>(0, 1));
    app.add_option(
           "--random-streams", streams,
           "jax: the notebook's JAX threefry streams (its exact wiring and data for a seed); "
           "dlca: dlca's own streams (any 64-bit seed)")
        ->capture_default_str()
        ->check(CLI::IsMember({"dlca", "jax"}));
    app.add_option_function<std::string>(
           "--recipe",
           [this](const std::string& name) {
             config.recipe = parse_recipe(name);
             const RecipeDefaults defaults = recipe_defaults(config.recipe);
             // unless --starts, --stop-when-solved or --[no-]repair are given
             config.starts = defaults.starts;
             config.stop_when_solved = defaults.stop_when_solved;
             config.repair = defaults.repair;
             config.halving = defaults.halving;
           },
           "robust (the default): stop at the first epoch with hard loss 0 and keep those "
           "parameters, repair an unsolved circuit; for checkerboards and Game of Life --starts "
           "auto (4 at a time, successive halving) and input-wise gates, for an image target 4 "
           "starts to the end, noise and sharpening over the second half of the epochs; paper: the "
           "notebook's recipe, "
           "bit for bit (docs/training.md, \"Training recipes\")")
        ->default_str(recipe_name(kDefaultRecipe))
        ->check(CLI::IsMember({"paper", "robust"}));
    app.add_option_function<std::string>(
           "--gates",
           [this](const std::string& name) {
             config.gates = parse_gate_kind(name);
             config.given.gates = true;
           },
           "how each gate is trained: softmax (the notebook's 16 logits, one per op) or "
           "inputwise (4 angles, one per input pattern: larger gradients at the pass-through "
           "start; no --noise or --sharpen-to); default: inputwise with robust for "
           "checkerboards and Game of Life, else softmax (docs/training.md, \"Training recipes\")")
        ->check(CLI::IsMember({"softmax", "inputwise"}));
    const CLI::Validator start_count = integer_from_to(1, 64);
    app.add_option_function<std::string>(
           "--starts",
           [this, start_count](const std::string& value) {
             config.halving = value == "auto";
             config.starts = config.halving ? kAutoStarts : std::stoi(value);
             config.given.starts = true;
           },
           fmt::format("candidates trained side by side from seeds derived from --seed; the "
                       "first to solve is kept (1 = a plain run); auto: {} at a time with "
                       "successive halving (a candidate lagging the better half at a quarter or "
                       "half of its epochs stops, a new start takes its place) until one solves "
                       "or --budget runs out (default: robust's, auto; 4 for an image target)",
                       kAutoStarts))
        ->type_name("N|auto")
        ->check(CLI::Validator(
            [start_count](std::string& text) {
              if (text == "auto" || start_count(text).empty()) return std::string();
              return "must be auto or an integer from 1 to 64, got '" + text + "'";
            },
            ""));
    app.add_option("--budget", config.budget_epochs,
                   "--starts auto: epochs of candidates trained in all before the run ends "
                   "unsolved (default: starts x --epochs, the cost of that many full starts)")
        ->transform(positive_integer<int64_t>());
    app.add_option("--budget-minutes", config.budget_minutes,
                   "--starts auto: wall minutes before the run ends unsolved (as well as --budget; "
                   "the run then depends on the machine's speed)")
        ->transform(number_from_to<float>(0, 1e6f));
    app.add_option("--stop-when-solved", config.stop_when_solved,
                   "stop once the hard loss has been 0 for N consecutive epochs (0 = never)")
        ->capture_default_str()
        ->transform(non_negative_integer());
    schedule_options.clear();
    schedule_options.push_back(
        app.add_option(
               "--sharpen-to", config.sharpen_to,
               "forward-only sharpening: the forward pass's final temperature, in (0, 1] (1 = "
               "off); the gradient still flows through the undivided softmax")
            ->capture_default_str()
            ->transform(rate<float>()));
    const auto schedule_epoch = [&](const char* name, int ExperimentConfig::*field,
                                    const char* help) {
      schedule_epochs.emplace_back(app.add_option(name, config.*field, help)
                                       ->capture_default_str()
                                       ->transform(non_negative_integer()),
                                   field);
      schedule_options.push_back(schedule_epochs.back().first);
    };
    schedule_epoch("--sharpen-start", &ExperimentConfig::sharpen_start,
                   "epoch where the forward temperature starts falling from 1");
    schedule_epoch("--sharpen-end", &ExperimentConfig::sharpen_end,
                   "epoch where it reaches --sharpen-to (geometrically) and stays");
    schedule_options.push_back(
        app.add_option("--noise", config.noise,
                       "Gumbel noise of this scale on the soft pass's logits, redrawn every epoch "
                       "(0 = off)")
            ->capture_default_str()
            ->transform(number_from_to<float>(0, 100)));
    schedule_epoch("--noise-start", &ExperimentConfig::noise_start,
                   "epoch from which --noise applies");
    schedule_epoch("--noise-end", &ExperimentConfig::noise_end,
                   "epoch from which --noise stops (0 = it never stops)");
    app.add_option("--harden", config.harden,
                   "progressive hardening: in N stages spread evenly from --harden-start to "
                   "--harden-end, fix the most confident free gates to their hard op (1/2, 3/4, "
                   "7/8, ... of all gates after each stage) while the others train on (0 = off)")
        ->capture_default_str()
        ->transform(integer_from_to<int>(0, kMaxHardenStages));
    app.add_option("--harden-start", config.harden_start, "epoch of the first hardening stage")
        ->capture_default_str()
        ->transform(non_negative_integer());
    app.add_option("--harden-end", config.harden_end,
                   "epoch that ends the hardening stages (0 = the run's --epochs)")
        ->capture_default_str()
        ->transform(non_negative_integer());
    app.add_flag("--grad-norm", config.grad_norm,
                 "divide each layer's gradient by its L2 norm before AdamW (as the Growing NCA "
                 "notebooks do; off in the notebook's recipe)");
    app.add_option("--loss-steps", config.loss_steps,
                   "grow and stay: compare the last N states with the target, not only the last "
                   "(with --steps T+N-1 the picture grown by step T must stay until T+N-1)")
        ->capture_default_str()
        ->transform(positive_integer());
    app.add_flag("--repair,!--no-repair", config.repair,
                 "when training ends with hard loss above 0, try each uncertain gate's other "
                 "likely ops one at a time, keeping changes that lower it; the circuit is kept "
                 "only if it reaches 0 (--no-repair: not even with --recipe robust)");
    app.add_option("--log", run.log_path,
                   "write a CSV of every epoch (epoch,soft_loss,hard_loss,active_gates,ms) and "
                   "its loss curves as SVG beside it");
    app.add_option("--save", run.save_path,
                   "write the model as a checkpoint (dlca-model JSON; --resume continues it)");
    app.add_option("--checkpoint-every", run.checkpoint_every,
                   "rewrite the --save file every N epochs, so a killed run loses at most N")
        ->transform(non_negative_integer<int64_t>());
    app.add_option("--resume", resume_path,
                   "continue the checkpoint FILE until --epochs in total; give the options of the "
                   "run that wrote it (its configuration must match)");
    app.add_option("--summary", run.summary_path, "write the final summary as JSON");
    app.add_option("--gif", run.gif_path, "write an animated GIF of the trained hard rule");
    app.add_option("--histogram", run.histogram_path,
                   "write the per-op gate histogram (perception, update) as SVG");
    app.add_flag("--no-save", no_save,
                 "write no files (without it, and without any output named, the model, log, loss "
                 "curves and summary go to a new folder runs/EXPERIMENT-seedS/)");
    cpu_only_options.clear();
    cpu_only_options.push_back(
        app.add_flag("--keep-activations", keep_activations,
                     "store every step's activations instead of recomputing them (more memory)"));
    cpu_only_options.push_back(
        app.add_option(
               "--tile-cells", backend.tile_cells,
               "cells per parallel tile (0 = automatic); sets the order of float sums, so a "
               "--resume is bit-identical only with the same value")
            ->transform(non_negative_integer()));
    print_every_option = app.add_option("--print-every", run.print_every,
                                        "epochs between lines when not on a terminal")
                             ->capture_default_str()
                             ->transform(positive_integer());
    app.add_flag("--quiet", run.quiet, "no progress output");
    app.add_option("--max-memory", max_memory,
                   "memory the run may use, e.g. 4G (default: what is available); a run that "
                   "needs more is refused before it starts")
        ->check(CLI::Validator(memory_size_error, "SIZE"));
  }

  // Whether the command line names any output file.
  bool names_an_output() const {
    for (const NamedPath& output : training_output_paths(run))
      if (!output.path.empty()) return true;
    return false;
  }

  // Trains with the parsed options; returns the process exit status.
  template <typename MakeTask>
  int train(const char* program, MakeTask&& make_task) {
    config.random_streams = streams == "jax" ? RandomStreams::kJax : RandomStreams::kDlca;
    backend.checkpointing = !keep_activations;
    run.epochs = config.epochs;
    try {
      if (choice.profile && choice.kind == "cpu")
        throw UsageError("--profile: profiles the Vulkan backend; give --backend vulkan or auto");
      if (no_save && names_an_output())
        throw UsageError("--no-save: contradicts the output files named");
      if (run.checkpoint_every > 0 && no_save)
        throw UsageError("--checkpoint-every: has nothing to write with --no-save");
      if (run.quiet && print_every_option->count() > 0)
        throw UsageError("--print-every: has no effect with --quiet");
      if (choice.kind == "vulkan")
        for (const CLI::Option* option : cpu_only_options)
          if (option->count() > 0)
            throw UsageError(
                fmt::format("{}: a CPU backend option, with no effect with --backend vulkan",
                            option->get_name()));
      std::vector<NamedPath> all_inputs = inputs;
      all_inputs.push_back({"--resume", resume_path});
      check_output_paths(all_inputs, training_output_paths(run), {{"--resume", "--save"}});
      const uint64_t memory_limit = max_memory.empty() ? 0 : parse_memory_size(max_memory);
      for (const NamedPath& input : inputs)  // a target PNG is decoded at its own size first
        if (!input.path.empty())
          check_memory(png_decode_bytes(input.path),
                       fmt::format("decoding {} {}", input.option, input.path), memory_limit);
      std::optional<ModelFile> resumed;
      if (!resume_path.empty()) {
        try {
          resumed = load_checkpoint(resume_path);
        } catch (const FileError& e) {  // "--resume cb.json: cannot open (...)"
          throw FileError(std::string("--resume ") + e.what());
        }
      }
      // (A halving run's progress is its rounds and budget, not the epoch of the candidate its
      // file was saved with.)
      const bool halving_resumed = resumed && resumed->multi_start && resumed->multi_start->halving;
      const int64_t from = resumed && !halving_resumed ? resumed->training->epoch : 0;
      if (!checkpoints_before_end(run.checkpoint_every, from, config.epochs))
        throw UsageError(fmt::format(
            "--checkpoint-every {}: has no effect with --epochs {}{} (no checkpoint falls before "
            "the last epoch, which writes --save anyway)",
            run.checkpoint_every, config.epochs,
            from > 0 ? fmt::format(" from epoch {}", from) : ""));
      if (resumed && !halving_resumed && config.epochs == resumed->training->epoch)
        std::fprintf(stderr,
                     "%s: --resume %s: the checkpoint is already at epoch %lld = --epochs; no "
                     "training, only the outputs are written\n",
                     program, resume_path.c_str(), (long long)config.epochs);
      const auto task_of = [&](const ExperimentConfig& c) -> std::unique_ptr<Task> {
        using Made = decltype(make_task(c));  // a Task, or a pointer to one
        if constexpr (requires(Made m) { m.release(); })
          return make_task(c);
        else
          return std::unique_ptr<Task>(new Made(make_task(c)));
      };
      choice.cpu = backend;
      config.given.adam_eps = config.given.adam_eps || adam_eps_option->count() > 0;
      for (const CLI::Option* option : schedule_options)
        config.given.schedule = config.given.schedule || option->count() > 0;
      for (const auto& [option, field] : schedule_epochs) {  // given, but off
        const bool noise = option->get_name().rfind("--noise", 0) == 0;
        if (option->count() > 0 && (noise ? config.noise == 0.0f : config.sharpen_to == 1.0f))
          throw UsageError(fmt::format("{}: has no effect without {}", option->get_name(),
                                       noise ? "--noise above 0" : "--sharpen-to below 1"));
      }
      for (const auto& [option, field] : schedule_epochs)  // named, not blamed on a default 0
        if (option->get_name() == "--sharpen-end" && option->count() == 0 &&
            config.sharpen_to != 1.0f && config.sharpen_end < config.sharpen_start)
          throw UsageError(
              fmt::format("--sharpen-start {}: needs --sharpen-end, the epoch where "
                          "the temperature reaches --sharpen-to",
                          config.sharpen_start));
      config = resolve_recipe(config, task_of, resumed ? &*resumed : nullptr);
      PreparedTraining prepared = prepare_training(
          config, task_of, choice, resumed ? &*resumed : nullptr, resume_path, memory_limit);
      if (!prepared.note.empty()) std::fprintf(stderr, "%s: %s\n", program, prepared.note.c_str());
      run.threads = backend.threads;
      run.rescue_unsaved_model = true;
      std::string run_folder;  // made now that the run has been accepted
      if (!no_save && !names_an_output()) {
        run_folder =
            make_run_folder(kRunsFolder, fmt::format("{}-seed{}", config.name, config.seed));
        run.save_path = run_folder + "/model.json";
        run.log_path = run_folder + "/log.csv";
        run.summary_path = run_folder + "/summary.json";
      }
      if (!prepared.vulkan && backend.tile_cells > 0) run.tile_cells = backend.tile_cells;
      const auto summary = run_training(prepared, run, std::cout);
      VulkanBackend* vulkan = prepared.vulkan;
      if (choice.profile && vulkan) std::cout << describe_profile(vulkan->profile());
      if (!run_folder.empty())
        std::cout << fmt::format(
            "saved in {}/: model.json (dlca export, run, eval --model; --resume), log.csv and "
            "its loss curves log.svg, summary.json\n",
            run_folder);
      if (choice.profile && !vulkan)
        std::fprintf(stderr, "%s: --profile: only the Vulkan backend is profiled\n", program);
      return summary.interrupted ? 128 + (summary.stop_signal ? summary.stop_signal : 2) : 0;
    } catch (const ConfigError& e) {
      std::fprintf(stderr, "%s: invalid configuration: %s\n", program, e.what());
      return 2;
    } catch (const ResumeMismatch& e) {
      std::fprintf(stderr, "%s: %s\n", program, e.what());
      return 2;
    } catch (const UsageError& e) {
      std::fprintf(stderr, "%s: %s\n", program, e.what());
      return kExitUsage;
    } catch (const PathConflict& e) {  // two options naming one file
      std::fprintf(stderr, "%s: %s\n", program, e.what());
      return kExitUsage;
    } catch (const std::bad_alloc&) {
      std::fprintf(stderr,
                   "%s: out of memory while training (the estimate before the start was too low; "
                   "try a smaller --batch or grid)\n",
                   program);
      return 1;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", program, e.what());
      return 1;
    }
  }
};

}  // namespace dlca::cli
