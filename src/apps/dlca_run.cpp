// dlca_run: runs a hard circuit (a trained model file, pruned, or a DigitalJS circuit) on grids of
// any size with the bit-parallel simulator (on the CPU or a Vulkan device): synchronous or
// asynchronous, periodic or zero boundary, random / seed / PNG initial state, damage, and outputs
// as PNG, animated GIF and a CSV of the error per step against a target.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>

#include <fmt/format.h>
#include <tbb/global_control.h>
#include <CLI/CLI.hpp>

#include "backend_options.hpp"
#include "cli_parse.hpp"
#include "dlca/atomic_file.hpp"
#include "dlca/backend_choice.hpp"

#include "dlca/cell_pictures.hpp"
#include "dlca/circuit_kernel.hpp"
#include "dlca/digitaljs.hpp"
#include "dlca/memory_budget.hpp"
#include "dlca/model_file.hpp"
#include "dlca/output_paths.hpp"
#include "dlca/random.hpp"
#include "dlca/simulation_grid.hpp"
#include "dlca/stop_signals.hpp"
#include "dlca/vulkan_grid.hpp"

namespace {

using namespace dlca;

struct Options {
  std::string model_path, circuit_path;
  int size = 0, width = 0, height = 0, steps = 100, threads = 0;
  std::string boundary = "auto", init = "random", engine = "auto", target, backend = "cpu";
  int device = -1;
  bool async = false, rgb = false, colour = false, time = false, quiet = false;
  double fire_rate = 0.6;
  float threshold = kDefaultThreshold;
  uint64_t seed = 1;
  int damage_block = 0, damage_steps = 0, damage_random = 0;
  std::string png_path, gif_path, csv_path, max_memory;
  int gif_every = 1, zoom = 0;
};

// An estimate of the host memory a run needs at its peak: the bit planes (state and next, per
// thread shifted rows), the byte-per-cell planes of the start, target and final picture, and a
// PNG's pixels (as floats) when one is read.
uint64_t run_memory_bytes(const Options& o, int channels, int height, int width, bool vulkan) {
  const uint64_t cells = uint64_t(height) * uint64_t(width), C = uint64_t(channels);
  const uint64_t plane_bytes = uint64_t(height) * ((uint64_t(width) + 63) / 64) * 8;
  const uint64_t threads = o.threads > 0 ? uint64_t(o.threads) : 64;
  uint64_t bytes = vulkan ? C * plane_bytes
                          : 2 * C * plane_bytes + threads * C * 3 * 66 * (plane_bytes / height);
  const bool png_in = o.init != "random" && o.init != "seed";
  const bool png_target = !o.target.empty() && o.target != "checkerboard";
  uint64_t peak = (C + 1) * cells;                            // a start as bytes, and a zero plane
  if (png_in || png_target) peak += 3 * 16 * cells;           // a PNG resized to the grid (floats)
  if (!o.target.empty()) bytes += 3 * (cells + plane_bytes);  // targets, bytes and packed
  if (!o.png_path.empty()) peak = std::max(peak, (C + 6) * cells);  // state, RGB, encoded
  return bytes + peak;
}

// Bit planes [k][H][W] of a PNG by the picture convention: mono (channel 0) or 8colour (0..2).
std::vector<uint8_t> png_planes(const Options& o, const std::string& path, int height, int width) {
  return read_cell_planes(path, height, width,
                          o.colour ? PictureColours::k8Colour : PictureColours::kMono, o.threshold);
}

int run(const Options& o) {
  // Files are checked before any work.
  const auto is_file = [](const std::string& what, std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (what == n) return std::string();
    return what;
  };
  check_output_paths({{"--model", o.model_path},
                      {"--circuit", o.circuit_path},
                      {"--init", is_file(o.init, {"random", "seed"})},
                      {"--target", is_file(o.target, {"checkerboard"})}},
                     {{"--png", o.png_path}, {"--gif", o.gif_path}, {"--csv", o.csv_path}});

  // The circuit.
  Circuit circuit;
  std::optional<ExperimentConfig> config;
  TrainedTask task;  // what the model was trained for (unknown for circuits)
  if (!o.model_path.empty()) {
    const Model model = load_model(o.model_path);
    config = model.config;
    task = model.task;
    circuit = prune(model);
  } else {
    circuit = load_digitaljs(o.circuit_path);
  }
  const int C = circuit.channels;
  const int height = o.height ? o.height : o.size ? o.size : config ? config->height : 64;
  const int width = o.width ? o.width : o.size ? o.size : config ? config->width : 64;
  const bool periodic =
      o.boundary == "auto" ? (config ? config->periodic : true) : o.boundary == "periodic";
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              o.threads > 0 ? size_t(o.threads)
                                            : tbb::global_control::active_value(
                                                  tbb::global_control::max_allowed_parallelism));

  const int zoom = o.zoom ? o.zoom : std::max(1, 256 / std::max(height, width));
  if (!o.gif_path.empty() && int64_t(std::max(height, width)) * zoom > 2048)
    throw std::runtime_error(fmt::format(
        "--gif: a {}x{} grid at zoom {} is more than 2048 pixels wide; use --png or a smaller grid",
        width, height, zoom));
  check_memory(run_memory_bytes(o, C, height, width, o.backend == "vulkan"),
               fmt::format("a {}x{} grid of {} channels", width, height, C),
               o.max_memory.empty() ? 0 : parse_memory_size(o.max_memory));

  // The grid: on a Vulkan device, or on the CPU with a compiled or interpreted kernel.
  std::unique_ptr<SimulationGrid> grid;
  std::shared_ptr<const CircuitKernel> kernel;
  int device = o.device;
  if (o.backend == "auto") {
    std::string why;
    device = auto_vulkan_device(o.device, why);
    if (device < 0 && !o.quiet)
      std::fprintf(stderr, "dlca_run: auto: running on the CPU: %s\n", why.c_str());
  }
  if (o.backend == "vulkan" || (o.backend == "auto" && device >= 0)) {
    try {
      grid = std::make_unique<VulkanGrid>(circuit, height, width, periodic, std::max(device, 0));
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("--backend vulkan: ") + e.what());
    }
  } else {
    if (o.engine != "interpreted") {
      try {
        kernel = compiled_kernel(circuit);
      } catch (const std::exception& e) {
        if (o.engine == "compiled")
          throw std::runtime_error(std::string("--engine compiled: ") + e.what());
        std::fprintf(stderr, "dlca_run: %s; using the interpreter\n", e.what());
      }
    }
    if (!kernel) kernel = interpreted_kernel(circuit);
    grid = make_cpu_grid(circuit, kernel, height, width, periodic);
  }

  const size_t cells = size_t(height) * width;
  // How many [H][W] planes `planes` holds; more than the circuit's channels is an error.
  const auto plane_count = [&](const std::vector<uint8_t>& planes, const std::string& what) {
    const int count = int(planes.size() / cells);
    if (count > C)
      throw std::runtime_error(
          fmt::format("{}: needs {} channels, the circuit has {}", what, count, C));
    return count;
  };
  if (o.init == "random") {
    std::vector<uint8_t> planes(size_t(C) * cells);
    for (size_t i = 0; i < planes.size(); ++i)
      planes[i] = uniform01(derive_key(o.seed, 1), i) < 0.5f;
    grid->set_planes(planes);
  } else if (o.init == "seed") {
    std::vector<uint8_t> planes(size_t(C) * cells, 0);
    for (int c = 0; c < C; ++c)
      planes[size_t(c) * cells + size_t(height / 2) * width + width / 2] = 1;
    grid->set_planes(planes);
  } else {
    const auto planes = png_planes(o, o.init, height, width);
    plane_count(planes, "--init " + o.init);
    grid->set_planes(planes);
  }

  // The target for the error CSV: explicit, or the model's task: the checkerboard, or its image
  // target (at the size it was trained on).
  std::string target = o.target;
  const bool image_task = target.empty() && task.kind == TaskKind::kImage;
  if (target.empty() && task.kind == TaskKind::kCheckerboard) target = "checkerboard";
  if (image_task && (task.height != height || task.width != width)) {
    if (!o.csv_path.empty())
      throw std::runtime_error(fmt::format(
          "--csv: the model's image target is {}x{}, the grid {}x{}: give --target FILE.png",
          task.width, task.height, width, height));
  } else if (image_task) {
    target = "the model's target (" + describe_task(task) + ")";
  }
  if (!o.csv_path.empty() && target.empty())
    throw std::runtime_error("--csv: needs --target checkerboard|FILE.png for the error");
  if (!target.empty()) {
    std::vector<uint8_t> planes;
    if (image_task) {
      planes = task.target;
    } else if (target == "checkerboard") {
      for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) planes.push_back(uint8_t((y / 2 + x / 2) % 2));
    } else {
      planes = png_planes(o, target, height, width);
    }
    plane_count(planes, "--target " + target);
    grid->set_targets(planes);
  }
  const auto error = [&] { return grid->error(); };

  std::optional<GifWriter> gif;
  if (!o.gif_path.empty()) {
    gif.emplace(o.gif_path, 100);
    gif->add_frame(render_cells(grid->planes(), C, height, width, o.rgb, zoom));
  }
  std::string csv = target.empty() ? "step,alive\n" : "step,error,alive\n";
  const auto log_step = [&](int step) {
    csv += target.empty() ? fmt::format("{},{}\n", step, grid->count(0))
                          : fmt::format("{},{},{}\n", step, error(), grid->count(0));
  };
  log_step(0);
  double step_seconds = 0;
  for (int s = 0; s < o.steps; ++s) {
    const auto start = std::chrono::steady_clock::now();
    if (o.async)
      grid->step_async(o.fire_rate, derive_key(o.seed, 1000 + uint64_t(s)));
    else
      grid->step();
    if (o.damage_block > 0 && (o.damage_steps == 0 || s < o.damage_steps))
      grid->zero_rectangle((height - o.damage_block) / 2, (width - o.damage_block) / 2,
                           o.damage_block, o.damage_block);
    if (o.damage_random > 0) {
      Rng rng(derive_key(o.seed, 5000000 + uint64_t(s)));
      grid->zero_rectangle(int(rng.below(uint64_t(std::max(1, height - o.damage_random + 1)))),
                           int(rng.below(uint64_t(std::max(1, width - o.damage_random + 1)))),
                           o.damage_random, o.damage_random);
    }
    step_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!o.csv_path.empty()) log_step(s + 1);
    if (gif && ((s + 1) % o.gif_every == 0 || s + 1 == o.steps))
      gif->add_frame(render_cells(grid->planes(), C, height, width, o.rgb, zoom));
  }

  if (!o.csv_path.empty()) write_file_atomically(o.csv_path, csv);
  if (gif) gif->finish();
  if (!o.png_path.empty())
    write_png(o.png_path, render_cells(grid->planes(), C, height, width, o.rgb, 1));
  if (!o.quiet) {
    std::cout << fmt::format("circuit: {} gates, {} channels (on {})\n", circuit.gates.size(), C,
                             grid->name());
    std::cout << fmt::format(
        "grid {}x{} {}, {} {} steps{}\n", width, height, periodic ? "periodic" : "zero boundary",
        o.steps, o.async ? fmt::format("asynchronous (fire rate {})", o.fire_rate) : "synchronous",
        o.damage_block || o.damage_random ? ", with damage" : "");
    std::cout << fmt::format("alive in channel 0 after the last step: {}\n", grid->count(0));
    if (!target.empty()) std::cout << fmt::format("error against {}: {}\n", target, error());
  }
  if (o.time) {
    const double us = 1e6 * step_seconds / std::max(1, o.steps);
    std::cout << fmt::format("time: {:.2f} us/step, {:.3g} cell-steps/s\n", us,
                             double(width) * height / (us * 1e-6));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"Run a hard DiffLogic CA circuit on a grid of any size (bit-parallel simulator)."};
  auto* model = app.add_option("--model", o.model_path, "model file (pruned to its hard circuit)");
  auto* circuit = app.add_option("--circuit", o.circuit_path, "DigitalJS circuit (.json)");
  model->excludes(circuit);
  app.add_option("--size", o.size, "grid side (default: the model's training grid, else 64)")
      ->check(dlca::cli::integer_from_to(1, 65536));
  app.add_option("--width", o.width, "grid width")->check(dlca::cli::integer_from_to(1, 65536));
  app.add_option("--height", o.height, "grid height")->check(dlca::cli::integer_from_to(1, 65536));
  app.add_option("--steps", o.steps, "steps to run")
      ->capture_default_str()
      ->check(dlca::cli::non_negative_integer());
  app.add_flag_callback(
      "--periodic", [&] { o.boundary = "periodic"; }, "wrap the edges (torus)");
  app.add_flag_callback(
      "--zero-boundary", [&] { o.boundary = "zero"; },
      "cells beyond the edges read 0 (default: as the model was trained; "
      "periodic for circuits)");
  app.add_flag("--async", o.async, "asynchronous steps: each cell fires with --fire-rate");
  app.add_option("--fire-rate", o.fire_rate, "probability a cell updates in an async step")
      ->capture_default_str()
      ->check(dlca::cli::rate());
  app.add_option("--seed", o.seed, "seed for the random state, masks and damage")
      ->capture_default_str()
      ->check(dlca::cli::non_negative_integer<uint64_t>());
  app.add_option("--threads", o.threads, "worker threads (0 = all cores)")
      ->check(dlca::cli::non_negative_integer());
  app.add_option("--init", o.init, "initial state: random, seed (centre cell on) or FILE.png")
      ->capture_default_str();
  app.add_flag("--colour", o.colour,
               "read PNGs (--init, --target) as 3 channels with the 8-colour rules");
  app.add_option("--threshold", o.threshold,
                 "mono PNGs: a cell is live where R, G or B (premultiplied) is above it")
      ->capture_default_str()
      ->check(dlca::cli::number_from_to<float>(0, 1));
  app.add_option("--target", o.target,
                 "checkerboard or FILE.png: the error in --csv is against it (default: the "
                 "model's task)");
  app.add_option("--damage-block", o.damage_block,
                 "zero a centred N x N block after every step (or the first --damage-steps)")
      ->check(dlca::cli::non_negative_integer());
  app.add_option("--damage-steps", o.damage_steps, "damage only after the first N steps")
      ->check(dlca::cli::non_negative_integer());
  app.add_option("--damage-random", o.damage_random,
                 "zero a random N x N square after every step (SPEC robustness protocol: 10)")
      ->check(dlca::cli::non_negative_integer());
  app.add_option("--png", o.png_path, "write the final state as PNG (one pixel per cell)");
  app.add_option("--gif", o.gif_path, "write an animated GIF of the run");
  app.add_option("--gif-every", o.gif_every, "steps between GIF frames")
      ->capture_default_str()
      ->check(dlca::cli::positive_integer());
  app.add_option("--zoom", o.zoom, "GIF pixels per cell (default: up to 256 pixels wide)")
      ->check(dlca::cli::positive_integer());
  app.add_flag("--rgb", o.rgb,
               "draw channels 0..2 as R, G, B (read back with --colour) instead of channel 0 in "
               "grey (live = white)");
  app.add_option("--csv", o.csv_path, "write step,error,alive per step");
  app.add_flag("--time", o.time, "print the wall time per step, excluding start-up");
  app.add_option("--engine", o.engine,
                 "compiled (the circuit's C, built for this CPU), interpreted, or auto")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "compiled", "interpreted"}));
  dlca::cli::add_backend_options(app, o.backend, o.device);
  app.add_flag("--quiet", o.quiet, "print only --time");
  app.add_option("--max-memory", o.max_memory,
                 "memory the run may use, e.g. 4G (default: what is available); a run that needs "
                 "more is refused before it starts")
      ->check(CLI::Validator(memory_size_error, "SIZE"));
  DLCA_PARSE_OR_EXIT(app, "dlca_run", argc, argv);
  if (o.model_path.empty() && o.circuit_path.empty()) {
    std::fprintf(stderr, "dlca_run: give --model FILE or --circuit FILE.json\n");
    return 2;
  }
  const StopSignals signals(false);  // a signal removes the temporary files, then ends the run
  try {
    return run(o);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "dlca_run: out of memory for the grid and its pictures (try a smaller "
                 "grid, or fewer outputs)\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dlca_run: %s\n", e.what());
    return 1;
  }
}
