// The Vulkan big-grid simulator against the CPU's BitGrid, under the validation layer: random
// circuits on grid sizes that are not whole words (and wider than one word), both boundaries,
// synchronous and asynchronous steps with the same keys, damage, live counts and target errors.
#include <doctest/doctest.h>

#include "dlca/core/random.hpp"
#include "dlca/train/evaluation.hpp"
#include "dlca/vulkan/vulkan_grid.hpp"
#include "optional_parts.hpp"
#include "test_helpers.hpp"
#include "vulkan_driver.hpp"

using namespace dlca;

TEST_CASE("VulkanGrid steps exactly like BitGrid") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  struct Size {
    int height, width;
  };
  for (const Size size : {Size{7, 5}, Size{9, 33}, Size{5, 64}, Size{12, 71}})
    for (const bool periodic : {true, false})
      for (const bool async : {false, true}) {
        CAPTURE(size.height);
        CAPTURE(size.width);
        CAPTURE(periodic);
        CAPTURE(async);
        Model m = make_model(testing::small_config(2, 4, 2, 6, 5, 2, 1, true, false));
        testing::randomize_logits(m, uint64_t(size.width * 7 + periodic), 3.0f);
        const Circuit circuit = prune(m);
        auto cpu =
            make_cpu_grid(circuit, interpreted_kernel(circuit), size.height, size.width, periodic);
        VulkanGrid gpu(circuit, size.height, size.width, periodic, 0, true);
        const auto init = testing::random_bits(size_t(2) * size.height * size.width, 11);
        const auto target = testing::random_bits(size_t(size.height) * size.width, 12);
        for (SimulationGrid* grid : {cpu.get(), static_cast<SimulationGrid*>(&gpu)}) {
          grid->set_planes(init);
          grid->set_targets(target);
        }
        CHECK(gpu.planes() == cpu->planes());
        for (int step = 0; step < 6; ++step) {
          CAPTURE(step);
          for (SimulationGrid* grid : {cpu.get(), static_cast<SimulationGrid*>(&gpu)}) {
            if (async)
              grid->step_async(0.6, derive_key(5, uint64_t(step)));
            else
              grid->step();
            if (step == 2) grid->zero_rectangle(1, 2, 3, 40);
          }
          REQUIRE(gpu.planes() == cpu->planes());
          CHECK(gpu.count(0) == cpu->count(0));
          CHECK(gpu.count(1) == cpu->count(1));
          CHECK(gpu.error() == cpu->error());
        }
        CHECK(gpu.validation_errors() == 0);
      }
}

TEST_CASE("The evaluation suite gives the same errors on a Vulkan device") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  ExperimentConfig c = testing::small_checkerboard();
  Model m = make_model(c);
  m.task = TrainedTask(TaskKind::kCheckerboard);  // evaluation targets need a checkerboard model
  testing::randomize_logits(m, 9, 3.0f);
  for (const bool periodic : {false, true}) {
    m.config.periodic = periodic;
    EvaluationSettings s;
    s.size = 21;
    s.steps = 12;
    for (const int mode : {0, 1, 2}) {  // fault (sync), robustness (async, random squares), heal
      CAPTURE(periodic);
      CAPTURE(mode);
      s.async = mode == 1;
      s.block = mode == 1 ? 0 : 6;
      s.block_steps = mode == 2 ? 5 : -1;
      s.random_square = mode == 1 ? 4 : 0;
      s.vulkan = false;
      const auto on_cpu = evaluate(m, s);
      s.vulkan = true;
      CHECK(evaluate(m, s) == on_cpu);
    }
  }
}
