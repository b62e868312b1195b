// dlca: the one program, with a subcommand per tool (train, eval, run, export, sweep, compare,
// devices). CLI11 picks the subcommand; everything after it goes to that tool's own CLI11 parser,
// so its options and --help are the same as under its old name. Started under an old name (the
// launchers old_name_launcher.cpp builds, or a link), it runs that name's tool directly.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli_parse.hpp"
#include "dlca/io/stop_signals.hpp"
#include "tools.hpp"

namespace {

using Tool = int (*)(int, char**, const char*);

struct Subcommand {
  const char* name;
  Tool tool;
  const char* description;
};

// `dlca train` takes an experiment first: a preset with options of its own, or any experiment
// name or file (dlca train NAME is the old dlca_train --config NAME).
struct Preset {
  const char* name;
  Tool tool;
};
constexpr Preset kTrainPresets[] = {{"checkerboard", dlca::apps::train_checkerboard},
                                    {"gol", dlca::apps::train_gol},
                                    {"image", dlca::apps::train_image}};

// The old program names, each the tool it runs (CMakeLists.txt, DLCA_OLD_PROGRAMS, builds a
// launcher for each).
struct OldName {
  const char* name;
  Tool tool;
};
constexpr OldName kOldNames[] = {{"train_checkerboard", dlca::apps::train_checkerboard},
                                 {"train_gol", dlca::apps::train_gol},
                                 {"train_image", dlca::apps::train_image},
                                 {"dlca_train", dlca::apps::train_experiment},
                                 {"dlca_eval", dlca::apps::eval},
                                 {"dlca_run", dlca::apps::run},
                                 {"dlca_export", dlca::apps::export_circuit},
                                 {"dlca_sweep", dlca::apps::sweep},
                                 {"dlca_devices", dlca::apps::devices},
                                 {"compare_backends", dlca::apps::compare}};

int run_tool(Tool tool, const std::string& program, std::vector<std::string> args) {
  args.insert(args.begin(), program);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return tool(int(args.size()), argv.data(), program.c_str());
}

int train(std::vector<std::string> args) {
  if (!args.empty() && (args[0].empty() || args[0][0] != '-')) {
    const std::string experiment = args[0];
    for (const Preset& preset : kTrainPresets)
      if (experiment == preset.name) {
        args.erase(args.begin());
        return run_tool(preset.tool, "dlca train " + experiment, args);
      }
    args[0] = "--config=" + experiment;
  }
  return run_tool(dlca::apps::train_experiment, "dlca train", args);
}

}  // namespace

int main(int argc, char** argv) {
  dlca::ignore_closed_pipes();
  if (argc > 0) {
    const std::string invoked = std::filesystem::path(argv[0]).filename().string();
    for (const OldName& old : kOldNames)
      if (invoked == old.name)
        return dlca::apps::with_planted_failure(old.tool(argc, argv, old.name));
  }
  const Subcommand subcommands[] = {
      {"train", nullptr,
       "dlca train EXPERIMENT [options]; EXPERIMENT is a preset with options of its own "
       "(checkerboard, gol, image), an experiment name (checkerboard_sync, checkerboard_async, "
       "game_of_life, lizard, colored_g) or a .json file; dlca train EXPERIMENT --help lists "
       "the options"},
      {"eval", dlca::apps::eval, "evaluate a trained checkerboard rule (generalisation, healing)"},
      {"run", dlca::apps::run, "run a hard circuit on a grid of any size (bit-parallel)"},
      {"export", dlca::apps::export_circuit,
       "export a hard circuit as C, Verilog, DigitalJS or a live HTML page"},
      {"sweep", dlca::apps::sweep, "train an experiment over seeds and options (MPI optional)"},
      {"compare", dlca::apps::compare, "train on the CPU and on a Vulkan device side by side"},
      {"devices", dlca::apps::devices, "list the Vulkan devices"},
  };
  CLI::App app{
      "dlca: Differentiable Logic Cellular Automata (Miotti et al. 2025): train, evaluate, run "
      "and export their circuits. dlca SUBCOMMAND --help lists a subcommand's options.\n"
      "Exit status: 0 success; 1 failure while running (a file that cannot be read or "
      "written, not enough memory); 2 bad usage (unknown subcommand or option, bad value, "
      "options that contradict each other or the input); 128+N stopped by signal N (a "
      "training stopped by Ctrl-C still writes its outputs).",
      "dlca"};
  app.set_version_flag("--version", "dlca " DLCA_VERSION);
  app.require_subcommand(1);
  std::string chosen;
  for (const Subcommand& s : subcommands) {
    CLI::App* sub = app.add_subcommand(s.name, s.description);
    sub->set_help_flag();  // the tool's own --help
    sub->allow_extras();
    sub->prefix_command();
    sub->callback([&chosen, name = s.name] { chosen = name; });
  }
  if (argc > 1 && argv[1][0] != '-') {  // a word that is no subcommand: say which there are
    std::string names;
    bool known = false;
    for (const Subcommand& s : subcommands) {
      known = known || argv[1] == std::string(s.name);
      names += std::string(names.empty() ? "" : ", ") + s.name;
    }
    if (!known) {
      std::fprintf(stderr, "dlca: '%s' is not a subcommand (%s; dlca --help)\n", argv[1],
                   names.c_str());
      return dlca::cli::kExitUsage;
    }
  }
  DLCA_PARSE_OR_EXIT(app, "dlca", argc, argv);
  for (const Subcommand& s : subcommands) {
    if (chosen != s.name) continue;
    const std::vector<std::string> rest = app.get_subcommand(s.name)->remaining();
    return dlca::apps::with_planted_failure(
        s.tool ? run_tool(s.tool, std::string("dlca ") + s.name, rest) : train(rest));
  }
  return dlca::cli::kExitUsage;
}
