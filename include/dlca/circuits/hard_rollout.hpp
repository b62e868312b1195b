// Hard (boolean) rollouts, bit-sliced: each gate's argmax op applied with bitwise operations to
// 64 cells per machine word. Used for the hard loss every epoch and for hard evaluations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include "dlca/core/cell_program.hpp"
#include "dlca/core/grid.hpp"

namespace dlca {

// Steps a batch of grids with a hard circuit. States are [batch][C][H][W] bytes, 0 or 1.
class HardSimulator {
 public:
  // Keeps references to program and geometry, which must outlive it: temporaries do not compile.
  HardSimulator(const CellProgram& program, std::vector<uint8_t> ops, const GridGeometry& geometry);
  HardSimulator(CellProgram&&, std::vector<uint8_t>, const GridGeometry&) = delete;
  HardSimulator(const CellProgram&, std::vector<uint8_t>, GridGeometry&&) = delete;
  HardSimulator(CellProgram&&, std::vector<uint8_t>, GridGeometry&&) = delete;
  void set_state(const float* state);  // thresholded at 0.5
  void set_state(const std::vector<uint8_t>& state);
  // One step; fire_mask ([H*W], 1 = update, shared by the batch) or null for a synchronous step.
  void step(const uint8_t* fire_mask = nullptr);
  std::vector<uint8_t> state() const;
  // Sum over the loss channels of (bit - target)^2: the number of wrong bits for binary targets.
  double loss(const Target& target, const std::vector<int>& loss_channels) const;

 private:
  bool bit(int channel, int cell) const {
    return (state_[channel * words_ + (cell >> 6)] >> (cell & 63)) & 1;
  }
  const CellProgram& program_;
  std::vector<uint8_t> ops_;
  const GridGeometry& geometry_;
  size_t words_;
  std::vector<uint64_t> state_, next_, fire_;
  size_t block_words_ = 1;                                       // words evaluated together
  tbb::enumerable_thread_specific<std::vector<uint64_t>> rows_;  // per thread: [row][block word]
  // Cells are row-major, so the patch plane of position p is the state shifted by shift_[p] bits,
  // except at the cells listed in fixups_[p] (grid edges, sample edges), set from the neighbour
  // table.
  int64_t shift_[9];
  std::vector<int32_t> fixups_[9];
};

struct HardRollout {
  std::vector<uint8_t> final_state;  // [batch][C][H][W], 0 or 1
  double loss = 0;                   // wrong bits over the loss channels after the last step
};

// initial_state values are thresholded at 0.5. masks: [step][H*W] for async, null for sync.
HardRollout hard_rollout(const CellProgram& program, const std::vector<uint8_t>& ops,
                         const GridGeometry& geometry, const float* initial_state, int steps,
                         const uint8_t* masks, const Target& target,
                         const std::vector<int>& loss_channels);

}  // namespace dlca
