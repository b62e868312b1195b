// Backend selection for every command (see dlca/train/backend_choice.hpp).
#include "dlca/train/backend_choice.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace dlca {

namespace {

std::unique_ptr<VulkanBackend> open_vulkan(int device, bool profile) {
  VulkanBackendOptions options;
  options.device = device;
  options.profile = profile;
  return std::make_unique<VulkanBackend>(options);
}

}  // namespace

ChosenBackend make_backend(const BackendChoice& choice) {
  ChosenBackend chosen;
  if (choice.kind == "cpu") {
    chosen.backend = std::make_unique<CpuBackend>(choice.cpu);
    return chosen;
  }
  if (choice.kind == "vulkan") {
    try {
      auto vulkan = open_vulkan(std::max(choice.device, 0), choice.profile);
      chosen.vulkan = vulkan.get();
      chosen.backend = std::move(vulkan);
      return chosen;
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("--backend vulkan: {}", e.what()));
    }
  }
  if (choice.kind != "auto")
    throw std::runtime_error(
        fmt::format("--backend: '{}' is not one of cpu, vulkan, auto", choice.kind));
  std::string why;
  try {
    const int device = auto_vulkan_device(choice.device, why);
    if (device >= 0) {
      auto vulkan = open_vulkan(device, choice.profile);
      chosen.vulkan = vulkan.get();
      chosen.note = fmt::format("auto: running on {}", vulkan->name());
      chosen.backend = std::move(vulkan);
      return chosen;
    }
  } catch (const std::exception& e) {
    why = e.what();
  }
  chosen.backend = std::make_unique<CpuBackend>(choice.cpu);
  chosen.note = fmt::format("auto: running on the CPU: {}", why);
  return chosen;
}

int auto_vulkan_device(int requested, std::string& why) {
  if (requested >= 0) return requested;
  try {
    for (const auto& d : list_vulkan_devices())
      if (d.type != "CPU") return d.index;
    why = "no Vulkan GPU found (a CPU-only Vulkan device is slower than the CPU)";
  } catch (const std::exception& e) {
    why = e.what();
  }
  return -1;
}

std::string describe_profile(const VulkanProfile& p) {
  std::string phases;
  for (const auto& [phase, ms] : p.phase_ms) phases += fmt::format(", {} {:.2f} ms", phase, ms);
  if (p.phase_ms.empty()) phases = ", no GPU timestamps on this device";
  return fmt::format(
      "vulkan profile (last epoch): {} dispatches, {} submit, {} chunk(s) of cells{}\n",
      p.dispatches, p.submits, p.chunks, phases);
}

std::string describe_vulkan_devices() {
  std::string out;
  for (const auto& d : list_vulkan_devices())
    out += fmt::format("{}: {} ({}, Vulkan {}, {:.1f} GiB)\n", d.index, d.name, d.type,
                       d.api_version, double(d.memory_bytes) / double(1 << 30));
  if (out.empty()) out = "no Vulkan devices with a compute queue\n";
  return out;
}

}  // namespace dlca
