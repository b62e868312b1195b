# dlca_sweep: the files a small sweep writes, --jobs, an interrupted sweep resumed, mpirun against
# no MPI (skipped where dlca_sweep was built without MPI), and bad arguments (one line, exit 2).
set(sweep $<TARGET_FILE:dlca_sweep>)
set(sweep_sh ${CMAKE_CURRENT_SOURCE_DIR}/hostile/sweep.sh)
set(sweep_mpiexec "")
if(DLCA_HAVE_MPI)
  set(sweep_mpiexec ${MPIEXEC_EXECUTABLE})
endif()
foreach(case files jobs resume mpi recipes)
  dlca_cli_test(sweep.${case} ${sweep_sh} ${case} ${sweep} ${sweep_mpiexec})
  set_tests_properties(sweep.${case} PROPERTIES PASS_REGULAR_EXPRESSION "sweep ${case} ok")
endforeach()
set(sweep_args --config checkerboard_sync --seeds 1-2 --epochs 2 --out s)
dlca_cli_test(sweep.seeds_backwards ${expect} "^dlca_sweep: --seeds: 5-1: the range ends before it starts$"
  ${sweep} --config checkerboard_sync --seeds 5-1 --out s)
dlca_cli_test(sweep.seeds_not_a_number ${expect} "^dlca_sweep: --seeds: 'x' is not a seed"
  ${sweep} --config checkerboard_sync --seeds 1,x --out s)
dlca_cli_test(sweep.set_unknown_key ${expect} "^dlca_sweep: --set nokey=1: nokey: unknown configuration key$"
  ${sweep} ${sweep_args} --set nokey=1)
dlca_cli_test(sweep.set_bad_value ${expect} "^dlca_sweep: --set lr=abc: lr: .*abc"
  ${sweep} ${sweep_args} --set lr=abc)
dlca_cli_test(sweep.set_not_key_value ${expect} "^dlca_sweep: --set: 'lr' is not KEY=VALUE"
  ${sweep} ${sweep_args} --set lr)
dlca_cli_test(sweep.set_seed ${expect} "^dlca_sweep: --set seed: give the seeds with --seeds$"
  ${sweep} ${sweep_args} --set seed=1,2)
dlca_cli_test(sweep.recipe_unknown ${expect} "^dlca_sweep: --recipe: fast not in \\{paper,robust\\}"
  ${sweep} ${sweep_args} --recipe fast)
dlca_cli_test(sweep.out_is_a_file ${expect} "^dlca_sweep: --out s: exists and is not a directory$"
  sh -c "touch s && exec ${sweep} --config checkerboard_sync --seeds 1 --epochs 2 --out s")
dlca_cli_test(sweep.out_not_a_sweep ${expect} "^dlca_sweep: --out s: is not empty and holds no sweep.json"
  sh -c "mkdir s && touch s/mine && exec ${sweep} --config checkerboard_sync --seeds 1 --epochs 2 --out s")
dlca_cli_test(sweep.unknown_experiment ${expect} "^dlca_sweep: nothing_here.json: cannot open"
  ${sweep} --config nothing_here.json --seeds 1 --out s)
if(NOT DLCA_HAVE_MPI)
  dlca_cli_test(sweep.mpi_not_built ${expect} "^dlca_sweep: this dlca_sweep was built without MPI; install Open MPI"
    ${sweep} ${sweep_args} --mpi)
endif()
# Values written differently that read the same would run one configuration twice.
dlca_cli_test(sweep.same_value_twice ${expect}
  "^dlca_sweep: --set: adam_eps=1e-8 and adam_eps=1e-08 give the same configuration$"
  ${sweep} --config game_of_life --seeds 1 --epochs 1 --out sw --set adam_eps=1e-8,1e-08)
# Exit statuses as every program has them: a file that cannot be read is 1, a bad value 2.
dlca_cli_test(sweep.unreadable_experiment_is_1 ${expect} --status 1 "^dlca_sweep: nothing_here.json: cannot open"
  ${sweep} --config nothing_here.json --seeds 1 --out s)
dlca_cli_test(sweep.unknown_experiment_name_is_2 ${expect} --status 2 "^dlca_sweep: 'nothing_here': no experiment of that name"
  ${sweep} --config nothing_here --seeds 1 --out s)
set(sweep_tiny "${sweep} --config checkerboard_sync --seeds 1-2 --epochs 2 --set steps=2 --out s")
dlca_cli_test(sweep.damaged_row_is_1 sh -c "${sweep_tiny} >/dev/null \
  && sed -i 's/\"active_gates\": [0-9]*/\"active_gates\": 1e10/' s/runs/steps=2_seed1.json \
  && ${expect} --status 1 '^dlca_sweep: s/runs/steps=2_seed1.json: not a finished run.s row \\(active_gates: must be a non-negative integer, got 1' \
  ${sweep_tiny}")
# --jobs beyond --threads would run more threads than asked for.
dlca_cli_test(sweep.jobs_beyond_threads ${expect} --status 2
  "^dlca_sweep: --jobs 3: more runs at once than --threads 1 \\(give at least as many threads\\)$"
  ${sweep} ${sweep_args} --jobs 3 --threads 1)
dlca_cli_test(sweep.seed_range_half_missing ${expect} --status 2
  "^dlca_sweep: --seeds: '1-' is not a seed or a range A-B of seeds"
  ${sweep} --config checkerboard_sync --seeds 1- --out s)
