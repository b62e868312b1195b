// Small configurations, random logits and random grids shared by the unit tests.
#pragma once

#include <cmath>
#include <vector>

#include "dlca/core/config.hpp"
#include "dlca/core/grid.hpp"
#include "dlca/core/model.hpp"
#include "dlca/core/random.hpp"
#include "dlca/train/checkerboard.hpp"

namespace dlca::testing {

// A small model: C channels, K kernels, perception [9,8,4,2] (S=2) or [9,8,4,2,1] (S=1), and an
// update network that narrows to C. Grid H x W, `steps` steps, batch B.
inline ExperimentConfig small_config(int C, int K, int S, int H, int W, int steps, int B,
                                     bool periodic, bool async) {
  ExperimentConfig c;
  c.name = "small";
  c.channels = C;
  c.kernels = K;
  c.perception_layers = S == 1 ? std::vector<int>{9, 8, 4, 2, 1} : std::vector<int>{9, 8, 4, 2};
  c.perception_connections.assign(c.perception_layers.size() - 1, Connection::kUnique);
  c.perception_connections[0] = Connection::kFirstKernel;
  const int n0 = C + K * C * S;
  c.update_layers = {n0, n0};
  for (int width = n0; width > 2 * C;) {
    width = (width + 1) / 2;
    c.update_layers.push_back(width);
  }
  c.update_layers.push_back(C);
  c.update_connections.assign(c.update_layers.size() - 1, Connection::kUnique);
  c.height = H;
  c.width = W;
  c.steps = steps;
  c.batch = B;
  c.periodic = periodic;
  c.async = async;
  c.fire_rate = 0.6f;
  c.loss_channels = C > 1 ? std::vector<int>{0, C - 1} : std::vector<int>{0};
  c.seed = 7;
  c.random_streams = RandomStreams::kDlca;  // these tests were written with dlca's own streams
  return c;
}

// Every gate of a softmax model the one op `op` (its logit 10, the others 0).
inline void set_every_gate(Model& m, int op) {
  for (size_t i = 0; i < m.logits.size(); ++i) m.logits[i] = i % 16 == size_t(op) ? 10.0f : 0.0f;
}

// Logits uniform in [-scale, scale]: every gate a genuine mixture of ops.
inline void randomize_logits(Model& m, uint64_t key, float scale = 2.0f) {
  for (size_t i = 0; i < m.logits.size(); ++i)
    m.logits[i] = (2.0f * uniform01(key, i) - 1.0f) * scale;
}

inline std::vector<float> random_states(const ExperimentConfig& c, uint64_t key, bool binary) {
  std::vector<float> s(size_t(c.batch) * c.channels * c.height * c.width);
  for (size_t i = 0; i < s.size(); ++i)
    s[i] = binary ? float(uniform01(key, i) < 0.5f) : uniform01(key, i);
  return s;
}

// Async fire masks for the config (empty when synchronous).
inline std::vector<uint8_t> masks_for(const ExperimentConfig& c, uint64_t key) {
  return c.async ? fire_masks(key, c.steps, c.height, c.width, c.fire_rate)
                 : std::vector<uint8_t>{};
}

// A checkerboard small enough to learn in seconds: 8x8, 4 channels, 10 steps.
inline ExperimentConfig small_checkerboard() {
  ExperimentConfig c = checkerboard_sync_config();
  c.name = "small_checkerboard";
  c.channels = 4;
  c.kernels = 4;
  c.update_layers = {4 + 4 * 4 * 2, 64, 64, 64, 32, 16, 8, 4};
  c.update_connections.assign(c.update_layers.size() - 1, Connection::kUnique);
  c.height = 8;
  c.width = 8;
  c.steps = 10;
  c.batch = 2;
  c.epochs = 300;
  c.seed = 23;
  c.random_streams = RandomStreams::kDlca;  // a run known to converge fast (epoch 173)
  c.halving = false;                        // starts of a fixed count where a test gives several
  return c;
}

inline std::vector<uint8_t> random_bits(size_t n, uint64_t key) {
  std::vector<uint8_t> bits(n);
  for (size_t i = 0; i < n; ++i) bits[i] = uniform01(key, i) < 0.5f;
  return bits;
}

inline std::vector<double> to_double(const std::vector<float>& v) { return {v.begin(), v.end()}; }

inline double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

}  // namespace dlca::testing
