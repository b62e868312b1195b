// Multi-start training (the `robust` recipe): a run of K starts trains K candidates side by side,
// candidate k being the complete run of seed start_seed(seed, k) (its own wiring, data and masks),
// all one epoch at a time. The run stops when one has held hard loss 0 for stop_when_solved epochs
// (the lowest start wins a tie) and keeps that one. Every candidate depends only on its seed, so
// the same one wins at any thread count, on any backend.
#pragma once

#include <stdexcept>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <tbb/task_arena.h>

#include "dlca/core/backend.hpp"
#include "dlca/core/config.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/train/task.hpp"
#include "dlca/train/trainer.hpp"

namespace dlca {

// A run's options contradict the checkpoint it resumes: bad usage (exit status 2), not a failure.
class ResumeMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The refusal of a resume that would continue a settled multi-start run (solved, repaired: its
// file keeps the chosen candidate alone) as the whole run.
ResumeMismatch settled_run_error(const std::string& path, const MultiStartRecord& record);

// Start 0 is the run's own seed; the others are hashed from it, below 2^32 (JAX streams need that).
uint64_t start_seed(uint64_t run_seed, int start);
// Candidate `start`'s configuration: the run's, with that start's seed and starts = 1.
ExperimentConfig start_config(const ExperimentConfig& run, int start);

// The candidates of one run and what each owns.
struct TrainingCandidate {
  std::unique_ptr<Task> task;
  std::unique_ptr<Backend> backend;
  std::unique_ptr<Trainer> trainer;
};

using MakeTask = std::function<std::unique_ptr<Task>(const ExperimentConfig&)>;
// Called once per candidate with its index; `threads` is that candidate's share of the threads.
using MakeBackend = std::function<std::unique_ptr<Backend>(int start, int threads)>;

// The threads each candidate's backend gets: `threads` in all (0 = every core) split between
// `starts` candidates, at least one each.
int threads_per_start(int threads, int starts);

// Builds candidate `start` of `run` from scratch (a new start of a halving run), with `threads`.
TrainingCandidate new_candidate(const ExperimentConfig& run, int start, const MakeTask& make_task,
                                const MakeBackend& make_backend, int threads);

// Builds run.starts candidates, fresh or continuing `resumed` (a checkpoint of this run: a plain
// one for one start, one holding every candidate for several, or a solved multi-start run's chosen
// candidate resumed alone with starts 1 and its seed). Throws std::runtime_error naming the
// checkpoint when it cannot be continued this way.
std::vector<TrainingCandidate> make_candidates(const ExperimentConfig& run,
                                               const MakeTask& make_task,
                                               const MakeBackend& make_backend, int threads,
                                               ModelFile* resumed = nullptr,
                                               const std::string& resumed_path = "");

// One candidate's epoch: its stats, or why it diverged (TrainingDiverged's message).
struct CandidateEpoch {
  EpochStats stats;
  std::string diverged;  // empty: the epoch ran
};

// Runs one epoch of every candidate: in parallel in `arena` when they train on the host's threads
// (each on its own backend's share of them); together, in one submission, when they are members
// of one device population (VulkanBackend::add_member); else one after the other on a device.
// A candidate whose epoch diverged is reported as such, the others' epochs are run and recorded;
// any other failure is thrown.
std::vector<CandidateEpoch> run_candidate_epochs(std::span<Trainer* const> candidates,
                                                 tbb::task_arena& arena);

}  // namespace dlca
