// The Vulkan backend's entry points in a build without Vulkan (CMake found no Vulkan headers or
// glslangValidator): everything else builds, and asking for the backend says why it is missing.
#include <stdexcept>

#include "dlca/vulkan/vulkan_backend.hpp"
#include "dlca/vulkan/vulkan_grid.hpp"

namespace dlca {

namespace {
[[noreturn]] void not_built() {
  throw std::runtime_error(
      "this dlca was built without Vulkan (install libvulkan-dev and glslang-tools, then rebuild)");
}
}  // namespace

bool vulkan_built() { return false; }
std::vector<VulkanDeviceInfo> list_vulkan_devices() { not_built(); }

struct VulkanBackend::Impl {};
VulkanBackend::VulkanBackend(VulkanBackendOptions) { not_built(); }
VulkanBackend::~VulkanBackend() = default;
std::string VulkanBackend::name() const { return "vulkan (not built)"; }
RolloutResult VulkanBackend::rollout(const Model&, const Target&, const RolloutBatch&,
                                     const RolloutRequest&) {
  not_built();
}
DeviceTraining* VulkanBackend::device_training() { return nullptr; }
void VulkanBackend::upload_training_state(const Model&, const std::vector<float>&,
                                          const std::vector<float>&) {
  not_built();
}
DeviceEpoch VulkanBackend::train_epoch(const DeviceEpochRequest&) { not_built(); }
std::unique_ptr<VulkanBackend> VulkanBackend::add_member() { not_built(); }
DevicePopulation* VulkanBackend::population() { return nullptr; }
bool VulkanBackend::download_training_state(std::vector<float>&, std::vector<float>&,
                                            std::vector<float>&) {
  not_built();
}
int VulkanBackend::validation_errors() const { return 0; }
const VulkanProfile& VulkanBackend::profile() const { not_built(); }

struct VulkanGrid::Impl {};
VulkanGrid::VulkanGrid(const Circuit&, int, int, bool, int, bool, GridShader) { not_built(); }
VulkanGrid::~VulkanGrid() = default;
std::string VulkanGrid::name() const { return "vulkan (not built)"; }
int VulkanGrid::channels() const { not_built(); }
int VulkanGrid::height() const { not_built(); }
int VulkanGrid::width() const { not_built(); }
void VulkanGrid::set_state_rows(int, const CellRowSource&) { not_built(); }
void VulkanGrid::step() { not_built(); }
void VulkanGrid::step_async(double, uint64_t) { not_built(); }
void VulkanGrid::step_masked(const uint8_t*) { not_built(); }
void VulkanGrid::zero_rectangle(int, int, int, int) { not_built(); }
void VulkanGrid::finish() { not_built(); }
uint64_t VulkanGrid::count(int) { not_built(); }
void VulkanGrid::set_target_rows(int, const CellRowSource&) { not_built(); }
uint64_t VulkanGrid::error() { not_built(); }
void VulkanGrid::read_state_rows(int, const CellRowSink&) { not_built(); }
int VulkanGrid::validation_errors() const { return 0; }
bool VulkanGrid::generated_shader() const { not_built(); }
const std::string& VulkanGrid::shader_note() const { not_built(); }

}  // namespace dlca
