// AdamW with element-wise gradient clipping, in float32 as optax computes it.
#include "dlca/train/adamw.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dlca {

AdamW::AdamW(size_t size, AdamWSettings settings, std::vector<size_t> tensor_bounds)
    : settings_(settings),
      tensor_bounds_(tensor_bounds.empty() ? std::vector<size_t>{0, size}
                                           : std::move(tensor_bounds)),
      m_(size, 0.0f),
      v_(size, 0.0f) {
  if (tensor_bounds_.front() != 0 || tensor_bounds_.back() != size ||
      !std::is_sorted(tensor_bounds_.begin(), tensor_bounds_.end()))
    throw std::invalid_argument("AdamW: tensor bounds must rise from 0 to the parameter count");
}

void AdamW::restore(int64_t steps_taken, std::vector<float> first_moment,
                    std::vector<float> second_moment) {
  if (first_moment.size() != m_.size() || second_moment.size() != v_.size() || steps_taken < 0)
    throw std::invalid_argument("AdamW: restored state does not fit the parameters");
  t_ = steps_taken;
  m_ = std::move(first_moment);
  v_ = std::move(second_moment);
}

void AdamW::step(std::vector<float>& params, const std::vector<float>& grad,
                 const std::vector<uint8_t>& frozen) {
  if (params.size() != m_.size() || grad.size() != m_.size())
    throw std::invalid_argument("AdamW: parameter and gradient sizes differ from the optimiser's");
  if (!frozen.empty() && params.size() % frozen.size() != 0)
    throw std::invalid_argument("AdamW: frozen flags do not divide the parameters into groups");
  const size_t group = frozen.empty() ? params.size() + 1 : params.size() / frozen.size();
  for (float g : grad)
    if (!std::isfinite(g)) throw std::runtime_error("gradient: contains NaN or infinity");
  const auto& s = settings_;
  const std::vector<float>* gradient = &grad;
  if (s.normalize_per_tensor) {  // each tensor's gradient over its L2 norm (summed in double)
    scaled_.resize(grad.size());
    for (size_t t = 0; t + 1 < tensor_bounds_.size(); ++t) {
      double sum = 0;
      for (size_t i = tensor_bounds_[t]; i < tensor_bounds_[t + 1]; ++i)
        sum += double(grad[i]) * grad[i];
      const float scale = float(1.0 / (std::sqrt(sum) + 1e-8));
      for (size_t i = tensor_bounds_[t]; i < tensor_bounds_[t + 1]; ++i)
        scaled_[i] = grad[i] * scale;
    }
    gradient = &scaled_;
  }
  ++t_;
  const float bias1 = 1.0f - std::pow(s.beta1, float(t_));
  const float bias2 = 1.0f - std::pow(s.beta2, float(t_));
  for (size_t i = 0; i < params.size(); ++i) {
    if (!frozen.empty() && frozen[i / group]) continue;
    const float g = std::clamp((*gradient)[i], -s.clip, s.clip);
    m_[i] = s.beta1 * m_[i] + (1.0f - s.beta1) * g;
    v_[i] = s.beta2 * v_[i] + (1.0f - s.beta2) * g * g;
    const float m_hat = m_[i] / bias1;
    const float v_hat = v_[i] / bias2;
    params[i] -= s.learning_rate * (adam_step(m_hat, v_hat, s.eps) + s.weight_decay * params[i]);
  }
}

}  // namespace dlca
