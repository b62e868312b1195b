// Ways to evaluate a hard circuit over bit-packed words (the contract of circuit_to_c: patch[9C]
// planes in, next[C] planes out): an interpreter of the gate list, and the circuit's C export
// compiled at run time with the system C compiler for this CPU (-O3 -march=native) and loaded with
// dlopen, which keeps the gates' values in SIMD registers (several times faster).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dlca/circuits/circuit.hpp"

namespace dlca {

class CircuitKernel {
 public:
  virtual ~CircuitKernel() = default;
  // Thread-safe; `words` may be anything.
  virtual void run(const uint64_t* const* patch, uint64_t* const* next, size_t words) const = 0;
  virtual std::string name() const = 0;
  // Bytes of scratch each thread running the kernel keeps (the interpreter's rows: at most 2 MiB,
  // or 64 bytes per row live at once when more); 0 for compiled code.
  virtual size_t scratch_bytes() const { return 0; }
};

std::unique_ptr<CircuitKernel> interpreted_kernel(const Circuit& circuit);
// Throws std::runtime_error (with the compiler's first error line) if no C compiler works. The
// compiler is compiler_command(), started directly (no shell), in a fresh directory under TMPDIR
// (any characters in its path are fine).
std::unique_ptr<CircuitKernel> compiled_kernel(const Circuit& circuit);

// $CC split on blanks (a compiler and its flags, e.g. "gcc -fno-lto"; no shell quoting), else cc.
std::vector<std::string> compiler_command();

}  // namespace dlca
