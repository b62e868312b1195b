// The sweep's grid, run names and summary table (dlca/train/sweep.hpp), without training: rows are
// recorded by hand so that solved runs, medians and worst epochs are checked exactly.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <tuple>

#include "dlca/core/config.hpp"
#include "dlca/core/model.hpp"
#include "dlca/core/wilson_interval.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/experiment_file.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/sweep.hpp"
#include "png_writer.hpp"
#include "scratch_dir.hpp"

namespace {

dlca::ExperimentFile tiny_experiment() {
  dlca::ExperimentFile file;
  file.config = dlca::checkerboard_sync_config();
  return file;
}

}  // namespace

TEST_CASE("sweep: grid order, run names and the summary of solved runs") {
  dlca::SweepSpec spec;
  spec.seeds = dlca::parse_seeds("3,1-2");
  spec.settings = {dlca::parse_setting("lr=0.03,0.05"), dlca::parse_setting("steps=[2],3")};
  REQUIRE_THROWS_AS(dlca::Sweep(spec, tiny_experiment(), "x"), dlca::ConfigError);  // [2]: a list
  spec.settings[1] = dlca::parse_setting("steps=2,3");
  dlca::testing::ScratchDir dir;
  dlca::Sweep sweep(spec, tiny_experiment(), dir / "s");
  REQUIRE(sweep.runs().size() == 12);
  CHECK(sweep.runs()[0].id == "lr=0.03_steps=2_seed1");
  CHECK(sweep.runs()[3].options == "lr=0.03;steps=3");
  CHECK(sweep.runs()[11].config.learning_rate == doctest::Approx(0.05));
  CHECK(sweep.runs()[11].config.steps == 3);
  CHECK(sweep.runs()[11].config.seed == 3);
  sweep.open();
  const auto row = [&](size_t run, std::optional<int64_t> epoch, double wall,
                       double final_hard_loss = 0, std::optional<double> kept = std::nullopt) {
    dlca::SweepRow r;
    r.seed = sweep.runs()[run].seed;
    r.options = sweep.runs()[run].options;
    r.first_zero_epoch = epoch;
    r.epochs = sweep.runs()[run].config.epochs;
    r.wall_seconds = wall;
    r.model = "models/" + sweep.runs()[run].id + ".json";  // resume needs the model beside the row
    dlca::Model model = dlca::make_model(sweep.runs()[run].config);  // untrained will do
    model.task = dlca::TrainedTask(dlca::TaskKind::kCheckerboard);
    dlca::write_file_atomically(dir / ("s/" + r.model), dlca::model_file_text(model, nullptr));
    r.logits_checksum = dlca::logits_checksum(model.logits);
    r.final_hard_loss = epoch ? final_hard_loss : 17;
    r.kept_most_wrong_bits = kept;
    sweep.record(run, r);
  };
  row(0, 100, 1), row(1, std::nullopt, 4), row(2, 300, 2), row(3, 50, 3);
  row(4, 70, 5, 12);  // reached hard loss 0 at epoch 70 but ended with 12 wrong bits: not solved
  const std::string table = sweep.summary_markdown();
  // Solved, its 95 % Wilson interval, epochs to solve (median, worst), wall seconds of the solved
  // runs (median, worst) and of all.
  CHECK(table.find("| lr=0.03;steps=2 | 2/3 | 0.21-0.94 | 200 | 300 | 1.5 | 2.0 | 2.0 |\n") !=
        std::string::npos);
  CHECK(table.find("| lr=0.03;steps=3 | 1/2 | 0.09-0.91 | 50 | 50 | 3.0 | 3.0 | 4.0 |\n") !=
        std::string::npos);
  CHECK(table.find("| lr=0.05;steps=2 | 0/0 | - | - | - | - | - | - |\n") != std::string::npos);
  CHECK(table.find("7 runs not finished yet.") != std::string::npos);
  CHECK(table.find("stay exact") == std::string::npos);  // no picture: nothing said of it
  // As if pictures (the rows are not read back here, so their models need not be pictures): of
  // the solved runs, those whose grown picture stays from T to 2T; an unsolved run's picture is
  // not counted, nor a combination none of whose solved runs says.
  dlca::Sweep kept(spec, tiny_experiment(), dir / "k");
  kept.open();
  for (const auto& [run, epoch, most_wrong] :
       {std::tuple<size_t, std::optional<int64_t>, double>{0, 100, 0},
        {1, std::nullopt, 40},
        {2, 300, 5}}) {
    dlca::SweepRow r;
    r.seed = kept.runs()[run].seed;
    r.options = kept.runs()[run].options;
    r.first_zero_epoch = epoch;
    r.epochs = kept.runs()[run].config.epochs;
    r.final_hard_loss = epoch ? 0 : 17;
    r.kept_most_wrong_bits = most_wrong;
    kept.record(run, r);
  }
  CHECK(kept.summary_markdown().find("to 2T:\n\n- lr=0.03;steps=2: 1 of the 2 solved\n\n9 runs") !=
        std::string::npos);
  kept.close();
  // A second sweep over the same directory reads the recorded rows back, once the first is closed.
  dlca::Sweep again(spec, tiny_experiment(), dir / "s");
  CHECK_THROWS_WITH_AS(again.open(), doctest::Contains("another dlca sweep is using it"),
                       dlca::FileError);
  sweep.close();
  again.open();
  CHECK(again.finished_count() == 5);
  CHECK(again.summary_markdown() == table);
  // A run whose model file is gone is trained again.
  std::filesystem::remove(dir / ("s/models/" + sweep.runs()[0].id + ".json"));
  again.close();
  dlca::Sweep without_model(spec, tiny_experiment(), dir / "s");
  without_model.open();
  CHECK(without_model.finished_count() == 4);
  CHECK_FALSE(without_model.finished(0));
}

TEST_CASE("sweep: a damaged or hand-edited row is refused on resume, not converted") {
  dlca::SweepRow good;
  good.seed = 4;
  good.options = "lr=0.05";
  good.first_zero_epoch = 70;
  good.epochs = 100;
  good.active_gates = 21;
  good.model = "models/x.json";
  const nlohmann::json row = good.to_json();
  CHECK(dlca::SweepRow::from_json(row).to_json() == row);
  const auto refusal = [&](const char* key, nlohmann::json value) {
    nlohmann::json bad = row;
    bad[key] = value;
    try {
      dlca::SweepRow::from_json(bad);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(refusal("active_gates", 1e10) ==
        "active_gates: must be a non-negative integer, got 10000000000.0");
  CHECK(refusal("seed", 1.9) == "seed: must be a non-negative integer, got 1.9");
  CHECK(refusal("epochs", 2.9) == "epochs: must be a non-negative integer, got 2.9");
  CHECK(refusal("first_zero_epoch", -7) ==
        "first_zero_epoch: must be a non-negative integer, got -7");
  CHECK(refusal("first_zero_epoch", 101) == "first_zero_epoch: 101 is beyond epochs (100)");
  CHECK(refusal("final_hard_loss", -1) == "final_hard_loss: must be a finite number >= 0, got -1");
  CHECK(refusal("wall_seconds", "3") == "wall_seconds: must be a finite number >= 0, got \"3\"");
  CHECK(refusal("model", 5) == "model: must be a string, got 5");
  CHECK(refusal("extra", 1) == "unknown key \"extra\"");
  CHECK(refusal("final_hard_loss", 0.5) ==
        "final_hard_loss: must be a whole number of bits, got 0.5");
  // The rounds begun and the repair's hard losses: kept, checked, and absent in older rows.
  dlca::SweepRow repaired = good;
  repaired.extra_rounds = 2;
  repaired.repair_hard_loss_before = 12;
  repaired.repair_hard_loss_after = 3;
  repaired.kept_most_wrong_bits = 29;
  repaired.repair_search = "every op";
  const nlohmann::json with_repair = repaired.to_json();
  CHECK(with_repair["repair_search"] == "every op");
  CHECK(row["repair_search"].is_null());
  CHECK(with_repair["extra_rounds"] == 2);
  CHECK(with_repair["repair_hard_loss_after"] == 3.0);
  CHECK(dlca::SweepRow::from_json(with_repair).to_json() == with_repair);
  CHECK(row["extra_rounds"].is_null());
  CHECK(row["repair_hard_loss_before"].is_null());
  CHECK(with_repair["kept_most_wrong_bits"] == 29.0);
  CHECK(row["kept_most_wrong_bits"].is_null());
  nlohmann::json before_them = with_repair;
  for (const char* key : {"extra_rounds", "repair_hard_loss_before", "repair_hard_loss_after",
                          "kept_most_wrong_bits", "repair_search"})
    before_them.erase(key);
  CHECK(dlca::SweepRow::from_json(before_them).to_json() == row);
  for (const auto& [key, value, why] :
       {std::tuple<const char*, nlohmann::json, const char*>{
            "extra_rounds", 17, "extra_rounds: must be at most 16, got 17"},
        {"repair_hard_loss_after", nullptr,
         "repair_hard_loss_before, repair_hard_loss_after: both or neither (a repair has both)"},
        {"repair_hard_loss_before", 2.5,
         "repair_hard_loss_before: must be a whole number of bits, got 2.5"},
        {"repair_hard_loss_after", -1,
         "repair_hard_loss_after: must be a finite number >= 0, got -1"},
        {"kept_most_wrong_bits", 1.5,
         "kept_most_wrong_bits: must be a whole number of bits, got 1.5"},
        {"kept_most_wrong_bits", "0",
         "kept_most_wrong_bits: must be a finite number >= 0, got \"0\""},
        {"repair_search", "wide",
         "repair_search: must be \"narrow\", \"every op\" or \"every op from the trained "
         "circuit\", got \"wide\""},
        {"repair_search", 3, "repair_search: must be a string, got 3"}}) {
    nlohmann::json bad = with_repair;
    bad[key] = value;
    CHECK_THROWS_WITH(dlca::SweepRow::from_json(bad), why);
  }
  nlohmann::json never = row;
  never["first_zero_epoch"] = nullptr;
  never["final_hard_loss"] = 0;
  CHECK_THROWS_WITH(dlca::SweepRow::from_json(never),
                    "final_hard_loss: 0, but first_zero_epoch says it never was");
  // A diverged run: no final losses, no model; and rows from before it had no "diverged_epoch".
  dlca::SweepRow diverged;
  diverged.seed = 4;
  diverged.epochs = 12;
  diverged.diverged_epoch = 12;  // epochs 0-11 trained, epoch 12 diverged
  diverged.final_soft_loss = diverged.final_hard_loss = std::nan("");
  const nlohmann::json ran_away = diverged.to_json();
  CHECK(ran_away["final_soft_loss"].is_null());
  CHECK(dlca::SweepRow::from_json(ran_away).to_json() == ran_away);
  // Rows of older builds counted the epoch that diverged from 1: read as its index.
  nlohmann::json counted_from_one = ran_away;
  counted_from_one["diverged_epoch"] = 13;
  CHECK(dlca::SweepRow::from_json(counted_from_one).to_json() == ran_away);
  nlohmann::json old_row = row;
  old_row.erase("diverged_epoch");
  CHECK(dlca::SweepRow::from_json(old_row).to_json() == row);
  for (const auto& [key, value, why] :
       {std::tuple<const char*, nlohmann::json, const char*>{
            "diverged_epoch", 5,
            "diverged_epoch: 5, but a diverged run trained 12 epochs before it"},
        {"first_zero_epoch", 3, "first_zero_epoch: must be null for a diverged run"},
        {"active_gates", 7, "active_gates: must be 0 for a diverged run, got 7"},
        {"final_hard_loss", 3, "final_hard_loss: must be null for a diverged run, got 3"},
        {"model", "models/x.json", "model: a diverged run has no model file"}}) {
    nlohmann::json bad = ran_away;
    bad[key] = value;
    CHECK_THROWS_WITH(dlca::SweepRow::from_json(bad), why);
  }
  nlohmann::json repaired_away = ran_away;  // no model, so no repair of one
  repaired_away["repair_hard_loss_before"] = 5;
  repaired_away["repair_hard_loss_after"] = 4;
  CHECK_THROWS_WITH(dlca::SweepRow::from_json(repaired_away),
                    "repair_hard_loss_before: must be null for a diverged run");
  nlohmann::json kept_away = ran_away;  // no model, so no picture grown by one
  kept_away["kept_most_wrong_bits"] = 0;
  CHECK_THROWS_WITH(dlca::SweepRow::from_json(kept_away),
                    "kept_most_wrong_bits: must be null for a diverged run");
}

TEST_CASE("sweep: the Wilson interval of a solve rate") {
  // Published values (Wilson 1927; e.g. 19 of 20: 0.764-0.991), and the edges 0 and n.
  const auto [low19, high19] = dlca::wilson_interval(19, 20);
  CHECK(low19 == doctest::Approx(0.7639).epsilon(1e-3));
  CHECK(high19 == doctest::Approx(0.9911).epsilon(1e-3));
  const auto [low10, high10] = dlca::wilson_interval(10, 10);
  CHECK(low10 == doctest::Approx(0.7225).epsilon(1e-3));
  CHECK(high10 == 1.0);
  const auto [low0, high0] = dlca::wilson_interval(0, 10);
  CHECK(low0 == 0.0);
  CHECK(high0 == doctest::Approx(0.2775).epsilon(1e-3));
  CHECK(dlca::wilson_interval(0, 0) == std::pair{0.0, 1.0});
}

TEST_CASE("sweep: values with control characters or edge spaces are refused, '|' escaped") {
  CHECK_THROWS_WITH(dlca::parse_setting("name=a\nb"),
                    "a value holds a control character (newline, tab, ...)");
  CHECK_THROWS_WITH(dlca::parse_setting("lr=0.1, 0.2"),
                    "lr=0.1, 0.2: the value ' 0.2' begins or ends with a space");
  dlca::SweepSpec spec;
  spec.seeds = {1};
  spec.settings = {dlca::parse_setting("name=a|b")};
  dlca::Sweep sweep(spec, tiny_experiment(), "unused");
  CHECK(sweep.summary_markdown().find("| name=a\\|b | 0/0 |") != std::string::npos);
}

TEST_CASE("sweep: option texts too long for a file name give short run names") {
  dlca::SweepSpec spec;
  spec.seeds = {1};
  spec.settings = {dlca::parse_setting("name=" + std::string(300, 'a'))};
  dlca::Sweep sweep(spec, tiny_experiment(), "unused");
  REQUIRE(sweep.runs().size() == 1);
  CHECK(sweep.runs()[0].id == "o0_seed1");
  // An error about a huge value names it cut to one line's worth.
  dlca::SweepSpec bad = spec;
  bad.settings = {dlca::parse_setting("steps=" + std::string(100000, '7'))};
  try {
    dlca::Sweep(bad, tiny_experiment(), "unused");
    FAIL("a step count of 100,000 digits was accepted");
  } catch (const dlca::ConfigError& e) {
    CHECK(std::string(e.what()).size() < 400);
  }
  spec.settings = {dlca::parse_setting("name=" + std::string(150, 'a'))};
  CHECK(dlca::Sweep(spec, tiny_experiment(), "unused").runs()[0].id ==
        "name=" + std::string(150, 'a') + "_seed1");
}

TEST_CASE("sweep: a seed range may end at the largest seed") {
  // ++s wrapped to 0 at 2^64 - 1, and the range never ended.
  const std::vector<uint64_t> seeds =
      dlca::parse_seeds("18446744073709551614-18446744073709551615");
  CHECK(seeds == std::vector<uint64_t>{18446744073709551614ull, 18446744073709551615ull});
}

TEST_CASE("sweep: its manifest records what robust may not fill in; older manifests still open") {
  dlca::testing::ScratchDir scratch;
  const std::string out = scratch / "s";
  dlca::SweepSpec spec;
  spec.seeds = {1};
  spec.recipe = "robust";
  const dlca::ExperimentFile plain = tiny_experiment();
  dlca::ExperimentFile given = plain;  // the file gives "adam_eps" at the notebook's value
  given.config.given.adam_eps = true;
  {
    dlca::Sweep sweep(spec, plain, out);
    sweep.open();
    sweep.close();
  }
  {
    dlca::Sweep sweep(spec, given, out);  // the same values, but robust would now keep 1e-8
    CHECK_THROWS_WITH_AS(sweep.open(), doctest::Contains("holds a sweep with other"),
                         dlca::ConfigError);
  }
  // A manifest from before "given" and the AdamW keys were written opens with today's defaults.
  const std::string manifest = out + "/sweep.json";
  nlohmann::json old = nlohmann::json::parse(dlca::read_file(manifest));
  for (nlohmann::json& run : old["runs"]) {
    run.erase("given");
    for (const char* key : {"adam_beta1", "adam_beta2", "weight_decay"}) run["config"].erase(key);
  }
  dlca::write_file_atomically(manifest, old.dump(1));
  dlca::Sweep reopened(spec, plain, out);
  CHECK_NOTHROW(reopened.open());
}

TEST_CASE("sweep: a picture edited while the sweep runs stops it, not mixed into its table") {
  dlca::testing::ScratchDir dir;
  const auto picture = [&](uint16_t grey) {
    dlca::write_file_atomically(
        dir / "img.png", dlca::testing::png_bytes(8, 8, 0, 8, std::vector<uint16_t>(64, grey)));
  };
  picture(255);
  std::string text =
      dlca::read_file(DLCA_SOURCE_DIR "/tests/hostile/data/named_checkerboard_image_task.json");
  const std::string lizard = "../../../targets/lizard.png";
  text.replace(text.find(lizard), lizard.size(), "img.png");
  dlca::write_file_atomically(dir / "e.json", text);
  const dlca::ExperimentFile experiment = dlca::load_experiment(dir / "e.json");
  dlca::SweepSpec spec;
  spec.seeds = {1};
  spec.epochs = 1;
  dlca::Sweep sweep(spec, experiment, dir / "s");
  sweep.open();
  picture(0);  // the user edits the picture after the sweep opened
  CHECK_THROWS_WITH_AS(sweep.train(sweep.runs()[0], 1),
                       doctest::Contains("img.png: has changed since the sweep started"),
                       dlca::FileError);
}

TEST_CASE("sweep: loss channels in another order train the same runs: refused as the same") {
  dlca::testing::ScratchDir dir;
  dlca::write_file_atomically(
      dir / "rgb.png", dlca::testing::png_bytes(8, 8, 2, 8, std::vector<uint16_t>(192, 255)));
  nlohmann::json e = nlohmann::json::parse(
      dlca::read_file(DLCA_SOURCE_DIR "/tests/hostile/data/named_checkerboard_image_task.json"));
  e["config"]["channels"] = 3;  // an 8-colour target: 3 planes
  e["config"]["update_layers"] = {15, 16, 8, 4, 3};
  e["task"] = {{"kind", "image"}, {"image", "rgb.png"}, {"colours", "8colour"}};
  const std::string text = e.dump();
  dlca::write_file_atomically(dir / "e.json", text);
  dlca::SweepSpec spec;
  spec.seeds = {1};
  spec.settings = {dlca::parse_setting("loss_channels=[0,1],[1,0]")};
  CHECK_THROWS_WITH_AS(dlca::Sweep(spec, dlca::load_experiment(dir / "e.json"), dir / "s"),
                       "--set: loss_channels=[0,1] and loss_channels=[1,0] give the same "
                       "configuration",
                       dlca::ConfigError);
}

TEST_CASE("sweep: says where each run in flight stands while it trains") {
  dlca::SweepSpec spec;
  spec.seeds = dlca::parse_seeds("1-2");
  spec.epochs = 3;
  spec.settings = {dlca::parse_setting("starts=1"), dlca::parse_setting("repair=false")};
  dlca::testing::ScratchDir dir;
  dlca::Sweep sweep(spec, tiny_experiment(), dir / "s");
  sweep.open();
  std::ostringstream progress;
  REQUIRE(dlca::run_sweep_locally(sweep, 1, 1, progress, 0));  // a report after every round
  const std::string text = progress.str();
  for (const char* line : {"] seed 1 starts=1;repair=false: epoch 1/3, hard ",
                           "] seed 1 starts=1;repair=false: epoch 3/3, hard ",
                           "] seed 2 starts=1;repair=false: epoch 2/3, hard "})
    CHECK_MESSAGE(text.find(line) != std::string::npos, std::string(line), " in:\n", text);
  // Before seed 2 starts, the line of seed 1's finish; seed 1 is no longer reported after it.
  const size_t finished = text.find("[1/2] seed 1");
  REQUIRE(finished != std::string::npos);
  CHECK(text.find("] seed 1 ", finished + 5) == std::string::npos);  // past "[1/2] seed 1"
  CHECK(text.find("] seed 2 ") > finished);
}

TEST_CASE("sweep: runs trained two at once equal the same runs trained one at a time") {
  // Also the sweep's share of the ThreadSanitizer run (tools/test.sh): two jobs, two threads.
  dlca::SweepSpec spec;
  spec.seeds = dlca::parse_seeds("1-4");
  spec.epochs = 2;
  spec.settings = {dlca::parse_setting("starts=1"), dlca::parse_setting("repair=false")};
  const auto trained = [&](int jobs) {
    dlca::testing::ScratchDir dir;
    dlca::Sweep sweep(spec, tiny_experiment(), dir / "s");
    sweep.open();
    std::ostringstream progress;
    REQUIRE(dlca::run_sweep_locally(sweep, jobs, 2, progress));
    REQUIRE(sweep.finished_count() == 4);
    nlohmann::json rows = sweep.rows_json();
    for (nlohmann::json& row : rows) row.erase("wall_seconds");
    return rows;
  };
  const nlohmann::json alone = trained(1);
  CHECK(alone[0]["logits_checksum"] != alone[1]["logits_checksum"]);  // the seeds differ
  CHECK(trained(2) == alone);
}

TEST_CASE("sweep: the progress line says which round solved a run and what the repair did") {
  dlca::SweepRow row;
  row.seed = 6;
  row.epochs = 5107;
  row.first_zero_epoch = 5107;
  row.wall_seconds = 1288.3;
  row.extra_rounds = 1;
  row.repair_hard_loss_before = 103;  // tried before the rounds, which then solved it
  row.repair_hard_loss_after = 80;
  CHECK(dlca::progress_line(row, 1, 2) ==
        "[1/2] seed 6: solved at epoch 5107; extra round 1; repair 103 -> 80 (not applied) "
        "(1288.3 s)\n");
  row.extra_rounds = 0;  // solved by the repair at the end of its epochs
  row.repair_hard_loss_after = 0;
  CHECK(dlca::progress_line(row, 2, 2) ==
        "[2/2] seed 6: solved at epoch 5107; repaired 103 -> 0 (1288.3 s)\n");
  row.repair_search = "every op";  // by a wide search (a narrow one is not named)
  CHECK(dlca::progress_line(row, 2, 2) ==
        "[2/2] seed 6: solved at epoch 5107; repaired 103 -> 0 (every op) (1288.3 s)\n");
  row.repair_search = "narrow";
  row.kept_most_wrong_bits = 0;  // a picture that stays from the trained step T to 2T
  CHECK(dlca::progress_line(row, 2, 2) ==
        "[2/2] seed 6: solved at epoch 5107; repaired 103 -> 0; stays exact to 2T (1288.3 s)\n");
  row.kept_most_wrong_bits = 29;
  CHECK(dlca::progress_line(row, 2, 2) ==
        "[2/2] seed 6: solved at epoch 5107; repaired 103 -> 0; does not stay (up to 29 wrong bits "
        "by 2T) (1288.3 s)\n");
  row.kept_most_wrong_bits.reset();
  row.first_zero_epoch.reset();  // unsolved, no rounds given
  row.final_hard_loss = 8;
  row.extra_rounds.reset();
  row.repair_hard_loss_after = 8;
  CHECK(dlca::progress_line(row, 2, 2) ==
        "[2/2] seed 6: not solved (hard loss 8 after 5107 epochs; repair 103 -> 8 (not applied)) "
        "(1288.3 s)\n");
}

TEST_CASE("sweep: pictures grown to stay resume their rows; stay on a checkerboard is refused") {
  dlca::testing::ScratchDir dir;
  dlca::write_file_atomically(dir / "img.png",
                              dlca::testing::png_bytes(8, 8, 0, 8, std::vector<uint16_t>(64, 255)));
  std::string text =
      dlca::read_file(DLCA_SOURCE_DIR "/tests/hostile/data/named_checkerboard_image_task.json");
  const std::string lizard = "../../../targets/lizard.png";
  text.replace(text.find(lizard), lizard.size(), "img.png");
  dlca::write_file_atomically(dir / "e.json", text);
  dlca::SweepSpec spec;
  spec.seeds = {1, 2};
  spec.epochs = 4;
  spec.settings = {dlca::parse_setting("stay=true"), dlca::parse_setting("starts=1")};
  nlohmann::json first_rows;
  {
    dlca::Sweep sweep(spec, dlca::load_experiment(dir / "e.json"), dir / "s");
    sweep.open();
    std::ostringstream progress;
    REQUIRE(dlca::run_sweep_locally(sweep, 1, 1, progress));
    first_rows = sweep.rows_json();
  }
  // A row's hard loss is its circuit's over the window T to 2T (the summary's), which a resume
  // checks against the model file: read back as finished, not refused.
  for (const nlohmann::json& row : first_rows) {
    CHECK(row["final_hard_loss"].get<double>() >= row["kept_most_wrong_bits"].get<double>());
    CHECK(row["first_zero_epoch"].is_null() == (row["final_hard_loss"].get<double>() > 0));
  }
  dlca::Sweep again(spec, dlca::load_experiment(dir / "e.json"), dir / "s");
  CHECK_NOTHROW(again.open());
  CHECK(again.finished_count() == 2);
  CHECK(again.rows_json() == first_rows);
  dlca::SweepSpec on_board;
  on_board.seeds = {1};
  on_board.settings = {dlca::parse_setting("stay=false,true")};
  CHECK_THROWS_WITH_AS(dlca::Sweep(on_board, tiny_experiment(), dir / "board"),
                       doctest::Contains("--set stay=true: stay: only a picture"),
                       dlca::ConfigError);
}
