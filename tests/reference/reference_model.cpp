// Reference rollout and backpropagation through time (see reference_model.hpp).
#include "reference/reference_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dlca::reference {

double op_value(int op, double a, double b) {
  switch (op) {
    case 0:
      return 0;
    case 1:
      return a * b;
    case 2:
      return a - a * b;
    case 3:
      return a;
    case 4:
      return b - a * b;
    case 5:
      return b;
    case 6:
      return a + b - 2 * a * b;
    case 7:
      return a + b - a * b;
    case 8:
      return 1 - (a + b - a * b);
    case 9:
      return 1 - (a + b - 2 * a * b);
    case 10:
      return 1 - b;
    case 11:
      return 1 - b + a * b;
    case 12:
      return 1 - a;
    case 13:
      return 1 - a + a * b;
    case 14:
      return 1 - a * b;
    case 15:
      return 1;
  }
  throw std::invalid_argument("op index");
}

double op_da(int op, double, double b) {
  switch (op) {
    case 0:
      return 0;
    case 1:
      return b;
    case 2:
      return 1 - b;
    case 3:
      return 1;
    case 4:
      return -b;
    case 5:
      return 0;
    case 6:
      return 1 - 2 * b;
    case 7:
      return 1 - b;
    case 8:
      return -(1 - b);
    case 9:
      return -(1 - 2 * b);
    case 10:
      return 0;
    case 11:
      return b;
    case 12:
      return -1;
    case 13:
      return -1 + b;
    case 14:
      return -b;
    case 15:
      return 0;
  }
  throw std::invalid_argument("op index");
}

double op_db(int op, double a, double) {
  switch (op) {
    case 0:
      return 0;
    case 1:
      return a;
    case 2:
      return -a;
    case 3:
      return 0;
    case 4:
      return 1 - a;
    case 5:
      return 1;
    case 6:
      return 1 - 2 * a;
    case 7:
      return 1 - a;
    case 8:
      return -(1 - a);
    case 9:
      return -(1 - 2 * a);
    case 10:
      return -1;
    case 11:
      return -1 + a;
    case 12:
      return 0;
    case 13:
      return a;
    case 14:
      return -a;
    case 15:
      return 0;
  }
  throw std::invalid_argument("op index");
}

namespace {

using Vec = std::vector<double>;

// Everything one cell computed in one step.
struct CellRecord {
  std::vector<std::vector<Vec>>
      perception;           // [c*K + k][layer 0 = patch of channel c, then gate layers]
  std::vector<Vec> update;  // [0] = update input x, then each gate layer's outputs
};

struct GateWeights {
  std::vector<Vec> p;  // per gate: the 16 op weights (softmax, or one-hot when hard)
};

// Whether op's truth table outputs 1 on input pattern q = 2a + b.
bool op_outputs_one(int op, int q) { return (op >> (3 - q)) & 1; }

// Input-wise gates: each pattern q outputs 1 with chance s_q = (1 + sin w_q) / 2, independently, so
// op i has weight prod_q (s_q or 1 - s_q); when hard, one-hot at the op of the signs of sin w.
GateWeights input_wise_weights(const std::vector<double>& w, bool hard) {
  GateWeights weights;
  const size_t gates = w.size() / 4;
  weights.p.resize(gates, Vec(16, 0.0));
  for (size_t g = 0; g < gates; ++g) {
    for (int i = 0; i < 16; ++i) {
      double chance = 1;
      for (int q = 0; q < 4; ++q) {
        const double s =
            hard ? (std::sin(w[g * 4 + q]) >= 0 ? 1.0 : 0.0) : 0.5 + 0.5 * std::sin(w[g * 4 + q]);
        chance *= op_outputs_one(i, q) ? s : 1 - s;
      }
      weights.p[g][i] = chance;
    }
  }
  return weights;
}

// Softmax of logits / temperature per gate, or one-hot at the argmax when hard; input-wise gates
// as input_wise_weights.
GateWeights gate_weights(GateKind kind, const std::vector<double>& logits, bool hard,
                         double temperature) {
  if (kind == GateKind::kInputWise) return input_wise_weights(logits, hard);
  GateWeights w;
  const size_t gates = logits.size() / 16;
  w.p.resize(gates, Vec(16, 0.0));
  for (size_t g = 0; g < gates; ++g) {
    const double* z = &logits[g * 16];
    const int best = int(std::max_element(z, z + 16) - z);
    if (hard) {
      w.p[g][best] = 1;
      continue;
    }
    double sum = 0;
    for (int i = 0; i < 16; ++i) sum += w.p[g][i] = std::exp((z[i] - z[best]) / temperature);
    for (int i = 0; i < 16; ++i) w.p[g][i] /= sum;
  }
  return w;
}

double gate_forward(const Vec& p, double a, double b) {
  double out = 0;
  for (int i = 0; i < 16; ++i) out += p[i] * op_value(i, a, b);
  return out;
}

// Adds dL/dp to dp and returns (dL/da, dL/db) for upstream g.
std::pair<double, double> gate_backward(const Vec& p, double a, double b, double g, Vec& dp) {
  double da = 0, db = 0;
  for (int i = 0; i < 16; ++i) {
    dp[i] += g * op_value(i, a, b);
    da += p[i] * op_da(i, a, b);
    db += p[i] * op_db(i, a, b);
  }
  return {g * da, g * db};
}

}  // namespace

Result run(const Model& model, const std::vector<double>& logits, const Target& target,
           const std::vector<float>& initial, int batch, const std::vector<uint8_t>& masks,
           bool hard, bool gradient, double forward_temperature,
           const std::vector<uint8_t>& hardened) {
  const ExperimentConfig& cfg = model.config;
  const int C = cfg.channels, K = cfg.kernels, H = cfg.height, W = cfg.width,
            S = cfg.perception_outputs();
  const int P = int(model.perception_layers.size()), U = int(model.update_layers.size());
  GateWeights w = gate_weights(cfg.gates, logits, hard, forward_temperature);
  const GateWeights fixed = gate_weights(cfg.gates, logits, true, 1.0);
  for (size_t g = 0; g < hardened.size(); ++g)
    if (hardened[g]) w.p[g] = fixed.p[g];
  if (cfg.async && masks.size() != size_t(cfg.steps) * H * W)
    throw std::invalid_argument("reference: async config needs steps x H x W fire masks");
  const auto sidx = [&](int b, int c, int y, int x) {
    return ((size_t(b) * C + c) * H + y) * W + x;
  };
  // State value at (y + dy, x + dx) with wrap or zero padding; returns false if outside.
  const auto neighbour = [&](int y, int x, int p, int& ny, int& nx) {
    ny = y + p / 3 - 1;
    nx = x + p % 3 - 1;
    if (cfg.periodic) {
      ny = (ny + H) % H;
      nx = (nx + W) % W;
      return true;
    }
    return ny >= 0 && ny < H && nx >= 0 && nx < W;
  };
  const auto fired = [&](int step, int y, int x) {
    return !cfg.async || masks[(size_t(step) * H + y) * W + x];
  };

  std::vector<Vec> states(cfg.steps + 1);
  states[0].assign(initial.begin(), initial.end());
  std::vector<std::vector<CellRecord>> records(cfg.steps);  // [step][(b*H + y)*W + x]

  for (int s = 0; s < cfg.steps; ++s) {
    const Vec& old = states[s];
    Vec next = old;
    records[s].resize(size_t(batch) * H * W);
    for (int b = 0; b < batch; ++b)
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
          CellRecord& rec = records[s][(size_t(b) * H + y) * W + x];
          rec.perception.resize(size_t(C) * K);
          Vec input(cfg.update_layers[0]);
          for (int c = 0; c < C; ++c) {
            Vec patch(9, 0.0);
            for (int p = 0; p < 9; ++p) {
              int ny, nx;
              if (neighbour(y, x, p, ny, nx)) patch[p] = old[sidx(b, c, ny, nx)];
            }
            input[c] = patch[4];
            for (int k = 0; k < K; ++k) {
              auto& layers = rec.perception[size_t(c) * K + k];
              layers.push_back(patch);
              for (int l = 0; l < P; ++l) {
                const LayerWiring& wire = model.perception_wiring[l];
                Vec out(wire.size());
                for (size_t j = 0; j < wire.size(); ++j)
                  out[j] = gate_forward(w.p[model.perception_layers[l].gate(k, int(j))],
                                        layers[l][wire.a[j]], layers[l][wire.b[j]]);
                layers.push_back(out);
              }
              for (int sbit = 0; sbit < S; ++sbit)
                input[C + c * S * K + sbit * K + k] = layers.back()[sbit];
            }
          }
          rec.update.push_back(input);
          for (int l = 0; l < U; ++l) {
            const LayerWiring& wire = model.update_wiring[l];
            Vec out(wire.size());
            for (size_t j = 0; j < wire.size(); ++j)
              out[j] = gate_forward(w.p[model.update_layers[l].gate(0, int(j))],
                                    rec.update[l][wire.a[j]], rec.update[l][wire.b[j]]);
            rec.update.push_back(out);
          }
          if (fired(s, y, x))
            for (int c = 0; c < C; ++c) next[sidx(b, c, y, x)] = rec.update.back()[c];
        }
    states[s + 1] = next;
  }

  Result result;
  result.final_state = states[cfg.steps];
  // The loss of every state from steps - loss_steps + 1 to steps; dL/d(state) of each.
  std::vector<Vec> d_loss(size_t(cfg.steps) + 1, Vec(result.final_state.size(), 0.0));
  for (int t = cfg.steps - cfg.loss_steps + 1; t <= cfg.steps; ++t)
    for (int b = 0; b < batch; ++b)
      for (int c : cfg.loss_channels)
        for (int y = 0; y < H; ++y)
          for (int x = 0; x < W; ++x) {
            const double diff = states[t][sidx(b, c, y, x)] - target.at(b, c, y, x);
            result.loss += diff * diff;
            d_loss[t][sidx(b, c, y, x)] = 2 * diff;
          }
  if (!gradient) return result;

  Vec d_state = d_loss[cfg.steps];
  std::vector<Vec> dp(w.p.size(), Vec(16, 0.0));  // dL/d(op weights) per gate
  for (int s = cfg.steps - 1; s >= 0; --s) {
    if (s + 1 < cfg.steps)
      for (size_t i = 0; i < d_state.size(); ++i) d_state[i] += d_loss[s + 1][i];
    Vec d_old(d_state.size(), 0.0);
    for (int b = 0; b < batch; ++b)
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
          const CellRecord& rec = records[s][(size_t(b) * H + y) * W + x];
          if (!fired(s, y, x)) {
            for (int c = 0; c < C; ++c) d_old[sidx(b, c, y, x)] += d_state[sidx(b, c, y, x)];
            continue;
          }
          Vec d_out(C);
          for (int c = 0; c < C; ++c) d_out[c] = d_state[sidx(b, c, y, x)];
          for (int l = U - 1; l >= 0; --l) {
            const LayerWiring& wire = model.update_wiring[l];
            Vec d_in(rec.update[l].size(), 0.0);
            for (size_t j = 0; j < wire.size(); ++j) {
              const int g = model.update_layers[l].gate(0, int(j));
              const auto [da, db] = gate_backward(w.p[g], rec.update[l][wire.a[j]],
                                                  rec.update[l][wire.b[j]], d_out[j], dp[g]);
              d_in[wire.a[j]] += da;
              d_in[wire.b[j]] += db;
            }
            d_out = d_in;
          }
          // d_out is now dL/d(update input).
          for (int c = 0; c < C; ++c) {
            Vec d_patch(9, 0.0);
            d_patch[4] += d_out[c];
            for (int k = 0; k < K; ++k) {
              const auto& layers = rec.perception[size_t(c) * K + k];
              Vec d_layer(layers.back().size(), 0.0);
              for (int sbit = 0; sbit < S; ++sbit)
                d_layer[sbit] = d_out[C + c * S * K + sbit * K + k];
              for (int l = P - 1; l >= 0; --l) {
                const LayerWiring& wire = model.perception_wiring[l];
                Vec d_in(layers[l].size(), 0.0);
                for (size_t j = 0; j < wire.size(); ++j) {
                  const int g = model.perception_layers[l].gate(k, int(j));
                  const auto [da, db] = gate_backward(w.p[g], layers[l][wire.a[j]],
                                                      layers[l][wire.b[j]], d_layer[j], dp[g]);
                  d_in[wire.a[j]] += da;
                  d_in[wire.b[j]] += db;
                }
                d_layer = d_in;
              }
              for (int p = 0; p < 9; ++p) d_patch[p] += d_layer[p];
            }
            for (int p = 0; p < 9; ++p) {
              int ny, nx;
              if (neighbour(y, x, p, ny, nx)) d_old[sidx(b, c, ny, nx)] += d_patch[p];
            }
          }
        }
    d_state = d_old;
  }

  result.grad.assign(logits.size(), 0.0);
  if (cfg.gates == GateKind::kInputWise) {
    // d weight_i / d s_q is the product over the other patterns, with the sign of op i's output on
    // q; ds_q / dw_q = cos(w_q) / 2.
    for (size_t g = 0; g < dp.size(); ++g)
      for (int q = 0; q < 4 && !(g < hardened.size() && hardened[g]); ++q) {
        double d_s = 0;
        for (int i = 0; i < 16; ++i) {
          double others = 1;
          for (int r = 0; r < 4; ++r) {
            if (r == q) continue;
            const double s = 0.5 + 0.5 * std::sin(logits[g * 4 + r]);
            others *= op_outputs_one(i, r) ? s : 1 - s;
          }
          d_s += dp[g][i] * (op_outputs_one(i, q) ? others : -others);
        }
        result.grad[g * 4 + q] = d_s * 0.5 * std::cos(logits[g * 4 + q]);
      }
    return result;
  }
  // The softmax backward, always of the undivided logits (forward-only sharpening).
  const GateWeights plain = gate_weights(GateKind::kSoftmax, logits, false, 1.0);
  for (size_t g = 0; g < plain.p.size(); ++g) {
    if (g < hardened.size() && hardened[g]) continue;  // a fixed op: no gradient
    const Vec& p = plain.p[g];
    double mean = 0;
    for (int i = 0; i < 16; ++i) mean += p[i] * dp[g][i];
    for (int j = 0; j < 16; ++j) result.grad[g * 16 + j] = p[j] * (dp[g][j] - mean);
  }
  return result;
}

}  // namespace dlca::reference
