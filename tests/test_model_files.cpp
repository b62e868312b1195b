// Model files: exact round trips of models and checkpoints; resuming a checkpoint gives the same
// losses and parameters as the uninterrupted run; every kind of damaged file is refused with a
// FileError naming it; and a mutation loop over a corpus never gets anything else out of the
// loader.
#include <doctest/doctest.h>

#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/trainer.hpp"
#include "dlca/train/training_setup.hpp"
#include "scratch_dir.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

ExperimentConfig small_async_jax() {
  ExperimentConfig c = testing::small_checkerboard();
  c.async = true;
  c.random_streams = RandomStreams::kJax;
  c.steps = 4;
  return c;
}

// `epochs` epochs from scratch, or from a checkpoint file when `resume` is given.
Trainer& train(Trainer& trainer, int64_t epochs) {
  while (trainer.epoch() < epochs) trainer.run_epoch();
  return trainer;
}

std::string refusal(const std::string& path) {
  try {
    load_checkpoint(path);
  } catch (const FileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("model files and checkpoints round-trip exactly") {
  testing::ScratchDir dir;
  const std::string path = dir / "dlca_test_model.json";
  ExperimentConfig config = testing::small_config(2, 2, 2, 4, 4, 2, 1, false, false);
  config.loss_channels = {0};  // the checkerboard's one target plane
  Model m = make_model(config);
  testing::randomize_logits(m, 3);
  CHECK_THROWS_WITH(save_model_file(path, m), doctest::Contains("task"));  // unknown: not saved
  m.task = TrainedTask(TaskKind::kCheckerboard);
  save_model_file(path, m);
  const ModelFile plain = load_model_file(path);
  CHECK_FALSE(plain.training.has_value());
  CHECK(plain.model.logits == m.logits);
  CHECK(plain.model.update_wiring[1].a == m.update_wiring[1].a);
  CHECK(plain.model.perception_wiring[0].b == m.perception_wiring[0].b);
  CHECK(refusal(path).find("not a checkpoint") != std::string::npos);

  CheckerboardTask task(m.config);
  CpuBackend cpu;
  Trainer trainer(m, task, cpu);
  train(trainer, 3);
  const TrainingState state = training_state_of(trainer);
  save_model_file(path, trainer.model(), &state);
  const ModelFile back = load_checkpoint(path);
  CHECK(back.model.logits == trainer.model().logits);
  CHECK(back.training->epoch == 3);
  CHECK(back.training->first_moment == trainer.optimizer().first_moment());
  CHECK(back.training->second_moment == trainer.optimizer().second_moment());
  REQUIRE(back.training->history.size() == 3);
  CHECK(back.training->history[2].soft_loss == trainer.history()[2].soft_loss);
  CHECK_FALSE(back.training->measured.has_value());

  // A run that took its last epoch back (stopped when solved) keeps that epoch's measurement of
  // the parameters it ends with: the history a loaded checkpoint reports ends with it.
  trainer.keep_undo_state(true);
  train(trainer, 5);
  trainer.undo_last_epoch();
  const TrainingState undone = training_state_of(trainer);
  save_model_file(path, trainer.model(), &undone);
  const ModelFile kept = load_checkpoint(path);
  CHECK(kept.training->epoch == 4);
  REQUIRE(kept.training->measured.has_value());
  CHECK(kept.training->measured->epoch == 4);
  CHECK(kept.training->measured->hard_loss == trainer.undone_epoch()->hard_loss);
  CHECK(kept.training->measured->soft_loss == trainer.undone_epoch()->soft_loss);
  Trainer restored(kept.model, task, cpu);
  restore_training(restored, *kept.training);
  REQUIRE(measured_epochs(restored).size() == 5);
  CHECK(measured_epochs(restored).back().soft_loss == trainer.undone_epoch()->soft_loss);
}

TEST_CASE("resuming a checkpoint is bit-identical to the uninterrupted run") {
  testing::ScratchDir dir;
  const std::string path = dir / "dlca_test_checkpoint.json";
  ExperimentConfig input_wise = small_async_jax();
  input_wise.gates = GateKind::kInputWise;
  ExperimentConfig hardening = testing::small_checkerboard();  // stages at epochs 5, 10 and 15
  hardening.harden = 3;
  hardening.harden_start = 5;
  hardening.harden_end = 20;
  ExperimentConfig fed = testing::small_checkerboard();  // hard-error feedback, sharpened from 5
  fed.sharpen_to = 0.2f;
  fed.sharpen_start = 5;
  fed.sharpen_end = 15;
  fed.hard_feedback = 0.5f;
  for (const ExperimentConfig& cfg :
       {testing::small_checkerboard(), small_async_jax(), input_wise, hardening, fed}) {
    CAPTURE(cfg.async);
    CAPTURE(gate_kind_name(cfg.gates));
    CheckerboardTask task(cfg);
    CpuBackend cpu({.threads = 2});
    Trainer whole(make_model(cfg), task, cpu);
    train(whole, 25);

    Trainer first(make_model(cfg), task, cpu);
    train(first, 9);
    const TrainingState state = training_state_of(first);
    save_model_file(path, first.model(), &state);
    ModelFile file = load_checkpoint(path);
    CHECK(file.model.config.gates == cfg.gates);
    CHECK(file.model.logits.size() ==
          size_t(file.model.num_gates()) * size_t(parameters_per_gate(cfg.gates)));
    Trainer resumed(std::move(file.model), task, cpu);
    restore_training(resumed, std::move(*file.training));
    CHECK(resumed.hardened_gates() == first.hardened_gates());  // not re-derived: restored
    train(resumed, 25);

    REQUIRE(resumed.history().size() == whole.history().size());
    for (size_t e = 0; e < whole.history().size(); ++e) {
      CHECK(resumed.history()[e].soft_loss == whole.history()[e].soft_loss);
      CHECK(resumed.history()[e].hard_loss == whole.history()[e].hard_loss);
    }
    CHECK(resumed.model().logits == whole.model().logits);
    CHECK(resumed.optimizer().first_moment() == whole.optimizer().first_moment());
    CHECK(resumed.optimizer().second_moment() == whole.optimizer().second_moment());
    CHECK(resumed.hardened_gates() == whole.hardened_gates());
  }
}

TEST_CASE("damaged model files are refused by name and reason") {
  testing::ScratchDir dir;
  const std::string path = dir / "dlca_test_damaged.json";
  const Model m = make_model(testing::small_config(1, 2, 2, 4, 4, 1, 1, true, false));
  CheckerboardTask task(m.config);
  CpuBackend cpu;
  Trainer trainer(m, task, cpu);
  train(trainer, 2);
  const TrainingState state = training_state_of(trainer);
  const std::string good = model_file_text(trainer.model(), &state);
  const auto refused_with = [&](const std::string& contents) {
    write_file_atomically(path, contents);
    const std::string why = refusal(path);
    CHECK(why.rfind(path + ": ", 0) == 0);  // names the file first
    CHECK(why.find('\n') == std::string::npos);
    return why;
  };
  write_file_atomically(path, good);
  CHECK(refusal(path).empty());

  for (size_t cut : {size_t(0), size_t(1), size_t(20), good.size() / 3, good.size() / 2,
                     good.size() - 40, good.size() - 3})
    CHECK(!refused_with(good.substr(0, cut)).empty());
  CHECK(refused_with("").find("empty file") != std::string::npos);
  CHECK(refused_with("{\"epoch_note\": 1, \"epoch_note\": 2, " + good.substr(1))
            .find("the key \"epoch_note\" is given twice") != std::string::npos);
  for (size_t at = 10; at < good.size(); at += good.size() / 97) {
    std::string flipped = good;
    flipped[at] = char(flipped[at] ^ 0x04);
    CAPTURE(at);
    // A flip in the 17th digit of a number can give text for the same double: not damage.
    if (nlohmann::json::accept(flipped) &&
        nlohmann::json::parse(flipped) == nlohmann::json::parse(good))
      continue;
    CHECK(!refused_with(flipped).empty());
  }
  const auto edited = [&](const std::string& from, const std::string& to) {
    const size_t at = good.find(from);
    REQUIRE(at != std::string::npos);
    return good.substr(0, at) + to + good.substr(at + from.size());
  };
  CHECK(refused_with(edited("\"format\":\"dlca-model\"", "\"format\":\"dlca-params\""))
            .find("not a dlca model file") != std::string::npos);
  CHECK(refused_with(edited("\"version\":3", "\"version\":1")).find("unsupported version 1") !=
        std::string::npos);
  CHECK(refused_with(edited("\"kind\":\"checkpoint\"", "\"kind\":\"circuit\""))
            .find("unknown kind") != std::string::npos);
  CHECK(refused_with(edited("\"logits\":[", "\"logits\":[1,")).find("checksum mismatch") !=
        std::string::npos);
  CHECK(refused_with(R"({"devices": {}, "connectors": []})").find("not a dlca model file") !=
        std::string::npos);
  // Content errors behind a correct checksum are found by the field checks.
  nlohmann::json j = nlohmann::json::parse(good);
  j.erase("checksum");
  const auto resealed = [&](auto&& change) {
    nlohmann::json copy = j;
    change(copy);
    return refused_with(seal_model_file(copy));
  };
  CHECK(resealed([](auto& c) { c["logits"].erase(0); }).find("logits: expected") !=
        std::string::npos);
  CHECK(resealed([](auto& c) {
          c["wiring"]["update"][0]["a"][0] = 100000;
        }).find("input index 100000 is outside 0..") != std::string::npos);
  CHECK(resealed([](auto& c) { c["config"]["channels"] = -1; }).find("channels") !=
        std::string::npos);
  CHECK(resealed([](auto& c) { c["training"]["epoch"] = 7; }).find("optimizer steps") !=
        std::string::npos);
  CHECK(resealed([](auto& c) { c.erase("training"); }).find("training") != std::string::npos);
  // Keys dlca never writes are refused, not ignored, at every level.
  CHECK(resealed([](auto& c) { c["aaa"] = 1; }).find("the file: unknown key \"aaa\"") !=
        std::string::npos);
  CHECK(resealed([](auto& c) { c["training"]["aaa"] = 1; }).find("training: unknown key \"aaa\"") !=
        std::string::npos);
  CHECK(resealed([](auto& c) {
          c["training"]["history"]["aaa"] = 1;
        }).find("training.history: unknown key \"aaa\"") != std::string::npos);
  CHECK(resealed([](auto& c) {
          c["wiring"]["update"][0]["c"] = nlohmann::json::array();
        }).find("wiring.update[0]: unknown key \"c\"") != std::string::npos);
  // Losses and times cannot be negative; a model (not a checkpoint) holds no training state.
  CHECK(resealed([](auto& c) {
          c["training"]["history"]["hard_loss"][0] = -3;
        }).find("training.history.hard_loss: negative value") != std::string::npos);
  CHECK(resealed([](auto& c) {
          c["training"]["history"]["ms"][1] = -1;
        }).find("training.history.ms: negative value") != std::string::npos);
  CHECK(resealed([](auto& c) { c["kind"] = "model"; }).find("training: only checkpoints hold it") !=
        std::string::npos);
  // A number of the wrong kind is named as such, not as an unsupported value or a bad index.
  CHECK(resealed([](auto& c) {
          c["version"] = 3.0;
        }).find("version: must be an integer, got 3.0") != std::string::npos);
  CHECK(resealed([](auto& c) {
          c["wiring"]["update"][0]["a"][0] = 1.0;
        }).find("wiring.update[0].a: input indices must be integers, got 1.0") !=
        std::string::npos);
  // Nothing after the JSON, not even a NUL byte (which ended the text for the parser).
  CHECK(refused_with(good + std::string(1, '\0')).find("a NUL byte at offset") !=
        std::string::npos);
  CHECK(refusal("no/such/model.json").find("no/such/model.json") != std::string::npos);
}

TEST_CASE("fuzzing the model loader: mutants load exactly or are refused") {
  testing::ScratchDir dir;
  const std::string path = dir / "dlca_test_fuzz.json";
  Model m = make_model(testing::small_config(1, 2, 2, 4, 4, 1, 1, true, false));
  testing::randomize_logits(m, 9);
  m.task = TrainedTask(TaskKind::kImage);  // a task with every field, so the mutants reach them
  m.task.seed_cell = true;
  m.task.planes = 1;
  m.task.height = m.task.width = 4;
  m.task.target = {1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1};
  m.task.source = "test";
  TrainingState state;
  state.first_moment.assign(m.logits.size(), 0.5f);
  state.second_moment.assign(m.logits.size(), 0.25f);
  const std::vector<std::string> corpus = {model_file_text(m, nullptr), model_file_text(m, &state)};
  Rng rng(2026);
  int loaded = 0, refused = 0;
  for (int i = 0; i < 400; ++i) {
    std::string text = corpus[rng.next() % corpus.size()];
    if (i % 2) {  // raw bytes: flips, deletions, insertions, truncation, duplication
      for (int k = 1 + int(rng.next() % 4); k > 0; --k) {
        const size_t at = rng.next() % text.size();
        switch (rng.next() % 5) {
          case 0:
            text[at] = char(rng.next());
            break;
          case 1:
            text.erase(at, 1 + rng.next() % 16);
            break;
          case 2:
            text.insert(at, 1, "{}[],:\"-0e9"[rng.next() % 11]);
            break;
          case 3:
            text.resize(at);
            break;
          default: {
            const std::string piece = text.substr(rng.next() % text.size(), 32);
            text.insert(at, piece);
            break;
          }
        }
        if (text.empty()) text.assign(1, '{');
      }
    } else {  // structured: a value replaced, then resealed so that the field checks see it
      nlohmann::json j = nlohmann::json::parse(text);
      j.erase("checksum");
      const std::vector<nlohmann::json> values = {-1,
                                                  0,
                                                  4294967296LL,
                                                  1e300,
                                                  "x",
                                                  nullptr,
                                                  nlohmann::json::array(),
                                                  nlohmann::json::object(),
                                                  true,
                                                  2.5};
      const auto& value = values[rng.next() % values.size()];
      std::vector<nlohmann::json::json_pointer> leaves;
      const nlohmann::json flat = j.flatten();
      for (const auto& [key, v] : flat.items()) leaves.emplace_back(key);
      j[leaves[rng.next() % leaves.size()]] = value;
      text = seal_model_file(j);
    }
    write_file_atomically(path, text);
    try {
      const ModelFile f = load_model_file(path);
      CHECK(f.model.logits.size() == size_t(f.model.num_gates()) * kNumOps);
      ++loaded;
    } catch (const FileError& e) {
      CHECK(std::string(e.what()).rfind(path + ": ", 0) == 0);
      ++refused;
    }
  }
  MESSAGE(loaded << " mutants loaded, " << refused << " refused");
  CHECK(refused > 300);
}
