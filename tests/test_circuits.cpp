// Hard circuits: pruning keeps the model's function and follows docs/MODEL.md §11.2; DigitalJS
// export and import round-trip; the exported C (compiled with the system compiler) and Verilog
// (simulated with iverilog) and DigitalJS (run in the real DigitalJS under node) agree with dlca
// on random inputs, for random models and trained checkerboards.
#include <doctest/doctest.h>

#include "dlca/circuits/circuit.hpp"
#include "dlca/circuits/circuit_export.hpp"
#include "dlca/circuits/digitaljs.hpp"
#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/cell_program.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/model_file.hpp"
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

TEST_CASE("DigitalJS export and import round-trip, stock and paper formats") {
  testing::ScratchDir dir;
  for (const Model& model : {random_model(2, 5), trained_checkerboard()})
    for (const DigitalJsFormat format : {DigitalJsFormat::stock, DigitalJsFormat::paper}) {
      CAPTURE(int(format));
      const Circuit circuit = prune(model);
      const std::string text = circuit_to_digitaljs(circuit, format);
      // Only stock DigitalJS's types in the stock format; no stock Constant in the paper's.
      if (format == DigitalJsFormat::stock)
        for (const char* type : {"AAndNotB", "NotAAndB", "AOrNotB", "NotAOrB", "True", "False"})
          CHECK(text.find(fmt::format("\"type\": \"{}\"", type)) == std::string::npos);
      else
        CHECK(text.find("\"type\": \"Constant\"") == std::string::npos);
      write_file_atomically(dir / "c.json", text);
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

TEST_CASE("the DigitalJS export opens in the real DigitalJS and agrees with dlca") {
  DLCA_SKIP_IF(testing::digitaljs_missing());
  const std::vector<Model> models{
      random_model(1, 8), random_model(3, 9), trained_checkerboard(),
      load_model(DLCA_SOURCE_DIR "/tests/data/model_v2_checkerboard.json")};
  for (size_t m = 0; m < models.size(); ++m) {
    CAPTURE(m);
    testing::check_digitaljs_in_node(prune(models[m]), m);
  }
}

TEST_CASE("DigitalJS import: stock Constants, and only the stock export's own Nots folded") {
  testing::ScratchDir dir;
  // o_0 = AND(NOT i_0, i_1) with the Not named `not_id`; o_1 = the constant 1; o_2 = i_18, or the
  // Not's output when it drives o_2 as well.
  const auto load = [&](const std::string& not_id, bool not_drives_o2) {
    const auto wire = [](const std::string& from, const std::string& to, const char* port) {
      return fmt::format(
          R"({{"from": {{"id": "{}", "port": "out"}}, "to": {{"id": "{}", "port": "{}"}}}})", from,
          to, port);
    };
    const std::string text = fmt::format(
        R"({{"devices": {{"i_0": {{"type": "Button"}}, "i_1": {{"type": "Button"}},
          "i_18": {{"type": "Button"}}, "{0}": {{"type": "Not"}}, "g": {{"type": "And"}},
          "k": {{"type": "Constant", "constant": "1"}}, "o_0": {{"type": "Output"}},
          "o_1": {{"type": "Output"}}, "o_2": {{"type": "Output"}}}},
          "connectors": [{1}, {2}, {3}, {4}, {5}, {6}]}})",
        not_id, wire("i_0", not_id, "in"), wire(not_id, "g", "in1"), wire("i_1", "g", "in2"),
        wire("g", "o_0", "in"), wire("k", "o_1", "in"),
        wire(not_drives_o2 ? not_id : "i_18", "o_2", "in"));
    write_file_atomically(dir / "c.json", text);
    return load_digitaljs(dir / "c.json");
  };
  const Circuit folded = load("g_in1_not", false);
  REQUIRE(folded.gates.size() == 2);
  CHECK(folded.gates[0].op == 4);  // NOT A AND B
  CHECK(folded.gates[0].a == 0);
  CHECK(folded.gates[0].b == 1);
  CHECK(folded.gates[1].op == kOpTrue);
  // A Not named otherwise, or driving more than its gate's input, is a gate of its own.
  for (const auto& [id, fans_out] : {std::pair{"n", false}, std::pair{"g_in1_not", true}}) {
    CAPTURE(id);
    const Circuit kept = load(id, fans_out);
    REQUIRE(kept.gates.size() == 3);
    CHECK(kept.gates[0].op == kOpNotA);
    CHECK(kept.gates[1].op == 1);  // AND
    for (int i0 : {0, 1})
      for (int i1 : {0, 1}) {
        std::vector<uint8_t> patch(27, 0);
        patch[0] = uint8_t(i0), patch[1] = uint8_t(i1), patch[18] = 1;
        const std::vector<uint8_t> want{uint8_t(!i0 && i1), 1, uint8_t(fans_out ? !i0 : 1)};
        CHECK(evaluate_cell(kept, patch) == want);
        CHECK(evaluate_cell(folded, patch)[0] == want[0]);
      }
  }
}
