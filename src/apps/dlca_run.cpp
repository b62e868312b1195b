// dlca_run: runs a hard circuit (a trained model file, pruned, or a DigitalJS circuit) on grids of
// any size with the bit-parallel simulator (on the CPU or a Vulkan device): synchronous or
// asynchronous, periodic or zero boundary, random / seed / PNG initial state, damage, and outputs
// as PNG, animated GIF and a CSV of the error per step against a target.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include "tools.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/global_control.h>
#include <CLI/CLI.hpp>

#include "backend_options.hpp"
#include "cli_parse.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/backend_choice.hpp"

#include "dlca/circuits/circuit_kernel.hpp"
#include "dlca/circuits/digitaljs.hpp"
#include "dlca/circuits/simulation_grid.hpp"
#include "dlca/core/memory_budget.hpp"
#include "dlca/core/random.hpp"
#include "dlca/io/cell_pictures.hpp"
#include "dlca/io/image_target.hpp"
#include "dlca/io/output_paths.hpp"
#include "dlca/io/stop_signals.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/vulkan/vulkan_grid.hpp"

namespace {

using namespace dlca;

// --engine auto compiles the circuit's C for circuits up to this many gates. The C compiler's time
// grows faster than the gates (measured, cc -O3 on a shared 2-core x86: 12,000 gates 0.6-3 s,
// 15,600 8 s, 20,200 17 s, 46,800 more than 90 s), while the compiled step's lead over the
// interpreter shrinks (8 times as fast at 11,000 gates, 3 times at 20,200).
constexpr size_t kAutoCompiledGates = 16384;

struct Options {
  const char* program = "dlca_run";  // the name errors are reported under
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
  bool threshold_given = false, seed_given = false;  // typed on the command line
};

// An estimate of the host memory a run needs at its peak: the bit planes (state and next, per
// thread shifted rows, the packed targets; on a Vulkan device its staging buffer of one state), and
// the largest of: a PNG read (--init, --target) as decoded at its own size and as floats at the
// grid's size, and the final
// picture (--png: RGB, and stb's filtered copy and encoding). The start, the targets and the
// pictures go a row at a time between the grid's bit planes and the callers, never a byte per cell.
uint64_t run_memory_bytes(const Options& o, int channels, int height, int width, bool vulkan) {
  const uint64_t cells = uint64_t(height) * uint64_t(width), C = uint64_t(channels);
  const uint64_t plane_bytes = uint64_t(height) * ((uint64_t(width) + 63) / 64) * 8;
  const uint64_t threads = o.threads > 0 ? uint64_t(o.threads) : 64;
  uint64_t bytes = vulkan ? C * plane_bytes
                          : 2 * C * plane_bytes + threads * C * 3 * 66 * (plane_bytes / height);
  if (!o.target.empty() && !vulkan) bytes += std::min<uint64_t>(C, 3) * plane_bytes;
  const bool png_in = o.init != "random" && o.init != "seed";
  const bool png_target = !o.target.empty() && o.target != "checkerboard";
  uint64_t peak = 16 * uint64_t(width);  // rows of bytes
  uint64_t decoded = 0;  // the PNG as decoded at its own size, before it is resized to the grid
  if (png_in) decoded = png_decode_bytes(o.init);
  if (png_target) decoded = std::max(decoded, png_decode_bytes(o.target));
  if (png_in || png_target) peak += 2 * 12 * cells + decoded;
  if (!o.png_path.empty()) peak = std::max(peak, 6 * cells);  // RGB, filtered and encoded
  return bytes + peak;
}

// The cells of a PNG by the picture convention: mono (channel 0) or 8colour (0..2).
CellPicture png_cells(const Options& o, const std::string& path, int height, int width) {
  return read_cell_picture(path, height, width,
                           o.colour ? PictureColours::k8Colour : PictureColours::kMono,
                           o.threshold);
}

// The state drawn as a picture, a row at a time from the grid (render_cells' convention).
RgbImage draw_grid(SimulationGrid& grid, bool rgb, int zoom) {
  RgbImage picture = blank_cell_picture(grid.height(), grid.width(), zoom);
  const bool colour = rgb && grid.channels() >= 3;
  grid.read_state_rows(colour ? 3 : 1, [&](int c, int y, const uint8_t* row) {
    draw_cell_row(picture, c, y, row, colour, zoom);
  });
  return picture;
}

// The circuit to run, and what a model file says about it (its configuration, its task).
struct LoadedCircuit {
  Circuit circuit;
  std::optional<ExperimentConfig> config;  // (none for a DigitalJS circuit)
  TrainedTask task;                        // what the model was trained for (unknown for circuits)
};

LoadedCircuit load_circuit(const Options& o) {
  LoadedCircuit loaded;
  if (!o.model_path.empty()) {
    const Model model = load_model(o.model_path);
    loaded.config = model.config;
    loaded.task = model.task;
    loaded.circuit = prune(model);
  } else {
    loaded.circuit = load_digitaljs(o.circuit_path);
  }
  return loaded;
}

// Where the start comes from, and what the error is counted against.
enum class Start { kRandom, kSeedCell, kPicture };
enum class Target { kNone, kCheckerboard, kPicture, kModelTarget };

// A run as the options and the circuit decide it, checked before any work: the grid, the start,
// the target, the pictures.
struct RunPlan {
  int height = 0, width = 0, zoom = 1;
  bool periodic = true;
  Start start = Start::kRandom;
  Target target = Target::kNone;
  std::string target_name;  // as the report names it ("checkerboard", a path, the model's target)
  int trained_planes = 0;   // kModelTarget: the channels compared, 0..trained_planes-1
};

// Whether the model's image target can be counted on the planned grid: on the model's loss
// channels when they are channels 0..m-1 (the grid compares its first channels with the targets;
// plan.trained_planes is set to m), at the size it was trained on. Returns why not ("" when it
// can); with --csv, which needs it, a reason is an error.
std::string model_target_problem(const Options& o, const LoadedCircuit& loaded, RunPlan& plan) {
  const TrainedTask& task = loaded.task;
  std::vector<int> trained = loaded.config->loss_channels;
  std::sort(trained.begin(), trained.end());
  for (size_t i = 0; i < trained.size() && trained[i] == int(i); ++i)
    plan.trained_planes = int(i) + 1;
  if (plan.trained_planes != int(trained.size())) {
    const std::string why = fmt::format(
        "dlca run counts a target's first channels, and the model was trained on channel{} {}",
        trained.size() == 1 ? "" : "s", fmt::join(trained, ", "));
    if (!o.csv_path.empty())
      throw dlca::cli::UsageError(fmt::format(
          "--csv: {}: leave --csv out, or give --target FILE.png to count channels 0.. of a "
          "picture",
          why));
    return why;
  }
  if (task.height != plan.height || task.width != plan.width) {  // its rows are not the grid's
    const std::string why = fmt::format("the model's image target is {}x{}, the grid {}x{}",
                                        task.width, task.height, plan.width, plan.height);
    if (!o.csv_path.empty())
      throw dlca::cli::UsageError(fmt::format("--csv: {}: give --target FILE.png", why));
    return why;
  }
  return "";
}

RunPlan plan_run(const Options& o, const LoadedCircuit& loaded) {
  const int C = loaded.circuit.channels;
  const std::optional<ExperimentConfig>& config = loaded.config;
  RunPlan plan;
  plan.start = o.init == "random" ? Start::kRandom
               : o.init == "seed" ? Start::kSeedCell
                                  : Start::kPicture;
  if (o.rgb && C < 3)
    throw dlca::cli::UsageError(fmt::format(
        "--rgb: draws channels 0..2, the circuit has {} channel{}", C, C == 1 ? "" : "s"));
  const bool reads_png =
      plan.start == Start::kPicture || (!o.target.empty() && o.target != "checkerboard");
  if (o.colour && !reads_png)
    throw dlca::cli::UsageError(
        "--colour: reads PNGs (--init FILE.png, --target FILE.png); none given");
  if (o.threshold_given && (!reads_png || o.colour))
    throw dlca::cli::UsageError(
        o.colour ? "--threshold: not used with --colour (8-colour PNGs are read by their own rules)"
                 : "--threshold: reads mono PNGs (--init FILE.png, --target FILE.png); none given");
  if (o.seed_given && !o.async && o.damage_random == 0 && plan.start != Start::kRandom)
    throw dlca::cli::UsageError(
        "--seed: nothing in this run is random (it seeds --init random, --async and "
        "--damage-random)");
  if (o.size && o.width && o.height)
    throw dlca::cli::UsageError("--size: has no effect with both --width and --height");
  plan.height = o.height ? o.height : o.size ? o.size : config ? config->height : 64;
  plan.width = o.width ? o.width : o.size ? o.size : config ? config->width : 64;
  for (const auto& [name, side] :
       {std::pair{"--damage-block", o.damage_block}, std::pair{"--damage-random", o.damage_random}})
    if (side > std::min(plan.height, plan.width))
      throw dlca::cli::UsageError(fmt::format("{}: a {}x{} square does not fit the {}x{} grid",
                                              name, side, side, plan.width, plan.height));
  plan.periodic =
      o.boundary == "auto" ? (config ? config->periodic : true) : o.boundary == "periodic";
  plan.zoom = o.zoom ? o.zoom : std::max(1, 256 / std::max(plan.height, plan.width));
  if (!o.gif_path.empty() && int64_t(std::max(plan.height, plan.width)) * plan.zoom > 2048)
    throw dlca::cli::UsageError(
        fmt::format("--gif: a {}x{} grid at zoom {} is more than 2048 pixels a side; use --png or "
                    "a smaller grid",
                    plan.width, plan.height, plan.zoom));
  if (!o.png_path.empty() && !within_png_limits(uint64_t(plan.width), uint64_t(plan.height)))
    throw dlca::cli::UsageError(fmt::format(
        "--png: a {}x{} grid is larger than the PNGs dlca reads back (at most {} pixels a side "
        "and {} in all, e.g. 8192x8192); use a smaller grid",
        plan.width, plan.height, kMaxImageSide, kMaxImagePixels));
  check_memory(run_memory_bytes(o, C, plan.height, plan.width, o.backend == "vulkan"),
               fmt::format("a {}x{} grid of {} channels", plan.width, plan.height, C),
               o.max_memory.empty() ? 0 : parse_memory_size(o.max_memory));

  // The target for the error: explicit, or the model's task: the checkerboard, or its image target
  // (at the size it was trained on, on the channels it was trained on).
  const TrainedTask& task = loaded.task;
  plan.target_name = o.target;
  if (o.target == "checkerboard" || (o.target.empty() && task.kind == TaskKind::kCheckerboard)) {
    plan.target = Target::kCheckerboard;
    plan.target_name = "checkerboard";
  } else if (!o.target.empty()) {
    plan.target = Target::kPicture;
  } else if (task.kind == TaskKind::kImage) {
    if (const std::string why = model_target_problem(o, loaded, plan); !why.empty()) {
      if (!o.quiet) std::cout << "error against the model's target: not counted (" << why << ")\n";
    } else {
      plan.target = Target::kModelTarget;
      const size_t task_cells = size_t(task.height) * size_t(task.width);
      const int target_planes = int(task.target.size() / task_cells);
      plan.target_name =
          "the model's target (" + describe_task(task) +
          (plan.trained_planes != target_planes
               ? fmt::format(", the channel{} trained: 0{}", plan.trained_planes == 1 ? "" : "s",
                             plan.trained_planes == 1 ? std::string()
                                                      : fmt::format("-{}", plan.trained_planes - 1))
               : std::string()) +
          ")";
    }
  }
  if (!o.csv_path.empty() && plan.target == Target::kNone)
    throw dlca::cli::UsageError("--csv: needs --target checkerboard|FILE.png for the error");
  return plan;
}

// The grid: on a Vulkan device, or on the CPU with a compiled or interpreted kernel.
std::unique_ptr<SimulationGrid> make_grid(const Options& o, const Circuit& circuit,
                                          const RunPlan& plan) {
  const DeviceChoice where = choose_device(o.backend, o.device);
  if (!where.note.empty() && !o.quiet)
    std::fprintf(stderr, "%s: %s\n", o.program, where.note.c_str());
  if (where.device >= 0) {
    const GridShader shader = o.engine == "compiled"      ? GridShader::kGenerated
                              : o.engine == "interpreted" ? GridShader::kInterpreted
                                                          : GridShader::kAuto;
    try {
      auto device_grid = std::make_unique<VulkanGrid>(circuit, plan.height, plan.width,
                                                      plan.periodic, where.device, false, shader);
      if (!device_grid->generated_shader() && !device_grid->shader_note().empty() && !o.quiet)
        std::fprintf(stderr, "%s: %s; the device interprets the circuit\n", o.program,
                     device_grid->shader_note().c_str());
      return device_grid;
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("--backend vulkan: ") + e.what());
    }
  }
  std::shared_ptr<const CircuitKernel> kernel;
  if (o.engine == "auto" && circuit.gates.size() > kAutoCompiledGates) {
    if (!o.quiet)
      std::fprintf(stderr,
                   "%s: %zu gates: interpreted, since --engine auto compiles at most %zu "
                   "(beyond, the C compiler can take minutes; --engine compiled compiles "
                   "anyway)\n",
                   o.program, circuit.gates.size(), kAutoCompiledGates);
  } else if (o.engine != "interpreted") {
    try {
      kernel = compiled_kernel(circuit);
    } catch (const std::exception& e) {
      if (o.engine == "compiled")
        throw std::runtime_error(std::string("--engine compiled: ") + e.what());
      std::fprintf(stderr, "%s: %s; using the interpreter\n", o.program, e.what());
    }
  }
  if (!kernel) kernel = interpreted_kernel(circuit);
  return make_cpu_grid(circuit, kernel, plan.height, plan.width, plan.periodic);
}

// How many planes a picture has; more than the circuit's channels is an error.
int plane_count(int count, int channels, const std::string& what) {
  if (count > channels)
    throw dlca::cli::UsageError(
        fmt::format("{}: needs {} channels, the circuit has {}", what, count, channels));
  return count;
}

// The start goes a row at a time into the grid's bit planes.
void set_start(SimulationGrid& grid, const Options& o, const RunPlan& plan, int C) {
  const int width = plan.width, height = plan.height;
  if (plan.start == Start::kRandom) {
    const uint64_t key = derive_key(o.seed, 1);
    grid.set_state_rows(C, [&](int c, int y, uint8_t* row) {
      const size_t first = (size_t(c) * height + size_t(y)) * size_t(width);
      for (int x = 0; x < width; ++x) row[x] = uniform01(key, first + size_t(x)) < 0.5f;
    });
  } else if (plan.start == Start::kSeedCell) {
    grid.set_state_rows(C, [&](int, int y, uint8_t* row) {
      std::fill_n(row, width, 0);
      if (y == height / 2) row[width / 2] = 1;
    });
  } else {
    const CellPicture picture = png_cells(o, o.init, height, width);
    grid.set_state_rows(plane_count(picture.planes(), C, "--init " + o.init),
                        [&](int c, int y, uint8_t* row) { picture.row(c, y, row); });
  }
}

void set_target(SimulationGrid& grid, const Options& o, const RunPlan& plan,
                const TrainedTask& task, int C) {
  const int width = plan.width;
  if (plan.target == Target::kModelTarget) {  // at the grid's size (checked), [k][H][W]
    // Channels past the target's planes were trained toward 0 (older dlca allowed such loss
    // channels).
    const size_t task_cells = size_t(task.height) * size_t(task.width);
    const int target_planes = int(task.target.size() / task_cells);
    grid.set_target_rows(plane_count(plan.trained_planes, C, "--target " + plan.target_name),
                         [&](int c, int y, uint8_t* row) {
                           if (c < target_planes)
                             std::copy_n(&task.target[c * task_cells + size_t(y) * width], width,
                                         row);
                           else
                             std::fill_n(row, width, uint8_t(0));
                         });
  } else if (plan.target == Target::kCheckerboard) {
    grid.set_target_rows(1, [&](int, int y, uint8_t* row) {
      for (int x = 0; x < width; ++x) row[x] = uint8_t((y / 2 + x / 2) % 2);
    });
  } else if (plan.target == Target::kPicture) {
    const CellPicture picture = png_cells(o, o.target, plan.height, width);
    grid.set_target_rows(plane_count(picture.planes(), C, "--target " + o.target),
                         [&](int c, int y, uint8_t* row) { picture.row(c, y, row); });
  }
}

// The steps, with damage, GIF frames and CSV rows as they come; returns the seconds of stepping.
double run_steps(SimulationGrid& grid, const Options& o, const RunPlan& plan,
                 std::optional<GifWriter>& gif, OutputFile* csv) {
  const bool counted = plan.target != Target::kNone;
  const auto log_step = [&](int step) {
    csv->append(counted ? fmt::format("{},{},{}\n", step, grid.error(), grid.count(0))
                        : fmt::format("{},{}\n", step, grid.count(0)));
  };
  if (csv) {
    csv->append(counted ? "step,error,alive\n" : "step,alive\n");
    log_step(0);
  }
  if (gif) gif->add_frame(draw_grid(grid, o.rgb, plan.zoom));
  double step_seconds = 0;
  for (int s = 0; s < o.steps; ++s) {
    const auto start = std::chrono::steady_clock::now();
    if (o.async)
      grid.step_async(o.fire_rate, dlca::async_step_key(o.seed, s));
    else
      grid.step();
    if (o.damage_block > 0 && (o.damage_steps == 0 || s < o.damage_steps))
      grid.zero_rectangle((plan.height - o.damage_block) / 2, (plan.width - o.damage_block) / 2,
                          o.damage_block, o.damage_block);
    if (o.damage_random > 0) {
      Rng rng(derive_key(o.seed, 5000000 + uint64_t(s)));
      grid.zero_rectangle(int(rng.below(uint64_t(std::max(1, plan.height - o.damage_random + 1)))),
                          int(rng.below(uint64_t(std::max(1, plan.width - o.damage_random + 1)))),
                          o.damage_random, o.damage_random);
    }
    // A device queues its steps until the grid is read: the time waits for them to have run.
    const bool frame = gif && ((s + 1) % o.gif_every == 0 || s + 1 == o.steps);
    if (csv || frame || s + 1 == o.steps) grid.finish();
    step_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (csv) log_step(s + 1);
    if (frame) gif->add_frame(draw_grid(grid, o.rgb, plan.zoom));
  }
  return step_seconds;
}

void print_report(const Options& o, const RunPlan& plan, const Circuit& circuit,
                  SimulationGrid& grid, double step_seconds) {
  if (!o.quiet) {
    std::cout << fmt::format("circuit: {} gates, {} channels (on {})\n", circuit.gates.size(),
                             circuit.channels, grid.name());
    std::cout << fmt::format(
        "grid {}x{} {}, {} {} steps{}\n", plan.width, plan.height,
        plan.periodic ? "periodic" : "zero boundary", o.steps,
        o.async ? fmt::format("asynchronous (fire rate {})", o.fire_rate) : "synchronous",
        o.damage_block || o.damage_random ? ", with damage" : "");
    std::cout << fmt::format("alive in channel 0 after the last step: {}\n", grid.count(0));
    if (plan.target != Target::kNone)
      std::cout << fmt::format("error against {}: {}\n", plan.target_name, grid.error());
  }
  if (o.time) {
    const double us = 1e6 * step_seconds / std::max(1, o.steps);
    std::cout << fmt::format("time: {:.2f} us/step, {:.3g} cell-steps/s\n", us,
                             double(plan.width) * plan.height / (us * 1e-6));
  }
}

// A run: its files checked, its circuit loaded and its plan made before any work; then the grid,
// its start and target, the steps, the outputs (all or none) and the report.
int simulate(const Options& o) {
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
  const LoadedCircuit loaded = load_circuit(o);
  const RunPlan plan = plan_run(o, loaded);
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism,
                              o.threads > 0 ? size_t(o.threads)
                                            : tbb::global_control::active_value(
                                                  tbb::global_control::max_allowed_parallelism));
  const std::unique_ptr<SimulationGrid> grid = make_grid(o, loaded.circuit, plan);
  set_start(*grid, o, plan, loaded.circuit.channels);
  set_target(*grid, o, plan, loaded.task, loaded.circuit.channels);
  std::optional<GifWriter> gif;
  if (!o.gif_path.empty()) gif.emplace(o.gif_path, 100);
  // The CSV goes to its temporary as the run goes (OutputFile::append): a long run's rows are not
  // held in memory.
  std::unique_ptr<OutputFile> csv;
  if (!o.csv_path.empty()) csv = std::make_unique<OutputFile>(o.csv_path);
  const double step_seconds = run_steps(*grid, o, plan, gif, csv.get());
  OutputGroup outputs;  // all are written before any replaces its file
  if (csv) outputs.add(std::move(csv));
  if (gif) outputs.add(gif->finish_uncommitted());
  if (!o.png_path.empty())
    outputs.add(o.png_path, png_bytes(o.png_path, draw_grid(*grid, o.rgb, 1)));
  outputs.commit();
  print_report(o, plan, loaded.circuit, *grid, step_seconds);
  return 0;
}

}  // namespace

int dlca::apps::run(int argc, char** argv, const char* program) {
  Options o;
  CLI::App app{"Run a hard DiffLogic CA circuit on a grid of any size (bit-parallel simulator)."};
  auto* model = app.add_option("--model", o.model_path, "model file (pruned to its hard circuit)");
  auto* circuit = app.add_option("--circuit", o.circuit_path, "DigitalJS circuit (.json)");
  model->excludes(circuit);
  app.add_option("--size", o.size, "grid side (default: the model's training grid, else 64)")
      ->transform(dlca::cli::integer_from_to(1, 65536));
  app.add_option("--width", o.width, "grid width")->transform(dlca::cli::integer_from_to(1, 65536));
  app.add_option("--height", o.height, "grid height")
      ->transform(dlca::cli::integer_from_to(1, 65536));
  app.add_option("--steps", o.steps, "steps to run")
      ->capture_default_str()
      ->transform(dlca::cli::non_negative_integer());
  auto* periodic = app.add_flag_callback(
      "--periodic", [&] { o.boundary = "periodic"; }, "wrap the edges (torus)");
  app.add_flag_callback(
         "--zero-boundary", [&] { o.boundary = "zero"; },
         "cells beyond the edges read 0 (default: as the model was trained; "
         "periodic for circuits)")
      ->excludes(periodic);
  auto* async =
      app.add_flag("--async", o.async, "asynchronous steps: each cell fires with --fire-rate");
  app.add_option("--fire-rate", o.fire_rate, "probability a cell updates in an async step")
      ->capture_default_str()
      ->transform(dlca::cli::rate())
      ->needs(async);
  auto* seed = app.add_option("--seed", o.seed, "seed for the random state, masks and damage")
                   ->capture_default_str()
                   ->transform(dlca::cli::non_negative_integer<uint64_t>());
  app.add_option("--threads", o.threads, "worker threads (0 = all cores)")
      ->transform(dlca::cli::thread_count());
  app.add_option("--init", o.init, "initial state: random, seed (centre cell on) or FILE.png")
      ->capture_default_str();
  app.add_flag("--colour", o.colour,
               "read PNGs (--init, --target) as 3 channels with the 8-colour rules");
  auto* threshold =
      app.add_option("--threshold", o.threshold,
                     "mono PNGs: a cell is live where R, G or B (premultiplied) is above it")
          ->capture_default_str()
          ->transform(dlca::cli::number_from_to<float>(0, 1));
  app.add_option("--target", o.target,
                 "checkerboard or FILE.png: the error in --csv is against it (default: the "
                 "model's task)");
  auto* damage_block =
      app.add_option("--damage-block", o.damage_block,
                     "zero a centred N x N block after every step (or the first --damage-steps)")
          ->transform(dlca::cli::positive_integer());
  app.add_option("--damage-steps", o.damage_steps, "damage only after the first N steps")
      ->transform(dlca::cli::positive_integer())
      ->needs(damage_block);
  app.add_option("--damage-random", o.damage_random,
                 "zero a random N x N square after every step (the paper's robustness test: 10, "
                 "docs/MODEL.md §10.1)")
      ->transform(dlca::cli::positive_integer());
  app.add_option("--png", o.png_path, "write the final state as PNG (one pixel per cell)");
  auto* gif = app.add_option("--gif", o.gif_path, "write an animated GIF of the run");
  app.add_option("--gif-every", o.gif_every, "steps between GIF frames")
      ->capture_default_str()
      ->transform(dlca::cli::positive_integer())
      ->needs(gif);
  app.add_option("--zoom", o.zoom, "GIF pixels per cell (default: up to 256 pixels wide)")
      ->transform(dlca::cli::positive_integer())
      ->needs(gif);
  app.add_flag("--rgb", o.rgb,
               "draw channels 0..2 as R, G, B (read back with --colour) instead of channel 0 in "
               "grey (live = white)");
  app.add_option("--csv", o.csv_path, "write step,error,alive per step");
  app.add_flag("--time", o.time, "print the wall time per step, excluding start-up");
  app.add_option("--engine", o.engine,
                 fmt::format("compiled (the circuit's C built for this CPU, or on a device its "
                             "shader built with glslang), interpreted, or auto (compiled when it "
                             "builds; on the CPU only circuits of at most {} gates)",
                             kAutoCompiledGates))
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "compiled", "interpreted"}));
  dlca::cli::add_backend_options(app, o.backend, o.device);
  app.add_flag("--quiet", o.quiet, "print only --time");
  app.add_option("--max-memory", o.max_memory,
                 "memory the run may use, e.g. 4G (default: what is available); a run that needs "
                 "more is refused before it starts")
      ->check(CLI::Validator(memory_size_error, "SIZE"));
  DLCA_PARSE_OR_EXIT(app, program, argc, argv);
  if (o.model_path.empty() && o.circuit_path.empty()) {
    std::fprintf(stderr, "%s: give --model FILE or --circuit FILE.json\n", program);
    return dlca::cli::kExitUsage;
  }
  // Options that would change nothing: refused, not ignored.
  const char* without_effect = o.rgb && o.png_path.empty() && o.gif_path.empty()
                                   ? "--rgb: draws the --png and --gif pictures; give one of them"
                               : o.time && o.steps == 0 ? "--time: no steps to time (--steps 0)"
                                                        : nullptr;
  if (without_effect) {
    std::fprintf(stderr, "%s: %s\n", program, without_effect);
    return dlca::cli::kExitUsage;
  }
  const StopSignals signals(false);  // a signal removes the temporary files, then ends the run
  try {
    o.program = program;
    o.threshold_given = threshold->count() > 0;
    o.seed_given = seed->count() > 0;
    return simulate(o);
  } catch (...) {
    return dlca::cli::report_failure(
        program,
        "out of memory for the grid and its pictures (try a smaller grid, or fewer "
        "outputs)");
  }
}
