// train_image: grows a binarised PNG (SPEC §7.4, §7.5). Presets: the paper's lizard (one channel
// of a 128-channel CA, periodic, grown from a seed cell) and colored G (three channels of 64, zero
// boundary, grown from an empty grid). --target trains on any PNG with the preset's architecture.
#include "dlca/atomic_file.hpp"
#include "dlca/cell_pictures.hpp"
#include "dlca/image_task.hpp"
#include "training_cli.hpp"

int main(int argc, char** argv) {
  std::string preset = "lizard";
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string_view(argv[i]) == "--preset") preset = argv[i + 1];
  if (preset != "lizard" && preset != "colored_g") {
    std::fprintf(stderr, "train_image: --preset: must be lizard or colored_g, got '%s'\n",
                 preset.c_str());
    return 2;
  }
  const bool lizard = preset == "lizard";
  dlca::cli::TrainingCli cli(lizard ? dlca::lizard_config() : dlca::colored_g_config());
  std::string target_path, colours = lizard ? "mono" : "8colour",
                           seed_cell = lizard ? "center" : "none";
  std::string boundary = cli.config.periodic ? "periodic" : "zero";
  float threshold = dlca::kDefaultThreshold;
  int channels = cli.config.channels, size = cli.config.height;
  CLI::App app{
      "Train a Differentiable Logic CA to grow an image (Miotti et al. 2025: lizard, colored G).\n"
      "Defaults reproduce the paper's configurations."};
  app.add_option("--preset", preset, "lizard or colored_g: architecture, grid and defaults")
      ->capture_default_str();
  cli.add_to(app);
  app.add_option("--target", target_path,
                 "PNG to grow (default: the preset's image in " DLCA_TARGETS_DIR ")");
  app.add_option("--colours", colours,
                 "mono: one channel, any of R,G,B above --threshold; 8colour: three "
                 "channels by the colored-G rules")
      ->capture_default_str()
      ->check(CLI::IsMember({"mono", "8colour"}));
  app.add_option("--threshold", threshold, "mono threshold on premultiplied R, G, B")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--size", size, "grid side; the image is area-resized to it")
      ->capture_default_str()
      ->check(CLI::Range(3, 1024));
  app.add_option("--channels", channels, "state channels")
      ->capture_default_str()
      ->check(CLI::Range(3, 1024));
  app.add_option("--steps", cli.config.steps, "CA steps per rollout")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--seed-cell", seed_cell,
                 "center: the centre cell starts at 1 in all channels; none: empty grid")
      ->capture_default_str()
      ->check(CLI::IsMember({"center", "none"}));
  app.add_option("--boundary", boundary, "periodic (torus) or zero padding")
      ->capture_default_str()
      ->check(CLI::IsMember({"periodic", "zero"}));
  app.add_option("--loss-channels", cli.config.loss_channels, "channels compared with the target");
  CLI11_PARSE(app, argc, argv);

  cli.config.height = cli.config.width = size;
  cli.config.periodic = boundary == "periodic";
  const int planes = colours == "mono" ? 1 : 3;
  if (channels != cli.config.channels) dlca::set_channels(cli.config, channels);
  if (app.count("--loss-channels") == 0)
    cli.config.loss_channels = planes == 1 ? std::vector<int>{0} : std::vector<int>{0, 1, 2};
  if (target_path.empty())
    target_path = std::string(DLCA_TARGETS_DIR) + "/" + preset + ".png";
  else
    cli.config.name = "image:" + target_path.substr(target_path.find_last_of('/') + 1);
  try {
    const dlca::PictureColours picture = dlca::parse_picture_colours(colours);
    const auto masks = dlca::read_cell_planes(target_path, size, size, picture, threshold);
    const bool seeded = seed_cell == "center";
    return cli.train("train_image", [&](const dlca::ExperimentConfig& c) {
      return dlca::ImageTask(c, masks, planes, seeded,
                             dlca::picture_source(target_path, picture, threshold));
    });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "train_image: %s\n", e.what());
    return 1;
  }
}
