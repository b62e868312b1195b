// train_gol: learns Conway's Game of Life (docs/MODEL.md §10.3): batches of 20 of the 512 boards of
// the 3x3 torus, one step, 3000 epochs. Afterwards the hard circuit is checked on all 512
// neighbourhoods and against the exact rule on a random torus.
#include "cli_parse.hpp"
#include "dlca/train/game_of_life.hpp"
#include "tools.hpp"
#include "training_cli.hpp"

int dlca::apps::train_gol(int argc, char** argv, const char* program) {
  dlca::cli::TrainingCli cli(dlca::game_of_life_config());
  int eval_size = 128, eval_steps = 300;
  CLI::App app{
      "Train a Differentiable Logic CA to learn Conway's Game of Life (Miotti et al. 2025).\n"
      "Defaults reproduce the paper's configuration."};
  cli.add_to(app);
  cli.add_setting(app, "batch");
  app.add_option("--eval-size", eval_size,
                 "side of the random torus the final circuit is checked on")
      ->capture_default_str()
      ->transform(dlca::cli::integer_from_to(3, 8192));
  app.add_option("--eval-steps", eval_steps, "steps of that check")
      ->capture_default_str()
      ->transform(dlca::cli::non_negative_integer());
  DLCA_PARSE_OR_EXIT(app, program, argc, argv);
  cli.run.evaluate = [&](const dlca::Model& model) {
    return nlohmann::json{
        {"neighbourhoods_correct", dlca::life_neighbourhoods_correct(model)},
        {"wrong_cells", dlca::life_wrong_cells(model, eval_size, eval_steps, model.config.seed)},
        {"wrong_cells_grid", eval_size},
        {"wrong_cells_steps", eval_steps}};
  };
  return cli.train(program,
                   [](const dlca::ExperimentConfig& c) { return dlca::GameOfLifeTask(c); });
}
