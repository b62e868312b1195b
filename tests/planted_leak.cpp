// Built only with DLCA_SANITIZE: proves the sanitizer run still catches a leak in dlca's code. It
// does what a Vulkan test does (keeps the driver loaded, opens a device through dlca's backend
// under the validation layer and closes it) and then loses one 4242-byte allocation; ctest requires
// LeakSanitizer to report exactly that leak and nothing else (no driver memory), and the run to
// fail.
#include <cstdio>
#include <cstring>

#ifdef DLCA_TEST_VULKAN
#include "dlca/vulkan/vulkan_backend.hpp"
#include "vulkan_driver.hpp"
#endif

namespace {

// Loses what it allocates: the only pointer is gone when it returns.
[[gnu::noinline]] void plant_leak() {
  char* volatile lost = new char[4242];
  std::memset(lost, 1, 4242);
}

}  // namespace

int main() {
#ifdef DLCA_TEST_VULKAN
  if (const std::string missing = dlca::testing::vulkan_missing(); missing.empty()) {
    dlca::VulkanBackendOptions options;
    options.validation = true;
    const dlca::VulkanBackend backend(options);
    std::printf("opened and closed %s\n", backend.name().c_str());
  } else {
    std::printf("no Vulkan part: %s\n", missing.c_str());
  }
#endif
  plant_leak();
  return 0;
}
