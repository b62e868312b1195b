# dlca sweep's own bookkeeping (every run's configuration and manifest entry) for a huge grid.
# --seeds 0-999999 took 10 GB before its first run; a grid that cannot fit is refused at once.
dlca_cli_test(hostile.sweep_size.bookkeeping_refused ${expect} --status 2
  "^dlca_sweep: keeping track of 40000000 runs \\(1000000 seeds x 40 combinations\\) needs about [0-9.]+ [KMGTP]iB of memory, more than the [0-9.]+ [KMGTP]iB available \\(MemAvailable\\)[;] make it smaller$"
  $<TARGET_FILE:dlca_sweep> --config ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/tiny_checkerboard.json
  --seeds 0-999999 --epochs 1 --out s --set "steps=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40")
set_tests_properties(hostile.sweep_size.bookkeeping_refused PROPERTIES TIMEOUT 60)
# summary.md opens with what was swept: the experiment, the run count and the command (issue 34).
dlca_cli_test(sweep.summary_header sh -c "$<TARGET_FILE:dlca_sweep> --config ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/tiny_checkerboard.json --seeds 1-3,7 --set lr=0.03,0.05 --epochs 2 --threads 1 --out s > /dev/null \
  && head -1 s/summary.md | grep -q '^# Sweep of .*tiny_checkerboard.json: 8 runs (4 seeds x 2 option combinations)$' \
  && grep -qF -- \"--seeds 1-3,7 --set 'lr=0.03,0.05' --epochs 2 --out\" s/summary.md")
