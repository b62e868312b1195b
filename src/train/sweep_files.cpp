// A sweep's files (sweep_files.hpp): the rows of finished runs, checked against their models when
// read back, and the manifest, with what older builds wrote upgraded.
#include "train/sweep_files.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "dlca/core/config_json.hpp"
#include "dlca/core/json_numbers.hpp"
#include "dlca/core/json_text.hpp"
#include "dlca/core/model.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/circuit_repair.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/picture_kept.hpp"

namespace dlca {

namespace fs = std::filesystem;

namespace {

// The keys SweepRow::to_json writes (and from_json accepts).
const std::set<std::string>& to_json_keys() {
  static const std::set<std::string> keys = [] {
    std::set<std::string> all;
    const nlohmann::json row = SweepRow().to_json();
    for (const auto& [key, value] : row.items()) all.insert(key);
    return all;
  }();
  return keys;
}

}  // namespace

nlohmann::json SweepRow::to_json() const {
  const auto optional = [](const std::optional<int64_t>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  const auto finite = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
  };
  const auto finite_or_null = [&](const std::optional<double>& v) {
    return v ? finite(*v) : nlohmann::json(nullptr);
  };
  return {{"seed", seed},
          {"options", options},
          {"first_zero_epoch", optional(first_zero_epoch)},
          {"final_soft_loss", finite(final_soft_loss)},
          {"final_hard_loss", finite(final_hard_loss)},
          {"active_gates", active_gates},
          {"pruned_gates", pruned_gates},
          {"wall_seconds", wall_seconds},
          {"model", model},
          {"epochs", epochs},
          {"logits_checksum", logits_checksum},
          {"diverged_epoch", optional(diverged_epoch)},
          {"extra_rounds", optional(extra_rounds)},
          {"repair_hard_loss_before", finite_or_null(repair_hard_loss_before)},
          {"repair_hard_loss_after", finite_or_null(repair_hard_loss_after)},
          {"kept_most_wrong_bits", finite_or_null(kept_most_wrong_bits)},
          {"repair_search", repair_search ? nlohmann::json(*repair_search) : nlohmann::json()}};
}

SweepRow SweepRow::from_json(const nlohmann::json& j) {
  // Rows are read back on resume, so a hand-edited or damaged one is refused, not converted.
  const auto number = [&](const char* key) {
    const nlohmann::json& value = j.at(key);
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
      throw std::runtime_error(
          fmt::format("{}: must be a finite number >= 0, got {}", key, brief_json(value)));
    return value.get<double>();
  };
  const auto text = [&](const char* key) {
    if (!j.at(key).is_string())
      throw std::runtime_error(
          fmt::format("{}: must be a string, got {}", key, brief_json(j.at(key))));
    return j.at(key).get<std::string>();
  };
  const auto whole_number = [&](const char* key) {  // hard losses: bits
    const double value = number(key);
    if (value != std::floor(value))
      throw std::runtime_error(
          fmt::format("{}: must be a whole number of bits, got {}", key, brief_json(j.at(key))));
    return value;
  };
  if (!j.is_object()) throw std::runtime_error("not a JSON object");
  for (const auto& [key, value] : j.items())
    if (!to_json_keys().count(key))
      throw std::runtime_error(fmt::format("unknown key \"{}\"", key));
  SweepRow row;
  row.seed = json_integer<uint64_t>(j.at("seed"), "seed", 0);
  row.options = text("options");
  row.epochs = json_integer<int64_t>(j.at("epochs"), "epochs", 0);
  if (!j.at("first_zero_epoch").is_null()) {
    row.first_zero_epoch = json_integer<int64_t>(j.at("first_zero_epoch"), "first_zero_epoch", 0);
    if (*row.first_zero_epoch > row.epochs)
      throw std::runtime_error(fmt::format("first_zero_epoch: {} is beyond epochs ({})",
                                           *row.first_zero_epoch, row.epochs));
  }
  // Rows of older builds have none of these keys: read as none.
  const auto given = [&](const char* key) { return j.contains(key) && !j.at(key).is_null(); };
  if (given("extra_rounds")) {
    const std::string problem = integer_problem(j.at("extra_rounds"), 0, kMaxRounds);
    if (!problem.empty()) throw std::runtime_error("extra_rounds: " + problem);
    row.extra_rounds = j.at("extra_rounds").get<int64_t>();
  }
  if (given("repair_hard_loss_before") != given("repair_hard_loss_after"))
    throw std::runtime_error(
        "repair_hard_loss_before, repair_hard_loss_after: both or neither (a repair has both)");
  if (given("repair_hard_loss_before")) {
    row.repair_hard_loss_before = whole_number("repair_hard_loss_before");
    row.repair_hard_loss_after = whole_number("repair_hard_loss_after");
  }
  if (given("repair_search")) {
    if (!given("repair_hard_loss_before"))
      throw std::runtime_error("repair_search: given without the repair's hard losses");
    const std::string search = text("repair_search");
    if (std::find(std::begin(kRepairSearchNames), std::end(kRepairSearchNames), search) ==
        std::end(kRepairSearchNames))
      throw std::runtime_error(fmt::format(
          "repair_search: must be \"{}\", \"{}\" or \"{}\", got {}", kRepairSearchNames[0],
          kRepairSearchNames[1], kRepairSearchNames[2], brief_json(j.at("repair_search"))));
    row.repair_search = search;
  }
  if (given("kept_most_wrong_bits"))
    row.kept_most_wrong_bits = whole_number("kept_most_wrong_bits");
  // Rows written before runs could diverge have no "diverged_epoch".
  if (given("diverged_epoch")) {
    // The index of the epoch that diverged: the epochs before it are the row's `epochs`. Rows
    // written before epochs were named by their index everywhere counted it from 1.
    row.diverged_epoch = json_integer<int64_t>(j.at("diverged_epoch"), "diverged_epoch", 0);
    if (*row.diverged_epoch == row.epochs + 1) row.diverged_epoch = row.epochs;
    if (*row.diverged_epoch != row.epochs)
      throw std::runtime_error(
          fmt::format("diverged_epoch: {}, but a diverged run trained {} epochs before it",
                      *row.diverged_epoch, row.epochs));
    if (row.first_zero_epoch)
      throw std::runtime_error("first_zero_epoch: must be null for a diverged run");
    for (const char* key : {"final_soft_loss", "final_hard_loss"})
      if (!j.at(key).is_null())
        throw std::runtime_error(
            fmt::format("{}: must be null for a diverged run, got {}", key, brief_json(j.at(key))));
    if (!text("model").empty() || !text("logits_checksum").empty())
      throw std::runtime_error("model: a diverged run has no model file");
    if (row.repair_hard_loss_before)
      throw std::runtime_error("repair_hard_loss_before: must be null for a diverged run");
    if (given("kept_most_wrong_bits"))
      throw std::runtime_error("kept_most_wrong_bits: must be null for a diverged run");
    row.final_soft_loss = row.final_hard_loss = std::numeric_limits<double>::quiet_NaN();
    for (const char* key : {"active_gates", "pruned_gates"})
      if (j.at(key) != 0)
        throw std::runtime_error(
            fmt::format("{}: must be 0 for a diverged run, got {}", key, brief_json(j.at(key))));
    row.wall_seconds = number("wall_seconds");
    return row;
  }
  row.final_soft_loss = number("final_soft_loss");
  row.final_hard_loss = whole_number("final_hard_loss");
  if (row.final_hard_loss == 0 && !row.first_zero_epoch)
    throw std::runtime_error("final_hard_loss: 0, but first_zero_epoch says it never was");
  row.active_gates = json_integer<int>(j.at("active_gates"), "active_gates", 0);
  row.pruned_gates = json_integer<int>(j.at("pruned_gates"), "pruned_gates", 0);
  row.wall_seconds = number("wall_seconds");
  row.model = text("model");
  row.logits_checksum = text("logits_checksum");
  return row;
}

namespace {

// A manifest written by an older build, read as today's would write it: a picture without a
// checksum taken as this one, the picture's path as this sweep's when the checksums agree,
// configurations read with today's defaults for keys added since (adam_beta1, ...) and what was
// given taken as this sweep's (not recorded then).
void upgrade_manifest(nlohmann::json& saved, const nlohmann::json& wanted) {
  if (saved.contains("task") && saved["task"].is_object() &&
      !saved["task"].contains("image_checksum") && wanted["task"].contains("image_checksum"))
    saved["task"]["image_checksum"] = wanted["task"]["image_checksum"];
  // The picture is the one its checksum names, whatever path reaches it (the experiment given as
  // ./e.json, by its absolute path, from another folder, or a copy or link of another name, which
  // names the experiment of a --target sweep: "image:heart.png").
  const bool same_picture = saved.contains("task") && saved["task"].is_object() &&
                            wanted["task"].contains("image") &&
                            saved["task"].value("image_checksum", nlohmann::json()) ==
                                wanted["task"].value("image_checksum", nlohmann::json()) &&
                            wanted["task"].contains("image_checksum");
  if (same_picture) saved["task"]["image"] = wanted["task"]["image"];
  if (!saved.contains("runs") || !saved["runs"].is_array() ||
      saved["runs"].size() != wanted["runs"].size())
    return;
  for (size_t r = 0; r < saved["runs"].size(); ++r) {
    nlohmann::json& run = saved["runs"][r];
    if (!run.is_object() || !run.contains("config")) continue;
    try {
      run["config"] = config_to_json(config_from_json(run["config"]));
    } catch (const ConfigError&) {  // left as it is: it differs
    }
    if (same_picture && run["config"].is_object() && wanted["runs"][r].contains("config"))
      run["config"]["name"] = wanted["runs"][r]["config"].value("name", nlohmann::json());
    if (!run.contains("given")) run["given"] = wanted["runs"][r]["given"];
    if (run["given"].is_object() && !run["given"].contains("gates"))  // recorded since
      run["given"]["gates"] = wanted["runs"][r]["given"]["gates"];
  }
}

}  // namespace

// Throws unless the manifest in the folder describes the sweep `wanted` (after upgrading an older
// one), naming what differs.
void check_manifest(const fs::path& manifest, const nlohmann::json& wanted,
                    const std::string& out) {
  nlohmann::json saved;
  try {
    saved = parse_json_text(read_file(manifest.string()));
  } catch (const FileError&) {
    throw;
  } catch (const std::exception&) {
    saved = nlohmann::json();
  }
  if (!saved.is_object() || saved.value("format", "") != "dlca-sweep 1")
    throw FileError(fmt::format("{}: {} is not a dlca_sweep manifest", out, manifest.string()));
  upgrade_manifest(saved, wanted);
  if (saved == wanted) return;
  std::string what = "experiment configuration or task";
  for (const char* key : {"seeds", "set", "epochs", "stop_when_solved", "recipe", "task"})
    if (saved.value(key, nlohmann::json()) != wanted.at(key)) {
      what = key == std::string("set") ? "--set values" : key;
      const nlohmann::json saved_task = saved.value("task", nlohmann::json());
      if (what == "task" && saved_task.is_object() &&
          saved_task.value("image", "") == wanted["task"].value("image", "") &&
          saved_task.value("image_checksum", "") != wanted["task"].value("image_checksum", ""))
        what =
            fmt::format("target picture ({} has changed since)", wanted["task"].value("image", ""));
      break;
    }
  throw ConfigError(fmt::format(
      "{}: holds a sweep with other {} (see its sweep.json); give the same arguments to resume "
      "it, or another --out",
      out, what));
}

namespace {

// Throws unless a finished run's row agrees with its model file: the epochs, the first epoch with
// hard loss 0, the final hard loss (or a repair) and the parameters' checksum.
void check_row_against_model(const SweepRow& row, const ModelFile& saved) {
  if (logits_checksum(saved.model.logits) != row.logits_checksum)
    throw std::runtime_error(fmt::format("logits_checksum: {} does not match the parameters in {}",
                                         row.logits_checksum, row.model));
  if (!saved.training) return;  // the run's own record of its epochs: the row must say the same
  if (row.epochs != saved.training->epoch)
    throw std::runtime_error(fmt::format("epochs: {}, but {} was trained for {}", row.epochs,
                                         row.model, saved.training->epoch));
  if (saved.model.config.stay) {
    // Grown to stay, a run's hard loss is its circuit's over the window T to 2T, solved (at its
    // last epoch) when that is 0 (training_loop.cpp, summarize): the epochs score one state each.
    const std::optional<PictureKept> kept = picture_kept(saved.model);
    const double window = kept ? kept->total_wrong() : -1;
    if (row.final_hard_loss != window)
      throw std::runtime_error(
          fmt::format("final_hard_loss: {:g}, but {} is {:g} bits wrong over its window",
                      row.final_hard_loss, row.model, window));
    if (row.first_zero_epoch != (window == 0 ? std::optional(row.epochs) : std::nullopt))
      throw std::runtime_error(
          fmt::format("first_zero_epoch: does not match {} (stay)", row.model));
    return;
  }
  std::optional<int64_t> first_zero;
  for (const EpochStats& e : saved.training->history)
    if (e.hard_loss == 0 && !first_zero) first_zero = e.epoch;
  if (saved.training->measured && saved.training->measured->hard_loss == 0 && !first_zero)
    first_zero = saved.training->measured->epoch;
  // --repair fixes the circuit after the last epoch: hard loss 0 "at" the last epoch, which the
  // history does not show.
  const double last_hard_loss = saved.training->measured ? saved.training->measured->hard_loss
                                : saved.training->history.empty()
                                    ? row.final_hard_loss
                                    : saved.training->history.back().hard_loss;
  const bool repaired = saved.model.config.repair && row.final_hard_loss == 0 &&
                        (first_zero || row.first_zero_epoch == row.epochs);
  if (row.final_hard_loss != last_hard_loss && !repaired)
    throw std::runtime_error(fmt::format("final_hard_loss: {:g}, but {} ends at {:g}",
                                         row.final_hard_loss, row.model, last_hard_loss));
  if (row.first_zero_epoch != first_zero && !(repaired && !first_zero))
    throw std::runtime_error(
        fmt::format("first_zero_epoch: {}, but {} says {}",
                    row.first_zero_epoch ? std::to_string(*row.first_zero_epoch) : "never",
                    row.model, first_zero ? std::to_string(*first_zero) : "never"));
}

}  // namespace

// A finished run's row in the sweep's folder, checked against the run and its model; nothing when
// the run is to train (again): no row, or its model is gone.
std::optional<SweepRow> finished_row(const fs::path& dir, const SweepRun& run) {
  std::error_code error;
  const fs::path file = dir / "runs" / (run.id + ".json");
  if (!fs::exists(file, error)) return std::nullopt;
  try {
    SweepRow row = SweepRow::from_json(parse_json_text(read_file(file.string())));
    if (row.seed != run.seed || row.options != run.options)
      throw std::runtime_error("it is the row of another run");
    if (row.epochs > run.last_epoch)
      throw std::runtime_error(
          fmt::format("epochs: {} is beyond the sweep's {}", row.epochs, run.last_epoch));
    if (row.diverged_epoch) {  // no model of its own: its row is the whole result
      if (fs::exists(dir / "models" / (run.id + ".json"), error))
        throw std::runtime_error(
            fmt::format("diverged_epoch: {}, but models/{}.json holds a finished run's model",
                        *row.diverged_epoch, run.id));
      return row;
    }
    if (!row.first_zero_epoch && row.epochs != run.last_epoch)
      throw std::runtime_error(fmt::format(
          "epochs: {}, but an unsolved run trains all the sweep's {}", row.epochs, run.last_epoch));
    if (row.model != "models/" + run.id + ".json")
      throw std::runtime_error(
          fmt::format("model: must be models/{}.json, got {}", run.id, row.model));
    if (!fs::exists(dir / row.model, error)) return std::nullopt;  // its model is gone: train it
    const ModelFile saved = load_model_file((dir / row.model).string());
    check_row_against_model(row, saved);
    // How its grown picture stays, from the model: checked, or filled in for a row of an older
    // build.
    const std::optional<PictureKept> kept = picture_kept(saved.model);
    if (row.kept_most_wrong_bits && (!kept || *row.kept_most_wrong_bits != kept->most_wrong()))
      throw std::runtime_error(
          fmt::format("kept_most_wrong_bits: {:g}, but {} {}", *row.kept_most_wrong_bits, row.model,
                      kept ? fmt::format("has {:g} wrong bits at most", kept->most_wrong())
                           : std::string("grows no picture to keep")));
    if (kept) row.kept_most_wrong_bits = kept->most_wrong();
    return row;
  } catch (const FileError&) {
    throw;
  } catch (const std::exception& e) {
    throw FileError(
        fmt::format("{}: not a finished run's row ({}); remove it to train the run "
                    "again",
                    file.string(), plain_error_text(e)));
  }
}

}  // namespace dlca
