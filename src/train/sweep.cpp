// Sweeps (see sweep.hpp): the grid of runs, their configurations, recording and resuming, the
// tables, and the local runner (--jobs runs at once, threads split between them).
#include "dlca/train/sweep.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dlca/core/config_json.hpp"
#include "dlca/core/json_numbers.hpp"
#include "dlca/core/json_text.hpp"
#include "dlca/core/median.hpp"
#include "dlca/core/memory_budget.hpp"
#include "dlca/core/model.hpp"
#include "dlca/core/training_settings.hpp"
#include "dlca/core/wilson_interval.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/output_paths.hpp"
#include "dlca/io/stop_signals.hpp"
#include "dlca/train/circuit_repair.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/trainer.hpp"
#include "dlca/train/training_observer.hpp"
#include "dlca/train/training_request.hpp"
#include "dlca/train/training_run.hpp"
#include "dlca/train/training_setup.hpp"
#include "train/sweep_files.hpp"

namespace dlca {

namespace fs = std::filesystem;

namespace {

// One seed of `part` (a seed, or one end of a range A-B): the error names the part as typed.
uint64_t parse_seed(const std::string& text, const std::string& part) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument(
        text == part ? fmt::format("'{}' is not a seed (a non-negative integer)", part)
                     : fmt::format("'{}' is not a seed or a range A-B of seeds (non-negative "
                                   "integers)",
                                   part));
  try {
    return std::stoull(text);
  } catch (const std::exception&) {
    throw std::invalid_argument(
        fmt::format("{} is too large for a seed (at most 18446744073709551615)", text));
  }
}

// Splits on commas that are not inside brackets or quotes.
std::vector<std::string> split_values(const std::string& text) {
  std::vector<std::string> parts(1);
  int depth = 0;
  bool quoted = false;
  for (char c : text) {
    if (c == '"') quoted = !quoted;
    if (!quoted && (c == '[' || c == '{')) ++depth;
    if (!quoted && (c == ']' || c == '}')) --depth;
    if (c == ',' && depth == 0 && !quoted)
      parts.emplace_back();
    else
      parts.back() += c;
  }
  return parts;
}

// A value as typed: JSON when it reads as JSON (0.03, true, [8,4]), else a string (dlca).
nlohmann::json typed_value(const std::string& text) {
  nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  return value.is_discarded() ? nlohmann::json(text) : value;
}

std::string file_stem(const std::string& options) { return file_name_part(options, ".-=", '_'); }

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// The file a running sweep holds a lock on, in its directory.
constexpr const char* kLockFile = ".lock";

// The task as a sweep's manifest records it: an image task with its picture's checksum, so that
// a sweep whose picture was edited between runs is not resumed as the same sweep.
nlohmann::json task_json(const TaskSpec& t) {
  nlohmann::json j = {{"kind", t.kind},
                      {"image", t.image},
                      {"colours", t.colours},
                      {"threshold", t.threshold},
                      {"seed_cell", t.seed_cell}};
  if (t.kind == "image") {
    const std::string bytes = read_file(t.image);
    j["image_checksum"] = crc32_text(bytes.data(), bytes.size());
  }
  return j;
}

// A run's entry in the manifest (sweep.json's "runs").
nlohmann::json run_identity(const std::string& id, const ExperimentConfig& config) {
  return {{"id", id},
          {"config", config_to_json(config)},
          {"given",  // what robust may not fill in (GivenOptions)
           {{"adam_eps", config.given.adam_eps},
            {"schedule", config.given.schedule},
            {"gates", config.given.gates}}}};
}

// About the memory a JSON value takes as nlohmann's tree: a value per node, and for objects a map
// node (about 64 bytes) and the key per member.
size_t json_tree_bytes(const nlohmann::json& j) {
  size_t bytes = sizeof(nlohmann::json);
  if (j.is_object())
    for (const auto& [key, value] : j.items())
      bytes += 64 + key.capacity() + json_tree_bytes(value);
  else if (j.is_array())
    for (const nlohmann::json& value : j) bytes += json_tree_bytes(value);
  else if (j.is_string())
    bytes += j.get_ref<const std::string&>().capacity();
  return bytes;
}

}  // namespace

std::vector<uint64_t> parse_seeds(const std::string& text) {
  std::vector<uint64_t> seeds;
  for (const std::string& part : split_values(text)) {
    const size_t dash = part.find('-');
    if (dash == std::string::npos) {
      seeds.push_back(parse_seed(part, part));
      continue;
    }
    const uint64_t first = parse_seed(part.substr(0, dash), part);
    const uint64_t last = parse_seed(part.substr(dash + 1), part);
    if (last < first)
      throw std::invalid_argument(fmt::format("{}: the range ends before it starts", part));
    if (last - first >= 1000000)
      throw std::invalid_argument(fmt::format("{}: more than a million seeds", part));
    for (uint64_t s = first;; ++s) {  // not s <= last: ++s wraps at 2^64 - 1
      seeds.push_back(s);
      if (s == last) break;
    }
  }
  return seeds;
}

SweepSetting parse_setting(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument(fmt::format("'{}' is not KEY=VALUE[,VALUE...]", text));
  for (char c : text)  // they would end up in file names, CSV rows and summary.md's table
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      throw std::invalid_argument("a value holds a control character (newline, tab, ...)");
  SweepSetting setting{text.substr(0, eq), split_values(text.substr(eq + 1))};
  std::set<std::string> seen;
  for (const std::string& v : setting.values) {
    if (v.empty()) throw std::invalid_argument(fmt::format("{}: an empty value", text));
    if (v.front() == ' ' || v.back() == ' ')
      throw std::invalid_argument(
          fmt::format("{}: the value '{}' begins or ends with a space", text, v));
    if (!seen.insert(v).second)
      throw std::invalid_argument(fmt::format("{}: the value {} is given twice", text, v));
  }
  return setting;
}

Sweep::Sweep(SweepSpec spec, ExperimentFile experiment, std::string directory)
    : spec_(std::move(spec)),
      experiment_(std::move(experiment)),
      task_(task_json(experiment_.task)),
      directory_(std::move(directory)) {
  if (spec_.seeds.empty()) throw ConfigError("--seeds: no seeds given");
  std::set<uint64_t> unique(spec_.seeds.begin(), spec_.seeds.end());
  spec_.seeds.assign(unique.begin(), unique.end());
  directory_label_ = "--out " + directory_;
  if (directory_.empty()) {
    directory_ = default_sweep_directory(spec_);
    directory_label_ = directory_ + " (the folder of a sweep without --out)";
  }
  std::set<std::string> keys;
  for (const SweepSetting& s : spec_.settings) {
    if (s.key == "seed") throw ConfigError("--set seed: give the seeds with --seeds");
    if (!keys.insert(s.key).second)
      throw ConfigError(fmt::format("--set {}: given twice (list its values in one --set)", s.key));
  }
  // Each combination's settings, first --set slowest, as settings given on top of the experiment's
  // configuration (apply_settings: a recipe's values for starts, stop_when_solved, repair and
  // halving unless those are given too), with the sweep's own --epochs, --recipe and
  // --stop-when-solved.
  nlohmann::json own = nlohmann::json::object();
  if (spec_.epochs) own["epochs"] = *spec_.epochs;
  if (!spec_.recipe.empty()) own["recipe"] = spec_.recipe;
  if (spec_.stop_when_solved) own["stop_when_solved"] = *spec_.stop_when_solved;
  std::vector<std::pair<std::string, nlohmann::json>> grid = {{"", own}};
  for (const SweepSetting& s : spec_.settings) {
    std::vector<std::pair<std::string, nlohmann::json>> next;
    for (const auto& [options, given] : grid)
      for (const std::string& value : s.values) {
        nlohmann::json changed = given;
        changed[s.key] = typed_value(value);
        next.emplace_back(
            fmt::format("{}{}{}={}", options, options.empty() ? "" : ";", s.key, value), changed);
      }
    grid = std::move(next);
  }
  // (given again only by --set)
  nlohmann::json base = config_to_json(experiment_.config);
  drop_recipe_filled_keys(base, experiment_.config.given);
  for (auto& [options, json] : grid) {
    nlohmann::json given = std::move(json);
    json = base;
    try {
      apply_settings(json, given);
    } catch (const ConfigError& e) {
      throw ConfigError(fmt::format("--set {}: {}", brief_text(options, 120), e.what()));
    }
  }
  // Files are named after their options when the names are distinct and short enough for any file
  // system (255 bytes with "_seed<20 digits>.json"), else o0, o1, ... (sweep.json maps them).
  constexpr size_t kMaxStem = 200;
  std::set<std::string> stems;
  bool short_stems = true;
  for (const auto& [options, json] : grid) {
    stems.insert(file_stem(options));
    short_stems = short_stems && file_stem(options).size() <= kMaxStem;
  }
  const bool readable_ids = short_stems && stems.size() == grid.size();
  // The sweep's own bookkeeping, refused before it is built when it cannot fit: per run about
  // three trees the size of its manifest entry (its configuration, the entry, and on resuming the
  // entry read back), the entry's text twice (written, read back) and its row. A million seeds of
  // checkerboard_sync took about 13 GB.
  try {
    const ExperimentConfig first = config_from_json(grid.front().second);
    const nlohmann::json entry = run_identity(fmt::format("seed{}", spec_.seeds.back()), first);
    const uint64_t per_run = sizeof(SweepRun) + sizeof(std::optional<SweepRow>) +
                             3 * json_tree_bytes(entry) + 2 * entry.dump().size();
    const uint64_t runs = uint64_t(grid.size()) * spec_.seeds.size();
    check_memory(runs * per_run,
                 fmt::format("keeping track of {} runs ({} seeds{})", runs, spec_.seeds.size(),
                             grid.size() > 1 ? fmt::format(" x {} combinations", grid.size()) : ""),
                 0, false);
  } catch (const ConfigError&) {  // refused below, naming the setting
  }
  std::map<std::string, std::string> resolved;  // a configuration's JSON -> its options text
  for (size_t c = 0; c < grid.size(); ++c) {
    const auto& [options, json] = grid[c];
    std::string configuration;
    try {
      nlohmann::json trained = config_to_json(config_from_json(json));
      trained.erase("name");  // a label: it changes nothing that is trained
      // Channel i is compared with target plane i whatever the order the list gives.
      if (trained.contains("loss_channels") && trained["loss_channels"].is_array())
        std::sort(trained["loss_channels"].begin(), trained["loss_channels"].end());
      configuration = trained.dump();
    } catch (const ConfigError& e) {
      throw ConfigError(fmt::format("--set {}: {}", brief_text(options, 120), e.what()));
    }
    // Values written differently but read the same (1e-8 and 1e-08), or only the name or the
    // order of the loss channels changed, would run one thing twice.
    const auto [same, fresh] = resolved.emplace(configuration, options);
    if (!fresh)
      throw ConfigError(fmt::format("--set: {} and {} give the same configuration",
                                    brief_text(same->second, 120), brief_text(options, 120)));
    combinations_.push_back(options);
    const std::string stem = readable_ids ? file_stem(options) : fmt::format("o{}", c);
    for (uint64_t seed : spec_.seeds) {
      SweepRun run;
      run.index = runs_.size();
      run.combination = c;
      run.seed = seed;
      run.options = options;
      run.id = fmt::format("{}{}seed{}", stem, stem.empty() ? "" : "_", seed);
      nlohmann::json seeded = json;
      seeded["seed"] = seed;
      try {
        run.config = config_from_json(seeded);
      } catch (const ConfigError& e) {
        throw ConfigError(fmt::format("--seeds {}: {}", seed, e.what()));
      }
      runs_.push_back(std::move(run));
    }
    const int64_t last = check_combination(runs_.back().config, options);
    for (size_t k = runs_.size() - spec_.seeds.size(); k < runs_.size(); ++k)
      runs_[k].last_epoch = last;
  }
  rows_.resize(runs_.size());
}

int64_t Sweep::check_combination(const ExperimentConfig& config, const std::string& options) const {
  const std::string where =
      options.empty() ? "the experiment" : "--set " + brief_text(options, 120);
  const MakeTask task_of = [&](const ExperimentConfig& c) {
    return make_task(experiment_.task, c);
  };
  try {
    const ExperimentConfig resolved = resolve_recipe(config, task_of);
    check_task_fits(task_of(resolved)->describe(), resolved);  // (--stay on a checkerboard)
    check_memory(cpu_training_memory_bytes(resolved, {}), "a run", 0, false);
    return last_epoch(resolved);
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("{}: {}", where, e.what()));
  } catch (const FileError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("{}: {}", where, e.what()));
  }
}

nlohmann::json Sweep::identity() const {
  nlohmann::json settings = nlohmann::json::array();
  for (const SweepSetting& s : spec_.settings) settings.push_back({{s.key, s.values}});
  nlohmann::json configs = nlohmann::json::array();
  for (const SweepRun& run : runs_) configs.push_back(run_identity(run.id, run.config));
  return {{"format", "dlca-sweep 1"},
          {"seeds", spec_.seeds},
          {"set", settings},
          {"epochs", spec_.epochs ? nlohmann::json(*spec_.epochs) : nlohmann::json(nullptr)},
          {"stop_when_solved", spec_.stop_when_solved ? nlohmann::json(*spec_.stop_when_solved)
                                                      : nlohmann::json(nullptr)},
          {"recipe", spec_.recipe},
          {"task", task_},
          {"runs", configs}};
}

// The sweep's folder: made and locked (one sweep at a time), its manifest checked or written,
// the rows of finished runs read back.
void Sweep::open() {
  const std::string& out = directory_label_;
  std::error_code error;
  const fs::path dir(directory_), manifest = dir / "sweep.json";
  if (fs::exists(dir, error) && !fs::is_directory(dir, error))
    throw ConfigError(fmt::format("{}: exists and is not a directory", out));
  // One sweep at a time in a directory: two would train the same runs and race to create it.
  if (!fs::create_directories(dir, error) && error)
    throw FileError(fmt::format("{}: cannot create it: {}", out, error.message()));
  const std::string lock_path = (dir / kLockFile).string();
  lock_ = std::make_shared<FileLock>(
      lock_path, out,
      fmt::format("{}: another dlca sweep is using it (it holds {}); wait for it, or give another "
                  "--out",
                  out, lock_path));
  const nlohmann::json wanted = identity();
  if (fs::exists(manifest, error)) {
    check_manifest(manifest, wanted, out);
  } else if (std::any_of(
                 fs::directory_iterator(dir, error), fs::directory_iterator(),
                 [](const fs::directory_entry& e) { return e.path().filename() != kLockFile; })) {
    const bool lock_was_there = lock_->file_was_there();
    lock_.reset();
    if (!lock_was_there) fs::remove(lock_path, error);  // leave the user's directory as it was
    throw ConfigError(
        fmt::format("{}: is not empty and holds no sweep.json (not a sweep's "
                    "directory); give a new or empty directory",
                    out));
  }
  for (const char* folder : {"runs", "models"})
    if (!fs::create_directories(dir / folder, error) && error)
      throw FileError(fmt::format("{}: cannot create it: {}", out, error.message()));
  write_file_atomically(manifest.string(), wanted.dump(1) + "\n");
  for (const SweepRun& run : runs_)
    if (std::optional<SweepRow> row = finished_row(dir, run)) rows_[run.index] = std::move(row);
  write_tables();
}

size_t Sweep::finished_count() const {
  return size_t(std::count_if(rows_.begin(), rows_.end(), [](const auto& r) { return r; }));
}

std::optional<SweepRow> Sweep::train(const SweepRun& run, int threads,
                                     TrainingObserver* watch) const {
  const auto started = std::chrono::steady_clock::now();
  if (task_json(experiment_.task) != task_)
    throw FileError(
        fmt::format("{}: has changed since the sweep started; its runs so far are "
                    "kept, and the sweep resumes only with the picture it started with",
                    experiment_.task.image));
  TrainingRequest request;  // as every front end's run (training_request.hpp)
  request.config = run.config;
  request.task_of = [&](const ExperimentConfig& c) { return make_task(experiment_.task, c); };
  request.backend.cpu.threads = threads;  // the CPU: sweeps compare runs, which depend only on
                                          // seed and options
  SignalSeen signals;                     // the sweep's program handles them, for all its runs
  request.run.observers = {&signals};
  if (watch != nullptr) request.run.observers.push_back(watch);
  const std::string model = "models/" + run.id + ".json";
  request.run.save_path = (fs::path(directory_) / model).string();
  PreparedTraining prepared = start_training(request);
  const TrainingRunOptions& run_options = request.run;
  std::ostringstream report;  // the summary lines a training program would print
  TrainingSummary summary;
  try {
    summary = run_training(prepared, run_options, report);
  } catch (const TrainingDiverged& e) {
    // A result of the sweep (this setting runs away), not a reason to stop it: a row that says
    // where, with no model (its parameters are no longer finite).
    SweepRow row;
    row.seed = run.seed;
    row.options = run.options;
    row.final_soft_loss = row.final_hard_loss = std::numeric_limits<double>::quiet_NaN();
    // The epoch of the candidate whose divergence ended the run, as its message names it; the
    // epochs before it trained.
    row.epochs = e.epoch();
    row.diverged_epoch = e.epoch();
    row.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return row;
  }
  if (summary.interrupted) {  // not a finished run's model: it is trained again on resume
    std::error_code ignored;
    fs::remove(run_options.save_path, ignored);
    return std::nullopt;
  }
  SweepRow row;
  row.seed = run.seed;
  row.options = run.options;
  row.first_zero_epoch = summary.first_zero_epoch;
  row.final_soft_loss = summary.final_soft_loss;
  row.final_hard_loss = summary.final_hard_loss;
  row.active_gates = summary.active_gates;
  row.pruned_gates = summary.pruned_gates;
  row.wall_seconds = summary.wall_seconds;
  row.model = model;
  row.epochs = summary.epochs;
  row.logits_checksum = summary.logits_checksum;
  // (The run's configuration as trained: the recipe's schedule and rounds applied.)
  if (prepared.config.rounds > 0) row.extra_rounds = rounds_begun(prepared.config, summary.epochs);
  if (summary.repair.is_object()) {
    row.repair_hard_loss_before = summary.repair.at("hard_loss_before").get<double>();
    row.repair_hard_loss_after = summary.repair.at("hard_loss_after").get<double>();
    row.repair_search = summary.repair.at("search").get<std::string>();
  }
  if (summary.kept) row.kept_most_wrong_bits = summary.kept->most_wrong();
  return row;
}

void Sweep::record(size_t run, const SweepRow& row) {
  write_file_atomically((fs::path(directory_) / "runs" / (runs_.at(run).id + ".json")).string(),
                        row.to_json().dump(1) + "\n");
  rows_.at(run) = row;
  write_tables();
}

void Sweep::write_tables() const {
  const fs::path dir(directory_);
  write_file_atomically((dir / "runs.csv").string(), csv());
  write_file_atomically((dir / "runs.json").string(), rows_json().dump(1) + "\n");
  write_file_atomically((dir / "summary.md").string(), summary_markdown());
}

std::string Sweep::csv() const {
  std::string text =
      "seed,options,first_zero_epoch,final_soft_loss,final_hard_loss,active_gates,pruned_gates,"
      "wall_seconds,model,epochs,logits_checksum,diverged_epoch,extra_rounds,"
      "repair_hard_loss_before,repair_hard_loss_after,kept_most_wrong_bits,repair_search\n";
  const auto number = [](double v) { return std::isfinite(v) ? fmt::format("{:.9g}", v) : ""; };
  const auto optional = [](const auto& v) { return v ? fmt::format("{}", *v) : std::string(); };
  for (const auto& r : rows_)
    if (r)
      text +=
          fmt::format("{},{},{},{},{},{},{},{:.3f},{},{},{},{},{},{},{},{},{}\n", r->seed,
                      csv_field(r->options), optional(r->first_zero_epoch),
                      number(r->final_soft_loss), number(r->final_hard_loss), r->active_gates,
                      r->pruned_gates, r->wall_seconds, csv_field(r->model), r->epochs,
                      r->logits_checksum, optional(r->diverged_epoch), optional(r->extra_rounds),
                      optional(r->repair_hard_loss_before), optional(r->repair_hard_loss_after),
                      optional(r->kept_most_wrong_bits), csv_field(r->repair_search.value_or("")));
  return text;
}

nlohmann::json Sweep::rows_json() const {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : rows_)
    if (r) rows.push_back(r->to_json());
  return rows;
}

bool solved(const SweepRow& row) { return row.first_zero_epoch && row.final_hard_loss == 0; }

namespace {

// Seeds as --seeds takes them: runs of consecutive seeds as "a-b", in the order given.
std::string seeds_text(const std::vector<uint64_t>& seeds) {
  std::string text;
  for (size_t i = 0; i < seeds.size();) {
    size_t j = i;
    while (j + 1 < seeds.size() && seeds[j + 1] == seeds[j] + 1) ++j;
    if (!text.empty()) text += ',';
    if (j > i + 1)
      text += fmt::format("{}-{}", seeds[i], seeds[j]);
    else
      text += j == i + 1 ? fmt::format("{},{}", seeds[i], seeds[j]) : fmt::format("{}", seeds[i]);
    i = j + 1;
  }
  return text;
}

// A setting as --set takes it: "key=v1,v2".
std::string setting_text(const SweepSetting& setting) {
  return fmt::format("{}={}", setting.key, fmt::join(setting.values, ","));
}

// `text` as one word of a POSIX shell command: as it is when it holds only characters no shell
// treats specially, else in single quotes (a single quote inside as '\''); `always` quotes it.
std::string shell_word(const std::string& text, bool always = false) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || (c != 0 && std::strchr("_-./=:,+@%", c));
  });
  if (plain && !always) return text;
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::string default_sweep_directory(const SweepSpec& spec) {
  std::set<uint64_t> seeds(spec.seeds.begin(), spec.seeds.end());
  std::string name = fs::path(spec.experiment).stem().string();
  if (spec.picture || names_a_file(spec.experiment)) {
    std::error_code error;
    const std::string where = fs::absolute(spec.experiment, error).lexically_normal().string();
    name += fmt::format("-{}", crc32_text(where.data(), where.size()).substr(6));
  }
  for (const auto& [option, value] : spec.picture_options) name += "-" + option + value;
  name += fmt::format("-seeds{}", seeds_text({seeds.begin(), seeds.end()}));
  for (const SweepSetting& setting : spec.settings)
    name += fmt::format("-{}", setting_text(setting));
  if (spec.epochs) name += fmt::format("-epochs{}", *spec.epochs);
  if (spec.stop_when_solved) name += fmt::format("-stop{}", *spec.stop_when_solved);
  if (!spec.recipe.empty()) name += fmt::format("-{}", spec.recipe);
  name = file_name_part(name, "._-=,+", '-');
  constexpr size_t kLongest = 120;
  if (name.size() > kLongest)
    name = name.substr(0, kLongest - 15) + "-" + crc32_text(name.data(), name.size()).substr(6);
  return (fs::path("sweeps") / name).string();
}

std::string Sweep::summary_markdown() const {
  // What was swept, as the command that runs (and resumes) this sweep; the folder is left out, so
  // that sweeps of one grid in two folders (by one process, by several) have equal summaries.
  std::string command = fmt::format("dlca sweep --{} {}", spec_.picture ? "target" : "config",
                                    shell_word(spec_.experiment));
  for (const auto& [option, value] : spec_.picture_options)
    command += fmt::format(" --{} {}", option, shell_word(value));
  command += " --seeds " + seeds_text(spec_.seeds);
  for (const SweepSetting& setting : spec_.settings)
    command += " --set " + shell_word(setting_text(setting), true);
  if (spec_.epochs) command += fmt::format(" --epochs {}", *spec_.epochs);
  if (spec_.stop_when_solved)
    command += fmt::format(" --stop-when-solved {}", *spec_.stop_when_solved);
  if (!spec_.recipe.empty()) command += " --recipe " + spec_.recipe;

  std::string text = fmt::format(
      "# Sweep of {}: {} runs ({} seeds x {} option combinations)\n\n`{} --out` this "
      "folder\n\n"
      "| options | solved | 95 % interval (Wilson) | median epochs to solve | worst epochs to "
      "solve | median wall s to solve | worst wall s to solve | median wall s of all |\n"
      "|---|---|---|---|---|---|---|---|\n",
      spec_.experiment, runs_.size(), spec_.seeds.size(), combinations_.size(), command);
  size_t unfinished = 0;
  std::string kept_lines;
  for (size_t c = 0; c < combinations_.size(); ++c) {
    std::vector<double> epochs, wall, wall_solved;
    size_t finished = 0, diverged = 0, judged_kept = 0, kept = 0;
    std::string label = combinations_[c];
    for (const SweepRun& run : runs_) {
      if (run.combination != c) continue;
      if (label.empty())
        label = fmt::format("(the experiment's, recipe {})", recipe_name(run.config.recipe));
      const auto& r = rows_[run.index];
      if (!r) {
        ++unfinished;
        continue;
      }
      ++finished;
      diverged += r->diverged_epoch.has_value();
      wall.push_back(r->wall_seconds);
      if (!solved(*r)) continue;
      if (r->kept_most_wrong_bits) {
        ++judged_kept;
        kept += *r->kept_most_wrong_bits == 0;
      }
      epochs.push_back(double(*r->first_zero_epoch));
      wall_solved.push_back(r->wall_seconds);
    }
    std::string cell;  // a '|' in a value would end the table's cell
    for (char ch : label) cell += ch == '|' ? std::string("\\|") : std::string(1, ch);
    const auto [low, high] = wilson_interval(double(epochs.size()), double(finished));
    const auto worst = [](const std::vector<double>& v) {
      return *std::max_element(v.begin(), v.end());
    };
    text += fmt::format("| {} | {}/{}{} | {} | {} | {} | {} | {} | {} |\n", cell, epochs.size(),
                        finished, diverged > 0 ? fmt::format(" ({} diverged)", diverged) : "",
                        finished == 0 ? "-" : fmt::format("{:.2f}-{:.2f}", low, high),
                        epochs.empty() ? "-" : fmt::format("{:g}", median(epochs)),
                        epochs.empty() ? "-" : fmt::format("{:g}", worst(epochs)),
                        epochs.empty() ? "-" : fmt::format("{:.1f}", median(wall_solved)),
                        epochs.empty() ? "-" : fmt::format("{:.1f}", worst(wall_solved)),
                        wall.empty() ? "-" : fmt::format("{:.1f}", median(wall)));
    if (judged_kept > 0)
      kept_lines += fmt::format("- {}: {} of the {} solved\n", label, kept, judged_kept);
  }
  if (!kept_lines.empty())
    text += "\nSolved pictures that stay exact at every step from the trained step T to 2T:\n\n" +
            kept_lines;
  if (unfinished > 0) text += fmt::format("\n{} runs not finished yet.\n", unfinished);
  return text;
}

std::string progress_line(const SweepRow& row, size_t done, size_t total) {
  // How the rounds and the repair went, when they ran: "; extra round 1", "; repaired 12 -> 0"
  // (the repair solved it), "; repair 12 -> 3 (not applied)" (a repair that did not), a wide
  // search named: "; repaired 3 -> 0 (every op)".
  std::string how;
  if (row.extra_rounds && *row.extra_rounds > 0)
    how += fmt::format("; extra round {}", *row.extra_rounds);
  if (row.repair_hard_loss_before && row.repair_hard_loss_after) {
    const bool repaired = solved(row) && *row.repair_hard_loss_after == 0;
    how += fmt::format(
        "; repair{} {:g} -> {:g}{}{}", repaired ? "ed" : "", *row.repair_hard_loss_before,
        *row.repair_hard_loss_after,
        row.repair_search && *row.repair_search != repair_search_name(RepairSearch::kNarrow)
            ? fmt::format(" ({})", *row.repair_search)
            : std::string(),
        repaired ? "" : " (not applied)");
  }
  // A solved picture: whether it stays from the trained step T to 2T.
  if (solved(row) && row.kept_most_wrong_bits)
    how += *row.kept_most_wrong_bits == 0
               ? std::string("; stays exact to 2T")
               : fmt::format("; does not stay (up to {:g} wrong bits by 2T)",
                             *row.kept_most_wrong_bits);
  return fmt::format(
      "[{}/{}] seed {}{}{}: {} ({:.1f} s)\n", done, total, row.seed, row.options.empty() ? "" : " ",
      row.options,
      solved(row)          ? fmt::format("solved at epoch {}{}", *row.first_zero_epoch, how)
      : row.diverged_epoch ? fmt::format("diverged in epoch {} (its loss or gradient not finite)",
                                         *row.diverged_epoch)
      : row.first_zero_epoch
          ? fmt::format("not solved (hard loss {:g} after {} epochs; 0 at epoch {}{})",
                        row.final_hard_loss, row.epochs, *row.first_zero_epoch, how)
          : fmt::format("not solved (hard loss {:g} after {} epochs{})", row.final_hard_loss,
                        row.epochs, how),
      row.wall_seconds);
}

namespace {

// Where a run in flight stands, for the sweep's progress: "seed 3: epoch 1200/3500, hard 14, about
// 9m05s left" (a halving run adds its start and budget).
std::string in_flight_line(const SweepRun& run, const TrainingRound& round) {
  std::string which = round.which;  // "  start 2/4  budget 37%"
  which.erase(0, which.find_first_not_of(' '));
  return fmt::format("seed {}{}{}: epoch {}/{}, hard {:g}{}{}, about {} left", run.seed,
                     run.options.empty() ? "" : " ", run.options, round.shown.epoch + 1,
                     round.epochs, round.shown.hard_loss, which.empty() ? "" : ", ", which,
                     format_seconds(round.seconds_left));
}

}  // namespace

bool run_sweep_locally(Sweep& sweep, int jobs, int threads, std::ostream& out,
                       double report_every_seconds) {
  std::vector<size_t> pending;
  for (const SweepRun& run : sweep.runs())
    if (!sweep.finished(run.index)) pending.push_back(run.index);
  jobs = std::max(1, std::min<int>(jobs, int(pending.size())));
  const int cores = threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
  const int per_run = jobs == 1 ? threads : std::max(1, cores / jobs);
  std::atomic<size_t> next{0};
  std::mutex mutex;  // guards the sweep's rows and files, `out`, `failure` and the runs in flight
  std::string failure;
  bool stopped = false;
  std::map<size_t, std::string> in_flight;  // by run index: in_flight_line of its last round
  const auto started = std::chrono::steady_clock::now();
  auto last_report = started;
  const auto watch_run = [&](size_t index, const TrainingRound& round) {
    std::lock_guard lock(mutex);
    in_flight[index] = in_flight_line(sweep.runs()[index], round);
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_report).count() < report_every_seconds) return;
    last_report = now;
    const std::string elapsed =
        format_seconds(std::chrono::duration<double>(now - started).count());
    for (const auto& [i, text] : in_flight) out << "  [" << elapsed << "] " << text << "\n";
    out << std::flush;
  };
  const auto work = [&] {
    while (true) {
      {
        std::lock_guard lock(mutex);
        if (!failure.empty() || stopped || StopSignals::stop_requested()) return;
      }
      const size_t i = next++;
      if (i >= pending.size()) return;
      try {
        CallbackObserver watch;
        watch.on_round = [&, index = pending[i]](const TrainingRound& round) {
          watch_run(index, round);
          return true;
        };
        const std::optional<SweepRow> row = sweep.train(sweep.runs()[pending[i]], per_run, &watch);
        std::lock_guard lock(mutex);
        in_flight.erase(pending[i]);
        if (!row) {
          stopped = true;
          return;
        }
        sweep.record(pending[i], *row);
        out << progress_line(*row, sweep.finished_count(), sweep.runs().size()) << std::flush;
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex);
        in_flight.erase(pending[i]);
        if (failure.empty())
          failure = fmt::format("run {}: {}", sweep.runs()[pending[i]].id, e.what());
        return;
      }
    }
  };
  std::vector<std::thread> workers;
  for (int j = 1; j < jobs; ++j) workers.emplace_back(work);
  work();
  for (std::thread& t : workers) t.join();
  if (!failure.empty()) throw std::runtime_error(failure);
  return !stopped && !StopSignals::stop_requested();
}

}  // namespace dlca
