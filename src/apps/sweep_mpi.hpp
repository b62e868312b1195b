// dlca_sweep over MPI ranks: rank 0 deals the runs out as ranks become free and records the rows
// they send back; every other rank trains one run at a time with its own threads. Built from
// sweep_mpi.cpp when CMake finds MPI, else from sweep_no_mpi.cpp, which explains how to get it.
#pragma once

#include <functional>
#include <ostream>

#include "dlca/train/sweep.hpp"

namespace dlca::cli {

// True when the process was started by mpirun or srun with more than one rank.
bool launched_on_several_ranks();
// This process's rank as mpirun or srun numbered it (0 when not launched by them).
int launched_rank();

// Opens the sweep on rank 0 and runs it over all ranks (a single rank runs it locally with
// `jobs`). `announce_opened(runs_at_once)` and `finish(complete)` are called on rank 0 only, once
// the folder is open and at the end; finish gives the exit status; other ranks return 0, or the
// status rank 0 reports. Throws std::runtime_error in a build without MPI.
int run_sweep_mpi(Sweep& sweep, int jobs, int threads, std::ostream& out,
                  const std::function<void(int runs_at_once)>& announce_opened,
                  const std::function<int(bool complete)>& finish);

}  // namespace dlca::cli
