// Command-line options shared by every training program (train_checkerboard, train_gol, ...), and
// the code that turns them into a run on the chosen backend (CPU or a Vulkan device). Only the
// programs' main files include it.
#pragma once

#include <cstdio>
#include <iostream>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "backend_options.hpp"
#include "cli_numbers.hpp"

#include "dlca/core/config_json.hpp"
#include "dlca/core/memory_budget.hpp"
#include "dlca/core/training_settings.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/image_target.hpp"
#include "dlca/io/output_paths.hpp"
#include "dlca/train/backend_choice.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/multi_start.hpp"
#include "dlca/train/training_observer.hpp"
#include "dlca/train/training_request.hpp"
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
  bool quiet = false;     // no progress display
  int print_every = 100;  // its plain-line period when not on a terminal
  bool keep_activations = false;
  std::string streams;
  std::string resume_path;
  std::string max_memory;
  // No output named: the model, log and summary go to a new folder runs/<experiment>-seed<S>/,
  // unless --no-save.
  bool no_save = false;
  static constexpr const char* kRunsFolder = "runs";
  // The settings this program offers as options, by key (training_settings.hpp): what marks them
  // given, and which keys its errors name as options.
  std::map<std::string, CLI::Option*, std::less<>> setting_options;
  // Options that change nothing in some runs: refused there (CPU backend options on a Vulkan run,
  // --print-every with --quiet).
  CLI::Option* print_every_option = nullptr;
  std::vector<CLI::Option*> cpu_only_options;
  // Files the program reads (--config, --target, ...), checked against the outputs before work.
  std::vector<NamedPath> inputs;

  explicit TrainingCli(ExperimentConfig preset) { use_preset(std::move(preset)); }

  // Starts again from `preset` (the options given on the command line are applied after it).
  void use_preset(ExperimentConfig preset) {
    config = std::move(preset);
    streams = config.random_streams == RandomStreams::kJax ? "jax" : "dlca";
  }

  // The option of a setting (training_settings.hpp), from its row of the table: its name, help,
  // range and field. Every program adds those of every program (add_to); the others (--steps,
  // --batch, ...) each program that has them.
  CLI::Option* add_setting(CLI::App& app, std::string_view key) {
    const Setting* setting = find_setting(key);
    if (!setting || !setting->option) throw std::logic_error("add_setting: no option for a key");
    const Setting& s = *setting;
    CLI::Option* option = std::visit(
        [&](auto field) -> CLI::Option* {
          using Field = decltype(field);
          if constexpr (std::is_same_v<Field, std::monostate>)
            return add_by_hand(app, s);
          else if constexpr (std::is_same_v<Field, bool ExperimentConfig::*>)
            // A switch can be turned off (--no-repair: one a recipe turns on; --no-stay: one an
            // experiment file turns on).
            return app.add_flag(fmt::format("{},!--no-{}", s.option, s.option + 2), config.*field,
                                s.help);
          else
            return app.add_option(s.option, config.*field, s.help)
                ->transform(range_check<std::remove_reference_t<decltype(config.*field)>>(s));
        },
        s.field);
    if (s.show_default && s.range != SettingRange::kSwitch && s.range != SettingRange::kOther)
      option->capture_default_str();
    setting_options[s.key] = option;
    return option;
  }

  // The range of a setting with a field, as the validator of its option.
  template <typename T>
  static CLI::Validator range_check(const Setting& s) {
    if constexpr (std::is_integral_v<T>) {
      if (s.range == SettingRange::kPositiveInteger) return positive_integer<T>();
      if (s.range == SettingRange::kNonNegativeInteger) return non_negative_integer<T>();
      if (s.range == SettingRange::kIntegerFromTo) return integer_from_to<T>(T(s.low), T(s.high));
    } else {
      if (s.range == SettingRange::kPositiveNumber) return positive_number<T>();
      if (s.range == SettingRange::kNumberFromTo) return number_from_to<T>(T(s.low), T(s.high));
      if (s.range == SettingRange::kDecayRate) return decay_rate<T>();
      if (s.range == SettingRange::kRate) return rate<T>();
    }
    throw std::logic_error(std::string("range_check: no validator for ") + s.key);
  }

  // The options of settings that are text or choices with effects of their own.
  CLI::Option* add_by_hand(CLI::App& app, const Setting& s) {
    const std::string_view key = s.key;
    if (key == "random_streams")
      return app.add_option(s.option, streams, s.help)
          ->capture_default_str()
          ->check(CLI::IsMember({"dlca", "jax"}));
    if (key == "recipe")
      return app
          .add_option_function<std::string>(
              s.option,
              // unless --starts, --stop-when-solved or --[no-]repair are given (their options come
              // after this one, so CLI11 sets them after this callback)
              [this](const std::string& name) { use_recipe(config, parse_recipe(name)); }, s.help)
          ->default_str(recipe_name(kDefaultRecipe))
          ->check(CLI::IsMember({"paper", "robust"}));
    if (key == "gates")
      return app
          .add_option_function<std::string>(
              s.option, [this](const std::string& name) { config.gates = parse_gate_kind(name); },
              s.help)
          ->check(CLI::IsMember({"softmax", "inputwise"}));
    if (key == "starts") {
      const CLI::Validator start_count = integer_from_to(1, 64);
      return app
          .add_option_function<std::string>(
              s.option,
              [this](const std::string& value) {
                config.halving = value == "auto";
                config.starts = config.halving ? kAutoStarts : std::stoi(value);
              },
              s.help)
          ->type_name("N|auto")
          ->check(CLI::Validator(
              [start_count](std::string& text) {
                if (text == "auto" || start_count(text).empty()) return std::string();
                return "must be auto or an integer from 1 to 64, got '" + text + "'";
              },
              ""));
    }
    if (key == "loss_channels")
      return app.add_option(s.option, config.loss_channels, s.help)
          ->transform(non_negative_integer());
    throw std::logic_error(std::string("add_by_hand: no option for ") + s.key);
  }

  // The options every training program has.
  void add_to(CLI::App& app) {
    for (const Setting& setting : training_settings())
      if (setting.scope == SettingScope::kEveryProgram) add_setting(app, setting.key);
    app.add_option("--threads", backend.threads, "worker threads (0 = all cores)")
        ->capture_default_str()
        ->transform(dlca::cli::thread_count());
    add_backend_options(app, choice.kind, choice.device);
    app.add_flag("--profile", choice.profile,
                 "Vulkan: print dispatches and submits per epoch and GPU time per phase");
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
                   "run that wrote it (its configuration must match, except a longer grow-and-stay "
                   "window: --steps and --loss-steps larger by the same number)");
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
    print_every_option =
        app.add_option("--print-every", print_every, "epochs between lines when not on a terminal")
            ->capture_default_str()
            ->transform(positive_integer());
    app.add_flag("--quiet", quiet, "no progress output");
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
    try {
      if (choice.profile && choice.kind == "cpu")
        throw UsageError("--profile: profiles the Vulkan backend; give --backend vulkan or auto");
      if (no_save && names_an_output())
        throw UsageError("--no-save: contradicts the output files named");
      if (run.checkpoint_every > 0 && no_save)
        throw UsageError("--checkpoint-every: has nothing to write with --no-save");
      if (quiet && print_every_option->count() > 0)
        throw UsageError("--print-every: has no effect with --quiet");
      if (choice.kind == "vulkan")
        for (const CLI::Option* option : cpu_only_options)
          if (option->count() > 0)
            throw UsageError(
                fmt::format("{}: a CPU backend option, with no effect with --backend vulkan",
                            option->get_name()));
      const auto task_of = [&](const ExperimentConfig& c) -> std::unique_ptr<Task> {
        using Made = decltype(make_task(c));  // a Task, or a pointer to one
        if constexpr (requires(Made m) { m.release(); })
          return make_task(c);
        else
          return std::unique_ptr<Task>(new Made(make_task(c)));
      };
      for (const auto& [key, option] : setting_options)  // what `robust` then leaves alone
        if (const Setting* s = find_setting(key); s->given && option->count() > 0)
          config.given.*s->given = true;
      for (const char* key : {"noise_start", "noise_end", "sharpen_start", "sharpen_end"}) {
        const CLI::Option* option = setting_options.at(key);  // given, but off
        const bool noise = std::string_view(key).starts_with("noise");
        if (option->count() > 0 && (noise ? config.noise == 0.0f : config.sharpen_to == 1.0f))
          throw UsageError(fmt::format("{}: has no effect without {}", option->get_name(),
                                       noise ? "--noise above 0" : "--sharpen-to below 1"));
      }
      // (named, not blamed on a default 0)
      if (setting_options.at("sharpen_end")->count() == 0 && config.sharpen_to != 1.0f &&
          config.sharpen_end < config.sharpen_start)
        throw UsageError(
            fmt::format("--sharpen-start {}: needs --sharpen-end, the epoch where "
                        "the temperature reaches --sharpen-to",
                        config.sharpen_start));
      choice.cpu = backend;
      // The run as the library takes it from every front end: its checks (outputs, memory, the
      // checkpoint and its period) and the candidates prepared (training_request.hpp).
      const bool run_folder_default = !no_save && !names_an_output();
      TrainingRequest request{
          .config = config,
          .task_of = task_of,
          .backend = choice,
          .resume_path = resume_path,
          .memory_limit = max_memory.empty() ? 0 : parse_memory_size(max_memory),
          .inputs = inputs,
          .run = run,
          .save_named_later = run_folder_default};
      PreparedTraining prepared = start_training(request);
      config = request.config;
      if (prepared.nothing_to_train)
        std::fprintf(stderr,
                     "%s: --resume %s: the checkpoint is already at epoch %lld = %s; no "
                     "training, only the outputs are written\n",
                     program, resume_path.c_str(), (long long)request.run.epochs,
                     config.rounds > 0 ? "--epochs and its --rounds" : "--epochs");
      if (!prepared.note.empty()) std::fprintf(stderr, "%s: %s\n", program, prepared.note.c_str());
      request.run.rescue_unsaved_model = true;
      std::string run_folder;  // made now that the run has been accepted
      if (run_folder_default) {
        run_folder =
            make_run_folder(kRunsFolder, fmt::format("{}-seed{}", config.name, config.seed));
        request.run.save_path = run_folder + "/model.json";
        request.run.log_path = run_folder + "/log.csv";
        request.run.summary_path = run_folder + "/summary.json";
      }
      // What watches the run: Ctrl-C and SIGTERM (stop after the epoch, still write everything),
      // and the progress display (with --quiet, only its warnings of writes that failed).
      const TrainingSummary summary = [&] {
        SignalStop signals;  // for the training only
        ProgressDisplay progress(print_every, std::cout, quiet);
        TrainingRunOptions options = request.run;
        options.observers = {&signals, &progress};
        return run_training(prepared, options, std::cout);
      }();
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
    } catch (const ConfigError& e) {  // settings the user gave as options named as such
      const std::string message = with_option_names(e.what(), [&](const Setting& s) {
        const auto option = setting_options.find(s.key);  // only options the user gave
        return option != setting_options.end() && option->second->count() > 0;
      });
      std::fprintf(stderr, "%s: invalid configuration: %s\n", program, message.c_str());
      return kExitUsage;
    } catch (...) {
      return report_failure(program,
                            "out of memory while training (the estimate before the start was too "
                            "low; try a smaller --batch or grid)");
    }
  }
};

}  // namespace dlca::cli
