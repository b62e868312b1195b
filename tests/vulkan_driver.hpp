// Whether the Vulkan tests can run here, for DLCA_SKIP_IF (optional_parts.hpp). The first call
// also creates one Vulkan instance kept for the life of the test process, so the Vulkan loader
// never unloads the driver (and the validation layer) between tests: memory a driver keeps in its
// static variables (lavapipe's) then stays reachable and is not reported by LeakSanitizer, while
// every allocation of dlca's own code is still checked.
#pragma once

#include <string>

namespace dlca::testing {

// Empty when a Vulkan device with the validation layer is there; else why the tests skip. A
// Vulkan failure other than a missing driver, device or layer throws (the test fails).
std::string vulkan_missing();

}  // namespace dlca::testing
