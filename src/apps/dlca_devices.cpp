// dlca_devices: lists the Vulkan devices dlca can run on, with the index --device takes.
#include <cstdio>
#include "tools.hpp"

#include <CLI/CLI.hpp>

#include "cli_parse.hpp"
#include "dlca/train/backend_choice.hpp"

int dlca::apps::devices(int argc, char** argv, const char* program) {
  CLI::App app{"List the Vulkan devices (index for --device, name, type, API version, memory)."};
  DLCA_PARSE_OR_EXIT(app, program, argc, argv);
  if (!dlca::vulkan_built()) {
    std::fprintf(stderr, "%s: this dlca was built without Vulkan\n", program);
    return 1;
  }
  try {
    std::fputs(dlca::describe_vulkan_devices().c_str(), stdout);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return 1;
  }
  return 0;
}
