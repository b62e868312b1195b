// One way for every program to parse its command line with CLI11 and end on a bad one: --help
// prints the help and exits 0; a usage error (unknown option, bad value, missing file named by an
// option) prints one line "PROGRAM: message" and exits 2. Exit status 1 is left for failures
// while running, so scripts can tell the two apart.
#pragma once

#include <algorithm>
#include <cstdio>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "dlca/core/config_json.hpp"
#include "dlca/core/training_settings.hpp"
#include "dlca/io/output_paths.hpp"
#include "dlca/train/multi_start.hpp"
#include "dlca/train/training_request.hpp"

namespace dlca::cli {

inline constexpr int kExitUsage = 2;

// A usage error found only after parsing (options that contradict each other or the input, such as
// --csv without a target): the tools print it as one line and exit with kExitUsage.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The exit status of a program that failed with `e`, the same in every program (docs/guarantees.md,
// "Errors and exit statuses"): kExitUsage for bad usage (a bad value, options that contradict each
// other or the input: UsageError; an impossible configuration: ConfigError; a checkpoint of
// another run: ResumeMismatch; two options naming one file: PathConflict; run options that
// contradict each other: RunOptionError), 1 for a failure while
// running (files, memory, a training that diverged, the library's own checks).
inline int exit_status(const std::exception& e) {
  const bool usage = dynamic_cast<const UsageError*>(&e) || dynamic_cast<const PathConflict*>(&e) ||
                     dynamic_cast<const ConfigError*>(&e) ||
                     dynamic_cast<const ResumeMismatch*>(&e) ||
                     dynamic_cast<const RunOptionError*>(&e);
  return usage ? kExitUsage : 1;
}

// Ends a program on the exception being handled (call it in a catch block): prints "PROGRAM:
// message" and returns exit_status(). `out_of_memory` is the message when memory ran out, saying
// what to try instead.
inline int report_failure(const char* program, const std::string& out_of_memory = "out of memory") {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: %s\n", program, out_of_memory.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return exit_status(e);
  } catch (...) {
    std::fprintf(stderr, "%s: failed with an unknown exception\n", program);
    return 1;
  }
}

// CLI11's wording of a repeated option and of a missing value, said plainly:
// "--epochs: At Most 1 required but received 2" -> "--epochs: given 2 times (it may be given
// once)";
// "--epochs: 1 required INT:POSITIVE missing" -> "--epochs: needs a value (INT:POSITIVE)".
inline std::string plain_message(const std::string& message) {
  static const std::regex repeated(R"(^(\S+): At Most 1 required but received (\d+)$)");
  static const std::regex missing(R"(^(\S+): \d+ required (\S+) missing$)");
  if (std::regex_match(message, repeated))
    return std::regex_replace(message, repeated, "$1: given $2 times (it may be given once)");
  if (std::regex_match(message, missing))
    return std::regex_replace(message, missing, "$1: needs a value ($2)");
  return message;
}

// CLI11's help, with a switch and its negation shown as "--stay,--no-stay" (CLI11 writes
// "--stay,--no-stay{false}", the value the second name gives, which reads as a default).
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* option, bool is_positional) const override {
    static const std::regex flag_value(R"(\{[^{}]*\})");
    const std::string name = CLI::Formatter::make_option_name(option, is_positional);
    return option->get_items_expected_max() == 0 ? std::regex_replace(name, flag_value, "") : name;
  }
};

// Parses argv into `app`. Returns nothing when the program should go on, else its exit status.
inline std::optional<int> parse_command_line(CLI::App& app, const char* program, int argc,
                                             char** argv) {
  app.formatter(std::make_shared<HelpFormatter>());
  try {
    // "--seed --epochs 3": the option before another option has no value. Said before parsing,
    // which would take "--epochs" as the seed (and blame it) or leave "3" over (and blame that).
    // "--epochs=": CLI11 would take the next word as the value and blame that.
    for (int i = 1; i < argc; ++i) {
      const std::string word = argv[i];
      if (word.size() > 3 && word.rfind("--", 0) == 0 && word.back() == '=' &&
          word.find('=') == word.size() - 1)
        if (const CLI::Option* option = app.get_option_no_throw(word.substr(0, word.size() - 1)))
          throw CLI::ValidationError(option->get_name(), "an empty value names nothing");
    }
    for (int i = 1; i + 1 < argc; ++i) {
      const std::string word = argv[i], next = argv[i + 1];
      if (word.size() < 2 || word[0] != '-' || word.find('=') != std::string::npos) continue;
      const CLI::Option* option = app.get_option_no_throw(word);
      if (option && option->get_items_expected_min() > 0 && next.size() > 1 && next[0] == '-' &&
          app.get_option_no_throw(next.substr(0, next.find('='))))
        throw CLI::ValidationError(option->get_name(), "needs a value, got the option " + next);
    }
    app.parse(argc, argv);
    // An empty value ("--save ''", often an unset shell variable) names no file and no number: it
    // is refused instead of being taken as "not given". A value that is another option
    // ("--save --quiet", "--save= --quiet": CLI11 takes the next word) is a forgotten value.
    // A flag given twice ("--repair --no-repair", "--async --async") is a slip, never a count.
    for (const CLI::Option* option : app.get_options())
      if (option->get_items_expected_max() == 0 && option->count() > 1)
        throw CLI::ValidationError(option->get_name(), "given " + std::to_string(option->count()) +
                                                           " times (it may be given once)");
    // A list option given twice ("--loss-channels 0 --loss-channels 3") would be joined into one
    // list; only the options meant to be repeated (dlca sweep's --seeds and --set) may be.
    for (const CLI::Option* option : app.get_options()) {
      if (option->get_items_expected_max() <= 1 || option->count() == 0) continue;
      if (option->check_lname("seeds") || option->check_lname("set")) continue;
      int given = 0;
      for (int i = 1; i < argc; ++i) {
        const std::string word = argv[i];
        const std::string name = word.substr(0, word.find('='));
        if (word.rfind("--", 0) == 0 && option->check_lname(name.substr(2))) ++given;
      }
      if (given > 1)
        throw CLI::ValidationError(
            option->get_name(), "given " + std::to_string(given) + " times (give its values once)");
    }
    for (const CLI::Option* option : app.get_options())
      if (option->get_type_size() > 0)
        for (const std::string& value : option->results()) {
          if (value.empty())
            throw CLI::ValidationError(option->get_name(), "an empty value names nothing");
          if (value[0] == '-' && app.get_option_no_throw(value.substr(0, value.find('='))))
            throw CLI::ValidationError(option->get_name(),
                                       "needs a value, got the option " + value);
        }
    return std::nullopt;
  } catch (const CLI::Success& e) {  // --help and the like
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    while (!message.empty() && message.back() == '\n') message.pop_back();
    for (char& c : message)
      if (c == '\n') c = ' ';
    message = plain_message(message);
    // `dlca train --epochs 5 lizard`: the experiment after the options.
    static const std::string unexpected = "The following argument was not expected: ";
    const bool experiment_given = std::any_of(argv + 1, argv + argc, [](const char* word) {
      return std::string(word).rfind("--config", 0) == 0;
    });
    if (std::string(program) == "dlca train" && !experiment_given &&
        message.rfind(unexpected, 0) == 0 && message.size() > unexpected.size() &&
        message[unexpected.size()] != '-')
      message += " (dlca train takes the experiment first: dlca train EXPERIMENT [options])";
    // `dlca sweep --adam-beta1 0.5`: a configuration key, which a sweep takes with --set.
    if (std::string(program).find("sweep") != std::string::npos &&
        message.find("not expected") != std::string::npos)
      for (int i = 1; i < argc; ++i) {
        const std::string word = argv[i], name = word.substr(0, word.find('='));
        if (name.size() < 3 || name.rfind("--", 0) != 0 || app.get_option_no_throw(name)) continue;
        std::string option = name, value = "VALUE";
        const bool negated = option.rfind("--no-", 0) == 0;  // --no-repair: repair=false
        if (negated) option = "--" + option.substr(5), value = "false";
        // The key of the option's setting (--budget: budget_epochs), else the option's own words
        // (--channels: a key of experiment files only).
        std::string key = option.substr(2);
        std::replace(key.begin(), key.end(), '-', '_');
        const Setting* setting = nullptr;
        for (const Setting& s : training_settings())
          if (s.option && option == s.option) setting = &s, key = s.key;
        if (negated && (!setting || setting->range != SettingRange::kSwitch)) continue;
        const auto& keys = config_keys();
        if (key == "seed" || std::find(keys.begin(), keys.end(), key) == keys.end()) continue;
        message += " (a sweep sets configuration keys with --set: --set " + key + "=" + value + ")";
        break;
      }
    std::fprintf(stderr, "%s: %s\n", program, message.c_str());
    return kExitUsage;
  }
}

}  // namespace dlca::cli

// Parses the command line or returns from main with the status parse_command_line gives.
#define DLCA_PARSE_OR_EXIT(app, program, argc, argv)                                         \
  do {                                                                                       \
    if (const auto dlca_status_ = ::dlca::cli::parse_command_line(app, program, argc, argv)) \
      return *dlca_status_;                                                                  \
  } while (0)
