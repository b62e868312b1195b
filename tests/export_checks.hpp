// Checks that a circuit's exports agree with dlca: the C export compiled with the system compiler
// and run on random words, the Verilog cell and grid simulated with iverilog, the DigitalJS export
// run in the real DigitalJS under node. Shared by the tests
// of pruned models and of the published circuits. The tools are looked up when the tests run; a
// test case without them skips (optional_parts.hpp).
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dlca/circuits/bit_grid.hpp"
#include "dlca/circuits/circuit.hpp"
#include "dlca/circuits/circuit_export.hpp"
#include "dlca/circuits/digitaljs.hpp"
#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/random.hpp"
#include "dlca/io/atomic_file.hpp"
#include "optional_parts.hpp"
#include "scratch_dir.hpp"
#include "test_helpers.hpp"

namespace dlca::testing {

// A path or program name as one shell word.
inline std::string quoted(const std::string& word) {
  std::string out = "'";
  for (char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

inline int run_command(const std::string& command) {
  return std::system((command + " 2>&1").c_str());
}

// Compiles circuit_to_c with a small harness and compares it word by word on random words.
inline void check_c_export(const Circuit& circuit, uint64_t key) {
  ScratchDir dir;
  write_file_atomically(dir / "harness.c", R"(#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
void exported(const uint64_t *const *patch, uint64_t *const *next, size_t words);
int main(int argc, char **argv) {
  int inputs = atoi(argv[1]), outputs = atoi(argv[2]);
  size_t words = (size_t)atoi(argv[3]);
  uint64_t *data = malloc(sizeof(uint64_t) * words * (size_t)(inputs + outputs));
  const uint64_t *patch[1024];
  uint64_t *next[128];
  if (fread(data, sizeof(uint64_t), words * (size_t)inputs, stdin) != words * (size_t)inputs) return 1;
  for (int i = 0; i < inputs; ++i) patch[i] = data + words * (size_t)i;
  for (int c = 0; c < outputs; ++c) next[c] = data + words * (size_t)(inputs + c);
  exported(patch, next, words);
  fwrite(data + words * (size_t)inputs, sizeof(uint64_t), words * (size_t)outputs, stdout);
  free(data);
  return 0;
}
)");
  const int C = circuit.channels;
  write_file_atomically(dir / "exported.c", circuit_to_c(circuit, "exported"));
  REQUIRE(run_command(fmt::format("{} -std=c99 -O2 -Wall -Werror -o {} {} {}", quoted(c_compiler()),
                                  quoted(dir / "prog"), quoted(dir / "harness.c"),
                                  quoted(dir / "exported.c"))) == 0);
  const size_t words = 37;
  std::vector<uint64_t> in(words * 9 * C);
  for (size_t i = 0; i < in.size(); ++i) in[i] = derive_key(key, i);
  write_file_atomically(dir / "in.bin",
                        std::string_view(reinterpret_cast<const char*>(in.data()), in.size() * 8));
  REQUIRE(run_command(fmt::format("{} {} {} {} < {} > {}", quoted(dir / "prog"), 9 * C, C, words,
                                  quoted(dir / "in.bin"), quoted(dir / "out.bin"))) == 0);
  const std::string out = read_file(dir / "out.bin");
  REQUIRE(out.size() == words * C * 8);
  for (size_t w = 0; w < words; ++w) {  // the circuit evaluated word by word
    std::vector<uint64_t> value(circuit.num_inputs());
    for (uint32_t s = 0; s < circuit.num_inputs(); ++s) value[s] = in[s * words + w];
    for (const CircuitGate& g : circuit.gates)
      value.push_back(hard_op_word(g.op, value[g.a], value[g.b]));
    for (int c = 0; c < C; ++c) {
      uint64_t got;
      std::memcpy(&got, out.data() + (c * words + w) * 8, 8);
      REQUIRE(got == value[circuit.outputs[c]]);
    }
  }
}

// Simulates circuit_to_verilog with iverilog: the cell on 64 random patches against
// evaluate_cell, and 3 steps of the grid wrapper on a 6 x 5 grid (both boundaries) against the
// bit-sliced simulator.
inline void check_verilog_export(const Circuit& circuit, uint64_t key) {
  ScratchDir dir;
  const int C = circuit.channels;
  write_file_atomically(dir / "circuit.v", circuit_to_verilog(circuit, "dlca_test"));
  const auto simulate = [&](const std::string& testbench) {
    write_file_atomically(dir / "tb.v", testbench);
    REQUIRE(run_command(fmt::format("iverilog -g2005 -s tb -o {} {} {}", quoted(dir / "sim"),
                                    quoted(dir / "tb.v"), quoted(dir / "circuit.v"))) == 0);
    REQUIRE(run_command(
                fmt::format("vvp -n {} > {}", quoted(dir / "sim"), quoted(dir / "out.txt"))) == 0);
    return read_file(dir / "out.txt");
  };
  const auto bit_string = [](const std::vector<uint8_t>& bits) {  // most significant first
    std::string s;
    for (auto it = bits.rbegin(); it != bits.rend(); ++it) s += char('0' + *it);
    return s;
  };

  std::string vectors, expected;
  for (int t = 0; t < 64; ++t) {
    const auto patch = random_bits(9 * C, derive_key(key, t));
    vectors += bit_string(patch) + "\n";
    expected += bit_string(evaluate_cell(circuit, patch)) + "\n";
  }
  write_file_atomically(dir / "vectors.txt", vectors);
  CHECK(simulate(fmt::format(
            "module tb;\n  reg [{0}:0] mem [0:63];\n  reg [{0}:0] patch;\n  wire [{1}:0] next;\n"
            "  integer i;\n  dlca_test_cell dut(.patch(patch), .next(next));\n"
            "  initial begin\n    $readmemb(\"{2}\", mem);\n"
            "    for (i = 0; i < 64; i = i + 1) begin\n"
            "      patch = mem[i];\n      #1 $display(\"%b\", next);\n    end\n  end\nendmodule\n",
            9 * C - 1, C - 1, dir / "vectors.txt")) == expected);

  const int H = 5, W = 6, steps = 3, bits = C * H * W;
  const CircuitProgram program = to_program(circuit);
  for (bool periodic : {true, false}) {
    CAPTURE(periodic);
    const auto init = random_bits(size_t(bits), derive_key(key, 100 + periodic));
    const GridGeometry geo = make_grid_geometry(1, H, W, C, periodic);
    BitGrid sim(program.program, program.ops, geo);
    sim.set_state(init.data());
    for (int s = 0; s < steps; ++s) sim.step();
    CHECK(simulate(
              fmt::format("module tb;\n  reg clk = 0, load = 1;\n  reg [{0}:0] init = {1}'b{2};\n"
                          "  wire [{0}:0] state;\n  integer i;\n"
                          "  dlca_test_grid #(.WIDTH({3}), .HEIGHT({4}), .PERIODIC({5})) dut(\n"
                          "    .clk(clk), .load(load), .init(init), .state(state));\n"
                          "  initial begin\n    #1 clk = 1; #1 clk = 0; load = 0;\n"
                          "    for (i = 0; i < {6}; i = i + 1) begin #1 clk = 1; #1 clk = 0; end\n"
                          "    $display(\"%b\", state);\n  end\nendmodule\n",
                          bits - 1, bits, bit_string(init), W, H, int(periodic), steps)) ==
          bit_string(sim.state()) + "\n");
  }
}
// Opens circuit_to_digitaljs (the default, stock format) in the real DigitalJS under node and
// compares its outputs with evaluate_cell on 64 random patches, all zeros and all ones.
inline void check_digitaljs_in_node(const Circuit& circuit, uint64_t key) {
  ScratchDir dir;
  const uint32_t inputs = circuit.num_inputs();
  std::vector<std::vector<uint8_t>> patches{std::vector<uint8_t>(inputs, 0),
                                            std::vector<uint8_t>(inputs, 1)};
  for (int t = 0; t < 64; ++t) patches.push_back(random_bits(inputs, derive_key(key, t)));
  std::string vectors, expected;
  for (const auto& patch : patches) {
    for (uint8_t bit : patch) vectors += char('0' + bit);
    for (uint8_t bit : evaluate_cell(circuit, patch)) expected += char('0' + bit);
    vectors += "\n";
    expected += "\n";
  }
  write_file_atomically(dir / "circuit.json", circuit_to_digitaljs(circuit));
  write_file_atomically(dir / "vectors.txt", vectors);
  const int status = run_command(fmt::format("node {} {} {} > {}", quoted(digitaljs_script()),
                                             quoted(dir / "circuit.json"),
                                             quoted(dir / "vectors.txt"), quoted(dir / "out.txt")));
  CHECK(read_file(dir / "out.txt") == expected);  // on failure, node's error
  CHECK(status == 0);
}
}  // namespace dlca::testing
