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
# Without --out a sweep had no folder (a usage error); it gets one named by what decides its runs,
# the same for the same command (the seeds however typed), so running it again resumes it; other
# seeds, another folder; two experiment files of one name in two folders, two folders.
dlca_cli_test(sweep.default_out sh -c "${sweep} --config checkerboard_sync --seeds 1,2 --epochs 1 \
  --threads 1 --set lr=0.05 > /dev/null && ${sweep} --config checkerboard_sync --seeds 2 --seeds 1 \
  --epochs 1 --threads 1 --set lr=0.05 && ${sweep} --config checkerboard_sync --seeds 2 --epochs 1 \
  --threads 1 > /dev/null && mkdir a b && cp ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json a/c.json && \
  cp a/c.json b/c.json && ${sweep} --config a/c.json --seeds 1 --epochs 1 --threads 1 > /dev/null && \
  ${sweep} --config b/c.json --seeds 1 --epochs 1 --threads 1 > /dev/null && ls sweeps")
set_tests_properties(sweep.default_out PROPERTIES PASS_REGULAR_EXPRESSION
  "checkerboard_sync: 2 runs, 2 finished before, 1 at once; files in \
sweeps/checkerboard_sync-seeds1,2-lr=0.05-epochs1\n.*\nc-[0-9a-f]+-seeds1-epochs1\n\
c-[0-9a-f]+-seeds1-epochs1\ncheckerboard_sync-seeds1,2-lr=0.05-epochs1\n\
checkerboard_sync-seeds2-epochs1\n$")
dlca_cli_test(sweep.out_empty ${expect} "^dlca_sweep: --out: an empty folder name"
  sh -c "exec ${sweep} --config checkerboard_sync --seeds 1 --out ''")
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

dlca_cli_test(hostile.sweep.set_and_option ${expect} --status 2
  "^dlca_sweep: --set epochs: also given as --epochs \\(give one of them\\)$"
  $<TARGET_FILE:dlca_sweep> --config ${h_tiny} --seeds 1 --epochs 2 --set epochs=3 --out s)
# A sweep row whose model file holds other parameters (another run's model copied over it).
dlca_cli_test(hostile.sweep.row_model_swapped sh -c "${h_tiny_sweep} && \
  cp s/models/seed2.json s/models/seed1.json && ${expect} \
  '^dlca_sweep: s/runs/seed1\\.json: not a finished run.s row \\(logits_checksum: crc32:[0-9a-f]+ does not match the parameters in models/seed1\\.json\\)' \
  ${h_tiny_sweep}")
# A sweep resumed after its target picture was edited mixed two targets in one table.
dlca_cli_test(hostile.sweep.picture_changed sh -c "${make_png} img.png 8 8 8 0 2 && \
  sed 's#../../../targets/lizard.png#img.png#' ${h_data}/named_checkerboard_image_task.json > e.json && \
  $<TARGET_FILE:dlca_sweep> --config e.json --seeds 1 --epochs 2 --threads 1 --out s >/dev/null && \
  ${make_png} img.png 8 8 8 0 4 && ${expect} --status 2 \
  '^dlca_sweep: --out s: holds a sweep with other target picture \\(.*img\\.png has changed since\\)' \
  $<TARGET_FILE:dlca_sweep> --config e.json --seeds 1 --epochs 2 --threads 1 --out s")
# Two sweeps in one directory trained the same runs (and one sometimes failed on the other's
# half-made directory); a sweep holds DIR/.lock while it runs.
dlca_cli_test(hostile.sweep.locked sh -c "mkdir s && flock s/.lock ${expect} \
  '^dlca_sweep: --out s: another dlca sweep is using it \\(it holds s/\\.lock\\)' \
  ${h_sweep} --config ${h_tiny} --seeds 1 --epochs 2 --threads 1 --out s")
# A combination whose task refuses it failed only when its runs came, after the others trained.
dlca_cli_test(hostile.sweep.checks_combinations_first sh -c "${expect} --status 2 \
  '^dlca_sweep: --set loss_channels=\\[1\\]: loss_channels: channel 1 has no target' \
  ${h_sweep} --config ${h_tiny} --seeds 1-3 --epochs 2 --threads 1 --out s \
  --set 'loss_channels=[0],[1]' && test ! -e s/runs")
# The same through an experiment file and dlca sweep --set.
dlca_cli_test(hostile.sweep.robust_keeps_set_epsilon sh -c "${make_png} t.png 4 4 8 0 1 && \
  sed 's/\"kind\": \"checkerboard\"/\"kind\": \"image\", \"image\": \"t.png\"/' ${h_tiny} > e.json && \
  $<TARGET_FILE:dlca_sweep> --config e.json --seeds 1 --epochs 2 --threads 1 --recipe robust \
  --set starts=1 --set repair=false --set adam_eps=1e-8,1e-12 --out s > /dev/null && \
  $<TARGET_FILE:dlca_sweep> --config e.json --seeds 1 --epochs 2 --threads 1 --recipe robust \
  --set starts=1 --set repair=false --out filled > /dev/null && \
  grep -ho '\"adam_eps\":[0-9.e-]*' s/models/*adam_eps=1e-8_seed1.json filled/models/*.json")
set_tests_properties(hostile.sweep.robust_keeps_set_epsilon PROPERTIES PASS_REGULAR_EXPRESSION
  "^\"adam_eps\":9.99999993922529e-09\n\"adam_eps\":1.0000000168623835e-16\n$")
# dlca sweep --adam-beta1 0.5 was only "not expected": a configuration key goes in --set.
dlca_cli_test(hostile.sweep.points_to_set ${expect} --status 2
  "not expected.*\\(a sweep sets configuration keys with --set: --set adam_beta1=VALUE\\)$"
  $<TARGET_FILE:dlca_sweep> --config ${h_tiny} --seeds 1 --out s --adam-beta1 0.5)
# --no-repair is --set repair=false; --seed has no --set (the sweep takes --seeds).
dlca_cli_test(hostile.sweep.points_to_set_negated ${expect} --status 2
  "not expected.*\\(a sweep sets configuration keys with --set: --set repair=false\\)$"
  $<TARGET_FILE:dlca_sweep> --config ${h_tiny} --seeds 1 --out s --no-repair)
# Errors from the library named the command line's options, which a sweep does not take.
dlca_cli_test(hostile.sweep.errors_name_set ${expect} --status 2
  "budget_epochs: has no effect without halving \\(--set starts=auto\\)$"
  $<TARGET_FILE:dlca_sweep> --config ${h_tiny} --seeds 1 --out s --set starts=1 --set budget_epochs=100)
# Another channel count without update_layers was blamed on update_layers[0].
dlca_cli_test(hostile.sweep.channels_without_layers ${expect} --status 2
  "--set channels=8: channels: the update layers are sized for the experiment's channels"
  $<TARGET_FILE:dlca_sweep> --config ${h_tiny} --seeds 1 --out s --set channels=8)
# An option whose key is not its name: --budget is --set budget_epochs (the hint said nothing).
dlca_cli_test(hostile.sweep.points_to_set_key_of_option ${expect} --status 2
  "not expected.*\\(a sweep sets configuration keys with --set: --set budget_epochs=VALUE\\)$"
  $<TARGET_FILE:dlca_sweep> --config ${h_tiny} --seeds 1 --out s --budget 100)

dlca_cli_test(hostile.sweep.seed_no_set_hint ${expect} --status 2 "not expected.*--seed[^(]*$"
  $<TARGET_FILE:dlca_sweep> --config ${h_tiny} --seeds 1 --out s --seed 3)
# A sweep over fire_rate on a synchronous experiment trained the same circuit for every value and
# tabled them as different combinations; the notebook's value alone was taken, changing nothing.
dlca_cli_test(hostile.sweep.fire_rate_needs_async ${expect} --status 2
  "(^|: )--set fire_rate=0.6: fire_rate: has no effect without async \\(a synchronous step updates every cell\\)$"
  $<TARGET_FILE:dlca_sweep> --config ${h_tiny} --seeds 1 --epochs 1 --threads 1 --out s
  --set fire_rate=0.6)

# A sweep over names only was taken (the same circuit trained once per name).
dlca_cli_test(hostile.sweep.names_only ${expect} --status 2
  "--set: name=a and name=b give the same configuration$"
  $<TARGET_FILE:dlca_sweep> --config ${h_tiny} --seeds 1 --epochs 1 --threads 1 --out s --set name=a,b)
# An image sweep resumed through another path to the same experiment ("./im/e.json") was refused
# as "other task": the picture is compared by its checksum, not by the path that reaches it.
dlca_cli_test(hostile.sweep.image_other_path sh -c "mkdir im && \
  cp ${PROJECT_SOURCE_DIR}/targets/lizard.png im/ && \
  sed 's#../../../targets/lizard.png#lizard.png#' ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/named_checkerboard_image_task.json \
  > im/e.json && $<TARGET_FILE:dlca_sweep> --config im/e.json --seeds 1 --epochs 2 --threads 1 \
  --out s > /dev/null && $<TARGET_FILE:dlca_sweep> --config ./im/e.json --seeds 1 --epochs 2 \
  --threads 1 --out s")
set_tests_properties(hostile.sweep.image_other_path PROPERTIES PASS_REGULAR_EXPRESSION
  "1 runs, 1 finished before")
# One diverging run stopped the whole sweep (exit 1), and every resume tried it first and stopped
# again: the rest of the grid could never train there. It is a row now ("diverged at epoch E").
dlca_cli_test(hostile.sweep.diverged_run_is_a_row sh -c "$<TARGET_FILE:dlca_sweep> \
  --config ${h_tiny} --seeds 1 --epochs 20 --threads 1 --out s --set weight_decay=0 \
  --set lr=3e38,0.05 > /dev/null && cut -d, -f2,5,9,12 s/runs.csv && grep -c diverged s/summary.md && \
  $<TARGET_FILE:dlca_sweep> --config ${h_tiny} --seeds 1 --epochs 20 --threads 1 --out s \
  --set weight_decay=0 --set lr=3e38,0.05 > out && head -n 1 out")
set_tests_properties(hostile.sweep.diverged_run_is_a_row PROPERTIES PASS_REGULAR_EXPRESSION
  "^options,final_hard_loss,model,diverged_epoch\nweight_decay=0[;]lr=3e38,,,2\nweight_decay=0[;]lr=0.05,[0-9]+,models/weight_decay=0_lr=0.05_seed1.json,\n1\n.*: 2 runs, 2 finished before")
# A hand-edited row claiming a stop at epoch 5 of 30 with a first zero at epoch 3, which its model
# does not have, was taken and tabled; rows are checked against their model's own record now.
dlca_cli_test(hostile.sweep.row_contradicts_model sh -c "$<TARGET_FILE:dlca_sweep> \
  --config ${h_tiny} --seeds 1 --epochs 30 --threads 1 --out s > /dev/null && \
  sed -i -e 's/\"epochs\": 30/\"epochs\": 5/' -e 's/\"first_zero_epoch\": null/\"first_zero_epoch\": 3/' \
  s/runs/seed1.json && \
  grep -q '\"epochs\": 5' s/runs/seed1.json && ${expect} --status 1 \
  'runs/seed1.json: not a finished run.s row \\(epochs: 5, but models/seed1.json was trained for 30\\)' \
  $<TARGET_FILE:dlca_sweep> --config ${h_tiny} --seeds 1 --epochs 30 --threads 1 --out s")
# A row edited into a solved one (final_hard_loss 0 at the last epoch, as a repair would give) was
# tabled as solved though its run has no repair and its model ends wrong.
dlca_cli_test(hostile.sweep.row_made_solved sh -c "$<TARGET_FILE:dlca_sweep> \
  --config ${h_tiny} --seeds 1 --epochs 30 --threads 1 --out s > /dev/null && \
  sed -i -e 's/\"first_zero_epoch\": null/\"first_zero_epoch\": 30/' \
  -e 's/\"final_hard_loss\": [0-9.]*/\"final_hard_loss\": 0/' s/runs/seed1.json && ${expect} --status 1 \
  'runs/seed1.json: not a finished run.s row \\(final_hard_loss: 0, but models/seed1.json ends at [1-9]' \
  $<TARGET_FILE:dlca_sweep> --config ${h_tiny} --seeds 1 --epochs 30 --threads 1 --out s")
# A picture's row edited to say its grown picture stays: rows are checked against their model's
# own hard circuit (picture_kept), and a row of an older build gets the value from it.
set(h_picture_sweep "$<TARGET_FILE:dlca_sweep> --target ${CMAKE_CURRENT_SOURCE_DIR}/../targets/pictures/heart.png \
  --size 8 --seeds 1 --epochs 1 --recipe paper --threads 1 --out s")
dlca_cli_test(hostile.sweep.row_made_kept sh -c "${h_picture_sweep} > /dev/null && \
  sed -i 's/\"kept_most_wrong_bits\": [0-9.]*/\"kept_most_wrong_bits\": 0/' s/runs/seed1.json && \
  grep -q '\"kept_most_wrong_bits\": 0' s/runs/seed1.json && ${expect} --status 1 \
  'runs/seed1.json: not a finished run.s row \\(kept_most_wrong_bits: 0, but models/seed1.json has [1-9][0-9]* wrong bits at most\\)' \
  ${h_picture_sweep}")
dlca_cli_test(hostile.sweep.row_without_kept sh -c "${h_picture_sweep} > /dev/null && \
  sed -i '/kept_most_wrong_bits/d' s/runs/seed1.json && ! grep -q kept s/runs/seed1.json && ${h_picture_sweep} > /dev/null && \
  cut -d, -f16 s/runs.csv")
set_tests_properties(hostile.sweep.row_without_kept PROPERTIES PASS_REGULAR_EXPRESSION
  "^kept_most_wrong_bits\n[1-9][0-9]*\n$")
