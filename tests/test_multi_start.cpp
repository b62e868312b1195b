// Multi-start training and solved stops: start seeds, the parameters a solved stop keeps, the same
// winner at any thread count, each candidate equal to the plain run of its seed, and resuming a
// multi-start checkpoint bit-identically (also across a sharpening schedule, and with a schedule
// that starts after the checkpoint or repeats after it, and into more rounds).
#include <doctest/doctest.h>

#include <set>
#include <sstream>

#include "candidate_runs.hpp"
#include "dlca/core/config_json.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/checkerboard.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/multi_start.hpp"
#include "dlca/train/training_run.hpp"
#include "dlca/train/training_setup.hpp"
#include "scratch_dir.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

using testing::Run;

// Trains `config` (its starts and stop_when_solved) with `threads` in all, saving to `save`.
Run train(const ExperimentConfig& config, int threads, const std::string& save = "",
          ModelFile* resumed = nullptr) {
  return testing::train_candidates(config, threads, {}, save, 0, resumed);
}

double hard_loss_of(const Model& model) {
  const CheckerboardTask task(model.config);
  TaskBatch data;
  task.make_batch(0, data);
  CpuBackend backend;
  const RolloutResult r =
      backend.rollout(model, data.target, {model.config.batch, data.initial_states.data(), nullptr},
                      {.gradient = false, .hard_loss = true});
  return r.hard_loss;
}

// Trains `before` into a checkpoint at `path`, then `after` (more epochs, under a schedule that
// agrees with `before`'s on the checkpoint's epochs) straight and resumed from it: the two agree
// bit for bit, and differ from `before` trained as long (the schedule changes the training).
void check_schedule_continues(const std::string& path, ExperimentConfig before,
                              const ExperimentConfig& after) {
  train(before, 2, path);
  const Run straight = train(after, 2);
  ModelFile checkpoint = load_checkpoint(path);
  check_resume(checkpoint, path, after);
  const Run resumed = train(after, 2, "", &checkpoint);
  const Model& got = resumed.candidates[0].trainer->model();
  CHECK(got.logits == straight.candidates[0].trainer->model().logits);
  ExperimentConfig with_schedule = got.config;  // the resumed run trains under `after`'s schedule
  take_schedule(after, with_schedule);
  CHECK(config_to_json(got.config) == config_to_json(with_schedule));
  before.epochs = after.epochs;
  CHECK(train(before, 2).candidates[0].trainer->model().logits !=
        straight.candidates[0].trainer->model().logits);
}

// The small checkerboard for 10 epochs, sharpened over epochs 4-10 and with noise over 4-8.
ExperimentConfig scheduled_checkerboard() {
  ExperimentConfig c = testing::small_checkerboard();
  c.epochs = 10;
  c.sharpen_to = 0.1f;
  c.sharpen_start = 4;
  c.sharpen_end = 10;
  c.noise = 0.3f;
  c.noise_start = 4;
  c.noise_end = 8;
  return c;
}

}  // namespace

TEST_CASE("start seeds: start 0 is the run's seed, the others distinct and below 2^32") {
  std::set<uint64_t> seen;
  for (uint64_t seed : {0ull, 23ull, 0xFFFFFFFFull})
    for (int k = 0; k < 64; ++k) {
      const uint64_t s = start_seed(seed, k);
      if (k == 0) CHECK(s == seed);
      CHECK(s <= 0xFFFFFFFFull);
      CHECK(seen.insert(s).second);
    }
  CHECK(start_config(testing::small_checkerboard(), 3).starts == 1);
  CHECK(threads_per_start(2, 4) == 1);
  CHECK(threads_per_start(16, 4) == 4);
  CHECK(threads_per_start(3, 1) == 3);
}

TEST_CASE("a solved stop keeps the parameters that scored hard loss 0") {
  ExperimentConfig c = testing::small_checkerboard();
  c.stop_when_solved = 1;
  const Run run = train(c, 2);
  REQUIRE(run.summary.stopped_when_solved);
  REQUIRE(run.summary.first_zero_epoch);
  const Trainer& t = *run.candidates[0].trainer;
  // The epoch that scored 0 was taken back: the parameters are those after first_zero_epoch
  // updates, and they still score 0 (the update after a first 0 often loses it).
  CHECK(t.epoch() == *run.summary.first_zero_epoch);
  CHECK(t.optimizer().steps_taken() == t.epoch());
  CHECK(run.summary.final_hard_loss == 0);
  CHECK(hard_loss_of(t.model()) == 0);
}

TEST_CASE("multi-start: the same candidate wins at 1 and 2 threads, as the plain run of its seed") {
  ExperimentConfig c = testing::small_checkerboard();
  c.seed = 5;  // start 1 solves first (epoch 226), start 0 does not within 300 epochs
  c.starts = 3;
  c.stop_when_solved = 1;
  const Run one = train(c, 1), two = train(c, 2);
  REQUIRE(one.summary.stopped_when_solved);
  CHECK(one.summary.chosen_start != 0);
  CHECK(one.summary.chosen_start == two.summary.chosen_start);
  CHECK(one.summary.epochs == two.summary.epochs);
  CHECK(one.summary.logits_checksum == two.summary.logits_checksum);
  for (size_t k = 0; k < 3; ++k)
    CHECK(one.candidates[k].trainer->model().logits == two.candidates[k].trainer->model().logits);
  MESSAGE("start " << one.summary.chosen_start << " solved at epoch " << one.summary.epochs);
  // The winner is exactly the plain run of its start's seed.
  ExperimentConfig alone = start_config(c, one.summary.chosen_start);
  const Run plain = train(alone, 2);
  CHECK(plain.summary.logits_checksum == one.summary.logits_checksum);
  CHECK(plain.summary.epochs == one.summary.epochs);
  CHECK(one.summary.start_seed == alone.seed);
  CHECK(hard_loss_of(one.candidates[size_t(one.summary.chosen_start)].trainer->model()) == 0);
}

TEST_CASE("multi-start: a checkpoint resumes bit-identically, every candidate") {
  testing::ScratchDir dir;
  ExperimentConfig c = testing::small_checkerboard();
  c.starts = 3;
  c.epochs = 24;
  // A sharpening schedule that runs across the checkpoint's epoch.
  c.sharpen_to = 0.2f;
  c.sharpen_start = 6;
  c.sharpen_end = 18;
  c.noise = 0.3f;  // and logit noise from epoch 8
  c.noise_start = 8;
  const Run straight = train(c, 2, dir / "straight.json");
  ExperimentConfig half = c;
  half.epochs = 11;
  train(half, 2, dir / "half.json");
  ModelFile checkpoint = load_checkpoint(dir / "half.json");
  REQUIRE(checkpoint.multi_start);
  CHECK(checkpoint.multi_start->candidates.size() == 3);
  CHECK(checkpoint.multi_start->run_config(checkpoint.model.config).seed == c.seed);
  const Run resumed = train(c, 1, dir / "resumed.json", &checkpoint);
  for (size_t k = 0; k < 3; ++k) {
    CAPTURE(k);
    const Trainer &a = *straight.candidates[k].trainer, &b = *resumed.candidates[k].trainer;
    CHECK(a.model().logits == b.model().logits);
    CHECK(a.optimizer().first_moment() == b.optimizer().first_moment());
    CHECK(a.history().size() == b.history().size());
    CHECK(a.history().back().soft_loss == b.history().back().soft_loss);
  }
  CHECK(straight.summary.chosen_start == resumed.summary.chosen_start);
  // The files agree too (apart from wall times in the histories).
  const ModelFile x = load_checkpoint(dir / "straight.json"),
                  y = load_checkpoint(dir / "resumed.json");
  CHECK(x.model.logits == y.model.logits);
  CHECK(x.multi_start->chosen == y.multi_start->chosen);
  CHECK(x.multi_start->candidates[2].logits == y.multi_start->candidates[2].logits);
}

TEST_CASE("a solved multi-start file keeps only its chosen candidate, which resumes alone") {
  testing::ScratchDir dir;
  ExperimentConfig c = testing::small_checkerboard();
  c.starts = 2;
  c.stop_when_solved = 1;
  const Run run = train(c, 2, dir / "solved.json");
  REQUIRE(run.summary.stopped_when_solved);
  ModelFile file = load_checkpoint(dir / "solved.json");
  REQUIRE(file.multi_start);
  CHECK(file.multi_start->candidates.empty());
  CHECK(file.multi_start->solved_epoch == run.summary.epochs);
  CHECK(file.model.config.seed == run.summary.start_seed);
  CHECK(hard_loss_of(file.model) == 0);
  // The whole run cannot continue from it; its candidate can, and is solved at once.
  ModelFile again = load_checkpoint(dir / "solved.json");
  CHECK_THROWS_WITH_AS(train(c, 2, "", &again), doctest::Contains("keeps only that candidate"),
                       std::runtime_error);
  ExperimentConfig alone = start_config(c, run.summary.chosen_start);
  const Run continued = train(alone, 2, "", &file);
  CHECK(continued.summary.stopped_when_solved);
  CHECK(continued.summary.epochs == run.summary.epochs);
  CHECK(continued.summary.logits_checksum == run.summary.logits_checksum);
}

TEST_CASE("a multi-start record that does not fit its model is refused") {
  testing::ScratchDir dir;
  ExperimentConfig c = testing::small_checkerboard();
  c.starts = 2;
  c.epochs = 3;
  train(c, 2, dir / "m.json");
  nlohmann::json j = nlohmann::json::parse(read_file(dir / "m.json"));
  j.erase("checksum");
  for (const auto& [key, value, reason] :
       {std::tuple{"chosen", nlohmann::json(2), "multi_start.chosen"},
        std::tuple{"run_seed", nlohmann::json(24), "not the chosen candidate"},
        std::tuple{"starts", nlohmann::json(1), "multi_start.starts"},
        std::tuple{"solved_epoch", nlohmann::json(1), "a solved run keeps only its chosen"}}) {
    CAPTURE(key);
    nlohmann::json bad = j;
    bad["multi_start"][key] = value;
    write_file_atomically(dir / "bad.json", seal_model_file(bad));
    CHECK_THROWS_WITH_AS(load_model_file(dir / "bad.json"), doctest::Contains(reason), FileError);
  }
  nlohmann::json bad = j;
  bad["multi_start"]["candidates"].erase(1);
  write_file_atomically(dir / "bad.json", seal_model_file(bad));
  CHECK_THROWS_WITH_AS(load_model_file(dir / "bad.json"), doctest::Contains("every start or none"),
                       FileError);
}

TEST_CASE("multi-start repair: the record is the best candidate's, not the last one tried") {
  ExperimentConfig c = testing::small_checkerboard();
  c.starts = 3;
  c.epochs = 10;  // far from solved: every candidate's repair is tried, none applied
  c.repair = true;
  const Run run = train(c, 2);
  REQUIRE(run.summary.final_hard_loss > 0);
  REQUIRE(run.summary.repair.at("applied") == false);
  // Candidates are tried from the lowest last hard loss up (the first of equals first).
  size_t best = 0;
  for (size_t k = 1; k < 3; ++k)
    if (run.candidates[k].trainer->history().back().hard_loss <
        run.candidates[best].trainer->history().back().hard_loss)
      best = k;
  CHECK(run.summary.repair.at("start") == best);
}

TEST_CASE("a repeated schedule: a checkpoint of the first round continues into the next") {
  testing::ScratchDir dir;
  const ExperimentConfig once = scheduled_checkerboard();
  ExperimentConfig repeated = once;
  repeated.epochs = 22;
  repeated.repeat_schedule = 6;  // rounds at epochs 4, 10 and 16
  check_schedule_continues(dir / "once.json", once, repeated);
  // A period that would have changed epochs the checkpoint already trained is refused.
  repeated.repeat_schedule = 4;  // epoch 8 would have been read as epoch 4
  ModelFile again = load_checkpoint(dir / "once.json");
  CHECK_THROWS_WITH(check_resume(again, "once.json", repeated),
                    doctest::Contains("the checkpoint's repeat_schedule is 0 but this run's is 4"));
}

TEST_CASE("more rounds: an unsolved run trains them as the repeated schedule given by hand") {
  testing::ScratchDir dir;
  ExperimentConfig rounds = scheduled_checkerboard();
  rounds.stop_when_solved = 1;
  rounds.repair = true;  // tried at epoch 10, before the rounds: it changes nothing that fails
  rounds.rounds = 2;     // rounds of 6 epochs (from 4 to 10) at epochs 10 and 16
  REQUIRE(last_epoch(rounds) == 22);
  ExperimentConfig by_hand = rounds;
  by_hand.rounds = 0;
  by_hand.epochs = 22;
  by_hand.repeat_schedule = 6;
  const Run straight = train(rounds, 2), hand = train(by_hand, 2);
  REQUIRE(straight.summary.final_hard_loss > 0);  // unsolved: it trained all its rounds
  CHECK(straight.summary.epochs == 22);
  CHECK(straight.summary.repair.at("hard_loss_after") > 0);  // (the last repair's record)
  CHECK(straight.candidates[0].trainer->model().logits ==
        hand.candidates[0].trainer->model().logits);
  // A checkpoint of the first round continues into the rounds bit for bit.
  ExperimentConfig once = rounds;
  once.rounds = 0;
  check_schedule_continues(dir / "once.json", once, rounds);
  // One in the second round is past where a run without rounds ends.
  ExperimentConfig to_16 = rounds;
  to_16.rounds = 1;
  train(to_16, 2, dir / "16.json");
  ModelFile at_16 = load_checkpoint(dir / "16.json");
  CHECK_THROWS_WITH(check_resume(at_16, "16.json", once),
                    doctest::Contains("at epoch 16, past epoch 10, where this run ends"));
  CHECK_NOTHROW(check_resume(at_16, "16.json", rounds));
}

TEST_CASE("sharpening: a plain checkpoint continues under a schedule that starts after it") {
  testing::ScratchDir dir;
  ExperimentConfig plain = testing::small_checkerboard();
  plain.epochs = 10;
  ExperimentConfig sharpened = plain;
  sharpened.epochs = 20;
  sharpened.sharpen_to = 0.1f;
  sharpened.sharpen_start = 10;
  sharpened.sharpen_end = 16;
  check_schedule_continues(dir / "plain.json", plain, sharpened);
  // A schedule that would have changed epochs the checkpoint already trained is refused, naming
  // the differing keys.
  sharpened.sharpen_start = 8;  // epoch 9 would have been sharpened
  ModelFile again = load_checkpoint(dir / "plain.json");
  CHECK_THROWS_WITH(check_resume(again, "plain.json", sharpened),
                    doctest::Contains("the checkpoint's sharpen_start is 0 but this run's is 8"));
}

TEST_CASE("grow and stay: a checkpoint continues with a longer window from the same step") {
  testing::ScratchDir dir;
  ExperimentConfig grown = testing::small_checkerboard();  // the loss on the state after step 10
  grown.epochs = 4;
  train(grown, 2, dir / "grown.json");
  ExperimentConfig stay = grown;  // the loss over the states after steps 10 to 14
  stay.steps = 14;
  stay.loss_steps = 5;
  stay.epochs = 8;
  CHECK(stays_longer(grown, stay));
  ModelFile checkpoint = load_checkpoint(dir / "grown.json");
  CHECK_NOTHROW(check_resume(checkpoint, "grown.json", stay));
  // It trains with the longer window from the checkpoint's parameters and moments, and a
  // checkpoint of it continues bit for bit.
  const Run resumed = train(stay, 2, "", &checkpoint);
  const Trainer& whole = *resumed.candidates[0].trainer;
  CHECK(whole.model().config.steps == 14);
  CHECK(whole.model().config.loss_steps == 5);
  CHECK(whole.epoch() == 8);
  CHECK(whole.window_start() == 4);   // the epochs before scored the shorter window
  ExperimentConfig grown_on = grown;  // the same epochs on the shorter window train otherwise
  grown_on.epochs = 8;
  CHECK(train(grown_on, 2).candidates[0].trainer->model().logits != whole.model().logits);
  ExperimentConfig half = stay;
  half.epochs = 6;
  ModelFile again = load_checkpoint(dir / "grown.json");
  train(half, 2, dir / "half.json", &again);
  ModelFile halfway = load_checkpoint(dir / "half.json");
  CHECK(halfway.model.config.steps == 14);
  check_resume(halfway, "half.json", stay);
  CHECK(train(stay, 2, "", &halfway).candidates[0].trainer->model().logits == whole.model().logits);
  // The window is the checkpoint's own loss at another step, or a shorter one: refused.
  ExperimentConfig later = stay;
  later.loss_steps = 1;  // the state after step 14 alone
  CHECK_FALSE(stays_longer(grown, later));
  ModelFile third = load_checkpoint(dir / "grown.json");
  CHECK_THROWS_WITH(check_resume(third, "grown.json", later),
                    doctest::Contains("the checkpoint's steps is 10 but this run's is 14"));
  // With no epochs left it would only relabel the model; a halving run's candidates were scored
  // on the shorter window.
  ExperimentConfig no_more = stay;
  no_more.epochs = 4;
  CHECK_THROWS_WITH(check_resume(third, "grown.json", no_more),
                    doctest::Contains("a longer --loss-steps window needs epochs to train on"));
  ExperimentConfig halving = grown;
  halving.starts = 2;
  halving.halving = true;
  halving.budget_epochs = 20;
  train(halving, 2, dir / "halving.json", nullptr);
  ExperimentConfig halving_stay = halving;
  halving_stay.steps = 14;
  halving_stay.loss_steps = 5;
  halving_stay.epochs = 8;
  ModelFile halved = load_checkpoint(dir / "halving.json");
  CHECK_THROWS_WITH(check_resume(halved, "halving.json", halving_stay),
                    doctest::Contains("cannot go on with a longer --loss-steps window"));
  CHECK_FALSE(stays_longer(stay, grown));
  grown.epochs = 8;
  CHECK_THROWS_WITH(check_resume(halfway, "half.json", grown),
                    doctest::Contains("the checkpoint's steps is 14 but this run's is 10"));
}
