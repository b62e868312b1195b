// The --backend and --device options every training and simulation program shares.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "cli_numbers.hpp"

namespace dlca::cli {

inline void add_backend_options(CLI::App& app, std::string& kind, int& device) {
  app.add_option("--backend", kind,
                 "cpu; vulkan (a Vulkan device, see dlca_devices); auto (the first Vulkan GPU, "
                 "else the CPU)")
      ->capture_default_str()
      ->check(CLI::IsMember({"cpu", "vulkan", "auto"}));
  app.add_option("--device", device, "Vulkan device index (dlca_devices lists them)")
      ->check(non_negative_integer());
}

}  // namespace dlca::cli
