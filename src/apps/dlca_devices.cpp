// dlca_devices: lists the Vulkan devices dlca can run on, with the index --device takes.
#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli_parse.hpp"
#include "dlca/backend_choice.hpp"

int main(int argc, char** argv) {
  CLI::App app{"List the Vulkan devices (index for --device, name, type, API version, memory)."};
  DLCA_PARSE_OR_EXIT(app, "dlca_devices", argc, argv);
  if (!dlca::vulkan_built()) {
    std::fprintf(stderr, "dlca_devices: this dlca was built without Vulkan\n");
    return 1;
  }
  try {
    std::fputs(dlca::describe_vulkan_devices().c_str(), stdout);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dlca_devices: %s\n", e.what());
    return 1;
  }
  return 0;
}
