// The interpreted and the run-time-compiled circuit kernels.
#include "dlca/circuits/circuit_kernel.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>  // environ

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <tbb/enumerable_thread_specific.h>

#include "circuits/row_ops.hpp"
#include "dlca/circuits/circuit_export.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/stop_signals.hpp"

namespace dlca {

namespace {

// Gates one block of words at a time into a per-thread scratch of rows. A gate's row is reused
// once its last reader has run (rows allocated over the gate order like registers), and the block
// narrows when many rows are live at once, so the scratch does not grow with the gate count.
class InterpretedKernel : public CircuitKernel {
 public:
  explicit InterpretedKernel(const Circuit& circuit) : circuit_(circuit) {
    const uint32_t inputs = circuit.num_inputs();
    const size_t gates = circuit.gates.size();
    constexpr size_t kForever = SIZE_MAX;
    std::vector<size_t> last_use(gates);  // the last gate reading each gate; itself if none
    for (size_t i = 0; i < gates; ++i) {
      last_use[i] = i;
      for (uint32_t s : operands(circuit.gates[i]))
        if (s >= inputs) last_use[s - inputs] = i;
    }
    for (uint32_t s : circuit.outputs)
      if (s >= inputs) last_use[s - inputs] = kForever;
    row_of_.resize(gates);
    std::vector<uint32_t> free_rows;
    for (size_t i = 0; i < gates; ++i) {
      if (free_rows.empty()) {
        row_of_[i] = rows_++;
      } else {
        row_of_[i] = free_rows.back();
        free_rows.pop_back();
      }
      // Rows read for the last time by gate i (after it is written: never in place), and gate
      // i's own row if nothing reads it.
      for (uint32_t s : operands(circuit.gates[i]))
        if (s >= inputs && last_use[s - inputs] == i) {
          free_rows.push_back(row_of_[s - inputs]);
          last_use[s - inputs] = kForever - 1;  // freed once when both operands are the same gate
        }
      if (last_use[i] == i) free_rows.push_back(row_of_[i]);
    }
    block_ = std::clamp<size_t>(kScratchBytes / 8 / std::max<size_t>(rows_, 1), kMinBlock, kBlock);
  }
  void run(const uint64_t* const* patch, uint64_t* const* next, size_t words) const override {
    const uint32_t inputs = circuit_.num_inputs();
    std::vector<uint64_t>& rows = scratch_.local();
    rows.resize(size_t(rows_) * block_);
    for (size_t first = 0; first < words; first += block_) {
      const size_t n = std::min(block_, words - first);
      const auto row = [&](uint32_t s) -> uint64_t* {
        return s < inputs ? const_cast<uint64_t*>(patch[s]) + first
                          : &rows[size_t(row_of_[s - inputs]) * block_];
      };
      for (size_t i = 0; i < circuit_.gates.size(); ++i) {
        const CircuitGate& g = circuit_.gates[i];
        apply_row_op(g.op, row(g.a), row(g.b), row(inputs + uint32_t(i)), n);
      }
      for (int c = 0; c < circuit_.channels; ++c)
        std::copy_n(row(circuit_.outputs[c]), n, next[c] + first);
    }
  }
  std::string name() const override { return "interpreted"; }
  size_t scratch_bytes() const override { return size_t(rows_) * block_ * 8; }

 private:
  static std::vector<uint32_t> operands(const CircuitGate& g) {
    const int arity = gate_arity(g.op);
    return arity == 2   ? std::vector<uint32_t>{g.a, g.b}
           : arity == 1 ? std::vector<uint32_t>{g.a}
                        : std::vector<uint32_t>{};
  }
  static constexpr size_t kBlock = 512;   // words (measured best of 64..512 on the GoL circuit)
  static constexpr size_t kMinBlock = 8;  // words: 64 bytes a row at the least
  static constexpr size_t kScratchBytes = 2 << 20;  // per thread, unless rows * 64 B is more
  Circuit circuit_;
  std::vector<uint32_t> row_of_;  // gate -> its scratch row
  uint32_t rows_ = 0;             // scratch rows
  size_t block_ = kBlock;         // words per row
  mutable tbb::enumerable_thread_specific<std::vector<uint64_t>> scratch_;
};

using StepFunction = void (*)(const uint64_t* const*, uint64_t* const*, size_t);

class CompiledKernel : public CircuitKernel {
 public:
  CompiledKernel(void* library, StepFunction function) : library_(library), function_(function) {}
  ~CompiledKernel() override { dlclose(library_); }
  void run(const uint64_t* const* patch, uint64_t* const* next, size_t words) const override {
    function_(patch, next, words);
  }
  std::string name() const override { return "compiled"; }

 private:
  void* library_;
  StepFunction function_;
};

// Runs args[0] (found on PATH) with its output and errors in `log`, without a shell; whether it
// exited with status 0. Throws when it cannot be started.
bool run_program(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  // A signal that ends dlca ends the compiler too: the stop signals are held back until it is
  // registered as such (the compiler starts with the signal mask dlca had).
  sigset_t stop, before;
  sigemptyset(&stop);
  for (int signo : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stop, signo);
  pthread_sigmask(SIG_BLOCK, &stop, &before);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setsigmask(&attributes, &before);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  std::optional<ChildEndedBySignals> ended_with_us;
  if (error == 0) ended_with_us.emplace(pid);
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0)
    throw std::runtime_error(
        fmt::format("cannot start the C compiler '{}': {}", args[0], std::strerror(error)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error("waiting for the C compiler failed");
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

std::vector<std::string> compiler_command() {
  std::vector<std::string> words;
  std::istringstream cc(std::getenv("CC") ? std::getenv("CC") : "");
  for (std::string word; cc >> word;) words.push_back(word);
  if (words.empty()) words.push_back("cc");
  return words;
}

std::unique_ptr<CircuitKernel> interpreted_kernel(const Circuit& circuit) {
  return std::make_unique<InterpretedKernel>(circuit);
}

std::unique_ptr<CircuitKernel> compiled_kernel(const Circuit& circuit) {
  // Its files and the folder are removed on every exit, a signal that ends the program included.
  TemporaryFolder dir("dlca_kernel");
  const std::string source = dir.file("circuit.c"), library = dir.file("circuit.so"),
                    log = dir.file("log.txt");
  write_file_atomically(source, circuit_to_c(circuit, "dlca_circuit_step"));
  std::vector<std::string> args = compiler_command();
  for (const char* arg : {"-std=c99", "-O3", "-march=native", "-shared", "-fPIC", "-o"})
    args.push_back(arg);
  args.push_back(library);
  args.push_back(source);
  if (!run_program(args, log)) {
    std::string first_line;
    try {
      const std::string text = read_file(log);
      first_line = text.substr(0, text.find('\n'));
    } catch (const FileError&) {
    }
    throw std::runtime_error("compiling the circuit failed" +
                             (first_line.empty() ? "" : ": " + first_line));
  }
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error(std::string("loading the compiled circuit: ") + dlerror());
  auto function = reinterpret_cast<StepFunction>(dlsym(handle, "dlca_circuit_step"));
  if (!function) {
    dlclose(handle);
    throw std::runtime_error("the compiled circuit has no dlca_circuit_step");
  }
  return std::make_unique<CompiledKernel>(handle, function);
}

}  // namespace dlca
