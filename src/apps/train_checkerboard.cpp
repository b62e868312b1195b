// train_checkerboard: trains the paper's synchronous checkerboard (docs/MODEL.md §10.1) on the CPU
// backend. Defaults are the paper's configuration: seed 23, 500 epochs, batch 2, 20 steps, lr 0.05.
#include "cli_parse.hpp"
#include "dlca/train/checkerboard.hpp"
#include "tools.hpp"
#include "training_cli.hpp"

int dlca::apps::train_checkerboard(int argc, char** argv, const char* program) {
  dlca::cli::TrainingCli cli(dlca::checkerboard_sync_config());
  CLI::App app{
      "Train a Differentiable Logic CA to grow a checkerboard (Miotti et al. 2025, synchronous).\n"
      "Defaults reproduce the paper's configurations."};
  // --async selects the other preset; added first, so that every other option then adjusts it.
  app.add_flag_callback(
      "--async",
      [&] {
        cli.use_preset(dlca::checkerboard_async_config());
        dlca::cli::refresh_shown_defaults(app);
      },
      "the asynchronously trained checkerboard (14x14, 50 steps, fire rate 0.6, 800 epochs)");
  cli.add_to(app);
  for (const char* key : {"fire_rate", "batch", "steps"}) cli.add_setting(app, key);
  app.add_option("--size", cli.config.height, "grid side (square grid)")
      ->capture_default_str()
      ->transform(dlca::cli::positive_integer());
  DLCA_PARSE_OR_EXIT(app, program, argc, argv);
  if (app.count("--fire-rate") > 0 && !cli.config.async) {
    std::fprintf(stderr, "%s: --fire-rate: has no effect without --async\n", program);
    return dlca::cli::kExitUsage;
  }
  cli.config.width = cli.config.height;
  return cli.train(program,
                   [](const dlca::ExperimentConfig& c) { return dlca::CheckerboardTask(c); });
}
