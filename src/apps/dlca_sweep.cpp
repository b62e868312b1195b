// dlca_sweep: trains one experiment over seeds and a grid of configuration values, on this machine
// (--jobs runs at once) or over MPI ranks (mpirun -np P dlca_sweep ...), and writes DIR/runs.csv,
// DIR/runs.json, DIR/summary.md and every run's model. An interrupted sweep resumes when run again
// with the same arguments. The logic lives in the library (dlca/train/sweep.hpp).
#include <cstdio>
#include <iostream>
#include <optional>
#include "tools.hpp"

#include "cli_numbers.hpp"
#include "cli_parse.hpp"
#include "dlca/core/option_names.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/data_dir.hpp"
#include "dlca/io/stop_signals.hpp"
#include "dlca/train/picture_experiment.hpp"
#include "dlca/train/sweep.hpp"
#include "sweep_mpi.hpp"

namespace {

// A CLI11 check that runs `parse` on the text and reports its exception's message.
template <typename Parse>
CLI::Validator parsed_by(Parse parse, const char* name) {
  return CLI::Validator(
      [parse](std::string& text) -> std::string {
        try {
          parse(text);
          return "";
        } catch (const std::exception& e) {
          return e.what();
        }
      },
      name);
}

// What the command line gives.
struct SweepOptions {
  std::string experiment, picture, out_dir, recipe;
  // With --target: the choices of dlca train image --target, made differently.
  int picture_size = 0, picture_channels = 0;
  std::string colours, seed_cell, boundary;
  std::optional<float> threshold;
  std::vector<std::string> seed_lists, settings;
  int64_t epochs = 0;
  int stop_when_solved = -1, jobs = 1, threads = 0;
  bool mpi = false;
};

void add_options(CLI::App& app, SweepOptions& o) {
  CLI::Option* config_option =
      app.add_option("--config", o.experiment,
                     "experiment: a name (checkerboard_sync, ...; " +
                         std::string(dlca::kDataDirHelp) + ") or a JSON file of the same form");
  CLI::Option* picture_option =
      app.add_option("--target", o.picture,
                     "your own picture (PNG) instead of --config: the experiment that dlca train "
                     "image --target chooses for it (grid, colours, architecture)")
          ->excludes(config_option);
  app.add_option("--size", o.picture_size,
                 "with --target: the grid side (default: the picture's, at most 32)")
      ->needs(picture_option)
      ->transform(dlca::cli::integer_from_to(3, 1024));
  app.add_option("--colours", o.colours,
                 "with --target: mono (one channel) or 8colour (three; default: 8colour for a "
                 "picture of two or more colours besides black)")
      ->needs(picture_option)
      ->check(CLI::IsMember({"mono", "8colour"}));
  app.add_option("--threshold", o.threshold,
                 "with --target and mono: premultiplied R, G or B above it is alive (default 0.26)")
      ->needs(picture_option)
      ->transform(dlca::cli::number_from_to<float>(0, 1));
  app.add_option("--channels", o.picture_channels,
                 "with --target: state channels, the update layers scaled to them (default 64)")
      ->needs(picture_option)
      ->transform(dlca::cli::positive_integer());
  app.add_option("--seed-cell", o.seed_cell,
                 "with --target: center (grown from the centre cell) or none (an empty grid, the "
                 "default)")
      ->needs(picture_option)
      ->check(CLI::IsMember({"center", "none"}));
  app.add_option("--boundary", o.boundary,
                 "with --target: periodic (a torus) or zero (the default)")
      ->needs(picture_option)
      ->check(CLI::IsMember({"periodic", "zero"}));
  app.add_option("--seeds", o.seed_lists, "seeds, e.g. 1-10 or 1,5,9 (repeatable; united)")
      ->required()
      ->check(parsed_by(dlca::parse_seeds, "SEEDS"));
  app.add_option("--set", o.settings,
                 "KEY=V1,V2,...: values of a configuration key of the experiment JSON (lr, steps, "
                 "batch, stop_when_solved, random_streams, ...); repeatable, every combination "
                 "is run")
      ->check(parsed_by(dlca::parse_setting, "KEY=VALUES"));
  app.add_option("--epochs", o.epochs, "epochs of every run (default: the experiment's)")
      ->transform(dlca::cli::positive_integer<int64_t>());
  app.add_option("--stop-when-solved", o.stop_when_solved,
                 "stop every run once its hard loss has been 0 for N consecutive epochs")
      ->transform(dlca::cli::non_negative_integer());
  app.add_option("--recipe", o.recipe,
                 "training recipe of every run: paper or robust (default: the experiment's); "
                 "--set recipe=paper,robust compares them")
      ->check(CLI::IsMember({"paper", "robust"}));
  app.add_option("--jobs", o.jobs, "runs at once on this machine (threads split between them)")
      ->capture_default_str()
      ->transform(dlca::cli::positive_integer());
  app.add_option("--threads", o.threads,
                 "worker threads in all on this machine, or per rank under MPI (0 = all cores)")
      ->capture_default_str()
      ->transform(dlca::cli::thread_count());
  app.add_option("--out", o.out_dir,
                 "directory of the sweep's files (made if missing; default: sweeps/ and a name "
                 "made of the experiment or picture, the picture's options, the seeds and the "
                 "options that decide the runs, so that the same command finds it again)")
      ->check(CLI::Validator(
          [](std::string& text) { return text.empty() ? "an empty folder name" : ""; }, "DIR"));
  app.add_flag("--mpi", o.mpi,
               "require an MPI launch (mpirun or srun); implied under mpirun -np P>1");
}

// The sweep the options describe (its directory not opened yet). Throws UsageError or ConfigError
// for options that do not fit together, FileError for an experiment or picture that cannot be read.
dlca::Sweep make_sweep(const SweepOptions& o, const CLI::App& app) {
  if (o.threads > 0 && o.jobs > o.threads)  // each run needs a thread of its own
    throw dlca::cli::UsageError(fmt::format(
        "--jobs {}: more runs at once than --threads {} (give at least as many threads)", o.jobs,
        o.threads));
  if (o.experiment.empty() && o.picture.empty())
    throw dlca::cli::UsageError("--config or --target: give the experiment to sweep");
  dlca::SweepSpec spec;
  spec.experiment = o.picture.empty() ? o.experiment : o.picture;
  spec.picture = !o.picture.empty();
  // (in the order of --help, whatever the order given, so that the same sweep finds its folder)
  const auto picture_option = [&](const char* name, const std::string& value) {
    if (app.count(std::string("--") + name) > 0) spec.picture_options.emplace_back(name, value);
  };
  picture_option("size", std::to_string(o.picture_size));
  picture_option("colours", o.colours);
  picture_option("threshold", o.threshold ? fmt::format("{}", *o.threshold) : "");
  picture_option("channels", std::to_string(o.picture_channels));
  picture_option("seed-cell", o.seed_cell);
  picture_option("boundary", o.boundary);
  for (const std::string& list : o.seed_lists)
    for (uint64_t seed : dlca::parse_seeds(list)) spec.seeds.push_back(seed);
  for (const std::string& setting : o.settings) {
    spec.settings.push_back(dlca::parse_setting(setting));
    const std::string& key = spec.settings.back().key;
    for (const auto& [option, same_key] :
         {std::pair{"--epochs", "epochs"}, std::pair{"--stop-when-solved", "stop_when_solved"},
          std::pair{"--recipe", "recipe"}, std::pair{"--channels", "channels"},
          std::pair{"--boundary", "periodic"}})
      if (app.count(option) > 0 && key == same_key)
        throw dlca::cli::UsageError(
            fmt::format("--set {}: also given as {} (give one of them)", key, option));
  }
  if (o.epochs > 0) spec.epochs = o.epochs;
  if (o.stop_when_solved >= 0) spec.stop_when_solved = o.stop_when_solved;
  spec.recipe = o.recipe;
  dlca::ExperimentFile file;
  if (spec.picture) {
    dlca::PictureRequest request;
    request.path = o.picture;
    if (app.count("--size") > 0) request.size = o.picture_size;
    if (!o.colours.empty()) request.colours = dlca::parse_picture_colours(o.colours);
    request.threshold = o.threshold;
    if (app.count("--channels") > 0) request.channels = o.picture_channels;
    if (!o.seed_cell.empty()) request.seed_cell = o.seed_cell == "center";
    if (!o.boundary.empty()) request.periodic = o.boundary == "periodic";
    const dlca::PictureExperiment chosen = dlca::picture_experiment(request);
    if (dlca::cli::launched_rank() == 0)  // once, not by every rank under MPI
      std::cout << dlca::picture_description(chosen, chosen.experiment.config,
                                             chosen.experiment.task.seed_cell)
                << "\n";
    file = chosen.experiment;
  } else {
    file = dlca::load_experiment(o.experiment);
  }
  return dlca::Sweep(std::move(spec), std::move(file), o.out_dir);
}

}  // namespace

int dlca::apps::sweep(int argc, char** argv, const char* program) {
  SweepOptions o;
  CLI::App app{
      "Train one experiment over seeds and a grid of configuration values, and tabulate how "
      "often and how fast each combination solves it. Runs depend only on seed and options.\n"
      "Writes DIR/runs.csv and DIR/runs.json (a row per run), DIR/summary.md (per option "
      "combination: solved runs, median and worst epochs to solve, median wall time) and "
      "DIR/models/<run>.json. Run the same command again to resume an interrupted sweep.\n"
      "MPI: mpirun -np P dlca_sweep ... (rank 0 deals the runs out, ranks 1..P-1 train)."};
  add_options(app, o);
  DLCA_PARSE_OR_EXIT(app, program, argc, argv);
  // Errors from the library name settings as a sweep takes them (--set starts=auto, --channels).
  dlca::set_option_wording(dlca::OptionWording::kSweepSettings);

  std::optional<dlca::Sweep> sweep;
  try {
    sweep.emplace(make_sweep(o, app));
  } catch (const dlca::FileError& e) {  // as dlca train: an unknown name is a bad value (2), a
    std::fprintf(stderr, "%s: %s\n", program, e.what());  // file that cannot be read a failure (1)
    return !o.picture.empty() || dlca::names_a_file(o.experiment) ? 1 : dlca::cli::kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return dlca::cli::kExitUsage;
  }

  // Ctrl-C or SIGTERM: the running trainings stop after their epoch and are not recorded; a second
  // one ends the process at once.
  const dlca::StopSignals signals(true);
  const auto finish = [&](bool complete) {
    std::cout << "\n" << sweep->summary_markdown() << std::flush;
    if (complete) return 0;
    std::fprintf(stderr,
                 "%s: interrupted with %zu of %zu runs finished; run the same command to resume\n",
                 program, sweep->finished_count(), sweep->runs().size());
    const int signal = dlca::StopSignals::signal_number();
    return 128 + (signal ? signal : 2);
  };
  // Said once the folder is open (by rank 0 under MPI): how much is left and where the files go.
  const auto opened = [&](int at_once) {
    std::cout << fmt::format("{}: {} runs, {} finished before, {} at once; files in {}\n",
                             o.picture.empty() ? o.experiment : o.picture, sweep->runs().size(),
                             sweep->finished_count(), at_once, sweep->directory())
              << std::flush;
  };
  try {
    if (o.mpi || dlca::cli::launched_on_several_ranks())
      return dlca::cli::run_sweep_mpi(*sweep, o.jobs, o.threads, std::cout, opened, finish);
    sweep->open();
    opened(o.jobs);
    return finish(dlca::run_sweep_locally(*sweep, o.jobs, o.threads, std::cout));
  } catch (...) {  // (--out holding another sweep: ConfigError; MPI asked of a build without it:
    return dlca::cli::report_failure(program);  // UsageError; both bad usage)
  }
}
