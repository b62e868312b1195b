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
  // --backend is added first, so CLI11 has stored it when --device is checked (options are
  // processed in the order they were added): a device with the CPU backend is refused.
  app.add_option("--device", device, "Vulkan device index (dlca_devices lists them)")
      ->transform(non_negative_integer())
      ->check(CLI::Validator(
          [&kind](std::string&) {
            return kind == "cpu" ? std::string(
                                       "the CPU backend has no devices (give --backend "
                                       "vulkan or auto)")
                                 : std::string();
          },
          ""));
}

}  // namespace dlca::cli
