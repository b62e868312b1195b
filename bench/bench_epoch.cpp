// bench_epoch: times training epochs on the CPU backend (or a Vulkan device, --backend vulkan):
// median ms per epoch (after warm-up) of each workload at each thread count, with checkpointing on
// and off, gate evaluations per second, and the process's peak RSS. A workload is an experiment
// name, optionally scaled (NAME@BATCHxSIZE, e.g. checkerboard_sync@32x64), and may train several
// candidates side by side (--starts, as a multi-start run does: each candidate on its share of the
// threads; on a device, all of them in one population, or --apart one after the other as before
// populations). --fork-join also times an empty parallel loop at each thread count (what one step's
// fork and join costs on the machine). Results go to BENCHMARKS.md by hand.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <sys/resource.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <CLI/CLI.hpp>

#include "../src/apps/cli_numbers.hpp"
#include "../src/apps/cli_parse.hpp"

#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/train/experiment_file.hpp"
#include "dlca/train/multi_start.hpp"
#include "dlca/train/trainer.hpp"
#include "dlca/vulkan/vulkan_backend.hpp"

namespace {

double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;
}

// Gate evaluations of one soft forward rollout: perception gates once per channel.
double gate_evaluations(const dlca::Model& m) {
  const auto& c = m.config;
  const double per_cell =
      double(m.num_perception_gates()) * c.channels + (m.num_gates() - m.num_perception_gates());
  return per_cell * c.batch * c.height * c.width * c.steps;
}

struct Workload {
  std::string label;
  dlca::ExperimentFile experiment;
};

// NAME or NAME@BATCHxSIZE.
Workload parse_workload(const std::string& spec) {
  const size_t at = spec.find('@');
  Workload w{spec, dlca::load_experiment(spec.substr(0, at))};
  if (at != std::string::npos) {
    int batch = 0, size = 0;
    char x = 0, end = 0;
    if (std::sscanf(spec.c_str() + at + 1, "%d%c%d%c", &batch, &x, &size, &end) != 3 || x != 'x' ||
        batch < 1 || size < 3)
      throw dlca::ConfigError(fmt::format("--workloads {}: expected NAME@BATCHxSIZE", spec));
    w.experiment.config.batch = batch;
    w.experiment.config.height = w.experiment.config.width = size;
  }
  dlca::validate(w.experiment.config);
  return w;
}

// Microseconds per fork and join of a parallel loop of `tasks` near-empty tasks in an arena of
// `threads` threads, as the backend runs one step's tiles.
double fork_join_us(int threads, int tasks) {
  tbb::task_arena arena(dlca::arena_concurrency(threads));
  std::vector<double> sink(size_t(tasks), 0.0);
  const auto loop = [&] {
    arena.execute([&] {
      tbb::parallel_for(
          0, tasks, [&](int i) { sink[size_t(i)] += 1.0; }, tbb::simple_partitioner());
    });
  };
  for (int i = 0; i < 100; ++i) loop();
  constexpr int kLoops = 2000;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kLoops; ++i) loop();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
         kLoops;
}

}  // namespace

int main(int argc, char** argv) {
  int epochs = 30, warmup = 5, tile_cells = 0, starts = 1;
  bool fork_join = false, apart = false;
  std::string backend = "cpu";
  std::vector<int> threads = {1, 2};
  std::vector<std::string> modes = {"checkpoint", "keep"};
  std::vector<std::string> workload_specs = {"checkerboard_sync"};
  CLI::App app{
      "Median ms per training epoch on the CPU backend (per thread count) or a Vulkan device."};
  app.add_option("--workloads", workload_specs,
                 "experiment names, each optionally NAME@BATCHxSIZE (e.g. checkerboard_sync@32x64)")
      ->capture_default_str();
  app.add_option("--epochs", epochs, "timed epochs per setting")
      ->capture_default_str()
      ->check(dlca::cli::positive_integer());
  app.add_option("--warmup", warmup, "untimed epochs first")
      ->capture_default_str()
      ->check(dlca::cli::non_negative_integer());
  app.add_option("--threads", threads, "thread counts (0 = the backend's default)")
      ->capture_default_str()
      ->check(dlca::cli::thread_count());
  app.add_option("--starts", starts, "candidates trained side by side, as a multi-start run")
      ->capture_default_str()
      ->check(dlca::cli::integer_from_to<int>(1, 64));
  app.add_option("--modes", modes, "checkpoint and/or keep")
      ->capture_default_str()
      ->check(CLI::IsMember({"checkpoint", "keep"}));
  app.add_option("--tile-cells", tile_cells, "cells per tile (0 = automatic)")
      ->capture_default_str()
      ->check(dlca::cli::non_negative_integer());
  app.add_option("--backend", backend,
                 "cpu, or vulkan (device 0; --threads and --modes then do not apply)")
      ->capture_default_str()
      ->check(CLI::IsMember({"cpu", "vulkan"}));
  app.add_flag("--apart", apart,
               "vulkan: each candidate on its own backend, one after the other (not a population)");
  app.add_flag("--fork-join", fork_join,
               "also time an empty parallel loop of 16 tasks at each thread count");
  DLCA_PARSE_OR_EXIT(app, "bench_epoch", argc, argv);

  std::vector<Workload> workloads;
  try {
    for (const std::string& spec : workload_specs) workloads.push_back(parse_workload(spec));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_epoch: %s\n", e.what());
    return 2;
  }
  if (fork_join)
    for (int t : threads)
      fmt::print("fork-join, {} threads, 16 tasks: {:.1f} us\n", t, fork_join_us(t, 16));
  fmt::print("{:<28} {:>6} {:<11} {:>7} {:>10} {:>10} {:>10} {:>14}\n", "workload", "starts",
             "mode", "threads", "median_ms", "min_ms", "max_ms", "gate_evals/s");
  const bool vulkan = backend == "vulkan";
  if (vulkan) {  // one row per workload
    modes = {apart ? "apart" : "population"};
    threads = {0};
  }
  std::string backend_name;
  for (const Workload& w : workloads) {
    for (const std::string& mode : modes) {
      for (int t : threads) {
        const dlca::MakeTask make_task = [&](const dlca::ExperimentConfig& c) {
          return dlca::make_task(w.experiment, c);
        };
        dlca::VulkanBackend* first_device = nullptr;
        const dlca::MakeBackend make_backend =
            [&](int start, int per_start) -> std::unique_ptr<dlca::Backend> {
          if (vulkan && start > 0 && !apart) return first_device->add_member();
          if (vulkan) {
            auto device = std::make_unique<dlca::VulkanBackend>();
            if (start == 0) first_device = device.get();
            return device;
          }
          return std::make_unique<dlca::CpuBackend>(dlca::CpuBackendOptions{
              .threads = per_start, .checkpointing = mode != "keep", .tile_cells = tile_cells});
        };
        dlca::ExperimentConfig run = w.experiment.config;
        run.starts = starts;
        std::vector<dlca::TrainingCandidate> candidates =
            dlca::make_candidates(run, make_task, make_backend, t);
        std::vector<dlca::Trainer*> trainers;
        for (auto& c : candidates) trainers.push_back(c.trainer.get());
        backend_name = candidates[0].backend->name();
        tbb::task_arena arena(dlca::arena_concurrency(t));
        const auto epoch_ms = [&] {
          const auto t0 = std::chrono::steady_clock::now();
          dlca::run_candidate_epochs(trainers, arena);
          return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
              .count();
        };
        for (int i = 0; i < warmup; ++i) epoch_ms();
        std::vector<double> ms;
        for (int i = 0; i < epochs; ++i) ms.push_back(epoch_ms());
        std::sort(ms.begin(), ms.end());
        const double med = ms[ms.size() / 2];
        fmt::print("{:<28} {:>6} {:<11} {:>7} {:>10.2f} {:>10.2f} {:>10.2f} {:>14.3e}\n", w.label,
                   starts, mode, t, med, ms.front(), ms.back(),
                   starts * gate_evaluations(trainers.front()->model()) / (med / 1000.0));
        std::fflush(stdout);
      }
    }
  }
  fmt::print(
      "backend {}; {} timed epochs after {} untimed a setting; peak RSS of this process {:.1f} MB "
      "(covers every setting above)\n",
      backend_name, epochs, warmup, peak_rss_mb());
  return 0;
}
