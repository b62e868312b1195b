// The greedy circuit repair: it finds a gate broken in a working circuit, gives the same changes
// at any thread count, and applying a change makes that op the gate's argmax (logits and the
// optimizer's moments swapped alike); a run stopped before its repair is done is interrupted.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

#include "dlca/circuits/circuit.hpp"
#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/train/checkerboard.hpp"
#include "dlca/train/circuit_repair.hpp"
#include "dlca/train/trainer.hpp"
#include "dlca/train/training_run.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

// The small checkerboard trained until its hard loss is 0, with the parameters that scored it.
struct Solved {
  ExperimentConfig config;
  CheckerboardTask task{config};
  CpuBackend backend{{.threads = 2}};
  Trainer trainer{make_model(config), task, backend};
  explicit Solved(ExperimentConfig c = testing::small_checkerboard()) : config(std::move(c)) {
    trainer.keep_undo_state(true);
    while (trainer.epoch() < config.epochs)
      if (trainer.run_epoch().hard_loss == 0) break;
    REQUIRE(trainer.history().back().hard_loss == 0);
    trainer.undo_last_epoch();
  }
};

// The repair's problem on one batch: the data the trainer's next epoch would see.
struct OneBatchProblem {
  TaskBatch data;
  GridGeometry geometry;
  CellProgram program;
  RepairProblem problem;
  explicit OneBatchProblem(Solved& solved) {
    const ExperimentConfig& cfg = solved.trainer.model().config;
    solved.task.make_batch(uint64_t(solved.trainer.epoch()), data);
    geometry = make_grid_geometry(cfg.batch, cfg.height, cfg.width, cfg.channels, cfg.periodic);
    program = build_cell_program(solved.trainer.model());
    problem = {&program, &geometry, cfg.steps, &cfg.loss_channels, {}};
    problem.batches.push_back({data.initial_states.data(), nullptr, &data.target});
  }
  OneBatchProblem(const OneBatchProblem&) = delete;
  OneBatchProblem& operator=(const OneBatchProblem&) = delete;
};

double hard_loss(const RepairProblem& p, const RepairBatch& b, const std::vector<float>& logits) {
  return hard_rollout(*p.program, hard_ops(GateKind::kSoftmax, logits), *p.geometry,
                      b.initial_state, p.steps, b.masks, *b.target, *p.loss_channels)
      .loss;
}

double hard_loss(const RepairProblem& p, const std::vector<float>& logits) {
  double sum = 0;
  for (const RepairBatch& b : p.batches) sum += hard_loss(p, b, logits);
  return sum;
}

}  // namespace

TEST_CASE("repair finds a gate broken in a working circuit, the same at 1 and 2 threads") {
  Solved solved;
  const Model& model = solved.trainer.model();
  const ExperimentConfig& cfg = model.config;
  // Scored on two epochs' random starts.
  TaskBatch data[2];
  solved.task.make_batch(uint64_t(solved.trainer.epoch()), data[0]);
  solved.task.make_batch(uint64_t(solved.trainer.epoch()) + 1, data[1]);
  const GridGeometry geometry =
      make_grid_geometry(cfg.batch, cfg.height, cfg.width, cfg.channels, cfg.periodic);
  const CellProgram program = build_cell_program(model);
  RepairProblem problem{&program, &geometry, cfg.steps, &cfg.loss_channels, {}};
  for (const TaskBatch& d : data)
    problem.batches.push_back({d.initial_states.data(), nullptr, &d.target});
  REQUIRE(hard_loss(problem, model.logits) == 0);

  // Break the first update gate whose second most likely op makes the circuit fail.
  std::vector<float> broken = model.logits;
  int broken_gate = -1, right_op = -1;
  const auto ops = hard_ops(model);
  for (int g = model.num_perception_gates(); g < model.num_gates() && broken_gate < 0; ++g) {
    const float* z = &model.logits[size_t(g) * kNumOps];
    int second = ops[g] == 0 ? 1 : 0;
    for (int i = 0; i < kNumOps; ++i)
      if (i != ops[g] && z[i] > z[second]) second = i;
    std::vector<float> trial = model.logits;
    apply_repair({{g, ops[g], second}}, GateKind::kSoftmax, trial);
    if (hard_loss(problem, trial) > 0) {
      broken = trial;
      broken_gate = g;
      right_op = ops[g];
    }
  }
  REQUIRE(broken_gate >= 0);
  CHECK(hard_ops(GateKind::kSoftmax, broken)[size_t(broken_gate)] != right_op);

  // Every gate a candidate, every op with probability at least 1e-6.
  RepairSettings settings;
  settings.uncertain_below = 1.01;
  settings.min_probability = 1e-6;
  settings.max_alternatives = 15;
  settings.threads = 1;
  const RepairReport one = search_repair(problem, GateKind::kSoftmax, broken, settings);
  settings.threads = 2;
  const RepairReport two = search_repair(problem, GateKind::kSoftmax, broken, settings);
  CHECK(one.batches == 2);
  CHECK(one.hard_loss_before == hard_loss(problem, problem.batches[0], broken) +
                                    hard_loss(problem, problem.batches[1], broken));
  CHECK(one.hard_loss_before > 0);
  CHECK(one.hard_loss_after == 0);
  REQUIRE(!one.changes.empty());
  CHECK(one.candidates > 0);
  CHECK(one.evaluations >= int64_t(one.changes.size()) + 1);
  REQUIRE(two.changes.size() == one.changes.size());
  for (size_t i = 0; i < one.changes.size(); ++i) {
    CHECK(two.changes[i].gate == one.changes[i].gate);
    CHECK(two.changes[i].to_op == one.changes[i].to_op);
  }
  CHECK(two.hard_loss_after ==
        one.hard_loss_after);  // (rollouts run differ: chunks of 4 per thread)
  std::vector<float> repaired = broken;
  apply_repair(one.changes, GateKind::kSoftmax, repaired);
  CHECK(hard_loss(problem, repaired) == 0);
  // A budget ends the search at the same place at any thread count (rollouts counted as one at a
  // time); too small a budget finds no fix.
  for (const int64_t budget : {int64_t(1), int64_t(2), one.evaluations / 2}) {
    CAPTURE(budget);
    RepairSettings limited = settings;
    limited.max_evaluations = budget;
    limited.threads = 1;
    const RepairReport a = search_repair(problem, GateKind::kSoftmax, broken, limited);
    limited.threads = 2;
    const RepairReport b = search_repair(problem, GateKind::kSoftmax, broken, limited);
    CHECK(a.out_of_budget);
    if (budget == 1) CHECK(a.changes.empty());  // only the start was scored
    CHECK(a.hard_loss_after == b.hard_loss_after);
    CHECK(a.changes.size() == b.changes.size());
  }
  RepairSettings roomy = settings;
  roomy.max_evaluations = 1000000;
  const RepairReport unlimited = search_repair(problem, GateKind::kSoftmax, broken, roomy);
  CHECK_FALSE(unlimited.out_of_budget);
  CHECK(unlimited.hard_loss_after == 0);
  // The search itself changes nothing, and a search that may not pass at all reports the start.
  RepairSettings no_pass;
  no_pass.max_passes = 0;
  CHECK(search_repair(problem, GateKind::kSoftmax, broken, no_pass).changes.empty());
}

// A gate of a working circuit set to its least likely op, which breaks the circuit (at most
// kWideRepairMaxWrongBits wrong bits) in a way the narrow search (the default settings) does not
// undo and the wide one does: the gate's right op then has that unlikely op's probability. The
// first such update gate; its change back is returned with the logits.
std::pair<std::vector<float>, GateChange> break_unlikely(const Model& model,
                                                         const RepairProblem& problem) {
  const auto ops = hard_ops(model);
  const std::vector<float> p = op_probabilities(model);
  RepairSettings wide;
  wide.every_op = true;
  for (int g = model.num_perception_gates(); g < model.num_gates(); ++g) {
    int least = 0;
    for (int i = 1; i < kNumOps; ++i)
      if (p[size_t(g) * kNumOps + i] < p[size_t(g) * kNumOps + least]) least = i;
    std::vector<float> broken = model.logits;
    apply_repair({{g, ops[g], least}}, GateKind::kSoftmax, broken);
    const double loss = hard_loss(problem, broken);
    if (loss == 0 || loss > kWideRepairMaxWrongBits) continue;
    if (search_repair(problem, GateKind::kSoftmax, broken).hard_loss_after == 0) continue;
    if (search_repair(problem, GateKind::kSoftmax, broken, wide).hard_loss_after > 0) continue;
    return {broken, {g, least, ops[g]}};
  }
  FAIL("no gate of the circuit breaks it beyond the narrow search and within the wide one");
  return {};
}

TEST_CASE("the wide search tries every op of the gates that reach an output") {
  Solved solved;
  const Model& model = solved.trainer.model();
  const ExperimentConfig& cfg = model.config;
  const OneBatchProblem one_batch(solved);
  const TaskBatch& data = one_batch.data;
  const GridGeometry& geometry = one_batch.geometry;
  const CellProgram& program = one_batch.program;
  const RepairProblem& problem = one_batch.problem;
  REQUIRE(hard_loss(problem, model.logits) == 0);

  // Gates that reach no output change nothing, whatever their op; there are some to check.
  const std::vector<uint8_t> ops = hard_ops(model);
  const std::vector<uint8_t> reaching = gates_reaching_outputs(program, ops);
  const auto final_state = [&](const std::vector<uint8_t>& circuit) {
    return hard_rollout(program, circuit, geometry, data.initial_states.data(), cfg.steps, nullptr,
                        data.target, cfg.loss_channels)
        .final_state;
  };
  const auto before = final_state(ops);
  int unreached = 0;
  for (size_t g = 0; g < ops.size(); ++g)
    if (!reaching[g]) {
      ++unreached;
      for (const int op : {kOpFalse, kOpTrue, 6}) {
        std::vector<uint8_t> changed = ops;
        changed[g] = uint8_t(op);
        CHECK(final_state(changed) == before);
      }
    }
  CHECK(unreached > 0);
  CHECK(unreached < int(ops.size()));
  // ... and changing a reaching gate can: its output row is read (here: set to the opposite of
  // what it computes, some reaching gate changes the state).
  bool some_change = false;
  for (size_t g = 0; g < ops.size() && !some_change; ++g)
    if (reaching[g]) {
      std::vector<uint8_t> changed = ops;
      changed[g] = uint8_t(kNumOps - 1 - ops[g]);  // the complement op
      some_change = final_state(changed) != before;
    }
  CHECK(some_change);

  const auto [broken, fix] = break_unlikely(model, problem);
  const RepairReport narrow = search_repair(problem, GateKind::kSoftmax, broken);
  CHECK(narrow.hard_loss_after > 0);
  RepairSettings wide;
  wide.every_op = true;
  wide.threads = 1;
  const RepairReport one = search_repair(problem, GateKind::kSoftmax, broken, wide);
  const std::vector<uint8_t> broken_reaching =
      gates_reaching_outputs(program, hard_ops(GateKind::kSoftmax, broken));
  CHECK(one.candidates ==
        (kNumOps - 1) * std::count(broken_reaching.begin(), broken_reaching.end(), 1));
  CHECK(one.hard_loss_after == 0);
  // It took an op the narrow search never tries (probability below its 0.02).
  const std::vector<float> broken_p = op_probabilities(GateKind::kSoftmax, broken);
  CHECK(std::any_of(one.changes.begin(), one.changes.end(), [&](const GateChange& c) {
    return broken_p[size_t(c.gate) * kNumOps + size_t(c.to_op)] < 0.02f;
  }));
  wide.threads = 2;
  const RepairReport two = search_repair(problem, GateKind::kSoftmax, broken, wide);
  REQUIRE(two.changes.size() == one.changes.size());
  for (size_t i = 0; i < one.changes.size(); ++i) {
    CHECK(two.changes[i].gate == one.changes[i].gate);
    CHECK(two.changes[i].to_op == one.changes[i].to_op);
  }
  std::vector<float> repaired = broken;
  apply_repair(one.changes, GateKind::kSoftmax, repaired);
  CHECK(hard_loss(problem, repaired) == 0);

  // From the narrow search's circuit: its changes first, scored with them.
  wide.start_from = narrow.changes;
  const RepairReport after_narrow = search_repair(problem, GateKind::kSoftmax, broken, wide);
  CHECK(after_narrow.hard_loss_before == narrow.hard_loss_after);
  REQUIRE(after_narrow.changes.size() >= narrow.changes.size());
  for (size_t i = 0; i < narrow.changes.size(); ++i)
    CHECK(after_narrow.changes[i].to_op == narrow.changes[i].to_op);
  repaired = broken;
  apply_repair(after_narrow.changes, GateKind::kSoftmax, repaired);
  CHECK(hard_loss(problem, repaired) == after_narrow.hard_loss_after);
  CHECK(after_narrow.hard_loss_after < narrow.hard_loss_after);
}

TEST_CASE("a run whose narrow repair fails is repaired by the wide search") {
  ExperimentConfig cfg = testing::small_checkerboard();
  cfg.repair = true;
  Solved solved(cfg);
  Trainer& t = solved.trainer;
  const OneBatchProblem one_batch(solved);
  const RepairProblem& problem = one_batch.problem;
  const GateChange fix = break_unlikely(t.model(), problem).second;
  RepairReport breaking;
  breaking.changes = {{fix.gate, fix.to_op, fix.from_op}};
  t.apply_repair(breaking);
  TrainingRunOptions options;
  options.epochs = t.epoch() + 1;
  std::ostringstream out;
  const TrainingSummary summary = run_training(t, "cpu", options, out);
  INFO(out.str());
  REQUIRE(summary.repair.contains("every_op"));
  CHECK(summary.repair.at("applied") == true);
  CHECK(hard_loss(problem, t.model().logits) == 0);  // the trainer's circuit, scored anew
  CHECK(out.str().find(", every op: hard loss") != std::string::npos);
  CHECK(summary.repair.at("search") == "every op");
  CHECK(summary.repair.at("hard_loss_before") >=
        summary.repair.at("every_op").at("hard_loss_before"));
}

TEST_CASE("applying a repair swaps the two logits (and companions); ties go to the new op") {
  std::vector<float> logits(2 * kNumOps, 0.0f), moment(2 * kNumOps);
  for (size_t i = 0; i < moment.size(); ++i) moment[i] = float(i);
  logits[3] = 5.0f;  // gate 0: A
  logits[7] = 4.0f;
  logits[kNumOps + 3] = 2.0f;  // gate 1: A and XOR tied; A wins as the first maximum
  logits[kNumOps + 6] = 2.0f;
  apply_repair({{0, 3, 7}, {1, 3, 6}}, GateKind::kSoftmax, logits, {&moment});
  const auto ops = hard_ops(GateKind::kSoftmax, logits);
  CHECK(ops[0] == 7);
  CHECK(ops[1] == 6);
  CHECK(logits[3] == 4.0f);
  CHECK(logits[7] == 5.0f);
  CHECK(moment[3] == 7.0f);
  CHECK(moment[7] == 3.0f);
  CHECK(logits[kNumOps + 6] > 2.0f);  // lifted just above the tie
}

TEST_CASE("a trainer applies a repair to its parameters and moments") {
  Solved solved;
  Trainer& t = solved.trainer;
  const std::vector<float> logits = t.model().logits, m = t.optimizer().first_moment();
  const int gate = t.model().num_gates() - 1;
  const int from = hard_ops(GateKind::kSoftmax, logits)[size_t(gate)], to = from == 0 ? 1 : 0;
  RepairReport report;
  report.changes = {{gate, from, to}};
  t.apply_repair(report);
  CHECK(hard_ops(t.model())[size_t(gate)] == to);
  const size_t a = size_t(gate) * kNumOps + size_t(from), b = size_t(gate) * kNumOps + size_t(to);
  CHECK(t.optimizer().first_moment()[a] == m[b]);
  CHECK(t.optimizer().first_moment()[b] == m[a]);
  CHECK(t.optimizer().steps_taken() == t.epoch());
}

TEST_CASE("a run stopped before or during its repair is interrupted") {
  // Stopped at its last epoch (Ctrl-C then) or in the search, it was summarised as a finished run
  // (exit 0, and a sweep recorded it) with the repair skipped or cut short.
  ExperimentConfig cfg = testing::small_checkerboard();
  cfg.epochs = 3;
  cfg.repair = true;
  CheckerboardTask task(cfg);
  CpuBackend backend({.threads = 1});
  Model uncertain = make_model(cfg);  // every gate uncertain: many changes for the repair to try
  for (float& logit : uncertain.logits) logit *= 0.1f;
  const auto run = [&](const std::function<void(Trainer&, CallbackObserver&)>& stop) {
    Trainer trainer(uncertain, task, backend);
    TrainingRunOptions options;
    options.epochs = cfg.epochs;
    CallbackObserver caller;
    options.observers = {&caller};
    stop(trainer, caller);
    std::ostringstream out;
    return run_training(trainer, "cpu", options, out);
  };
  const TrainingSummary whole = run([](Trainer&, CallbackObserver&) {});
  REQUIRE(whole.final_hard_loss > 0);  // a repair to try
  CHECK_FALSE(whole.interrupted);
  CHECK(whole.repair.contains("hard_rollouts"));
  CHECK(whole.repair.at("epoch") == cfg.epochs);  // which repair: at the run's last epoch
  const TrainingSummary at_last_epoch = run([&](Trainer&, CallbackObserver& o) {
    o.on_round = [&](const TrainingRound& r) { return r.shown.epoch + 1 < cfg.epochs; };
  });
  CHECK(at_last_epoch.epochs == cfg.epochs);
  CHECK(at_last_epoch.interrupted);
  int asked_after_training = 0;  // the first time before the search, then in it
  const TrainingSummary in_search = run([&](Trainer& t, CallbackObserver& o) {
    o.stop = [&] { return t.epoch() == cfg.epochs && ++asked_after_training == 2; };
  });
  CHECK(asked_after_training == 2);
  CHECK(in_search.repair.contains("hard_rollouts"));  // tried, and cut short
  CHECK(in_search.interrupted);
}

TEST_CASE("a wide search that fails from the narrow result is tried from the trained circuit") {
  ExperimentConfig cfg = testing::small_checkerboard();
  cfg.repair = true;
  Solved solved(cfg);
  Trainer& t = solved.trainer;
  // Two gates broken (found by a search over random breaks of this run's circuit): the narrow
  // search changes a gate that leads the wide search into a local minimum 166 bits off, while the
  // wide search from the broken circuit itself finds its way back to 0.
  const std::vector<uint8_t> ops = hard_ops(t.model());
  REQUIRE(ops[306] == 3);
  REQUIRE(ops[171] == 3);
  RepairReport breaking;
  breaking.changes = {{306, 3, 8}, {171, 3, 9}};
  t.apply_repair(breaking);
  TrainingRunOptions options;
  options.epochs = t.epoch() + 1;
  std::ostringstream out;
  const TrainingSummary summary = run_training(t, "cpu", options, out);
  const std::string text = out.str();
  INFO(text);
  const size_t narrow = text.find("repair: hard loss");
  const size_t from_narrow = text.find("repair, every op: hard loss");
  const size_t from_trained = text.find("repair, every op from the trained circuit: hard loss");
  REQUIRE(narrow != std::string::npos);
  REQUIRE(from_narrow != std::string::npos);
  REQUIRE(from_trained != std::string::npos);
  CHECK(narrow < from_narrow);
  CHECK(from_narrow < from_trained);
  CHECK(text.find("not solved", from_narrow) < from_trained);
  CHECK(text.find(": applied", from_trained) != std::string::npos);
  CHECK(summary.repair.at("applied") == true);
  CHECK(summary.repair.at("search") == "every op from the trained circuit");
  CHECK(summary.repair.at("hard_loss_before") ==
        summary.repair.at("every_op").at("hard_loss_before"));
  // The trainer's circuit, scored anew on the first batch the repair scored.
  CHECK(hard_loss(OneBatchProblem(solved).problem, t.model().logits) == 0);
}
