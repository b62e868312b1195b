// The notebook's optimiser, optax.chain(clip(100), adamw(lr, 0.9, 0.99, wd=0.01)): element-wise
// value clipping, then AdamW with decoupled weight decay on every logit (docs/MODEL.md §8).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dlca/core/optimizer_settings.hpp"

namespace dlca {

class AdamW {
 public:
  AdamW(size_t size, AdamWSettings settings);
  // One update of params with grad (same size). Non-finite gradients throw std::runtime_error
  // before anything is changed.
  void step(std::vector<float>& params, const std::vector<float>& grad);

  const AdamWSettings& settings() const { return settings_; }
  int64_t steps_taken() const { return t_; }
  const std::vector<float>& first_moment() const { return m_; }
  const std::vector<float>& second_moment() const { return v_; }
  // Continues from a saved state (sizes must match; throws std::invalid_argument otherwise).
  void restore(int64_t steps_taken, std::vector<float> first_moment,
               std::vector<float> second_moment);

 private:
  AdamWSettings settings_;
  int64_t t_ = 0;
  std::vector<float> m_, v_;
};

}  // namespace dlca
