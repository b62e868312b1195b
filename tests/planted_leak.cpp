// Built only with DLCA_SANITIZE: proves the sanitizer run still catches a leak in dlca's code. It
// does what a Vulkan test does (keeps the driver loaded, lists the devices through dlca) and then
// loses one 4242-byte allocation; ctest requires LeakSanitizer to report exactly that leak and
// nothing else (no driver memory), and the process to fail.
#include <cstdio>
#include <cstring>

#include "dlca/backend_choice.hpp"
#ifdef DLCA_TEST_VULKAN
#include "vulkan_driver.hpp"
#endif

namespace {

// Returns nothing of what it allocates: the pointer is lost when it returns.
[[gnu::noinline]] void plant_leak() {
  char* volatile lost = new char[4242];
  std::memset(lost, 1, 4242);
}

}  // namespace

int main() {
#ifdef DLCA_TEST_VULKAN
  const std::string missing = dlca::testing::vulkan_missing();
  if (missing.empty())
    std::fputs(dlca::describe_vulkan_devices().c_str(), stdout);
  else
    std::printf("no Vulkan part: %s\n", missing.c_str());
#endif
  plant_leak();
  return 0;
}
