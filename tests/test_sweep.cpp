// The sweep's grid, run names and summary table (dlca/train/sweep.hpp), without training: rows are
// recorded by hand so that solved runs, medians and worst epochs are checked exactly.
#include <doctest/doctest.h>

#include <filesystem>

#include "dlca/core/config.hpp"
#include "dlca/train/sweep.hpp"
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
                       double final_hard_loss = 0) {
    dlca::SweepRow r;
    r.seed = sweep.runs()[run].seed;
    r.options = sweep.runs()[run].options;
    r.first_zero_epoch = epoch;
    r.wall_seconds = wall;
    r.final_hard_loss = epoch ? final_hard_loss : 17;
    sweep.record(run, r);
  };
  row(0, 100, 1), row(1, std::nullopt, 4), row(2, 300, 2), row(3, 50, 3);
  row(4, 70, 5, 12);  // reached hard loss 0 at epoch 70 but ended with 12 wrong bits: not solved
  const std::string table = sweep.summary_markdown();
  CHECK(table.find("| lr=0.03;steps=2 | 2/3 | 200 | 300 | 2.0 |\n") != std::string::npos);
  CHECK(table.find("| lr=0.03;steps=3 | 1/2 | 50 | 50 | 4.0 |\n") != std::string::npos);
  CHECK(table.find("| lr=0.05;steps=2 | 0/0 | - | - | - |\n") != std::string::npos);
  CHECK(table.find("7 runs not finished yet.") != std::string::npos);
  // A second sweep over the same directory reads the recorded rows back.
  dlca::Sweep again(spec, tiny_experiment(), dir / "s");
  again.open();
  CHECK(again.finished_count() == 5);
  CHECK(again.summary_markdown() == table);
}
