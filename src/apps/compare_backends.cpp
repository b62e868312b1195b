// compare_backends: trains the same configuration, seed and epoch count on the CPU backend (all of
// the host's cores unless --threads says otherwise) and on a Vulkan device, and prints a table:
// ms per epoch on each, the speedup, the largest soft-loss difference over the run, whether the
// hard losses agree, the largest parameter difference at the end, and the device's dispatches per
// epoch. --sweep covers the paper's checkerboard and lizard and scaled-up workloads.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>
#include "tools.hpp"

#include <fmt/format.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include "cli_numbers.hpp"
#include "cli_parse.hpp"
#include "dlca/core/memory_budget.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/output_paths.hpp"
#include "dlca/io/stop_signals.hpp"
#include "dlca/train/backend_choice.hpp"
#include "dlca/train/experiment_file.hpp"
#include "dlca/train/trainer.hpp"

namespace {

struct Workload {
  std::string label;
  dlca::ExperimentFile experiment;
};

struct Run {
  std::vector<dlca::EpochStats> epochs;
  std::vector<float> logits;
  std::string backend;
  double median_ms = 0;
};

double median_after_first(const std::vector<dlca::EpochStats>& epochs) {
  std::vector<double> ms;
  for (size_t i = epochs.size() > 1 ? 1 : 0; i < epochs.size(); ++i)
    ms.push_back(epochs[i].milliseconds);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

Run train(const Workload& w, dlca::Backend& backend, int epochs, const char* side) {
  const auto task = dlca::make_task(w.experiment, w.experiment.config);
  dlca::Trainer trainer(dlca::make_model(w.experiment.config), *task, backend);
  Run run;
  run.backend = backend.name();
  const bool live = ::isatty(STDERR_FILENO);  // no \r progress in a redirected stderr
  for (int e = 0; e < epochs; ++e) {
    run.epochs.push_back(trainer.run_epoch());
    if (live)
      std::fprintf(stderr, "\r%s %s: epoch %d (%d/%d), %.1f ms   ", w.label.c_str(), side, e, e + 1,
                   epochs, run.epochs.back().milliseconds);
  }
  if (live) std::fprintf(stderr, "\r%*s\r", 70, "");
  run.logits = trainer.model().logits;
  run.median_ms = median_after_first(run.epochs);
  return run;
}

Workload scaled(const Workload& base, const std::string& label, int batch, int size) {
  Workload w = base;
  w.label = label;
  w.experiment.config.batch = batch;
  w.experiment.config.height = w.experiment.config.width = size;
  return w;
}

struct CompareOptions {
  std::string config = "checkerboard_sync", csv_path;
  int epochs = 20, threads = 0, device = 0, batch = 0, size = 0;
  uint64_t seed = 23;
  bool sweep = false, profile = false, cpu_only = false, vulkan_only = false;
  uint64_t chunk_mb = 0;
};

// The workloads: --config (with --batch and --size), or the standard set of --sweep. Those that
// cannot work (a bad experiment, a grid its task does not fit, more memory than there is) are
// refused before anything is allocated.
std::vector<Workload> workloads_of(const CompareOptions& o) {
  const auto load = [&](const std::string& name) {
    Workload w{name, dlca::load_experiment(name)};
    w.experiment.config.seed = o.seed;
    return w;
  };
  std::vector<Workload> workloads;
  if (o.sweep) {
    const Workload checkerboard = load("checkerboard_sync"), lizard = load("lizard");
    workloads = {checkerboard, lizard, scaled(checkerboard, "checkerboard 32x64x64", 32, 64),
                 scaled(lizard, "lizard 8x64x64", 8, 64)};
  } else {
    Workload w;
    try {
      w = load(o.config);
    } catch (const dlca::FileError& e) {
      if (dlca::names_a_file(o.config)) throw;  // a file that cannot be read: exit status 1
      throw dlca::cli::UsageError(std::string("--config: ") + e.what());  // no such experiment
    } catch (const dlca::ConfigError& e) {  // a file that reads but is no valid experiment
      throw dlca::cli::UsageError(std::string("--config: ") + e.what());
    }
    if (o.batch) w.experiment.config.batch = o.batch;
    if (o.size) w.experiment.config.height = w.experiment.config.width = o.size;
    if (o.batch || o.size)
      w.label += fmt::format(" {}x{}x{}", w.experiment.config.batch, w.experiment.config.height,
                             w.experiment.config.width);
    workloads = {w};
  }
  for (const Workload& w : workloads) {
    try {
      dlca::validate(w.experiment.config);
      dlca::make_task(w.experiment.task, w.experiment.config);  // the task fits the grid given
    } catch (const dlca::FileError&) {  // its picture: reported with the experiment's name later
    } catch (const dlca::ConfigError& e) {
      const std::string given =
          o.size || o.batch
              ? fmt::format(" (with{}{})", o.size ? fmt::format(" --size {}", o.size) : "",
                            o.batch ? fmt::format(" --batch {}", o.batch) : "")
              : "";
      throw dlca::cli::UsageError(fmt::format("{}{}: {}", w.label, given, e.what()));
    }
    if (!o.vulkan_only)
      dlca::check_memory(dlca::cpu_training_bytes(w.experiment.config, {.threads = o.threads}),
                         w.label + " on the CPU", 0);
  }
  std::vector<dlca::NamedPath> inputs;  // the experiment files and their images
  for (const Workload& w : workloads) {
    inputs.push_back({"--config", w.experiment.path});
    inputs.push_back({"--config's image", w.experiment.task.image});
  }
  dlca::check_output_paths(inputs, {{"--csv", o.csv_path}});
  return workloads;
}

// One workload on both sides (or one): its row of the table, printed, and of the CSV.
std::string compare_workload(const Workload& w, const CompareOptions& o, dlca::CpuBackend& cpu,
                             dlca::VulkanBackend* vulkan, const std::string& machine) {
  const int epochs = o.epochs;
  std::string csv;
  if (o.vulkan_only) {
    const Run b = train(w, *vulkan, epochs, "vulkan");
    const int dispatches = vulkan->profile().dispatches;
    fmt::print("{:<24} {:>10} {:>10.2f} {:>8} {:>14} {:>12} {:>14} {:>10}\n", w.label, "",
               b.median_ms, "", "", "", "", dispatches);
    csv =
        fmt::format("{},,{:.3f},,,,{},,{},{}\n", w.label, b.median_ms, epochs, dispatches, machine);
  } else if (const Run a = train(w, cpu, epochs, "cpu"); !vulkan) {
    fmt::print("{:<24} {:>10.2f}\n", w.label, a.median_ms);
    csv = fmt::format("{},{:.3f},,,,,{},,,{}\n", w.label, a.median_ms, epochs, machine);
  } else {
    const Run b = train(w, *vulkan, epochs, "vulkan");
    double soft_diff = 0, param_diff = 0;
    int hard_agree = 0;
    for (int e = 0; e < epochs; ++e) {
      soft_diff = std::max(soft_diff, std::abs(a.epochs[e].soft_loss - b.epochs[e].soft_loss));
      hard_agree += a.epochs[e].hard_loss == b.epochs[e].hard_loss;
    }
    for (size_t i = 0; i < a.logits.size(); ++i)
      param_diff = std::max(param_diff, double(std::abs(a.logits[i] - b.logits[i])));
    const double speedup = a.median_ms / b.median_ms;
    const int dispatches = vulkan->profile().dispatches;
    fmt::print("{:<24} {:>10.2f} {:>10.2f} {:>7.2f}x {:>14.3g} {:>12} {:>14.3g} {:>10}\n", w.label,
               a.median_ms, b.median_ms, speedup, soft_diff,
               fmt::format("{}/{}", hard_agree, epochs), param_diff, dispatches);
    csv = fmt::format("{},{:.3f},{:.3f},{:.3f},{:.6g},{},{},{:.6g},{},{}\n", w.label, a.median_ms,
                      b.median_ms, speedup, soft_diff, hard_agree, epochs, param_diff, dispatches,
                      machine);
  }
  if (vulkan && o.profile) fmt::print("  {}", dlca::describe_profile(vulkan->profile()));
  std::fflush(stdout);
  return csv;
}

// The workloads on the CPU and a Vulkan device, a table row each (and the CSV).
void compare_backends(const CompareOptions& o) {
  const std::vector<Workload> workloads = workloads_of(o);
  dlca::CpuBackend cpu({.threads = o.threads});
  dlca::VulkanBackendOptions vk_options;
  vk_options.device = o.device;
  vk_options.profile = o.profile;
  vk_options.chunk_bytes = o.chunk_mb << 20;
  std::unique_ptr<dlca::VulkanBackend> vulkan;
  if (!o.cpu_only) try {
      vulkan = std::make_unique<dlca::VulkanBackend>(vk_options);
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("Vulkan device {}: {}", o.device, e.what()));
    }
  // The machines being compared: the host's cores and SIMD target, the device's name.
  // The CPU side's threads: what TBB grants (a larger --threads is capped at what it allows).
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const int allowed =
      int(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
  const int cpu_threads =
      o.threads > 0 ? std::min(o.threads, allowed) : tbb::info::default_concurrency();
  fmt::print(
      "host: {} cores, SIMD target {}; {}\nvulkan: {}\nepochs per run: {} (ms/epoch: "
      "median after the first)\n\n",
      cores, cpu.name(),
      o.vulkan_only
          ? std::string("cpu side not run")
          : fmt::format("cpu side on {} thread{}", cpu_threads, cpu_threads == 1 ? "" : "s"),
      vulkan ? vulkan->name() : "(not run)", o.epochs);
  fmt::print("{:<24} {:>10} {:>10} {:>8} {:>14} {:>12} {:>14} {:>10}\n", "workload", "cpu_ms",
             "vulkan_ms", "speedup", "max_soft_diff", "hard_agree", "max_param_diff", "dispatches");
  std::string csv =
      "workload,cpu_ms,vulkan_ms,speedup,max_soft_diff,hard_agree_epochs,epochs,"
      "max_param_diff,dispatches_per_epoch,cpu_threads,host_cores\n";
  const std::string machine =
      o.vulkan_only ? fmt::format(",{}", cores) : fmt::format("{},{}", cpu_threads, cores);
  for (const Workload& w : workloads) csv += compare_workload(w, o, cpu, vulkan.get(), machine);
  if (!o.csv_path.empty()) dlca::write_file_atomically(o.csv_path, csv);
}

}  // namespace

int dlca::apps::compare(int argc, char** argv, const char* program) {
  CompareOptions o;
  CLI::App app{
      "Train one configuration on the CPU and on a Vulkan device with the same seed and compare "
      "speed and results. --sweep: the paper's checkerboard and lizard, 32 x 64x64 checkerboard "
      "and 8 x 64x64 lizard."};
  app.add_option("--config", o.config,
                 "experiment name (checkerboard_sync, checkerboard_async, game_of_life, lizard, "
                 "colored_g) or JSON file")
      ->capture_default_str();
  app.add_option("--epochs", o.epochs, "epochs on each backend (timing: median after the first)")
      ->capture_default_str()
      ->transform(dlca::cli::positive_integer());
  app.add_option("--seed", o.seed, "seed of both runs")
      ->capture_default_str()
      ->transform(dlca::cli::non_negative_integer<uint64_t>());
  app.add_option("--batch", o.batch, "override the batch size")
      ->transform(dlca::cli::positive_integer());
  app.add_option("--size", o.size, "override the grid size (square)")
      ->transform(dlca::cli::positive_integer());
  app.add_option("--threads", o.threads, "CPU threads (0 = all of the host's cores)")
      ->capture_default_str()
      ->transform(dlca::cli::thread_count());
  app.add_option("--device", o.device, "Vulkan device index (see dlca_devices)")
      ->capture_default_str()
      ->transform(dlca::cli::non_negative_integer());
  app.add_flag("--sweep", o.sweep, "run the standard set of workloads")
      ->excludes("--config")
      ->excludes("--batch")
      ->excludes("--size");
  app.add_flag("--profile", o.profile, "print Vulkan dispatches and GPU time per phase");
  app.add_option("--csv", o.csv_path, "also write the table as CSV");
  CLI::Option* cpu_only_flag =
      app.add_flag("--cpu-only", o.cpu_only,
                   "time the CPU side alone (for workloads too slow on a CPU Vulkan device)")
          ->excludes("--device")
          ->excludes("--profile");
  app.add_flag("--vulkan-only", o.vulkan_only, "time the Vulkan side alone")
      ->excludes("--cpu-only");
  app.add_option("--chunk-mb", o.chunk_mb,
                 "Vulkan: activations per chunk of cells, MiB (0 = the backend's default)")
      ->transform(dlca::cli::integer_from_to<uint64_t>(0, uint64_t(1) << 20))
      ->excludes(cpu_only_flag);  // Vulkan options would have no effect on the CPU side alone
  DLCA_PARSE_OR_EXIT(app, program, argc, argv);
  const dlca::StopSignals signals(false);  // a signal removes the temporary files, then ends it
  try {
    compare_backends(o);
  } catch (...) {
    return dlca::cli::report_failure(
        program, "out of memory while training (try a smaller --batch or --size)");
  }
  return 0;
}
