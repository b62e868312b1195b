// The reference implementation, used only by tests: plain scalar double-precision code written
// straight from docs/MODEL.md with the literal 16-op formulas, every activation stored, and a
// hand-written backward pass through time. Small and obviously right; slow. It shares only the
// model's wiring, the async fire-mask draw and the target with the code under test.
#pragma once

#include <cstdint>
#include <vector>

#include "dlca/core/grid.hpp"
#include "dlca/core/model.hpp"

namespace dlca::reference {

// op_i(a, b) as the notebook writes it, and its partial derivatives.
double op_value(int op, double a, double b);
double op_da(int op, double a, double b);
double op_db(int op, double a, double b);

struct Result {
  double loss = 0;
  std::vector<double> grad;         // dL/dlogits (empty unless requested)
  std::vector<double> final_state;  // [batch][C][H][W]
};

// Runs the rollout of model.config with the given logits (double), either soft or hard (one-hot
// weights at each gate's argmax), from `initial` ([batch][C][H][W]); `masks` are the async fire
// masks ([step][H*W], empty when synchronous). forward_temperature: the soft forward pass uses
// softmax(logits / T) while the logit gradient goes through softmax(logits) (forward-only
// sharpening; T = 1 is the exact gradient). `hardened` (progressive hardening): empty, or one flag
// per gate; a flagged gate uses its hard op's one-hot weights in the soft pass too, so its
// parameters' gradient is 0.
Result run(const Model& model, const std::vector<double>& logits, const Target& target,
           const std::vector<float>& initial, int batch, const std::vector<uint8_t>& masks,
           bool hard, bool gradient, double forward_temperature = 1.0,
           const std::vector<uint8_t>& hardened = {});

}  // namespace dlca::reference
