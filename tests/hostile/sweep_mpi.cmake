# dlca sweep under MPI (--mpi, mpirun) answers bad arguments as it does without MPI.
if(DLCA_HAVE_MPI)
  set(sm_tiny ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/tiny_checkerboard.json)
  set(sm_sweep "$<TARGET_FILE:dlca_sweep> --config ${sm_tiny} --seeds 1 --threads 1 --out s")
  set(sm_other "^dlca_sweep: --out s: holds a sweep with other epochs \\(see its sweep.json\\)")
  # An --out that holds another sweep was a failure (exit 1) with MPI, bad usage (2) without.
  dlca_cli_test(hostile.sweep_mpi.other_sweep_is_bad_usage sh -c "${sm_sweep} --epochs 2 > /dev/null && \
    ${expect} --status 2 '${sm_other}' ${sm_sweep} --epochs 3 && \
    ${expect} --status 2 '${sm_other}' ${sm_sweep} --epochs 3 --mpi && \
    ${expect} --status 2 '${sm_other}' ${MPIEXEC_EXECUTABLE} -np 1 --allow-run-as-root ${sm_sweep} --epochs 3")
endif()
