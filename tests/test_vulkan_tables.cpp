// The Vulkan backend's plan tables and buffer sizes, computed on the CPU (no device needed): the
// levels cover the program's ops in order, every row's consumer list and every gate's op list are
// exactly the program's, and every binding gets a size from its own formula.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "dlca/core/config.hpp"
#include "dlca/core/model.hpp"
#include "test_helpers.hpp"
#include "vulkan/program_tables.hpp"

using namespace dlca;
using namespace dlca::vulkan_layout;

TEST_CASE("Vulkan program tables describe the cell program exactly") {
  for (const ExperimentConfig& cfg :
       {checkerboard_sync_config(), testing::small_config(3, 2, 2, 5, 7, 4, 3, true, true)}) {
    const Model model = make_model(cfg);
    const CellProgram prog = build_cell_program(model);
    const ProgramTables t = make_program_tables(prog, model);
    CAPTURE(cfg.name);
    // Levels: consecutive, covering every op; the perception network's first.
    uint32_t next = 0;
    for (const auto& [first, count] : t.levels) {
      CHECK(first == next);
      next += count;
    }
    CHECK(next == prog.ops.size());
    CHECK(t.perception_levels == model.perception_layers.size());
    CHECK(t.levels.size() == model.perception_layers.size() + model.update_layers.size());
    CHECK(t.perception_trees == uint32_t(cfg.kernels * cfg.channels));
    // Ops as words; each row's readers are exactly the ops reading it (2o: as A, 2o+1: as B).
    REQUIRE(t.op_words.size() == 4 * prog.ops.size());
    REQUIRE(t.row_ranges.size() == 2 * size_t(prog.num_rows));
    CHECK(t.consumers.size() == 2 * prog.ops.size());
    for (uint32_t row = 0; row < prog.num_rows; ++row) {
      std::multiset<uint32_t> listed(t.consumers.begin() + t.row_ranges[2 * row],
                                     t.consumers.begin() + t.row_ranges[2 * row + 1]),
          expected;
      for (uint32_t o = 0; o < prog.ops.size(); ++o) {
        CHECK(t.op_words[4 * o + 2] == prog.ops[o].out);
        if (prog.ops[o].a == row) expected.insert(2 * o);
        if (prog.ops[o].b == row) expected.insert(2 * o + 1);
      }
      CHECK(listed == expected);
    }
    // Each gate's ops: the offsets count from the start of the table.
    const int gates = model.num_gates();
    REQUIRE(t.gate_ops.size() == size_t(gates) + 1 + prog.ops.size());
    size_t listed_ops = 0;
    for (int g = 0; g < gates; ++g)
      for (uint32_t i = t.gate_ops[size_t(g)]; i < t.gate_ops[size_t(g) + 1]; ++i, ++listed_ops)
        CHECK(prog.ops[t.gate_ops[i]].gate == uint32_t(g));
    CHECK(listed_ops == prog.ops.size());
    // Program info: output rows, loss channels, perception layers.
    REQUIRE(t.program_info.size() >= size_t(cfg.channels) + 1);
    CHECK(std::equal(prog.output_rows.begin(), prog.output_rows.end(), t.program_info.begin()));
    CHECK(t.program_info[size_t(cfg.channels)] == cfg.loss_channels.size());
  }
}

TEST_CASE("Vulkan program tables refuse a program of another model") {
  const Model model = make_model(checkerboard_sync_config());
  const Model other = make_model(testing::small_config(3, 2, 2, 5, 7, 4, 3, true, true));
  CHECK_THROWS_AS(make_program_tables(build_cell_program(other), model), std::invalid_argument);
}

TEST_CASE("every Vulkan binding gets its size") {
  const Model model = make_model(checkerboard_sync_config());
  const CellProgram prog = build_cell_program(model);
  const ProgramTables t = make_program_tables(prog, model);
  PlanShape shape{.num_gates = uint64_t(model.num_gates()),
                  .num_ops = prog.ops.size(),
                  .num_rows = prog.num_rows,
                  .steps = 20,
                  .state_size = 3 * 256,
                  .cells = 256,
                  .plane = 256,
                  .channels = 3,
                  .async = false,
                  .chunk_cells = 256,
                  .blocks = 1,
                  .loss_groups = 1};
  const auto sync = binding_bytes(t, shape);
  for (uint32_t b = 0; b < kBindingCount; ++b) {
    CAPTURE(kBindingNames[b].shown);
    CHECK(sync[b] >= 16);
    CHECK(sync[b] % 4 == 0);
  }
  CHECK(sync[kActivations] == uint64_t(prog.num_rows) * 256 * 4);
  CHECK(sync[kStates] == 23 * 3 * 256 * 4);
  CHECK(sync[kMasks] == 16);  // none for a synchronous plan
  CHECK(sync[kMoments] == 2 * sync[kLogits]);
  shape.async = true;
  CHECK(binding_bytes(t, shape)[kMasks] == 20 * 256);  // a byte per cell and step
}
