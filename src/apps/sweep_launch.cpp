// How dlca_sweep tells an MPI launch (mpirun, srun) from a plain one: the launchers' environment
// (Open MPI's mpirun, PMI, a Slurm job step of several tasks) and which rank this process is.
#include <cstdlib>
#include <string>

#include "sweep_mpi.hpp"

namespace dlca::cli {

bool launched_on_several_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"})
    if (const char* value = std::getenv(name); value && std::atoi(value) > 1) return true;
  return false;
}

int launched_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return 0;
}

}  // namespace dlca::cli
