// dlca_eval: runs the paper's evaluation protocols on a trained checkerboard model (a --save file):
// generalisation, fault tolerance, self-healing, asynchronous inference and robustness. Prints a
// summary and writes the error against the target after every step as CSV. On the CPU or, with
// --backend vulkan, on a Vulkan device (the same errors).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
#include <vector>
#include "tools.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/global_control.h>
#include <CLI/CLI.hpp>

#include "backend_options.hpp"
#include "cli_parse.hpp"
#include "dlca/core/memory_budget.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/output_paths.hpp"
#include "dlca/io/stop_signals.hpp"
#include "dlca/train/backend_choice.hpp"
#include "dlca/train/evaluation.hpp"
#include "dlca/train/model_file.hpp"

namespace {

struct EvalOptions {
  std::string model_path, test = "generalize", csv_path, backend = "cpu";
  int device = -1;
  int size = 0, steps = 0, block = 20, block_steps = -1, square = 10, threads = 0;
  float fire_rate = dlca::kNotebookFireRate;
  uint64_t seed = 1;
  // Given on the command line (not the defaults).
  bool block_given = false, block_steps_given = false, square_given = false,
       fire_rate_given = false;
};

// An option the chosen test does not read would be silently ignored: refused instead.
void refuse_unused_options(const EvalOptions& o) {
  const std::vector<std::tuple<const char*, bool, std::vector<std::string>>> used_by = {
      {"--block", o.block_given, {"fault", "heal"}},
      {"--block-steps", o.block_steps_given, {"heal"}},
      {"--square", o.square_given, {"robustness"}}};
  for (const auto& [option, given, tests] : used_by)
    if (given && std::find(tests.begin(), tests.end(), o.test) == tests.end())
      throw dlca::cli::UsageError(fmt::format("{}: not used by --test {} (only by {})", option,
                                              o.test, fmt::join(tests, " and ")));
}

// The evaluation the options ask of this model: its grid, steps and damage, every value checked.
dlca::EvaluationSettings evaluation_settings(const EvalOptions& o, const dlca::Model& model) {
  const std::string& test = o.test;
  dlca::EvaluationSettings s;
  const bool robustness = test == "robustness";
  // The defaults scale the training grid and steps by 4: in 64 bits, refused past the limits.
  // 4 x the training grid's larger side (the evaluation grid is square).
  const int64_t trained_side = std::max(model.config.height, model.config.width);
  const int64_t default_size = 4 * trained_side, default_steps = 4 * int64_t(model.config.steps);
  if (o.size == 0 && !robustness && default_size > 8192)
    throw std::runtime_error(
        fmt::format("{}: 4 x the training grid ({}) is more than 8192 cells wide; give --size",
                    o.model_path, trained_side));
  if (o.steps == 0 && !robustness && default_steps > 1000000000)
    throw std::runtime_error(
        fmt::format("{}: 4 x the training steps ({}) is more than 1000000000 steps; give --steps",
                    o.model_path, model.config.steps));
  s.size = o.size > 0 ? o.size : robustness ? 64 : int(default_size);
  s.steps = o.steps > 0 ? o.steps : robustness ? 4000 : int(default_steps);
  s.async = test == "async" || robustness || model.config.async;
  if (!s.async && o.fire_rate_given)
    throw dlca::cli::UsageError(
        fmt::format("--fire-rate: not used by --test {} of a synchronous model (only by async and "
                    "robustness)",
                    test));
  s.fire_rate = o.fire_rate;
  s.block = (test == "fault" || test == "heal") ? o.block : 0;
  s.block_steps = test == "heal" ? (o.block_steps >= 0 ? o.block_steps : s.steps / 2) : -1;
  if (test == "heal" && (s.block_steps < 1 || s.block_steps >= s.steps))
    throw dlca::cli::UsageError(
        fmt::format("heal: the block is zeroed for {} of {} steps; it needs at least 1 step "
                    "damaged and 1 to heal (--block-steps, --steps)",
                    s.block_steps, s.steps));
  s.random_square = robustness ? o.square : 0;
  // A block or square of side 0 damages nothing (the test would test nothing); one wider than the
  // grid is the whole grid, which is not what the option says.
  for (const auto& [option, side, given] :
       {std::tuple{"--block", s.block, o.block_given},
        std::tuple{"--square", s.random_square, o.square_given}})
    if ((option == std::string("--block") ? test == "fault" || test == "heal" : robustness) &&
        (side < 1 || side > s.size))
      throw dlca::cli::UsageError(fmt::format(
          "{} {}: must be from 1 to the grid's side ({}) for --test {}{}", option, side, s.size,
          test, given ? "" : fmt::format(" (the default; give {} for this grid)", option)));
  s.seed = o.seed;
  return s;
}

// Evaluates, writes --csv and prints the result line.
void evaluate_and_report(const EvalOptions& o, const char* program) {
  refuse_unused_options(o);
  dlca::check_output_paths({{"--model", o.model_path}}, {{"--csv", o.csv_path}});
  const dlca::Model model = dlca::load_model(o.model_path);
  dlca::EvaluationSettings s = evaluation_settings(o, model);
  const dlca::DeviceChoice where = dlca::choose_device(o.backend, o.device);
  if (!where.note.empty()) std::fprintf(stderr, "%s: %s\n", program, where.note.c_str());
  s.vulkan = where.device >= 0;
  s.device = std::max(where.device, 0);
  // The error of every step is kept (8 bytes a step; up to 10^9 steps): refused before it
  // outgrows the memory. The CSV is written from it as it goes (OutputFile::append).
  dlca::check_memory(uint64_t(s.steps) * sizeof(int64_t),
                     fmt::format("keeping the error of each of {} steps", s.steps), 0, false);
  try {  // a model of another task: the test asked of it does not fit it (bad usage)
    (void)dlca::evaluation_target(model, 1);
  } catch (const std::invalid_argument& e) {
    throw dlca::cli::UsageError(e.what());
  }
  const auto errors = dlca::evaluate(model, s);
  if (!o.csv_path.empty()) {
    dlca::OutputFile csv_file(o.csv_path);
    csv_file.append("step,error\n");
    for (size_t i = 0; i < errors.size(); ++i)
      csv_file.append(fmt::format("{},{}\n", i + 1, errors[i]));
    csv_file.commit();
  }
  const size_t tail_from = errors.size() > 500 ? 500 : errors.size() / 2;
  const double tail_mean = std::accumulate(errors.begin() + tail_from, errors.end(), 0.0) /
                           double(errors.size() - tail_from);
  fmt::print(
      "{} on {}x{}, {} {} step{}{}: final error {}, min {}, mean from step {} {:.1f} (cells "
      "{})\n",
      o.test, s.size, s.size, s.steps, s.async ? "asynchronous" : "synchronous",
      s.steps == 1 ? "" : "s",
      s.block           ? fmt::format(", {0}x{0} block zeroed{1}", s.block,
                            s.block_steps >= 0 ? fmt::format(" for {} steps", s.block_steps) : "")
      : s.random_square ? fmt::format(", random {0}x{0} squares", s.random_square)
                        : "",
      errors.back(), *std::min_element(errors.begin(), errors.end()), tail_from + 1, tail_mean,
      s.size * s.size);
}

}  // namespace

int dlca::apps::eval(int argc, char** argv, const char* program) {
  EvalOptions o;
  CLI::App app{
      "Evaluate a trained checkerboard rule with hard gates (Miotti et al. 2025, docs/MODEL.md "
      "§10.1, §10.2).\n"
      "Tests: generalize (4x grid, 4x steps), fault (20x20 centre block zeroed after every step),\n"
      "heal (zeroed for the first half of the steps), async (asynchronous inference), robustness\n"
      "(64x64, 4000 async steps, a random 10x10 square zeroed after every step)."};
  app.add_option("--model", o.model_path, "parameter file written by --save")->required();
  app.add_option("--test", o.test, "generalize, fault, heal, async or robustness")
      ->capture_default_str()
      ->check(CLI::IsMember({"generalize", "fault", "heal", "async", "robustness"}));
  app.add_option("--size", o.size,
                 "grid side (default: 4x the training grid's larger side; 64 for robustness)")
      ->transform(dlca::cli::integer_from_to(3, 8192));
  app.add_option("--steps", o.steps, "steps (default: 4x the training steps; 4000 for robustness)")
      ->transform(dlca::cli::positive_integer());
  app.add_option("--block", o.block, "side of the zeroed centre block (fault, heal)")
      ->capture_default_str()
      ->transform(dlca::cli::non_negative_integer());
  app.add_option("--block-steps", o.block_steps,
                 "heal: steps during which the block is zeroed (default: half)")
      ->transform(dlca::cli::non_negative_integer());
  app.add_option("--square", o.square, "side of the random square (robustness)")
      ->capture_default_str()
      ->transform(dlca::cli::non_negative_integer());
  app.add_option("--fire-rate", o.fire_rate, "async fire rate")
      ->capture_default_str()
      ->transform(dlca::cli::rate<float>());
  app.add_option("--seed", o.seed, "initial grid, masks and squares")
      ->capture_default_str()
      ->transform(dlca::cli::non_negative_integer<uint64_t>());
  app.add_option("--threads", o.threads, "worker threads (0 = all cores)")
      ->capture_default_str()
      ->transform(dlca::cli::thread_count());
  app.add_option("--csv", o.csv_path, "write step,error");
  dlca::cli::add_backend_options(app, o.backend, o.device);
  DLCA_PARSE_OR_EXIT(app, program, argc, argv);
  o.block_given = app.count("--block") > 0;
  o.block_steps_given = app.count("--block-steps") > 0;
  o.square_given = app.count("--square") > 0;
  o.fire_rate_given = app.count("--fire-rate") > 0;

  tbb::global_control parallelism(
      tbb::global_control::max_allowed_parallelism,
      o.threads > 0
          ? size_t(o.threads)
          : tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
  const dlca::StopSignals signals(false);  // a signal removes the temporary files, then ends it
  try {
    evaluate_and_report(o, program);
    return 0;
  } catch (...) {
    return dlca::cli::report_failure(
        program, "out of memory for the evaluation grid (try a smaller --size)");
  }
}
