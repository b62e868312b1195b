// The old program names (train_checkerboard, dlca_run, ...) as small launchers of the `dlca`
// program beside them: CMake builds this file once per name with DLCA_TOOL_NAME set to it, and the
// launcher replaces itself with `dlca`, passing that name as argv[0], so that dlca runs the tool
// the name stands for (dlca.cpp, kOldNames) and reports errors under it. One copy of the tools
// instead of one per name keeps the sanitizer builds small.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

int main(int, char** argv) {
  std::string self(4096, '\0');
  const ssize_t length = readlink("/proc/self/exe", self.data(), self.size() - 1);
  if (length <= 0) {
    std::fprintf(stderr, "%s: cannot find its own path (/proc/self/exe): %s\n", DLCA_TOOL_NAME,
                 std::strerror(errno));
    return 1;
  }
  self.resize(std::size_t(length));
  const std::string folder = self.substr(0, self.rfind('/') + 1);
  const std::string dlca = folder + "dlca";
  // argv[0] as typed where it ends in the name (a usage line shows it), else the name in full.
  std::string name = folder + DLCA_TOOL_NAME;
  const std::string typed = argv[0] ? argv[0] : "";
  if (typed.substr(typed.rfind('/') + 1) != DLCA_TOOL_NAME) argv[0] = name.data();
  execv(dlca.c_str(), argv);
  std::fprintf(stderr, "%s: cannot start %s, the program it is a name of: %s\n", DLCA_TOOL_NAME,
               dlca.c_str(), std::strerror(errno));
  return 1;
}
