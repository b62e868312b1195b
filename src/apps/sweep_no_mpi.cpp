// dlca_sweep built without MPI: an MPI sweep is refused with how to get one.
#include "cli_parse.hpp"
#include "sweep_mpi.hpp"

namespace dlca::cli {

int run_sweep_mpi(Sweep&, int, int, std::ostream&, const std::function<void(int)>&,
                  const std::function<int(bool)>&) {
  throw UsageError(
      "this dlca_sweep was built without MPI; install Open MPI (Debian: apt-get install "
      "openmpi-bin libopenmpi-dev, or tools/install_deps.sh) and build again, or run without "
      "mpirun and --mpi (--jobs N runs on this machine)");
}

}  // namespace dlca::cli
