// The Vulkan backend's plan tables and buffer sizes, computed on the CPU (no device needed): the
// levels cover the program's ops in order, every row's consumer list and every gate's op list are
// exactly the program's, and every binding gets a size from its own formula.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "backend_checks.hpp"
#include "dlca/core/config.hpp"
#include "dlca/core/model.hpp"
#include "test_helpers.hpp"
#include "vulkan/fused_tables.hpp"
#include "vulkan/population_program.hpp"
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
  const FusedTables fused = make_fused_tables(prog, t);
  const auto sync = binding_bytes(t, fused, shape);
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
  CHECK(binding_bytes(t, fused, shape)[kMasks] == 20 * 256);  // a byte per cell and step
  CHECK(sync[kFusedInfo] == 16);  // the fused tables only for a fused plan
  shape.fused = true;
  const auto fused_sizes = binding_bytes(t, fused, shape);
  CHECK(fused_sizes[kFusedOps] == fused.forward_ops.size() * 4);
  CHECK(fused_sizes[kFusedInfo] == fused.info.size() * 4);
  CHECK(fused_sizes[kSlots] == 16);  // gradients stay in shared memory
}

namespace {

// One cell through the fused kernels' phases as the shaders run them, with shared slots, each
// phase's items in the given order (a slot shared within a phase would make the orders differ):
// the output rows' values, the patch rows' gradients and each op's sums (g, g a, g b, g a b) for
// the output gradients `dy`. Coefficients: 4 per gate.
struct FusedCellResult {
  std::vector<double> outputs, patch_gradients, sums;
};
FusedCellResult run_fused_cell(const CellProgram& prog, const FusedTables& f,
                               const std::vector<double>& coefficients,
                               const std::vector<double>& patch, const std::vector<double>& dy,
                               bool reversed) {
  const uint32_t C = uint32_t(prog.channels), L = f.info[0];
  const auto slot_table = [&](uint32_t offset) { return &f.info[1 + 4 * L + offset]; };
  const uint32_t* patch_slot = slot_table(0);
  const uint32_t* output_slot = slot_table(9 * C);
  const uint32_t* patch_gradient_slot = slot_table(10 * C);
  const uint32_t* output_gradient_slot = slot_table(19 * C);
  const auto each = [&](uint32_t count, auto&& body) {
    for (uint32_t k = 0; k < count; ++k) body(reversed ? count - 1 - k : k);
  };
  const auto gate = [&](uint32_t g, double a, double b) {
    const double* c = &coefficients[4 * g];
    return c[0] + c[1] * a + c[2] * b + c[3] * a * b;
  };
  std::vector<double> shared(std::max(f.forward_slots, f.backward_slots), NAN);
  std::vector<double> rows(prog.num_rows, NAN);  // the activations kept in device memory
  each(9 * C, [&](uint32_t r) { shared[patch_slot[r]] = rows[r] = patch[r]; });
  for (uint32_t l = 0; l < L; ++l) {
    const uint32_t* level = &f.info[1 + 4 * l];
    each(level[1], [&](uint32_t k) {
      const uint32_t* op = &f.forward_ops[4 * (level[0] + k)];
      shared[op[2]] = rows[prog.ops[level[0] + k].out] = gate(op[3], shared[op[0]], shared[op[1]]);
    });
  }
  FusedCellResult out;
  for (uint32_t c = 0; c < C; ++c) out.outputs.push_back(shared[output_slot[c]]);
  std::fill(shared.begin(), shared.end(), NAN);
  each(C, [&](uint32_t c) { shared[output_gradient_slot[c]] = dy[c]; });
  out.sums.assign(4 * prog.ops.size(), 0.0);
  for (uint32_t l = L; l-- > 0;) {
    const uint32_t* level = &f.info[1 + 4 * l];
    each(level[1], [&](uint32_t k) {
      const uint32_t o = level[0] + k, *op = &f.backward_ops[4 * o];
      const double g = op[2] == kNoSlot ? 0 : shared[op[2]], a = rows[op[0]], b = rows[op[1]];
      out.sums[4 * o] += g;
      out.sums[4 * o + 1] += g * a;
      out.sums[4 * o + 2] += g * b;
      out.sums[4 * o + 3] += g * a * b;
    });
    each(level[3] - level[2], [&](uint32_t k) {
      const uint32_t* entry = &f.gather[4 * (level[2] + k)];
      double d = entry[1] ? 0.0 : shared[entry[0]];
      for (uint32_t e = entry[2]; e < entry[3]; ++e) {
        const uint32_t* op = &f.backward_ops[4 * (f.info[e] >> 1)];
        const double g = op[2] == kNoSlot ? 0 : shared[op[2]], *c = &coefficients[4 * op[3]];
        d += (f.info[e] & 1) == 0 ? g * (c[1] + c[3] * rows[op[1]])
                                  : g * (c[2] + c[3] * rows[op[0]]);
      }
      shared[entry[0]] = d;
    });
  }
  for (uint32_t r = 0; r < 9 * C; ++r)
    out.patch_gradients.push_back(
        patch_gradient_slot[r] == kNoSlot ? 0.0 : shared[patch_gradient_slot[r]]);
  return out;
}

// The same with every row in its own place: the plain forward and reverse passes.
FusedCellResult run_plain_cell(const CellProgram& prog, const std::vector<double>& coefficients,
                               const std::vector<double>& patch, const std::vector<double>& dy) {
  std::vector<double> rows(prog.num_rows, 0.0), grad(prog.num_rows, 0.0);
  std::copy(patch.begin(), patch.end(), rows.begin());
  for (const GateOp& op : prog.ops) {
    const double* c = &coefficients[4 * op.gate];
    rows[op.out] = c[0] + c[1] * rows[op.a] + c[2] * rows[op.b] + c[3] * rows[op.a] * rows[op.b];
  }
  FusedCellResult out;
  for (size_t c = 0; c < prog.output_rows.size(); ++c) {
    out.outputs.push_back(rows[prog.output_rows[c]]);
    grad[prog.output_rows[c]] += dy[c];
  }
  out.sums.assign(4 * prog.ops.size(), 0.0);
  for (size_t o = prog.ops.size(); o-- > 0;) {
    const GateOp& op = prog.ops[o];
    const double g = grad[op.out], a = rows[op.a], b = rows[op.b], *c = &coefficients[4 * op.gate];
    out.sums[4 * o] = g;
    out.sums[4 * o + 1] = g * a;
    out.sums[4 * o + 2] = g * b;
    out.sums[4 * o + 3] = g * a * b;
    grad[op.a] += g * (c[1] + c[3] * b);
    grad[op.b] += g * (c[2] + c[3] * a);
  }
  out.patch_gradients.assign(grad.begin(), grad.begin() + long(9 * prog.channels));
  return out;
}

}  // namespace

TEST_CASE("fused kernels' shared slots give the plain program's values and gradients") {
  for (const ExperimentConfig& cfg :
       {checkerboard_sync_config(), testing::small_config(3, 2, 2, 5, 7, 4, 3, true, true),
        testing::random_wiring_config()}) {
    CAPTURE(cfg.name);
    const Model model = make_model(cfg);
    const CellProgram prog = build_cell_program(model);
    const FusedTables f = make_fused_tables(prog, make_program_tables(prog, model));
    MESSAGE(cfg.name, ": rows ", prog.num_rows, ", forward slots ", f.forward_slots,
            ", backward slots ", f.backward_slots);
    // Slots are reused: far fewer than rows for the paper's programs.
    CHECK(f.forward_slots <= prog.num_rows);
    CHECK(f.backward_slots <= prog.num_rows);
    if (cfg.name == checkerboard_sync_config().name) {
      CHECK(f.forward_slots < prog.num_rows / 2);
      CHECK(f.backward_slots < prog.num_rows / 2);
    }
    std::mt19937 random(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const auto draw = [&](size_t n) {
      std::vector<double> v(n);
      for (double& x : v) x = unit(random);
      return v;
    };
    const auto coefficients = draw(4 * size_t(model.num_gates()));
    const auto patch = draw(9 * size_t(cfg.channels));
    const auto dy = draw(size_t(cfg.channels));
    const FusedCellResult plain = run_plain_cell(prog, coefficients, patch, dy);
    for (bool reversed : {false, true}) {
      const FusedCellResult fused = run_fused_cell(prog, f, coefficients, patch, dy, reversed);
      const auto close = [](const std::vector<double>& x, const std::vector<double>& y) {
        if (x.size() != y.size()) return false;
        for (size_t i = 0; i < x.size(); ++i)
          if (!(std::abs(x[i] - y[i]) <= 1e-9 * (1 + std::abs(y[i])))) return false;
        return true;
      };
      CHECK(close(fused.outputs, plain.outputs));
      CHECK(close(fused.patch_gradients, plain.patch_gradients));
      CHECK(close(fused.sums, plain.sums));
    }
  }
}

TEST_CASE("fused tables refuse a program that reads a row before it is written") {
  const Model model = make_model(testing::small_config(3, 2, 2, 5, 7, 4, 3, true, true));
  CellProgram prog = build_cell_program(model);
  const ProgramTables t = make_program_tables(prog, model);
  prog.ops.front().a = prog.ops.back().out;
  CHECK_THROWS_AS(make_fused_tables(prog, t), std::invalid_argument);
  CHECK(fused_tile(100, 32768, 64) == 64);
  CHECK(fused_tile(1000, 32768, 64) == 8);
  CHECK(fused_tile(9000, 32768, 64) == 0);
}

namespace {

// Runs a program on one cell with boolean gates (gate g computes the op whose truth table is the
// 4 bits of g mod 16) from the given patch rows; returns every row.
std::vector<uint8_t> run_boolean(const CellProgram& prog, const std::vector<uint8_t>& patches) {
  std::vector<uint8_t> rows(prog.num_rows, 0);
  std::copy(patches.begin(), patches.end(), rows.begin());
  for (const GateOp& op : prog.ops)
    rows[op.out] = uint8_t(((op.gate % 16) >> (rows[op.a] * 2 + rows[op.b])) & 1);
  return rows;
}

}  // namespace

TEST_CASE("a population's merged program gives each candidate what its own program gives") {
  // Three candidates of the small checkerboard (their own wirings): the merged program over 3 x C
  // channels, run on one cell with random patches per candidate, ends with each candidate's
  // output rows equal to its own program's; its tables have every level, channel, gate and loss
  // channel three times, and the buffers that hold per-candidate results grow with it.
  const ExperimentConfig run = testing::small_checkerboard();
  std::vector<Model> models;
  for (int k = 0; k < 3; ++k) {
    ExperimentConfig c = run;
    c.seed = 100 + uint64_t(k);
    models.push_back(make_model(c));
  }
  const std::vector<const Model*> members = {&models[0], &models[1], &models[2]};
  const CellProgram merged = population_program(members);
  const int C = run.channels, K = 3;
  REQUIRE(merged.channels == K * C);
  REQUIRE(merged.output_rows.size() == size_t(K * C));
  std::mt19937 random(7);
  std::vector<uint8_t> all_patches(size_t(9 * K * C));
  for (auto& v : all_patches) v = uint8_t(random() & 1);
  const std::vector<uint8_t> merged_rows = run_boolean(merged, all_patches);
  for (int k = 0; k < K; ++k) {
    CAPTURE(k);
    const CellProgram own = build_cell_program(models[size_t(k)]);
    std::vector<uint8_t> own_patches(all_patches.begin() + 9 * k * C,
                                     all_patches.begin() + 9 * (k + 1) * C);
    // Gate indices are offset by k G in the merged program: the boolean stand-in must see the
    // same op, so run the candidate's own program with its gates shifted alike.
    CellProgram shifted = own;
    for (GateOp& op : shifted.ops) op.gate += uint32_t(k * models[0].num_gates());
    const std::vector<uint8_t> own_rows = run_boolean(shifted, own_patches);
    for (int c = 0; c < C; ++c)
      CHECK(merged_rows[merged.output_rows[size_t(k * C + c)]] == own_rows[own.output_rows[c]]);
  }
  const ProgramTables one = make_program_tables(build_cell_program(models[0]), models[0]);
  const ProgramTables three = make_program_tables(merged, models[0], K);
  REQUIRE(three.levels.size() == one.levels.size());
  for (size_t l = 0; l < one.levels.size(); ++l)
    CHECK(three.levels[l].second == 3 * one.levels[l].second);
  CHECK(three.perception_trees == 3 * one.perception_trees);
  const size_t G = size_t(models[0].num_gates());
  CHECK(three.gate_ops.size() - (3 * G + 1) == 3 * (one.gate_ops.size() - (G + 1)));
  CHECK(three.program_info[size_t(K * C)] == 3 * run.loss_channels.size());
  PlanShape shape{.num_gates = 3 * uint64_t(models[0].num_gates()),
                  .num_ops = merged.ops.size(),
                  .num_rows = merged.num_rows,
                  .steps = 4,
                  .state_size = 64 * 3 * 4,
                  .cells = 64,
                  .plane = 64,
                  .channels = 12,
                  .candidates = 3,
                  .async = true,
                  .chunk_cells = 64,
                  .blocks = 1,
                  .loss_groups = 1};
  const auto bytes = binding_bytes(three, FusedTables{}, shape);
  CHECK(bytes[kTrainResults] == 2 * 3 * 4);  // 2 words a candidate
  CHECK(bytes[kLossPartials] == 2 * 3 * 4);
  CHECK(bytes[kMasks] == 4 * 3 * 64);  // [step][candidate][cell] bytes
}
