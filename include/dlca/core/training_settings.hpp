// The settings of a training that users choose, declared once in one table: each one's key (in
// experiment and model files, `dlca sweep --set` and the Python module's keywords), its option on
// the training programs' command line, what it does, the values it takes and its field of
// ExperimentConfig. The JSON reader and writer (config_json.cpp), the programs' options
// (src/apps/training_cli.hpp) and the wording of errors in each front end's own terms all come
// from it, so that a new setting is added in one place (docs/development.md, "Adding a training
// option").
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "dlca/core/config.hpp"

namespace dlca {

// The values a setting takes; the command line and the JSON reader check the same range (then
// validate() checks what depends on other settings).
enum class SettingRange {
  kPositiveInteger,     // 1, 2, ...
  kNonNegativeInteger,  // 0, 1, ...
  kIntegerFromTo,       // Setting::low to Setting::high
  kPositiveNumber,      // above 0
  kNumberFromTo,        // Setting::low to Setting::high
  kDecayRate,           // from 0 to below 1
  kRate,                // above 0, at most 1
  kSwitch,              // true or false
  kOther,               // text, lists and choices, read and written by hand (config_json.cpp)
};

// Which training programs offer a setting as a command-line option.
enum class SettingScope {
  kEveryProgram,  // TrainingCli::add_to, for every training program
  kSomePrograms,  // the programs it fits add it by key (TrainingCli::add_setting)
  kFilesOnly,     // experiment files, sweeps and Python only (shapes, wiring, names)
};

// Where a setting lives in ExperimentConfig; none for those read and written by hand.
using SettingField =
    std::variant<std::monostate, int ExperimentConfig::*, int64_t ExperimentConfig::*,
                 uint64_t ExperimentConfig::*, float ExperimentConfig::*, bool ExperimentConfig::*>;

struct Setting {
  const char* key;     // "lr"
  const char* option;  // "--lr"; nullptr where no program offers it under a name of its own
  SettingScope scope;
  SettingField field;
  SettingRange range;
  double low = 0, high = 0;  // kIntegerFromTo, kNumberFromTo
  // The mark `robust` keeps a given value by (GivenOptions), set whenever the setting is given.
  bool GivenOptions::*given = nullptr;
  const char* help = "";
  bool show_default = true;  // --help shows the current value as the default
  // Whether the JSON reader checks a number against its closed range (to refuse one that rounds
  // onto a bound it is not on as a float); false where validate() alone words the range.
  bool range_in_files = true;
};

// Every setting, in the configuration's natural order (name, network, grid, training, ...).
std::span<const Setting> training_settings();
// The setting with this key, or nullptr.
const Setting* find_setting(std::string_view key);

// Settings a user gave (a JSON object, key to value) applied on top of a configuration's JSON the
// way every front end applies them: `recipe` first, which drops the values of the keys a recipe
// fills in (kRecipeKeys) unless they are given too; a count of `starts` without `halving` drops
// the configuration's halving; then every other key's value. Keys are not checked here:
// config_from_json of the result names any unknown one. A given fire_rate on a synchronous
// configuration throws ConfigError: it would change nothing, whatever its value; so does another
// channel count without update_layers, which are sized for the channels.
void apply_settings(nlohmann::json& config, const nlohmann::json& given);

// An error message that names settings by their keys ("harden_start: must be after
// sharpen_start (5)"), reworded with the command line's option names ("--harden-start: must be
// after --sharpen-start (5)"), for the training programs: every whole-word key of a setting that
// `offered` accepts (the options the user gave: a value from an experiment file keeps its key);
// none given: every setting with an option.
std::string with_option_names(const std::string& message,
                              const std::function<bool(const Setting&)>& offered = nullptr);

}  // namespace dlca
