// Backend selection for every command (see dlca/train/backend_choice.hpp).
#include "dlca/train/backend_choice.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "dlca/core/option_names.hpp"

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
  const DeviceChoice where = choose_device(choice.kind, choice.device);
  if (where.device >= 0) {
    try {
      auto vulkan = open_vulkan(where.device, choice.profile);
      chosen.vulkan = vulkan.get();
      if (choice.kind == "auto") chosen.note = fmt::format("auto: running on {}", vulkan->name());
      chosen.backend = std::move(vulkan);
      return chosen;
    } catch (const std::exception& e) {
      if (choice.kind == "vulkan")
        throw std::runtime_error(
            fmt::format("{}: {}", option_with_value("backend", "vulkan"), e.what()));
      if (choice.device >= 0)  // a device the user named: not replaced by the CPU in silence
        throw std::runtime_error(
            fmt::format("{}: {}", option_with_value("backend", "auto"), e.what()));
      chosen.note = fmt::format("auto: running on the CPU: {}", e.what());
    }
  } else {
    chosen.note = where.note;
  }
  chosen.backend = std::make_unique<CpuBackend>(choice.cpu);
  return chosen;
}

DeviceChoice choose_device(const std::string& kind, int requested) {
  if (kind == "cpu" && requested >= 0)  // a device asked for, then silently not used: refused
    throw std::runtime_error(fmt::format("{}: the CPU backend has no devices (give {} or auto)",
                                         option_with_value("device", std::to_string(requested)),
                                         option_with_value("backend", "vulkan")));
  if (kind == "cpu") return {};
  if (kind == "vulkan") return {std::max(requested, 0), ""};
  if (kind != "auto")
    throw std::runtime_error(
        fmt::format("{}: '{}' is not one of cpu, vulkan, auto", option_name("backend"), kind));
  if (requested >= 0) return {requested, ""};
  std::string why;
  try {
    for (const auto& d : list_vulkan_devices())
      if (d.type != "CPU") return {d.index, ""};
    why = "no Vulkan GPU found (a CPU-only Vulkan device is slower than the CPU)";
  } catch (const std::exception& e) {
    why = e.what();
  }
  return {-1, "auto: running on the CPU: " + why};
}

std::string describe_profile(const VulkanProfile& p) {
  std::string phases;
  for (const auto& [phase, ms] : p.phase_ms) phases += fmt::format(", {} {:.2f} ms", phase, ms);
  if (p.phase_ms.empty()) phases = ", no GPU timestamps on this device";
  const std::string path =
      p.fused ? fmt::format("fused steps (tiles of {} cells)", p.tile_cells) : "level by level";
  const std::string served =
      p.candidates > 1 ? fmt::format(" for {} candidates", p.candidates) : std::string();
  return fmt::format(
      "vulkan profile (last epoch): {} dispatches{}, {} submit, {} chunk(s) of cells, {}{}\n",
      p.dispatches, served, p.submits, p.chunks, path, phases);
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
