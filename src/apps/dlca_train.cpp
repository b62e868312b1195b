// dlca_train: trains any experiment file: a name from targets/ (checkerboard_sync,
// checkerboard_async, game_of_life, lizard, colored_g) or the path of a user's JSON file in the
// same format (see include/dlca/train/experiment_file.hpp). Common options override the file's
// values.
#include "cli_parse.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/data_dir.hpp"
#include "dlca/train/experiment_file.hpp"
#include "dlca/train/game_of_life.hpp"
#include "tools.hpp"
#include "training_cli.hpp"

int dlca::apps::train_experiment(int argc, char** argv, const char* program) {
  dlca::ExperimentFile file;
  std::string default_error;      // reported only when no --config replaces the default experiment
  std::string config_file_error;  // --config names a file that cannot be read
  try {
    file = dlca::load_experiment("checkerboard_sync");
  } catch (const std::exception& e) {
    default_error = e.what();
  }
  dlca::cli::TrainingCli cli(file.config);
  CLI::App app{
      "Train a Differentiable Logic CA (Miotti et al. 2025): dlca train EXPERIMENT [options].\n"
      "Presets, each with options of its own (dlca train PRESET --help): checkerboard, gol, "
      "image (your own picture: dlca train image --target PICTURE.png).\n"
      "Experiment names, with the options below: checkerboard_sync, checkerboard_async, "
      "game_of_life, lizard, colored_g "
      "(" +
      std::string(dlca::kDataDirHelp) + "), or a path to a .json file of the same form."};
  // Added first, so that its callback loads the file before the other options apply theirs.
  app.add_option_function<std::string>(
         "--config",
         [&](const std::string& experiment) {
           if (experiment.rfind("--", 0) == 0)  // "--config --epochs 3": a forgotten value
             throw CLI::ValidationError("--config", "needs a value, got the option " + experiment);
           try {
             file = dlca::load_experiment(experiment);
           } catch (const dlca::FileError& e) {
             if (!dlca::names_a_file(experiment))  // no experiment of that name: a bad value
               throw CLI::ValidationError("--config", e.what());
             config_file_error = e.what();  // a file that cannot be read: exit status 1
             return;
           } catch (const std::exception& e) {  // a file that reads but is no experiment
             throw CLI::ValidationError("--config", e.what());
           }
           cli.use_preset(file.config);
           dlca::cli::refresh_shown_defaults(app);
           // --help after an experiment shows its own values: its name, and no fire rate where
           // one is refused.
           app.get_option("--config")->default_str(experiment);
           if (CLI::Option* fire_rate = app.get_option_no_throw("--fire-rate");
               fire_rate && !file.config.async)
             fire_rate->default_str("")->description(
                 "not for " + file.config.name +
                 ", a synchronous experiment: the probability that a cell updates in a step of "
                 "an asynchronous one (checkerboard_async)");
         },
         "experiment name or JSON file")
      ->default_str("checkerboard_sync");
  cli.add_to(app);
  // The file's rollout and batch, as the presets' programs, Python and sweeps (--set) change them;
  // the configuration's checks refuse what does not fit the experiment (a loss channel with no
  // target, more than one step of Game of Life), and a fire rate without async is refused below.
  for (const char* key : {"steps", "batch", "fire_rate", "loss_channels"})
    cli.add_setting(app, key);
  DLCA_PARSE_OR_EXIT(app, program, argc, argv);
  if (!config_file_error.empty()) {
    std::fprintf(stderr, "%s: --config %s\n", program, config_file_error.c_str());
    return 1;
  }
  if (app.count("--config") == 0 && !default_error.empty()) {
    std::fprintf(stderr, "%s: %s\n", program, default_error.c_str());
    return dlca::cli::kExitUsage;
  }
  if (app.count("--fire-rate") > 0 && !file.config.async) {
    std::fprintf(stderr,
                 "%s: --fire-rate: has no effect on %s, a synchronous experiment (an asynchronous "
                 "one: checkerboard_async)\n",
                 program, file.config.name.c_str());
    return dlca::cli::kExitUsage;
  }
  cli.inputs = {{"--config", file.path}, {"--config's image", file.task.image}};
  if (file.task.kind == "game_of_life")
    cli.run.evaluate = [](const dlca::Model& model) {
      return nlohmann::json{
          {"neighbourhoods_correct", dlca::life_neighbourhoods_correct(model)},
          {"wrong_cells", dlca::life_wrong_cells(model, 128, 300, model.config.seed)}};
    };
  try {
    return cli.train(program,
                     [&](const dlca::ExperimentConfig& c) { return dlca::make_task(file, c); });
  } catch (...) {
    return dlca::cli::report_failure(program);
  }
}
