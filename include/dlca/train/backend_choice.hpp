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

// For "auto": the Vulkan device to use (`requested` if >= 0, else the first GPU), or -1 with the
// reason in `why`.
int auto_vulkan_device(int requested, std::string& why);

// "vulkan profile (last epoch): N dispatches, 1 submit, ...; upload x ms, forward y ms, ..."
std::string describe_profile(const VulkanProfile& profile);

// One line per Vulkan device ("0: NVIDIA H100 (discrete GPU, Vulkan 1.3.277, 79.6 GiB)").
std::string describe_vulkan_devices();

}  // namespace dlca
