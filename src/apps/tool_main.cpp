// The old program names (train_checkerboard, dlca_run, ...) as thin entries to the same tools the
// `dlca` program runs as subcommands: CMake builds this file once per name, with DLCA_TOOL set to
// the tool's function and DLCA_TOOL_NAME to the name errors are reported under.
#include "dlca/io/stop_signals.hpp"
#include "tools.hpp"

int main(int argc, char** argv) {
  dlca::ignore_closed_pipes();
  return dlca::apps::with_planted_failure(dlca::apps::DLCA_TOOL(argc, argv, DLCA_TOOL_NAME));
}
