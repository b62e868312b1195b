// The notebook's optimiser, optax.chain(clip(100), adamw(lr, 0.9, 0.99, wd=0.01)): element-wise
// value clipping, then AdamW with decoupled weight decay on every logit (docs/MODEL.md §8).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dlca/core/optimizer_settings.hpp"

namespace dlca {

// Adam's normalised step m_hat / (sqrt(v_hat) + eps), clamped to [-4, 4]. With beta1 0.9 and
// beta2 0.99, |m_hat| <= 2.35 sqrt(v_hat) always holds in exact arithmetic, so the clamp never acts
// on a step of the notebook's recipe (they stay bit for bit), nor with any epsilon while 0.01*g*g
// is a normal float; it acts only when that underflows (gradients below about 1e-18: denormal, or
// flushed to 0 on a device) while m does not, where with a tiny epsilon the step would grow to
// m_hat / eps, many learning rates. Other betas (--adam-beta1, --adam-beta2) move the bound to
// (1 - beta1) / sqrt((1 - beta2) (1 - beta1^2 / beta2)) while beta1^2 < beta2 (3.4 at 0.8 and
// 0.99), so the clamp can also act where that exceeds 4 (0.9 and 0.999: 7.3). The device's shader
// (adamw.comp) does the same.
inline float adam_step(float m_hat, float v_hat, float eps) {
  return std::clamp(m_hat / (std::sqrt(v_hat) + eps), -4.0f, 4.0f);
}

class AdamW {
 public:
  // `tensor_bounds`: where each parameter tensor begins, then the size (settings'
  // normalize_per_tensor; empty: the whole array is one tensor).
  AdamW(size_t size, AdamWSettings settings, std::vector<size_t> tensor_bounds = {});
  // One update of params with grad (same size). Non-finite gradients throw std::runtime_error
  // before anything is changed.
  // `frozen`: empty, or one flag per group of params.size() / frozen.size() parameters (a gate's):
  // where it is 1 those parameters and their moments are left as they are (progressive hardening).
  void step(std::vector<float>& params, const std::vector<float>& grad,
            const std::vector<uint8_t>& frozen = {});

  const AdamWSettings& settings() const { return settings_; }
  // The learning rate of the next steps (a decay's, learning_rate_at in config.hpp).
  void set_learning_rate(float learning_rate) { settings_.learning_rate = learning_rate; }
  int64_t steps_taken() const { return t_; }
  const std::vector<float>& first_moment() const { return m_; }
  const std::vector<float>& second_moment() const { return v_; }
  // Continues from a saved state (sizes must match; throws std::invalid_argument otherwise).
  void restore(int64_t steps_taken, std::vector<float> first_moment,
               std::vector<float> second_moment);

 private:
  AdamWSettings settings_;
  std::vector<size_t> tensor_bounds_;
  std::vector<float> scaled_;  // the normalised gradient (normalize_per_tensor)
  int64_t t_ = 0;
  std::vector<float> m_, v_;
};

}  // namespace dlca
