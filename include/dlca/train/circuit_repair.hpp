// Greedy repair of a trained hard circuit (docs/training.md, "Circuit repair"): when training ends
// with a few wrong bits, try each uncertain gate's other likely ops one at a time, keeping a change
// whenever the hard loss falls, until it is 0 or no single change helps; then, if a few bits are
// left, every op of every gate that reaches an output (the wide search).
#pragma once

#include <algorithm>

#include <cstdint>
#include <functional>
#include <vector>

#include "dlca/core/cell_program.hpp"
#include "dlca/core/config.hpp"
#include "dlca/core/grid.hpp"

namespace dlca {

// One op change of a gate.
struct GateChange {
  int gate = 0;
  int from_op = 0, to_op = 0;
};

struct RepairSettings {
  double uncertain_below = 0.9;   // gates whose top op has a softmax probability below this
  double min_probability = 0.02;  // alternatives: ops with at least this probability,
  int max_alternatives = 2;       // the most likely ones of each gate
  int max_passes = 10;            // sweeps over the candidates while one improves
  // Batches of data a circuit is scored on: those of the next `batches` epochs, identical ones
  // counted once (a task whose every epoch sees the same grids has one). A change must lower
  // their summed hard loss, so a circuit fixed for one draw of random starts or fire masks alone
  // is not taken for a working one.
  int batches = 16;
  // Hard rollouts (each scoring every batch) the search may run, at most: 0, no limit. A circuit
  // far from working has many uncertain gates and would take minutes to search in vain.
  int64_t max_evaluations = 0;
  int threads = 0;             // 0: all cores
  std::function<bool()> stop;  // asked between chunks; true ends the search (Ctrl-C)
  // The wide search: every other op of every gate that reaches an output (in the circuit the
  // search starts from), least certain gates first, each one's ops by falling probability;
  // uncertain_below, min_probability and max_alternatives are not used.
  bool every_op = false;
  // Changes made before the search starts, as an earlier search found them (a wide search goes on
  // from a narrow one's circuit): the report's hard_loss_before is that circuit's, and its changes
  // begin with these.
  std::vector<GateChange> start_from;
};

struct RepairReport {
  double hard_loss_before = 0, hard_loss_after = 0;  // summed over the batches
  int batches = 0;                                   // distinct batches scored
  int scored_states = 1;            // states of each batch compared with the target (RepairProblem)
  std::vector<GateChange> changes;  // in the order applied; the last op of a gate counts
  int64_t evaluations = 0;          // hard rollouts run
  int candidates = 0;               // (gate, op) alternatives considered per pass
  double seconds = 0;
  bool stopped = false;        // ended by RepairSettings::stop
  bool out_of_budget = false;  // ended at RepairSettings::max_evaluations
};

// The hard rollouts a training run's repair may spend on one candidate: twice the run's epochs, at
// least 1000 (the repairs that worked in results/log/training.md took 89 and 1547 for 236- and
// 800-epoch runs).
inline int64_t repair_budget(int64_t epochs) { return std::max<int64_t>(1000, 2 * epochs); }

// The wide search (RepairSettings::every_op) after a training run's narrow ones have failed: on
// each candidate they left with at most this many wrong bits a scored batch and state (a circuit
// further off has too many candidates to search in vain), with ten times the narrow search's
// rollouts (the heart's seed 13, 2 wrong bits to 0 by one change, took 22497 after its narrow
// searches of a 3000-epoch run). The second wide pass, from the same candidates' trained circuits
// (training_loop.cpp), uses the narrow results' count too, so it may start further off.
inline constexpr double kWideRepairMaxWrongBits = 16;
inline int64_t wide_repair_budget(int64_t epochs) { return 10 * repair_budget(epochs); }

// The searches a training run's repair makes, by the names its summary lines, its record
// ("search") and sweep rows ("repair_search") give them: the narrow one, then the wide ones from
// the narrow search's result, then again from the trained circuits.
inline constexpr const char* kRepairSearchNames[] = {"narrow", "every op",
                                                     "every op from the trained circuit"};
enum class RepairSearch { kNarrow, kWide, kWideFromTrained };
inline const char* repair_search_name(RepairSearch search) {
  return kRepairSearchNames[int(search)];
}

// One batch of the hard rollouts the repair scores circuits with: synchronous when masks is null.
struct RepairBatch {
  const float* initial_state = nullptr;
  const uint8_t* masks = nullptr;
  const Target* target = nullptr;
};

// A circuit's score: its hard loss summed over the batches.
struct RepairProblem {
  const CellProgram* program = nullptr;
  const GridGeometry* geometry = nullptr;
  int steps = 0;
  const std::vector<int>* loss_channels = nullptr;
  std::vector<RepairBatch> batches;
  int loss_steps = 1;  // the last states scored (config.hpp)
};

// One flag per gate: whether any use of it reaches a new state through the ops that read it
// (op_reads_a, op_reads_b). Changing a gate that does not cannot change the
// circuit's output: the wide search leaves it out.
std::vector<uint8_t> gates_reaching_outputs(const CellProgram& program,
                                            const std::vector<uint8_t>& ops);

// First-improvement search over (gate, op) alternatives in a fixed order (gates by rising top
// probability, then each gate's alternatives by falling probability): a change is kept when it
// lowers the hard loss. Candidates are scored in parallel in chunks, the first improving one in
// order is kept, so the result is the same at any thread count. `logits` (the gates' parameters,
// of kind `gates`) give the circuit (with settings.start_from changed) and rank the candidates;
// nothing is changed.
RepairReport search_repair(const RepairProblem& problem, GateKind gates,
                           const std::vector<float>& logits, const RepairSettings& settings = {});

// Makes each change's op the gate's hard op. Softmax gates: its logit and the old top one are
// swapped (the same entries of any `companions`, such as optimizer moments, are swapped alike).
// Input-wise gates: the angles whose output differs are negated (input_wise_set_op), and the same
// entries of the companions set to 0.
void apply_repair(const std::vector<GateChange>& changes, GateKind gates,
                  std::vector<float>& logits, std::vector<std::vector<float>*> companions = {});

}  // namespace dlca
