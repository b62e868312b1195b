// The Vulkan big-grid simulator against the CPU's BitGrid, under the validation layer: random
// circuits on grid sizes that are not whole words (and wider than one word), both boundaries,
// synchronous and asynchronous steps with the same keys, damage, live counts and target errors,
// with the shader generated for the circuit and with the interpreting one.
#include <doctest/doctest.h>

#include <cstdlib>

#include <fmt/format.h>

#include "dlca/core/random.hpp"
#include "dlca/train/evaluation.hpp"
#include "dlca/vulkan/vulkan_grid.hpp"
#include "optional_parts.hpp"
#include "test_helpers.hpp"
#include "vulkan/glsl_compiler.hpp"
#include "vulkan/grid_shader_source.hpp"
#include "vulkan_driver.hpp"

using namespace dlca;

namespace {

// Runs the same steps on the CPU and on the device with `shader`; every state, count and error
// must agree.
void check_against_bit_grid(const Circuit& circuit, GridShader shader, int height, int width,
                            bool periodic, bool async, uint64_t seed) {
  auto cpu = make_cpu_grid(circuit, interpreted_kernel(circuit), height, width, periodic);
  VulkanGrid gpu(circuit, height, width, periodic, 0, true, shader);
  CHECK(gpu.generated_shader() == (shader == GridShader::kGenerated));
  const int C = circuit.channels;
  const auto init = testing::random_bits(size_t(C) * height * width, seed + 11);
  const auto target = testing::random_bits(size_t(height) * width, seed + 12);
  for (SimulationGrid* grid : {cpu.get(), static_cast<SimulationGrid*>(&gpu)}) {
    grid->set_planes(init);
    grid->set_targets(target);
  }
  CHECK(gpu.planes() == cpu->planes());
  for (int step = 0; step < 6; ++step) {
    CAPTURE(step);
    for (SimulationGrid* grid : {cpu.get(), static_cast<SimulationGrid*>(&gpu)}) {
      if (async)
        grid->step_async(0.6, derive_key(seed + 5, uint64_t(step)));
      else
        grid->step();
      if (step == 2) grid->zero_rectangle(1, 2, 3, 40);
    }
    REQUIRE(gpu.planes() == cpu->planes());
    for (int c = 0; c < C; ++c) CHECK(gpu.count(c) == cpu->count(c));
    CHECK(gpu.error() == cpu->error());
  }
  CHECK(gpu.validation_errors() == 0);
}

}  // namespace

TEST_CASE("VulkanGrid steps exactly like BitGrid, generated and interpreted") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  struct Size {
    int height, width;
  };
  for (const GridShader shader : {GridShader::kGenerated, GridShader::kInterpreted}) {
    if (shader == GridShader::kGenerated && !glsl_compiler_built()) continue;
    for (const Size size : {Size{7, 5}, Size{9, 33}, Size{5, 64}, Size{12, 71}})
      for (const bool periodic : {true, false})
        for (const bool async : {false, true}) {
          CAPTURE(int(shader));
          CAPTURE(size.height);
          CAPTURE(size.width);
          CAPTURE(periodic);
          CAPTURE(async);
          Model m = make_model(testing::small_config(2, 4, 2, 6, 5, 2, 1, true, false));
          testing::randomize_logits(m, uint64_t(size.width * 7 + periodic), 3.0f);
          check_against_bit_grid(prune(m), shader, size.height, size.width, periodic, async, 0);
        }
  }
}

TEST_CASE("VulkanGrid queues steps and damage until read, across several submissions") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  // 800 steps with damage on every 7th, nothing read in between: finish() after 300, then more
  // passes than one submission holds (512): the queue is submitted on its own once, and reading
  // the planes submits the rest.
  Model m = make_model(testing::small_config(2, 4, 2, 6, 5, 2, 1, true, false));
  testing::randomize_logits(m, 3, 3.0f);
  const Circuit circuit = prune(m);
  const int height = 9, width = 40;
  auto cpu = make_cpu_grid(circuit, interpreted_kernel(circuit), height, width, true);
  VulkanGrid gpu(circuit, height, width, true, 0, true, GridShader::kInterpreted);
  const auto init = testing::random_bits(size_t(circuit.channels) * height * width, 41);
  for (SimulationGrid* grid : {cpu.get(), static_cast<SimulationGrid*>(&gpu)}) {
    grid->set_planes(init);
    for (int step = 0; step < 800; ++step) {
      grid->step_async(0.5, derive_key(43, uint64_t(step)));
      if (step % 7 == 0) grid->zero_rectangle(step % height, step % width, 2, 3);
      if (step == 300) grid->finish();
    }
  }
  CHECK(gpu.planes() == cpu->planes());
  for (int c = 0; c < circuit.channels; ++c) CHECK(gpu.count(c) == cpu->count(c));
  CHECK(gpu.validation_errors() == 0);
}

TEST_CASE("The generated grid shader: every op, outputs that are inputs, unused channels") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  if (!glsl_compiler_built()) {
    CHECK_THROWS_WITH_AS(compile_compute_shader("void main() {}"),
                         doctest::Contains("without the glslang library"), std::runtime_error);
    return;
  }
  // Three channels; channel 2 is never read; a gate of every op a pruned circuit has (constants
  // without inputs, NOT of one input); channel 1's output is a patch input, channel 2's the
  // constant-1 gate.
  Circuit circuit;
  circuit.channels = 3;
  const uint32_t inputs = circuit.num_inputs();
  const auto gate = [](uint8_t op, uint32_t a, uint32_t b) {
    CircuitGate g;
    g.op = op;
    g.a = a;
    g.b = b;
    return g;
  };
  for (const uint8_t op : {0, 1, 2, 4, 6, 7, 8, 9, 11, 12, 13, 14, 15}) {
    const uint32_t a = (op * 7u + 1u) % 18u, b = op == 12 ? a : (op * 5u + 3u) % 18u;
    if (op == 0 || op == 15)
      circuit.gates.push_back(gate(op, 0, 0));
    else
      circuit.gates.push_back(gate(op, a, b));
  }
  const uint32_t gates = uint32_t(circuit.gates.size());
  circuit.gates.push_back(gate(6, inputs + 4, inputs + 9));
  circuit.gates.push_back(gate(14, inputs + 1, inputs + gates));
  circuit.outputs = {inputs + gates + 1, 4, inputs + gates - 1};
  const std::string source = grid_step_source(circuit);
  CHECK(source.find("words2") == std::string::npos);
  CHECK(source.find(fmt::format("const uint g{} = 0xFFFFFFFFu;", gates - 1)) != std::string::npos);
  for (const bool async : {false, true})
    for (const bool periodic : {false, true}) {
      CAPTURE(async);
      CAPTURE(periodic);
      check_against_bit_grid(circuit, GridShader::kGenerated, 10, 45, periodic, async, 3);
    }
  // Many channels: the patches are loaded, and the words stored, by loops.
  Model wide = make_model(testing::small_config(20, 2, 2, 6, 5, 2, 1, true, false));
  testing::randomize_logits(wide, 41, 3.0f);
  const Circuit many = prune(wide);
  REQUIRE(many.channels == 20);
  const std::string many_source = grid_step_source(many);
  CHECK(many_source.find("load_patch(read_channels[k], y, w, words[k])") != std::string::npos);
  CHECK(many_source.find("for (uint c = 0u; c < 20u; ++c) store_word") != std::string::npos);
  check_against_bit_grid(many, GridShader::kGenerated, 9, 35, true, true, 5);
  CHECK_THROWS_WITH_AS(compile_compute_shader("#version 450\nvoid main() { undeclared = 1; }"),
                       doctest::Contains("glslang: "), std::runtime_error);
}

TEST_CASE("DLCA_VULKAN_GENERATED=0 makes the device interpret circuits") {
  DLCA_SKIP_IF(testing::vulkan_missing());
  Model m = make_model(testing::small_config(1, 3, 2, 4, 3, 2, 1, true, false));
  const Circuit circuit = prune(m);
  setenv("DLCA_VULKAN_GENERATED", "0", 1);
  VulkanGrid grid(circuit, 8, 8, true, 0, true);
  unsetenv("DLCA_VULKAN_GENERATED");
  CHECK_FALSE(grid.generated_shader());
  CHECK(grid.shader_note() == "DLCA_VULKAN_GENERATED=0");
  CHECK(grid.name().find("interpreting") != std::string::npos);
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
