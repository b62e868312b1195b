// Hard circuits: pruning keeps the model's function and follows docs/MODEL.md §11.2; DigitalJS
// export and import round-trip; the exported C (compiled with the system compiler) and Verilog
// (simulated with iverilog) agree with dlca on random inputs, for random models and a freshly
// trained checkerboard.
#include <doctest/doctest.h>

#include "dlca/circuits/circuit.hpp"
#include "dlca/circuits/circuit_export.hpp"
#include "dlca/circuits/digitaljs.hpp"
#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/cell_program.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/trainer.hpp"
#include "export_checks.hpp"
#include "test_helpers.hpp"

using namespace dlca;

namespace {

// The unpruned hard program of a model, evaluated on one cell's patch bits.
std::vector<uint8_t> evaluate_model_cell(const Model& model, const std::vector<uint8_t>& patch) {
  const CellProgram prog = build_cell_program(model);
  const auto ops = hard_ops(model);
  std::vector<uint8_t> row(prog.num_rows, 0);
  std::copy(patch.begin(), patch.end(), row.begin());
  for (const GateOp& g : prog.ops) row[g.out] = hard_op_bit(ops[g.gate], row[g.a], row[g.b]);
  std::vector<uint8_t> next;
  for (uint32_t r : prog.output_rows) next.push_back(row[r]);
  return next;
}

Model random_model(int C, uint64_t key) {
  Model m = make_model(testing::small_config(C, 4, 2, 6, 5, 2, 1, true, false));
  testing::randomize_logits(m, key, 3.0f);
  return m;
}

// Trained once and shared by the tests below.
const Model& trained_checkerboard() {
  static const Model trained = [] {
    Model model = make_model(testing::small_checkerboard());
    CheckerboardTask task(model.config);
    CpuBackend cpu;
    Trainer trainer(std::move(model), task, cpu);
    for (int e = 0; e < 120; ++e) trainer.run_epoch();
    return trainer.model();
  }();
  return trained;
}

}  // namespace

TEST_CASE("pruning keeps the model's function and drops what the outputs do not reach") {
  for (int C : {1, 3}) {
    const Model model = random_model(C, 40 + C);
    const Circuit circuit = prune(model);
    CHECK(circuit.channels == C);
    CHECK(circuit.outputs.size() == size_t(C));
    for (size_t i = 0; i < circuit.gates.size(); ++i) {
      const CircuitGate& g = circuit.gates[i];
      CHECK(g.op != kOpPassA);
      CHECK(g.op != kOpPassB);
      CHECK(g.op != 10);  // NOT B becomes a one-input NOT
      if (gate_arity(g.op) > 0) CHECK(g.a < circuit.num_inputs() + i);  // reads earlier signals
      if (gate_arity(g.op) == 1) CHECK(g.a == g.b);
      CHECK(!g.label.empty());
    }
    // Per channel at most every non-pass gate, so never more than the unpruned program.
    CHECK(circuit.gates.size() <= build_cell_program(model).ops.size());
    for (int trial = 0; trial < 200; ++trial) {
      const auto patch = testing::random_bits(9 * C, 1000 + trial);
      REQUIRE(evaluate_cell(circuit, patch) == evaluate_model_cell(model, patch));
    }
  }
}

TEST_CASE("pruning: pass-through chains are wires, NOT B a NOT, constants stay constants") {
  Model model = make_model(testing::small_config(1, 2, 2, 4, 4, 1, 1, true, false));
  // Every gate is still the pass-through A it was initialised as: the circuit is a wire.
  Circuit wire = prune(model);
  CHECK(wire.gates.empty());
  CHECK(wire.outputs[0] < wire.num_inputs());
  // The last gate becomes NOT B: one NOT reading whatever its B input selects.
  const int last = model.num_gates() - 1;
  std::fill_n(&model.logits[size_t(last) * kNumOps], kNumOps, 0.0f);
  model.logits[size_t(last) * kNumOps + 10] = 10;
  Circuit inverted = prune(model);
  REQUIRE(inverted.gates.size() == 1);
  CHECK(inverted.gates[0].op == kOpNotA);
  CHECK(inverted.outputs[0] == inverted.num_inputs());
  // ... and a constant: no inputs at all.
  model.logits[size_t(last) * kNumOps + 15] = 20;
  Circuit constant = prune(model);
  REQUIRE(constant.gates.size() == 1);
  CHECK(constant.gates[0].op == kOpTrue);
  CHECK(evaluate_cell(constant, std::vector<uint8_t>(9, 0)) == std::vector<uint8_t>{1});
}

TEST_CASE("DigitalJS export and import round-trip") {
  testing::ScratchDir dir;
  for (const Model& model : {random_model(2, 5), trained_checkerboard()}) {
    const Circuit circuit = prune(model);
    write_file_atomically(dir / "c.json", circuit_to_digitaljs(circuit));
    const Circuit back = load_digitaljs(dir / "c.json");
    REQUIRE(back.gates.size() == circuit.gates.size());
    CHECK(back.outputs == circuit.outputs);
    for (size_t i = 0; i < circuit.gates.size(); ++i) {
      CHECK(back.gates[i].op == circuit.gates[i].op);
      CHECK(back.gates[i].label == circuit.gates[i].label);
      CHECK(back.gates[i].layer == circuit.gates[i].layer);
      if (gate_arity(circuit.gates[i].op) > 0) {
        CHECK(back.gates[i].a == circuit.gates[i].a);
        CHECK(back.gates[i].b == circuit.gates[i].b);
      }
    }
  }
}

TEST_CASE("the exported C agrees with dlca: random models, a trained checkerboard") {
  DLCA_SKIP_IF(testing::c_compiler_missing());
  const std::vector<Model> models{random_model(1, 8), random_model(3, 9), trained_checkerboard()};
  for (size_t m = 0; m < models.size(); ++m) {
    CAPTURE(m);
    testing::check_c_export(prune(models[m]), m);
  }
}

TEST_CASE("the exported Verilog agrees with dlca: random models, a trained checkerboard") {
  DLCA_SKIP_IF(testing::iverilog_missing());
  const std::vector<Model> models{random_model(1, 8), random_model(3, 9), trained_checkerboard()};
  for (size_t m = 0; m < models.size(); ++m) {
    CAPTURE(m);
    testing::check_verilog_export(prune(models[m]), m);
  }
}
