// The candidate pool of a run (candidate_pool.hpp): successive halving's rungs and judgement, a
// halving run (--starts auto) that adds starts until its budget is spent, the same at any thread
// count and after a resume from its checkpoint, and a multi-start run that drops a diverged
// candidate while the others go on unchanged.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>

#include "candidate_runs.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/candidate_pool.hpp"
#include "dlca/train/model_file.hpp"
#include "scratch_dir.hpp"
#include "test_helpers.hpp"

using namespace dlca;

using testing::Run;
using testing::train_candidates;

TEST_CASE("halving: rungs at a quarter and half, the better half continues") {
  CHECK(halving_rungs(500) == std::vector<int64_t>{125, 250});
  CHECK(halving_rungs(79) == std::vector<int64_t>{39});  // 19 is before kMinRungEpoch
  CHECK(halving_rungs(80) == std::vector<int64_t>{20, 40});
  CHECK(halving_rungs(39).empty());
  std::vector<double> at_rung;
  const std::vector<double> first = {4, 1, 3, 2};
  CHECK(judge_at_rung(at_rung, first) == std::vector<bool>{false, true, false, true});
  CHECK(at_rung.size() == 4);
  // A later arrival is judged against every score at the rung: 2 of 5 below 2.5 (keeps 3).
  const std::vector<double> later = {2.5};
  CHECK(judge_at_rung(at_rung, later) == std::vector<bool>{true});
  const std::vector<double> lagging = {3.5};  // 4 of 6 below it (keeps 3)
  CHECK(judge_at_rung(at_rung, lagging) == std::vector<bool>{false});
  std::vector<EpochStats> history(20);
  for (size_t i = 0; i < history.size(); ++i) history[i].soft_loss = double(i);
  CHECK(rung_score(history) == doctest::Approx(18.5));  // the last tenth: epochs 18 and 19
  CHECK(rung_score(std::span(history).first(3)) == 2);
}

TEST_CASE("halving run: new starts until the budget is spent, the same at 1 and 2 threads") {
  ExperimentConfig c = testing::small_checkerboard();
  c.epochs = 80;  // rungs at 20 and 40
  c.starts = 2;
  c.halving = true;
  c.budget_epochs = 300;
  c.stop_when_solved = 1;
  c.repair = false;
  const Run one = train_candidates(c, 1), two = train_candidates(c, 2);
  const nlohmann::json& record = one.summary.candidates;
  INFO(record.dump());
  CHECK(record == two.summary.candidates);
  CHECK(one.summary.chosen_start == two.summary.chosen_start);
  CHECK(one.summary.logits_checksum == two.summary.logits_checksum);
  CHECK(record.at("halving") == true);
  CHECK(record.at("budget_epochs") == 300);
  // Unsolved in 80 epochs: the budget is spent, by at most a round (2 epochs) more.
  REQUIRE(!one.summary.stopped_when_solved);
  CHECK(record.at("budget_spent") == true);
  CHECK(record.at("epochs_used") >= 300);
  CHECK(record.at("epochs_used") <= 301);
  // Two at a time from 2 starts: the others were added as starts were halted or finished.
  CHECK(record.at("tried").get<int>() > 3);
  CHECK(record.at("tried") == one.summary.starts);
  CHECK(!record.at("halted").empty());
  // Halted starts are released; the kept one is not.
  for (const auto& k : record.at("halted")) CHECK(!one.candidates[k.get<size_t>()].trainer);
  REQUIRE(one.candidates[size_t(one.summary.chosen_start)].trainer);
  CHECK(!one.summary.interrupted);
  // The kept candidate is the plain run of its start's seed, as far as it went.
  const Trainer& kept = *one.candidates[size_t(one.summary.chosen_start)].trainer;
  ExperimentConfig alone = start_config(c, one.summary.chosen_start);
  alone.epochs = int(kept.epoch());
  const Run plain = train_candidates(alone, 2);
  CHECK(plain.summary.logits_checksum == one.summary.logits_checksum);
}

TEST_CASE("multi-start: a diverged candidate is dropped, the others train on unchanged") {
  ExperimentConfig c = testing::small_checkerboard();
  c.epochs = 12;
  c.starts = 3;
  c.stop_when_solved = 0;
  c.repair = false;
  const Run run = train_candidates(c, 2, {0, 5});  // start 1 diverges at its 6th epoch
  const nlohmann::json& diverged = run.summary.candidates.at("diverged");
  REQUIRE(diverged.size() == 1);
  CHECK(diverged[0].at("start") == 1);
  CHECK(diverged[0].at("epoch") == 5);  // its index, from 0
  CHECK(run.summary.chosen_start != 1);
  CHECK(run.summary.epochs == 12);
  CHECK(!run.summary.interrupted);
  CHECK(run.candidates[1].trainer->epoch() == 5);  // its parameters: those before the NaN
  // Start 0 and 2 as their plain runs.
  for (const int k : {0, 2}) {
    const Run plain = train_candidates(start_config(c, k), 2);
    CHECK(plain.candidates[0].trainer->model().logits ==
          run.candidates[size_t(k)].trainer->model().logits);
  }
  // Every candidate diverged: the run fails with the divergence.
  CHECK_THROWS_AS(train_candidates(c, 2, {3, 4, 5}), TrainingDiverged);
  ExperimentConfig one = c;
  one.starts = 1;
  CHECK_THROWS_WITH_AS(train_candidates(one, 2, {2}), doctest::Contains("epoch 2: soft loss"),
                       TrainingDiverged);
}

TEST_CASE("halving run: a checkpoint taken mid-run resumes to the same end, bit for bit") {
  testing::ScratchDir dir;
  ExperimentConfig c = testing::small_checkerboard();
  c.epochs = 80;
  c.starts = 2;
  c.halving = true;
  c.budget_epochs = 300;
  c.stop_when_solved = 1;
  c.repair = false;
  const Run straight = train_candidates(c, 2);
  // Stopped after 47 rounds (past the rungs, with starts halted and added), then resumed.
  const Run cut = train_candidates(c, 2, {}, dir / "cut.json", 47);
  REQUIRE(cut.summary.interrupted);
  REQUIRE(!cut.summary.candidates.at("halted").empty());
  ModelFile file = load_checkpoint(dir / "cut.json");
  REQUIRE(file.multi_start);
  REQUIRE(file.multi_start->halving);
  CHECK(file.multi_start->starts == cut.summary.starts);
  // A damaged halving block is refused by name (the file's checksum recomputed).
  const auto damaged = [&](const std::function<void(MultiStartRecord&)>& damage) {
    ModelFile copy = load_checkpoint(dir / "cut.json");
    damage(*copy.multi_start);
    write_file_atomically(dir / "damaged.json",
                          model_file_text(copy.model, &*copy.training, &*copy.multi_start));
    return dir / "damaged.json";
  };
  CHECK_THROWS_WITH(
      load_checkpoint(damaged([](MultiStartRecord& r) { r.halving->fates[0] = "resting"; })),
      doctest::Contains("multi_start.halving.fates[0]: not a fate"));
  CHECK_THROWS_WITH(
      load_checkpoint(damaged([](MultiStartRecord& r) { r.halving->fates.pop_back(); })),
      doctest::Contains("one entry per start"));
  CHECK_THROWS_WITH(load_checkpoint(damaged(
                        [](MultiStartRecord& r) { std::swap(r.candidates[0], r.candidates[1]); })),
                    doctest::Contains("not a held start, in order"));
  CHECK_THROWS_WITH(load_checkpoint(damaged([](MultiStartRecord& r) {
                      const auto halted =
                          std::find(r.halving->fates.begin(), r.halving->fates.end(), "halted");
                      REQUIRE(halted != r.halving->fates.end());
                      *halted = "training";
                    })),
                    doctest::Contains("but the start is not among the candidates"));
  CHECK_THROWS_WITH(
      load_checkpoint(damaged([](MultiStartRecord& r) { r.halving->diverged_epochs[0] = 3; })),
      doctest::Contains("above 0 exactly for a start that diverged"));
  CHECK_THROWS_WITH(load_checkpoint(damaged(
                        [](MultiStartRecord& r) { r.halving->epochs_used = int64_t(1) << 62; })),
                    doctest::Contains("multi_start.halving.epochs_used: above"));
  const Run resumed = train_candidates(c, 1, {}, "", 0, &file);
  CHECK(resumed.summary.candidates == straight.summary.candidates);
  CHECK(resumed.summary.chosen_start == straight.summary.chosen_start);
  CHECK(resumed.summary.logits_checksum == straight.summary.logits_checksum);
  CHECK(resumed.summary.epochs == straight.summary.epochs);
  // A run whose budget is spent, resumed under the same budget, trains nothing more.
  const Run full = train_candidates(c, 2, {}, dir / "full.json");
  ModelFile spent = load_checkpoint(dir / "full.json");
  const Run again = train_candidates(c, 2, {}, "", 0, &spent);
  CHECK(again.summary.candidates == full.summary.candidates);
  CHECK(again.summary.logits_checksum == full.summary.logits_checksum);
}
