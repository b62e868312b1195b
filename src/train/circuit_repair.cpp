// Greedy repair of a hard circuit (see circuit_repair.hpp).
#include "dlca/train/circuit_repair.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include <tbb/task_arena.h>

#include "dlca/circuits/hard_rollout.hpp"
#include "dlca/core/input_wise_gates.hpp"
#include "dlca/core/model.hpp"
#include "dlca/core/ops.hpp"
#include "dlca/core/parallel_for_index.hpp"
#include "dlca/cpu/cpu_backend.hpp"

namespace dlca {

std::vector<uint8_t> gates_reaching_outputs(const CellProgram& program,
                                            const std::vector<uint8_t>& ops) {
  std::vector<uint8_t> needed(program.num_rows, 0), reaching(ops.size(), 0);
  for (uint32_t row : program.output_rows) needed[row] = 1;
  for (auto op = program.ops.rbegin(); op != program.ops.rend(); ++op) {
    if (!needed[op->out]) continue;
    reaching[op->gate] = 1;
    if (op_reads_a(ops[op->gate])) needed[op->a] = 1;
    if (op_reads_b(ops[op->gate])) needed[op->b] = 1;
  }
  return reaching;
}

RepairReport search_repair(const RepairProblem& problem, GateKind gate_kind,
                           const std::vector<float>& logits, const RepairSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  RepairReport report;
  std::vector<uint8_t> ops = hard_ops(gate_kind, logits);
  for (const GateChange& c : settings.start_from) ops[size_t(c.gate)] = uint8_t(c.to_op);
  report.changes = settings.start_from;
  const auto score = [&](const std::vector<uint8_t>& circuit) {
    double loss = 0;
    for (const RepairBatch& batch : problem.batches)
      loss += hard_rollout(*problem.program, circuit, *problem.geometry, batch.initial_state,
                           problem.steps, batch.masks, *batch.target, *problem.loss_channels,
                           problem.loss_steps)
                  .loss;
    return loss;
  };
  report.batches = int(problem.batches.size());
  report.scored_states = problem.loss_steps;
  double best = score(ops);
  report.hard_loss_before = best;
  ++report.evaluations;

  // The candidates: uncertain gates first (lowest top probability), each one's likely other ops.
  const std::vector<float> probabilities = op_probabilities(gate_kind, logits);
  const size_t gates = ops.size();
  std::vector<size_t> order(gates);
  std::iota(order.begin(), order.end(), 0);
  const auto top = [&](size_t g) { return probabilities[g * kNumOps + ops[g]]; };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return top(a) < top(b); });
  const std::vector<uint8_t> reaching =
      settings.every_op ? gates_reaching_outputs(*problem.program, ops) : std::vector<uint8_t>();
  std::vector<GateChange> candidates;
  for (size_t g : order) {
    if (settings.every_op) {
      if (!reaching[g]) continue;
    } else if (top(g) >= settings.uncertain_below) {
      break;
    }
    std::vector<int> others;
    for (int op = 0; op < kNumOps; ++op)
      if (op != ops[g] &&
          (settings.every_op || probabilities[g * kNumOps + op] >= settings.min_probability))
        others.push_back(op);
    std::stable_sort(others.begin(), others.end(), [&](int a, int b) {
      return probabilities[g * kNumOps + a] > probabilities[g * kNumOps + b];
    });
    if (!settings.every_op && int(others.size()) > settings.max_alternatives)
      others.resize(settings.max_alternatives);
    for (int op : others) candidates.push_back({int(g), ops[g], op});
  }
  report.candidates = int(candidates.size());

  tbb::task_arena arena(arena_concurrency(settings.threads));
  const size_t chunk = size_t(std::max(1, arena.max_concurrency())) * 4;
  std::vector<double> losses(chunk);
  int64_t consumed = 1;  // the start's score
  for (int pass = 0; pass < settings.max_passes && best > 0; ++pass) {
    bool improved = false;
    size_t next = 0;
    while (next < candidates.size() && best > 0) {
      if (settings.stop && settings.stop()) {
        report.stopped = true;
        break;
      }
      // The budget counts the rollouts a one-at-a-time search would run (the start's, then one
      // per candidate up to each change taken), so where it ends does not depend on the threads.
      if (settings.max_evaluations > 0 && consumed >= settings.max_evaluations) {
        report.out_of_budget = true;
        break;
      }
      size_t count = std::min(chunk, candidates.size() - next);
      if (settings.max_evaluations > 0)
        count = std::min(count, size_t(settings.max_evaluations - consumed));
      arena.execute([&] {
        parallel_for_index(count, [&](size_t i) {
          const GateChange& c = candidates[next + i];
          if (ops[c.gate] == c.to_op) {  // already this op (changed earlier)
            losses[i] = best;
            return;
          }
          std::vector<uint8_t> changed = ops;
          changed[c.gate] = uint8_t(c.to_op);
          losses[i] = score(changed);
        });
      });
      report.evaluations += int64_t(count);
      size_t taken = count;
      for (size_t i = 0; i < count; ++i)
        if (losses[i] < best) {
          taken = i;
          break;
        }
      consumed += int64_t(std::min(taken + 1, count));
      if (taken == count) {
        next += count;
        continue;
      }
      const GateChange& c = candidates[next + taken];
      report.changes.push_back({c.gate, ops[c.gate], c.to_op});
      ops[c.gate] = uint8_t(c.to_op);
      best = losses[taken];
      improved = true;
      next += taken + 1;  // the rest of the chunk is scored again against the changed circuit
    }
    if (!improved || report.stopped || report.out_of_budget) break;
  }
  report.hard_loss_after = best;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

void apply_repair(const std::vector<GateChange>& changes, GateKind gate_kind,
                  std::vector<float>& logits, std::vector<std::vector<float>*> companions) {
  if (gate_kind == GateKind::kInputWise) {
    for (const GateChange& c : changes) {
      float* w = &logits[size_t(c.gate) * kInputPatterns];
      const float before[kInputPatterns] = {w[0], w[1], w[2], w[3]};
      input_wise_set_op(w, c.to_op);
      for (int p = 0; p < kInputPatterns; ++p)
        if (w[p] != before[p])
          for (std::vector<float>* v : companions) (*v)[size_t(c.gate) * kInputPatterns + p] = 0;
    }
    return;
  }
  for (const GateChange& c : changes) {
    const size_t base = size_t(c.gate) * kNumOps;
    const float* z = &logits[base];
    const size_t top = size_t(std::max_element(z, z + kNumOps) - z);
    const size_t to = base + size_t(c.to_op), from = base + top;
    if (to == from) continue;
    std::swap(logits[to], logits[from]);
    for (std::vector<float>* v : companions) std::swap((*v)[to], (*v)[from]);
    // Equal logits: the first maximum wins, so lift the new op just above.
    if (hard_ops(GateKind::kSoftmax, {logits.begin() + long(base),
                                      logits.begin() + long(base + kNumOps)})[0] != c.to_op)
      logits[to] = std::nextafter(logits[to], INFINITY);
  }
}

}  // namespace dlca
