// Optional parts a unit test may need (a C compiler, iverilog, a Vulkan device, the published
// circuits), looked up when the test runs. A test case that lacks one skips visibly: before
// checking anything it prints the skip marker with the reason and returns; ctest matches the
// marker (SKIP_REGULAR_EXPRESSION) and reports the test as skipped (tests/README.md).
#pragma once

#include <string>

namespace dlca::testing {

// The line a skipped test prints: this marker, then the reason.
inline constexpr const char* kSkipMarker = "DLCA_TEST_SKIPPED: ";

void print_skip(const std::string& reason);

// The full path of an executable: `name` itself when it holds a '/', else searched on PATH; empty
// when there is none.
std::string find_executable(const std::string& name);

// The C compiler dlca starts at run time ($CC, else cc), or empty when there is none.
std::string c_compiler();

// Why a test needing the C compiler / iverilog and vvp / a file cannot run here; empty when it can.
std::string c_compiler_missing();
std::string iverilog_missing();
std::string file_missing(const std::string& path);
// The real DigitalJS: node on PATH and the npm package that tools/install_deps.sh installs into
// tests/node/node_modules.
std::string digitaljs_missing();
// tests/node/digitaljs_outputs.js, which runs a circuit in it.
std::string digitaljs_script();

}  // namespace dlca::testing

// Skips the current test case when `reason` (a string expression) is not empty. Use it first in a
// TEST_CASE, before any check: a skipped test is not run, so it must not have half-run either.
#define DLCA_SKIP_IF(reason)                                                          \
  do {                                                                                \
    if (const std::string dlca_skip_reason_ = (reason); !dlca_skip_reason_.empty()) { \
      ::dlca::testing::print_skip(dlca_skip_reason_);                                 \
      return;                                                                         \
    }                                                                                 \
  } while (0)
