// Options named in messages as the front end in use names them (option_names.hpp).
#include "dlca/core/option_names.hpp"

#include <algorithm>
#include <atomic>
#include <regex>

#include "dlca/core/training_settings.hpp"

namespace dlca {

namespace {

std::atomic<OptionWording> wording{OptionWording::kCommandLine};

// A value Python would read as a number: digits, with a sign or a decimal point ("4", "-1", "0.5").
// Files are always quoted, whatever their name.
bool shown_as_number(std::string_view key, std::string_view value) {
  for (const std::string_view file : {"resume", "save", "log", "summary", "gif", "histogram"})
    if (key == file) return false;
  static const std::regex number(R"(-?[0-9]+(\.[0-9]+)?)");
  return std::regex_match(std::string(value), number);
}

// The settings dlca sweep takes as options of its own rather than with --set (channels and
// threshold: those of a picture, --target).
bool sweep_option(std::string_view key) {
  for (const std::string_view own :
       {"epochs", "stop_when_solved", "recipe", "threads", "channels", "threshold"})
    if (key == own) return true;
  return false;
}

}  // namespace

void set_option_wording(OptionWording w) { wording = w; }

OptionWording option_wording() { return wording; }

std::string option_name(std::string_view key) {
  if (wording == OptionWording::kKeywords) return std::string(key);
  if (wording == OptionWording::kSweepSettings && !sweep_option(key))
    return "--set " + std::string(key);
  if (const Setting* setting = find_setting(key); setting && setting->option)
    return setting->option;
  std::string option = "--" + std::string(key);
  std::replace(option.begin(), option.end(), '_', '-');
  return option;
}

std::string option_with_value(std::string_view key, std::string_view value) {
  if (wording == OptionWording::kSweepSettings && !sweep_option(key))
    return "--set " + std::string(key) + "=" + std::string(value);
  if (wording != OptionWording::kKeywords) return option_name(key) + " " + std::string(value);
  std::string quoted;
  for (const char ch : value)
    quoted += ch == '\'' || ch == '\\' ? std::string{'\\', ch} : std::string{ch};
  return std::string(key) + "=" +
         (shown_as_number(key, value) ? std::string(value) : "'" + quoted + "'");
}

}  // namespace dlca
