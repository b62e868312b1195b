// The interpreted and the run-time-compiled circuit kernels.
#include "dlca/circuit_kernel.hpp"

#include <dlfcn.h>
#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <tbb/enumerable_thread_specific.h>

#include "cpu/row_ops.hpp"
#include "dlca/atomic_file.hpp"
#include "dlca/circuit_export.hpp"

namespace dlca {

namespace {

// Gates one block of words at a time, every gate's row of the block in a per-thread scratch.
class InterpretedKernel : public CircuitKernel {
 public:
  explicit InterpretedKernel(const Circuit& circuit) : circuit_(circuit) {}
  void run(const uint64_t* const* patch, uint64_t* const* next, size_t words) const override {
    const uint32_t inputs = circuit_.num_inputs();
    std::vector<uint64_t>& rows = scratch_.local();
    rows.resize(circuit_.gates.size() * kBlock);
    for (size_t first = 0; first < words; first += kBlock) {
      const size_t n = std::min(kBlock, words - first);
      const auto row = [&](uint32_t s) -> const uint64_t* {
        return s < inputs ? patch[s] + first : &rows[(s - inputs) * kBlock];
      };
      for (size_t i = 0; i < circuit_.gates.size(); ++i) {
        const CircuitGate& g = circuit_.gates[i];
        apply_row_op(g.op, row(g.a), row(g.b), &rows[i * kBlock], n);
      }
      for (int c = 0; c < circuit_.channels; ++c)
        std::copy_n(row(circuit_.outputs[c]), n, next[c] + first);
    }
  }
  std::string name() const override { return "interpreted"; }

 private:
  static constexpr size_t kBlock = 512;  // words (measured best of 64..512 on the GoL circuit)
  Circuit circuit_;
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

}  // namespace

std::unique_ptr<CircuitKernel> interpreted_kernel(const Circuit& circuit) {
  return std::make_unique<InterpretedKernel>(circuit);
}

std::unique_ptr<CircuitKernel> compiled_kernel(const Circuit& circuit) {
  std::string pattern = (std::filesystem::temp_directory_path() / "dlca_kernel_XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary directory");
  const std::filesystem::path dir = pattern;
  struct Cleanup {
    std::filesystem::path dir;
    ~Cleanup() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  } cleanup{dir};
  const std::string source = (dir / "circuit.c").string(), library = (dir / "circuit.so").string(),
                    log = (dir / "log.txt").string();
  write_file_atomically(source, circuit_to_c(circuit, "dlca_circuit_step"));
  const char* cc = std::getenv("CC");
  const std::string command =
      fmt::format("'{}' -std=c99 -O3 -march=native -shared -fPIC -o '{}' '{}' > '{}' 2>&1",
                  cc && *cc ? cc : "cc", library, source, log);
  if (std::system(command.c_str()) != 0) {
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
