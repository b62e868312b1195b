// The circuits published with the paper (docs/MODEL.md §12; in the folder DLCA_ORACLES_DIR names),
// imported from DigitalJS and run on the bit-sliced simulator: gol_circuit.json is Conway's
// rule exactly; checkerboard.json grows the checkerboard from random states on 16x16 and 64x64.
// dlca's DigitalJS export of them runs in the real DigitalJS. Without the published files these
// tests skip. Also: malformed DigitalJS files are refused.
#include <doctest/doctest.h>

#include "dlca/circuits/bit_grid.hpp"
#include "dlca/circuits/digitaljs.hpp"
#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/random.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/train/checkerboard.hpp"
#include "dlca/train/evaluation.hpp"
#include "dlca/train/game_of_life.hpp"
#include "export_checks.hpp"

using namespace dlca;

namespace {

const char* const kPublished[] = {"gol_circuit.json", "checkerboard.json"};

std::string published(const char* name) { return std::string(DLCA_ORACLES_DIR) + "/" + name; }

std::string published_missing() {
  for (const char* name : kPublished)
    if (std::string reason = testing::file_missing(published(name)); !reason.empty())
      return "published circuits not found: " + reason;
  return {};
}

}  // namespace

TEST_CASE("the published Game of Life circuit computes Conway's rule exactly") {
  DLCA_SKIP_IF(published_missing());
  const Circuit circuit = load_digitaljs(published("gol_circuit.json"));
  CHECK(circuit.gates.size() == 223);  // docs/MODEL.md §12
  CHECK(circuit.channels == 1);
  const CircuitProgram gol = to_program(circuit);
  CHECK(life_neighbourhoods_correct(gol.program, gol.ops) == 512);
  // A random 256x256 torus for 100 steps against the exact rule.
  CHECK(life_wrong_cells(gol.program, gol.ops, 256, 100, 77) == 0);
}

TEST_CASE("the published checkerboard circuit grows the checkerboard on 16x16 and 64x64") {
  DLCA_SKIP_IF(published_missing());
  const Circuit circuit = load_digitaljs(published("checkerboard.json"));
  CHECK(circuit.gates.size() == 6);  // 3 OR, 1 AND, 1 AAndNotB, 1 NOT (docs/MODEL.md §12)
  CHECK(circuit.channels == 8);
  const CircuitProgram cb = to_program(circuit);
  for (auto [size, steps] : {std::pair{16, 20}, std::pair{64, 80}}) {
    CAPTURE(size);
    const GridGeometry geo = make_grid_geometry(1, size, size, 8, false);
    const Target target = checkerboard_target(1, size, size);
    for (int trial = 0; trial < 5; ++trial) {
      BitGrid sim(cb.program, cb.ops, geo);
      std::vector<uint8_t> state(8 * size * size);
      for (size_t i = 0; i < state.size(); ++i)
        state[i] = uniform01(derive_key(size, trial), i) < 0.5f;
      sim.set_state(state.data());
      for (int s = 0; s < steps; ++s) sim.step();
      CHECK(sim.loss(target, {0}) == 0);
    }
  }
}

TEST_CASE("the published circuits' C export agrees with dlca") {
  DLCA_SKIP_IF(published_missing());
  DLCA_SKIP_IF(testing::c_compiler_missing());
  for (const char* name : kPublished) {
    CAPTURE(name);
    testing::check_c_export(load_digitaljs(published(name)), 3);
  }
}

TEST_CASE("the published circuits' Verilog export agrees with dlca") {
  DLCA_SKIP_IF(published_missing());
  DLCA_SKIP_IF(testing::iverilog_missing());
  for (const char* name : kPublished) {
    CAPTURE(name);
    testing::check_verilog_export(load_digitaljs(published(name)), 4);
  }
}

TEST_CASE("the published circuits' DigitalJS export reads back as the same circuit") {
  DLCA_SKIP_IF(published_missing());
  for (const char* name : kPublished)
    for (const DigitalJsFormat format : {DigitalJsFormat::stock, DigitalJsFormat::paper}) {
      CAPTURE(name);
      CAPTURE(int(format));
      const Circuit circuit = load_digitaljs(published(name));
      testing::ScratchDir dir;
      write_file_atomically(dir / "again.json", circuit_to_digitaljs(circuit, format));
      const Circuit again = load_digitaljs(dir / "again.json");
      CHECK(again.outputs == circuit.outputs);
      REQUIRE(again.gates.size() == circuit.gates.size());
      for (size_t i = 0; i < circuit.gates.size(); ++i) {
        CHECK(again.gates[i].op == circuit.gates[i].op);
        CHECK(again.gates[i].label == circuit.gates[i].label);
      }
    }
}

TEST_CASE("the published circuits, exported by dlca, open in the real DigitalJS and agree") {
  DLCA_SKIP_IF(published_missing());
  DLCA_SKIP_IF(testing::digitaljs_missing());
  for (const char* name : kPublished) {
    CAPTURE(name);
    testing::check_digitaljs_in_node(load_digitaljs(published(name)), 5);
  }
}

TEST_CASE("malformed DigitalJS files are refused by name") {
  testing::ScratchDir dir;
  const std::string path = dir / "dlca_test_circuit.json";
  const auto refusal = [&](const std::string& text) {
    write_file_atomically(path, text);
    try {
      load_digitaljs(path);
    } catch (const FileError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string ok = R"({"devices": {"i_4": {"type": "Button"}, "o_0": {"type": "Output"},
      "g": {"type": "Not"}}, "connectors": [{"from": {"id": "i_4", "port": "out"}, "to": {"id": "g", "port": "in"}},
      {"from": {"id": "g", "port": "out"}, "to": {"id": "o_0", "port": "in"}}]})";
  CHECK(refusal(ok) == "");
  CHECK(refusal("{").find("malformed") != std::string::npos);
  CHECK(refusal("[]").find("not a DigitalJS circuit") != std::string::npos);
  std::string unknown = ok;
  unknown.replace(unknown.find("\"Not\""), 5, "\"Mux\"");
  CHECK(refusal(unknown).find("unsupported type 'Mux'") != std::string::npos);
  CHECK(refusal(R"({"devices": {"o_0": {"type": "Output"}, "g": {"type": "And"}},
      "connectors": [{"from": {"id": "g", "port": "out"}, "to": {"id": "o_0", "port": "in"}}]})")
            .find("not connected") != std::string::npos);
  CHECK(refusal(R"({"devices": {"o_0": {"type": "Output"}, "g": {"type": "Not"}},
      "connectors": [{"from": {"id": "g", "port": "out"}, "to": {"id": "o_0", "port": "in"}},
                     {"from": {"id": "g", "port": "out"}, "to": {"id": "g", "port": "in"}}]})")
            .find("cycle") != std::string::npos);
}
