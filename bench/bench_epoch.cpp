// bench_epoch: times training epochs of the paper's checkerboard configuration on the CPU backend:
// median ms per epoch (after warm-up) at each thread count, with checkpointing on and off, gate
// evaluations per second, and the process's peak RSS. Results go to BENCHMARKS.md by hand.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <sys/resource.h>
#include <CLI/CLI.hpp>

#include "../src/apps/cli_numbers.hpp"
#include "../src/apps/cli_parse.hpp"

#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/train/checkerboard.hpp"
#include "dlca/train/trainer.hpp"

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

}  // namespace

int main(int argc, char** argv) {
  int epochs = 30, warmup = 5, tile_cells = 0;
  std::vector<int> threads = {1, 2};
  std::vector<std::string> modes = {"checkpoint", "keep"};
  CLI::App app{"Median ms per checkerboard training epoch on the CPU backend."};
  app.add_option("--epochs", epochs, "timed epochs per setting")
      ->capture_default_str()
      ->check(dlca::cli::positive_integer());
  app.add_option("--warmup", warmup, "untimed epochs first")
      ->capture_default_str()
      ->check(dlca::cli::non_negative_integer());
  app.add_option("--threads", threads, "thread counts")
      ->capture_default_str()
      ->check(dlca::cli::thread_count());
  app.add_option("--modes", modes, "checkpoint and/or keep")
      ->capture_default_str()
      ->check(CLI::IsMember({"checkpoint", "keep"}));
  app.add_option("--tile-cells", tile_cells, "cells per tile (0 = automatic)")
      ->capture_default_str()
      ->check(dlca::cli::non_negative_integer());
  DLCA_PARSE_OR_EXIT(app, "bench_epoch", argc, argv);

  const dlca::ExperimentConfig config = dlca::checkerboard_sync_config();
  const dlca::CheckerboardTask task(config);
  fmt::print("{:<11} {:>7} {:>10} {:>10} {:>10} {:>14}\n", "mode", "threads", "median_ms", "min_ms",
             "max_ms", "gate_evals/s");
  for (const std::string& mode : modes) {
    for (int t : threads) {
      dlca::CpuBackend backend(
          {.threads = t, .checkpointing = mode != "keep", .tile_cells = tile_cells});
      dlca::Trainer trainer(dlca::make_model(config), task, backend);
      for (int i = 0; i < warmup; ++i) trainer.run_epoch();
      std::vector<double> ms;
      for (int i = 0; i < epochs; ++i) ms.push_back(trainer.run_epoch().milliseconds);
      std::sort(ms.begin(), ms.end());
      const double med = ms[ms.size() / 2];
      fmt::print("{:<11} {:>7} {:>10.2f} {:>10.2f} {:>10.2f} {:>14.3e}\n", mode, t, med, ms.front(),
                 ms.back(), gate_evaluations(trainer.model()) / (med / 1000.0));
      std::fflush(stdout);
    }
  }
  fmt::print("backend {}; peak RSS of this process {:.1f} MB (covers every setting above)\n",
             dlca::CpuBackend().name(), peak_rss_mb());
  return 0;
}
