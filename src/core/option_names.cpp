// Options named in messages as the front end in use names them (option_names.hpp).
#include "dlca/core/option_names.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include "dlca/core/training_settings.hpp"

namespace dlca {

namespace {

std::atomic<OptionWording> wording{OptionWording::kCommandLine};

bool is_number(std::string_view text) {
  if (text.empty()) return false;
  const std::string copy(text);
  char* end = nullptr;
  std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size();
}

}  // namespace

void set_option_wording(OptionWording w) { wording = w; }

OptionWording option_wording() { return wording; }

std::string option_name(std::string_view key) {
  if (wording == OptionWording::kKeywords) return std::string(key);
  if (const Setting* setting = find_setting(key); setting && setting->option)
    return setting->option;
  std::string option = "--" + std::string(key);
  std::replace(option.begin(), option.end(), '_', '-');
  return option;
}

std::string option_with_value(std::string_view key, std::string_view value) {
  if (wording == OptionWording::kCommandLine) return option_name(key) + " " + std::string(value);
  std::string quoted;
  for (const char ch : value)
    quoted += ch == '\'' || ch == '\\' ? std::string{'\\', ch} : std::string{ch};
  return std::string(key) + "=" + (is_number(value) ? std::string(value) : "'" + quoted + "'");
}

}  // namespace dlca
