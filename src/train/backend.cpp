// Defaults of the optional device-training calls of the backend contract: backends without a
// device never get them (the trainer asks trains_on_device() first).
#include <stdexcept>

#include "dlca/backend.hpp"

namespace dlca {

namespace {
[[noreturn]] void no_device_training() {
  throw std::logic_error("this backend does not train on a device");
}
}  // namespace

void Backend::upload_training_state(const Model&, const AdamW&) { no_device_training(); }
DeviceEpoch Backend::train_epoch(const Model&, const AdamWSettings&, int64_t, double,
                                 const std::vector<float>*, const Target&, const RolloutBatch&) {
  no_device_training();
}
void Backend::download_training_state(std::vector<float>&, std::vector<float>&,
                                      std::vector<float>&) {
  no_device_training();
}

}  // namespace dlca
