// Writing and reading model files (see model_file.hpp): checksummed JSON, every field checked.
#include "dlca/train/model_file.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <zlib.h>
#include <nlohmann/json.hpp>

#include "dlca/core/config_json.hpp"
#include "dlca/core/json_numbers.hpp"
#include "dlca/core/json_text.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/multi_start.hpp"

namespace dlca {

std::string crc32_text(const void* data, size_t bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  const auto* p = static_cast<const Bytef*>(data);
  for (size_t done = 0; done < bytes;) {  // in pieces: zlib takes at most 4 GiB at once
    const uInt piece = uInt(std::min<size_t>(bytes - done, size_t(1) << 30));
    crc = crc32(crc, p + done, piece);
    done += piece;
  }
  return fmt::format("crc32:{:08x}", crc);
}

namespace {

constexpr const char* kFormat = "dlca-model";

std::string checksum_of(const nlohmann::json& body) {
  const std::string text = body.dump();
  return crc32_text(text.data(), text.size());
}

nlohmann::json wiring_json(const std::vector<LayerWiring>& layers) {
  auto out = nlohmann::json::array();
  for (const auto& w : layers) out.push_back({{"a", w.a}, {"b", w.b}});
  return out;
}

std::vector<LayerWiring> wiring_from_json(const nlohmann::json& j, const std::vector<int>& widths,
                                          const char* which) {
  if (!j.is_array() || j.size() != widths.size() - 1)
    throw std::runtime_error(
        fmt::format("wiring.{}: expected {} layers", which, widths.size() - 1));
  std::vector<LayerWiring> layers;
  for (size_t l = 0; l < j.size(); ++l) {
    LayerWiring w;
    if (!j[l].is_object())
      throw std::runtime_error(fmt::format("wiring.{}[{}]: must be a JSON object", which, l));
    for (const auto& item : j[l].items())
      if (item.key() != "a" && item.key() != "b")
        throw std::runtime_error(
            fmt::format("wiring.{}[{}]: unknown key \"{}\"", which, l, item.key()));
    for (const char* side : {"a", "b"}) {
      const auto& wires = j[l].at(side);
      if (!wires.is_array() || wires.size() != size_t(widths[l + 1]))
        throw std::runtime_error(
            fmt::format("wiring.{}[{}].{}: expected {} inputs", which, l, side, widths[l + 1]));
      auto& out = side[0] == 'a' ? w.a : w.b;
      for (const auto& v : wires) {
        if (!v.is_number_integer())
          throw std::runtime_error(
              fmt::format("wiring.{}[{}].{}: input indices must be integers, got {}", which, l,
                          side, brief_json(v)));
        if (!v.is_number_unsigned() || v.get<uint64_t>() >= uint64_t(widths[l]))
          throw std::runtime_error(fmt::format("wiring.{}[{}].{}: input index {} is outside 0..{}",
                                               which, l, side, v.dump(), widths[l] - 1));
        out.push_back(v.get<uint32_t>());
      }
    }
    layers.push_back(std::move(w));
  }
  return layers;
}

// Finite numbers, exactly `count` of them.
std::vector<double> numbers_from_json(const nlohmann::json& j, size_t count, const char* what) {
  if (!j.is_array() || j.size() != count)
    throw std::runtime_error(
        fmt::format("{}: expected {} values, found {}", what, count, j.is_array() ? j.size() : 0));
  std::vector<double> out;
  out.reserve(count);
  for (const auto& v : j) {
    if (!v.is_number()) throw std::runtime_error(fmt::format("{}: contains a non-number", what));
    out.push_back(v.get<double>());
    if (!std::isfinite(out.back()))
      throw std::runtime_error(fmt::format("{}: contains a non-finite value", what));
  }
  return out;
}

// As numbers_from_json, for values that cannot be negative (losses, times).
std::vector<double> non_negative_numbers_from_json(const nlohmann::json& j, size_t count,
                                                   const char* what) {
  std::vector<double> out = numbers_from_json(j, count, what);
  for (double v : out)
    if (v < 0) throw std::runtime_error(fmt::format("{}: negative value", what));
  return out;
}

std::vector<float> floats_from_json(const nlohmann::json& j, size_t count, const char* what) {
  std::vector<float> out;
  out.reserve(count);
  for (double d : numbers_from_json(j, count, what)) {
    if (std::abs(d) > 3.4e38) throw std::runtime_error(fmt::format("{}: value out of range", what));
    out.push_back(float(d));
  }
  return out;
}

template <typename T>
T get_checked(const nlohmann::json& j, const char* key, T low, const char* what) {
  const auto& v = j.at(key);
  if (!v.is_number_integer() || v.get<int64_t>() < int64_t(low))
    throw std::runtime_error(
        fmt::format("{}.{}: must be an integer of at least {}", what, key, low));
  return v.get<T>();
}

// Refuses keys dlca never writes (an edited or foreign file), naming the first: silently ignoring
// them would read a file as something it is not.
void require_known_keys(const nlohmann::json& j, std::initializer_list<const char*> known,
                        const char* where) {
  if (!j.is_object()) throw std::runtime_error(fmt::format("{}: must be a JSON object", where));
  for (const auto& [key, value] : j.items()) {
    bool found = false;
    for (const char* k : known) found = found || key == k;
    if (!found) throw std::runtime_error(fmt::format("{}: unknown key \"{}\"", where, key));
  }
}

TrainingState training_from_json(const nlohmann::json& t, const Model& m) {
  require_known_keys(
      t,
      {"epoch", "optimizer", "random", "history", "measured", "tile_cells", "backend", "hardened"},
      "training");
  require_known_keys(t.at("optimizer"), {"steps", "first_moment", "second_moment"},
                     "training.optimizer");
  require_known_keys(t.at("random"), {"streams", "seed", "next_epoch"}, "training.random");
  require_known_keys(t.at("history"), {"soft_loss", "hard_loss", "active_gates", "ms"},
                     "training.history");
  if (t.contains("measured"))
    require_known_keys(t.at("measured"), {"soft_loss", "hard_loss", "active_gates", "ms"},
                       "training.measured");
  TrainingState s;
  s.epoch = get_checked<int64_t>(t, "epoch", 0, "training");
  const auto& opt = t.at("optimizer");
  s.optimizer_steps = get_checked<int64_t>(opt, "steps", 0, "training.optimizer");
  if (s.optimizer_steps != s.epoch)
    throw std::runtime_error("training: optimizer steps differ from the epoch count");
  s.first_moment =
      floats_from_json(opt.at("first_moment"), m.logits.size(), "training.optimizer.first_moment");
  s.second_moment = floats_from_json(opt.at("second_moment"), m.logits.size(),
                                     "training.optimizer.second_moment");
  for (float v : s.second_moment)
    if (v < 0) throw std::runtime_error("training.optimizer.second_moment: negative value");
  const auto& random = t.at("random");
  const std::string streams = random.at("streams").get<std::string>();
  if (streams != (m.config.random_streams == RandomStreams::kJax ? "jax" : "dlca") ||
      json_integer<uint64_t, std::runtime_error>(random.at("seed"), "training.random.seed", 0) !=
          m.config.seed ||
      json_integer<int64_t, std::runtime_error>(random.at("next_epoch"),
                                                "training.random.next_epoch", 0) != s.epoch)
    throw std::runtime_error("training.random: does not match the configuration and epoch");
  const auto& h = t.at("history");
  const size_t n = size_t(s.epoch);
  const auto soft =
      non_negative_numbers_from_json(h.at("soft_loss"), n, "training.history.soft_loss");
  const auto hard =
      non_negative_numbers_from_json(h.at("hard_loss"), n, "training.history.hard_loss");
  const auto active = numbers_from_json(h.at("active_gates"), n, "training.history.active_gates");
  for (size_t e = 0; e < n; ++e)  // counts: integers of at least 0
    json_integer<int, std::runtime_error>(h.at("active_gates")[e],
                                          fmt::format("training.history.active_gates[{}]", e), 0);
  const auto ms = non_negative_numbers_from_json(h.at("ms"), n, "training.history.ms");
  for (size_t e = 0; e < n; ++e)
    s.history.push_back({int64_t(e), soft[e], hard[e], int(active[e]), ms[e]});
  if (t.contains("measured")) {
    const auto& mj = t.at("measured");
    const auto one = non_negative_numbers_from_json(
        nlohmann::json::array({mj.at("soft_loss"), mj.at("hard_loss"), mj.at("ms")}), 3,
        "training.measured");
    s.measured = EpochStats{s.epoch, one[0], one[1],
                            json_integer<int, std::runtime_error>(
                                mj.at("active_gates"), "training.measured.active_gates", 0),
                            one[2]};
  }
  if (t.contains("tile_cells"))
    s.tile_cells =
        json_integer<int, std::runtime_error>(t.at("tile_cells"), "training.tile_cells", 0);
  if (t.contains("backend")) {
    if (t.at("backend") != "vulkan")
      throw std::runtime_error(
          fmt::format("training.backend: must be \"vulkan\" (left out for "
                      "the CPU), got {}",
                      brief_json(t.at("backend"))));
    s.vulkan = true;
  }
  if (t.contains("hardened")) {  // the gates progressive hardening fixed, by index, ascending
    const auto& list = t.at("hardened");
    if (!list.is_array() || list.empty())
      throw std::runtime_error("training.hardened: must be a non-empty list of gate indices");
    s.hardened.assign(size_t(m.num_gates()), 0);
    int64_t last = -1;
    for (const auto& entry : list) {
      const int64_t g = json_integer<int64_t, std::runtime_error>(entry, "training.hardened", 0);
      if (g <= last || g >= m.num_gates())
        throw std::runtime_error(fmt::format(
            "training.hardened: gate {} is not a gate index (below {}) in ascending order", g,
            m.num_gates()));
      s.hardened[size_t(g)] = 1;
      last = g;
    }
  }
  return s;
}

nlohmann::json training_json(const Model& m, const TrainingState& s) {
  nlohmann::json soft = nlohmann::json::array(), hard = nlohmann::json::array(),
                 active = nlohmann::json::array(), ms = nlohmann::json::array();
  for (const EpochStats& e : s.history) {
    soft.push_back(e.soft_loss);
    hard.push_back(e.hard_loss);
    active.push_back(e.active_gates);
    ms.push_back(std::round(e.milliseconds * 1000) / 1000);
  }
  nlohmann::json out = {
      {"epoch", s.epoch},
      {"optimizer",
       {{"steps", s.optimizer_steps},
        {"first_moment", s.first_moment},
        {"second_moment", s.second_moment}}},
      {"random",
       {{"streams", m.config.random_streams == RandomStreams::kJax ? "jax" : "dlca"},
        {"seed", m.config.seed},
        {"next_epoch", s.epoch}}},
      {"history",
       {{"soft_loss", soft}, {"hard_loss", hard}, {"active_gates", active}, {"ms", ms}}}};
  if (s.measured)
    out["measured"] = {{"soft_loss", s.measured->soft_loss},
                       {"hard_loss", s.measured->hard_loss},
                       {"active_gates", s.measured->active_gates},
                       {"ms", std::round(s.measured->milliseconds * 1000) / 1000}};
  if (s.tile_cells) out["tile_cells"] = *s.tile_cells;
  if (s.vulkan) out["backend"] = "vulkan";
  std::vector<int64_t> hardened;  // left out when none, so that older dlca builds read the file
  for (size_t g = 0; g < s.hardened.size(); ++g)
    if (s.hardened[g]) hardened.push_back(int64_t(g));
  if (!hardened.empty()) out["hardened"] = hardened;
  return out;
}

nlohmann::json multi_start_json(const Model& chosen, const MultiStartRecord& r) {
  nlohmann::json candidates = nlohmann::json::array();
  for (const StartState& c : r.candidates) {
    Model candidate_model = chosen;  // training_json reads the seed and streams from the config
    candidate_model.config.seed = c.seed;
    candidates.push_back({{"seed", c.seed},
                          {"logits", c.logits},
                          {"training", training_json(candidate_model, c.training)}});
    if (r.halving) candidates.back()["start"] = c.start;
  }
  nlohmann::json j = {
      {"run_seed", r.run_seed},
      {"starts", r.starts},
      {"chosen", r.chosen},
      {"solved_epoch", r.solved_epoch ? nlohmann::json(*r.solved_epoch) : nlohmann::json(nullptr)},
      {"candidates", candidates}};
  if (r.halving)
    j["halving"] = {{"slots", r.halving->slots}, {"epochs_used", r.halving->epochs_used},
                    {"fates", r.halving->fates}, {"diverged_epochs", r.halving->diverged_epochs},
                    {"rungs", r.halving->rungs}, {"rung_scores", r.halving->rung_scores}};
  return j;
}

// A halving run's state, checked against the run's starts.
HalvingRecord halving_from_json(const nlohmann::json& j, int starts) {
  require_known_keys(j,
                     {"slots", "epochs_used", "fates", "diverged_epochs", "rungs", "rung_scores"},
                     "multi_start.halving");
  HalvingRecord h;
  h.slots = json_integer<int, std::runtime_error>(j.at("slots"), "multi_start.halving.slots", 1);
  h.epochs_used = json_integer<int64_t, std::runtime_error>(j.at("epochs_used"),
                                                            "multi_start.halving.epochs_used", 0);
  if (h.epochs_used > kMaxCandidateEpochs)
    throw std::runtime_error(fmt::format("multi_start.halving.epochs_used: above {}, got {}",
                                         kMaxCandidateEpochs, h.epochs_used));
  const nlohmann::json &fates = j.at("fates"), &diverged = j.at("diverged_epochs"),
                       &rungs = j.at("rung_scores");
  if (!fates.is_array() || fates.size() != size_t(starts) || !diverged.is_array() ||
      diverged.size() != size_t(starts))
    throw std::runtime_error(
        "multi_start.halving: fates and diverged_epochs must have one entry per start");
  for (size_t k = 0; k < fates.size(); ++k) {
    if (!fates[k].is_string() ||
        !std::set<std::string>{"training", "finished", "halted", "diverged", "out_of_budget"}.count(
            fates[k].get<std::string>()))
      throw std::runtime_error(fmt::format("multi_start.halving.fates[{}]: not a fate", k));
    h.fates.push_back(fates[k].get<std::string>());
    h.diverged_epochs.push_back(json_integer<int64_t, std::runtime_error>(
        diverged[k], "multi_start.halving.diverged_epochs", 0));
    if ((h.fates.back() == "diverged") != (h.diverged_epochs.back() > 0))
      throw std::runtime_error(fmt::format(
          "multi_start.halving.diverged_epochs[{}]: above 0 exactly for a start that diverged", k));
  }
  const nlohmann::json& rung_epochs = j.at("rungs");
  if (!rung_epochs.is_array() || rung_epochs.size() > 2)
    throw std::runtime_error("multi_start.halving.rungs: must be a list of up to 2 epochs");
  for (const nlohmann::json& e : rung_epochs)
    h.rungs.push_back(json_integer<int64_t, std::runtime_error>(e, "multi_start.halving.rungs", 1));
  if (!rungs.is_array() || rungs.size() > h.rungs.size())
    throw std::runtime_error(
        "multi_start.halving.rung_scores: must be a list of at most one list per rung");
  for (const nlohmann::json& rung : rungs) {
    if (!rung.is_array())
      throw std::runtime_error("multi_start.halving.rung_scores: must be lists of numbers");
    std::vector<double> scores;
    for (const nlohmann::json& s : rung) {
      if (!s.is_number() || !std::isfinite(s.get<double>()))
        throw std::runtime_error("multi_start.halving.rung_scores: must be finite numbers");
      scores.push_back(s.get<double>());
    }
    h.rung_scores.push_back(std::move(scores));
  }
  return h;
}

MultiStartRecord multi_start_from_json(const nlohmann::json& j, const Model& chosen) {
  require_known_keys(j, {"run_seed", "starts", "chosen", "solved_epoch", "candidates", "halving"},
                     "multi_start");
  MultiStartRecord r;
  r.run_seed =
      json_integer<uint64_t, std::runtime_error>(j.at("run_seed"), "multi_start.run_seed", 0);
  r.starts = json_integer<int, std::runtime_error>(j.at("starts"), "multi_start.starts", 2);
  r.chosen = json_integer<int, std::runtime_error>(j.at("chosen"), "multi_start.chosen", 0);
  if (r.chosen >= r.starts)
    throw std::runtime_error("multi_start.chosen: not one of the run's starts");
  if (chosen.config.starts != 1 || chosen.config.seed != start_seed(r.run_seed, r.chosen))
    throw std::runtime_error("multi_start: the model is not the chosen candidate of the run");
  if (!j.at("solved_epoch").is_null())
    r.solved_epoch = json_integer<int64_t, std::runtime_error>(j.at("solved_epoch"),
                                                               "multi_start.solved_epoch", 0);
  if (j.contains("halving")) r.halving = halving_from_json(j.at("halving"), r.starts);
  const nlohmann::json& list = j.at("candidates");
  if (!list.is_array() || (!list.empty() && !r.halving && list.size() != size_t(r.starts)))
    throw std::runtime_error("multi_start.candidates: must list every start or none");
  if (r.halving && r.solved_epoch)
    throw std::runtime_error("multi_start.halving: a solved run keeps no halving state");
  if (r.solved_epoch && !list.empty())
    throw std::runtime_error(
        "multi_start.solved_epoch: a solved run keeps only its chosen candidate, yet candidates "
        "are listed");
  for (size_t k = 0; k < list.size(); ++k) {
    require_known_keys(list[k], {"seed", "logits", "training", "start"},
                       "multi_start.candidates[]");
    StartState c;
    c.start = int(k);
    if (r.halving) {  // the candidates held, by start: each one not halted, listed once
      c.start = json_integer<int, std::runtime_error>(list[k].at("start"),
                                                      "multi_start.candidates.start", 0);
      if (c.start >= r.starts || (k > 0 && c.start <= r.candidates.back().start) ||
          r.halving->fates[size_t(c.start)] == "halted")
        throw std::runtime_error(
            fmt::format("multi_start.candidates[{}].start: not a held start, in order", k));
    } else if (list[k].contains("start")) {
      throw std::runtime_error("multi_start.candidates[].start: only in a halving run's file");
    }
    c.seed = json_integer<uint64_t, std::runtime_error>(list[k].at("seed"),
                                                        "multi_start.candidates.seed", 0);
    if (c.seed != start_seed(r.run_seed, c.start))
      throw std::runtime_error(
          fmt::format("multi_start.candidates[{}].seed: not the seed of start {}", k, c.start));
    Model candidate_model = chosen;
    candidate_model.config.seed = c.seed;
    c.logits = floats_from_json(list[k].at("logits"), chosen.logits.size(),
                                "multi_start.candidates.logits");
    c.training = training_from_json(list[k].at("training"), candidate_model);
    r.candidates.push_back(std::move(c));
  }
  if (r.halving && !std::any_of(r.candidates.begin(), r.candidates.end(),
                                [&](const StartState& c) { return c.start == r.chosen; }))
    throw std::runtime_error("multi_start.chosen: not one of the candidates held");
  if (r.halving)  // a start training, diverged or stopped by the budget is held (listed)
    for (size_t k = 0; k < r.halving->fates.size(); ++k) {
      const std::string& fate = r.halving->fates[k];
      const bool listed = std::any_of(r.candidates.begin(), r.candidates.end(),
                                      [&](const StartState& c) { return c.start == int(k); });
      if (!listed && fate != "halted" && fate != "finished")
        throw std::runtime_error(
            fmt::format("multi_start.halving.fates[{}]: \"{}\", but the start is not among the "
                        "candidates",
                        k, fate));
    }
  return r;
}

}  // namespace

ExperimentConfig MultiStartRecord::run_config(const ExperimentConfig& chosen_config) const {
  ExperimentConfig run = chosen_config;
  run.seed = run_seed;
  run.starts = halving ? halving->slots : starts;
  run.halving = halving.has_value();
  return run;
}

std::string model_file_text(const Model& m, const TrainingState* training,
                            const MultiStartRecord* multi_start) {
  nlohmann::json j = {
      {"format", kFormat},
      {"version", kModelFileVersion},
      {"kind", training ? "checkpoint" : "model"},
      {"config", config_to_json(m.config)},
      {"wiring",
       {{"perception", wiring_json(m.perception_wiring)},
        {"update", wiring_json(m.update_wiring)}}},
      {"logits", m.logits},
      {"task", task_to_json(m.task)},
  };
  if (training) j["training"] = training_json(m, *training);
  if (multi_start) j["multi_start"] = multi_start_json(m, *multi_start);
  return seal_model_file(std::move(j));
}

std::string seal_model_file(nlohmann::json body) {
  body["checksum"] = checksum_of(body);
  return body.dump() + "\n";
}

void save_model_file(const std::string& path, const Model& model, const TrainingState* training,
                     const MultiStartRecord* multi_start) {
  write_file_atomically(path, model_file_text(model, training, multi_start));
}

ModelFile load_model_file(const std::string& path) {
  const std::string text = read_file(path, kMaxModelFileBytes);
  try {
    nlohmann::json j;
    try {
      j = parse_json_text(text);
    } catch (const nlohmann::json::parse_error& e) {
      if (text.empty()) throw std::runtime_error("empty file");
      if (std::string utf8 = invalid_utf8_text(e); !utf8.empty()) throw std::runtime_error(utf8);
      throw std::runtime_error("truncated or not JSON (not a dlca model file)");
    }
    if (!j.is_object() || !j.contains("format") || j["format"] != kFormat)
      throw std::runtime_error(
          fmt::format("not a dlca model file (no \"format\": \"{}\")", kFormat));
    if (j.contains("version") && !j["version"].is_number_integer())
      throw std::runtime_error(
          fmt::format("version: must be an integer, got {}", brief_json(j["version"])));
    if (!j.contains("version") || (j["version"] != kModelFileVersion && j["version"] != 2))
      throw std::runtime_error(
          fmt::format("unsupported version {} (this build reads versions 2 and {})",
                      brief_json(j.value("version", nlohmann::json())), kModelFileVersion));
    const bool version2 = j["version"] == 2;
    const std::string kind = j.value("kind", "");
    if (kind != "model" && kind != "checkpoint")
      throw std::runtime_error(
          fmt::format("unknown kind '{}' (expected 'model' or 'checkpoint')", kind));
    if (!j.contains("checksum") || !j["checksum"].is_string())
      throw std::runtime_error("no checksum");
    const std::string stored = j["checksum"].get<std::string>();
    j.erase("checksum");
    if (stored != checksum_of(j))
      throw std::runtime_error("checksum mismatch: the file is corrupted or was edited");
    require_known_keys(j,
                       {"format", "version", "kind", "config", "wiring", "logits", "task",
                        "training", "multi_start"},
                       "the file");
    require_known_keys(j.at("wiring"), {"perception", "update"}, "wiring");
    ModelFile out;
    Model& m = out.model;
    m.config = config_from_json(j.at("config"));
    build_layout(m);
    m.perception_wiring =
        wiring_from_json(j.at("wiring").at("perception"), m.config.perception_layers, "perception");
    m.update_wiring =
        wiring_from_json(j.at("wiring").at("update"), m.config.update_layers, "update");
    m.logits = floats_from_json(j.at("logits"), m.logits.size(), "logits");
    if (kind == "checkpoint") out.training = training_from_json(j.at("training"), m);
    if (kind == "model" && j.contains("training"))
      throw std::runtime_error("training: only checkpoints hold it (this file's kind is 'model')");
    // Version 2 files did not store the task: it is inferred from the experiment's name.
    if (version2) {
      if (j.contains("task")) throw std::runtime_error("task: not part of a version 2 file");
      m.task = task_inferred_from_name(m.config);
    } else {
      if (!j.contains("task")) throw std::runtime_error("task: missing");
      m.task = task_from_json(j["task"]);
      check_task_fits(m.task, m.config);
    }
    if (j.contains("multi_start")) {
      if (version2) throw std::runtime_error("multi_start: not part of a version 2 file");
      out.multi_start = multi_start_from_json(j["multi_start"], m);
      if (!out.multi_start->candidates.empty() && !out.training)
        throw std::runtime_error("multi_start.candidates: only checkpoints hold them");
    }
    return out;
  } catch (const ConfigError& e) {
    throw FileError(path + ": config: " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw FileError(path + ": malformed (" + plain_error_text(e) + ")");
  } catch (const std::exception& e) {
    throw FileError(path + ": " + e.what());
  }
}

TrainingState training_state_of(const Trainer& trainer) {
  return {trainer.epoch(),
          trainer.optimizer().steps_taken(),
          trainer.optimizer().first_moment(),
          trainer.optimizer().second_moment(),
          trainer.history(),
          trainer.undone_epoch(),
          std::nullopt,  // the backend's tile size: recorded by the run (TrainingRunOptions)
          trainer.on_device(),
          trainer.hardened_gates()};
}

void restore_training(Trainer& trainer, TrainingState state) {
  trainer.restore(state.epoch, state.optimizer_steps, std::move(state.first_moment),
                  std::move(state.second_moment), std::move(state.history),
                  std::move(state.measured), std::move(state.hardened));
}

std::string logits_checksum(const std::vector<float>& logits) {
  return crc32_text(logits.data(), logits.size() * sizeof(float));
}

Model load_model(const std::string& path) { return load_model_file(path).model; }

ModelFile load_checkpoint(const std::string& path) {
  ModelFile file = load_model_file(path);
  if (!file.training)
    throw FileError(path +
                    ": a model file without training state (kind 'model'), not a checkpoint");
  return file;
}

}  // namespace dlca
