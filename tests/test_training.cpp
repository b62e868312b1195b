// End to end: a short training on a small checkerboard reaches hard loss 0; training is
// bit-identical at 1 and 2 threads.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include <gif_lib.h>

#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/checkerboard.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/trainer.hpp"
#include "dlca/train/training_pictures.hpp"
#include "scratch_dir.hpp"
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
  CHECK(active_gate_count(trainer.model()) > 0);
}

namespace {

// Trains a and b side by side for `epochs` epochs, checking that every epoch's losses and the
// parameters at the end are the same, bit for bit.
void check_same_epochs(Trainer& a, Trainer& b, int epochs) {
  for (int e = 0; e < epochs; ++e) {
    const EpochStats sa = a.run_epoch(), sb = b.run_epoch();
    CHECK(sa.soft_loss == sb.soft_loss);
    CHECK(sa.hard_loss == sb.hard_loss);
  }
  CHECK(a.model().logits == b.model().logits);
}

}  // namespace

TEST_CASE("training is bit-identical at 1 and 2 threads") {
  ExperimentConfig cfg = testing::small_checkerboard();
  CheckerboardTask task(cfg);
  CpuBackend one({.threads = 1}), two({.threads = 2});
  Trainer a(make_model(cfg), task, one), b(make_model(cfg), task, two);
  check_same_epochs(a, b, 5);
}

TEST_CASE("hard-error feedback acts from the epoch the forward pass is sharpened, not before") {
  // The same run with and without --hard-feedback: bit-identical while the forward temperature is
  // 1 (to epoch 4, where the sharpening starts from 1), different parameters after the first
  // sharpened epoch (5; the small checkerboard's hard circuit is still wrong then).
  ExperimentConfig plain = testing::small_checkerboard();
  plain.sharpen_to = 0.3f, plain.sharpen_start = 4, plain.sharpen_end = 8;
  ExperimentConfig fed = plain;
  fed.hard_feedback = 1.0f;
  CheckerboardTask task(plain);
  CpuBackend backend({.threads = 2});
  Trainer a(make_model(plain), task, backend), b(make_model(fed), task, backend);
  check_same_epochs(a, b, 5);
  const EpochStats sa = a.run_epoch(), sb = b.run_epoch();  // epoch 5, sharpened
  CHECK(sa.soft_loss == sb.soft_loss);  // the same parameters: the feedback changes the gradient
  CHECK(sa.hard_loss > 0);
  CHECK(a.model().logits != b.model().logits);
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

TEST_CASE("the configuration's AdamW betas and weight decay are the optimiser's") {
  ExperimentConfig notebook = testing::small_checkerboard();
  CheckerboardTask task(notebook);
  CpuBackend backend({.threads = 1});
  const Model start = make_model(notebook);
  const auto train = [&](const ExperimentConfig& c, int epochs) {
    Model m = start;
    m.config = c;
    Trainer trainer(std::move(m), task, backend);
    for (int e = 0; e < epochs; ++e) trainer.run_epoch();
    return trainer.model().logits;
  };
  // Decoupled weight decay: the first step moves every logit by a further -lr * wd * logit.
  ExperimentConfig decayed = notebook, undecayed = notebook;
  decayed.weight_decay = 0.5f;
  undecayed.weight_decay = 0;
  const std::vector<float> with_decay = train(decayed, 1), without = train(undecayed, 1);
  double worst = 0;
  for (size_t i = 0; i < start.logits.size(); ++i)
    worst = std::max(worst, std::abs(double(with_decay[i]) - double(without[i]) +
                                     double(notebook.learning_rate) * 0.5 * start.logits[i]));
  CHECK(worst < 1e-5);
  CHECK(train(notebook, 1) != without);  // the notebook's 0.01 is not 0
  // The betas (the bias-corrected first step is about the same for any; the second is not).
  ExperimentConfig betas = notebook;
  betas.adam_beta1 = 0.5f;
  CHECK(train(betas, 2) != train(notebook, 2));
  betas = notebook;
  betas.adam_beta2 = 0.5f;
  CHECK(train(betas, 2) != train(notebook, 2));
}

TEST_CASE("a gradient that is not finite on the CPU is a divergence naming its epoch") {
  // A backend whose third rollout returns a finite loss but an infinite gradient: AdamW's own
  // check threw a plain error, which a sweep did not record as a diverged run.
  struct InfiniteGradient : Backend {
    CpuBackend cpu{{.threads = 1}};
    int rollouts = 0;
    std::string name() const override { return "cpu"; }
    RolloutResult rollout(const Model& model, const Target& target, const RolloutBatch& batch,
                          const RolloutRequest& request) override {
      RolloutResult r = cpu.rollout(model, target, batch, request);
      if (++rollouts == 3) r.grad[1] = INFINITY;
      return r;
    }
  } backend;
  const ExperimentConfig cfg = testing::small_checkerboard();
  CheckerboardTask task(cfg);
  Trainer trainer(make_model(cfg), task, backend);
  trainer.run_epoch();
  trainer.run_epoch();
  const std::vector<float> before = trainer.model().logits;
  CHECK_THROWS_WITH_AS(trainer.run_epoch(),
                       "epoch 2: gradient contains NaN or infinity: training diverged (a smaller "
                       "--lr may help)",
                       TrainingDiverged);
  CHECK(trainer.epoch() == 2);
  CHECK(trainer.model().logits == before);  // nothing changed by the epoch that diverged
}

TEST_CASE("the rollout GIF shows twice the trained steps and holds the trained step a second") {
  ExperimentConfig c = testing::small_checkerboard();
  c.steps = 3;
  const CheckerboardTask task(c);
  const testing::ScratchDir scratch;
  const std::string path = (scratch.path / "rollout.gif").string();
  write_rollout_gif(make_model(c), task, path);
  int error = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
  REQUIRE(gif != nullptr);
  REQUIRE(DGifSlurp(gif) == GIF_OK);
  CHECK(gif->ImageCount == 1 + 2 * 3 + 9);  // the start, 6 steps, step 3 nine more times
  DGifCloseFile(gif, &error);
}
