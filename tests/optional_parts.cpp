// Run-time lookup of the optional tools the unit tests use, and the skip marker they print.
#include "optional_parts.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace dlca::testing {

void print_skip(const std::string& reason) {
  std::printf("%s%s\n", kSkipMarker, reason.c_str());
  std::fflush(stdout);
}

std::string find_executable(const std::string& name) {
  const auto executable = [](const std::string& path) {
    return std::filesystem::is_regular_file(path) && access(path.c_str(), X_OK) == 0;
  };
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return executable(name) ? name : std::string();
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "";
  while (true) {
    const size_t colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    const std::string candidate = std::string(dir.empty() ? "." : dir) + "/" + name;
    if (executable(candidate)) return candidate;
    if (colon == std::string_view::npos) return {};
    rest.remove_prefix(colon + 1);
  }
}

std::string c_compiler() {
  const char* cc = std::getenv("CC");
  return find_executable(cc && *cc ? cc : "cc");
}

std::string c_compiler_missing() {
  if (!c_compiler().empty()) return {};
  const char* cc = std::getenv("CC");
  return cc && *cc ? "no C compiler: CC=" + std::string(cc) + " is not an executable"
                   : std::string("no C compiler: cc is not on PATH (Debian package gcc)");
}

std::string iverilog_missing() {
  for (const char* tool : {"iverilog", "vvp"})
    if (find_executable(tool).empty())
      return std::string(tool) + " is not on PATH (Debian package iverilog)";
  return {};
}

std::string file_missing(const std::string& path) {
  return std::filesystem::exists(path) ? std::string() : path + " does not exist";
}

std::string digitaljs_script() {
  return std::string(DLCA_SOURCE_DIR) + "/tests/node/digitaljs_outputs.js";
}

std::string digitaljs_missing() {
  if (find_executable("node").empty()) return "node is not on PATH (Debian package nodejs)";
  const std::string package =
      std::string(DLCA_SOURCE_DIR) + "/tests/node/node_modules/digitaljs/package.json";
  if (const std::string reason = file_missing(package); !reason.empty())
    return "the digitaljs npm package is not installed (tools/install_deps.sh): " + reason;
  return {};
}

}  // namespace dlca::testing
