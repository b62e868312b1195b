// End to end: a short training on a small checkerboard reaches hard loss 0; training is
// bit-identical at 1 and 2 threads.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/trainer.hpp"
#include "test_helpers.hpp"

using namespace dlca;

TEST_CASE("a small checkerboard trains to hard loss 0") {
  const ExperimentConfig cfg = testing::small_checkerboard();
  CheckerboardTask task(cfg);
  CpuBackend backend({.threads = 2});
  Trainer trainer(make_model(cfg), task, backend);
  double first_soft = -1;
  int64_t zero_at = -1;
  while (trainer.epoch() < cfg.epochs && zero_at < 0) {
    const EpochStats s = trainer.run_epoch();
    if (first_soft < 0) first_soft = s.soft_loss;
    if (s.hard_loss == 0) zero_at = s.epoch;
  }
  MESSAGE("hard loss 0 at epoch " << zero_at);
  CHECK(zero_at >= 0);
  CHECK(active_gate_count(trainer.model().logits) > 0);
}

TEST_CASE("training is bit-identical at 1 and 2 threads") {
  ExperimentConfig cfg = testing::small_checkerboard();
  CheckerboardTask task(cfg);
  CpuBackend one({.threads = 1}), two({.threads = 2});
  Trainer a(make_model(cfg), task, one), b(make_model(cfg), task, two);
  for (int e = 0; e < 5; ++e) {
    const EpochStats sa = a.run_epoch(), sb = b.run_epoch();
    CHECK(sa.soft_loss == sb.soft_loss);
    CHECK(sa.hard_loss == sb.hard_loss);
  }
  CHECK(a.model().logits == b.model().logits);
}

TEST_CASE("the configuration's AdamW epsilon is the optimiser's") {
  // The first step from the same parameters and gradient: lr * g / (|g| + eps) per logit, so a
  // large epsilon shortens every step and a tiny one leaves them whole.
  ExperimentConfig notebook = testing::small_checkerboard(), large = notebook, tiny = notebook;
  large.adam_eps = 0.5f;
  tiny.adam_eps = 1e-20f;
  CheckerboardTask task(notebook);
  CpuBackend backend({.threads = 1});
  const Model start = make_model(notebook);
  const auto step = [&](const ExperimentConfig& c) {
    Model m = start;
    m.config = c;
    Trainer trainer(std::move(m), task, backend);
    trainer.run_epoch();
    double total = 0;  // the summed length of the steps
    for (size_t i = 0; i < start.logits.size(); ++i)
      total += std::abs(double(trainer.model().logits[i]) - double(start.logits[i]));
    return total;
  };
  const double with_notebook = step(notebook), with_large = step(large), with_tiny = step(tiny);
  CHECK(with_large < 0.5 * with_notebook);
  CHECK(with_tiny >= with_notebook);
}
