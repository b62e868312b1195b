// The Vulkan compute backend: the same contract as the CPU backend (dlca/core/backend.hpp), run by
// GLSL compute shaders (shaders/, compiled to SPIR-V at build time and embedded). A whole epoch
// (upload, forward, hard rollout, backward, gradient sums, download) is one recorded command
// buffer, re-submitted every epoch; buffers stay resident and only losses and per-gate gradient
// sums come back. Work larger than one dispatch or one buffer binding is split into chunks of
// cells. Built only where Vulkan was found; vulkan_available() says so at run time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dlca/core/backend.hpp"

namespace dlca {

// True when this build includes the Vulkan backend.
bool vulkan_built();

struct VulkanDeviceInfo {
  int index = 0;
  std::string name, type;
  std::string api_version;    // "1.3.230"
  uint64_t memory_bytes = 0;  // device-local heaps
};

// The Vulkan devices present; throws std::runtime_error (one line) when Vulkan cannot start.
std::vector<VulkanDeviceInfo> list_vulkan_devices();

struct VulkanBackendOptions {
  int device = 0;
  // Run under VK_LAYER_KHRONOS_validation and count its errors (also on with the environment
  // variable DLCA_VULKAN_VALIDATION=1).
  bool validation = false;
  bool profile = false;  // GPU timestamps per phase (see profile())
  // Keep the logits and AdamW's moments on the device and run the optimiser there (training
  // through Trainer); false: AdamW on the host, the gradient downloaded every epoch.
  bool train_on_device = true;
  // Lower limits than the device's, to exercise splitting in tests; 0 keeps the device's.
  uint32_t max_workgroups = 0;     // per dispatch dimension
  uint64_t max_binding_bytes = 0;  // largest buffer bound to one shader binding
  // Activations (and gradient slots) of one chunk of cells, at most; 0: 1 GiB (at most 1/8 of the
  // device's memory). Smaller chunks
  // keep a level's rows in the GPU's cache but need more dispatches.
  uint64_t chunk_bytes = 0;
  // Run each step as one dispatch per chunk (shaders/fused_*.comp: a tile of cells per workgroup,
  // its rows in shared memory) where the program's tiles fit; false: one dispatch per level of
  // gates. Off by default: on an H100 the fused kernels were 1.5 to 5.5 times slower than the
  // levels on every workload measured (tiles of 1 to 7 cells leave most of the GPU idle).
  bool fused = false;
  // Shared memory per workgroup at most, lower than the device's to exercise the fallback and
  // small tiles in tests; 0 keeps the device's.
  uint64_t max_shared_bytes = 0;
};

// Where the time of the last rollout went: counts of the recorded work and GPU milliseconds per
// phase (when the device has timestamps and profiling is on).
struct VulkanProfile {
  int dispatches = 0, submits = 0, chunks = 0;
  bool fused = false;  // the fused step kernels ran (else the level-by-level path)
  int tile_cells = 0;  // cells per tile of the fused backward kernel
  int candidates = 1;  // models the epoch served (a population's members trained together)
  std::vector<std::pair<std::string, double>> phase_ms;
};

// A backend on one Vulkan device. Backends made by add_member form a population: they share the
// device, and the epochs of several members run together (DevicePopulation, through
// run_candidate_epochs) in one submission and the same dispatches as one member's epoch. Each
// member's results are those of training it alone: bit for bit where the merged plan keeps the
// one-member plan's chunks of cells (the level-by-level path on the paper's workloads); within
// float summation order where it needs more chunks or (fused kernels) smaller tiles. All members
// of a population train on the device (train_on_device).
class VulkanBackend : public Backend, private DeviceTraining {
 public:
  explicit VulkanBackend(VulkanBackendOptions options = {});
  ~VulkanBackend() override;
  VulkanBackend(const VulkanBackend&) = delete;
  VulkanBackend& operator=(const VulkanBackend&) = delete;
  std::string name() const override;
  RolloutResult rollout(const Model& model, const Target& target, const RolloutBatch& batch,
                        const RolloutRequest& request) override;
  // Non-null when the options train on the device (VulkanBackendOptions::train_on_device).
  DeviceTraining* device_training() override;
  // Another member of this backend's population (same device and options).
  std::unique_ptr<VulkanBackend> add_member();
  int validation_errors() const;
  const VulkanProfile& profile() const;

 private:
  struct Impl;
  VulkanBackend(std::shared_ptr<Impl> impl, int member);
  void upload_training_state(const Model& model, const std::vector<float>& first_moment,
                             const std::vector<float>& second_moment) override;
  DeviceEpoch train_epoch(const DeviceEpochRequest& request) override;
  bool download_training_state(std::vector<float>& logits, std::vector<float>& first_moment,
                               std::vector<float>& second_moment) override;
  DevicePopulation* population() override;

  std::shared_ptr<Impl> impl_;
  int member_ = 0;  // this backend's index in the population
};

}  // namespace dlca
