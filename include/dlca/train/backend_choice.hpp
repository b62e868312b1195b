// Picking a backend from the command line: "cpu", "vulkan" (device N; a clear error when none is
// usable) or "auto" (the first Vulkan GPU when there is one, else the CPU, saying which and why).
#pragma once

#include <memory>
#include <string>

#include "dlca/core/backend.hpp"
#include "dlca/cpu/cpu_backend.hpp"
#include "dlca/vulkan/vulkan_backend.hpp"

namespace dlca {

struct BackendChoice {
  std::string kind = "cpu";  // cpu, vulkan, auto
  int device = -1;           // Vulkan device index; -1: the first GPU (auto) or device 0 (vulkan)
  bool profile = false;      // Vulkan: GPU timestamps per phase
  CpuBackendOptions cpu;
};

struct ChosenBackend {
  std::unique_ptr<Backend> backend;
  VulkanBackend* vulkan = nullptr;  // the same object when it is the Vulkan backend
  std::string note;                 // why auto chose what it chose (empty otherwise)
};

// Throws std::runtime_error with a one-line reason when "vulkan" cannot run.
ChosenBackend make_backend(const BackendChoice& choice);

// Where a "cpu", "vulkan" or "auto" choice runs, for every command that has --backend: the Vulkan
// device (for "vulkan" `requested` or 0; for "auto" `requested` or the first GPU), or -1 for the
// CPU, when "auto" found no GPU with the reason in `note` ("auto: running on the CPU: ...").
// Throws std::runtime_error for any other kind.
struct DeviceChoice {
  int device = -1;
  std::string note;
};
DeviceChoice choose_device(const std::string& kind, int requested);

// "vulkan profile (last epoch): N dispatches[ for K candidates], 1 submit, ..., upload x ms, ..."
std::string describe_profile(const VulkanProfile& profile);

// One line per Vulkan device ("0: NVIDIA H100 (discrete GPU, Vulkan 1.3.277, 79.6 GiB)").
std::string describe_vulkan_devices();

}  // namespace dlca
