// The hyper-parameters of dlca's optimiser (AdamW with element-wise clipping, docs/MODEL.md §8) as
// plain data, so that the backend contract can hand them to a device that runs the update itself
// without knowing the optimiser class (src/train/adamw.cpp).
#pragma once

namespace dlca {

struct AdamWSettings {
  float learning_rate = 0.05f;
  float beta1 = 0.9f;
  float beta2 = 0.99f;
  float eps = 1e-8f;
  float weight_decay = 1e-2f;
  float clip = 100.0f;  // each gradient component is clamped to [-clip, clip]
  // Before the clip, each parameter tensor's gradient is divided by its L2 norm + 1e-8 (the
  // Growing NCA notebooks' per-layer normalisation; --grad-norm). The tensors: a model's gate
  // layers (parameter_tensor_bounds in model.hpp).
  bool normalize_per_tensor = false;
};

}  // namespace dlca
