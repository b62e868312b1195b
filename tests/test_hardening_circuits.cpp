// Hardening of circuits and simulation (issue 11): DigitalJS import of deep chains and of files
// that break device roles, export names the compilers refuse, the interpreter's bounded scratch,
// the asynchronous fire rule shared with training, the run-time compiler started without a shell.
#include <doctest/doctest.h>

#include <pthread.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <type_traits>

#include <fmt/format.h>
#include <tbb/global_control.h>

#include "dlca/circuits/bit_grid.hpp"
#include "dlca/circuits/circuit.hpp"
#include "dlca/circuits/circuit_export.hpp"
#include "dlca/circuits/circuit_kernel.hpp"
#include "dlca/circuits/digitaljs.hpp"
#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/circuits/simulation_grid.hpp"
#include "dlca/core/ops.hpp"
#include "dlca/core/random.hpp"
#include "dlca/io/atomic_file.hpp"
#include "export_checks.hpp"
#include "fire_rule_checks.hpp"
#include "optional_parts.hpp"

using namespace dlca;

namespace {

// A DigitalJS file: i_4 -> n gates Not in a chain -> o_0, written in reverse order so that the
// walk goes as deep as the chain.
std::string not_chain(int n) {
  std::string devices = R"("i_4": {"type": "Button"}, "o_0": {"type": "Output"})";
  std::string connectors;
  for (int i = 0; i < n; ++i) {
    devices += fmt::format(R"(, "g{}": {{"type": "Not"}})", i);
    connectors += fmt::format(
        R"({{"from": {{"id": "{}", "port": "out"}}, "to": {{"id": "g{}", "port": "in"}}}}, )",
        i == 0 ? std::string("i_4") : fmt::format("g{}", i - 1), i);
  }
  connectors += fmt::format(
      R"({{"from": {{"id": "g{}", "port": "out"}}, "to": {{"id": "o_0", "port": "in"}}}})", n - 1);
  return "{\"devices\": {" + devices + "}, \"connectors\": [" + connectors + "]}";
}

// Loading `text` fails with a message containing the file and `reason`.
void check_refused(const std::string& text, const std::string& reason) {
  testing::ScratchDir dir;
  const std::string path = dir / "bad.json";
  write_file_atomically(path, text);
  try {
    load_digitaljs(path);
    FAIL("accepted: " << reason);
  } catch (const FileError& e) {
    const std::string what = e.what();
    CHECK_MESSAGE(what.find(path + ": ") == 0, what);
    CHECK_MESSAGE(what.find(reason) != std::string::npos, what);
    CHECK(what.find('\n') == std::string::npos);
  }
}

const char* kWire =
    R"({{"from": {{"id": "{}", "port": "out"}}, "to": {{"id": "{}", "port": "{}"}}}})";

std::string wire(const std::string& from, const std::string& to, const std::string& port) {
  return fmt::format(fmt::runtime(kWire), from, to, port);
}

}  // namespace

TEST_CASE("DigitalJS import: a 50,000-gate chain loads without deep recursion") {
  testing::ScratchDir dir;
  write_file_atomically(dir / "chain.json", not_chain(50000));
  const Circuit c = load_digitaljs(dir / "chain.json");
  REQUIRE(c.gates.size() == 50000);
  CHECK(c.gates[0].a == Circuit::input(0, 4));
  CHECK(c.gates[49999].a == c.num_inputs() + 49998);
  CHECK(c.outputs == std::vector<uint32_t>{c.num_inputs() + 49999});
  CHECK(evaluate_cell(c, std::vector<uint8_t>(9, 1)) == std::vector<uint8_t>{1});  // even: identity
}

TEST_CASE("DigitalJS import refuses more channels than any grid takes, naming the file") {
  // Every output wired to its own input: 1024 channels load, 1025 do not (before any backend
  // compiles or allocates for them).
  const auto wires_only = [](int channels) {
    std::string devices, connectors;
    for (int c = 0; c < channels; ++c) {
      const std::string in = fmt::format("i_{}", 9 * c + 4), out = fmt::format("o_{}", c);
      devices += fmt::format(R"({}"{}": {{"type": "Button"}}, "{}": {{"type": "Output"}})",
                             c ? ", " : "", in, out);
      connectors += (c ? ", " : "") + wire(in, out, "in");
    }
    return "{\"devices\": {" + devices + "}, \"connectors\": [" + connectors + "]}";
  };
  testing::ScratchDir dir;
  write_file_atomically(dir / "most.json", wires_only(1024));
  CHECK(load_digitaljs(dir / "most.json").channels == 1024);
  check_refused(wires_only(1025),
                "1025 channels (outputs up to o_1024); circuits have at most 1024");
}

TEST_CASE("DigitalJS import refuses devices used against their role") {
  const std::string devices =
      R"("i_4": {"type": "Button"}, "i_3": {"type": "Button"}, "o_0": {"type": "Output"},
         "a": {"type": "And"}, "n": {"type": "Not"})";
  const auto file = [&](const std::string& wires, const std::string& extra = "") {
    return "{\"devices\": {" + devices + extra + "}, \"connectors\": [" + wires + "]}";
  };
  const std::string good = wire("i_4", "a", "in1") + ", " + wire("i_3", "a", "in2") + ", " +
                           wire("a", "n", "in") + ", " + wire("n", "o_0", "in");
  {
    testing::ScratchDir dir;
    write_file_atomically(dir / "good.json", file(good));
    CHECK(load_digitaljs(dir / "good.json").gates.size() == 2);
  }
  check_refused(file(good + ", " + wire("o_0", "a", "in1")), "output 'o_0' drives 'a'");
  check_refused(file(good + ", " + wire("n", "i_3", "in")), "input 'i_3' is driven by 'n'");
  check_refused(file(good + ", " + wire("i_4", "n", "in3")), "port 'in3' of 'n'");
  check_refused(file(good + ", " + wire("i_4", "ghost", "in")),
                "device 'ghost', which does not exist");
  check_refused(file(good, R"(, "x": {"type": "Or"})"), "input x.in1 is not connected");
  check_refused(file(good, R"(, "a": {"type": "Or"})"), "the key \"a\" is given twice");
  check_refused(file(wire("n", "a", "in1") + ", " + wire("i_3", "a", "in2") + ", " +
                     wire("a", "n", "in") + ", " + wire("n", "o_0", "in")),
                "cycle");
  // A second driver is refused (the same wire twice is not: published circuits repeat some);
  // subcircuits are not read.
  check_refused(file(good + ", " + wire("i_3", "n", "in")), "input n.in has two drivers");
  check_refused(R"({"devices": {"i_4": {"type": "Button"}, "o_0": {"type": "Output"}},
                   "connectors": [)" +
                    wire("i_4", "o_0", "in") + R"(],
                   "subcircuits": {"s": {"devices": {}, "connectors": []}}})",
                "subcircuits: not supported");
  // A cycle that no output reaches is still a cycle.
  check_refused(file(good + ", " + wire("x", "y", "in") + ", " + wire("y", "x", "in"),
                     R"(, "x": {"type": "Not"}, "y": {"type": "Not"})"),
                "cycle");
}

namespace {

Circuit one_gate_circuit() {
  Circuit c;
  c.channels = 1;
  c.gates.push_back({6, Circuit::input(0, 4), Circuit::input(0, 1), 0, 0, ""});
  c.outputs = {c.num_inputs()};
  return c;
}

const std::vector<std::string> kRefusedNames = {"int",    "_Bool", "__x",      "_X",     "uint64_t",
                                                "size_t", "NULL",  "UINT64_C", "9lives", "a-b",
                                                "typeof", "main",  "restrict", "",       "int8_t"};

}  // namespace

TEST_CASE("C export refuses names no C compiler accepts; identifier_from mangles them") {
  const Circuit c = one_gate_circuit();
  const std::vector<std::string>& refused = kRefusedNames;
  for (const std::string& name : refused) {
    CAPTURE(name);
    CHECK_FALSE(c_name_problem(name).empty());
    CHECK_THROWS_WITH_AS(circuit_to_c(c, name), doctest::Contains(("'" + name + "' is").c_str()),
                         std::invalid_argument);
    CHECK(c_name_problem(identifier_from(name)).empty());
  }
  CHECK(identifier_from("int") == "int_");
  CHECK(identifier_from("checkerboard sync") == "checkerboard_sync");
  CHECK_THROWS_AS(circuit_to_verilog(c, "a b"), std::invalid_argument);
  CHECK(verilog_name_problem("module").empty());  // the modules are module_cell and module_grid
}

TEST_CASE("C export: accepted names and names made by identifier_from compile") {
  DLCA_SKIP_IF(testing::c_compiler_missing());
  const Circuit c = one_gate_circuit();
  const std::vector<std::string>& refused = kRefusedNames;
  std::vector<std::string> accepted = {"patch", "words", "g0", "in0", "w", "INTERESTING", "x_t"};
  for (const std::string& name : refused) accepted.push_back(identifier_from(name));
  testing::ScratchDir dir;
  std::string source;
  for (size_t i = 0; i < accepted.size(); ++i) {
    CAPTURE(accepted[i]);
    REQUIRE(c_name_problem(accepted[i]).empty());
    const std::string file = dir / fmt::format("f{}.c", i);
    write_file_atomically(file, circuit_to_c(c, accepted[i]));
    for (const char* standard : {"c99", "gnu17"})
      CHECK(testing::run_command(
                fmt::format("{} -std={} -pedantic-errors -Wall -Werror -c -o {} {}",
                            testing::c_compiler(), standard, dir / "f.o", file)) == 0);
  }
}

TEST_CASE("BitGrid fires a cell whose draw equals the fire rate, like training") {
  testing::check_fire_rule([](const Circuit& circuit, int height, int width) {
    return make_cpu_grid(circuit, interpreted_kernel(circuit), height, width, true);
  });
}

// BitGrid shares its kernel, so a kernel made on the spot (the old `BitGrid(circuit,
// *interpreted_kernel(circuit), ...)` dangled) lives as long as the grid; built from a program it
// keeps a pruned copy, so temporaries are fine there too.
static_assert(std::is_constructible_v<BitGrid, CellProgram, std::vector<uint8_t>, GridGeometry>);
static_assert(
    !std::is_constructible_v<BitGrid, const Circuit&, const CircuitKernel&, int, int, bool>);

TEST_CASE("BitGrid keeps a temporary kernel alive") {
  const Circuit circuit = testing::not_circuit();
  BitGrid grid(circuit, interpreted_kernel(circuit), 4, 70, true);
  grid.step();
  CHECK(grid.count(0) == 4 * 70);
  CHECK_THROWS_AS(BitGrid(circuit, nullptr, 4, 70, true), std::invalid_argument);
  CHECK_THROWS_AS(BitGrid(circuit, interpreted_kernel(circuit), 4, 70, true, 0),
                  std::invalid_argument);
  CHECK_THROWS_AS(BitGrid(circuit, interpreted_kernel(circuit), 1 << 20, 1, true, 128),
                  std::invalid_argument);  // 2^27 rows in all
  // A batch of more rows than one big grid has sides: as many as training's configurations allow.
  BitGrid tall(circuit, interpreted_kernel(circuit), 2, 3, true, 40000);  // 80,000 rows
  tall.step();
  CHECK(tall.count(0) == 2 * 3 * 40000);
}

TEST_CASE("BitGrid steps on a 64 KiB stack (no per-band pointer arrays on the stack)") {
  const Circuit circuit = testing::not_circuit();
  BitGrid grid(circuit, interpreted_kernel(circuit), 16, 70, true);
  grid.step();  // the per-thread scratch of the caller is made here, on a normal stack
  struct Job {
    BitGrid* grid;
    uint64_t count = 0;
  } job{&grid};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
#ifdef __SANITIZE_ADDRESS__
  const size_t stack = 512 * 1024;  // AddressSanitizer's frames are larger: the Release run checks
#else
  const size_t stack = 64 * 1024;  // the old run_step had 80 KiB of pointer arrays in its frame
#endif
  REQUIRE(pthread_attr_setstacksize(&attr, stack) == 0);
  pthread_t thread;
  REQUIRE(pthread_create(
              &thread, &attr,
              [](void* arg) -> void* {
                Job& j = *static_cast<Job*>(arg);
                // One thread: every band runs here, on the small stack.
                tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
                j.grid->step();
                j.grid->step();
                j.count = j.grid->count(0);
                return nullptr;
              },
              &job) == 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  CHECK(job.count == 16 * 70);  // NOT three times from all dead: all live
}

namespace {

// Sets an environment variable for the life of the object, then restores it.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> old;
  ScopedEnv(const std::string& n, const std::string& value) : name(n) {
    if (const char* v = std::getenv(n.c_str())) old = v;
    setenv(n.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old)
      setenv(name.c_str(), old->c_str(), 1);
    else
      unsetenv(name.c_str());
  }
};

}  // namespace

TEST_CASE("the run-time compiler: $CC split on blanks, no shell, any TMPDIR") {
  {
    ScopedEnv cc("CC", "  gcc\t-O1  -Wall ");
    CHECK(compiler_command() == std::vector<std::string>{"gcc", "-O1", "-Wall"});
  }
  {
    ScopedEnv cc("CC", "");
    CHECK(compiler_command() == std::vector<std::string>{"cc"});
  }
  const Circuit circuit = testing::not_circuit();
  {
    ScopedEnv cc("CC", "/nonexistent/dlca-cc -O2");
    CHECK_THROWS_WITH_AS(compiled_kernel(circuit),
                         doctest::Contains("cannot start the C compiler '/nonexistent/dlca-cc'"),
                         std::runtime_error);
  }
  {
    ScopedEnv cc("CC", "sh -c 'echo $0; touch pwned'");  // words, never a shell command line
    CHECK_THROWS_AS(compiled_kernel(circuit), std::runtime_error);
    CHECK_FALSE(std::filesystem::exists("pwned"));
  }
}

TEST_CASE("the run-time compiler works from a TMPDIR with quotes, blanks and $( )") {
  DLCA_SKIP_IF(testing::c_compiler_missing());
  const Circuit circuit = testing::not_circuit();
  testing::ScratchDir dir;
  const std::string tmp = dir / "it's a \"tmp\" dir; $(touch pwned) `x`";
  std::filesystem::create_directory(tmp);
  ScopedEnv tmpdir("TMPDIR", tmp);
  ScopedEnv cc("CC", testing::c_compiler() + " -fno-lto -Wall");
  const auto kernel = compiled_kernel(circuit);
  std::vector<uint64_t> in(9, 0x0123456789abcdefull), out(1, 0);
  std::vector<const uint64_t*> patch;
  for (const uint64_t& word : in) patch.push_back(&word);
  uint64_t* next = out.data();
  kernel->run(patch.data(), &next, 1);
  CHECK(out[0] == ~0x0123456789abcdefull);
  CHECK(std::filesystem::is_empty(tmp));  // its temporary directory is gone
  CHECK_FALSE(std::filesystem::exists(dir / "pwned"));
}

namespace {

// Runs a kernel over `words` random words and checks every word against evaluate_cell's rule.
void check_kernel(const Circuit& circuit, const CircuitKernel& kernel, size_t words) {
  const uint32_t inputs = circuit.num_inputs();
  std::vector<std::vector<uint64_t>> in(inputs, std::vector<uint64_t>(words));
  std::vector<std::vector<uint64_t>> out(size_t(circuit.channels), std::vector<uint64_t>(words));
  std::vector<const uint64_t*> patch;
  std::vector<uint64_t*> next;
  for (uint32_t s = 0; s < inputs; ++s) {
    for (size_t w = 0; w < words; ++w) in[s][w] = derive_key(s, w);
    patch.push_back(in[s].data());
  }
  for (auto& plane : out) next.push_back(plane.data());
  kernel.run(patch.data(), next.data(), words);
  for (size_t w = 0; w < words; w += 97) {
    std::vector<uint64_t> value(inputs);
    for (uint32_t s = 0; s < inputs; ++s) value[s] = in[s][w];
    for (const CircuitGate& g : circuit.gates)
      value.push_back(hard_op_word(g.op, value[g.a], value[g.b]));
    for (int c = 0; c < circuit.channels; ++c)
      REQUIRE(out[size_t(c)][w] == value[circuit.outputs[size_t(c)]]);
  }
}

}  // namespace

TEST_CASE("the interpreter's scratch does not grow with the gate count") {
  // A 50,000-gate chain of mixed ops: two rows are live at a time (the old scratch: 200 MB).
  Circuit chain;
  chain.channels = 2;
  uint32_t last = Circuit::input(0, 4);
  for (int i = 0; i < 50000; ++i) {
    const uint8_t op = uint8_t(std::vector<int>{6, 12, 9, 1, 7}[size_t(i) % 5]);
    chain.gates.push_back({op, last, Circuit::input(1, uint32_t(i) % 9), 0, 0, ""});
    if (op == kOpNotA) chain.gates.back().b = last;
    last = chain.num_inputs() + uint32_t(i);
  }
  chain.outputs = {last, chain.num_inputs() + 777};
  const auto chained = interpreted_kernel(chain);
  CHECK(chained->scratch_bytes() <= 4 * 512 * 8);
  check_kernel(chain, *chained, 1500);
  // 40,000 gates all live at once (each read by a final chain): the rows narrow, 64 B each.
  Circuit wide;
  wide.channels = 1;
  const int n = 40000;
  for (int i = 0; i < n; ++i)
    wide.gates.push_back({uint8_t(1 + i % 14), uint32_t(i % 9), uint32_t((i / 9) % 9), 0, 0, ""});
  for (int i = 0; i < n; ++i)
    wide.gates.push_back({6, wide.num_inputs() + uint32_t(i == 0 ? 1 : n + i - 1),
                          wide.num_inputs() + uint32_t(n - 1 - i), 0, 0, ""});
  wide.outputs = {wide.num_inputs() + uint32_t(2 * n - 1)};
  const auto widened = interpreted_kernel(wide);
  CHECK(widened->scratch_bytes() <= size_t(n + 2) * 64);
  check_kernel(wide, *widened, 300);
}
