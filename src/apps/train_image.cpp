// train_image: grows a binarised PNG (docs/MODEL.md §10.4, §10.5). Presets: the paper's lizard
// (one channel of a 128-channel CA, periodic, grown from a seed cell) and colored G (three channels
// of 64, zero boundary, grown from an empty grid). --target trains on any PNG with the preset's
// architecture.
#include "cli_parse.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/cell_pictures.hpp"
#include "dlca/io/data_dir.hpp"
#include "dlca/train/image_task.hpp"
#include "dlca/train/picture_experiment.hpp"
#include "tools.hpp"
#include "training_cli.hpp"

namespace {

// The value of option `name` on the command line ("--name VALUE" or "--name=VALUE"), read before
// the parse: the picture given decides the defaults the other options start from.
std::optional<std::string> given_value(int argc, char** argv, const std::string& name) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == name && i + 1 < argc) return std::string(argv[i + 1]);
    if (arg.rfind(name + "=", 0) == 0) return arg.substr(name.size() + 1);
  }
  return std::nullopt;
}

// The options of an image task that are not fields of the configuration, with the preset or the
// picture they start from, and the training options (TrainingCli) beside them.
struct ImageCommand {
  std::string preset = "lizard";
  dlca::cli::TrainingCli cli{dlca::lizard_config()};
  std::string target_path, colours, seed_cell, boundary;
  float threshold = dlca::kDefaultThreshold;
  int channels = 0, size = 0;
  std::optional<dlca::PictureExperiment> chosen;  // what the picture chose (--target alone)
  const std::pair<int, int> lizard_channels = dlca::channel_range(dlca::lizard_config());
  const std::pair<int, int> colored_g_channels = dlca::channel_range(dlca::colored_g_config());

  // The preset's values of the options that are not fields of the configuration.
  void use_preset(const std::string& name) {
    preset = name;
    const bool lizard = preset == "lizard";
    cli.use_preset(lizard ? dlca::lizard_config() : dlca::colored_g_config());
    colours = lizard ? "mono" : "8colour";
    seed_cell = lizard ? "center" : "none";
    boundary = cli.config.periodic ? "periodic" : "zero";
    channels = cli.config.channels;
    size = cli.config.height;
  }

  // --target without --preset: the picture chooses the size, the colours and the architecture
  // (picture_experiment.hpp); options given still override each choice.
  void choose_from_picture(int argc, char** argv) {
    const auto target = given_value(argc, argv, "--target");
    if (!target || given_value(argc, argv, "--preset")) return;
    dlca::PictureRequest request;
    request.path = *target;
    try {
      if (const auto s = given_value(argc, argv, "--size")) request.size = std::stoi(*s);
      if (const auto c = given_value(argc, argv, "--colours"))
        request.colours = dlca::parse_picture_colours(*c);
    } catch (const std::exception&) {  // a bad value: the parse below says what is wrong
    }
    try {
      chosen = dlca::picture_experiment(request);
    } catch (const std::exception&) {  // an unreadable picture: reported when it is read below
    }
    if (chosen) {
      use_preset("colored_g");
      cli.use_preset(chosen->experiment.config);
      colours = chosen->experiment.task.colours;
      size = chosen->experiment.config.height;
    }
  }

  void add_options(CLI::App& app) {
    // Added first, so that the preset is in place before the other options apply their values.
    app.add_option_function<std::string>(
           "--preset",
           [this, &app](const std::string& name) {
             use_preset(name);
             dlca::cli::refresh_shown_defaults(app);
           },
           "lizard or colored_g: architecture, grid and defaults")
        ->default_str("lizard")
        ->check(CLI::IsMember({"lizard", "colored_g"}));
    cli.add_to(app);
    app.add_option("--target", target_path,
                   "PNG to grow (default: the preset's image in the data folder; " +
                       std::string(dlca::kDataDirHelp) + ")");
    app.add_option("--colours", colours,
                   "mono: one channel, any of R,G,B above --threshold; 8colour: three "
                   "channels by the colored-G rules")
        ->capture_default_str()
        ->check(CLI::IsMember({"mono", "8colour"}));
    app.add_option("--threshold", threshold, "mono threshold on premultiplied R, G, B")
        ->capture_default_str()
        ->transform(dlca::cli::number_from_to<float>(0, 1));
    app.add_option("--size", size, "grid side; the image is area-resized to it")
        ->capture_default_str()
        ->transform(dlca::cli::integer_from_to(3, 1024));
    app.add_option("--channels", channels,
                   fmt::format("state channels (the layers are scaled to them; lizard builds for "
                               "{} to {}, colored_g for {} to {})",
                               lizard_channels.first, lizard_channels.second,
                               colored_g_channels.first, colored_g_channels.second))
        ->capture_default_str()
        ->transform(dlca::cli::positive_integer());
    cli.add_setting(app, "steps");
    app.add_option("--seed-cell", seed_cell,
                   "center: the centre cell starts at 1 in all channels; none: empty grid")
        ->capture_default_str()
        ->check(CLI::IsMember({"center", "none"}));
    app.add_option("--boundary", boundary, "periodic (torus) or zero padding")
        ->capture_default_str()
        ->check(CLI::IsMember({"periodic", "zero"}));
    cli.add_setting(app, "loss_channels");
  }

  // The options parsed into the configuration and the target's path. Throws UsageError for options
  // that do not fit the preset, FileError when the preset's picture cannot be found.
  void apply(const CLI::App& app) {
    if (colours == "8colour" && app.count("--threshold") > 0)
      throw dlca::cli::UsageError("--threshold: not used with --colours 8colour (only for mono)");
    const auto [low, high] = preset == "lizard" ? lizard_channels : colored_g_channels;
    if (channels < low || channels > high)
      throw dlca::cli::UsageError(fmt::format(
          "--channels: the {} preset builds for {} to {}, got {}", preset, low, high, channels));
    cli.config.height = cli.config.width = size;
    cli.config.periodic = boundary == "periodic";
    if (channels != cli.config.channels) dlca::set_channels(cli.config, channels);
    if (app.count("--loss-channels") == 0)
      cli.config.loss_channels = planes() == 1 ? std::vector<int>{0} : std::vector<int>{0, 1, 2};
    if (target_path.empty())
      target_path = (dlca::data_dir() / (preset + ".png")).string();
    else
      cli.config.name = "image:" + target_path.substr(target_path.find_last_of('/') + 1);
    cli.inputs.push_back({"--target", target_path});
  }

  int planes() const { return colours == "mono" ? 1 : 3; }
};

}  // namespace

int dlca::apps::train_image(int argc, char** argv, const char* program) {
  ImageCommand command;
  command.use_preset(command.preset);
  command.choose_from_picture(argc, argv);
  CLI::App app{
      "Train a Differentiable Logic CA to grow an image (Miotti et al. 2025: lizard, colored G).\n"
      "Defaults reproduce the paper's configurations. Your own picture: --target PICTURE.png\n"
      "alone chooses from the picture: the grid (its size, at most 32; --size), one channel or\n"
      "three (8colour when it has two or more colours besides black; --colours), and the\n"
      "colored G's architecture, grown from an empty grid with a zero boundary; it says which."};
  command.add_options(app);
  DLCA_PARSE_OR_EXIT(app, program, argc, argv);
  try {
    command.apply(app);
  } catch (const std::exception& e) {  // options that do not fit, or no preset picture: bad usage
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return dlca::cli::kExitUsage;
  }
  dlca::cli::TrainingCli& cli = command.cli;
  const std::string& target_path = command.target_path;
  try {
    const dlca::PictureColours picture = dlca::parse_picture_colours(command.colours);
    const auto masks =
        dlca::read_cell_planes(target_path, command.size, command.size, picture, command.threshold);
    const bool seeded = command.seed_cell == "center";
    if (command.chosen && !cli.quiet)
      std::printf("%s\n", dlca::picture_description(*command.chosen, cli.config, seeded).c_str());
    return cli.train(program, [&](const dlca::ExperimentConfig& c) {
      return dlca::ImageTask(c, masks, command.planes(), seeded,
                             dlca::picture_source(target_path, picture, command.threshold));
    });
  } catch (...) {
    return dlca::cli::report_failure(program, "out of memory reading the target " + target_path);
  }
}
